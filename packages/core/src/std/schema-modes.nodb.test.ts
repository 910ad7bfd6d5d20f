/**
 * The std table as schema inference (schema/build) and DDL (schema/storage) use it: the same
 * overload resolution and errors as queries, with DDL restricted to element-wise overloads.
 */
import { buildSchema } from '../schema/build';
import { compileScalar, type ScalarContext } from '../schema/ddl-expression';
import { printSql } from '../sql/print';
import * as ql from '../syntax';

const schema = buildSchema(`
  module default {
    scalar type Color extending enum<Red, Green, Blue>;
    type Item {
      name: str;
      qty: int64;
      color: Color;
      tags: array<str>;
    }
  }
`);
const item = schema.objectTypes.find((t) => t.name === 'default::Item');
if (!item) throw new Error('fixture: default::Item');
const row: ScalarContext = {
  schema,
  module: 'default',
  mode: 'check',
  subject: { kind: 'object', type: item.name },
};
const compile = (text: string) => printSql(compileScalar(ql.parseExpression(text), row).sql);

function errorOf(run: () => unknown): { type?: string; message: string; position?: unknown } {
  try {
    run();
  } catch (e) {
    return e as { type?: string; message: string; position?: unknown };
  }
  throw new Error('expected an error');
}

describe('DDL: the restricted mode of the std table', () => {
  test.each([
    ["str_trim(.name, 'x')", `btrim("name", 'x'::text)`],
    ['str_pad_start(.name, 4)', `lpad("name", (4::bigint)::integer)`],
    ["find(.name, 'a')", `(strpos("name", 'a'::text) - 1)::bigint`],
    [
      "re_replace('a', 'b', .name, flags := 'g')",
      `regexp_replace("name", 'a'::text, 'b'::text, 'g'::text)`,
    ],
    ['len(.tags)', 'cardinality("tags")::bigint'],
    ['math::abs(.qty)', 'abs("qty")'],
  ])('%s → %s', (input, expected) => {
    expect(compile(input)).toBe(expected);
  });

  test.each([
    [
      "'a' + 1",
      'InvalidTypeError',
      /operator '\+' cannot be applied to operands of type 'std::str' and 'std::int64'/,
    ],
    ['.color = 1', 'InvalidTypeError', /operator '=' cannot be applied/],
    ['-.name', 'InvalidTypeError', /operator '-' cannot be applied to operand of type 'std::str'/],
    [
      'len(.qty)',
      'InvalidReferenceError',
      /function "std::len\(arg0: std::int64\)" does not exist/,
    ],
    ['array_agg(.name)', 'InvalidDefinitionError', /works on sets/],
    ['array_unpack(.tags)', 'InvalidDefinitionError', /works on sets/],
    ['<bytes>.name', 'InvalidTypeError', /cannot cast 'std::str' to 'std::bytes'/],
    [
      '<array<bytes>>.tags',
      'InvalidTypeError',
      /cannot cast 'array<std::str>' to 'array<std::bytes>'/,
    ],
  ])('refuses %s', (input, type, message) => {
    const error = errorOf(() => compile(input));
    expect(error.type).toBe(type);
    expect(error.message).toMatch(message);
    expect(error.position).toMatchObject({ line: 1 });
  });
});

describe('schema inference through the std table', () => {
  const build = (body: string) =>
    buildSchema(`module default { type T { a: str; n: int64; ${body} } }`);

  test('result types come from the overloads', () => {
    const t = build(
      'property half := .n / 2; property words := str_split(.a, " "); property first := .a[0];',
    ).objectTypes.find((x) => x.name === 'default::T');
    const target = (name: string) => t?.pointers.find((p) => p.name === name)?.target;
    expect(target('half')).toEqual({ kind: 'scalar', name: 'std::float64' });
    expect(target('words')).toEqual({
      kind: 'array',
      element: { kind: 'scalar', name: 'std::str' },
    });
    expect(target('first')).toEqual({ kind: 'scalar', name: 'std::str' });
  });

  test('values that meet take their common type', () => {
    const t = build(
      "property mixed := {.n, 2.5}; property either := .n if .a = '' else 2.5; property arr := [.n, 1.5];",
    ).objectTypes.find((x) => x.name === 'default::T');
    const target = (name: string) => t?.pointers.find((p) => p.name === name)?.target;
    expect(target('mixed')).toEqual({ kind: 'scalar', name: 'std::float64' });
    expect(target('either')).toEqual({ kind: 'scalar', name: 'std::float64' });
    expect(target('arr')).toEqual({
      kind: 'array',
      element: { kind: 'scalar', name: 'std::float64' },
    });
  });

  test.each([
    ['property x := .a + 1;', /operator '\+' cannot be applied/],
    ['property x := <bytes>.a;', /cannot cast 'std::str' to 'std::bytes'/],
    [
      'property x := str_upper(.n);',
      /function "std::str_upper\(arg0: std::int64\)" does not exist/,
    ],
  ])('refuses %s', (body, message) => {
    const error = errorOf(() => build(body));
    expect(error.message).toMatch(message);
    expect(error.position).toMatchObject({ line: 1 });
  });
});
