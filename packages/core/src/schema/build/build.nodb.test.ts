import { buildSchema } from '.';
import type { ObjectType, Pointer, Schema } from '../../model/schema';

const CURRENT = `
module default {
  global current_tenant: str;
  required global mode: str { default := 'live' };
  global me := (select User filter .id = global current_user_id);

  abstract inheritable annotation owner;

  scalar type Color extending enum<Red, Green, Blue>;
  scalar type Slug extending str {
    constraint regexp(r'^[a-z0-9-]+$');
    constraint max_len_value(64);
  }

  abstract type Named {
    required name: str { constraint min_len_value(1); }
    annotation owner := 'core';
    annotation title := 'named';
    index on (.name);
    access policy readable allow select;
  }

  abstract type Timestamped {
    required created: datetime { default := datetime_current(); readonly := true; }
  }

  type User extending Named, Timestamped {
    required email: str { constraint exclusive; }
    age: int16 { constraint expression on (__subject__ >= 0); }
    multi friends: User { since: datetime; }
    manager: User { on target delete allow; }
    favourite: Color;
    tags: array<str>;
    pair: tuple<x: int64, y: str>;
    birthday: cal::local_date;
    friend_count := count(.friends);
    upper := str_upper(.name);
    posts := .<author[is Post];
    best_friend := (select .friends order by .name limit 1);
    me_again := (select User filter .email = 'x');
    constraint exclusive on ((.name, .email));
    access policy own allow all using (.id ?= global current_user_id);
    access policy no_update deny update;
    annotation rest::hidden := 'true';
  }

  type Post {
    required title: str;
    slug: Slug;
    required author: User { on target delete delete source; }
    multi tags: Tag;
    summary := full_name(.title);
    annotation rest::expand := 'author';
  }

  type Tag { required name: str { constraint exclusive; } }

  function full_name(first: str, last: str = '') -> str using (first ++ ' ' ++ last);
  alias ActiveUsers := (select User filter .age > 18);
}
`;

const ARROW = `
module default {
  abstract link friendship {
    property since -> datetime;
  }
  type Person {
    required property name -> str { constraint exclusive; };
    optional property nickname -> str;
    multi link friends extending friendship -> Person;
    single link best_friend -> Person { on target delete restrict; };
    property name_upper := str_upper(.name);
    link first_friend := (select .friends limit 1);
  };
  required global tenant -> str { default := 'main'; };
};
`;

function type(schema: Schema, name: string): ObjectType {
  const found = schema.objectTypes.find((t) => t.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
}

function ptr(t: ObjectType, name: string): Pointer {
  const found = t.pointers.find((p) => p.name === name);
  if (!found) throw new Error(`no ${t.name}.${name}`);
  return found;
}

const summary = (p: Pointer) => ({
  kind: p.kind,
  target: p.target,
  cardinality: p.cardinality,
  required: p.required,
  declaredIn: p.declaredIn,
});

describe('buildSchema, current syntax', () => {
  const schema = buildSchema(CURRENT);

  test('types, sorted, with C3 ancestors', () => {
    expect(schema.modules).toEqual(['default']);
    expect(schema.objectTypes.map((t) => t.name)).toEqual([
      'default::Named',
      'default::Post',
      'default::Tag',
      'default::Timestamped',
      'default::User',
    ]);
    const user = type(schema, 'default::User');
    expect(user.bases).toEqual(['default::Named', 'default::Timestamped']);
    expect(user.ancestors).toEqual(['default::Named', 'default::Timestamped']);
    expect(type(schema, 'default::Named').abstract).toBe(true);
  });

  test('pointers: id first, inherited then own, kinds and targets', () => {
    const user = type(schema, 'default::User');
    expect(user.pointers.map((p) => p.name)).toEqual([
      'id',
      'name',
      'created',
      'email',
      'age',
      'friends',
      'manager',
      'favourite',
      'tags',
      'pair',
      'birthday',
      'friend_count',
      'upper',
      'posts',
      'best_friend',
      'me_again',
    ]);
    expect(summary(ptr(user, 'id'))).toEqual({
      kind: 'property',
      target: { kind: 'scalar', name: 'std::uuid' },
      cardinality: 'one',
      required: true,
      declaredIn: 'default::Named',
    });
    expect(ptr(user, 'id').readonly).toBe(true);
    expect(ptr(user, 'id').constraints.map((c) => c.name)).toEqual(['std::exclusive']);
    expect(summary(ptr(user, 'name'))).toEqual({
      kind: 'property',
      target: { kind: 'scalar', name: 'std::str' },
      cardinality: 'one',
      required: true,
      declaredIn: 'default::Named',
    });
    expect(summary(ptr(user, 'friends'))).toEqual({
      kind: 'link',
      target: { kind: 'object', name: 'default::User' },
      cardinality: 'many',
      required: false,
      declaredIn: 'default::User',
    });
    expect(ptr(user, 'friends').properties.map((p) => [p.name, p.kind, p.target])).toEqual([
      ['since', 'property', { kind: 'scalar', name: 'std::datetime' }],
    ]);
    expect(ptr(user, 'friends').onTargetDelete).toBe('restrict');
    expect(ptr(user, 'manager').onTargetDelete).toBe('allow');
    expect(ptr(user, 'favourite').target).toEqual({ kind: 'scalar', name: 'default::Color' });
    expect(ptr(user, 'tags').target).toEqual({
      kind: 'array',
      element: { kind: 'scalar', name: 'std::str' },
    });
    expect(ptr(user, 'pair').target).toEqual({
      kind: 'tuple',
      elements: [
        { name: 'x', type: { kind: 'scalar', name: 'std::int64' } },
        { name: 'y', type: { kind: 'scalar', name: 'std::str' } },
      ],
    });
    expect(ptr(user, 'birthday').target).toEqual({ kind: 'scalar', name: 'cal::local_date' });
    expect(ptr(user, 'created').readonly).toBe(true);
    expect(ptr(user, 'created').default).not.toBeNull();
  });

  test('computeds: inferred target and cardinality', () => {
    const user = type(schema, 'default::User');
    const infer = (name: string) => ({
      kind: ptr(user, name).kind,
      target: ptr(user, name).target,
      cardinality: ptr(user, name).cardinality,
    });
    expect(infer('friend_count')).toEqual({
      kind: 'property',
      target: { kind: 'scalar', name: 'std::int64' },
      cardinality: 'one',
    });
    expect(infer('upper')).toEqual({
      kind: 'property',
      target: { kind: 'scalar', name: 'std::str' },
      cardinality: 'one',
    });
    expect(infer('posts')).toEqual({
      kind: 'link',
      target: { kind: 'object', name: 'default::Post' },
      cardinality: 'many',
    });
    expect(infer('best_friend')).toEqual({
      kind: 'link',
      target: { kind: 'object', name: 'default::User' },
      cardinality: 'one',
    });
    expect(infer('me_again')).toEqual({
      kind: 'link',
      target: { kind: 'object', name: 'default::User' },
      cardinality: 'one',
    });
    const post = type(schema, 'default::Post');
    expect(ptr(post, 'summary').target).toEqual({ kind: 'scalar', name: 'std::str' });
  });

  test('constraints, indexes, policies and annotations flow down', () => {
    const user = type(schema, 'default::User');
    expect(ptr(user, 'name').constraints.map((c) => [c.name, c.declaredIn])).toEqual([
      ['std::min_len_value', 'default::Named'],
    ]);
    expect(ptr(user, 'age').constraints[0]?.subjectExpr).not.toBeNull();
    expect(user.constraints.map((c) => c.name)).toEqual(['std::exclusive']);
    expect(user.indexes.map((i) => i.declaredIn)).toEqual(['default::Named']);
    expect(user.policies.map((p) => [p.name, p.action, p.kinds, p.declaredIn])).toEqual([
      ['readable', 'allow', ['select'], 'default::Named'],
      [
        'own',
        'allow',
        ['select', 'insert', 'update read', 'update write', 'delete'],
        'default::User',
      ],
      ['no_update', 'deny', ['update read', 'update write'], 'default::User'],
    ]);
    // inheritable annotations flow down; std::title does not
    expect(user.annotations).toEqual({ 'default::owner': 'core', 'rest::hidden': 'true' });
    expect(type(schema, 'default::Named').annotations).toEqual({
      'default::owner': 'core',
      'std::title': 'named',
    });
    expect(type(schema, 'default::Post').annotations).toEqual({ 'rest::expand': 'author' });
    expect(schema.annotations).toEqual([{ name: 'default::owner', inheritable: true }]);
  });

  test('scalars and enums', () => {
    expect(schema.scalarTypes.map((s) => [s.name, s.base, s.stdBase, s.enumValues])).toEqual([
      ['default::Color', 'std::anyenum', 'std::str', ['Red', 'Green', 'Blue']],
      ['default::Slug', 'std::str', 'std::str', null],
    ]);
    expect(schema.scalarTypes[1]?.constraints.map((c) => c.name)).toEqual([
      'std::regexp',
      'std::max_len_value',
    ]);
  });

  test('globals, functions, aliases', () => {
    expect(
      schema.globals.map((g) => [g.name, g.target, g.required, g.cardinality, g.computed !== null]),
    ).toEqual([
      ['default::current_tenant', { kind: 'scalar', name: 'std::str' }, false, 'one', false],
      ['default::me', { kind: 'object', name: 'default::User' }, false, 'one', true],
      ['default::mode', { kind: 'scalar', name: 'std::str' }, true, 'one', false],
    ]);
    expect(
      schema.functions.map((f) => [
        f.name,
        f.params.map((p) => [p.name, p.type]),
        f.returnType,
        f.volatility,
      ]),
    ).toEqual([
      [
        'default::full_name',
        [
          ['first', { kind: 'scalar', name: 'std::str' }],
          ['last', { kind: 'scalar', name: 'std::str' }],
        ],
        { kind: 'scalar', name: 'std::str' },
        'Immutable',
      ],
    ]);
    expect(schema.aliases.map((a) => a.name)).toEqual(['default::ActiveUsers']);
  });

  test('is JSON-safe', () => {
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe('buildSchema, arrow syntax and bare declarations', () => {
  test('arrow syntax with abstract links', () => {
    const schema = buildSchema(ARROW);
    const person = type(schema, 'default::Person');
    expect(person.pointers.map((p) => [p.name, p.kind, p.cardinality, p.required])).toEqual([
      ['id', 'property', 'one', true],
      ['name', 'property', 'one', true],
      ['nickname', 'property', 'one', false],
      ['friends', 'link', 'many', false],
      ['best_friend', 'link', 'one', false],
      ['name_upper', 'property', 'one', true],
      ['first_friend', 'link', 'one', false],
    ]);
    expect(ptr(person, 'friends').properties.map((p) => [p.name, p.declaredIn])).toEqual([
      ['since', 'default::Person'],
    ]);
    expect(schema.globals[0]).toMatchObject({ name: 'default::tenant', required: true });
  });

  test('without module default, names resolve in default then std', () => {
    const schema = buildSchema(
      'type A { b: B; n: int64; } type B extending A { overloaded b: B; }',
    );
    const b = type(schema, 'default::B');
    expect(b.ancestors).toEqual(['default::A']);
    expect(ptr(b, 'b')).toMatchObject({
      kind: 'link',
      target: { kind: 'object', name: 'default::B' },
      declaredIn: 'default::A',
    });
    expect(ptr(type(schema, 'default::A'), 'n').target).toEqual({
      kind: 'scalar',
      name: 'std::int64',
    });
  });

  test('a link property redeclared in an overloaded link keeps its type', () => {
    const schema = buildSchema(`
      type T { n: int64; }
      type S { l: T { x: int64 { default := -1; } } }
      type S2 extending S { overloaded l { overloaded x { default := -2; } } }
    `);
    const [x] = ptr(type(schema, 'default::S2'), 'l').properties;
    expect(x).toMatchObject({
      name: 'x',
      target: { kind: 'scalar', name: 'std::int64' },
      default: { kind: 'Constant', value: '-2' },
    });
  });

  test('diamond inheritance keeps one copy, in C3 order', () => {
    const schema = buildSchema(`
      abstract type R { r: str; }
      abstract type A extending R { a: str; }
      abstract type B extending R { b: str; }
      type C extending A, B { c: str; }
    `);
    const c = type(schema, 'default::C');
    expect(c.ancestors).toEqual(['default::A', 'default::B', 'default::R']);
    expect(c.pointers.map((p) => p.name)).toEqual(['id', 'r', 'a', 'b', 'c']);
  });

  test('an identical redeclaration needs no overloaded', () => {
    const schema = buildSchema('abstract type N { name: str; } type U extending N { name: str; }');
    expect(ptr(type(schema, 'default::U'), 'name').declaredIn).toBe('default::N');
  });

  test('built-in globals and has_role are available undeclared', () => {
    const schema = buildSchema(`
      type Doc {
        owner_id: uuid;
        access policy mine allow all using (.owner_id ?= global current_user_id or has_role('admin'));
        whose := global current_user_email;
      }
    `);
    expect(ptr(type(schema, 'default::Doc'), 'whose').target).toEqual({
      kind: 'scalar',
      name: 'std::str',
    });
  });

  test('other modules and qualified names', () => {
    const schema = buildSchema(
      'module app { type User; } module blog { type Post { author: app::User; } }',
    );
    expect(schema.modules).toEqual(['app', 'blog']);
    expect(ptr(type(schema, 'blog::Post'), 'author').target).toEqual({
      kind: 'object',
      name: 'app::User',
    });
  });

  test('a scalar constraint on a multi or array property is allowed (item 24)', () => {
    expect(() =>
      buildSchema(`
        scalar type Small extending int64 { constraint max_value(10); }
        type T { multi xs: Small; ys: array<Small>; z: str { constraint one_of('a', 'b'); } }
      `),
    ).not.toThrow();
  });
});

// Regression (found by bench/parse): enum values written `Status.Draft` are enum literals.
describe('enum members', () => {
  const sdl = (value: string) =>
    `scalar type Status extending enum<Draft, Active>;\ntype Post {\n  status: Status { default := ${value}; }\n}\n`;

  test('Status.Draft is a literal of the enum', () => {
    const schema = buildSchema(sdl('Status.Draft'));
    const post = schema.objectTypes.find((t) => t.name === 'default::Post');
    expect(post?.pointers.find((p) => p.name === 'status')?.default).toMatchObject({
      kind: 'Path',
    });
  });

  test('an unknown member is an InvalidReferenceError at the member', () => {
    expect(() => buildSchema(sdl('Status.Gone'))).toThrow(
      "'default::Status' enum has no member called 'Gone'",
    );
    try {
      buildSchema(sdl('Status.Gone'));
    } catch (err) {
      expect(err).toMatchObject({
        type: 'InvalidReferenceError',
        position: { line: 3, column: 37 },
      });
    }
  });
});

// Schemas Gel's tests use (tools/gel-schemas): each construct in SDL of our own.
describe("constructs of Gel's test schemas", () => {
  const type = (schema: Schema, name: string) =>
    schema.objectTypes.find((t) => t.name === `default::${name}`) as ObjectType;
  const pointer = (t: ObjectType, name: string) =>
    t.pointers.find((p) => p.name === name) as Pointer;

  test("quoted enum values: enum<'RED', 'GREEN'> is enum<RED, GREEN>", () => {
    const schema = buildSchema("scalar type Color extending enum<'RED', 'GREEN', 'two words'>;");
    expect(schema.scalarTypes[0]?.enumValues).toEqual(['RED', 'GREEN', 'two words']);
  });

  test('splat_strategy is kept in the model, inherited, and checked', () => {
    const schema = buildSchema(`
      type Base { tags: array<str> { splat_strategy := 'Explicit'; } }
      type Issue extending Base {
        owner: Base { splat_strategy := 'implicit'; }
        name: str;
      }`);
    const issue = type(schema, 'Issue');
    expect(pointer(issue, 'tags').splatStrategy).toBe('Explicit');
    expect(pointer(issue, 'owner').splatStrategy).toBe('Implicit');
    expect(pointer(issue, 'name').splatStrategy).toBe('Default');
    expect(() => buildSchema("type T { n: str { splat_strategy := 'Sometimes'; } }")).toThrow(
      "splat_strategy must be one of 'Default', 'Explicit', 'Implicit'",
    );
  });

  test('a link-property computed reads the target (@count * .cost)', () => {
    const schema = buildSchema(`
      type Card { cost: int64; }
      type User {
        multi deck: Card { count: int64; property total := @count * .cost; property src := @source.id; }
      }`);
    const props = pointer(type(schema, 'User'), 'deck').properties;
    expect(props.find((p) => p.name === 'total')?.target).toEqual({
      kind: 'scalar',
      name: 'std::int64',
    });
    expect(() =>
      buildSchema('type Card; type User { multi deck: Card { property bad := .nope; } }'),
    ).toThrow("object type 'default::Card' has no link or property 'nope'");
  });

  test('computeds are typed by the query binder, on demand, through the drafts', () => {
    const schema = buildSchema(`
      type Person {
        required first_name: str;
        last_name: str;
        full_name := __source__.first_name ++ ((' ' ++ .last_name) ?? '');
        initial := .full_name_len > 0;
        full_name_len := len(.full_name);
      }
      type Tree { parent: Tree; multi link children := .<parent[is Tree]; }
      type Eert { link parent := (select .<children[is Eert] limit 1); multi children: Eert; }`);
    const person = type(schema, 'Person');
    expect(pointer(person, 'full_name')).toMatchObject({
      kind: 'property',
      cardinality: 'one',
      target: { kind: 'scalar', name: 'std::str' },
    });
    expect(pointer(type(schema, 'Tree'), 'children')).toMatchObject({
      kind: 'link',
      cardinality: 'many',
      target: { kind: 'object', name: 'default::Tree' },
    });
    expect(pointer(type(schema, 'Eert'), 'parent')).toMatchObject({
      cardinality: 'one',
      target: { kind: 'object', name: 'default::Eert' },
    });
  });

  test('computeds reading each other are a cycle: InvalidDefinitionError', () => {
    expect(() => buildSchema('type T { a := .b ++ "x"; b := .a; }')).toThrow(
      "computed 'a' of 'default::T' is defined recursively",
    );
    expect(() => buildSchema('global g := (global h); global h := (global g);')).toThrow(
      'is defined recursively',
    );
  });

  test('@prop, @source and __subject__@prop in link constraints', () => {
    const schema = buildSchema(`
      abstract link labelled { lang: str; constraint exclusive on (@lang); }
      type Label;
      type Doc {
        multi label extending labelled -> Label {
          constraint exclusive on ((__subject__@source, __subject__@lang));
        }
      }`);
    const label = pointer(type(schema, 'Doc'), 'label');
    expect(label.constraints.map((c) => c.name)).toEqual(['std::exclusive', 'std::exclusive']);
  });

  test('abstract constraints extending another', () => {
    const schema = buildSchema(`
      abstract constraint short(max: int64) extending max_len_value;
      abstract constraint positive { using (__subject__ > 0); errmessage := 'must be positive'; }
      abstract constraint strictly_positive extending positive;
      type T { name: str { constraint short(3); } n: int64 { constraint strictly_positive; } }`);
    const strict = schema.constraints.find((c) => c.name === 'default::strictly_positive');
    expect(strict?.errmessage).toBe('must be positive');
    expect(schema.constraints.find((c) => c.name === 'default::short')?.params).toHaveLength(1);
  });

  test('diamond inheritance of a link merges to the narrower target', () => {
    const schema = buildSchema(`
      type Target0; type Target1 extending Target0;
      type A { link target -> Target0; }
      type B { link target -> Target1; }
      type AB extending A, B;`);
    expect(pointer(type(schema, 'AB'), 'target').target).toEqual({
      kind: 'object',
      name: 'default::Target1',
    });
    expect(() =>
      buildSchema('type X; type Y; type A { l: X; } type B { l: Y; } type AB extending A, B;'),
    ).toThrow('with incompatible definitions');
  });

  test('-> Object and std::BaseObject targets', () => {
    const schema = buildSchema(
      'type Note { subject: Object; any: std::BaseObject; id_of := .subject.id; }',
    );
    const note = type(schema, 'Note');
    expect(pointer(note, 'subject').target).toEqual({ kind: 'object', name: 'std::Object' });
    expect(pointer(note, 'any').target).toEqual({ kind: 'object', name: 'std::BaseObject' });
    expect(pointer(note, 'id_of').target).toEqual({ kind: 'scalar', name: 'std::uuid' });
  });

  test('a union target with no common base is a union type', () => {
    const schema = buildSchema(`
      type File { name: str; } type URL { name: str; address: str; } type Sub extending File;
      type Issue {
        multi references: File | URL | Sub;
        names := .references.name;
      }`);
    const issue = type(schema, 'Issue');
    expect(pointer(issue, 'references').target).toEqual({
      kind: 'union',
      members: ['default::File', 'default::URL'],
    });
    expect(pointer(issue, 'names').target).toEqual({ kind: 'scalar', name: 'std::str' });
    expect(() => buildSchema('type A; type B { x: str; } type C { l: A | B; y := .l.x; }')).toThrow(
      "object type 'default::A | default::B' has no link or property 'x'",
    );
  });

  test('a default may be a pure query', () => {
    const schema = buildSchema(
      'type T { started: datetime { default := (select datetime_current()); } }',
    );
    expect(pointer(type(schema, 'T'), 'started').default).toMatchObject({ kind: 'SelectQuery' });
  });

  test('a computed global may hold arrays of arrays (item 9 is about stored types)', () => {
    const schema = buildSchema('global grid := [[1, 2], [3, 4]];');
    expect(schema.globals[0]?.target).toEqual({
      kind: 'array',
      element: { kind: 'array', element: { kind: 'scalar', name: 'std::int64' } },
    });
  });
});

describe('index kinds', () => {
  test('fts::index and pg:: methods are kept; an unknown kind is refused', () => {
    const schema = buildSchema(
      'type T { a: str; b: array<str>; index fts::index on (fts::with_options(.a, language := fts::Language.eng)); index pg::gin on (.b); }',
    );
    expect(schema.objectTypes[0]?.indexes.map((i) => i.kind)).toEqual(['fts::index', 'pg::gin']);
    expect(() => buildSchema('type T { a: str; index pg::nope on (.a); }')).toThrow(
      "index 'pg::nope' does not exist",
    );
    expect(() =>
      buildSchema(
        'type T { a: str; index fts::index on (fts::with_options(.a, language := fts::Language.xx)); }',
      ),
    ).toThrow("'fts::Language' enum has no member called 'xx'");
  });
});
