#!/usr/bin/env node
// Checks what a release of each published package (packages/* without `"private": true`) says
// about itself, from its package.json (issue 32):
//
// - `license` and `engines.node` are the root package.json's (one source of truth each);
// - `repository` is the root's `repository`, with `directory` naming the package's folder;
// - `description` and `keywords` are there (keywords: non-empty, no repeats);
// - `publishConfig` is provenance-ready: `access: "public"` and `provenance: true`;
// - `files` is a list naming README.md and CHANGELOG.md and nothing that is tests, fixtures or sources
//   (what the packed tarball really holds is checked by scripts/check-package.mjs, which packs it,
//   with `packedFileProblems` below);
// - `exports` is complete for a CommonJS build: `.` and `./package.json`, and each entry point
//   `{types, default}` (types first) at a `.d.ts` beside its `.js` under dist/; `main` and `types`
//   are `.`'s; each subpath has its `typesVersions` entry (for node10 resolution); every file
//   named (entry points and `bin`) exists after the build and is inside `files`.
//
// publint and attw (scripts/check-package.mjs) check the packed tarball the way a consumer meets
// it; this script checks what they do not: the metadata a registry page and a provenance
// statement show.
//
// Usage (after the build): node scripts/check-package-metadata.mjs   (run by `pnpm lint`; exit 1
// with the problems)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Paths in a packed tarball that are tests, fixtures or their outputs: never published. */
const TEST_PATH = [
  /(^|\/)(test|tests|__tests__|__mocks__|fixtures?|__fixtures__|__cases__)(\/|$)/,
  /\.(test|spec)\.([cm]?[jt]sx?|d\.[cm]?ts)(\.map)?$/,
];

/** Names in `files` that bring sources or tests into the tarball. */
const FORBIDDEN_FILES_ENTRY = [/^(\.\/)?src(\/|$)/, ...TEST_PATH];

/** The problems of a packed tarball's file list (paths relative to the package). */
export function packedFileProblems(paths) {
  return paths
    .filter((p) => TEST_PATH.some((re) => re.test(p)))
    .map((p) => `${p}: tests and fixtures are not published (exclude it in "files")`);
}

/** The published packages under `root`: packages/* whose package.json is not private. */
export function publishedPackages(root) {
  const dir = path.join(root, 'packages');
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => path.join(dir, name))
    .filter((d) => fs.existsSync(path.join(d, 'package.json')))
    .map((d) => ({ dir: d, manifest: JSON.parse(fs.readFileSync(path.join(d, 'package.json'))) }))
    .filter((p) => p.manifest.private !== true);
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v) => (v === undefined ? 'missing' : JSON.stringify(v));

/** Whether the path `file` (relative to the package) is inside what `files` publishes. */
function published(files, file) {
  const rel = file.replace(/^\.\//, '');
  const included = files.some((f) => {
    const entry = f.replace(/^\.\//, '').replace(/\/$/, '');
    return !entry.startsWith('!') && (rel === entry || rel.startsWith(`${entry}/`));
  });
  return included || rel === 'package.json';
}

/** The entry points of `exports` (subpath → `{types, js}`), with the problems of its shape. */
function entryPoints(exports, problems) {
  const out = new Map();
  if (!isObject(exports)) {
    problems.push(`exports: ${show(exports)}, want an object of subpaths`);
    return out;
  }
  if (!Object.hasOwn(exports, '.')) problems.push('exports: no "." entry');
  if (exports['./package.json'] !== './package.json')
    problems.push(
      `exports["./package.json"]: ${show(exports['./package.json'])}, want "./package.json"`,
    );
  for (const [sub, target] of Object.entries(exports)) {
    if (sub === './package.json') continue;
    const where = `exports[${JSON.stringify(sub)}]`;
    if (!sub.startsWith('.')) {
      problems.push(`${where}: a subpath starts with "."`);
      continue;
    }
    if (!isObject(target)) {
      problems.push(`${where}: ${show(target)}, want {"types": ..., "default": ...}`);
      continue;
    }
    const keys = Object.keys(target);
    if (keys[0] !== 'types')
      problems.push(`${where}: "types" must come first (it is ${show(keys)})`);
    const extra = keys.filter((k) => !['types', 'require', 'default'].includes(k));
    // The build is CommonJS (tsc, "type": "commonjs"): an `import` or `node` condition would
    // name files it does not emit.
    if (extra.length) problems.push(`${where}: conditions ${show(extra)} the build does not emit`);
    const js = target.default ?? target.require;
    const types = target.types;
    if (typeof js !== 'string' || !/^\.\/dist\/.+\.js$/.test(js))
      problems.push(`${where}.default: ${show(js)}, want a ./dist/....js file`);
    else if (types !== js.replace(/\.js$/, '.d.ts'))
      problems.push(`${where}.types: ${show(types)}, want ${show(js.replace(/\.js$/, '.d.ts'))}`);
    if (typeof js === 'string' && typeof types === 'string') out.set(sub, { js, types });
  }
  return out;
}

/**
 * The problems of one published package's manifest (`dir` is its folder, `rootManifest` the
 * repository's package.json); `built`: also check that the files it names exist.
 */
export function metadataProblems(manifest, { dir, root, rootManifest, built = true }) {
  const problems = [];
  const folder = path.relative(root, dir).split(path.sep).join('/');
  const expect = (field, actual, want) => {
    if (JSON.stringify(actual) !== JSON.stringify(want))
      problems.push(`${field}: ${show(actual)}, want ${show(want)}`);
  };

  if (typeof manifest.description !== 'string' || manifest.description.trim() === '')
    problems.push('description: missing');
  expect('license', manifest.license, rootManifest.license);
  expect('engines.node', manifest.engines?.node, rootManifest.engines?.node);
  if (!isObject(rootManifest.repository) || !rootManifest.repository.url)
    problems.push('the root package.json has no repository {type, url}: every package copies it');
  else expect('repository', manifest.repository, { ...rootManifest.repository, directory: folder });

  const keywords = manifest.keywords;
  if (!Array.isArray(keywords) || keywords.length === 0)
    problems.push(`keywords: ${show(keywords)}, want a non-empty list`);
  else {
    if (keywords.some((k) => typeof k !== 'string' || k.trim() === ''))
      problems.push(`keywords: ${show(keywords)}, want non-empty strings`);
    if (new Set(keywords).size !== keywords.length) problems.push('keywords: a repeated keyword');
  }

  expect('publishConfig.access', manifest.publishConfig?.access, 'public');
  expect('publishConfig.provenance', manifest.publishConfig?.provenance, true);

  const files = manifest.files;
  if (!Array.isArray(files) || files.length === 0) {
    problems.push(`files: ${show(files)}, want the list of what is published`);
  } else {
    if (!files.includes('README.md')) problems.push('files: README.md is not listed');
    // Written by `changeset version`; npm packs it only when `files` names it.
    if (!files.includes('CHANGELOG.md')) problems.push('files: CHANGELOG.md is not listed');
    for (const f of files) {
      if (!f.startsWith('!') && FORBIDDEN_FILES_ENTRY.some((re) => re.test(f)))
        problems.push(`files: ${show(f)} publishes sources, tests or fixtures`);
    }
  }

  const points = entryPoints(manifest.exports, problems);
  const main = points.get('.');
  if (main) {
    expect('main', manifest.main, main.js);
    expect('types', manifest.types, main.types);
  }
  for (const [sub, { types }] of points) {
    if (sub === '.') continue;
    const key = sub.slice(2);
    expect(`typesVersions["*"][${JSON.stringify(key)}]`, manifest.typesVersions?.['*']?.[key], [
      types,
    ]);
  }

  const named = [...points.values()].flatMap((p) => [p.js, p.types]);
  if (manifest.bin !== undefined) {
    if (!isObject(manifest.bin)) problems.push(`bin: ${show(manifest.bin)}, want {name: file}`);
    else named.push(...Object.values(manifest.bin));
  }
  for (const file of named) {
    if (Array.isArray(files) && !published(files, file))
      problems.push(`${file}: named by the manifest but not inside "files"`);
    if (built && !fs.existsSync(path.join(dir, file)))
      problems.push(`${file}: named by the manifest but not there (run the build first)`);
  }
  return problems;
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const rootManifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const packages = publishedPackages(root);
  let count = 0;
  for (const { dir, manifest } of packages) {
    const found = metadataProblems(manifest, { dir, root, rootManifest });
    for (const p of found) console.error(`${manifest.name}: ${p}`);
    count += found.length;
  }
  if (count > 0) {
    console.error(`package metadata: ${count} problem(s)`);
    process.exit(1);
  }
  console.log(
    `package metadata: ${packages.length} published packages (${packages.map((p) => p.manifest.name).join(', ')}): license, engines, repository, keywords, files, exports and publishConfig complete`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
