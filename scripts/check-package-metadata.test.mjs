// Tests of check-package-metadata.mjs on planted manifests: a complete one passes, and each
// field missing or wrong is named (node's test runner; run by `pnpm lint`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  metadataProblems,
  packedFileProblems,
  publishedPackages,
} from './check-package-metadata.mjs';

const rootManifest = {
  name: 'monorepo',
  private: true,
  license: 'Apache-2.0',
  repository: { type: 'git', url: 'git+https://example.invalid/x.git' },
  engines: { node: '>=20.19' },
};

const complete = () => ({
  name: '@x/lib',
  version: '0.1.0',
  description: 'a library',
  keywords: ['x', 'lib'],
  license: 'Apache-2.0',
  repository: { type: 'git', url: 'git+https://example.invalid/x.git', directory: 'packages/lib' },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './extra': { types: './dist/extra.d.ts', default: './dist/extra.js' },
    './package.json': './package.json',
  },
  typesVersions: { '*': { extra: ['./dist/extra.d.ts'] } },
  bin: { lib: './bin/lib.js' },
  files: ['dist', '!dist/**/*.test.*', 'bin', 'README.md', 'CHANGELOG.md'],
  engines: { node: '>=20.19' },
  publishConfig: { access: 'public', provenance: true },
});

/** A repository with packages/lib (built: its dist and bin files exist) and a private package. */
function plant(manifest) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-metadata-'));
  const dir = path.join(root, 'packages', 'lib');
  for (const f of [
    'dist/index.js',
    'dist/index.d.ts',
    'dist/extra.js',
    'dist/extra.d.ts',
    'bin/lib.js',
  ]) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), '');
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  fs.mkdirSync(path.join(root, 'packages', 'helpers'));
  fs.writeFileSync(
    path.join(root, 'packages', 'helpers', 'package.json'),
    JSON.stringify({ name: '@x/helpers', private: true }),
  );
  return { root, dir };
}

const check = (manifest, opts = {}) => {
  const { root, dir } = plant(manifest);
  return metadataProblems(manifest, { root, dir, rootManifest, ...opts });
};

test('a complete manifest passes; private packages are not checked', () => {
  const { root } = plant(complete());
  assert.deepEqual(
    publishedPackages(root).map((p) => p.manifest.name),
    ['@x/lib'],
  );
  assert.deepEqual(check(complete()), []);
});

test('a missing field is named: keywords, engines, license, repository, provenance', () => {
  for (const [field, want] of [
    ['keywords', 'keywords: missing, want a non-empty list'],
    ['engines', 'engines.node: missing, want ">=20.19"'],
    ['license', 'license: missing, want "Apache-2.0"'],
    [
      'repository',
      'repository: missing, want {"type":"git","url":"git+https://example.invalid/x.git","directory":"packages/lib"}',
    ],
    ['description', 'description: missing'],
  ]) {
    const manifest = complete();
    delete manifest[field];
    assert.deepEqual(check(manifest), [want], field);
  }
  const manifest = complete();
  manifest.publishConfig = { access: 'public' };
  assert.deepEqual(check(manifest), ['publishConfig.provenance: missing, want true']);
});

test('a wrong value is named: another licence, a repository without its directory, empty keywords', () => {
  const manifest = complete();
  manifest.license = 'GPL-3.0-only';
  manifest.repository = { type: 'git', url: 'git+https://example.invalid/x.git' };
  manifest.keywords = ['x', 'x'];
  manifest.publishConfig.access = 'restricted';
  assert.deepEqual(check(manifest), [
    'license: "GPL-3.0-only", want "Apache-2.0"',
    'repository: {"type":"git","url":"git+https://example.invalid/x.git"}, want {"type":"git","url":"git+https://example.invalid/x.git","directory":"packages/lib"}',
    'keywords: a repeated keyword',
    'publishConfig.access: "restricted", want "public"',
  ]);
});

test('files: sources, tests and fixtures are refused, README.md and CHANGELOG.md are required', () => {
  const manifest = complete();
  manifest.files = ['dist', 'src', 'test/fixtures', 'bin'];
  assert.deepEqual(check(manifest), [
    'files: README.md is not listed',
    'files: CHANGELOG.md is not listed',
    'files: "src" publishes sources, tests or fixtures',
    'files: "test/fixtures" publishes sources, tests or fixtures',
  ]);
});

test('exports: an incomplete map, types not first, an ESM condition the build does not emit', () => {
  const manifest = complete();
  manifest.exports = {
    '.': { default: './dist/index.js', types: './dist/index.d.ts' },
    './extra': {
      types: './dist/extra.d.ts',
      import: './dist/extra.mjs',
      default: './dist/extra.js',
    },
  };
  assert.deepEqual(check(manifest), [
    'exports["./package.json"]: missing, want "./package.json"',
    'exports["."]: "types" must come first (it is ["default","types"])',
    'exports["./extra"]: conditions ["import"] the build does not emit',
  ]);
});

test('exports: main and types follow ".", each subpath has its typesVersions, the files exist', () => {
  const manifest = complete();
  manifest.main = './dist/main.js';
  manifest.exports['./more'] = { types: './dist/more.d.ts', default: './dist/more.js' };
  manifest.exports['./extra'].types = './dist/other.d.ts';
  assert.deepEqual(check(manifest), [
    'exports["./extra"].types: "./dist/other.d.ts", want "./dist/extra.d.ts"',
    'main: "./dist/main.js", want "./dist/index.js"',
    'typesVersions["*"]["extra"]: ["./dist/extra.d.ts"], want ["./dist/other.d.ts"]',
    'typesVersions["*"]["more"]: missing, want ["./dist/more.d.ts"]',
    './dist/other.d.ts: named by the manifest but not there (run the build first)',
    './dist/more.js: named by the manifest but not there (run the build first)',
    './dist/more.d.ts: named by the manifest but not there (run the build first)',
  ]);
});

test('a bin outside "files" is named', () => {
  const manifest = complete();
  manifest.files = ['dist', 'README.md', 'CHANGELOG.md'];
  assert.deepEqual(check(manifest), ['./bin/lib.js: named by the manifest but not inside "files"']);
});

test('packedFileProblems: tests, specs, fixtures and test folders in a tarball; testing.js is not a test', () => {
  assert.deepEqual(
    packedFileProblems([
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/testing.js',
      'dist/testing/index.d.ts',
      'dist/a.test.js',
      'dist/a.spec.d.ts',
      'dist/__tests__/helper.js',
      'dist/test/x.js',
      'fixtures/schema.esdl',
    ]),
    [
      'dist/a.test.js: tests and fixtures are not published (exclude it in "files")',
      'dist/a.spec.d.ts: tests and fixtures are not published (exclude it in "files")',
      'dist/__tests__/helper.js: tests and fixtures are not published (exclude it in "files")',
      'dist/test/x.js: tests and fixtures are not published (exclude it in "files")',
      'fixtures/schema.esdl: tests and fixtures are not published (exclude it in "files")',
    ],
  );
});
