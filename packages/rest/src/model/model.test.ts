import { buildSchema } from '@svc/core';
import { restModel, type Shape } from '.';

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
