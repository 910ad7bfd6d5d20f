/**
 * The std table's result-test coverage (issue 11, "Done when"): every operator and function
 * overload and every allowed cast between two distinct std scalars has
 * - a happy-path row (an `ok` row whose call resolves to it; its empty-input variant is derived
 *   from it, see harness.ts), and
 * - a failing input with its error class (a `fails` row), or, on an `ok` row, `never:` saying why
 *   no input can make it fail. `never` is refused when the row's SQL form raises
 *   (`svc_meta.raise` in std/catalogue.golden.txt, or in the cast's SQL).
 * The rows are the area files' (std/__tests__/*.rows.ts, listed in ./rows). The check binds each
 * row's query (no database): the overload it covers is the one the binder picked.
 * A row added to the std table without a result test fails here, named by its signature.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STD_SCALARS, type TypeRef } from '../../model/schema';
import { sql } from '../../sql/ast';
import { printSql } from '../../sql/print';
import { InvalidTypeError } from '../../errors';
import { resolveCast } from '../casts';
import { STD_FUNCTIONS } from '../functions';
import type { Overload } from '../model';
import { STD_OPERATORS } from '../operators';
import { printSignature } from '../resolve';
import { STD_ONLY } from '../scalars';
import { castKey, covered, type Covered, type Row } from './harness';
import { ALL_ROWS } from './rows';

/** Signature → the SQL its form prints (the reviewed catalogue). */
function catalogueSql(): Map<string, string> {
  const lines = readFileSync(join(__dirname, '..', 'catalogue.golden.txt'), 'utf8').split('\n');
  const out = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '' || line.startsWith('#') || line.startsWith('    ')) continue;
    out.set(line.replace(/ {2}\[[^\]]*\]$/, ''), (lines[i + 1] ?? '').trim());
  }
  return out;
}

const RAISES = /"?svc_meta"?\."?raise"?/;

/** Every allowed cast between two distinct std scalars, keyed as the harness keys them. */
function allowedCasts(): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of STD_SCALARS) {
    for (const b of STD_SCALARS) {
      // std::sequence is abstract: nothing casts into it or holds it (casts.rows.ts).
      if (a === b || a === 'std::sequence' || b === 'std::sequence') continue;
      const from: TypeRef = { kind: 'scalar', name: a };
      const to: TypeRef = { kind: 'scalar', name: b };
      try {
        const c = resolveCast(from, to, STD_ONLY);
        out.set(castKey(from, to), printSql(c.sql(sql.param(1))));
      } catch (error) {
        if (!(error instanceof InvalidTypeError)) throw error;
      }
    }
  }
  return out;
}

interface Tally {
  happy: number;
  fails: number;
  never: string | null;
}

const tallies = new Map<string, Tally>();
const unbound: string[] = [];
function tally(key: string): Tally {
  let t = tallies.get(key);
  if (!t) {
    t = { happy: 0, fails: 0, never: null };
    tallies.set(key, t);
  }
  return t;
}
for (const row of ALL_ROWS as readonly Row[]) {
  let cov: Covered;
  try {
    cov = covered(row.call);
  } catch (error) {
    unbound.push(`${row.text}: ${(error as Error).message}`);
    continue;
  }
  const t = tally(cov.key);
  if (row.kind === 'fails') t.fails++;
  else {
    t.happy++;
    if (row.never) t.never = row.never;
    // Empty input that raises (math::mean of {}) is the overload's failing input.
    if (row.emptyError) t.fails++;
  }
}

const overloads: Overload[] = [
  ...[...STD_OPERATORS.values()].flat(),
  ...[...STD_FUNCTIONS.values()].flat(),
];

function missing(keys: Iterable<[string, string]>): {
  happy: string[];
  failure: string[];
  refused: string[];
} {
  const happy: string[] = [];
  const failure: string[] = [];
  const refused: string[] = [];
  for (const [key, text] of keys) {
    const t = tallies.get(key);
    if (!t || t.happy === 0) happy.push(key);
    if (!t || (t.fails === 0 && t.never === null)) failure.push(key);
    if (t && t.fails === 0 && t.never !== null && RAISES.test(text))
      refused.push(`${key}: its SQL raises, so it needs a failing input (not "${t.never}")`);
  }
  return { happy, failure, refused };
}

const sqlBySignature = catalogueSql();
const opsAndFunctions = missing(
  overloads.map(
    (o) => [printSignature(o), sqlBySignature.get(printSignature(o)) ?? ''] as [string, string],
  ),
);
const casts = missing(allowedCasts());

const listed = (items: readonly string[]) => `${items.length}:\n  ${items.join('\n  ')}`;

test('every row binds to a std call or cast', () => {
  expect(unbound).toEqual([]);
});

test('every operator and function overload has a happy-path result test', () => {
  if (opsAndFunctions.happy.length > 0)
    throw new Error(`overloads without a happy path ${listed(opsAndFunctions.happy)}`);
});

test('every operator and function overload has a failing input, or says why none fails', () => {
  const problems = [...opsAndFunctions.failure, ...opsAndFunctions.refused];
  if (problems.length > 0)
    throw new Error(`overloads without a failing input or a reason ${listed(problems)}`);
});

test('every allowed cast between std scalars has a happy-path result test', () => {
  if (casts.happy.length > 0) throw new Error(`casts without a happy path ${listed(casts.happy)}`);
});

test('every allowed cast between std scalars has a failing input, or says why none fails', () => {
  const problems = [...casts.failure, ...casts.refused];
  if (problems.length > 0)
    throw new Error(`casts without a failing input or a reason ${listed(problems)}`);
});
