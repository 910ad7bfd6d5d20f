/**
 * `range<T>` in the std table, run on a real database (PGlite or PostgreSQL, SVC_TEST_DB): the
 * constructor, the accessors, `contains`/`overlaps`, comparisons and `range_unpack`, on values
 * decoded from JSON parameters; results in Gel's JSON form of a range.
 */
import { runBootstrap } from '../storage/migrate';
import { STORAGE_BOOTSTRAP_SQL } from '../schema/bootstrap';
import { pgType, sql, type SqlExpr } from '../sql/ast';
import { printSql } from '../sql/print';
import { printTypeRef, type TypeRef } from '../model/schema';
import { createTestDatabase, type TestDatabase } from '../testing';
import {
  decodeParam,
  jsonOf,
  resolveFunction,
  resolveOperator,
  STD_ONLY,
  type CallArg,
} from './index';

const t = (name: string): TypeRef => {
  if (name.startsWith('range<')) return { kind: 'range', element: t(name.slice(6, -1)) };
  return { kind: 'scalar', name: name.includes('::') ? name : `std::${name}` };
};

/** An argument: its EdgeQL type, its value as the JSON a client would send, its name. */
type Arg = [type: string, value: unknown, name?: string];

let test_: TestDatabase;
beforeAll(async () => {
  test_ = await createTestDatabase();
  await runBootstrap(test_.db, STORAGE_BOOTSTRAP_SQL);
});
afterAll(async () => {
  await test_?.dispose();
});

function decodeArgs(args: readonly Arg[]): { values: SqlExpr[]; callArgs: CallArg[] } {
  return {
    values: args.map(([type, value]) =>
      decodeParam(t(type), sql.cast(sql.text(JSON.stringify(value)), pgType('jsonb')), STD_ONLY),
    ),
    callArgs: args.map(([type, , name]) => (name ? { type: t(type), name } : { type: t(type) })),
  };
}

async function json(type: TypeRef, value: SqlExpr): Promise<unknown> {
  const { rows } = await test_.db.query(
    `select ${printSql(jsonOf(type, value, STD_ONLY))}::text as result`,
  );
  const raw = (rows[0] as { result: string | null }).result;
  return raw === null ? null : JSON.parse(raw);
}

const R = (lower: unknown, upper: unknown, incLower = true, incUpper = false) => ({
  lower,
  upper,
  inc_lower: incLower,
  inc_upper: incUpper,
});

describe('range functions', () => {
  test.each<[string, Arg[], unknown]>([
    [
      'std::range',
      [
        ['int64', 1],
        ['int64', 5],
      ],
      R(1, 5),
    ],
    // Discrete ranges are normalised to [lower, upper), as Gel prints them.
    [
      'std::range',
      [
        ['int64', 1],
        ['int64', 5],
        ['bool', true, 'inc_upper'],
      ],
      R(1, 6),
    ],
    [
      'std::range',
      [
        ['int32', 1],
        ['int32', 5],
        ['bool', false, 'inc_lower'],
      ],
      R(2, 5),
    ],
    [
      'std::range',
      [
        ['int64', null],
        ['int64', 5],
      ],
      R(null, 5, false),
    ],
    ['std::range', [['int64', 3]], R(3, null, true)],
    [
      'std::range',
      [
        ['int64', 3],
        ['int64', 3],
      ],
      { empty: true },
    ],
    [
      'std::range',
      [
        ['int64', 1],
        ['int64', 1],
        ['bool', true, 'empty'],
      ],
      { empty: true },
    ],
    [
      'std::range',
      [
        ['int64', null],
        ['int64', null],
        ['bool', true, 'empty'],
      ],
      { empty: true },
    ],
    [
      'std::range',
      [
        ['float64', 1.5],
        ['float64', 7.5],
        ['bool', false, 'inc_lower'],
      ],
      R(1.5, 7.5, false),
    ],
    [
      'std::range',
      [
        ['decimal', 1],
        ['decimal', 2],
        ['bool', true, 'inc_upper'],
      ],
      R(1, 2, true, true),
    ],
    [
      'std::range',
      [
        ['datetime', '2024-01-01T00:00:00Z'],
        ['datetime', '2024-01-02T12:00:00Z'],
      ],
      R('2024-01-01T00:00:00+00:00', '2024-01-02T12:00:00+00:00'),
    ],
    [
      'std::range',
      [
        ['cal::local_date', '2024-01-30'],
        ['cal::local_date', '2024-02-02'],
        ['bool', true, 'inc_upper'],
      ],
      R('2024-01-30', '2024-02-03'),
    ],
    ['std::range_get_lower', [['range<float64>', R(1.5, 2)]], 1.5],
    ['std::range_get_upper', [['range<int64>', R(1, 5, true, true)]], 6],
    ['std::range_get_upper', [['range<int64>', R(1, null)]], null],
    ['std::range_is_inclusive_lower', [['range<float32>', R(1, 2, false)]], false],
    ['std::range_is_inclusive_upper', [['range<decimal>', R(1, 2, false, true)]], true],
    ['std::range_is_empty', [['range<int64>', { empty: true }]], true],
    ['std::range_is_empty', [['range<int64>', R(1, 2)]], false],
    [
      'std::contains',
      [
        ['range<int64>', R(1, 5)],
        ['int64', 5],
      ],
      false,
    ],
    [
      'std::contains',
      [
        ['range<float64>', R(1, 5)],
        ['float64', 4.5],
      ],
      true,
    ],
    [
      'std::contains',
      [
        ['range<int64>', R(1, 5)],
        ['range<int64>', R(2, 3)],
      ],
      true,
    ],
    [
      'std::contains',
      [
        ['range<int64>', R(1, 5)],
        ['range<int64>', { empty: true }],
      ],
      true,
    ],
    [
      'std::overlaps',
      [
        ['range<int64>', R(1, 5)],
        ['range<int64>', R(4, 9)],
      ],
      true,
    ],
    [
      'std::overlaps',
      [
        ['range<int64>', R(1, 5)],
        ['range<int64>', R(5, 9)],
      ],
      false,
    ],
  ])('%s %j → %j', async (name, args, expected) => {
    const { values, callArgs } = decodeArgs(args);
    const call = resolveFunction(name, callArgs);
    expect(await json(call.returnType as TypeRef, call.sql(values))).toEqual(expected);
  });

  test.each<[string, Arg[]]>([
    [
      'std::range',
      [
        ['int64', 1],
        ['int64', 2],
        ['bool', true, 'empty'],
      ],
    ],
    ['std::range_unpack', [['range<int64>', R(1, null)]]],
    [
      'std::range_unpack',
      [
        ['range<float64>', R(null, 1)],
        ['float64', 0.5],
      ],
    ],
  ])('%s %j raises InvalidValueError (22023)', async (name, args) => {
    const { values, callArgs } = decodeArgs(args);
    const call = resolveFunction(name, callArgs);
    const value = printSql(call.sql(values));
    const text =
      call.overload.kind === 'set-returning'
        ? `select count(*) from ${value} as r(v)`
        : `select (${value}) is null as v`;
    let code = 'no error';
    try {
      await test_.db.query(text);
    } catch (error) {
      code = String((error as { code?: string }).code);
    }
    expect(code).toBe('22023');
  });

  test('range(1, 5) has the type range<std::int64>', () => {
    const call = resolveFunction('std::range', [{ type: t('int64') }, { type: t('int64') }]);
    expect(printTypeRef(call.returnType as TypeRef)).toBe('range<std::int64>');
    expect(call.overload.volatility).toBe('Immutable');
  });

  test('a range of a type that has none does not resolve', () => {
    expect(() => resolveFunction('std::range', [{ type: t('str') }, { type: t('str') }])).toThrow(
      /function "std::range\(arg0: std::str, arg1: std::str\)" does not exist/,
    );
  });
});

describe('range comparisons', () => {
  test.each<[string, unknown, unknown, boolean]>([
    ['=', R(1, 5), R(1, 5), true],
    ['=', R(1, 5, true, true), R(1, 6), true],
    ['!=', R(1, 5), R(1, 6), true],
    ['<', R(1, 10), R(2, 5), true],
    ['<', R(1, 10), R(1, 15), true],
    ['<', R(null, 10), R(1, 2), true],
    ['>=', R(2, 3), R(1, null), true],
    ['?=', { empty: true }, { empty: true }, true],
  ])('range<int64> %s: %j vs %j → %j', async (op, left, right, expected) => {
    const { values, callArgs } = decodeArgs([
      ['range<int64>', left],
      ['range<int64>', right],
    ]);
    const call = resolveOperator(op, callArgs);
    expect(await json(call.returnType as TypeRef, call.sql(values))).toBe(expected);
  });
});

describe('range parameters', () => {
  test.each<[string, unknown, unknown]>([
    ['range<int64>', R(1, 5), R(1, 5)],
    ['range<int64>', { empty: true }, { empty: true }],
    ['range<int32>', { lower: 1, upper: 5, inc_lower: false, inc_upper: true }, R(2, 6)],
    [
      'range<float64>',
      { upper: 2.5, inc_lower: false, inc_upper: true },
      R(null, 2.5, false, true),
    ],
    ['range<cal::local_datetime>', R('2024-01-01T10:00:00', null), R('2024-01-01T10:00:00', null)],
    ['range<int64>', null, null],
  ])('%s %j decodes and renders as %j', async (type, value, expected) => {
    const decoded = decodeParam(
      t(type),
      sql.cast(sql.text(JSON.stringify(value)), pgType('jsonb')),
      STD_ONLY,
    );
    expect(await json(t(type), decoded)).toEqual(expected);
  });
});

describe('range_unpack', () => {
  async function rowsOf(args: Arg[]): Promise<unknown> {
    const { values, callArgs } = decodeArgs(args);
    const call = resolveFunction('std::range_unpack', callArgs);
    expect(call.overload.kind).toBe('set-returning');
    const value = jsonOf(call.returnType as TypeRef, sql.col('v', 'r'), STD_ONLY);
    const text = `select coalesce(json_agg(${printSql(value)} order by r.o), '[]')::text as result from ${printSql(call.sql(values))} with ordinality as r(v, o)`;
    const { rows } = await test_.db.query(text);
    return JSON.parse((rows[0] as { result: string }).result);
  }

  test.each<[Arg[], unknown]>([
    [[['range<int64>', R(1, 4)]], [1, 2, 3]],
    [[['range<int32>', R(1, 4, false, true)]], [2, 3, 4]],
    [[['range<int64>', { empty: true }]], []],
    [
      [['range<cal::local_date>', R('2024-02-28', '2024-03-02')]],
      ['2024-02-28', '2024-02-29', '2024-03-01'],
    ],
    [
      [
        ['range<int64>', R(0, 10)],
        ['int64', 4],
      ],
      [0, 4, 8],
    ],
    [
      [
        ['range<int64>', R(0, 8, true, true)],
        ['int64', 4],
      ],
      [0, 4, 8],
    ],
    [
      [
        ['range<float64>', R(1, 2.5, false)],
        ['float64', 0.5],
      ],
      [1.5, 2],
    ],
    [
      [
        ['range<decimal>', R(0, 1)],
        ['decimal', 0.25],
      ],
      [0, 0.25, 0.5, 0.75],
    ],
    [
      [
        ['range<datetime>', R('2024-01-01T00:00:00Z', '2024-01-01T02:00:00Z')],
        ['duration', 'PT1H'],
      ],
      ['2024-01-01T00:00:00+00:00', '2024-01-01T01:00:00+00:00'],
    ],
    [
      [
        ['range<cal::local_date>', R('2024-01-01', '2024-01-20')],
        ['cal::date_duration', 'P7D'],
      ],
      ['2024-01-01', '2024-01-08', '2024-01-15'],
    ],
  ])('range_unpack %j → %j', async (args, expected) => {
    expect(await rowsOf(args)).toEqual(expected);
  });
});
