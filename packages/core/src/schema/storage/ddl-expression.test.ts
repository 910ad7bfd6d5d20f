import * as ql from '../../syntax';
import type { ObjectType, Pointer, Schema, TypeRef } from '../model';
import { printSql } from '../../sql/print';
import { compileScalar, type ScalarContext } from './ddl-expression';

const span = null;
function prop(name: string, target: TypeRef, extra: Partial<Pointer> = {}): Pointer {
  return {
    name,
    kind: 'property',
    required: false,
    cardinality: 'one',
    target,
    computed: null,
    default: null,
    readonly: false,
    splatStrategy: 'Default',
    constraints: [],
    annotations: {},
    onTargetDelete: null,
    onSourceDelete: null,
    properties: [],
    declaredIn: 'default::Item',
    span,
    ...extra,
  };
}
const s = (name: string): TypeRef => ({ kind: 'scalar', name });
const item: ObjectType = {
  name: 'default::Item',
  abstract: false,
  bases: [],
  ancestors: [],
  pointers: [
    prop('id', s('std::uuid')),
    prop('name', s('std::str')),
    prop('qty', s('std::int64')),
    prop('price', s('std::float64')),
    prop('color', s('default::Color')),
    prop('tags', { kind: 'array', element: s('std::str') }),
    prop('owner', { kind: 'object', name: 'default::Item' }, { kind: 'link' }),
    prop('notes', s('std::str'), { cardinality: 'many' }),
    prop('upper', s('std::str'), { computed: ql.parseExpression('str_upper(.name)') }),
    prop('uppers', s('std::str'), {
      computed: ql.parseExpression('str_upper(.name)'),
      cardinality: 'many',
    }),
  ],
  constraints: [],
  indexes: [],
  policies: [],
  annotations: {},
  span,
};
const schema: Schema = {
  modules: ['default'],
  objectTypes: [item],
  scalarTypes: [
    {
      name: 'default::Color',
      abstract: false,
      base: 'std::anyenum',
      stdBase: 'std::str',
      enumValues: ['Red', 'Green', 'Blue'],
      constraints: [],
      annotations: {},
      span,
    },
  ],
  globals: [],
  functions: [
    {
      name: 'default::double',
      params: [
        { name: 'x', kind: 'positional', typeModifier: null, type: s('std::int64'), default: null },
      ],
      returnType: s('std::int64'),
      returnModifier: null,
      body: ql.parseExpression('x * 2'),
      volatility: 'Immutable',
      annotations: {},
      span,
    },
  ],
  aliases: [],
  constraints: [],
  annotations: [],
};

const row: ScalarContext = {
  schema,
  module: 'default',
  mode: 'check',
  subject: { kind: 'object', type: item, table: null },
};
const none: ScalarContext = {
  schema,
  module: 'default',
  mode: 'default',
  subject: { kind: 'none' },
};

const compile = (text: string, ctx: ScalarContext) =>
  printSql(compileScalar(ql.parseExpression(text), ctx).sql);

describe('compileScalar: defaults', () => {
  it.each([
    ["'it''s'".replace("''", "\\'"), "'it''s'"],
    ['42', '42'],
    ['1.5', '1.5::double precision'],
    ['12n', '12::numeric'],
    ['1.5n', '1.5::numeric'],
    ['true', 'true'],
    ["b'ab'", "'\\x6162'::bytea"],
    ['[1, 2]', 'ARRAY[1, 2]'],
    ['<array<str>>[]', 'ARRAY[]::text[]'],
    ["(1, 'a')", "jsonb_build_array(1, 'a')"],
    ['1 + 2', '(1::bigint) + (2::bigint)'],
    ['7 / 2', '(7::double precision) / 2'],
    ['7 // 2', 'floor((7::numeric) / 2)::bigint'],
    ['-7 % 3', '((((-7)::bigint) % (3::bigint)) + (3::bigint)) % (3::bigint)'],
    ['2 ^ 3', 'power(2::double precision, 3::double precision)'],
    ["'a' ++ 'b'", "'a' || 'b'"],
    ['[1] ++ [2]', 'ARRAY[1] || ARRAY[2]'],
    ["<str>{} ?? 'x'", "coalesce(null::text, 'x')"],
    ["'a' if true else 'b'", "case when true then 'a' else 'b' end"],
    ['datetime_current()', 'clock_timestamp()'],
    ['uuid_generate_v4()', 'gen_random_uuid()'],
    ['uuid_generate_v1mc()', '"svc_meta"."uuid_generate_v7"()'],
    ["<int64>'12'", "'12'::bigint"],
    ["<datetime>'2024-01-01T00:00:00Z'", "'2024-01-01T00:00:00Z'::timestamptz"],
    ["<Color>'Red'", `'Red'::"default"."Color"`],
    ['Color.Green', "'Green'"],
    ["to_json('[1]')", "'[1]'::jsonb"],
    ["<json>'x'", "to_jsonb('x'::text)"],
    ['double(21)', '(21::bigint) * (2::bigint)'],
    ["len('abc')", "char_length('abc')"],
    ["str_lower(str_trim(' A '))", "lower(btrim(' A '))"],
    ['round(2.5)', 'round(2.5::double precision)'],
    ['abs(-3)', 'abs(-3)'],
    ['to_str(42)', '42::text'],
  ])('%s → %s', (input, expected) => {
    expect(compile(input, none)).toBe(expected);
  });
});

describe('compileScalar: checks and indexes', () => {
  it.each([
    ['.qty > 0', '"qty" > 0'],
    ['__subject__.qty >= 1', '"qty" >= 1'],
    [".name < 'm'", `("name" COLLATE "C") < 'm'`],
    [
      '.color < Color.Blue',
      `array_position(ARRAY['Red', 'Green', 'Blue'], "color"::text) < array_position(ARRAY['Red', 'Green', 'Blue'], 'Blue'::text)`,
    ],
    ["contains(.tags, 'x')", `"tags" @> ARRAY['x']`],
    ["contains(.name, 'x')", `strpos("name", 'x') > 0`],
    ["re_test('^a', .name)", `"name" ~ '^a'`],
    ["exists .name and not (.name like 'x%')", `("name" is not null) and (not ("name" like 'x%'))`],
    ['.qty in {1, 2, 3}', '"qty" in (1, 2, 3)'],
    ['.price ?= 1.5', '"price" is not distinct from (1.5::double precision)'],
    [
      '.price % 2.0',
      '"price" - (floor("price" / (2.0::double precision)) * (2.0::double precision))',
    ],
    ['.tags[0]', '"tags"[1]'],
    ['.name[-1]', `substr("name", char_length("name") + 0, 1)`],
    ['double(.qty)', '"qty" * (2::bigint)'],
    // A single computed property over the row is its expression.
    ['.upper', 'upper("name")'],
    // Slices: Gel's bounds, clamped, negative from the end.
    [
      '.name[-1:]',
      `substr("name", (case when (-1) < 0 then greatest(char_length("name") + (-1), 0) else least(-1, char_length("name")) end) + 1, greatest(char_length("name") - (case when (-1) < 0 then greatest(char_length("name") + (-1), 0) else least(-1, char_length("name")) end), 0))`,
    ],
  ])('%s → %s', (input, expected) => {
    expect(compile(input, row)).toBe(expected);
  });

  it('binds __subject__ to a value in pointer constraints and domains', () => {
    const ctx: ScalarContext = {
      ...row,
      subject: { kind: 'value', sql: { kind: 'DomainValue' }, type: s('std::int64') },
    };
    expect(compile('__subject__ >= 0', ctx)).toBe('VALUE >= 0');
  });

  it.each([
    ['datetime_current() > <datetime>.name', 'InvalidDefinitionError', /immutable/],
    ['global current_user_id', 'InvalidDefinitionError', /global/],
    ['.owner.name', 'InvalidDefinitionError', /own properties/],
    ['.notes', 'InvalidDefinitionError', /multi/],
    ['.uppers', 'InvalidDefinitionError', /computed/],
    ['.missing', 'InvalidReferenceError', /no property or link 'missing'/],
    ['count(.tags)', 'InvalidDefinitionError', /sets/],
    ['nosuch(1)', 'InvalidReferenceError', /does not exist/],
    ['Color.Purple', 'InvalidReferenceError', /no value 'Purple'/],
    ['(select 1)', 'InvalidDefinitionError', /query/],
    ['$x', 'InvalidDefinitionError', /parameters/],
  ])('refuses %s', (input, type, message) => {
    let error: unknown;
    try {
      compileScalar(ql.parseExpression(input), row);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ type });
    expect((error as Error).message).toMatch(message);
    expect((error as { position?: unknown }).position).toMatchObject({ line: 1 });
  });
});
