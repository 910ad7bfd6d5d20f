#!/usr/bin/env node
// The licences of what a user installs: the production dependency tree of the published packages
// (packages/* not private; scripts/check-package-metadata.mjs), as `pnpm licenses list --prod
// --json` reports it (issue 32). Fails on any licence that is not permissive (PERMISSIVE below;
// an SPDX expression passes when each AND-part has an allowed OR-alternative), and keeps the
// README's summary table (the `licenses` section) true: with --check it fails when the table is
// out of date; without, it rewrites it.
//
// Usage (after the install): node scripts/check-licenses.mjs [--check]   (`pnpm lint` runs --check)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishedPackages } from './check-package-metadata.mjs';
import { replaceSection } from './generated-section.mjs';

/** The permissive licences a dependency may have (SPDX identifiers). */
export const PERMISSIVE = [
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC0-1.0',
  'ISC',
  'MIT',
  'MIT-0',
  'Unlicense',
];

/** Whether an SPDX expression (`MIT`, `(MIT OR GPL-3.0)`, `MIT AND BSD-3-Clause`) is permissive. */
export function permissive(expression, allowed = PERMISSIVE) {
  const text = String(expression ?? '')
    .replace(/[()]/g, ' ')
    .trim();
  if (text === '') return false;
  return text
    .split(/\s+AND\s+/)
    .every((part) => part.split(/\s+OR\s+/).some((id) => allowed.includes(id.trim())));
}

/** The packages of a `pnpm licenses list --json` report, one per name and version. */
function entries(report) {
  return Object.entries(report).flatMap(([license, packages]) =>
    packages.flatMap((p) => p.versions.map((version) => ({ license, name: p.name, version }))),
  );
}

/** The dependencies whose licence is not permissive, as messages. */
export function licenseProblems(report, allowed = PERMISSIVE) {
  return entries(report)
    .filter((e) => !permissive(e.license, allowed))
    .map((e) => `${e.name}@${e.version}: licence ${JSON.stringify(e.license)} is not permissive`);
}

/** The README table: packages per licence, most first; a small group names its packages. */
export function summaryTable(report) {
  const groups = Object.entries(report)
    .map(([license, packages]) => ({
      license,
      count: packages.reduce((n, p) => n + p.versions.length, 0),
      names: [...new Set(packages.map((p) => p.name))].sort(),
    }))
    .sort((a, b) => b.count - a.count || a.license.localeCompare(b.license));
  const total = groups.reduce((n, g) => n + g.count, 0);
  const rows = groups.map(
    (g) =>
      `| ${g.license} | ${g.count} | ${g.names.length <= 8 ? g.names.map((n) => `\`${n}\``).join(', ') : ''} |`,
  );
  return [
    '| Licence | Packages | Which (when few) |',
    '| --- | --- | --- |',
    ...rows,
    `| all | ${total} | |`,
  ].join('\n');
}

function pnpmLicenses(root, names) {
  const { packageManager } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const text = execFileSync(
    'npx',
    [
      '--yes',
      packageManager,
      '-r',
      ...names.flatMap((n) => ['--filter', n]),
      'licenses',
      'list',
      '--prod',
      '--json',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // A tree without dependencies is reported as a sentence, not JSON.
  return text.trim().startsWith('{') ? JSON.parse(text) : {};
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const check = process.argv.includes('--check');
  const names = publishedPackages(root).map((p) => p.manifest.name);
  const report = pnpmLicenses(root, names);
  const problems = licenseProblems(report);
  const readme = path.join(root, 'README.md');
  const before = fs.readFileSync(readme, 'utf8');
  const stale = [];
  const after = replaceSection(before, 'licenses', summaryTable(report), stale, {
    file: 'README.md',
    script: 'scripts/check-licenses.mjs',
  });
  if (check) problems.push(...stale);
  else if (stale.length > 0 && after !== before) {
    fs.writeFileSync(readme, after);
    // Formatted as `biome check` wants it (padded table cells), so the lint passes as written.
    spawnSync(path.join(root, 'node_modules/.bin/biome'), ['format', '--write', readme], {
      cwd: root,
    });
    console.log('README.md: licence table written');
  } else problems.push(...stale);
  if (problems.length > 0) {
    console.error(`licences: ${problems.length} problem(s)`);
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log(
    `licences: ${entries(report).length} packages in the production tree of ${names.length} published packages, all permissive`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
