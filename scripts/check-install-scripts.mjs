#!/usr/bin/env node
// Fails when the installed tree holds a package that runs code at install time (a `preinstall`,
// `install` or `postinstall` script, or a `binding.gyp`, which package managers build with
// `node-gyp rebuild`) that nobody reviewed, or a known telemetry package or telemetry-capable
// tool, anywhere (issue 31: swagger-ui-dist brought `@scarf/scarf`, an install-time telemetry
// script, into every install of @svc/rest).
//
// The tree is pnpm's own report (`pnpm ls -r --json --depth Infinity`, and `--prod` for what a
// user's install of a published @svc package gets); each package's scripts are read from its
// installed package.json.
//
// Rules:
// - a telemetry package or a tool that can send usage data (TELEMETRY, each with its reason)
//   fails wherever it is, in development too, whatever setting would turn it off;
// - no install script runs: pnpm-workspace.yaml has no `onlyBuiltDependencies`, and a package
//   with install scripts fails unless REVIEWED names it (why it is there, what its script does,
//   why it works without it) and pnpm-workspace.yaml's `ignoredBuiltDependencies` names it too,
//   so pnpm skips the script and `pnpm install` reports no ignored build;
// - nothing with install scripts reaches a published package's runtime tree (a user's install
//   of an @svc package), reviewed or not;
// - a REVIEWED entry that is no longer in the tree fails too, so the list only shrinks
//   knowingly.
//
// Usage: node scripts/check-install-scripts.mjs   (run by .ci/run; exit 1 with the reasons)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

/**
 * Packages that report installs or usage to someone, by name, with the reason: never allowed,
 * not even in development with the reporting turned off.
 */
export const TELEMETRY = {
  '@scarf/scarf': 'reports installs (an install script); came with swagger-ui-dist',
  'scarf-js': 'reports installs (an install script)',
  opencollective: 'an install-time funding script',
  'opencollective-postinstall': 'an install-time funding script',
  '@opencollective/postinstall': 'an install-time funding script',
  '@redocly/cli':
    'sends usage data unless REDOCLY_TELEMETRY=off; scripts/lint-openapi.mjs lints with @redocly/openapi-core, its library, which has no telemetry',
};

/**
 * The packages with install scripts this repository has looked at and keeps, each with its
 * reason: development tools only, whose scripts pnpm skips (`ignoredBuiltDependencies`).
 */
export const REVIEWED = {
  '@swc/core': {
    reason:
      "dev: Jest's TypeScript transform (@swc/jest). Its postinstall checks that the platform's binary package (an optional dependency) loads, else fetches @swc/wasm; the binary package is installed, so it is not needed.",
  },
  esbuild: {
    reason:
      'dev: bundles the admin UI and the API reference page at build time. Its postinstall checks the platform binary (an optional dependency, installed); esbuild works without it.',
  },
};

/**
 * The top-level lists of pnpm-workspace.yaml (`key:` then `  - item` lines; `key: []` is empty),
 * by key. Enough for the build settings read here; not a YAML parser.
 */
export function workspaceLists(text) {
  const lists = {};
  let current;
  for (const line of text.split('\n')) {
    const key = /^([A-Za-z][\w-]*):\s*(\[\s*\])?\s*(#.*)?$/.exec(line);
    if (key) {
      current = key[1];
      lists[current] = [];
      continue;
    }
    const item = /^\s+-\s+("?)([^"#\s]+)\1\s*(#.*)?$/.exec(line);
    if (item && current) lists[current].push(item[2]);
    else if (/^\S/.test(line) && !line.startsWith('#')) current = undefined;
  }
  return lists;
}

/** What `dir`'s package runs at install time: its install scripts, or an implicit node-gyp build. */
export function installScripts(dir) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    return [];
  }
  const scripts = manifest.scripts ?? {};
  const found = INSTALL_SCRIPTS.filter((k) => typeof scripts[k] === 'string' && scripts[k] !== '');
  const out = found.map((k) => `${k}: ${scripts[k]}`);
  // npm and pnpm run `node-gyp rebuild` for a binding.gyp when no install script is declared.
  if (!scripts.install && !scripts.preinstall && fs.existsSync(path.join(dir, 'binding.gyp'))) {
    out.push('binding.gyp (node-gyp rebuild)');
  }
  return out;
}

const DEPENDENCY_KEYS = ['dependencies', 'devDependencies', 'optionalDependencies'];

/**
 * Every installed package of a `pnpm ls --json` report (workspace projects' links left out), by
 * `name@version`, with its directory. The walk is bounded by the report itself (a finite tree:
 * pnpm prints a repeated subtree once and marks the others `deduped`).
 */
export function collect(report) {
  const out = new Map();
  const visit = (deps) => {
    for (const [name, dep] of Object.entries(deps ?? {})) {
      const version = String(dep.version ?? '');
      if (!version.startsWith('link:') && dep.path) {
        const key = `${name}@${version}`;
        if (!out.has(key)) out.set(key, { name, version, path: dep.path });
      }
      for (const k of DEPENDENCY_KEYS) visit(dep[k]);
    }
  };
  for (const project of report) for (const k of DEPENDENCY_KEYS) visit(project[k]);
  return out;
}

/**
 * The problems of `packages` (`{name, version, path, runtime}`) under pnpm's build settings
 * (`workspace`: the lists of pnpm-workspace.yaml): telemetry, install scripts not reviewed, not
 * skipped, or in a runtime tree, and reviewed entries no longer installed.
 */
export function problems(
  packages,
  { reviewed = REVIEWED, telemetry = TELEMETRY, workspace = {} } = {},
) {
  const out = [];
  const seen = new Set();
  const ignored = new Set(workspace.ignoredBuiltDependencies ?? []);
  for (const name of workspace.onlyBuiltDependencies ?? []) {
    out.push(`${name}: pnpm-workspace.yaml lets its install script run (onlyBuiltDependencies)`);
  }
  for (const pkg of packages) {
    const id = `${pkg.name}@${pkg.version}${pkg.runtime ? ' (in a published package)' : ''}`;
    if (Object.hasOwn(telemetry, pkg.name)) out.push(`${id}: telemetry (${telemetry[pkg.name]})`);
    const scripts = installScripts(pkg.path);
    if (scripts.length === 0) continue;
    seen.add(pkg.name);
    const what = `runs at install (${scripts.join('; ')})`;
    if (pkg.runtime) out.push(`${id}: ${what}; nothing in a published package may`);
    else if (!Object.hasOwn(reviewed, pkg.name)) out.push(`${id}: ${what} and is not reviewed`);
    else if (!ignored.has(pkg.name))
      out.push(
        `${id}: ${what}; reviewed, but pnpm-workspace.yaml's ignoredBuiltDependencies must name it`,
      );
  }
  for (const name of Object.keys(reviewed)) {
    if (!seen.has(name))
      out.push(
        `${name}: reviewed, but not in the tree (or no longer runs at install); drop it from the list`,
      );
  }
  for (const name of ignored) {
    if (!Object.hasOwn(reviewed, name))
      out.push(`${name}: in ignoredBuiltDependencies but not reviewed here; review it or drop it`);
  }
  return out;
}

function pnpmReport(root, extra) {
  const { packageManager } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const text = execFileSync(
    'npx',
    ['--yes', packageManager, 'ls', '-r', '--json', '--depth', 'Infinity', ...extra],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return JSON.parse(text);
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const all = collect(pnpmReport(root, []));
  const published = pnpmReport(root, ['--prod']).filter((p) => p.private !== true);
  const runtime = new Set(collect(published).keys());
  const packages = [...all].map(([key, pkg]) => ({ ...pkg, runtime: runtime.has(key) }));
  const workspace = workspaceLists(fs.readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8'));
  const found = problems(packages, { workspace });
  if (found.length > 0) {
    console.error(`install scripts and telemetry: ${found.length} problem(s)`);
    for (const p of found) console.error(`  ${p}`);
    process.exit(1);
  }
  const reviewed = packages.filter((p) => installScripts(p.path).length > 0);
  console.log(
    `install scripts and telemetry: ${packages.length} packages, no telemetry, no install script runs; skipped (reviewed, dev only): ${[...new Set(reviewed.map((p) => p.name))].join(', ')}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
