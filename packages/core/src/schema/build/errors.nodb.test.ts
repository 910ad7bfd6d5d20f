/**
 * Schema errors, as data: SDL → error class, line, column and a message fragment. One case per
 * error the issue lists and per rule of the spec's items 1, 6, 9, 14, 24, 25 and 37.
 */
import { buildSchema } from '.';

interface Case {
  readonly name: string;
  /** Lines of SDL; positions below are 1-based into them. */
  readonly sdl: readonly string[];
  readonly error: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

const CASES: readonly Case[] = [
  // unknown names
  {
    name: 'unknown property type',
    sdl: ['type User {', '  name: strr;', '}'],
    error: 'InvalidReferenceError',
    line: 2,
    column: 9,
    message: "type 'default::strr' does not exist",
  },
  {
    name: 'unknown link target (arrow syntax)',
    sdl: ['module default {', '  type Post { link author -> Usr; }', '}'],
    error: 'InvalidReferenceError',
    line: 2,
    column: 30,
    message: "type 'default::Usr' does not exist",
  },
  {
    name: 'a bare array is an ordinary (unknown) name',
    sdl: ['type Shelf {', '  items: array;', '}'],
    error: 'InvalidReferenceError',
    line: 2,
    column: 10,
    message: "type 'default::array' does not exist",
  },
  {
    name: 'a bare tuple is an ordinary (unknown) name',
    sdl: ['type Shelf {', '  pair: tuple;', '}'],
    error: 'InvalidReferenceError',
    line: 2,
    column: 9,
    message: "type 'default::tuple' does not exist",
  },
  {
    name: 'an array of three element types',
    sdl: ['type Shelf {', '  items: array<str, str, str>;', '}'],
    error: 'SchemaError',
    line: 2,
    column: 10,
    message: 'unexpected number of subtypes, expecting 1',
  },
  {
    name: 'unknown base type',
    sdl: ['type Admin extending Userr;'],
    error: 'InvalidReferenceError',
    line: 1,
    column: 22,
    message: "type 'default::Userr' does not exist",
  },
  {
    name: 'extending a scalar type',
    sdl: ['type Admin extending str;'],
    error: 'InvalidDefinitionError',
    line: 1,
    column: 22,
    message: 'cannot extend scalar type',
  },
  {
    name: 'unknown pointer in a computed',
    sdl: ['type User {', '  name: str;', '  shout := str_upper(.nope);', '}'],
    error: 'InvalidReferenceError',
    line: 3,
    column: 22,
    message: "has no link or property 'nope'",
  },
  {
    name: 'unknown function in a computed',
    sdl: ['type User {', '  name: str;', '  shout := shoutify(.name);', '}'],
    error: 'InvalidReferenceError',
    line: 3,
    column: 12,
    message: "function 'shoutify' does not exist",
  },
  {
    name: 'unknown global',
    sdl: ['type User {', '  mine := global current_tenant;', '}'],
    error: 'InvalidReferenceError',
    line: 2,
    column: 18,
    message: "global 'default::current_tenant' does not exist",
  },
  {
    name: 'unknown annotation',
    sdl: ['type User {', "  annotation colour := 'red';", '}'],
    error: 'InvalidReferenceError',
    line: 2,
    column: 14,
    message: "annotation 'default::colour' does not exist",
  },
  {
    name: 'unknown abstract link in extending',
    sdl: ['type User {', '  multi link friends extending friendship -> User;', '}'],
    error: 'InvalidReferenceError',
    line: 2,
    column: 32,
    message: "link 'default::friendship' does not exist",
  },
  // duplicates
  {
    name: 'duplicate type',
    sdl: ['type User;', 'type User;'],
    error: 'DuplicateDefinitionError',
    line: 2,
    column: 1,
    message: "object type 'default::User' was already declared",
  },
  {
    name: 'type and scalar with one name',
    sdl: ['module default {', '  type Color;', '  scalar type Color extending str;', '}'],
    error: 'DuplicateDefinitionError',
    line: 3,
    column: 3,
    message: "'default::Color' was already declared",
  },
  {
    name: 'duplicate pointer',
    sdl: ['type User {', '  name: str;', '  name: int64;', '}'],
    error: 'DuplicateDefinitionError',
    line: 3,
    column: 3,
    message: "'name' of object type 'default::User' was already declared",
  },
  {
    name: 'duplicate global',
    sdl: ['global tenant: str;', 'global tenant: int64;'],
    error: 'DuplicateDefinitionError',
    line: 2,
    column: 1,
    message: "global 'default::tenant' was already declared",
  },
  {
    name: 'two functions with the same signature (item 6)',
    sdl: ['function f(x: str) -> str using (x);', 'function f(y: str) -> str using (y ++ y);'],
    error: 'DuplicateDefinitionError',
    line: 2,
    column: 1,
    message: "function 'default::f(std::str)' was already declared",
  },
  {
    name: 'duplicate access policy',
    sdl: ['type User {', '  access policy p allow all;', '  access policy p deny delete;', '}'],
    error: 'DuplicateDefinitionError',
    line: 3,
    column: 3,
    message: "access policy 'p'",
  },
  // item 9: arrays of arrays
  {
    name: 'array of arrays in a property',
    sdl: ['type M {', '  cells: array<array<float64>>;', '}'],
    error: 'InvalidPropertyDefinitionError',
    line: 2,
    column: 16,
    message: 'nested arrays are not supported',
  },
  {
    name: 'array of arrays in a tuple element',
    sdl: ['type M {', '  cells: tuple<str, array<array<int64>>>;', '}'],
    error: 'InvalidPropertyDefinitionError',
    line: 2,
    column: 27,
    message: 'nested arrays are not supported',
  },
  {
    name: 'array of arrays in a scalar type',
    sdl: ['scalar type Matrix extending array<array<int64>>;'],
    error: 'InvalidDefinitionError',
    line: 1,
    column: 36,
    message: 'nested arrays are not supported',
  },
  // item 14: single computeds
  {
    name: 'single computed over a multi link',
    sdl: ['type User {', '  multi friends: User;', '  single best := .friends;', '}'],
    error: 'InvalidLinkDefinitionError',
    line: 3,
    column: 3,
    message: "computed 'best' is declared single but may return more than one value",
  },
  {
    name: 'single computed property over a backlink',
    sdl: [
      'type Tag { name: str; }',
      'type Post { multi tags: Tag; }',
      'type X {',
      '  single property tags := (select Tag.name);',
      '}',
    ],
    error: 'InvalidPropertyDefinitionError',
    line: 4,
    column: 3,
    message: "computed 'tags' is declared single",
  },
  // item 6: functions
  {
    name: 'set of parameter',
    sdl: ['function total(xs: set of int64) -> int64 using (sum(xs));'],
    error: 'InvalidFunctionDefinitionError',
    line: 1,
    column: 16,
    message: "parameter 'xs'",
  },
  {
    name: 'self-calling function',
    sdl: ['function fact(n: int64) -> int64 using (', '  1 if n <= 1 else n * fact(n - 1)', ');'],
    error: 'InvalidFunctionDefinitionError',
    line: 2,
    column: 24,
    message: "function 'default::fact' calls itself",
  },
  {
    name: 'mutually calling functions',
    sdl: [
      'function ping(n: int64) -> int64 using (pong(n));',
      'function pong(n: int64) -> int64 using (ping(n));',
    ],
    error: 'InvalidFunctionDefinitionError',
    line: 1,
    column: 41,
    message: "calls itself through 'default::pong'",
  },
  {
    name: 'SQL function body',
    sdl: ['function f(x: int64) -> int64 using sql $$ select 1 $$;'],
    error: 'InvalidFunctionDefinitionError',
    line: 1,
    column: 31,
    message: 'SQL function bodies are not supported',
  },
  // item 1: defaults
  {
    name: 'default reading the object',
    sdl: ['type Post {', '  title: str;', '  slug: str { default := str_lower(.title); }', '}'],
    error: 'InvalidPropertyDefinitionError',
    line: 3,
    column: 36,
    message: "default of 'slug' reads the object: compute it in the insert",
  },
  {
    name: 'default reading an object type',
    sdl: ['type Post {', '  rank: int64 { default := (select count(Post)); }', '}'],
    error: 'InvalidPropertyDefinitionError',
    line: 2,
    column: 42,
    message: "default of 'rank' reads object type 'default::Post'",
  },
  {
    name: 'default writing',
    sdl: [
      'type Log { n: int64; }',
      'type Post {',
      '  n: int64 { default := (insert Log { n := 1 }).n; }',
      '}',
    ],
    error: 'InvalidPropertyDefinitionError',
    line: 3,
    column: 26,
    message: "default of 'n' writes to the database",
  },
  {
    name: 'default reading __subject__',
    sdl: ['type Post {', '  n: int64 { default := len(__subject__.title); }', '  title: str;', '}'],
    error: 'InvalidPropertyDefinitionError',
    line: 2,
    column: 29,
    message: "default of 'n' reads the object",
  },
  // items 24, 25, 37: constraints
  {
    name: 'unknown constraint',
    sdl: ['type User {', '  name: str { constraint maxlen(5); }', '}'],
    error: 'InvalidReferenceError',
    line: 2,
    column: 26,
    message: "constraint 'default::maxlen' does not exist",
  },
  {
    name: 'wrong number of constraint arguments',
    sdl: ['type User {', '  name: str { constraint max_len_value(5, 6); }', '}'],
    error: 'InvalidConstraintDefinitionError',
    line: 2,
    column: 26,
    message: 'takes 1 argument, got 2',
  },
  {
    name: 'regexp on an int64',
    sdl: ['type User {', "  age: int64 { constraint regexp(r'^\\d+$'); }", '}'],
    error: 'InvalidConstraintDefinitionError',
    line: 2,
    column: 16,
    message: "cannot be applied to type 'std::int64'",
  },
  {
    name: 'max_len_value on an int64',
    sdl: ['type User {', '  age: int64 { constraint max_len_value(3); }', '}'],
    error: 'InvalidConstraintDefinitionError',
    line: 2,
    column: 16,
    message: "cannot be applied to type 'std::int64'",
  },
  {
    name: 'max_value with an argument of another type',
    sdl: ['type User {', "  age: int64 { constraint max_value('old'); }", '}'],
    error: 'InvalidConstraintDefinitionError',
    line: 2,
    column: 37,
    message:
      "is of type 'std::str', but the constraint expects a value of the subject's type 'std::int64'",
  },
  {
    name: 'max_len_value with a str argument',
    sdl: ['type User {', "  name: str { constraint max_len_value('ten'); }", '}'],
    error: 'InvalidConstraintDefinitionError',
    line: 2,
    column: 40,
    message: "is of type 'std::str', but the constraint expects an integer ('std::int64')",
  },
  {
    name: 'regexp with an int64 argument',
    sdl: ['type User {', '  name: str { constraint regexp(5); }', '}'],
    error: 'InvalidConstraintDefinitionError',
    line: 2,
    column: 33,
    message: "is of type 'std::int64', but the constraint expects 'std::str'",
  },
  {
    name: 'type-level constraint without on',
    sdl: ['type User {', '  name: str;', '  constraint exclusive;', '}'],
    error: 'InvalidConstraintDefinitionError',
    line: 3,
    column: 3,
    message: 'needs a subject',
  },
  {
    name: 'expression constraint without on',
    sdl: ['type User {', '  age: int64 { constraint expression; }', '}'],
    error: 'InvalidConstraintDefinitionError',
    line: 2,
    column: 16,
    message: "'std::expression' needs an expression",
  },
  {
    name: 'exclusive on a scalar type',
    sdl: ['scalar type Code extending str {', '  constraint exclusive;', '}'],
    error: 'InvalidConstraintDefinitionError',
    line: 2,
    column: 3,
    message: 'cannot be defined on scalar types',
  },
  {
    name: 'exclusive on a tuple of unknown pointers (item 37)',
    sdl: ['type User {', '  a: str;', '  constraint exclusive on ((.a, .b));', '}'],
    error: 'InvalidReferenceError',
    line: 3,
    column: 33,
    message: "has no link or property 'b'",
  },
  {
    name: 'expression on __subject__ reading an unknown pointer',
    sdl: ['type User {', '  constraint expression on (__subject__.x > 0);', '}'],
    error: 'InvalidReferenceError',
    line: 2,
    column: 40,
    message: "has no link or property 'x'",
  },
  // pointer kinds (arrow syntax) and inheritance
  {
    name: 'property with an object target',
    sdl: ['module default {', '  type User;', '  type Post { property author -> User; }', '}'],
    error: 'InvalidPropertyDefinitionError',
    line: 3,
    column: 34,
    message: 'invalid property type',
  },
  {
    name: 'link with a scalar target',
    sdl: ['module default {', '  type Post { link title -> str; }', '}'],
    error: 'InvalidLinkDefinitionError',
    line: 2,
    column: 29,
    message: 'invalid link target type',
  },
  {
    name: 'redeclaring an inherited pointer without overloaded',
    sdl: [
      'abstract type Named { name: str; }',
      'type User extending Named {',
      '  required name: str;',
      '}',
    ],
    error: 'SchemaDefinitionError',
    line: 3,
    column: 3,
    message: "'name' must be declared using the `overloaded` keyword",
  },
  {
    name: 'overloaded without an inherited pointer',
    sdl: ['type User {', '  overloaded name: str;', '}'],
    error: 'SchemaDefinitionError',
    line: 2,
    column: 3,
    message: 'no ancestors defining it',
  },
  {
    name: 'incompatible overload',
    sdl: [
      'abstract type Named { name: str; }',
      'type User extending Named {',
      '  overloaded name: int64;',
      '}',
    ],
    error: 'InvalidPropertyDefinitionError',
    line: 3,
    column: 20,
    message: 'cannot redefine property',
  },
  {
    name: 'incompatible inherited pointers',
    sdl: [
      'abstract type A { code: str; }',
      'abstract type B { code: int64; }',
      'type C extending A, B;',
    ],
    error: 'InvalidPropertyDefinitionError',
    line: 3,
    column: 6,
    message: 'incompatible definitions',
  },
  {
    name: 'deletion policy on a property (current syntax)',
    sdl: ['type User {', '  name: str { on target delete allow; }', '}'],
    error: 'InvalidPropertyDefinitionError',
    line: 2,
    column: 15,
    message: 'cannot place a deletion policy on a property',
  },
  {
    name: 'recursive base types',
    sdl: ['type A extending B;', 'type B extending A;'],
    error: 'InvalidDefinitionError',
    line: 1,
    column: 6,
    message: 'is defined recursively',
  },
  {
    name: 'query parameter in a schema',
    sdl: ['type User {', '  x := <str>$name;', '}'],
    error: 'QueryError',
    line: 2,
    column: 13,
    message: 'query parameters are not allowed in schemas',
  },
  // parsed but not run yet: refused, never silently dropped
  {
    name: 'a trigger',
    sdl: [
      'type Log { n: int64; }',
      'type User {',
      '  name: str;',
      '  trigger log after insert for each do (insert Log { n := 1 });',
      '}',
    ],
    error: 'UnsupportedFeatureError',
    line: 4,
    column: 3,
    message: 'triggers are not supported yet',
  },
  {
    name: 'an access rewrite',
    sdl: ['type User {', '  name: str {', "    rewrite insert using ('x');", '  }', '}'],
    error: 'UnsupportedFeatureError',
    line: 3,
    column: 5,
    message: 'access rewrites (`rewrite ... using`) are not supported yet',
  },
  // expressions bound after assembly by the query binder (./bound): the errors a query gives
  {
    name: 'unknown pointer in an access policy',
    sdl: [
      'type User {',
      '  access policy own allow all using (.owner = global current_user_id);',
      '}',
    ],
    error: 'InvalidReferenceError',
    line: 2,
    column: 38,
    message: "object type 'default::User' has no link or property 'owner'",
  },
  {
    name: 'unknown pointer in a link property constraint',
    sdl: [
      'type Card;',
      'type User {',
      '  multi deck: Card {',
      '    count: int64 { constraint expression on (__subject__ > @nope); }',
      '  }',
      '}',
    ],
    error: 'InvalidReferenceError',
    line: 4,
    column: 60,
    message: 'nope',
  },
  {
    name: 'a function body applying an operator to the wrong types',
    sdl: ['function plus(x: str) -> int64 using (x + 1);'],
    error: 'InvalidTypeError',
    line: 1,
    column: 39,
    message: "operator '+' cannot be applied",
  },
  {
    name: 'a scalar constraint comparing with the wrong type',
    sdl: ["scalar type Pos extending int64 { constraint expression on (__subject__ > 'a'); }"],
    error: 'InvalidTypeError',
    line: 1,
    column: 61,
    message: "operator '>' cannot be applied",
  },
  {
    name: 'an index on an unknown pointer',
    sdl: ['type User {', '  name: str;', '  index on (str_lower(.nmae));', '}'],
    error: 'InvalidReferenceError',
    line: 3,
    column: 23,
    message: "object type 'default::User' has no link or property 'nmae'",
  },
  {
    name: 'aliases reading each other',
    sdl: ['alias A := (select B);', 'alias B := A;'],
    error: 'InvalidDefinitionError',
    line: 2,
    column: 12,
    message: "alias 'default::A' is defined recursively",
  },
  // reserved module names
  ...['svc_auth', 'pg_temp', 'public', 'std', 'schema', 'sys', 'cal', 'math', 'super'].map(
    (module) => ({
      name: `the reserved module name ${module}`,
      sdl: [`module ${module} {`, '  type T;', '}'],
      error: 'SchemaDefinitionError',
      line: 1,
      column: 1,
      message: `module name '${module}' is reserved`,
    }),
  ),
  {
    name: 'a nested module of std (Gel: std is read-only)',
    sdl: ['module std {', '  module extra {', '    type T;', '  }', '}'],
    error: 'SchemaDefinitionError',
    line: 1,
    column: 1,
    message: "module name 'std' is reserved",
  },
  {
    name: 'super as a nested module name',
    sdl: ['module shop {', '  module super {', '    type T;', '  }', '}'],
    error: 'SchemaDefinitionError',
    line: 2,
    column: 3,
    message: "module name 'shop::super' is reserved",
  },
];

function thrown(sdl: string): {
  type?: string;
  message: string;
  position?: { line: number; column: number };
} {
  try {
    buildSchema(sdl);
  } catch (error) {
    return error as { type?: string; message: string; position?: { line: number; column: number } };
  }
  throw new Error('expected a schema error, got a schema');
}

describe('buildSchema errors', () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const error = thrown(c.sdl.join('\n'));
    expect({
      type: error.type,
      line: error.position?.line,
      column: error.position?.column,
    }).toEqual({
      type: c.error,
      line: c.line,
      column: c.column,
    });
    expect(error.message).toContain(c.message);
  });
});
