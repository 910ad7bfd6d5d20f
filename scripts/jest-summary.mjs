// Reads the Jest JSON reports of one or more test runs and prints `N passed, N failed` as the
// last line; exits 1 if anything failed, a suite could not run, or an expected report is
// missing (a package whose tests never ran must not pass silently). Before that line it names each
// failed test with the head of its message (what was expected and received, not the stack), so a CI
// log says what failed and how.
// Usage: node scripts/jest-summary.mjs <results-dir> [expected-report-count] [other-failures]
import fs from 'node:fs';
import path from 'node:path';

const [dir, expectedText, otherText] = process.argv.slice(2);
if (!dir) {
  console.error('usage: jest-summary.mjs <results-dir> [expected-report-count]');
  process.exit(2);
}
const files = fs.existsSync(dir)
  ? fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];
let passed = 0;
let failed = 0;
let problems = Number(otherText ?? 0);
const failures = [];
if (problems) console.log(`${problems} non-test checks failed (see above)`);
for (const file of files) {
  let report;
  try {
    report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  } catch (err) {
    console.log(`${file}: unreadable report (${err.message})`);
    problems++;
    continue;
  }
  const brokenSuites = report.numRuntimeErrorTestSuites ?? 0;
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + brokenSuites;
  const line = `${file.replace(/\.json$/, '').padEnd(28)} ${String(report.numPassedTests).padStart(5)} passed  ${String(report.numFailedTests).padStart(3)} failed  ${brokenSuites ? `${brokenSuites} suites failed to run` : ''}`;
  console.log(line.trimEnd());
  for (const suite of report.testResults ?? []) {
    const where = path.relative(process.cwd(), suite.name ?? suite.testFilePath ?? '?');
    if (
      suite.status === 'failed' &&
      !(suite.assertionResults ?? []).some((t) => t.status === 'failed')
    ) {
      failures.push(`${file.replace(/\.json$/, '')}: ${where}: ${excerpt(suite.message)}`);
    }
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      failures.push(
        `${file.replace(/\.json$/, '')}: ${where}: ${test.fullName}: ${excerpt(test.failureMessages?.[0])}`,
      );
    }
  }
  if (report.numTotalTests === 0) {
    if (otherEngineOnly(file)) {
      console.log(`${file}: every suite of the package runs in the other pass`);
    } else {
      console.log(`${file}: ran no test`);
      problems++;
    }
  }
}
const expected = Number(expectedText ?? files.length);
if (files.length < expected) {
  console.log(
    `missing reports: found ${files.length} of ${expected} (a package's tests did not run)`,
  );
  problems += expected - files.length;
}
if (failures.length) {
  console.log(`failed tests (${failures.length}):`);
  for (const line of failures.slice(0, 50)) console.log(`  ${line}`);
}
console.log(`${passed} passed, ${failed + problems} failed`);
process.exit(failed + problems > 0 ? 1 : 0);

/**
 * The head of a Jest failure message: its non-empty lines up to the stack trace, without colour
 * codes, at most 16 lines of at most 200 characters each; lines after the first are indented
 * under the failure's own line.
 */
function excerpt(message) {
  const text = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const lines = [];
  for (const line of text.split('\n')) {
    if (/^\s+at /.test(line)) break;
    if (!line.trim()) continue;
    lines.push(line.trimEnd().slice(0, 200));
    if (lines.length === 16) break;
  }
  return lines.map((line, i) => (i === 0 ? line.trim() : `      ${line}`)).join('\n');
}

/**
 * Whether a report named `<engine>-<package>.json` is empty because every suite of the package is
 * the other pass's (`*.pglite.test.ts` and `*.nodb.test.ts` in the PostgreSQL pass,
 * `*.postgres.test.ts` in the PGlite pass: jest.preset.js). A package with no suite at all is
 * not: it ran no test.
 */
function otherEngineOnly(file) {
  const match = /^(postgres|pglite)-(.+)\.json$/.exec(file);
  if (!match) return false;
  const other =
    match[1] === 'postgres' ? ['.pglite.test.ts', '.nodb.test.ts'] : ['.postgres.test.ts'];
  const root = ['packages', 'apps']
    .map((group) => path.join(group, match[2]))
    .find((candidate) => fs.existsSync(candidate));
  if (!root) return false;
  const suites = [];
  const walk = (at) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.test.ts')) suites.push(entry.name);
    }
  };
  walk(root);
  return suites.length > 0 && suites.every((name) => other.some((end) => name.endsWith(end)));
}
