/**
 * The std table run on a real database (PGlite or PostgreSQL, SVC_TEST_DB): each row calls an
 * operator, function or cast on values decoded from JSON parameters (so the decode forms are
 * exercised too) and compares the JSON result form, or the SQLSTATE of the error.
 */
import { runBootstrap } from '../storage/migrate';
import { STORAGE_BOOTSTRAP_SQL } from '../schema/bootstrap';
import { pgType, sql, type SqlExpr } from '../sql/ast';
import { printSql } from '../sql/print';
import { STD_ENUMS, type TypeRef } from '../model/schema';
import { createTestDatabase, type TestDatabase } from '../testing';
import {
  decodeParam,
  jsonOf,
  resolveCast,
  resolveFunction,
  resolveOperator,
  type CallArg,
  type ResolvedCall,
  type TypeEnv,
} from './index';

const t = (name: string): TypeRef => {
  if (name.startsWith('array<')) return { kind: 'array', element: t(name.slice(6, -1)) };
  return { kind: 'scalar', name: name.includes('::') ? name : `std::${name}` };
};

const ENV: TypeEnv = {
  stdBase: (name) =>
    name.startsWith('std::') || name.startsWith('cal::') ? (name as never) : null,
  enumValues: (name) =>
    name === 'default::Color' ? ['Red', 'Green', 'Blue'] : (STD_ENUMS[name] ?? null),
};

/** An argument: its EdgeQL type and its value as the JSON a client would send. */
type Arg = [type: string, value: unknown, name?: string];

let test_: TestDatabase;
beforeAll(async () => {
  test_ = await createTestDatabase();
  // The storage bootstrap ends with std's (sql/codegen/bootstrap).
  await runBootstrap(test_.db, STORAGE_BOOTSTRAP_SQL);
  await test_.db.query('create schema "default"');
  await test_.db.query(
    `create domain "default"."Color" as text check (VALUE in ('Red', 'Green', 'Blue'))`,
  );
});
afterAll(async () => {
  await test_?.dispose();
});

function decodeArgs(args: readonly Arg[]): { values: SqlExpr[]; callArgs: CallArg[] } {
  return {
    values: args.map(([type, value]) =>
      decodeParam(t(type), sql.cast(sql.text(JSON.stringify(value)), pgType('jsonb')), ENV),
    ),
    callArgs: args.map(([type, , name]) => (name ? { type: t(type), name } : { type: t(type) })),
  };
}

/** `select json(result)` of an element-wise call; aggregates run over `unnest` of the values. */
async function run(call: ResolvedCall, values: readonly SqlExpr[]): Promise<unknown> {
  const type = call.returnType as TypeRef;
  const text = `select ${printSql(jsonOf(type, call.sql(values), ENV))}::text as result`;
  const { rows } = await test_.db.query(text);
  const raw = (rows[0] as { result: string | null }).result;
  return raw === null ? null : JSON.parse(raw);
}

async function sqlState(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return String((error as { code?: string }).code);
  }
  return 'no error';
}

describe('operators', () => {
  test.each<[string, Arg[], unknown]>([
    [
      '+',
      [
        ['int64', 2],
        ['int64', 3],
      ],
      5,
    ],
    ['-', [['int64', 2]], -2],
    [
      '/',
      [
        ['int64', 7],
        ['int64', 2],
      ],
      3.5,
    ],
    [
      '//',
      [
        ['int64', 7],
        ['int64', 2],
      ],
      3,
    ],
    [
      '//',
      [
        ['int64', -7],
        ['int64', 2],
      ],
      -4,
    ],
    [
      '%',
      [
        ['int64', -7],
        ['int64', 3],
      ],
      2,
    ],
    // No intermediate sum may overflow the type (Gel's expr_mod_02).
    [
      '%',
      [
        ['int16', 20000],
        ['int16', 32000],
      ],
      20000,
    ],
    [
      '%',
      [
        ['int16', -20000],
        ['int16', -32000],
      ],
      -20000,
    ],
    [
      '%',
      [
        ['int64', 2000000],
        ['int64', 9223372036854770000],
      ],
      2000000,
    ],
    [
      '%',
      [
        ['int64', 7],
        ['int64', -3],
      ],
      -2,
    ],
    [
      '%',
      [
        ['float64', -7.5],
        ['float64', 2],
      ],
      0.5,
    ],
    [
      '^',
      [
        ['int64', 2],
        ['int64', 3],
      ],
      8,
    ],
    [
      '^',
      [
        ['float64', 2],
        ['float64', 0.5],
      ],
      Math.SQRT2,
    ],
    [
      '+',
      [
        ['int16', 1],
        ['float64', 0.5],
      ],
      1.5,
    ],
    [
      '+',
      [
        ['decimal', '0.1'],
        ['decimal', '0.2'],
      ],
      0.3,
    ],
    [
      '=',
      [
        ['str', 'a'],
        ['str', 'a'],
      ],
      true,
    ],
    [
      '<',
      [
        ['str', 'B'],
        ['str', 'a'],
      ],
      true,
    ],
    [
      '!=',
      [
        ['int32', 1],
        ['float64', 1],
      ],
      false,
    ],
    [
      '?=',
      [
        ['str', null],
        ['str', null],
      ],
      true,
    ],
    [
      '?!=',
      [
        ['int64', 1],
        ['int64', null],
      ],
      true,
    ],
    [
      'and',
      [
        ['bool', true],
        ['bool', false],
      ],
      false,
    ],
    [
      'or',
      [
        ['bool', false],
        ['bool', true],
      ],
      true,
    ],
    ['not', [['bool', false]], true],
    [
      'like',
      [
        ['str', 'abc'],
        ['str', 'a%'],
      ],
      true,
    ],
    [
      'ilike',
      [
        ['str', 'ABC'],
        ['str', 'a%'],
      ],
      true,
    ],
    [
      'not like',
      [
        ['str', 'abc'],
        ['str', 'b%'],
      ],
      true,
    ],
    [
      '++',
      [
        ['str', 'ab'],
        ['str', 'cd'],
      ],
      'abcd',
    ],
    [
      '++',
      [
        ['array<int64>', [1]],
        ['array<int64>', [2, 3]],
      ],
      [1, 2, 3],
    ],
    [
      '++',
      [
        ['bytes', 'YQ=='],
        ['bytes', 'Yg=='],
      ],
      'YWI=',
    ],
    [
      '[]',
      [
        ['str', 'hello'],
        ['int64', 1],
      ],
      'e',
    ],
    [
      '[]',
      [
        ['str', 'hello'],
        ['int64', -1],
      ],
      'o',
    ],
    [
      '[]',
      [
        ['array<int64>', [10, 20, 30]],
        ['int64', -3],
      ],
      10,
    ],
    [
      '[]',
      [
        ['json', [1, 2, 3]],
        ['int64', 1],
      ],
      2,
    ],
    [
      '[]',
      [
        ['json', { a: { b: 1 } }],
        ['str', 'a'],
      ],
      { b: 1 },
    ],
    [
      '[]',
      [
        ['json', { a: null }],
        ['str', 'a'],
      ],
      null,
    ],
    [
      '[]',
      [
        ['json', 'hello'],
        ['int64', -2],
      ],
      'l',
    ],
    [
      '++',
      [
        ['json', { a: 1, b: 1 }],
        ['json', { a: 2 }],
      ],
      { a: 2, b: 1 },
    ],
    [
      '++',
      [
        ['json', [1]],
        ['json', [2]],
      ],
      [1, 2],
    ],
    [
      '++',
      [
        ['json', 'ab'],
        ['json', 'c'],
      ],
      'abc',
    ],
    [
      '[:]',
      [
        ['str', 'hello'],
        ['int64', 1, 'start'],
        ['int64', -1, 'stop'],
      ],
      'ell',
    ],
    [
      '[:]',
      [
        ['str', 'hello'],
        ['int64', -100, 'start'],
      ],
      'hello',
    ],
    [
      '[:]',
      [
        ['str', 'hello'],
        ['int64', 10, 'start'],
      ],
      '',
    ],
    [
      '[:]',
      [
        ['array<int64>', [1, 2, 3, 4]],
        ['int64', 2, 'start'],
      ],
      [3, 4],
    ],
    [
      '[:]',
      [
        ['array<int64>', [1, 2, 3, 4]],
        ['int64', 3, 'start'],
        ['int64', 1, 'stop'],
      ],
      [],
    ],
    [
      '[:]',
      [
        ['json', [1, 2, 3]],
        ['int64', 1, 'start'],
      ],
      [2, 3],
    ],
    [
      '[:]',
      [
        ['bytes', 'aGVsbG8='],
        ['int64', 1, 'start'],
        ['int64', 3, 'stop'],
      ],
      'ZWw=',
    ],
    [
      '-',
      [
        ['datetime', '2024-01-03T00:00:00Z'],
        ['datetime', '2024-01-01T12:00:00Z'],
      ],
      'PT36H',
    ],
    [
      '+',
      [
        ['datetime', '2024-01-01T00:00:00Z'],
        ['duration', 'PT1H30M'],
      ],
      '2024-01-01T01:30:00+00:00',
    ],
    [
      '+',
      [
        ['datetime', '2024-01-31T00:00:00Z'],
        ['cal::relative_duration', 'P1M'],
      ],
      '2024-02-29T00:00:00+00:00',
    ],
    [
      '-',
      [
        ['cal::local_date', '2024-03-01'],
        ['cal::local_date', '2024-02-01'],
      ],
      'P29D',
    ],
    [
      '+',
      [
        ['cal::local_date', '2024-03-01'],
        ['cal::date_duration', 'P2D'],
      ],
      '2024-03-03',
    ],
    [
      '-',
      [
        ['cal::local_time', '10:00:00'],
        ['duration', 'PT30M'],
      ],
      '09:30:00',
    ],
    [
      '+',
      [
        ['duration', 'PT1H'],
        ['cal::relative_duration', 'P1D'],
      ],
      'P1DT1H',
    ],
    [
      '-',
      [
        ['cal::relative_duration', 'P1M'],
        ['duration', 'PT2H'],
      ],
      'P1MT-2H',
    ],
    [
      '+',
      [
        ['cal::local_date', '2024-01-01'],
        ['duration', 'PT30H'],
      ],
      '2024-01-02T06:00:00',
    ],
    [
      '-',
      [
        ['cal::local_date', '2024-01-01'],
        ['cal::relative_duration', 'P1M'],
      ],
      '2023-12-01T00:00:00',
    ],
    [
      '+',
      [
        ['cal::local_datetime', '9999-12-31T00:00:00'],
        ['duration', 'PT23H'],
      ],
      '9999-12-31T23:00:00',
    ],
  ])('%s %j → %j', async (op, args, expected) => {
    const { values, callArgs } = decodeArgs(args);
    const result = await run(resolveOperator(op, callArgs, { env: ENV }), values);
    if (typeof expected === 'number' && !Number.isInteger(expected))
      expect(result).toBeCloseTo(expected, 12);
    else expect(result).toEqual(expected);
  });

  test.each<[string, Arg[], string]>([
    [
      '[]',
      [
        ['str', 'hello'],
        ['int64', 5],
      ],
      '22000',
    ],
    [
      '[]',
      [
        ['str', 'hello'],
        ['int64', -6],
      ],
      '22000',
    ],
    [
      '[]',
      [
        ['array<int64>', [1]],
        ['int64', 1],
      ],
      '22000',
    ],
    [
      '[]',
      [
        ['json', [1]],
        ['int64', 1],
      ],
      '22000',
    ],
    [
      '[]',
      [
        ['json', { a: 1 }],
        ['str', 'b'],
      ],
      '22000',
    ],
    [
      '[]',
      [
        ['json', 'x'],
        ['str', 'b'],
      ],
      '22000',
    ],
    [
      '[]',
      [
        ['json', { a: 1 }],
        ['int64', 0],
      ],
      '22000',
    ],
    [
      '[]',
      [
        ['json', null],
        ['int64', 0],
      ],
      '22000',
    ],
    [
      '++',
      [
        ['json', 'a'],
        ['json', 1],
      ],
      '22023',
    ],
    [
      '++',
      [
        ['json', [1]],
        ['json', { a: 1 }],
      ],
      '22023',
    ],
    [
      '+',
      [
        ['int16', 32767],
        ['int16', 1],
      ],
      '22003',
    ],
    [
      '/',
      [
        ['int64', 1],
        ['int64', 0],
      ],
      '22012',
    ],
    [
      '+',
      [
        ['datetime', '9999-12-31T00:00:00Z'],
        ['duration', 'PT30H'],
      ],
      '22008',
    ],
    [
      '-',
      [
        ['datetime', '0001-01-01T00:00:00Z'],
        ['cal::relative_duration', 'P1D'],
      ],
      '22008',
    ],
    [
      '+',
      [
        ['cal::local_datetime', '9999-12-31T00:00:00'],
        ['cal::relative_duration', 'P1W'],
      ],
      '22008',
    ],
    [
      '+',
      [
        ['cal::local_date', '9999-12-31'],
        ['cal::date_duration', 'P1D'],
      ],
      '22008',
    ],
    [
      '+',
      [
        ['cal::local_date', '9999-12-31'],
        ['duration', 'PT30H'],
      ],
      '22008',
    ],
  ])('%s %j raises %s', async (op, args, code) => {
    const { values, callArgs } = decodeArgs(args);
    expect(await sqlState(run(resolveOperator(op, callArgs, { env: ENV }), values))).toBe(code);
  });

  test('bigint and decimal keep every digit in JSON', async () => {
    const { values, callArgs } = decodeArgs([
      ['bigint', '12345678901234567890'],
      ['bigint', 1],
    ]);
    const call = resolveOperator('+', callArgs, { env: ENV });
    const text = `select ${printSql(jsonOf(call.returnType as TypeRef, call.sql(values), ENV))}::text as result`;
    const { rows } = await test_.db.query(text);
    expect((rows[0] as { result: string }).result).toBe('12345678901234567891');
  });

  test('and/or with an empty operand are empty (EdgeQL), not SQL three-valued logic', async () => {
    const call = resolveOperator('and', [{ type: t('bool') }, { type: t('bool') }]);
    const { rows } = await test_.db.query(
      `select ${printSql(call.sql([sql.bool(false), sql.cast(sql.null(), pgType('boolean'))], [false, true]))} as v`,
    );
    expect((rows[0] as { v: unknown }).v).toBeNull();
  });

  test('in receives the set as an array', async () => {
    const call = resolveOperator('in', [{ type: t('int64') }, { type: t('int64') }]);
    const set = {
      kind: 'ArrayExpr',
      elements: [sql.num(1), sql.num(2)],
      type: pgType('bigint', 1),
    } as const;
    const { rows } = await test_.db.query(
      `select ${printSql(call.sql([sql.cast(sql.num(2), pgType('bigint')), set]))} as v`,
    );
    expect((rows[0] as { v: unknown }).v).toBe(true);
  });

  test.each(['in', 'not in'])('an empty left side of %s is empty, even against {}', async (op) => {
    const call = resolveOperator(op, [{ type: t('int64') }, { type: t('int64') }]);
    const none = sql.cast(sql.text('{}'), pgType('bigint', 1));
    const { rows } = await test_.db.query(
      `select ${printSql(call.sql([sql.cast(sql.null(), pgType('bigint')), none], [true, false]))} as v`,
    );
    expect((rows[0] as { v: unknown }).v).toBeNull();
  });

  test('in converts the set as a whole (local_datetime in a set of local_date)', async () => {
    const call = resolveOperator('in', [
      { type: t('cal::local_datetime') },
      { type: t('cal::local_date') },
    ]);
    const set = {
      kind: 'ArrayExpr',
      elements: [sql.cast(sql.text('2024-01-02'), pgType('date'))],
      type: pgType('date', 1),
    } as const;
    const value = sql.cast(sql.text('2024-01-02T00:00:00'), pgType('timestamp'));
    const { rows } = await test_.db.query(`select ${printSql(call.sql([value, set]))} as v`);
    expect((rows[0] as { v: unknown }).v).toBe(true);
  });
});

describe('functions', () => {
  test.each<[string, Arg[], unknown]>([
    ['std::len', [['str', 'héllo']], 5],
    ['std::len', [['bytes', 'aGk=']], 2],
    ['std::len', [['array<int64>', [1, 2, 3]]], 3],
    [
      'std::contains',
      [
        ['str', 'hello'],
        ['str', 'ell'],
      ],
      true,
    ],
    [
      'std::contains',
      [
        ['array<int64>', [1, 2]],
        ['int64', 3],
      ],
      false,
    ],
    [
      'std::contains',
      [
        ['json', { a: 1, b: 2 }],
        ['json', { a: 1 }],
      ],
      true,
    ],
    [
      'std::find',
      [
        ['str', 'hello'],
        ['str', 'l'],
      ],
      2,
    ],
    [
      'std::find',
      [
        ['str', 'hello'],
        ['str', 'z'],
      ],
      -1,
    ],
    [
      'std::find',
      [
        ['array<int64>', [5, 6, 5]],
        ['int64', 5],
        ['int64', 1],
      ],
      2,
    ],
    [
      'std::find',
      [
        ['array<int64>', [5, 6]],
        ['int64', 7],
      ],
      -1,
    ],
    ['std::str_lower', [['str', 'AbC']], 'abc'],
    ['std::str_upper', [['str', 'AbC']], 'ABC'],
    ['std::str_title', [['str', 'hello world']], 'Hello World'],
    ['std::str_trim', [['str', '  x  ']], 'x'],
    [
      'std::str_trim_start',
      [
        ['str', 'xxaxx'],
        ['str', 'x'],
      ],
      'axx',
    ],
    [
      'std::str_trim_end',
      [
        ['str', 'xxaxx'],
        ['str', 'x'],
      ],
      'xxa',
    ],
    [
      'std::str_pad_start',
      [
        ['str', 'a'],
        ['int64', 3],
      ],
      '  a',
    ],
    [
      'std::str_pad_end',
      [
        ['str', 'a'],
        ['int64', 3],
        ['str', '-'],
      ],
      'a--',
    ],
    [
      'std::str_repeat',
      [
        ['str', 'ab'],
        ['int64', 3],
      ],
      'ababab',
    ],
    [
      'std::str_replace',
      [
        ['str', 'a-b-c'],
        ['str', '-'],
        ['str', '+'],
      ],
      'a+b+c',
    ],
    ['std::str_reverse', [['str', 'abc']], 'cba'],
    [
      'std::str_split',
      [
        ['str', 'a,b,c'],
        ['str', ','],
      ],
      ['a', 'b', 'c'],
    ],
    [
      'std::str_split',
      [
        ['str', 'abc'],
        ['str', ''],
      ],
      ['a', 'b', 'c'],
    ],
    [
      'std::array_join',
      [
        ['array<str>', ['a', 'b']],
        ['str', '/'],
      ],
      'a/b',
    ],
    [
      'std::re_test',
      [
        ['str', '^a.c$'],
        ['str', 'abc'],
      ],
      true,
    ],
    [
      'std::re_match',
      [
        ['str', 'a(b)c'],
        ['str', 'xabcx'],
      ],
      ['b'],
    ],
    [
      'std::re_match',
      [
        ['str', '(foo)?bar'],
        ['str', 'barbar'],
      ],
      [''],
    ],
    [
      'std::re_replace',
      [
        ['str', 'a'],
        ['str', 'X'],
        ['str', 'banana'],
        ['str', 'g', 'flags'],
      ],
      'bXnXnX',
    ],
    ['std::to_str', [['int64', 42]], '42'],
    ['std::to_str', [['datetime', '2024-05-06T07:08:09.5+02:00']], '2024-05-06T05:08:09.5+00:00'],
    ['std::to_str', [['duration', 'PT1H30M']], 'PT1H30M'],
    ['std::to_str', [['cal::local_date', '2024-02-29']], '2024-02-29'],
    [
      'std::to_str',
      [
        ['array<str>', ['a', 'b']],
        ['str', ', '],
      ],
      'a, b',
    ],
    ['std::to_int64', [['str', '42']], 42],
    [
      'std::to_int16',
      [
        ['str', '1,234'],
        ['str', '9,999'],
      ],
      1234,
    ],
    ['std::to_float64', [['str', '1.5']], 1.5],
    ['std::to_decimal', [['str', '1.50']], 1.5],
    ['std::to_json', [['str', '{"a": [1, 2]}']], { a: [1, 2] }],
    ['std::to_bytes', [['str', 'hi']], 'aGk='],
    ['std::to_datetime', [['str', '2024-01-01T00:00:00+01:00']], '2023-12-31T23:00:00+00:00'],
    ['std::to_datetime', [['float64', 0]], '1970-01-01T00:00:00+00:00'],
    [
      'std::to_datetime',
      [
        ['int64', 2024],
        ['int64', 1],
        ['int64', 2],
        ['int64', 3],
        ['int64', 4],
        ['float64', 5.5],
        ['str', 'UTC'],
      ],
      '2024-01-02T03:04:05.5+00:00',
    ],
    [
      'std::to_datetime',
      [
        ['cal::local_datetime', '2024-01-01T12:00:00'],
        ['str', 'Europe/Paris'],
      ],
      '2024-01-01T11:00:00+00:00',
    ],
    [
      'std::to_duration',
      [
        ['int64', 2, 'hours'],
        ['int64', 5, 'minutes'],
      ],
      'PT2H5M',
    ],
    ['std::to_duration', [['float64', 1.5, 'seconds']], 'PT1.5S'],
    ['cal::to_local_date', [['str', '2024-02-29']], '2024-02-29'],
    [
      'cal::to_local_date',
      [
        ['int64', 2024],
        ['int64', 2],
        ['int64', 29],
      ],
      '2024-02-29',
    ],
    ['cal::to_local_time', [['str', '10:11:12']], '10:11:12'],
    [
      'cal::to_local_datetime',
      [
        ['datetime', '2024-01-01T00:00:00Z'],
        ['str', 'America/New_York'],
      ],
      '2023-12-31T19:00:00',
    ],
    [
      'cal::to_relative_duration',
      [
        ['int64', 1, 'months'],
        ['int64', 2, 'days'],
      ],
      'P1M2D',
    ],
    ['cal::to_date_duration', [['int64', 1, 'years']], 'P1Y'],
    [
      'std::datetime_get',
      [
        ['datetime', '2024-03-04T05:06:07Z'],
        ['str', 'hour'],
      ],
      5,
    ],
    [
      'std::datetime_get',
      [
        ['datetime', '1970-01-01T00:01:00Z'],
        ['str', 'epochseconds'],
      ],
      60,
    ],
    [
      'std::datetime_truncate',
      [
        ['datetime', '2024-03-04T05:06:07Z'],
        ['str', 'days'],
      ],
      '2024-03-04T00:00:00+00:00',
    ],
    [
      'std::duration_get',
      [
        ['duration', 'PT2H30M'],
        ['str', 'minutes'],
      ],
      30,
    ],
    ['std::duration_to_seconds', [['duration', 'PT1H2M3.000123S']], 3723.000123],
    [
      'std::duration_truncate',
      [
        ['duration', 'PT2H30M'],
        ['str', 'hours'],
      ],
      'PT2H',
    ],
    ['cal::duration_normalize_hours', [['cal::relative_duration', 'PT30H']], 'P1DT6H'],
    ['std::json_typeof', [['json', [1]]], 'array'],
    [
      'std::json_get',
      [
        ['json', { a: { b: 7 } }],
        ['str', 'a'],
        ['str', 'b'],
      ],
      7,
    ],
    [
      'std::json_get',
      [
        ['json', { a: 1 }],
        ['str', 'z'],
      ],
      null,
    ],
    [
      'std::json_get',
      [
        ['json', { a: 1 }],
        ['str', 'z'],
        ['json', 0, 'default'],
      ],
      0,
    ],
    [
      'std::json_set',
      [
        ['json', { a: 1 }],
        ['str', 'b'],
        ['json', 2, 'value'],
      ],
      { a: 1, b: 2 },
    ],
    [
      'std::json_set',
      [
        ['json', { a: 1 }],
        ['str', 'a'],
        ['json', null, 'value'],
      ],
      // JSON null is a value (not the empty set): it is set.
      { a: null },
    ],
    [
      'std::array_get',
      [
        ['array<int64>', [1, 2, 3]],
        ['int64', -1],
      ],
      3,
    ],
    [
      'std::array_get',
      [
        ['array<int64>', [1, 2, 3]],
        ['int64', 3],
      ],
      null,
    ],
    [
      'std::array_get',
      [
        ['array<int64>', [1, 2, 3]],
        ['int64', -4],
        ['int64', 0, 'default'],
      ],
      0,
    ],
    [
      'std::array_fill',
      [
        ['str', 'x'],
        ['int64', 2],
      ],
      ['x', 'x'],
    ],
    [
      'std::array_replace',
      [
        ['array<int64>', [1, 2, 1]],
        ['int64', 1],
        ['int64', 9],
      ],
      [9, 2, 9],
    ],
    [
      'std::array_set',
      [
        ['array<int64>', [1, 2, 3]],
        ['int64', 1],
        ['int64', 9],
      ],
      [1, 9, 3],
    ],
    [
      'std::array_set',
      [
        ['array<int64>', [1, 2, 3]],
        ['int64', -1],
        ['int64', 9],
      ],
      [1, 2, 9],
    ],
    [
      'std::array_set',
      [
        ['array<int64>', [1, 2, 3]],
        ['int64', 0],
        ['int64', 9],
      ],
      [9, 2, 3],
    ],
    [
      'std::array_insert',
      [
        ['array<int64>', [1, 2]],
        ['int64', 0],
        ['int64', 9],
      ],
      [9, 1, 2],
    ],
    [
      'std::array_insert',
      [
        ['array<int64>', [1, 2]],
        ['int64', 2],
        ['int64', 9],
      ],
      [1, 2, 9],
    ],
    [
      'std::array_insert',
      [
        ['array<int64>', [1, 2]],
        ['int64', -1],
        ['int64', 9],
      ],
      [1, 9, 2],
    ],
    [
      'std::array_insert',
      [
        ['array<int64>', []],
        ['int64', 0],
        ['int64', 9],
      ],
      [9],
    ],
    [
      'math::atan2',
      [
        ['float64', 1],
        ['float64', 1],
      ],
      Math.PI / 4,
    ],
    ['math::cos', [['float64', 0]], 1],
    ['math::abs', [['int64', -3]], 3],
    ['math::ceil', [['float64', 1.2]], 2],
    ['math::floor', [['decimal', '-1.5']], -2],
    ['math::ln', [['float64', 1]], 0],
    ['math::lg', [['int64', 1000]], 3],
    [
      'math::log',
      [
        ['decimal', '8'],
        ['decimal', '2', 'base'],
      ],
      3,
    ],
    ['std::round', [['float64', 2.5]], 2],
    ['std::round', [['decimal', '2.5']], 3],
    [
      'std::round',
      [
        ['decimal', '1.2345'],
        ['int64', 2],
      ],
      1.23,
    ],
    [
      'std::bit_and',
      [
        ['int64', 6],
        ['int64', 3],
      ],
      2,
    ],
    [
      'std::bit_or',
      [
        ['int64', 6],
        ['int64', 3],
      ],
      7,
    ],
    [
      'std::bit_xor',
      [
        ['int64', 6],
        ['int64', 3],
      ],
      5,
    ],
    ['std::bit_not', [['int16', 0]], -1],
    [
      'std::bit_lshift',
      [
        ['int32', 1],
        ['int64', 4],
      ],
      16,
    ],
    [
      'std::bit_rshift',
      [
        ['int64', 16],
        ['int64', 2],
      ],
      4,
    ],
    ['std::bit_count', [['int64', 7]], 3],
    ['std::bit_count', [['int16', -32768]], 1],
    ['std::bit_count', [['bytes', 'DwE=']], 5],
    [
      'std::to_bytes',
      [
        ['int16', 1],
        ['Endian', 'Big'],
      ],
      'AAE=',
    ],
    [
      'std::to_bytes',
      [
        ['int32', -2],
        ['Endian', 'Little'],
      ],
      '/v///w==',
    ],
    [
      'std::to_int16',
      [
        ['bytes', '/v8='],
        ['Endian', 'Little'],
      ],
      -2,
    ],
    [
      'std::to_int64',
      [
        ['bytes', 'AAAAAAAAAQA='],
        ['Endian', 'Big'],
      ],
      256,
    ],
    ['std::bit_count', [['int32', -1]], 32],
    ['math::ceil', [['int16', 2]], 2],
    [
      'std::to_int64',
      [
        ['str', ' 123'],
        ['str', '999'],
      ],
      123,
    ],
    ['std::to_bigint', [['str', '12']], 12],
    ['std::to_decimal', [['str', '1.25']], 1.25],
    [
      'std::bit_lshift',
      [
        ['int16', 1234],
        ['int64', 40],
      ],
      0,
    ],
    [
      'std::bit_rshift',
      [
        ['int32', -1234],
        ['int64', 40],
      ],
      -1,
    ],
    ['std::round', [['int64', 7]], 7],
    [
      'std::bytes_get_bit',
      [
        ['bytes', 'AQ=='],
        ['int64', 0],
      ],
      1,
    ],
    ['std::base64_encode', [['bytes', 'aGk=']], 'aGk='],
    ['std::enc::base64_decode', [['str', 'aGk=']], 'aGk='],
    ['std::enc::base64_encode', [['bytes', 'aGk=']], 'aGk='],
    ['std::enc::base64_decode', [['str', null]], null],
    [
      'std::to_bytes',
      [['uuid', '77841036-8e35-49ce-b509-2cafa0c25c4f']],
      'd4QQNo41Sc61CSyvoMJcTw==',
    ],
    ['std::to_bytes', [['uuid', null]], null],
    ['std::to_bytes', [['json', { a: 1 }]], 'eyJhIjogMX0='],
    [
      'std::to_uuid',
      [['bytes', 'd4QQNo41Sc61CSyvoMJcTw==']],
      '77841036-8e35-49ce-b509-2cafa0c25c4f',
    ],
    ['std::to_uuid', [['bytes', null]], null],
    ['std::assert', [['bool', true]], true],
    [
      'std::has_role',
      [
        ['str', 'admin'],
        ['array<str>', ['user', 'admin'], 'roles'],
      ],
      true,
    ],
    ['std::has_role', [['str', 'admin']], false],
    [
      'std::datetime_get',
      [
        ['cal::local_datetime', '1970-01-01T00:01:00'],
        ['str', 'epochseconds'],
      ],
      60,
    ],
    [
      'std::datetime_get',
      [
        ['datetime', '2018-05-07T15:01:22.306916-05'],
        ['str', 'isodow'],
      ],
      1,
    ],
    [
      'std::datetime_truncate',
      [
        ['datetime', '2024-05-15T05:06:07Z'],
        ['str', 'quarters'],
      ],
      '2024-04-01T00:00:00+00:00',
    ],
    [
      'std::duration_get',
      [
        ['duration', 'PT1H30M'],
        ['str', 'totalseconds'],
      ],
      5400,
    ],
    [
      'std::duration_get',
      [
        ['cal::relative_duration', 'P1Y2MT3H'],
        ['str', 'month'],
      ],
      2,
    ],
    [
      'std::duration_get',
      [
        ['cal::date_duration', 'P10D'],
        ['str', 'totalseconds'],
      ],
      864000,
    ],
    [
      'std::duration_truncate',
      [
        ['cal::relative_duration', 'P1312Y'],
        ['str', 'centuries'],
      ],
      'P1300Y',
    ],
    [
      'std::duration_truncate',
      [
        ['cal::date_duration', 'P1Y2M3D'],
        ['str', 'months'],
      ],
      'P1Y2M',
    ],
    [
      'cal::time_get',
      [
        ['cal::local_time', '15:01:22.306916'],
        ['str', 'midnightseconds'],
      ],
      54082.306916,
    ],
    [
      'cal::date_get',
      [
        ['cal::local_date', '2018-05-07'],
        ['str', 'doy'],
      ],
      127,
    ],
    [
      'std::to_datetime',
      [
        ['str', '2019/01/01 00:00:00 0715'],
        ['str', 'YYYY/MM/DD HH24:MI:SS TZHTZM'],
      ],
      '2018-12-31T16:45:00+00:00',
    ],
    [
      'std::to_datetime',
      [
        ['str', 'TZH 2019/01/01 00:00:00 07'],
        ['str', '"TZH" YYYY/MM/DD HH24:MI:SS TZH'],
      ],
      '2018-12-31T17:00:00+00:00',
    ],
    [
      'cal::to_local_datetime',
      [
        ['str', '2019/01/02 03:04:05'],
        ['str', 'YYYY/MM/DD HH24:MI:SS'],
      ],
      '2019-01-02T03:04:05',
    ],
    [
      'cal::to_local_date',
      [
        ['str', '2019/01/02'],
        ['str', 'YYYY/MM/DD'],
      ],
      '2019-01-02',
    ],
    [
      'cal::to_local_time',
      [
        ['str', '03:04:05'],
        ['str', 'HH24:MI:SS'],
      ],
      '03:04:05',
    ],
    [
      'std::to_str',
      [
        ['cal::relative_duration', 'P3YT1H'],
        ['str', 'YYYY"y"HH24"h"'],
      ],
      '0003y01h',
    ],
    ['std::to_str', [['cal::relative_duration', 'P3YT1H']], 'P3YT1H'],
    ['std::to_datetime', [['int64', 1]], '1970-01-01T00:00:01+00:00'],
    [
      'cal::to_local_date',
      [
        ['int64', 9999],
        ['int64', 12],
        ['int64', 31],
      ],
      '9999-12-31',
    ],
  ])('%s %j → %j', async (name, args, expected) => {
    const { values, callArgs } = decodeArgs(args);
    const result = await run(resolveFunction(name, callArgs, { env: ENV }), values);
    if (typeof expected === 'number' && !Number.isInteger(expected))
      expect(result).toBeCloseTo(expected, 12);
    else expect(result).toEqual(expected);
  });

  test.each<[string, Arg[], string]>([
    [
      'std::array_set',
      [
        ['array<int64>', [1]],
        ['int64', 1],
        ['int64', 9],
      ],
      '22023',
    ],
    [
      'std::array_set',
      [
        ['array<int64>', []],
        ['int64', 0],
        ['int64', 9],
      ],
      '22023',
    ],
    [
      'std::array_insert',
      [
        ['array<int64>', [1]],
        ['int64', 2],
        ['int64', 9],
      ],
      '22023',
    ],
    [
      'std::array_insert',
      [
        ['array<int64>', [1]],
        ['int64', -2],
        ['int64', 9],
      ],
      '22023',
    ],
    ['std::assert', [['bool', false]], 'P0004'],
    [
      'std::bit_lshift',
      [
        ['int64', 1],
        ['int64', -1],
      ],
      '22023',
    ],
    [
      'std::assert',
      [
        ['bool', false],
        ['str', 'nope', 'message'],
      ],
      'P0004',
    ],
    ['std::to_int64', [['str', 'x']], '22P02'],
    [
      'std::to_int64',
      [
        ['str', '1'],
        ['str', ''],
      ],
      '22023',
    ],
    ['std::to_bigint', [['str', '1.02']], '22P02'],
    [
      'std::to_int32',
      [
        ['bytes', 'AQ=='],
        ['Endian', 'Big'],
      ],
      '22023',
    ],
    ['std::to_bigint', [['str', 'NaN']], '22P02'],
    ['std::to_decimal', [['str', 'Infinity']], '22P02'],
    // 10 bytes: InvalidValueError (Gel: `to_uuid(): the argument must be exactly 16 bytes long`).
    ['std::to_uuid', [['bytes', 'AAAAAAAAAAAAAA==']], '22000'],
    // Not base64: InvalidValueError (22023).
    ['std::enc::base64_decode', [['str', '~']], '22023'],
    ['std::to_json', [['str', '{']], '22P02'],
    ['std::to_datetime', [['str', '2024-01-01T00:00:00']], '22007'],
    [
      'std::to_datetime',
      [
        ['str', '01/02/2024 10:00'],
        ['str', 'MM/DD/YYYY HH24:MI'],
      ],
      '22007',
    ],
    ['cal::to_local_date', [['str', '01/02/2024']], '22007'],
    [
      'std::datetime_get',
      [
        ['datetime', '2018-05-07T15:01:22Z'],
        ['str', 'epoch'],
      ],
      '22007',
    ],
    [
      'std::datetime_get',
      [
        ['datetime', '2018-05-07T15:01:22Z'],
        ['str', 'timezone_hour'],
      ],
      '22007',
    ],
    [
      'std::datetime_get',
      [
        ['cal::local_datetime', '2018-05-07T15:01:22'],
        ['str', 'hours'],
      ],
      '22007',
    ],
    [
      'std::datetime_truncate',
      [
        ['datetime', '2018-05-07T15:01:22Z'],
        ['str', 'second'],
      ],
      '22007',
    ],
    [
      'std::duration_get',
      [
        ['duration', 'PT15H'],
        ['str', 'days'],
      ],
      '22007',
    ],
    [
      'std::duration_get',
      [
        ['cal::date_duration', 'P1D'],
        ['str', 'hour'],
      ],
      '22007',
    ],
    [
      'std::duration_get',
      [
        ['cal::relative_duration', 'PT15H'],
        ['str', 'epochseconds'],
      ],
      '22007',
    ],
    [
      'std::duration_truncate',
      [
        ['duration', 'PT73H'],
        ['str', 'days'],
      ],
      '22007',
    ],
    [
      'std::duration_truncate',
      [
        ['cal::date_duration', 'P42D'],
        ['str', 'hours'],
      ],
      '22007',
    ],
    [
      'cal::time_get',
      [
        ['cal::local_time', '15:01:22'],
        ['str', 'epoch'],
      ],
      '22007',
    ],
    [
      'cal::date_get',
      [
        ['cal::local_date', '2018-05-07'],
        ['str', 'epoch'],
      ],
      '22007',
    ],
    ['std::to_datetime', [['int64', 999999999999]], '22008'],
    [
      'std::to_datetime',
      [
        ['int64', 10000],
        ['int64', 1],
        ['int64', 1],
        ['int64', 1],
        ['int64', 1],
        ['float64', 1],
        ['str', 'UTC'],
      ],
      '22008',
    ],
    [
      'cal::to_local_date',
      [
        ['int64', 10000],
        ['int64', 1],
        ['int64', 1],
      ],
      '22008',
    ],
    [
      'cal::to_local_time',
      [
        ['int64', 23],
        ['int64', 59],
        ['float64', 60],
      ],
      '22008',
    ],
    [
      'cal::to_local_date',
      [
        ['str', '2017-10-10'],
        ['str', ''],
      ],
      '22023',
    ],
    [
      'std::to_str',
      [
        ['cal::relative_duration', 'P1Y'],
        ['str', ''],
      ],
      '22023',
    ],
    [
      'std::to_datetime',
      [
        ['str', '2019/01/01 00:00:00 TZH07'],
        ['str', 'YYYY/MM/DD HH24:MI:SS "TZH"TZM'],
      ],
      '22007',
    ],
    [
      'std::to_datetime',
      [
        ['str', '2019/01/01 00:00:00 0715'],
        ['str', 'YYYY/MM/DD H24:MI:SS "NOPE"TZHTZM'],
      ],
      '22007',
    ],
    [
      'cal::to_local_datetime',
      [
        ['str', '2019/01/01 00:00:00 07'],
        ['str', 'YYYY/MM/DD HH24:MI:SS TZH'],
      ],
      '22007',
    ],
  ])('%s %j raises %s', async (name, args, code) => {
    const { values, callArgs } = decodeArgs(args);
    expect(await sqlState(run(resolveFunction(name, callArgs, { env: ENV }), values))).toBe(code);
  });

  /** An aggregate over the rows of `values` (each a decoded JSON parameter). */
  async function aggregate(name: string, type: string, items: unknown[], extra: Arg[] = []) {
    const { values, callArgs } = decodeArgs([[`array<${type}>`, items], ...extra]);
    const call = resolveFunction(name, [{ type: t(type) }, ...callArgs.slice(1)], { env: ENV });
    const text = `select ${printSql(jsonOf(call.returnType as TypeRef, call.sql([sql.col('x', 'u'), ...values.slice(1)]), ENV))}::text as result from unnest(${printSql(values[0] as SqlExpr)}) as u(x)`;
    const { rows } = await test_.db.query(text);
    const raw = (rows[0] as { result: string | null }).result;
    return raw === null ? null : JSON.parse(raw);
  }

  test.each<[string, string, unknown[], unknown]>([
    ['std::count', 'int64', [1, 2, 3], 3],
    ['std::count', 'int64', [], 0],
    ['std::sum', 'int64', [1, 2, 3], 6],
    ['std::sum', 'int32', [], 0],
    ['std::sum', 'float64', [0.5, 0.25], 0.75],
    ['std::sum', 'decimal', ['0.1', '0.2'], 0.3],
    ['std::min', 'str', ['b', 'B', 'a'], 'B'],
    ['std::max', 'int64', [3, 9, 2], 9],
    ['std::min', 'int64', [], null],
    ['std::max', 'bool', [false, true], true],
    [
      'std::min',
      'uuid',
      ['00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000001'],
      '00000000-0000-0000-0000-000000000001',
    ],
    [
      'std::max',
      'datetime',
      ['2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z'],
      '2025-01-01T00:00:00+00:00',
    ],
    ['std::avg', 'int64', [1, 2], 1.5],
    ['std::avg', 'int64', [], null],
    ['std::all', 'bool', [true, false], false],
    ['std::all', 'bool', [], true],
    ['std::any', 'bool', [false, true], true],
    ['std::any', 'bool', [], false],
    ['std::array_agg', 'str', ['a', 'b'], ['a', 'b']],
    ['std::sum', 'duration', ['PT5S', 'PT10S'], 'PT15S'],
    ['std::sum', 'cal::date_duration', [], 'P0D'],
    ['std::array_agg', 'int64', [], []],
    ['math::mean', 'float64', [1, 2, 6], 3],
    ['math::var_pop', 'float64', [1, 3], 1],
    ['math::stddev', 'float64', [1, 3], Math.SQRT2],
    ['math::mean', 'decimal', ['1', '2'], 1.5],
    ['math::var', 'int64', [1, 3], 2],
    ['std::assert_single', 'int64', [7], 7],
    ['std::assert_single', 'int64', [], null],
  ])('%s over %s %j → %j', async (name, type, items, expected) => {
    const result = await aggregate(name, type, items);
    if (typeof expected === 'number' && !Number.isInteger(expected))
      expect(result).toBeCloseTo(expected, 12);
    else expect(result).toEqual(expected);
  });

  // Gel: a statistic of too few elements is InvalidValueError, not an empty result.
  test.each<[string, string, unknown[]]>([
    ['math::mean', 'int64', []],
    ['math::stddev', 'decimal', []],
    ['math::var', 'float64', [1]],
    ['math::stddev', 'int64', [5]],
    ['math::var_pop', 'int64', []],
    ['math::stddev_pop', 'float64', []],
  ])('%s over %s %j raises 22023', async (name, type, items) => {
    expect(await sqlState(aggregate(name, type, items))).toBe('22023');
  });

  test('assert_single of two raises a cardinality violation (21000)', async () => {
    expect(await sqlState(aggregate('std::assert_single', 'int64', [1, 2]))).toBe('21000');
  });

  test.each<[string, Arg[], number]>([
    [
      'std::contains',
      [
        ['array<str>', ['a']],
        ['str', null],
      ],
      1,
    ],
    [
      'std::find',
      [
        ['array<str>', ['a']],
        ['str', null],
      ],
      1,
    ],
    [
      'std::find',
      [
        ['array<str>', null],
        ['str', 'a'],
      ],
      0,
    ],
    [
      'std::array_get',
      [
        ['array<str>', null],
        ['int64', 0],
        ['str', 'x', 'default'],
      ],
      0,
    ],
    ['std::assert', [['bool', null]], 0],
    [
      'std::array_join',
      [
        ['array<bytes>', null],
        ['bytes', 'LA=='],
      ],
      0,
    ],
    [
      'std::array_fill',
      [
        ['str', null],
        ['int64', 2],
      ],
      0,
    ],
    [
      'std::to_int64',
      [
        ['str', null],
        ['str', '999'],
      ],
      0,
    ],
    [
      'std::datetime_get',
      [
        ['cal::local_datetime', null],
        ['str', 'year'],
      ],
      0,
    ],
    [
      'std::duration_get',
      [
        ['cal::relative_duration', null],
        ['str', 'year'],
      ],
      0,
    ],
    [
      'std::duration_truncate',
      [
        ['cal::date_duration', null],
        ['str', 'days'],
      ],
      0,
    ],
    [
      'cal::to_local_date',
      [
        ['str', null],
        ['str', 'YYYY/MM/DD'],
      ],
      0,
    ],
    [
      'std::to_int16',
      [
        ['bytes', null],
        ['Endian', 'Big'],
      ],
      0,
    ],
    [
      'std::to_datetime',
      [
        ['str', null],
        ['str', 'YYYY TZH'],
      ],
      0,
    ],
    [
      'std::to_bytes',
      [
        ['int32', null],
        ['Endian', 'Little'],
      ],
      0,
    ],
    ['std::bit_count', [['int16', null]], 0],
    [
      'std::bit_lshift',
      [
        ['int16', null],
        ['int64', 3],
      ],
      0,
    ],
    [
      'std::duration_get',
      [
        ['duration', 'PT1H'],
        ['str', null],
      ],
      1,
    ],
    [
      'std::datetime_truncate',
      [
        ['datetime', '2024-01-01T00:00:00Z'],
        ['str', null],
      ],
      1,
    ],
    [
      'cal::time_get',
      [
        ['cal::local_time', '10:00:00'],
        ['str', null],
      ],
      1,
    ],
  ])('%s %j with an empty argument (#%s) is empty', async (name, args, empty) => {
    const { values, callArgs } = decodeArgs(args);
    const call = resolveFunction(name, callArgs, { env: ENV });
    const nullable = args.map((_, i) => i === empty);
    const text = `select ${printSql(jsonOf(call.returnType as TypeRef, call.sql(values, nullable), ENV))}::text as result`;
    const { rows } = await test_.db.query(text);
    expect((rows[0] as { result: unknown }).result).toBeNull();
  });

  test('to_int64 with an empty optional format reads the text without one', async () => {
    const { values, callArgs } = decodeArgs([
      ['str', '12'],
      ['str', null],
    ]);
    const call = resolveFunction('std::to_int64', callArgs, { env: ENV });
    const text = `select ${printSql(jsonOf(call.returnType as TypeRef, call.sql(values, [false, true]), ENV))}::text as result`;
    const { rows } = await test_.db.query(text);
    expect((rows[0] as { result: unknown }).result).toBe('12');
  });

  test('an empty optional format is no format (to_str, to_local_date)', async () => {
    for (const [name, args, expected] of [
      [
        'std::to_str',
        [
          ['int64', 42],
          ['str', null],
        ],
        '42',
      ],
      [
        'std::to_str',
        [
          ['cal::relative_duration', 'P1Y'],
          ['str', null],
        ],
        'P1Y',
      ],
      [
        'cal::to_local_date',
        [
          ['str', '2024-01-02'],
          ['str', null],
        ],
        '2024-01-02',
      ],
    ] as [string, Arg[], unknown][]) {
      const { values, callArgs } = decodeArgs(args);
      const call = resolveFunction(name, callArgs, { env: ENV });
      const text = `select ${printSql(jsonOf(call.returnType as TypeRef, call.sql(values, [false, true]), ENV))}::text as result`;
      const { rows } = await test_.db.query(text);
      expect(JSON.parse((rows[0] as { result: string }).result)).toBe(expected);
    }
  });

  test('parse functions give empty for empty (they are strict)', async () => {
    const { rows } = await test_.db.query(
      `select "svc_meta".bool_in(null) as a, "svc_meta".datetime_in(null) as b, "svc_meta".duration_in(null) as c, "svc_meta".date_duration_in(null) as d`,
    );
    expect(rows[0]).toEqual({ a: null, b: null, c: null, d: null });
  });

  test('min/max of arrays compare element by element', async () => {
    const type: TypeRef = { kind: 'array', element: t('int64') };
    for (const [name, expected] of [
      ['std::min', [1, 2]],
      ['std::max', [2, 1]],
    ] as const) {
      const call = resolveFunction(name, [{ type }], { env: ENV });
      const text = `select ${printSql(jsonOf(type, call.sql([sql.col('x', 'u')]), ENV))}::text as result from (values (ARRAY[2, 1]::bigint[]), (ARRAY[1, 5]::bigint[]), (ARRAY[1, 2]::bigint[])) as u(x)`;
      const { rows } = await test_.db.query(text);
      expect(JSON.parse((rows[0] as { result: string }).result)).toEqual(expected);
    }
  });

  test('min/max of enums follow the declaration order', async () => {
    expect(await aggregate('std::max', 'default::Color', ['Red', 'Blue', 'Green'])).toBe('Blue');
    expect(await aggregate('std::min', 'default::Color', ['Blue', 'Green'])).toBe('Green');
  });
});

describe('arrays of tuples (one jsonb array)', () => {
  const pair: TypeRef = {
    kind: 'tuple',
    elements: [
      { name: null, type: t('int64') },
      { name: null, type: t('str') },
    ],
  };
  const arrayType: TypeRef = { kind: 'array', element: pair };
  const value = decodeParam(
    arrayType,
    sql.cast(sql.text('[[1, "a"], [2, "b"], [3, "c"]]'), pgType('jsonb')),
    ENV,
  );

  test.each<[string, () => ResolvedCall, SqlExpr[], unknown]>([
    ['len', () => resolveFunction('std::len', [{ type: arrayType }], { env: ENV }), [value], 3],
    [
      '[-1]',
      () => resolveOperator('[]', [{ type: arrayType }, { type: t('int64') }], { env: ENV }),
      [value, sql.cast(sql.num(-1), pgType('bigint'))],
      [3, 'c'],
    ],
    [
      '[1:]',
      () =>
        resolveOperator('[:]', [{ type: arrayType }, { type: t('int64'), name: 'start' }], {
          env: ENV,
        }),
      [value, sql.cast(sql.num(1), pgType('bigint'))],
      [
        [2, 'b'],
        [3, 'c'],
      ],
    ],
    [
      'array_replace',
      () =>
        resolveFunction(
          'std::array_replace',
          [{ type: arrayType }, { type: pair }, { type: pair }],
          { env: ENV },
        ),
      [
        value,
        sql.cast(sql.text('[2, "b"]'), pgType('jsonb')),
        sql.cast(sql.text('[9, "z"]'), pgType('jsonb')),
      ],
      [
        [1, 'a'],
        [9, 'z'],
        [3, 'c'],
      ],
    ],
    [
      'array_get(, 5)',
      () =>
        resolveFunction('std::array_get', [{ type: arrayType }, { type: t('int64') }], {
          env: ENV,
        }),
      [value, sql.cast(sql.num(5), pgType('bigint'))],
      null,
    ],
  ])('%s', async (_, resolve, values, expected) => {
    expect(await run(resolve(), values)).toEqual(expected);
  });
});

describe('arrays of arrays (one jsonb array of stored JSON items)', () => {
  const call = (name: string, args: Arg[]) => {
    const { values, callArgs } = decodeArgs(args);
    return run(resolveFunction(name, callArgs, { env: ENV }), values);
  };
  const jagged: Arg = ['array<array<int64>>', [[1], [2, 3], [4, 5, 6]]];
  const none: Arg = ['array<array<int64>>', []];

  test.each<[string, Arg[], unknown]>([
    ['std::len', [jagged], 3],
    ['std::len', [none], 0],
    ['std::contains', [jagged, ['array<int64>', [2, 3]]], true],
    ['std::contains', [jagged, ['array<int64>', [2]]], false],
    ['std::contains', [none, ['array<int64>', [2]]], false],
    ['std::find', [jagged, ['array<int64>', [4, 5, 6]]], 2],
    ['std::find', [jagged, ['array<int64>', [1]], ['int64', 1]], -1],
    ['std::find', [none, ['array<int64>', [1]]], -1],
    [
      'std::array_fill',
      [
        ['array<str>', ['a']],
        ['int64', 2],
      ],
      [['a'], ['a']],
    ],
    [
      'std::array_fill',
      [
        ['array<str>', ['a']],
        ['int64', 0],
      ],
      [],
    ],
    [
      'std::array_insert',
      [jagged, ['int64', 3], ['array<int64>', [9]]],
      [[1], [2, 3], [4, 5, 6], [9]],
    ],
    ['std::array_insert', [none, ['int64', 0], ['array<int64>', [9]]], [[9]]],
    ['std::array_set', [jagged, ['int64', -1], ['array<int64>', []]], [[1], [2, 3], []]],
    ['std::array_get', [jagged, ['int64', 1]], [2, 3]],
    ['std::array_get', [jagged, ['int64', 3]], null],
    [
      'std::array_replace',
      [jagged, ['array<int64>', [2, 3]], ['array<int64>', [0]]],
      [[1], [0], [4, 5, 6]],
    ],
    [
      'std::array_get',
      [
        ['array<array<bytes>>', [['YQ==']]],
        ['int64', 0],
      ],
      ['YQ=='],
    ],
  ])('%s %j', async (name, args, expected) => {
    expect(await call(name, args)).toEqual(expected);
  });

  test.each<[string, Arg[], string]>([
    ['std::array_insert', [jagged, ['int64', 4], ['array<int64>', [9]]], '22023'],
    ['std::array_set', [none, ['int64', 0], ['array<int64>', [9]]], '22023'],
  ])('%s %j raises %s', async (name, args, state) => {
    expect(await sqlState(call(name, args))).toBe(state);
  });

  test('[] reads an item back as an array', async () => {
    const { values, callArgs } = decodeArgs([jagged, ['int64', -2]]);
    expect(await run(resolveOperator('[]', callArgs, { env: ENV }), values)).toEqual([2, 3]);
  });
});

describe('strings: to_str formats, deprecated spellings, array_join of bytes', () => {
  const call = (name: string, args: Arg[]) => {
    const { values, callArgs } = decodeArgs(args);
    return run(resolveFunction(name, callArgs, { env: ENV }), values);
  };

  test.each<[string, Arg[], unknown]>([
    [
      'std::to_str',
      [
        ['int64', 42],
        ['str', '0000'],
      ],
      ' 0042',
    ],
    [
      'std::to_str',
      [
        ['json', [1]],
        ['str', 'pretty'],
      ],
      '[\n    1\n]',
    ],
    [
      'std::to_str',
      [
        ['duration', 'PT1H'],
        ['str', 'HH24'],
      ],
      '01',
    ],
    [
      'std::str_lpad',
      [
        ['str', 'ab'],
        ['int64', 4],
      ],
      '  ab',
    ],
    [
      'std::str_rpad',
      [
        ['str', 'ab'],
        ['int64', 3],
        ['str', '*'],
      ],
      'ab*',
    ],
    ['std::str_ltrim', [['str', '  ab ']], 'ab '],
    [
      'std::str_rtrim',
      [
        ['str', 'abxx'],
        ['str', 'x'],
      ],
      'ab',
    ],
    [
      'std::array_join',
      [
        ['array<bytes>', ['YQ==', 'Yg==']],
        ['bytes', 'LA=='],
      ],
      'YSxi',
    ],
    [
      'std::array_join',
      [
        ['array<bytes>', []],
        ['bytes', 'LA=='],
      ],
      '',
    ],
  ])('%s %j', async (name, args, expected) => {
    expect(await call(name, args)).toEqual(expected);
  });

  test.each<[string, Arg[], string]>([
    [
      'std::to_str',
      [
        ['int64', 42],
        ['str', ''],
      ],
      '22023',
    ],
    [
      'std::to_str',
      [
        ['datetime', '2020-01-01T00:00:00Z'],
        ['str', ''],
      ],
      '22023',
    ],
    [
      'std::to_str',
      [
        ['json', [1]],
        ['str', 'compact'],
      ],
      '22023',
    ],
  ])('%s %j raises %s', async (name, args, state) => {
    expect(await sqlState(call(name, args))).toBe(state);
  });
});

describe('set-returning functions', () => {
  /** `select json_agg(json(v))` over the rows the form returns, in order. `callTypes` are the
   * argument types the call is resolved with (an element type for a set-of parameter, whose SQL
   * value is the array of the whole set). */
  async function rowsOf(name: string, callTypes: readonly string[], args: Arg[]): Promise<unknown> {
    const { values } = decodeArgs(args);
    const call = resolveFunction(
      name,
      callTypes.map((type) => ({ type: t(type) })),
      { env: ENV },
    );
    expect(call.overload.kind).toBe('set-returning');
    const value = jsonOf(call.returnType as TypeRef, sql.col('v', 'r'), ENV);
    const text = `select coalesce(json_agg(${printSql(value)} order by r.o), '[]')::text as result from ${printSql(call.sql(values))} with ordinality as r(v, o)`;
    const { rows } = await test_.db.query(text);
    return JSON.parse((rows[0] as { result: string }).result);
  }

  test.each<[string, string[], Arg[], unknown]>([
    ['std::array_unpack', ['array<int64>'], [['array<int64>', [3, 1, 2]]], [3, 1, 2]],
    ['std::array_unpack', ['array<str>'], [['array<str>', []]], []],
    ['std::json_array_unpack', ['json'], [['json', [1, 'a', null]]], [1, 'a', null]],
    [
      'std::json_object_unpack',
      ['json'],
      [['json', { b: 2, a: 1 }]],
      [
        ['a', 1],
        ['b', 2],
      ],
    ],
    [
      'std::re_match_all',
      ['str', 'str'],
      [
        ['str', 'a(.)'],
        ['str', 'abacad'],
      ],
      [['b'], ['c'], ['d']],
    ],
    [
      'std::re_match_all',
      ['str', 'str'],
      [
        ['str', '(foo)?bar'],
        ['str', 'barbar'],
      ],
      [[''], ['']],
    ],
    [
      'std::enumerate',
      ['str'],
      [['array<str>', ['x', 'y']]],
      [
        [0, 'x'],
        [1, 'y'],
      ],
    ],
    ['std::assert_exists', ['int64'], [['array<int64>', [1, 2]]], [1, 2]],
    ['std::assert_distinct', ['int64'], [['array<int64>', [1, 2]]], [1, 2]],
  ])('%s %j %j → %j', async (name, callTypes, args, expected) => {
    expect(await rowsOf(name, callTypes, args)).toEqual(expected);
  });

  // Gel's classes: CardinalityViolationError (21000), ConstraintViolationError (23514).
  test.each<[string, unknown[], string]>([
    ['std::assert_exists', [], '21000'],
    ['std::assert_distinct', [1, 1], '23514'],
  ])('%s of %j raises SQLSTATE %s', async (name, items, state) => {
    const { values } = decodeArgs([['array<int64>', items]]);
    const call = resolveFunction(name, [{ type: t('int64') }], { env: ENV });
    const text = `select count(*) from ${printSql(call.sql(values))} as r(v)`;
    expect(await sqlState(test_.db.query(text))).toBe(state);
  });
});

describe('casts', () => {
  test.each<[string, string, unknown, unknown]>([
    ['int64', 'str', 42, '42'],
    ['str', 'int64', '42', 42],
    ['str', 'bool', 'TRUE', true],
    ['str', 'bool', 'false', false],
    ['float64', 'int64', 2.5, 2],
    ['int64', 'int16', 7, 7],
    ['str', 'datetime', '2024-01-01T10:00:00+02:00', '2024-01-01T08:00:00+00:00'],
    ['str', 'datetime', '20180507T200122.306916+00', '2018-05-07T20:01:22.306916+00:00'],
    ['str', 'cal::local_date', '20180507', '2018-05-07'],
    ['str', 'cal::local_time', '2001', '20:01:00'],
    ['json', 'array<str>', null, null],
    ['datetime', 'str', '2024-01-01T10:00:00.120Z', '2024-01-01T10:00:00.12+00:00'],
    ['str', 'duration', 'PT2H', 'PT2H'],
    ['str', 'duration', '90 minutes', 'PT1H30M'],
    ['duration', 'str', 'PT-3H-2M-1S', 'PT-3H-2M-1S'],
    ['str', 'cal::relative_duration', 'P1Y2M3DT4H', 'P1Y2M3DT4H'],
    ['cal::date_duration', 'str', 'P0D', 'P0D'],
    ['duration', 'str', 'PT0S', 'PT0S'],
    ['str', 'json', 'a', 'a'],
    ['int64', 'json', 5, 5],
    ['datetime', 'json', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00+00:00'],
    ['bytes', 'json', 'aGk=', 'aGk='],
    ['json', 'int64', 5, 5],
    ['json', 'str', 'x', 'x'],
    ['json', 'bool', true, true],
    ['json', 'int64', null, null],
    ['json', 'datetime', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00+00:00'],
    ['array<int64>', 'array<str>', [1, 2], ['1', '2']],
    ['array<str>', 'json', ['a'], ['a']],
    ['cal::local_date', 'cal::local_datetime', '2024-01-02', '2024-01-02T00:00:00'],
    ['cal::relative_duration', 'cal::date_duration', 'P3D', 'P3D'],
    ['str', 'default::Color', 'Red', 'Red'],
    ['default::Color', 'str', 'Green', 'Green'],
    ['float64', 'bigint', 2.6, 3],
    ['decimal', 'bigint', '2.5', 3],
    ['float64', 'decimal', 0.5, 0.5],
    ['str', 'bigint', '12', 12],
    ['str', 'decimal', '-1.5', -1.5],
    ['json', 'default::Color', 'Blue', 'Blue'],
    ['json', 'bytes', 'aGk=', 'aGk='],
    ['json', 'array<int64>', [1, 2], [1, 2]],
    ['json', 'array<json>', [1, null], [1, null]],
    ['json', 'array<int64>', [], []],
  ])('<%s → %s> %j → %j', async (from, to, value, expected) => {
    const { values } = decodeArgs([[from, value]]);
    const cast = resolveCast(t(from), t(to), ENV);
    const text = `select ${printSql(jsonOf(t(to), cast.sql(values[0] as SqlExpr), ENV))}::text as result`;
    const { rows } = await test_.db.query(text);
    const raw = (rows[0] as { result: string | null }).result;
    expect(raw === null ? null : JSON.parse(raw)).toEqual(expected);
  });

  const tuple = (...elements: [string | null, string][]): TypeRef => ({
    kind: 'tuple',
    elements: elements.map(([name, type]) => ({ name, type: t(type) })),
  });
  test.each<[string, TypeRef, TypeRef, unknown, unknown]>([
    [
      'tuple → tuple',
      tuple([null, 'int64'], [null, 'str']),
      tuple([null, 'str'], [null, 'float64']),
      [1, '2.5'],
      ['1', 2.5],
    ],
    [
      'tuple → named tuple',
      tuple([null, 'str'], [null, 'int64']),
      tuple(['a', 'str'], ['b', 'int64']),
      ['x', 1],
      { a: 'x', b: 1 },
    ],
    [
      'json object → named tuple',
      t('json'),
      tuple(['a', 'int64'], ['b', 'datetime']),
      { b: '2024-01-01T00:00:00Z', a: 3 },
      { a: 3, b: '2024-01-01T00:00:00+00:00' },
    ],
    [
      'json array → tuple',
      t('json'),
      tuple([null, 'str'], [null, 'bool']),
      ['x', true],
      ['x', true],
    ],
    ['json null → tuple', t('json'), tuple([null, 'str']), null, null],
    [
      'json → range',
      t('json'),
      { kind: 'range', element: t('int64') },
      { lower: 1, upper: 5, inc_lower: true, inc_upper: false },
      { lower: 1, upper: 5, inc_lower: true, inc_upper: false },
    ],
    ['json null → range', t('json'), { kind: 'range', element: t('int64') }, null, null],
    [
      'array of tuples → array of tuples',
      { kind: 'array', element: tuple([null, 'int64']) },
      { kind: 'array', element: tuple([null, 'str']) },
      [[1], [2]],
      [['1'], ['2']],
    ],
  ])('<%s>', async (_, from, to, value, expected) => {
    const source = decodeParam(
      from,
      sql.cast(sql.text(JSON.stringify(value)), pgType('jsonb')),
      ENV,
    );
    const text = `select ${printSql(jsonOf(to, resolveCast(from, to, ENV).sql(source), ENV))}::text as result`;
    const { rows } = await test_.db.query(text);
    const raw = (rows[0] as { result: string | null }).result;
    expect(raw === null ? null : JSON.parse(raw)).toEqual(expected);
  });

  test.each<[string, TypeRef, TypeRef, unknown]>([
    [
      'json → tuple, an element missing',
      t('json'),
      tuple(['a', 'str'], ['b', 'int64']),
      { a: 'x' },
    ],
    ['json → tuple, a JSON null element', t('json'), tuple([null, 'str']), [null]],
    ['json → tuple, a JSON number', t('json'), tuple([null, 'str']), 1],
    ['json → range, a JSON array', t('json'), { kind: 'range', element: t('int64') }, [1]],
  ])('<%s> raises 22000', async (_, from, to, value) => {
    const source = decodeParam(
      from,
      sql.cast(sql.text(JSON.stringify(value)), pgType('jsonb')),
      ENV,
    );
    const text = `select ${printSql(jsonOf(to, resolveCast(from, to, ENV).sql(source), ENV))}::text as result`;
    expect(await sqlState(test_.db.query(text))).toBe('22000');
  });

  test.each<[string, string, unknown, string]>([
    ['str', 'bool', 'yes', '22P02'],
    ['str', 'datetime', '2024-01-01 10:00', '22007'],
    ['str', 'cal::local_date', 'Jan 1 2024', '22007'],
    ['str', 'duration', '1 day', '22007'],
    ['str', 'cal::date_duration', 'PT1H', '22007'],
    ['json', 'int64', 'x', '22000'],
    ['json', 'str', 1, '22000'],
    ['int64', 'int16', 70000, '22003'],
    ['str', 'bigint', 'NaN', '22P02'],
    ['str', 'bigint', '1.5', '22P02'],
    ['str', 'decimal', 'NaN', '22P02'],
    ['str', 'decimal', '-Infinity', '22P02'],
    ['str', 'cal::local_time', '24:00:00', '22008'],
    ['json', 'cal::local_time', '24:00:00', '22008'],
    ['str', 'cal::local_time', '23:59:59.999999999', '22008'],
    ['str', 'datetime', '0001-01-01T00:00:00+01:00', '22008'],
    ['str', 'default::Color', 'Purple', '22P02'],
    ['json', 'default::Color', 'Purple', '22P02'],
    ['json', 'bytes', 1, '22000'],
    ['json', 'int64', 1.5, '22P02'],
    ['json', 'bytes', 'not base64!', '22023'],
    ['json', 'array<int64>', [1, null], '22000'],
    ['json', 'array<int64>', 'x', '22000'],
    ['array<json>', 'array<int64>', [1, null], '22000'],
  ])('<%s → %s> %j raises %s', async (from, to, value, code) => {
    const { values } = decodeArgs([[from, value]]);
    const cast = resolveCast(t(from), t(to), ENV);
    const text = `select ${printSql(jsonOf(t(to), cast.sql(values[0] as SqlExpr), ENV))}::text as result`;
    expect(await sqlState(test_.db.query(text))).toBe(code);
  });

  test.each<[string, string]>([
    ['NaN', 'decimal'],
    ['Infinity', 'decimal'],
    ['-Infinity', 'bigint'],
    ['NaN', 'bigint'],
  ])('<%s → float64 → %s> raises 22P02 (neither type holds it)', async (text, to) => {
    const float = resolveCast(t('str'), t('float64'), ENV).sql(
      sql.cast(sql.text(text), pgType('text')),
    );
    const cast = resolveCast(t('float64'), t(to), ENV);
    const query = `select ${printSql(jsonOf(t(to), cast.sql(float), ENV))}::text as result`;
    expect(await sqlState(test_.db.query(query))).toBe('22P02');
  });
});
