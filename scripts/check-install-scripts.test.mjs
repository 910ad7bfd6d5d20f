// Tests of check-install-scripts.mjs on a planted tree: a package with a postinstall, one with a
// binding.gyp, a telemetry package and a clean one, in a temporary folder.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { collect, installScripts, problems, workspaceLists } from './check-install-scripts.mjs';

function plant(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-install-scripts-'));
  for (const [name, manifest, extra] of files) {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name, version: '1.0.0', ...manifest }),
    );
    if (extra) fs.writeFileSync(path.join(dir, extra), '{}');
  }
  return root;
}

const root = plant([
  ['clean', { scripts: { build: 'tsc', test: 'jest' } }],
  ['phones-home', { scripts: { postinstall: 'node ./report.js' } }],
  ['native', {}, 'binding.gyp'],
  ['@scarf/scarf', {}],
  ['reviewed-dev', { scripts: { preinstall: 'node check.js' } }],
]);
const pkg = (name, runtime = false) => ({
  name,
  version: '1.0.0',
  path: path.join(root, name),
  runtime,
});
const reviewed = { 'reviewed-dev': { reason: 'a planted dev tool' } };
const workspace = { ignoredBuiltDependencies: ['reviewed-dev'] };
const opts = { reviewed, workspace };

test('installScripts: declared install scripts, and an implicit node-gyp build', () => {
  assert.deepEqual(installScripts(path.join(root, 'clean')), []);
  assert.deepEqual(installScripts(path.join(root, 'phones-home')), [
    'postinstall: node ./report.js',
  ]);
  assert.deepEqual(installScripts(path.join(root, 'native')), ['binding.gyp (node-gyp rebuild)']);
  assert.deepEqual(installScripts(path.join(root, 'missing')), []);
});

test('a clean tree and a reviewed dev tool whose script pnpm skips pass', () => {
  assert.deepEqual(problems([pkg('clean'), pkg('reviewed-dev')], opts), []);
});

test('a planted install script fails, naming the package and the script', () => {
  const found = problems([pkg('clean'), pkg('phones-home'), pkg('reviewed-dev')], opts);
  assert.deepEqual(found, [
    'phones-home@1.0.0: runs at install (postinstall: node ./report.js) and is not reviewed',
  ]);
});

test('a binding.gyp counts as an install script', () => {
  assert.equal(problems([pkg('native'), pkg('reviewed-dev')], opts).length, 1);
});

test('a telemetry package fails even with no script of its own', () => {
  assert.deepEqual(problems([pkg('@scarf/scarf'), pkg('reviewed-dev')], opts), [
    '@scarf/scarf@1.0.0: telemetry (reports installs (an install script); came with swagger-ui-dist)',
  ]);
});

test('a telemetry-capable dev tool fails too, whatever setting would turn it off: @redocly/cli', () => {
  const cli = { ...pkg('@redocly/cli'), path: path.join(root, 'clean') };
  const [found, ...rest] = problems([cli, pkg('reviewed-dev')], opts);
  assert.deepEqual(rest, []);
  assert.match(
    found,
    /^@redocly\/cli@1\.0\.0: telemetry \(sends usage data unless REDOCLY_TELEMETRY=off;/,
  );
});

test("nothing with an install script may be in a published package's runtime tree, reviewed or not", () => {
  assert.deepEqual(problems([pkg('reviewed-dev', true)], opts), [
    'reviewed-dev@1.0.0 (in a published package): runs at install (preinstall: node check.js); nothing in a published package may',
  ]);
});

test('a reviewed tool whose script pnpm would run fails: not skipped, or let run', () => {
  assert.deepEqual(problems([pkg('reviewed-dev')], { ...opts, workspace: {} }), [
    "reviewed-dev@1.0.0: runs at install (preinstall: node check.js); reviewed, but pnpm-workspace.yaml's ignoredBuiltDependencies must name it",
  ]);
  assert.deepEqual(
    problems([pkg('reviewed-dev')], {
      ...opts,
      workspace: { ...workspace, onlyBuiltDependencies: ['reviewed-dev'] },
    }),
    ['reviewed-dev: pnpm-workspace.yaml lets its install script run (onlyBuiltDependencies)'],
  );
});

test('a reviewed entry no longer installed fails, and so does a skipped build nobody reviewed', () => {
  assert.deepEqual(problems([pkg('clean')], opts), [
    'reviewed-dev: reviewed, but not in the tree (or no longer runs at install); drop it from the list',
  ]);
  assert.deepEqual(
    problems([pkg('reviewed-dev')], {
      ...opts,
      workspace: { ignoredBuiltDependencies: ['reviewed-dev', 'other'] },
    }),
    ['other: in ignoredBuiltDependencies but not reviewed here; review it or drop it'],
  );
});

test('workspaceLists: the top-level lists of pnpm-workspace.yaml, quoted or not, comments left out', () => {
  const text = [
    'packages:',
    '  - packages/*',
    '# a comment',
    'onlyBuiltDependencies: []',
    'ignoredBuiltDependencies:',
    '  - "@swc/core" # why',
    '  - esbuild',
    'overrides:',
    '  "a>b": "-"',
  ].join('\n');
  assert.deepEqual(workspaceLists(text), {
    packages: ['packages/*'],
    onlyBuiltDependencies: [],
    ignoredBuiltDependencies: ['@swc/core', 'esbuild'],
    overrides: [],
  });
});

test("collect: every package of pnpm's report once, workspace links left out", () => {
  const report = [
    {
      name: 'root',
      devDependencies: {
        a: {
          version: '1.0.0',
          path: '/a',
          dependencies: {
            b: { version: '2.0.0', path: '/b' },
            w: { version: 'link:../w', path: '/w' },
          },
        },
      },
    },
    { name: 'w', dependencies: { b: { version: '2.0.0', path: '/b', deduped: true } } },
  ];
  assert.deepEqual([...collect(report).keys()], ['a@1.0.0', 'b@2.0.0']);
});
