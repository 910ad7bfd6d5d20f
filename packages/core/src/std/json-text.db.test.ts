/**
 * `jsonTextOf` (std/scalars): a value's JSON written as text is `jsonOf(type, value)::text`,
 * byte for byte, NULL for NULL — for random values of every type with a text form of its own,
 * and for types that go through `jsonOf`. Results built as text (sql `jsonObject`) rely on it.
 */
import fc from 'fast-check';
import type { TypeRef } from '../model/schema';
import { pgType, sql, type SqlExpr } from '../sql/ast';
import { runBootstrap } from '../storage/migrate';
import { STORAGE_BOOTSTRAP_SQL } from '../schema/bootstrap';
import { printSql } from '../sql/print';
import { createTestDatabase, type TestDatabase } from '../testing';
import { jsonOf, jsonTextOf, STD_ONLY, STD_SCALARS_INFO } from './index';

jest.setTimeout(120_000);

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await runBootstrap(db.db, STORAGE_BOOTSTRAP_SQL);
});
afterAll(async () => {
  await db?.dispose();
});

const scalar = (name: string): TypeRef => ({ kind: 'scalar', name });
const literal = (type: string, text: string | null): SqlExpr =>
  sql.cast(text === null ? sql.null() : sql.text(text), pgType(type));

const int = (min: number, max: number) => fc.integer({ min, max }).map(String);
const bigint = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
const uuid = fc.uuid();
// Gel's datetimes: years 1 to 9999, microseconds.
const datetime = fc
  .tuple(
    fc.date({
      min: new Date('0001-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      // fast-check 4 also draws the invalid Date by default; a datetime always has a value.
      noInvalidDate: true,
    }),
    fc.integer({ min: 0, max: 999 }),
  )
  .map(([d, micro]) => `${d.toISOString().slice(0, -1)}${String(micro).padStart(3, '0')}Z`);
const text = fc.string({ unit: 'binary' }).map((s) => s.replaceAll('\u0000', ''));
const float = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '0', '-0'),
);

const float32 = fc.oneof(
  fc.float({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '0', '-0'),
);
const decimal = fc.oneof(
  fc
    .tuple(bigint, fc.nat({ max: 10 ** 9 }), fc.integer({ min: -30, max: 30 }))
    .map(([i, f, e]) => `${i}.${f}e${e}`),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '0', '-0.000'),
);

/** Each type measured: its PostgreSQL type and random literals of it. */
const CASES: [string, string, fc.Arbitrary<string>][] = [
  ['std::int16', 'smallint', int(-32768, 32767)],
  ['std::int32', 'integer', int(-2147483648, 2147483647)],
  ['std::int64', 'bigint', bigint],
  ['std::sequence', 'bigint', bigint],
  ['std::bool', 'boolean', fc.boolean().map(String)],
  ['std::uuid', 'uuid', uuid],
  ['std::datetime', 'timestamptz', datetime],
  ['std::str', 'text', text],
  ['std::float64', 'double precision', float],
  ['std::float32', 'real', float32],
  ['std::decimal', 'numeric', decimal],
  ['std::bigint', 'numeric', bigint.map((b) => `${b}${'0'.repeat(12)}`)],
];

test('every type with a text form of its own is measured here', () => {
  const own = Object.values(STD_SCALARS_INFO)
    .filter((info) => info.jsonText !== undefined)
    .map((info) => info.name);
  const measured = new Set(CASES.map(([name]) => name));
  expect(own.filter((name) => !measured.has(name))).toEqual([]);
});

test.each(CASES)('%s: jsonTextOf is jsonOf(...)::text, byte for byte', async (name, pg, values) => {
  const type = scalar(name);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.option(values, { freq: 8 }), { minLength: 1, maxLength: 50 }),
      async (batch) => {
        const pairs = batch.map((v) => {
          const value = literal(pg, v);
          return `${printSql(jsonTextOf(type, value, STD_ONLY))}, (${printSql(jsonOf(type, value, STD_ONLY))})::text`;
        });
        const { rows } = await db.db.query(
          `select t.* from (values ${pairs.map((p) => `(${p})`).join(', ')}) as t(got, want)`,
        );
        for (const row of rows as { got: string | null; want: string | null }[]) {
          expect(row.got).toBe(row.want);
        }
      },
    ),
    { numRuns: 20 },
  );
});
