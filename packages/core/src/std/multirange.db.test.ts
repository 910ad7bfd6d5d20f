/**
 * `multirange<T>` and the range predicates and operators in the std table (std/multiranges), the
 * range casts (std/range-casts), run on a real database (PGlite or PostgreSQL, SVC_TEST_DB): on
 * values decoded from JSON parameters, results in Gel's JSON form (a multirange is an array of
 * ranges).
 */
import { runBootstrap } from '../storage/migrate';
import { STORAGE_BOOTSTRAP_SQL } from '../schema/bootstrap';
import { pgType, sql, type SqlExpr } from '../sql/ast';
import { printSql } from '../sql/print';
import type { TypeRef } from '../model/schema';
import { queryErrorClassForSqlState } from '../errors';
import { createTestDatabase, type TestDatabase } from '../testing';
import {
  commonType,
  decodeParam,
  implicitDistance,
  jsonOf,
  paramValueProblem,
  resolveCast,
  resolveFunction,
  resolveOperator,
  STD_ONLY,
  type CallArg,
} from './index';

const t = (name: string): TypeRef => {
  for (const kind of ['range', 'multirange', 'array'] as const) {
    if (name.startsWith(`${kind}<`)) return { kind, element: t(name.slice(kind.length + 1, -1)) };
  }
  return { kind: 'scalar', name: name.includes('::') ? name : `std::${name}` };
};

/** An argument: its EdgeQL type and its value as the JSON a client would send. */
type Arg = [type: string, value: unknown];

let test_: TestDatabase;
beforeAll(async () => {
  test_ = await createTestDatabase();
  await runBootstrap(test_.db, STORAGE_BOOTSTRAP_SQL);
});
afterAll(async () => {
  await test_?.dispose();
});

const jsonb = (value: unknown): SqlExpr =>
  sql.cast(sql.text(JSON.stringify(value)), pgType('jsonb'));

function decodeArgs(args: readonly Arg[]): { values: SqlExpr[]; callArgs: CallArg[] } {
  return {
    values: args.map(([type, value]) => decodeParam(t(type), jsonb(value), STD_ONLY)),
    callArgs: args.map(([type]) => ({ type: t(type) })),
  };
}

async function json(type: TypeRef, value: SqlExpr): Promise<unknown> {
  const { rows } = await test_.db.query(
    `select ${printSql(jsonOf(type, value, STD_ONLY))}::text as result`,
  );
  const raw = (rows[0] as { result: string | null }).result;
  return raw === null ? null : JSON.parse(raw);
}

/** The Gel error class name the database error of `value` maps to. */
async function errorOf(type: TypeRef, value: SqlExpr): Promise<string> {
  try {
    await json(type, value);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    return `${queryErrorClassForSqlState(code)?.name}: ${(error as Error).message}`;
  }
  return 'no error';
}

const R = (lower: unknown, upper: unknown, incLower = true, incUpper = false) => ({
  lower,
  upper,
  inc_lower: incLower,
  inc_upper: incUpper,
});

describe('multirange functions', () => {
  test.each<[string, Arg[], unknown]>([
    // multirange() merges and orders its ranges, drops empty ones.
    ['std::multirange', [['array<range<int64>>', [R(5, 9), R(1, 3), R(2, 4)]]], [R(1, 4), R(5, 9)]],
    ['std::multirange', [['array<range<int64>>', [{ empty: true }]]], []],
    ['std::multirange', [['array<range<float64>>', []]], []],
    ['std::multirange', [['array<range<int64>>', null]], null],
    [
      'std::multirange',
      [['array<range<cal::local_date>>', [R('2024-01-01', '2024-01-03')]]],
      [R('2024-01-01', '2024-01-03')],
    ],
    ['std::range_is_empty', [['multirange<int64>', []]], true],
    ['std::range_is_empty', [['multirange<int64>', [R(1, 2)]]], false],
    ['std::range_get_lower', [['multirange<int64>', [R(3, 4), R(8, 9)]]], 3],
    ['std::range_get_upper', [['multirange<float64>', [R(3, 4), R(8, 9.5)]]], 9.5],
    ['std::range_get_upper', [['multirange<int64>', [R(3, null)]]], null],
    ['std::range_is_inclusive_lower', [['multirange<float64>', [R(1, 2, false)]]], false],
    ['std::range_is_inclusive_upper', [['multirange<float64>', [R(1, 2, true, true)]]], true],
    [
      'std::contains',
      [
        ['multirange<int64>', [R(1, 5), R(8, 9)]],
        ['multirange<int64>', [R(2, 3), R(8, 9)]],
      ],
      true,
    ],
    [
      'std::contains',
      [
        ['multirange<int64>', [R(1, 5), R(8, 9)]],
        ['range<int64>', R(4, 8)],
      ],
      false,
    ],
    [
      'std::contains',
      [
        ['multirange<float64>', [R(1, 5)]],
        ['float64', 4.5],
      ],
      true,
    ],
    [
      'std::contains',
      [
        ['multirange<int64>', [R(1, 5)]],
        ['int64', null],
      ],
      null,
    ],
    [
      'std::overlaps',
      [
        ['multirange<int64>', [R(1, 3)]],
        ['range<int64>', R(2, 9)],
      ],
      true,
    ],
    [
      'std::strictly_below',
      [
        ['range<int64>', R(1, 3)],
        ['range<int64>', R(3, 5)],
      ],
      true,
    ],
    [
      'std::strictly_above',
      [
        ['multirange<int64>', [R(6, 7)]],
        ['multirange<int64>', [R(3, 5)]],
      ],
      true,
    ],
    [
      'std::bounded_above',
      [
        ['range<int64>', R(1, 9)],
        ['range<int64>', R(3, 5)],
      ],
      false,
    ],
    [
      'std::bounded_below',
      [
        ['range<int64>', R(4, 9)],
        ['range<int64>', R(3, 5)],
      ],
      true,
    ],
    [
      'std::adjacent',
      [
        ['range<datetime>', R('2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z')],
        ['range<datetime>', R('2024-01-02T00:00:00Z', null)],
      ],
      true,
    ],
    [
      'std::adjacent',
      [
        ['multirange<int64>', [R(1, 3)]],
        ['multirange<int64>', [R(4, 5)]],
      ],
      false,
    ],
  ])('%s %j → %j', async (name, args, expected) => {
    const { values, callArgs } = decodeArgs(args);
    const call = resolveFunction(name, callArgs);
    expect(await json(call.returnType as TypeRef, call.sql(values))).toEqual(expected);
  });

  test('multirange_unpack gives the ranges in order', async () => {
    const { values, callArgs } = decodeArgs([['multirange<int64>', [R(8, 9), R(1, 3)]]]);
    const call = resolveFunction('std::multirange_unpack', callArgs);
    expect(call.overload.kind).toBe('set-returning');
    const value = jsonOf(call.returnType as TypeRef, sql.col('v', 'r'), STD_ONLY);
    const { rows } = await test_.db.query(
      `select coalesce(json_agg(${printSql(value)} order by r.o), '[]')::text as result from ${printSql(call.sql(values))} with ordinality as r(v, o)`,
    );
    expect(JSON.parse((rows[0] as { result: string }).result)).toEqual([R(1, 3), R(8, 9)]);
  });
});

describe('range and multirange operators', () => {
  test.each<[string, Arg, Arg, unknown]>([
    ['+', ['range<int64>', R(1, 5)], ['range<int64>', R(3, 8)], R(1, 8)],
    ['*', ['range<int64>', R(1, 5)], ['range<int64>', R(3, 8)], R(3, 5)],
    ['-', ['range<int64>', R(1, 5)], ['range<int64>', R(3, 8)], R(1, 3)],
    ['+', ['multirange<int64>', [R(1, 2)]], ['range<int64>', R(5, 6)], [R(1, 2), R(5, 6)]],
    ['-', ['multirange<int64>', [R(1, 9)]], ['multirange<int64>', [R(3, 4)]], [R(1, 3), R(4, 9)]],
    ['*', ['multirange<int64>', [R(1, 9)]], ['multirange<int64>', [R(3, 4)]], [R(3, 4)]],
    ['=', ['range<int64>', R(1, 5)], ['multirange<int64>', [R(1, 5)]], true],
    ['=', ['range<int32>', R(1, 5)], ['range<float64>', R(1, 5)], true],
    ['<', ['multirange<int64>', [R(1, 5)]], ['multirange<int64>', [R(2, 3)]], true],
    ['?=', ['multirange<int64>', null], ['multirange<int64>', null], true],
    ['!=', ['multirange<int64>', []], ['multirange<int64>', [{ empty: true }]], false],
  ])('%s: %j, %j → %j', async (op, left, right, expected) => {
    const { values, callArgs } = decodeArgs([left, right]);
    const call = resolveOperator(op, callArgs);
    expect(await json(call.returnType as TypeRef, call.sql(values))).toEqual(expected);
  });

  test('a range union that is not one range is an InvalidValueError', async () => {
    const { values, callArgs } = decodeArgs([
      ['range<int64>', R(1, 2)],
      ['range<int64>', R(5, 6)],
    ]);
    const call = resolveOperator('+', callArgs);
    expect(await errorOf(call.returnType as TypeRef, call.sql(values))).toMatch(
      /^InvalidValueError: /,
    );
  });
});

describe('range casts', () => {
  test.each<[string, string, unknown, unknown]>([
    ['range<int64>', 'range<int32>', R(2, 9), R(2, 9)],
    ['range<int64>', 'range<float64>', R(2, 9, false, true), R(3, 10)],
    ['range<float64>', 'range<decimal>', R(2.5, null), R(2.5, null)],
    ['range<int64>', 'range<float64>', { empty: true }, { empty: true }],
    [
      'range<cal::local_date>',
      'range<cal::local_datetime>',
      R('2024-01-01', '2024-01-03'),
      R('2024-01-01T00:00:00', '2024-01-03T00:00:00'),
    ],
    [
      'range<cal::local_datetime>',
      'range<cal::local_date>',
      R('2024-01-01T00:00:00', '2024-01-03T00:00:00'),
      R('2024-01-01', '2024-01-03'),
    ],
    ['range<int64>', 'multirange<int64>', R(1, 3), [R(1, 3)]],
    ['range<int64>', 'multirange<int64>', { empty: true }, []],
    ['multirange<int64>', 'multirange<float64>', [R(1, 3), R(5, 6)], [R(1, 3), R(5, 6)]],
    ['range<int64>', 'range<int32>', null, null],
  ])('<%s> → <%s> %j → %j', async (from, to, value, expected) => {
    const cast = resolveCast(t(from), t(to), STD_ONLY);
    const decoded = decodeParam(t(from), jsonb(value), STD_ONLY);
    expect(await json(t(to), cast.sql(decoded))).toEqual(expected);
  });

  test.each<[string, string]>([
    ['multirange<int64>', 'range<int64>'],
    ['range<datetime>', 'range<cal::local_datetime>'],
    ['range<cal::local_date>', 'range<datetime>'],
    ['range<int64>', 'array<int64>'],
  ])('<%s> → <%s> is an InvalidTypeError', (from, to) => {
    expect(() => resolveCast(t(from), t(to), STD_ONLY)).toThrow(/cannot cast/);
  });

  test('implicit casts: element-wise, and a range is one cast from its multirange', () => {
    expect(implicitDistance(t('range<int32>'), t('range<int64>'), STD_ONLY)).toBe(1);
    expect(implicitDistance(t('range<int64>'), t('multirange<int64>'), STD_ONLY)).toBe(1);
    expect(implicitDistance(t('multirange<int64>'), t('range<int64>'), STD_ONLY)).toBeNull();
    expect(implicitDistance(t('range<float64>'), t('range<decimal>'), STD_ONLY)).toBeNull();
    expect(commonType([t('range<int32>'), t('multirange<float64>')], STD_ONLY)).toEqual(
      t('multirange<float64>'),
    );
  });
});

describe('ranges from JSON', () => {
  const fromJson = (to: string, value: unknown) =>
    resolveCast(t('json'), t(to), STD_ONLY).sql(jsonb(value));

  test.each<[string, unknown, unknown]>([
    ['range<int64>', { lower: 2, inc_lower: true, upper: 10, inc_upper: true }, R(2, 11)],
    ['range<int64>', { lower: 2, inc_lower: true, inc_upper: false }, R(2, null)],
    ['range<int64>', { empty: true }, { empty: true }],
    ['range<int64>', null, null],
    ['multirange<int64>', [R(12, 20), { empty: true }, R(2, 10)], [R(2, 10), R(12, 20)]],
    ['multirange<float64>', [], []],
    ['range<cal::local_date>', R('2024-01-01', '2024-02-01'), R('2024-01-01', '2024-02-01')],
  ])('<%s>json %j → %j', async (to, value, expected) => {
    expect(await json(t(to), fromJson(to, value))).toEqual(expected);
  });

  test.each<[string, unknown, RegExp]>([
    ['range<int64>', { lower: 2, upper: 10, inc_upper: false }, /must include an 'inc_lower'/],
    ['range<int64>', { lower: 2, upper: 10, inc_lower: true, inc_upper: null }, /'inc_upper'/],
    [
      'range<int64>',
      { lower: 0, upper: 1, inc_lower: true, inc_upper: false, foo: 1, bar: 2 },
      /unexpected keys: bar, foo/,
    ],
    [
      'range<int64>',
      { lower: 0, upper: 1, inc_lower: true, inc_upper: false, empty: true },
      /conflicting arguments in range constructor/,
    ],
    ['range<int64>', ['bad'], /expected JSON object or null; got JSON array/],
    ['range<int64>', { lower: '2', inc_lower: true, inc_upper: false }, /got JSON string/],
    ['range<int64>', { lower: 2.5, inc_lower: true, inc_upper: false }, /invalid input syntax/],
    ['multirange<int64>', { lower: 1 }, /expected JSON array or null; got JSON object/],
  ])('<%s>json %j is an InvalidValueError (%s)', async (to, value, message) => {
    const error = await errorOf(t(to), fromJson(to, value));
    expect(error).toMatch(/^InvalidValueError: /);
    expect(error).toMatch(message);
  });
});

describe('multirange parameters', () => {
  test.each<[string, unknown, unknown]>([
    ['multirange<int64>', [R(5, 9, true, true), { empty: true }], [R(5, 10)]],
    [
      'multirange<datetime>',
      [R('2024-01-01T00:00:00Z', null)],
      [R('2024-01-01T00:00:00+00:00', null)],
    ],
    ['multirange<int64>', [], []],
    ['multirange<int64>', null, null],
    ['array<multirange<int32>>', [[R(1, 2)], []], [[R(1, 2)], []]],
  ])('%s %j decodes and renders as %j', async (type, value, expected) => {
    expect(await json(t(type), decodeParam(t(type), jsonb(value), STD_ONLY))).toEqual(expected);
  });

  test.each<[string, unknown, string | undefined]>([
    ['multirange<int64>', [R(1, 2)], undefined],
    ['multirange<int64>', R(1, 2), 'got an object, not an array of range objects'],
    ['multirange<int64>', [R('a', 2)], 'element 0: lower: got a string, not an integer'],
  ])('%s %j: %s', (type, value, problem) => {
    expect(paramValueProblem(t(type), value, STD_ONLY)).toBe(problem);
  });
});
