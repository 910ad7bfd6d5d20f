/**
 * Properties of the std table where a formula exists, checked on the database (SVC_TEST_DB):
 * floor division and modulo, indexing and slicing against JavaScript's own (Gel's semantics are
 * Python's: negative from the end, slices clamped), and durations surviving their ISO 8601
 * text form. Each run evaluates a batch of random cases in one query.
 */
import fc from 'fast-check';
import { runBootstrap } from '../storage/migrate';
import { STORAGE_BOOTSTRAP_SQL } from '../schema/bootstrap';
import { pgType, sql, type SqlExpr } from '../sql/ast';
import { printSql } from '../sql/print';
import type { TypeRef } from '../model/schema';
import { createTestDatabase, type TestDatabase } from '../testing';
import { jsonOf, resolveCast, resolveOperator, STD_ONLY, type CallArg } from './index';

// Each run is one query; the machine may be shared, so give the batches room.
jest.setTimeout(120_000);

const t = (name: string): TypeRef => ({ kind: 'scalar', name: `std::${name}` });
const INT64 = t('int64');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await runBootstrap(db.db, STORAGE_BOOTSTRAP_SQL);
});
afterAll(async () => {
  await db?.dispose();
});

const int = (n: number): SqlExpr => sql.cast(sql.num(n), pgType('bigint'));
const text = (s: string): SqlExpr => sql.cast(sql.text(s), pgType('text'));

/** Evaluates the expressions in one query; each comes back through its JSON form. */
async function evaluate(items: readonly { expr: SqlExpr; type: TypeRef }[]): Promise<unknown[]> {
  const array = sql.func(
    'json_build_array',
    items.map((i) => jsonOf(i.type, i.expr, STD_ONLY)),
  );
  const { rows } = await db.db.query(`select ${printSql(array)}::text as result`);
  return JSON.parse((rows[0] as { result: string }).result) as unknown[];
}

function op(name: string, args: readonly CallArg[], values: readonly SqlExpr[]) {
  const call = resolveOperator(name, args);
  return { expr: call.sql(values), type: call.returnType as TypeRef };
}

const pairs = fc.array(
  fc.tuple(
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.integer({ min: -1000, max: 1000 }).filter((b) => b !== 0),
  ),
  { minLength: 1, maxLength: 40 },
);

test('a // b is floor(a / b), a % b has the sign of b, and (a // b) * b + a % b = a', async () => {
  await fc.assert(
    fc.asyncProperty(pairs, async (cases) => {
      const exprs = cases.flatMap(([a, b]) => [
        op('//', [{ type: INT64 }, { type: INT64 }], [int(a), int(b)]),
        op('%', [{ type: INT64 }, { type: INT64 }], [int(a), int(b)]),
      ]);
      const results = await evaluate(exprs);
      cases.forEach(([a, b], i) => {
        const q = results[2 * i] as number;
        const r = results[2 * i + 1] as number;
        expect(q).toBe(Math.floor(a / b) + 0); // + 0: JavaScript floors 0 / -1 to -0
        expect(q * b + r).toBe(a);
        if (r !== 0) expect(Math.sign(r)).toBe(Math.sign(b));
      });
    }),
    { numRuns: 25 },
  );
});

const word = fc.stringMatching(/^[a-zA-Z0-9 é]{0,10}$/);
const bound = fc.option(fc.integer({ min: -14, max: 14 }), { nil: undefined });

test('string and array slices clamp like JavaScript (and Python) slices', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(word, bound, bound), { minLength: 1, maxLength: 30 }),
      async (cases) => {
        const exprs = cases.flatMap(([s, start, stop]) => {
          const named: CallArg[] = [];
          const values: SqlExpr[] = [];
          if (start !== undefined) {
            named.push({ type: INT64, name: 'start' });
            values.push(int(start));
          }
          if (stop !== undefined) {
            named.push({ type: INT64, name: 'stop' });
            values.push(int(stop));
          }
          const chars = Array.from(s);
          const array: SqlExpr = {
            kind: 'ArrayExpr',
            elements: chars.map(text),
            type: pgType('text', 1),
          };
          return [
            op('[:]', [{ type: t('str') }, ...named], [text(s), ...values]),
            op(
              '[:]',
              [{ type: { kind: 'array', element: t('str') } }, ...named],
              [array, ...values],
            ),
          ];
        });
        const results = await evaluate(exprs);
        cases.forEach(([s, start, stop], i) => {
          const expected = Array.from(s).slice(start, stop);
          expect(results[2 * i]).toBe(expected.join(''));
          expect(results[2 * i + 1]).toEqual(expected);
        });
      },
    ),
    { numRuns: 25 },
  );
});

test('indexing inside the bounds agrees with Array.prototype.at', async () => {
  const cases = fc
    .array(fc.tuple(fc.stringMatching(/^[a-z]{1,10}$/), fc.integer({ min: -10, max: 9 })), {
      minLength: 1,
      maxLength: 30,
    })
    .map((list) =>
      list.map(
        ([s, i]) => [s, (((i % s.length) + s.length) % s.length) - (i < 0 ? s.length : 0)] as const,
      ),
    );
  await fc.assert(
    fc.asyncProperty(cases, async (list) => {
      const results = await evaluate(
        list.map(([s, i]) => op('[]', [{ type: t('str') }, { type: INT64 }], [text(s), int(i)])),
      );
      list.forEach(([s, i], k) => {
        expect(results[k]).toBe(Array.from(s).at(i));
      });
    }),
    { numRuns: 25 },
  );
});

test('a duration survives its ISO 8601 text: <duration><str>d = d', async () => {
  const toStr = resolveCast(t('duration'), t('str'), STD_ONLY);
  const fromStr = resolveCast(t('str'), t('duration'), STD_ONLY);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), { minLength: 1, maxLength: 30 }),
      async (micros) => {
        const durations = micros.map((us) =>
          sql.bin(
            '*',
            sql.cast(sql.text('1 microsecond'), pgType('interval')),
            sql.num(String(us)),
          ),
        );
        const exprs = durations.flatMap((d) => [
          {
            expr: sql.func('date_part', [sql.text('epoch'), fromStr.sql(toStr.sql(d))]),
            type: t('float64'),
          },
          { expr: sql.func('date_part', [sql.text('epoch'), d]), type: t('float64') },
        ]);
        const results = await evaluate(exprs);
        micros.forEach((_, i) => {
          expect(results[2 * i]).toBe(results[2 * i + 1]);
        });
      },
    ),
    { numRuns: 25 },
  );
});
