import { buildSchema } from '@svc/core';
import { filterOperators, linkedShape, orderable, restModel, type Shape } from '.';

const schema = buildSchema(`
module default {
  abstract type Named { required name: str; }
  type User extending Named {
    email: str { annotation rest::hidden := 'true'; }
    multi link friends -> User;
    link best -> User { annotation rest::expand := 'true'; }
    multi posts := .<author[is Post];
    created: datetime { readonly := true; default := datetime_current(); }
  }
  type Post {
    required title: str;
    link author -> User { annotation rest::expand := 'true'; }
  }
}
module blog { type Note { body: str; } }
`);
const model = restModel(schema);

/** A shape as `name` / `name{...}` text, for compact expectations. */
const print = (shape: Shape): string =>
  shape.fields.map((f) => (f.expanded ? `${f.name}{${print(f.expanded)}}` : f.name)).join(' ');

test('non-abstract types only, routed by short name in default and qualified elsewhere', () => {
  expect(model.types.map((t) => [t.route, t.name])).toEqual([
    ['Post', 'default::Post'],
    ['User', 'default::User'],
    ['blog::Note', 'blog::Note'],
  ]);
  expect(model.byRoute.get('Named')).toBeUndefined();
});

test('hidden fields are absent everywhere; computeds are read, not written; id is read only', () => {
  const user = model.byRoute.get('User');
  expect([...(user?.fields.keys() ?? [])]).toEqual([
    'id',
    'name',
    'friends',
    'best',
    'posts',
    'created',
  ]);
  expect(user?.writable.map((f) => f.name)).toEqual(['name', 'friends', 'best', 'created']);
  expect(user?.fields.get('created')).toMatchObject({ readonly: true, hasDefault: true });
});

test('rest::expand inlines the target recursively, and a cycle reads as ids', () => {
  // User.best expands to User: already on the path, so ids.
  expect(print((model.byRoute.get('User') as { shape: Shape }).shape)).toBe(
    'id name friends best posts created',
  );
  // Post.author expands to User, whose `best` would expand to User again: the guard stops it.
  expect(print((model.byRoute.get('Post') as { shape: Shape }).shape)).toBe(
    'id title author{id name friends best posts created}',
  );
});

test('an annotation value of false turns it off', () => {
  const s = buildSchema(`module default {
    type A { x: str { annotation rest::hidden := 'false'; } link b -> B { annotation rest::expand := 'false'; } }
    type B { y: str; }
  }`);
  const a = restModel(s).byRoute.get('A') as { shape: Shape };
  expect(print(a.shape)).toBe('id x b');
});

describe('what a list route filters and orders by, what a linked collection reads', () => {
  const s = buildSchema(`module default {
    scalar type Mood extending enum<a, b>;
    scalar type Slug extending str;
    type T {
      s: str; slug: Slug; mood: Mood; n: int32; j: json; arr: array<str>; multi many: str;
      one: U; multi several: U; either: U | V; c := str_upper(.s);
    }
    type U { x: str; }
    type V { y: str; }
  }`);
  const m = restModel(s);
  const t = m.byRoute.get('T') as NonNullable<ReturnType<typeof m.byRoute.get>>;
  const field = (name: string) =>
    t.fields.get(name) as NonNullable<ReturnType<typeof t.fields.get>>;

  test('filterOperators: text takes __contains, other scalars and single links = and __in', () => {
    const ops = Object.fromEntries(
      [...t.fields.keys()].map((n) => [n, filterOperators(field(n), s)]),
    );
    expect(ops).toEqual({
      id: ['eq', 'in'],
      s: ['eq', 'in', 'contains'],
      slug: ['eq', 'in', 'contains'],
      mood: ['eq', 'in', 'contains'],
      n: ['eq', 'in'],
      j: [],
      arr: [],
      many: [],
      one: ['eq', 'in'],
      several: [],
      either: ['eq', 'in'],
      c: ['eq', 'in', 'contains'],
    });
  });

  test('orderable: single scalar properties, computeds included', () => {
    expect([...t.fields.keys()].filter((n) => orderable(field(n)))).toEqual([
      'id',
      's',
      'slug',
      'mood',
      'n',
      'j',
      'c',
    ]);
  });

  test('a link to a union is read (as ids) and written; its linked collection reads { id }', () => {
    expect(t.writable.map((f) => f.name)).toContain('either');
    expect(field('either')).toMatchObject({ kind: 'link', target: null });
    expect(linkedShape(m, field('either'))).toMatchObject({
      type: 'default::U | default::V',
      fields: [{ name: 'id' }],
    });
    expect(linkedShape(m, field('one'))).toBe(m.byRoute.get('U')?.shape);
  });
});
