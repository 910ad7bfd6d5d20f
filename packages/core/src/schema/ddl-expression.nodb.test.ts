import * as ql from '../syntax';
import type { ObjectType, Pointer, Schema, TypeRef } from '../model/schema';
import { printSql } from '../sql/print';
import { buildSchema } from './build';
import { compileScalar, type ScalarContext } from './ddl-expression';
import { planMigration } from './diff/plan';

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
  globals: [
    {
      name: 'default::current_user_id',
      target: s('std::uuid'),
      required: false,
      cardinality: 'one',
      default: null,
      computed: null,
      annotations: {},
      span,
    },
  ],
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
  subject: { kind: 'object', type: item.name },
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
    ["'it''s'".replace("''", "\\'"), "'it''s'::text"],
    ['42', `42::bigint`],
    ['1.5', `'1.5'::double precision`],
    ['12n', `12::"svc_meta"."bigint"`],
    ['1.5n', '1.5::numeric'],
    ['true', 'true'],
    ["b'ab'", "E'\\\\x6162'::bytea"],
    ['[1, 2]', `ARRAY[1::bigint, 2::bigint]::bigint[]`],
    ['<array<str>>[]', 'ARRAY[]::text[]'],
    ["(1, 'a')", `jsonb_build_array(to_json(1::bigint)::jsonb, to_json('a'::text)::jsonb)`],
    ['1 + 2', '(1::bigint) + (2::bigint)'],
    ['7 / 2', `((7::bigint)::double precision) / ((2::bigint)::double precision)`],
    ['7 // 2', `floor(((7::bigint)::numeric) / ((2::bigint)::numeric))::bigint`],
    [
      '-7 % 3',
      'case when ((((-7)::bigint) % (3::bigint)) <> 0) and (((((-7)::bigint) % (3::bigint)) < 0) <> ((3::bigint) < 0)) then (((-7)::bigint) % (3::bigint)) + (3::bigint) else (((-7)::bigint) % (3::bigint)) end',
    ],
    ['2 ^ 3', `power((2::bigint)::double precision, (3::bigint)::double precision)`],
    ["'a' ++ 'b'", `('a'::text) || ('b'::text)`],
    ['[1] ++ [2]', `ARRAY[1::bigint]::bigint[] || ARRAY[2::bigint]::bigint[]`],
    ["<str>{} ?? 'x'", `coalesce(null::text, 'x'::text)`],
    [
      "'a' if true else 'b'",
      `case when true is null then null::text when true then 'a'::text else 'b'::text end`,
    ],
    ['datetime_current()', 'clock_timestamp()'],
    ['uuid_generate_v4()', 'gen_random_uuid()'],
    ['uuid_generate_v1mc()', '"svc_meta"."uuid_generate_v7"()'],
    ["<int64>'12'", `('12'::text)::bigint`],
    ["<datetime>'2024-01-01T00:00:00Z'", `"svc_meta"."datetime_in"('2024-01-01T00:00:00Z'::text)`],
    ["<Color>'Red'", `('Red'::text)::"default"."Color"`],
    ['Color.Green', `('Green'::text)::"default"."Color"`],
    ["to_json('[1]')", `('[1]'::text)::jsonb`],
    ["<json>'x'", `to_json('x'::text)::jsonb`],
    ['double(21)', '(21::bigint) * (2::bigint)'],
    ["len('abc')", `char_length('abc'::text)::bigint`],
    ["str_lower(str_trim(' A '))", `lower(btrim(' A '::text))`],
    ['round(2.5)', `round('2.5'::double precision)`],
    ['abs(-3)', `abs((-3)::bigint)`],
    ['to_str(42)', `(42::bigint)::text`],
  ])('%s → %s', (input, expected) => {
    expect(compile(input, none)).toBe(expected);
  });
});

describe('compileScalar: checks and indexes', () => {
  it.each([
    ['.qty > 0', `"qty" > (0::bigint)`],
    ['__subject__.qty >= 1', `"qty" >= (1::bigint)`],
    [".name < 'm'", `("name" COLLATE "C") < ('m'::text)`],
    [
      '.color < Color.Blue',
      `array_position(ARRAY['Red', 'Green', 'Blue'], "color"::text) < array_position(ARRAY['Red', 'Green', 'Blue'], (('Blue'::text)::"default"."Color")::text)`,
    ],
    ["contains(.tags, 'x')", `"tags" @> ARRAY['x'::text]`],
    ["contains(.name, 'x')", `strpos("name", 'x'::text) > 0`],
    ["re_test('^a', .name)", `"name" ~ ('^a'::text)`],
    [
      "exists .name and not (.name like 'x%')",
      `case when (("name" is not null) is null) or ((not ("name" like ('x%'::text))) is null) then null::boolean else ("name" is not null) and (not ("name" like ('x%'::text))) end`,
    ],
    ['.qty in {1, 2, 3}', `"qty" = any(ARRAY[1::bigint, 2::bigint, 3::bigint])`],
    ['.price ?= 1.5', `"price" is not distinct from ('1.5'::double precision)`],
    [
      '.price % 2.0',
      `"price" - (floor("price" / ('2.0'::double precision)) * ('2.0'::double precision))`,
    ],
    [
      '.tags[0]',
      `("tags")[case when ((0::bigint) >= cardinality("tags")) or ((0::bigint) < (- cardinality("tags"))) then "svc_meta"."raise"(case when cardinality("tags") is null then null::bigint end, '22000', ('array index ' || ((0::bigint)::text)) || ' is out of bounds') when (0::bigint) < 0 then (cardinality("tags") + (0::bigint)) + 1 else (0::bigint) + 1 end]`,
    ],
    [
      '.name[-1]',
      `substr("name", (case when (((-1)::bigint) >= char_length("name")) or (((-1)::bigint) < (- char_length("name"))) then "svc_meta"."raise"(case when char_length("name") is null then null::bigint end, '22000', ('string index ' || (((-1)::bigint)::text)) || ' is out of bounds') when ((-1)::bigint) < 0 then (char_length("name") + ((-1)::bigint)) + 1 else ((-1)::bigint) + 1 end)::integer, 1)`,
    ],
    ['double(.qty)', '"qty" * (2::bigint)'],
    // A single computed property over the row is its expression.
    ['.upper', 'upper("name")'],
    // A multi computed whose value is one per row is that value.
    ['.uppers', 'upper("name")'],
    // Slices: Gel's bounds, clamped, negative from the end.
    [
      '.name[-1:]',
      `substr("name", ((case when ((-1)::bigint) is null then 0 when ((-1)::bigint) < 0 then greatest(char_length("name") + ((-1)::bigint), 0) else least((-1)::bigint, char_length("name")) end) + 1)::integer, greatest(char_length("name") - (case when ((-1)::bigint) is null then 0 when ((-1)::bigint) < 0 then greatest(char_length("name") + ((-1)::bigint), 0) else least((-1)::bigint, char_length("name")) end), 0)::integer)`,
    ],
  ])('%s → %s', (input, expected) => {
    expect(compile(input, row)).toBe(expected);
  });

  it('binds __subject__ to a value in pointer constraints and domains', () => {
    const ctx: ScalarContext = {
      ...row,
      subject: { kind: 'value', type: s('std::int64') },
    };
    expect(compile('__subject__ >= 0', ctx)).toBe('VALUE >= (0::bigint)');
  });

  it("reads a pointer constraint's subject from its column, or from its own table", () => {
    const single: ScalarContext = {
      ...row,
      subject: { kind: 'pointer', type: 'default::Item', pointer: 'qty', junction: false },
    };
    expect(compile('__subject__ > 0', single)).toBe('"qty" > (0::bigint)');
    const link: ScalarContext = {
      ...row,
      subject: { kind: 'pointer', type: 'default::Item', pointer: 'owner', junction: false },
    };
    // A link's value is its column; @source is the row's own object.
    expect(compile('(__subject__, __subject__@source)', link)).toBe(
      'jsonb_build_array(to_json("owner")::jsonb, to_json("id")::jsonb)',
    );
    const multi: ScalarContext = {
      ...row,
      subject: { kind: 'pointer', type: 'default::Item', pointer: 'notes', junction: true },
    };
    expect(compile('len(__subject__) < 10', multi)).toBe(
      '(char_length("value")::bigint) < (10::bigint)',
    );
  });

  it('a set literal on the right of `in` is an array of its values', () => {
    expect(compile(".name in {'a', 'b'}", row)).toBe(`"name" = any(ARRAY['a'::text, 'b'::text])`);
  });

  it.each([
    [
      'datetime_current() > <datetime>.name',
      'InvalidConstraintDefinitionError',
      /constraint expressions must be immutable/,
    ],
    ['global current_user_id', 'InvalidDefinitionError', /global/],
    // Another table: the target's columns, a multi property's own table.
    ['.owner.name', 'InvalidDefinitionError', /only the row itself/],
    ['.notes', 'InvalidDefinitionError', /only the row itself/],
    ['.missing', 'InvalidReferenceError', /has no link or property 'missing'/],
    ['count(.tags)', 'InvalidDefinitionError', /sets/],
    ['nosuch(1)', 'InvalidReferenceError', /does not exist/],
    ['Color.Purple', 'InvalidReferenceError', /enum has no member called 'Purple'/],
    ['(select 1)', 'InvalidDefinitionError', /query/],
    ['$x', 'InvalidDefinitionError', /parameter/],
    ['<str>$x', 'InvalidDefinitionError', /parameters/],
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

describe('compileConstraint: the check is a bool', () => {
  const planned = (sdl: string) => () => planMigration(null, buildSchema(sdl));

  it.each([
    ['type T { n: str { constraint expression on (<array<int32>>[]); } }', 'collection'],
    ['type T { n: str { constraint expression on (len(__subject__)); } }', "'std::int64'"],
    [
      'abstract constraint wordy { using (len(__subject__)); } type T { n: str { constraint wordy; } }',
      "'std::int64'",
    ],
  ])('refuses %s', (sdl, got) => {
    expect(planned(sdl)).toThrow(
      expect.objectContaining({
        type: 'InvalidConstraintDefinitionError',
        message: `constraint expression expected to return a bool value, got ${got}`,
      }),
    );
  });

  it.each([
    [
      'type T { constraint exclusive on (random()); }',
      'InvalidConstraintDefinitionError',
      'constraint',
    ],
    ['type T { n: str; index on (random()); }', 'InvalidDefinitionError', 'index'],
    [
      'type T { n: str { constraint expression on (<str>datetime_current() != __subject__); } }',
      'InvalidConstraintDefinitionError',
      'constraint',
    ],
  ])('a volatile %s is refused', (sdl, type, what) => {
    expect(planned(sdl)).toThrow(
      expect.objectContaining({
        type,
        message: expect.stringContaining(`${what} expressions must be immutable`),
      }),
    );
  });

  it('takes a bool check and an empty one', () => {
    expect(
      planned('type T { n: str { constraint expression on (len(__subject__) > 1); } }'),
    ).not.toThrow();
  });
});
