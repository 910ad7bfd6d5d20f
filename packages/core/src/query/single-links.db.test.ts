/**
 * CompileOptions.singleLinks: a single link shown with a sub-shape answers as an array of one
 * object (null when unset) by default, as `POST /query` does, and as the object or null with
 * `object` (the REST routes' form), at every depth; multi links and links without a shape are
 * the same either way.
 */
import { openIssuesDb, type IssuesDb } from './__tests__/issues-db';

let db: IssuesDb;
beforeAll(async () => {
  db = await openIssuesDb();
}, 120_000);
afterAll(() => db?.tdb.dispose());

const OBJECT = { singleLinks: 'object' } as const;

test('by default a single shaped link is an array of one object, null when unset', async () => {
  expect(await db.run('select Comment { body, parent: { body } } order by .body')).toEqual([
    { body: 'Nice', parent: null },
    { body: 'Thanks', parent: [{ body: 'Nice' }] },
  ]);
});

test('with object, the object or null, link properties and nested links included', async () => {
  expect(
    await db.run('select Comment { body, parent: { body } } order by .body', {}, OBJECT),
  ).toEqual([
    { body: 'Nice', parent: null },
    { body: 'Thanks', parent: { body: 'Nice' } },
  ]);
  expect(
    await db.run(
      'select Issue { name, owner: { name, @note } } order by .number limit 2',
      {},
      OBJECT,
    ),
  ).toEqual([
    { name: 'Release', owner: { name: 'Elvis', '@note': 'lead' } },
    { name: 'Bug', owner: { name: 'Yury', '@note': null } },
  ]);
  expect(
    await db.run(
      "select Comment { issue: { name, owner: { name }, watchers: { name } } } filter .body = 'Nice'",
      {},
      OBJECT,
    ),
  ).toEqual([
    { issue: { name: 'Release', owner: { name: 'Elvis' }, watchers: [{ name: 'Yury' }] } },
  ]);
});

test('multi links and links without a shape do not change', async () => {
  const query = "select Issue { owner, watchers: { name } } filter .number = '2'";
  expect(await db.run(query, {}, OBJECT)).toEqual(await db.run(query));
});
