/**
 * A schema of several files (issue 31): every error names its file and its line there, and one
 * build reports every independent error (syntax errors of different files; errors of different
 * declarations within a phase), in source order.
 */
import { QueryError, SvcError } from '../../errors';
import { buildSchema, joinSchemaFiles, type SchemaFile } from '.';

const USERS: SchemaFile = {
  name: 'dbschema/users.esdl',
  text: 'module default {\n  type User {\n    required name: str;\n  }\n}\n',
};
const POSTS: SchemaFile = {
  name: 'dbschema/posts.esdl',
  text: 'type Post {\n  required title: str;\n  author: User;\n}',
};

/** The error `buildSchema` throws, with the others found with it. */
function errorsOf(files: readonly SchemaFile[]): SvcError[] {
  try {
    buildSchema(files);
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    return [err, ...err.others];
  }
  throw new Error('the schema built');
}

const summary = (e: SvcError) => ({
  type: e.type,
  file: e.position?.file,
  line: e.position?.line,
  column: e.position?.column,
});

describe('buildSchema(files)', () => {
  test('builds the joined text: the same schema as one string', () => {
    const files = [USERS, POSTS];
    expect(buildSchema(files)).toEqual(buildSchema(joinSchemaFiles(files)));
  });

  test('an error in the second of three files names it, with its own line and the span', () => {
    const tags: SchemaFile = {
      name: 'dbschema/tags.esdl',
      text: 'type Tag {\n  required name: str;\n}\ntype Tagged { multi tags: Tga; }\n',
    };
    const [err, ...rest] = errorsOf([USERS, tags, POSTS]);
    expect(rest).toEqual([]);
    expect(err).toBeInstanceOf(QueryError);
    expect(err?.type).toBe('InvalidReferenceError');
    expect(err?.message).toBe("type 'default::Tga' does not exist");
    expect(err?.hint).toBe("did you mean 'default::Tag'?");
    expect(err?.position).toEqual({
      file: 'dbschema/tags.esdl',
      line: 4,
      column: 27,
      endLine: 4,
      endColumn: 30,
    });
  });

  test('syntax errors in two files are both reported, in file order', () => {
    const a = { name: 'a.esdl', text: 'type A {\n  name str;\n}' };
    const b = { name: 'b.esdl', text: 'type B {\n  name: str;\n}\ntype C { x: str; ' };
    expect(errorsOf([a, b, POSTS]).map(summary)).toEqual([
      { type: 'SchemaSyntaxError', file: 'a.esdl', line: 2, column: 7 },
      { type: 'SchemaSyntaxError', file: 'b.esdl', line: 4, column: 17 },
    ]);
  });

  test('unknown types in two files are both reported', () => {
    const a = { name: 'a.esdl', text: 'type A {\n  b: Bee;\n}' };
    const b = { name: 'b.esdl', text: '\n\ntype C {\n  d: Dee;\n  e: str;\n}' };
    expect(errorsOf([a, b]).map(summary)).toEqual([
      { type: 'InvalidReferenceError', file: 'a.esdl', line: 2, column: 6 },
      { type: 'InvalidReferenceError', file: 'b.esdl', line: 4, column: 6 },
    ]);
  });

  test('errors of different phases: the later phase does not run', () => {
    // The duplicate is found while collecting names; the unknown type would be found later.
    const a = { name: 'a.esdl', text: 'type A;\ntype A;\ntype B { c: Nope; }' };
    expect(errorsOf([a]).map(summary)).toEqual([
      { type: 'DuplicateDefinitionError', file: 'a.esdl', line: 2, column: 1 },
    ]);
  });

  test('duplicates, unknown bases, function signatures and bad expressions are collected across declarations', () => {
    const dup = {
      name: 'dup.esdl',
      text: 'type A;\ntype A;\nscalar type S extending str;\nscalar type S extending str;',
    };
    expect(errorsOf([dup]).map((e) => [e.type, e.position?.line])).toEqual([
      ['DuplicateDefinitionError', 2],
      ['DuplicateDefinitionError', 4],
    ]);
    const bases = { name: 'b.esdl', text: 'type A extending Nope1;\ntype B extending Nope2;' };
    expect(errorsOf([bases]).map((e) => [e.message, e.position?.line])).toEqual([
      ["type 'default::Nope1' does not exist", 1],
      ["type 'default::Nope2' does not exist", 2],
    ]);
    const functions = {
      name: 'f.esdl',
      text: 'function f(x: Nope1) -> str using ("a");\nfunction g(x: str) -> Nope2 using ("b");',
    };
    expect(errorsOf([functions]).map((e) => [e.message, e.position?.line])).toEqual([
      ["type 'default::Nope1' does not exist", 1],
      ["type 'default::Nope2' does not exist", 2],
    ]);
    const exprs = {
      name: 'e.esdl',
      text: [
        'type A {',
        '  n: int64 { constraint expression on (__subject__ > .nope); }',
        '  index on (.missing);',
        '}',
        'type B {',
        '  access policy p allow all using (.gone = 1);',
        '}',
      ].join('\n'),
    };
    expect(errorsOf([exprs]).map((e) => [e.type, e.position?.line])).toEqual([
      ['InvalidTypeError', 2],
      ['InvalidReferenceError', 3],
      ['InvalidReferenceError', 6],
    ]);
  });

  test('two wrong pointers of one type are both reported; its subtypes add no echo', () => {
    const a = {
      name: 'a.esdl',
      text: [
        'type Post {',
        '  author: Usr;',
        '  multi tags: Tga;',
        '}',
        'type Tag;',
        'type User;',
        'type Draft extending Post {',
        '  overloaded author: User;',
        '}',
      ].join('\n'),
    };
    expect(errorsOf([a]).map((e) => [e.message, e.hint, e.position?.line])).toEqual([
      ["type 'default::Usr' does not exist", "did you mean 'default::User'?", 2],
      ["type 'default::Tga' does not exist", "did you mean 'default::Tag'?", 3],
    ]);
  });

  test("a type's index, policy and constraint expressions are each checked", () => {
    const a = {
      name: 'a.esdl',
      text: [
        'type User {',
        '  required name: str;',
        '  required email: str;',
        '  index on (.nmae);',
        '  access policy own allow all using (.emial = global current_user_email);',
        '  constraint exclusive on (.nme);',
        '}',
      ].join('\n'),
    };
    expect(errorsOf([a]).map((e) => [e.hint, e.position?.line, e.position?.column])).toEqual([
      ["did you mean 'name'?", 4, 13],
      ["did you mean 'email'?", 5, 38],
      ["did you mean 'name'?", 6, 28],
    ]);
  });

  test('one string keeps positions of the joined text, without a file', () => {
    const text = joinSchemaFiles([USERS, { name: 'x', text: 'type X { y: Why; }' }]);
    try {
      buildSchema(text);
      throw new Error('the schema built');
    } catch (err) {
      expect((err as SvcError).position).toMatchObject({ line: 7, column: 13 });
      expect((err as SvcError).position?.file).toBeUndefined();
    }
  });
});
