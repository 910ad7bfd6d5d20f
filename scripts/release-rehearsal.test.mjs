// The release rehearsal's tarball checks (scripts/release-rehearsal.mjs): what a published
// package must not hold, read from a real .tgz. Run: node --test scripts/release-rehearsal.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { readTarball, tarballProblems } from './release-rehearsal.mjs';

const entry = (p, body = '') => ({
  path: p,
  size: Buffer.byteLength(body),
  body: Buffer.from(body),
});
const map = (sources, sourcesContent) => JSON.stringify({ version: 3, sources, sourcesContent });

test('a clean package passes', () => {
  const js = 'exports.a = 1;\n//# sourceMappingURL=index.js.map\n';
  assert.deepEqual(
    tarballProblems([
      entry('package.json', '{}'),
      entry('dist/index.js', js),
      entry('dist/index.js.map', map(['../src/index.ts'], ['export const a = 1;'])),
      entry('dist/testing.js', ''), // an entry named testing is not a test
    ]),
    [],
  );
});

test('tests, test folders and fixtures are refused', () => {
  assert.deepEqual(
    tarballProblems([
      entry('dist/a.test.js'),
      entry('dist/__tests__/helper.js'),
      entry('test/x.js'),
      entry('dist/__fixtures__/a.json'),
      entry('fixtures/b.json'),
    ]),
    [
      'a test: dist/a.test.js',
      'a test folder: dist/__tests__/helper.js',
      'a test folder: test/x.js',
      'a fixture: dist/__fixtures__/a.json',
      'a fixture: fixtures/b.json',
    ],
  );
});

test('a source map is refused when a source is neither in it nor in the tarball', () => {
  assert.deepEqual(
    tarballProblems([
      entry('dist/index.js.map', map(['../src/index.ts'])),
      entry('dist/b.js.map', map(['../src/b.ts'])),
      entry('src/b.ts', 'export {};'),
      entry('dist/c.js', '//# sourceMappingURL=c.js.map'),
    ]),
    [
      'a source map whose source is not in it: dist/index.js.map → src/index.ts',
      'a source map reference to a missing file: dist/c.js → dist/c.js.map',
    ],
  );
});

test('readTarball reads what tar wrote, long names included', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rehearsal-test-'));
  try {
    const long = `dist/${'a'.repeat(120)}.test.js`;
    fs.mkdirSync(path.join(dir, 'package', 'dist'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package', 'package.json'), '{"name":"x"}');
    fs.writeFileSync(path.join(dir, 'package', long), 'x'.repeat(700));
    execFileSync('tar', ['-czf', 'x.tgz', 'package'], { cwd: dir });
    const entries = readTarball(fs.readFileSync(path.join(dir, 'x.tgz')));
    assert.deepEqual(entries.map((e) => [e.path, e.size]).sort(), [
      [long, 700],
      ['package.json', 12],
    ]);
    assert.deepEqual(tarballProblems(entries), [`a test: ${long}`]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
