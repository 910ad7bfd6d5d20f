/**
 * compileQuery without a database: inferred cardinality and result types, parameters by name,
 * refusals before running (items 2 and 11), errors with positions, the access hook (item 38),
 * deep nesting, and the property that no query text makes the compiler throw anything but a
 * QueryError.
 */
import fc from 'fast-check';
import {
  EdgeQLSyntaxError,
  InvalidReferenceError,
  InvalidTypeError,
  QueryError,
  ResultCardinalityMismatchError,
} from '../errors';
import { buildSchema } from '../schema';
import { printQuery } from '../syntax';
import { queryArbitraries } from '../syntax/__tests__/arbitraries';
import { ISSUES_SDL } from './__tests__/issues-sdl';
import { compileQuery } from './compile';

const schema = buildSchema(ISSUES_SDL);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

describe('inferred cardinality and type', () => {
  test.each([
    ['select 1', 'one', 'std::int64'],
    ["select 'a' ++ 'b'", 'one', 'std::str'],
    ['select {1, 2}', 'atLeastOne', 'std::int64'],
    ['select <optional str>$x', 'atMostOne', 'std::str'],
    ['select User', 'many', 'default::User'],
    ['select User { name }', 'many', 'default::User'],
    ['select User filter .id = <uuid>$id', 'atMostOne', 'default::User'],
    ["select Issue filter .number = '1'", 'atMostOne', 'default::Issue'],
    ["select User filter .name = 'x'", 'many', 'default::User'],
    ['select User limit 1', 'atMostOne', 'default::User'],
    ['select assert_single(User)', 'atMostOne', 'default::User'],
    ['select count(User)', 'one', 'std::int64'],
    ['select exists User', 'one', 'std::bool'],
    ['select (<User><uuid>$id)', 'one', 'default::User'],
    ['select User.best_friend', 'many', 'default::User'],
    ['select (select User filter .id = <uuid>$id).best_friend', 'atMostOne', 'default::User'],
    ['for x in {1, 2} union (x + 1)', 'atLeastOne', 'std::int64'],
    ['select {a := 1}', 'one', 'std::FreeObject'],
  ])('%s → %s %s', (query, cardinality, type) => {
    const compiled = compileQuery(schema, query);
    expect(compiled.cardinality).toBe(cardinality);
    expect(compiled.resultType).toBe(type);
    expect(compiled.writes).toBe(false);
  });
});

describe('parameters', () => {
  const STR = { kind: 'scalar', name: 'std::str' };
  test('are bound by name: the same variable twice is one parameter', () => {
    const compiled = compileQuery(schema, 'select <str>$a ++ <str>$b ++ <str>$a');
    expect(compiled.params).toEqual([
      { source: 'variable', name: 'a', type: 'std::str', valueType: STR, required: true },
      { source: 'variable', name: 'b', type: 'std::str', valueType: STR, required: true },
    ]);
    expect(compiled.sql).toContain('$1');
    expect(compiled.sql).toContain('$2');
    expect(compiled.sql).not.toContain('$3');
  });
  test('<optional T>$x is not required', () => {
    expect(compileQuery(schema, 'select <optional int64>$n').params).toEqual([
      {
        source: 'variable',
        name: 'n',
        type: 'std::int64',
        valueType: { kind: 'scalar', name: 'std::int64' },
        required: false,
      },
    ]);
  });
  test('a variable used with two types is refused', () => {
    expect(thrown(() => compileQuery(schema, 'select (<str>$a, <int64>$a)'))).toBeInstanceOf(
      QueryError,
    );
  });
  test('a variable without a type is refused with its position', () => {
    const err = thrown(() => compileQuery(schema, 'select $a')) as QueryError;
    expect(err).toBeInstanceOf(QueryError);
    expect(err.position).toEqual({ line: 1, column: 8 });
  });
  test('values never appear in the SQL text', () => {
    const compiled = compileQuery(schema, 'select User { name } filter .name = <str>$name');
    expect(compiled.sql).toContain('$1');
  });
});

describe('cardinality refusal before running (items 2, 11)', () => {
  test.each([
    ['select User', 'atMostOne'],
    ['select User { name }', 'one'],
    ["select User filter .name = 'Elvis'", 'atMostOne'],
    ['select {1, 2}', 'one'],
  ] as const)('%s with %s', (query, cardinality) => {
    const err = thrown(() => compileQuery(schema, query, { cardinality }));
    expect(err).toBeInstanceOf(ResultCardinalityMismatchError);
  });
  test.each([
    'select User filter .id = <uuid>$id',
    "select Issue { name } filter .number = '1'",
    'select User limit 1',
    'select assert_single(User)',
    'select count(User)',
  ])('%s is allowed for atMostOne', (query) => {
    expect(() => compileQuery(schema, query, { cardinality: 'atMostOne' })).not.toThrow();
  });
});

describe('errors with positions', () => {
  test('an unknown type', () => {
    const err = thrown(() => compileQuery(schema, 'select Usr')) as QueryError;
    expect(err).toBeInstanceOf(InvalidReferenceError);
    expect(err.position).toEqual({ line: 1, column: 8 });
  });
  test.each([
    ['select Usr', "did you mean 'User'?"],
    ['select <Usr>{}', "did you mean 'User'?"],
    ['select <strr>1', "did you mean 'str'?"],
    ['select <default::Isue>{}', "did you mean 'default::Issue'?"],
    ['with u := User select uu', "did you mean 'u'?"],
  ])('an unknown type name, with a hint: %s', (query, hint) => {
    const err = thrown(() => compileQuery(schema, query)) as QueryError;
    expect(err).toBeInstanceOf(InvalidReferenceError);
    expect(err.hint).toBe(hint);
  });
  test('a type of another module is the hint for its unqualified name', () => {
    const modules = buildSchema(
      'module default { type Member; } module shop { type Basket; } module empty {}',
    );
    const hint = (query: string) => (thrown(() => compileQuery(modules, query)) as QueryError).hint;
    expect(hint('with module empty select Member')).toBe("did you mean 'default::Member'?");
    expect(hint('select <Basket>{}')).toBe("did you mean 'shop::Basket'?");
    expect(hint('select <shop::Baskett>{}')).toBe("did you mean 'shop::Basket'?");
    expect(hint('select <empty::Basket>{}')).toBeUndefined();
  });
  test('an unknown type name far from every known one has no hint', () => {
    const err = thrown(() => compileQuery(schema, 'select <Zebra>{}')) as QueryError;
    expect(err).toBeInstanceOf(InvalidReferenceError);
    expect(err.hint).toBeUndefined();
  });
  test('an unknown pointer, with a hint', () => {
    const err = thrown(() => compileQuery(schema, 'select User { nme }')) as QueryError;
    expect(err).toBeInstanceOf(InvalidReferenceError);
    expect(err.position).toEqual({ line: 1, column: 15 });
    expect(err.hint).toContain('name');
  });
  test('an unknown function', () => {
    expect(thrown(() => compileQuery(schema, 'select nope(1)'))).toBeInstanceOf(
      InvalidReferenceError,
    );
  });
  test('an operator on the wrong types', () => {
    const err = thrown(() => compileQuery(schema, "select 1 + 'a'")) as QueryError;
    expect(err).toBeInstanceOf(InvalidTypeError);
    expect(err.position).toEqual({ line: 1, column: 8 });
  });
  test('a partial path without a subject', () => {
    expect(thrown(() => compileQuery(schema, 'select .name'))).toBeInstanceOf(
      InvalidReferenceError,
    );
  });
  test('a filter that is not a bool', () => {
    expect(thrown(() => compileQuery(schema, 'select User filter .name'))).toBeInstanceOf(
      InvalidTypeError,
    );
  });
  test('a syntax error', () => {
    expect(thrown(() => compileQuery(schema, 'select User {'))).toBeInstanceOf(EdgeQLSyntaxError);
  });
  test('two statements', () => {
    expect(thrown(() => compileQuery(schema, 'select 1; select 2'))).toBeInstanceOf(QueryError);
  });
  test('deep nesting is a clear error, not a stack overflow', () => {
    const deep = `select ${'('.repeat(3000)}1${')'.repeat(3000)}`;
    expect(thrown(() => compileQuery(schema, deep))).toBeInstanceOf(QueryError);
    const shapes = `select User ${'{ friends: '.repeat(400)}{ name }${' }'.repeat(400)}`;
    expect(thrown(() => compileQuery(schema, shapes))).toBeInstanceOf(QueryError);
  });
  test('nested calls print each argument once: the SQL grows with the text, not exponentially', () => {
    // A slice names its operand in its length, bounds and result; each level used to repeat the
    // one below (4 levels of `[0:1]` on an array printed 11 MB of SQL, 6 ran out of memory).
    const size = (levels: number, base: string) =>
      compileQuery(schema, `select ${base}${'[0:1]'.repeat(levels)}`).sql.length;
    for (const base of ["'abc'", '[1, 2]', '(<str>$s)', "b'ab'"]) {
      const one = size(1, base);
      expect(size(4, base)).toBeLessThan(one * 6);
    }
    const pads = (levels: number) =>
      compileQuery(
        schema,
        `select ${'str_pad_start('.repeat(levels)}'a'${", 3, 'x')".repeat(levels)}`,
      ).sql.length;
    expect(pads(4)).toBeLessThan(pads(1) * 6);
  });
});

describe('the access hook (item 38)', () => {
  const guarded = buildSchema(`
    type Note {
      required body: str;
      access policy mine allow all using (.body ?= global current_user_email);
    }
    type Tag { required name: str; multi notes: Note; }
  `);
  const access = { policies: true };
  test('a read of a type with policies carries its filter, evaluated by PostgreSQL', () => {
    const { sql, params } = compileQuery(guarded, 'select Note { body }', { access });
    expect(sql).toMatch(/where coalesce\(/);
    expect(params.map((p) => [p.source, p.name])).toEqual([['auth', 'current_user_email']]);
    const nested = compileQuery(guarded, 'select Tag { notes: { body } }', { access });
    expect(nested.params.map((p) => p.name)).toEqual(['current_user_email']);
  });
  test('a read that does not reach the type has no filter, and no parameter', () => {
    expect(compileQuery(guarded, 'select Tag { name }', { access }).params).toEqual([]);
  });
  test('the service credential compiles without policies', () => {
    const { sql, params } = compileQuery(guarded, 'select Note { body }');
    expect(params).toEqual([]);
    expect(sql).not.toMatch(/where coalesce\(/);
  });
});

describe('any query text (property)', () => {
  const { statement } = queryArbitraries(3);
  test('compiles or throws a QueryError naming the problem, never an internal error', () => {
    fc.assert(
      fc.property(statement, (tree) => {
        const text = printQuery(tree);
        try {
          compileQuery(schema, text);
        } catch (err) {
          if (!(err instanceof QueryError)) throw err;
          // The compiler's last-resort wrapping of an unexpected failure: a bug to fix.
          if (err.message.startsWith('the query could not be compiled')) throw err;
        }
      }),
      { numRuns: 300 },
    );
  });
});
