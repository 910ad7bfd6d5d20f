// Tests of check-layers.mjs on small fixture trees (node's test runner; run by `pnpm lint`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { checkLayers, importsOf } from './check-layers.mjs';

const config = {
  packageImports: { '@x/low': [], '@x/high': ['@x/low'] },
  layers: {
    '@x/low': [
      { name: 'base', paths: ['base', 'leaf.ts'] },
      { name: 'middle', paths: ['middle'] },
      { name: 'top', paths: ['top', 'middle/harness', 'index.ts'] },
    ],
  },
};

/** A repository with packages/low and packages/high; `files` maps paths to contents. */
function fixture(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-layers-'));
  const all = {
    'packages/low/package.json': '{ "name": "@x/low" }',
    'packages/high/package.json': '{ "name": "@x/high" }',
    'packages/low/src/leaf.ts': 'export const leaf = 1;\n',
    'packages/low/src/base/index.ts': "import { leaf } from '../leaf';\nexport const b = leaf;\n",
    'packages/low/src/middle/m.ts': "import { b } from '../base';\nexport const m = b;\n",
    'packages/low/src/middle/harness/run.ts': "import { t } from '../../top/t';\nexport { t };\n",
    'packages/low/src/top/t.ts': "import { m } from '../middle/m';\nexport const t = m;\n",
    'packages/low/src/index.ts': "export * from './top/t';\n",
    'packages/high/src/index.ts': "import { t } from '@x/low';\nexport const h = t;\n",
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

function run(files) {
  const root = fixture(files);
  try {
    return checkLayers(root, config);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test('imports that run down the layers and along the package arrows pass', () => {
  assert.deepEqual(run({}), []);
});

test('an import up the layers fails, naming the file, the import and both layers', () => {
  const problems = run({
    'packages/low/src/base/up.ts': "import { m } from '../middle/m';\nexport const u = m;\n",
  });
  assert.deepEqual(problems, [
    "packages/low/src/base/up.ts (layer base) imports '../middle/m' (layer middle): an import up the layers",
  ]);
});

test('re-exports, dynamic imports and type imports count; comments do not', () => {
  const problems = run({
    'packages/low/src/base/a.ts': "export { t } from '../top/t';\n",
    'packages/low/src/base/b.ts': "export const load = () => import('../top/t');\n",
    'packages/low/src/base/c.ts':
      "import type { m } from '../middle/m';\nexport type C = typeof m;\n",
    'packages/low/src/base/d.ts': "/** import { t } from '../top/t'; */\n// import '../top/t';\n",
  });
  assert.equal(problems.length, 3);
  assert.match(problems[0], /base\/a\.ts \(layer base\) imports '\.\.\/top\/t' \(layer top\)/);
  assert.match(problems[1], /base\/b\.ts \(layer base\) imports '\.\.\/top\/t' \(layer top\)/);
  assert.match(
    problems[2],
    /base\/c\.ts \(layer base\) imports '\.\.\/middle\/m' \(layer middle\)/,
  );
});

test('the longest matching path decides a layer (a folder inside a lower one)', () => {
  const problems = run({
    'packages/low/src/middle/harness/bad.ts': 'export {};\n',
    'packages/low/src/middle/wrong.ts': "import { t } from './harness/run';\nexport { t };\n",
  });
  assert.deepEqual(problems, [
    "packages/low/src/middle/wrong.ts (layer middle) imports './harness/run' (layer top): an import up the layers",
  ]);
});

test('test files are not checked; a file in no layer is reported', () => {
  const problems = run({
    'packages/low/src/base/up.test.ts': "import { t } from '../top/t';\n",
    'packages/low/src/__tests__/helper.ts': "import { t } from '../top/t';\n",
    'packages/low/src/stray.ts': 'export const s = 1;\n',
  });
  assert.deepEqual(problems, [
    'packages/low/src/stray.ts: in no layer of @x/low (add it to scripts/check-layers.mjs)',
  ]);
});

test('a package importing a package it may not import fails', () => {
  const problems = run({
    'packages/low/src/top/t.ts': "import { h } from '@x/high/sub';\nexport const t = h;\n",
  });
  assert.deepEqual(problems, [
    "packages/low/src/top/t.ts: imports '@x/high/sub', but @x/low may import only no other package",
  ]);
});

test('a package missing from the package list fails', () => {
  const problems = run({ 'packages/other/package.json': '{ "name": "@x/other" }' });
  assert.deepEqual(problems, ['@x/other: not in the package list of scripts/check-layers.mjs']);
});

test('an import cycle across folders fails; one inside a folder passes', () => {
  const problems = run({
    'packages/low/src/middle/m.ts':
      "import { b } from '../base';\nimport { n } from './n';\nexport const m = b + n;\n",
    'packages/low/src/middle/n.ts':
      "import { m } from './m';\nexport const n = 1;\nexport const mm = () => m;\n",
    'packages/low/src/middle/deep/d.ts': "import { m } from '../m';\nexport const d = m;\n",
    'packages/low/src/middle/o.ts': "import { d } from './deep/d';\nexport const o = d;\n",
    'packages/low/src/middle/p.ts': "export { o } from './o';\n",
    'packages/low/src/middle/deep/e.ts': "export { o } from '../o';\n",
  });
  assert.deepEqual(problems, []);
  const cyclic = run({
    'packages/low/src/middle/o.ts': "import { e } from './deep/e';\nexport const o = e;\n",
    'packages/low/src/middle/deep/e.ts':
      "import { o } from '../o';\nexport const e = 1;\nexport const oo = () => o;\n",
  });
  assert.deepEqual(cyclic, [
    'an import cycle across folders: packages/low/src/middle/deep/e.ts, packages/low/src/middle/o.ts import each other',
  ]);
});

test('importsOf reads static, side-effect, dynamic and require imports', () => {
  const text = [
    "import a from './a';",
    "import './b';",
    "export * from './c';",
    "const d = await import('./d');",
    "const e = require('./e');",
    'import {',
    '  f,',
    "} from './f';",
  ].join('\n');
  assert.deepEqual(importsOf(text), ['./a', './b', './c', './d', './e', './f']);
});
