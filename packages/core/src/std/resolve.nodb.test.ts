import { InvalidReferenceError, InvalidTypeError } from '../errors';
import type { TypeRef } from '../model/schema';
import { printSql } from '../sql/print';
import { sql } from '../sql/ast';
import { resolveCast, resolveFunction, resolveOperator } from './index';
import type { TypeEnv } from './model';

const s = (name: string): TypeRef => ({
  kind: 'scalar',
  name: name.includes('::') ? name : `std::${name}`,
});
const arr = (element: TypeRef): TypeRef => ({ kind: 'array', element });
const print = (t: TypeRef | null) =>
  t ? (t.kind === 'scalar' ? t.name : JSON.stringify(t)) : null;

const ENV: TypeEnv = {
  stdBase: (name) =>
    name === 'default::Slug'
      ? 'std::str'
      : name.startsWith('std::') || name.startsWith('cal::')
        ? (name as never)
        : null,
  enumValues: (name) => (name === 'default::Color' ? ['Red', 'Green', 'Blue'] : null),
};

describe('resolveOperator: fewest implicit casts wins', () => {
  test.each([
    ['+', 'int64', 'int64', 'std::int64'],
    ['+', 'int16', 'int16', 'std::int16'],
    ['+', 'int16', 'int64', 'std::int64'],
    ['+', 'int32', 'float64', 'std::float64'],
    ['+', 'int64', 'decimal', 'std::decimal'],
    ['+', 'int64', 'bigint', 'std::bigint'],
    ['+', 'bigint', 'decimal', 'std::decimal'],
    ['/', 'int64', 'int64', 'std::float64'],
    ['/', 'bigint', 'bigint', 'std::decimal'],
    ['/', 'int16', 'int16', 'std::float32'],
    ['/', 'int16', 'float32', 'std::float32'],
    ['/', 'int16', 'int32', 'std::float64'],
    ['/', 'int32', 'int32', 'std::float64'],
    ['//', 'int32', 'int32', 'std::int32'],
    ['^', 'int64', 'int64', 'std::float64'],
    ['^', 'bigint', 'int64', 'std::decimal'],
    ['-', 'datetime', 'datetime', 'std::duration'],
    ['+', 'datetime', 'duration', 'std::datetime'],
    ['-', 'cal::local_date', 'cal::local_date', 'cal::date_duration'],
    ['+', 'cal::local_date', 'cal::date_duration', 'cal::local_date'],
    ['+', 'cal::local_date', 'duration', 'cal::local_datetime'],
    ['-', 'cal::local_date', 'cal::relative_duration', 'cal::local_datetime'],
    ['+', 'duration', 'cal::relative_duration', 'cal::relative_duration'],
    ['-', 'cal::date_duration', 'duration', 'cal::relative_duration'],
    ['+', 'cal::date_duration', 'cal::date_duration', 'cal::date_duration'],
    ['=', 'int16', 'float64', 'std::bool'],
    ['++', 'str', 'str', 'std::str'],
    ['<', 'str', 'default::Slug', 'std::bool'],
  ])('%s(%s, %s) → %s', (op, l, r, expected) => {
    expect(
      print(resolveOperator(op, [{ type: s(l) }, { type: s(r) }], { env: ENV }).returnType),
    ).toBe(expected);
  });

  test.each([
    ['+', 'str', 'int64'],
    ['+', 'decimal', 'float64'],
    ['=', 'bigint', 'float32'],
    ['-', 'str', 'str'],
    ['and', 'bool', 'int64'],
  ])('%s(%s, %s) is an InvalidTypeError', (op, l, r) => {
    expect(() => resolveOperator(op, [{ type: s(l) }, { type: s(r) }], { env: ENV })).toThrow(
      InvalidTypeError,
    );
    expect(() => resolveOperator(op, [{ type: s(l) }, { type: s(r) }], { env: ENV })).toThrow(
      /cannot be applied to operands of type 'std::/,
    );
  });

  test('polymorphic: array ++ array, indexing binds anytype', () => {
    expect(
      resolveOperator('++', [{ type: arr(s('int64')) }, { type: arr(s('int64')) }]).returnType,
    ).toEqual(arr(s('int64')));
    expect(
      resolveOperator('[]', [{ type: arr(s('str')) }, { type: s('int64') }]).returnType,
    ).toEqual(s('str'));
    expect(
      resolveOperator('[]', [{ type: arr(s('int16')) }, { type: s('int32') }]).returnType,
    ).toEqual(s('int16'));
  });

  test('enums compare in declaration order', () => {
    const r = resolveOperator('<', [{ type: s('default::Color') }, { type: s('default::Color') }], {
      env: ENV,
    });
    expect(printSql(r.sql([sql.col('a'), sql.col('b')]))).toBe(
      `array_position(ARRAY['Red', 'Green', 'Blue'], "a"::text) < array_position(ARRAY['Red', 'Green', 'Blue'], "b"::text)`,
    );
  });

  test('an unknown ({}) argument still resolves; the result type is kept when all agree', () => {
    expect(resolveOperator('+', [{ type: null }, { type: s('int64') }]).returnType).toEqual(
      s('int64'),
    );
    expect(resolveOperator('=', [{ type: null }, { type: null }]).returnType).toEqual(s('bool'));
  });

  test('implicit casts of arguments are applied in the SQL', () => {
    const r = resolveOperator('+', [{ type: s('int32') }, { type: s('float64') }]);
    expect(printSql(r.sql([sql.col('a'), sql.col('b')]))).toBe('("a"::double precision) + "b"');
  });
});

describe('resolveFunction', () => {
  test('unknown function names are InvalidReferenceError', () => {
    expect(() => resolveFunction('std::nope', [])).toThrow(InvalidReferenceError);
  });
  test('a known name without a matching overload names the call', () => {
    expect(() => resolveFunction('std::len', [{ type: s('int64') }])).toThrow(
      'function "std::len(arg0: std::int64)" does not exist',
    );
  });
  // int16 reaches int64 and float64 in two implicit casts each; Gel then prefers the parameter
  // nearest in the scalar hierarchy (int16 and int64 share anyint, float64 only anyreal).
  test.each([
    ['math::ceil', 'int16', 'std::int64'],
    ['math::floor', 'int32', 'std::int64'],
    ['math::ceil', 'float32', 'std::float64'],
    ['math::mean', 'int16', 'std::float64'],
    ['math::var', 'int32', 'std::float64'],
    ['math::stddev', 'bigint', 'std::decimal'],
    ['math::abs', 'int16', 'std::int16'],
  ])('%s(%s) → %s: ties on casts go to the nearest type', (name, arg, expected) => {
    expect(print(resolveFunction(name, [{ type: s(arg) }], { env: ENV }).returnType)).toBe(
      expected,
    );
  });
});

describe('resolveCast', () => {
  test('<bytes>str is refused (item 4)', () => {
    expect(() => resolveCast(s('str'), s('bytes'), ENV)).toThrow(
      "cannot cast 'std::str' to 'std::bytes'",
    );
  });
  test('implicit and assignment flags', () => {
    expect(resolveCast(s('int16'), s('int64'), ENV)).toMatchObject({
      implicit: true,
      assignment: true,
    });
    expect(resolveCast(s('int64'), s('int16'), ENV)).toMatchObject({
      implicit: false,
      assignment: true,
    });
    expect(resolveCast(s('float64'), s('int64'), ENV)).toMatchObject({
      implicit: false,
      assignment: false,
    });
  });
  test('arrays and tuples are assignable element by element', () => {
    const array = (e: TypeRef): TypeRef => ({ kind: 'array', element: e });
    const tuple = (...es: TypeRef[]): TypeRef => ({
      kind: 'tuple',
      elements: es.map((type) => ({ name: null, type })),
    });
    expect(resolveCast(array(s('float64')), array(s('float32')), ENV).assignment).toBe(true);
    expect(resolveCast(array(s('float64')), array(s('int64')), ENV).assignment).toBe(false);
    expect(
      resolveCast(tuple(s('int64'), s('str')), tuple(s('int16'), s('str')), ENV),
    ).toMatchObject({ implicit: false, assignment: true });
  });
  test('a value of the base is assignable to a custom scalar (str → Slug), not implicitly', () => {
    const slug: TypeRef = { kind: 'scalar', name: 'default::Slug' };
    expect(resolveCast(s('str'), slug, ENV)).toMatchObject({ implicit: false, assignment: true });
    expect(resolveCast(s('int64'), slug, ENV)).toMatchObject({ assignment: false });
  });
});
