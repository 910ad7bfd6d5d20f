// Tests of check-licenses.mjs on planted `pnpm licenses list --json` reports (node's test runner;
// run by `pnpm lint`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { licenseProblems, permissive, summaryTable } from './check-licenses.mjs';

const pkg = (name, ...versions) => ({ name, versions: versions.length ? versions : ['1.0.0'] });

test('permissive: SPDX identifiers and expressions', () => {
  for (const ok of [
    'MIT',
    'ISC',
    'Apache-2.0',
    'BSD-3-Clause',
    '0BSD',
    'BlueOak-1.0.0',
    '(MIT OR GPL-3.0-only)',
    'MIT AND BSD-2-Clause',
  ])
    assert.equal(permissive(ok), true, ok);
  for (const bad of [
    'GPL-3.0-only',
    'AGPL-3.0',
    'SSPL-1.0',
    'UNLICENSED',
    'Unknown',
    '',
    undefined,
    'MIT AND GPL-2.0',
    '(LGPL-2.1 OR GPL-3.0)',
  ])
    assert.equal(permissive(bad), false, String(bad));
});

test('a planted copyleft or unknown licence fails, naming the package and version', () => {
  const report = {
    MIT: [pkg('a'), pkg('b', '1.0.0', '2.0.0')],
    'GPL-3.0-only': [pkg('copyleft', '3.1.0')],
    Unknown: [pkg('no-licence-field')],
  };
  assert.deepEqual(licenseProblems(report), [
    'copyleft@3.1.0: licence "GPL-3.0-only" is not permissive',
    'no-licence-field@1.0.0: licence "Unknown" is not permissive',
  ]);
  assert.deepEqual(licenseProblems({ MIT: [pkg('a')], ISC: [pkg('b')] }), []);
});

test('summaryTable: packages per licence (each version counts), most first, names when few', () => {
  const report = {
    ISC: [pkg('i')],
    MIT: [pkg('a'), pkg('b', '1.0.0', '2.0.0')],
    'Apache-2.0': Array.from({ length: 9 }, (_, k) => pkg(`p${k}`)),
  };
  assert.equal(
    summaryTable(report),
    [
      '| Licence | Packages | Which (when few) |',
      '| --- | --- | --- |',
      '| Apache-2.0 | 9 |  |',
      '| MIT | 3 | `a`, `b` |',
      '| ISC | 1 | `i` |',
      '| all | 13 | |',
    ].join('\n'),
  );
});
