#!/usr/bin/env node
// Fails when the installed tree holds a package that runs code at install time (a `preinstall`,
// `install` or `postinstall` script, or a `binding.gyp`, which package managers build with
// `node-gyp rebuild`) that nobody reviewed, or a known telemetry package, anywhere (issue 31:
// swagger-ui-dist brought `@scarf/scarf`, an install-time telemetry script, into every install
// of @svc/rest).
//
// The tree is pnpm's own report (`pnpm ls -r --json --depth Infinity`, and `--prod` for what a
// user's install of a published @svc package gets); each package's scripts are read from its
// installed package.json.
//
// Rules:
// - a telemetry package (TELEMETRY) fails wherever it is;
// - a package with install scripts fails unless REVIEWED names it, with why it is there and
//   what its script does; one that reaches a published package's runtime tree must also be
//   reviewed for that (`runtime: true`);
// - a REVIEWED entry that is no longer in the tree fails too, so the list only shrinks
//   knowingly.
//
// Usage: node scripts/check-install-scripts.mjs   (run by .ci/run; exit 1 with the reasons)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

/** Packages whose purpose is to report installs or usage to someone: never allowed. */
export const TELEMETRY = new Set([
  '@scarf/scarf',
  'scarf-js',
  'opencollective',
  'opencollective-postinstall',
  '@opencollective/postinstall',
]);

/**
 * The packages with install scripts this repository has looked at and keeps, each with its
 * reason. Dev-only ones never reach a user's install of an @svc package.
 */
export const REVIEWED = {
  bcrypt: {
    runtime: true,
    reason:
      "@svc/auth's password hashing (native). `install: node-gyp-build` loads the prebuilt binary the package ships and compiles only where none fits; nothing is downloaded.",
  },
  '@swc/core': {
    runtime: false,
    reason:
      "dev: Jest's TypeScript transform. Its postinstall checks that the platform's binary package (an optional dependency) is present.",
  },
  esbuild: {
    runtime: false,
    reason:
      'dev: bundles the admin UI and the API reference page at build time. Its postinstall checks the platform binary; pnpm skips it (ignoredBuiltDependencies), and esbuild works without it.',
  },
  '@parcel/watcher': {
    runtime: false,
    reason:
      "dev: an optional file watcher of Jest's haste map. Its install builds from source only where no prebuilt binary fits; pnpm skips it (ignoredBuiltDependencies).",
  },
};

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
 * The problems of `packages` (`{name, version, path, runtime}`): telemetry, install scripts not
 * reviewed (or not reviewed for a runtime tree), and reviewed entries no longer installed.
 */
export function problems(packages, { reviewed = REVIEWED, telemetry = TELEMETRY } = {}) {
  const out = [];
  const seen = new Set();
  for (const pkg of packages) {
    const id = `${pkg.name}@${pkg.version}${pkg.runtime ? ' (in a published package)' : ''}`;
    if (telemetry.has(pkg.name)) out.push(`${id}: a telemetry package`);
    const scripts = installScripts(pkg.path);
    if (scripts.length === 0) continue;
    seen.add(pkg.name);
    const review = Object.hasOwn(reviewed, pkg.name) ? reviewed[pkg.name] : undefined;
    if (!review) out.push(`${id}: runs at install (${scripts.join('; ')}) and is not reviewed`);
    else if (pkg.runtime && !review.runtime)
      out.push(`${id}: runs at install (${scripts.join('; ')}); reviewed for development only`);
  }
  for (const name of Object.keys(reviewed)) {
    if (!seen.has(name))
      out.push(
        `${name}: reviewed, but no installed package of that name runs at install; drop it from REVIEWED`,
      );
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
  const found = problems(packages);
  if (found.length > 0) {
    console.error(`install scripts and telemetry: ${found.length} problem(s)`);
    for (const p of found) console.error(`  ${p}`);
    process.exit(1);
  }
  const reviewed = packages.filter((p) => installScripts(p.path).length > 0);
  console.log(
    `install scripts and telemetry: ${packages.length} packages, no telemetry, install scripts only in the reviewed ${[...new Set(reviewed.map((p) => p.name))].join(', ')}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
