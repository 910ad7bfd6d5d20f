/**
 * The binder alone: schema expressions bound in the restricted modes schema inference and DDL
 * expressions are meant to use (`bindExpression`), and the schema index it reads.
 */
import { QueryError, InvalidDefinitionError } from '../../errors';
import { buildSchema } from '../../schema';
import * as ql from '../../syntax';
import { ISSUES_SDL } from '../__tests__/issues-sdl';
import { schemaIndex, typeId } from '../schema-index';
import { bindExpression } from './index';
import { compileQuery } from '../compile';

const schema = buildSchema(ISSUES_SDL);
const index = schemaIndex(schema);

describe('restricted modes', () => {
  test('schema mode: a computed over the declaring type', () => {
    const ir = bindExpression(index, ql.parseExpression('count(.friends)'), {
      mode: 'schema',
      module: 'default',
      subjectType: 'default::User',
    });
    expect(ir.type).toEqual({ kind: 'scalar', name: 'std::int64' });
    expect(ir.card).toEqual({ min: 1, max: 1 });
  });
  test('schema mode: a single pointer path is at most one per object', () => {
    const ir = bindExpression(index, ql.parseExpression('.best_friend.name'), {
      mode: 'schema',
      module: 'default',
      subjectType: 'default::User',
    });
    expect(ir.card).toEqual({ min: 0, max: 1 });
  });
  test('ddl mode refuses reading object types', () => {
    expect(() =>
      bindExpression(index, ql.parseExpression('count(User)'), {
        mode: 'ddl',
        module: 'default',
        subjectType: null,
      }),
    ).toThrow(InvalidDefinitionError);
  });
  test('schema mode refuses parameters', () => {
    expect(() =>
      bindExpression(index, ql.parseExpression('<str>$x'), {
        mode: 'schema',
        module: 'default',
        subjectType: null,
      }),
    ).toThrow(QueryError);
  });
});

describe('names of the schema', () => {
  const enums = schemaIndex(
    buildSchema(
      `module default { scalar type Color extending enum<Red, Green>; type T { c: Color; } }`,
    ),
  );
  test('an enum member is the str cast to the enum', () => {
    const ir = bindExpression(enums, ql.parseExpression('Color.Green'), {
      mode: 'schema',
      module: 'default',
      subjectType: null,
    });
    expect(ir.kind).toBe('Cast');
    expect(ir.type).toEqual({ kind: 'scalar', name: 'default::Color' });
    expect(ir.card).toEqual({ min: 1, max: 1 });
  });
  test('an unknown enum member is an InvalidReferenceError naming the members', () => {
    expect(() =>
      bindExpression(enums, ql.parseExpression('Color.Blue'), {
        mode: 'schema',
        module: 'default',
        subjectType: null,
      }),
    ).toThrow(/enum has no member called 'Blue'/);
  });
  test('a cast gives an empty array its type', () => {
    const ir = bindExpression(enums, ql.parseExpression('<array<str>>[]'), {
      mode: 'schema',
      module: 'default',
      subjectType: null,
    });
    expect(ir).toMatchObject({ kind: 'ArrayLiteral', elements: [] });
    expect(ir.type).toEqual({ kind: 'array', element: { kind: 'scalar', name: 'std::str' } });
  });
});

describe('schema index', () => {
  test('concrete descendants, backlinks and storage', () => {
    expect(index.objectType('default::User')?.concrete).toEqual([
      'default::Admin',
      'default::User',
    ]);
    expect(index.objectType('default::Named')?.abstract).toBe(true);
    expect(index.backlinks('owner', 'default::User').map((b) => b.source)).toEqual([
      'default::Owned',
    ]);
    const friends = index.objectType('default::User')?.pointers.get('friends');
    expect(friends && index.storage('default::Admin', friends)).toEqual({
      kind: 'junction',
      table: { schema: 'default', name: 'Admin.friends' },
      valueColumn: 'target',
    });
  });
  test('every user type is an Object with __type__, and type ids are stable UUIDs', () => {
    expect(index.objectType('default::Issue')?.ancestors).toContain('std::Object');
    expect(index.objectType('default::Issue')?.pointers.has('__type__')).toBe(true);
    expect(typeId('default::Issue')).toBe(typeId('default::Issue'));
    expect(typeId('default::Issue')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
  test('is built once per schema object', () => {
    expect(schemaIndex(schema)).toBe(index);
  });
});

describe('SDL functions over a union of object types', () => {
  const sdl = `module default {
    type File { required name: str; }
    type URL { required name: str; required address: str; }
    function label(x: File | URL) -> str using (x.name);
  }`;
  test('the body reads what the members share (the schema builds)', () => {
    expect(() => buildSchema(sdl)).not.toThrow();
  });
  test('a member is an argument for the union parameter', () => {
    const schema = buildSchema(sdl);
    for (const arg of ['(select File)', '<URL>{}', '<File | URL>{}']) {
      expect(compileQuery(schema, `select label(${arg})`).resultType).toBe('std::str');
    }
  });
});
