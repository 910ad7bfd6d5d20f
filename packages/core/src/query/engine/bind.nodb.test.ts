/*
 * Binding by name, alone (the engine tests run it on a database): parameter order, the JSON
 * text each value travels as, the JSON kinds of EdgeQL types (custom scalars through their base,
 * arrays, tuples), and the auth values.
 */
import { MAX_JSON_DEPTH } from '../../json';
import { buildSchema } from '../../schema/build';
import type { QueryParam } from '../api';
import { compileQuery } from '../compile';
import { ANONYMOUS_AUTH, bindParameters } from './bind';

const schema = buildSchema(`
scalar type Slug extending str;
scalar type Color extending enum<Red, Green>;
scalar type Small extending int16;
global tenant: str;
`);
/** The parameter the compiler emits for `<type>$name` (`<optional type>$name`). */
const v = (name: string, type: string, required = true): QueryParam => {
  const param = compileQuery(schema, `select <${required ? '' : 'optional '}${type}>$${name}`)
    .params[0] as QueryParam;
  if (param.name !== name || param.type !== type || param.required !== required)
    throw new Error(`compiled ${JSON.stringify(param)} for <${type}>$${name}`);
  return param;
};
const bind = (params: QueryParam[], variables: Record<string, unknown>, auth = ANONYMOUS_AUTH) =>
  bindParameters(params, { variables, globals: {}, auth }, schema);
const problem = (params: QueryParam[], variables: Record<string, unknown>) => {
  try {
    bind(params, variables);
  } catch (err) {
    return `${(err as { type?: string; code: string }).type ?? (err as { code: string }).code}: ${(err as Error).message}`;
  }
  return 'bound';
};

test('values travel as JSON text in $n order; an absent optional one is SQL NULL', () => {
  expect(
    bind([v('b', 'std::int64'), v('a', 'std::str'), v('c', 'std::json', false)], {
      a: 'x',
      b: 2,
    }),
  ).toEqual(['2', '"x"', null]);
});

test.each([
  [v('s', 'default::Slug'), 'a-b', 'bound'],
  [
    v('s', 'default::Slug'),
    1,
    'QueryArgumentError: variable $s expects default::Slug: got the integer 1, not a string',
  ],
  [v('c', 'default::Color'), 'Red', 'bound'],
  [
    v('n', 'default::Small'),
    40000,
    'QueryArgumentError: variable $n expects default::Small: 40000 is out of range',
  ],
  [v('d', 'std::decimal'), '1.50', 'bound'],
  [v('d', 'std::bigint'), '12345678901234567890', 'bound'],
  [
    v('d', 'std::bigint'),
    'lots',
    'QueryArgumentError: variable $d expects std::bigint: got a string, not an integer',
  ],
  // int64 beyond JSON's exact integers travels as a string of digits, never rounded.
  [v('i', 'std::int64'), '-9223372036854775808', 'bound'],
  [v('i', 'std::int64'), 9007199254740991, 'bound'],
  [
    v('i', 'std::int64'),
    '9223372036854775808',
    'QueryArgumentError: variable $i expects std::int64: 9223372036854775808 is out of range',
  ],
  [
    v('i', 'std::int64'),
    2 ** 60,
    "QueryArgumentError: variable $i expects std::int64: 1152921504606847000 is beyond JSON's exact integers: send it as a string of digits",
  ],
  [
    v('i', 'std::int32'),
    '12',
    'QueryArgumentError: variable $i expects std::int32: got a string, not an integer',
  ],
  [v('f', 'std::float64'), 1.5, 'bound'],
  [
    v('b', 'std::bool'),
    'true',
    'QueryArgumentError: variable $b expects std::bool: got a string, not true or false',
  ],
  [v('j', 'std::json'), { any: ['thing'] }, 'bound'],
  [v('t', 'tuple<std::str, std::int64>'), ['a', 1], 'bound'],
  [
    v('t', 'tuple<std::str, std::int64>'),
    ['a'],
    'QueryArgumentError: variable $t expects tuple<std::str, std::int64>: got an array, not an array of 2 elements',
  ],
  [
    v('t', 'tuple<name: std::str, n: std::int64>'),
    { name: 'a', n: 'x' },
    'QueryArgumentError: variable $t expects tuple<name: std::str, n: std::int64>: element n: got a string, not an integer',
  ],
  [
    v('a', 'array<tuple<std::str, std::bool>>'),
    [
      ['a', true],
      ['b', 1],
    ],
    'QueryArgumentError: variable $a expects array<tuple<std::str, std::bool>>: element 1: element 1: got the integer 1, not true or false',
  ],
  [v('r', 'range<std::int64>'), { lower: 1, upper: 5, inc_lower: true, inc_upper: false }, 'bound'],
  [v('r', 'range<std::int64>'), { lower: null, upper: 5 }, 'bound'],
  [v('r', 'range<std::int64>'), { empty: true }, 'bound'],
  [
    v('r', 'range<std::int64>'),
    [1, 5],
    'QueryArgumentError: variable $r expects range<std::int64>: got an array, not a range object',
  ],
  [
    v('r', 'range<std::int64>'),
    { lower: 'a', upper: 5 },
    'QueryArgumentError: variable $r expects range<std::int64>: lower: got a string, not an integer',
  ],
])('%j with %j: %s', (param, value, outcome) => {
  expect(problem([param], { [param.name]: value })).toBe(outcome);
});

// Issue 26, 7: a json variable 5,000 levels deep overflowed the encoder's JSON.stringify (500).
test('a variable or global nested deeper than MAX_JSON_DEPTH is refused by name; at it, bound', () => {
  const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
  const tooDeep = `nested deeper than ${MAX_JSON_DEPTH} levels`;
  expect(problem([v('j', 'std::json')], { j: nested(5000) })).toBe(
    `VALIDATION_ERROR: variable $j is ${tooDeep}`,
  );
  expect(problem([v('a', 'array<std::json>')], { a: [1, nested(MAX_JSON_DEPTH)] })).toBe(
    `VALIDATION_ERROR: variable $a is ${tooDeep}`,
  );
  expect(bind([v('j', 'std::json')], { j: nested(MAX_JSON_DEPTH) })).toEqual([
    JSON.stringify(nested(MAX_JSON_DEPTH)),
  ]);
  const global = compileQuery(schema, 'select global tenant').params[0] as QueryParam;
  const bindGlobal = (value: unknown) =>
    bindParameters(
      [global],
      { variables: {}, globals: { tenant: value }, auth: ANONYMOUS_AUTH },
      schema,
    );
  expect(() => bindGlobal(nested(5000))).toThrow(`global default::tenant is ${tooDeep}`);
});

test('null is a std::json value; for other types it is no value', () => {
  expect(bind([v('j', 'std::json')], { j: null })).toEqual(['null']);
  expect(bind([v('j', 'std::json', false)], {})).toEqual([null]);
  expect(bind([v('s', 'std::str', false)], { s: null })).toEqual([null]);
  expect(problem([v('s', 'std::str')], { s: null })).toBe(
    'VALIDATION_ERROR: variable $s is required (std::str) and cannot be null',
  );
});

test('auth parameters come from the caller', () => {
  const auth = { userId: 'u-1', email: 'a@example.com', roles: ['editor', 'viewer'] };
  const params: QueryParam[] = [
    'current_user_id',
    'current_user_email',
    'current_role',
    'roles',
  ].map((name) => ({
    source: 'auth',
    name,
    type: 'std::str',
    valueType: { kind: 'scalar', name: 'std::str' },
    required: false,
  }));
  expect(bind(params, {}, auth)).toEqual([
    '"u-1"',
    '"a@example.com"',
    '"editor"',
    '["editor","viewer"]',
  ]);
  expect(bind(params, {})).toEqual([null, null, null, '[]']);
});
