// Tests of check-install-scripts.mjs on a planted tree: a package with a postinstall, one with a
// binding.gyp, a telemetry package and a clean one, in a temporary folder.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { collect, installScripts, problems } from './check-install-scripts.mjs';

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
const reviewed = { 'reviewed-dev': { runtime: false, reason: 'a planted dev tool' } };

test('installScripts: declared install scripts, and an implicit node-gyp build', () => {
  assert.deepEqual(installScripts(path.join(root, 'clean')), []);
  assert.deepEqual(installScripts(path.join(root, 'phones-home')), [
    'postinstall: node ./report.js',
  ]);
  assert.deepEqual(installScripts(path.join(root, 'native')), ['binding.gyp (node-gyp rebuild)']);
  assert.deepEqual(installScripts(path.join(root, 'missing')), []);
});

test('a clean tree and a reviewed dev tool pass', () => {
  assert.deepEqual(problems([pkg('clean'), pkg('reviewed-dev')], { reviewed }), []);
});

test('a planted install script fails, naming the package and the script', () => {
  const found = problems([pkg('clean'), pkg('phones-home'), pkg('reviewed-dev')], { reviewed });
  assert.deepEqual(found, [
    'phones-home@1.0.0: runs at install (postinstall: node ./report.js) and is not reviewed',
  ]);
});

test('a binding.gyp counts as an install script', () => {
  assert.equal(problems([pkg('native'), pkg('reviewed-dev')], { reviewed }).length, 1);
});

test('a telemetry package fails even with no script of its own', () => {
  assert.deepEqual(problems([pkg('@scarf/scarf'), pkg('reviewed-dev')], { reviewed }), [
    '@scarf/scarf@1.0.0: a telemetry package',
  ]);
});

test("a dev tool reviewed for development fails in a published package's runtime tree", () => {
  assert.deepEqual(problems([pkg('reviewed-dev', true)], { reviewed }), [
    'reviewed-dev@1.0.0 (in a published package): runs at install (preinstall: node check.js); reviewed for development only',
  ]);
});

test('a reviewed entry no longer installed fails (the list stays true)', () => {
  assert.deepEqual(problems([pkg('clean')], { reviewed }), [
    'reviewed-dev: reviewed, but no installed package of that name runs at install; drop it from REVIEWED',
  ]);
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
