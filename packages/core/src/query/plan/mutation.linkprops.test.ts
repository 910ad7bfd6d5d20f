import { QueryCardinalityError, QueryError } from '../../errors';
import { compileQuery } from '../compile';
import { rolledBack } from '../../testing';
import { ANN, BUG, ELVIS, YURY, openIssuesDb, type IssuesDb } from '../__tests__/issues-db';

/**
 * Result tests of link properties written on the elements of a link's value (Gel's rule: each
 * element of a set literal, a union or an if/else branch carries its own `@p := x`), on the engine
 * under test (PGlite, or PostgreSQL with SVC_TEST_DB=postgres): multi links (junction rows) and
 * single links (link-property columns), read back. Each test's queries run in one transaction
 * that is rolled back.
 */

let db: IssuesDb;
beforeAll(async () => {
  db = await openIssuesDb();
}, 60_000);
afterAll(async () => {
  await db.tdb.dispose();
});

function run(queries: readonly string[]): Promise<unknown[]> {
  return rolledBack(db.tdb.db, async (tx) => {
    const results: unknown[] = [];
    for (const query of queries) {
      const compiled = compileQuery(db.schema, query);
      const { rows } = await tx.query<{ result: string }>(compiled.sql, []);
      results.push(JSON.parse((rows[0] as { result: string }).result));
    }
    return results;
  });
}

const friendsOfZed =
  "select User { friends: { name, since := @since } order by .name } filter .name = 'Zed'";

describe('multi links: each element of the value writes its own link properties', () => {
  test('a set literal of selects', async () => {
    const [, read] = await run([
      `insert User { name := 'Zed', friends := {
         (select detached User { @since := 1 } filter .name = 'Ann'),
         (select detached User { @since := 2 } filter .name = 'Yury') } }`,
      friendsOfZed,
    ]);
    expect(read).toEqual([
      {
        friends: [
          { name: 'Ann', since: 1 },
          { name: 'Yury', since: 2 },
        ],
      },
    ]);
  });

  test("the value's own type name inside @p is the element itself (Gel's cards setup: @count := len(Card.element))", async () => {
    const [, read] = await run([
      `insert User { name := 'Zed', friends := (
         select detached User { @since := len(User.name) } filter .name in {'Ann', 'Yury'}) }`,
      friendsOfZed,
    ]);
    expect(read).toEqual([
      {
        friends: [
          { name: 'Ann', since: 3 },
          { name: 'Yury', since: 4 },
        ],
      },
    ]);
  });

  test('a union; an element without the property writes none', async () => {
    const [, read] = await run([
      `insert User { name := 'Zed', friends :=
         (select detached User { @since := 1 } filter .name = 'Ann')
         union (select detached User filter .name = 'Elvis')
         union (select detached User { @since := .age } filter .name = 'Yury') }`,
      "select User { friends: { name, since := @since, age } order by .name } filter .name = 'Zed'",
    ]);
    const [zed] = read as {
      friends: { name: string; since: number | null; age: number | null }[];
    }[];
    expect(zed?.friends.map((f) => [f.name, f.since])).toEqual([
      ['Ann', 1],
      ['Elvis', null],
      ['Yury', zed?.friends.find((f) => f.name === 'Yury')?.age ?? null],
    ]);
  });

  test("a target given by two elements is one link, with the later element's properties", async () => {
    const [, read] = await run([
      `insert User { name := 'Zed', friends := {
         (select detached User { @since := 1 } filter .name = 'Ann'),
         (select detached User { @since := 2 } filter .name = 'Ann') } }`,
      friendsOfZed,
    ]);
    expect(read).toEqual([{ friends: [{ name: 'Ann', since: 2 }] }]);
  });

  test('a new object as an element, with its link properties', async () => {
    const [, read] = await run([
      `insert User { name := 'Zed', friends := {
         (insert User { name := 'Newcomer' }) { @since := 7 },
         (select detached User { @since := 8 } filter .name = 'Ann') } }`,
      friendsOfZed,
    ]);
    expect(read).toEqual([
      {
        friends: [
          { name: 'Ann', since: 8 },
          { name: 'Newcomer', since: 7 },
        ],
      },
    ]);
  });

  test('update with := and += of a set literal', async () => {
    const [, , read] = await run([
      `update User filter .id = <uuid>'${YURY}' set { friends := {
         (select detached User { @since := 10 } filter .name = 'Ann'),
         (select detached User { @since := 20 } filter .name = 'Elvis') } }`,
      `update User filter .id = <uuid>'${ELVIS}' set { friends += {
         (select detached User { @since := 30 } filter .id = <uuid>'${YURY}'),
         (select detached User { @since := 40 } filter .name = 'Ann') } }`,
      `select User { name, friends: { name, since := @since } order by .name }
       filter .id in {<uuid>'${YURY}', <uuid>'${ELVIS}'} order by .name`,
    ]);
    const byName = Object.fromEntries(
      (read as { name: string; friends: unknown }[]).map((u) => [u.name, u.friends]),
    );
    expect(byName.Yury).toEqual([
      { name: 'Ann', since: 10 },
      { name: 'Elvis', since: 20 },
    ]);
    expect(byName.Elvis).toEqual(
      expect.arrayContaining([
        { name: 'Ann', since: 40 },
        { name: 'Yury', since: 30 },
      ]),
    );
  });

  test('if/else branches, each with its own link properties', async () => {
    const [, read] = await run([
      `for flag in {true, false} union (insert User { name := 'Zed' ++ <str>flag, friends :=
         (select detached User { @since := 1 } filter .name = 'Ann') if flag
         else (select detached User { @since := 2 } filter .name = 'Yury') })`,
      "select User { name, friends: { name, since := @since } } filter .name like 'Zed%' order by .name",
    ]);
    expect(read).toEqual([
      { name: 'Zedfalse', friends: [{ name: 'Yury', since: 2 }] },
      { name: 'Zedtrue', friends: [{ name: 'Ann', since: 1 }] },
    ]);
  });

  test('inside a for body, the link properties read the iteration variable', async () => {
    const [, read] = await run([
      `for n in {1, 2} union (insert User { name := 'Zed' ++ <str>n, friends := {
         (select detached User { @since := n } filter .name = 'Ann'),
         (select detached User { @since := n * 100 } filter .name = 'Elvis') } })`,
      "select User { name, friends: { name, since := @since } order by .name } filter .name like 'Zed%' order by .name",
    ]);
    expect(read).toEqual([
      {
        name: 'Zed1',
        friends: [
          { name: 'Ann', since: 1 },
          { name: 'Elvis', since: 100 },
        ],
      },
      {
        name: 'Zed2',
        friends: [
          { name: 'Ann', since: 2 },
          { name: 'Elvis', since: 200 },
        ],
      },
    ]);
  });
});

describe('single links: the element given writes its link properties', () => {
  test('if/else and a set literal with an empty element', async () => {
    const [, , read] = await run([
      `update Issue filter .id = <uuid>'${BUG}' set { owner :=
         (select detached User { @note := 'ann' } filter .id = <uuid>'${ANN}') if .number = 'nope'
         else (select detached User { @note := 'elvis' } filter .id = <uuid>'${ELVIS}') }`,
      `update Issue filter .number = '1' set { owner := {
         <User>{}, (select detached User { @note := 'yury' } filter .id = <uuid>'${YURY}') } }`,
      `select Issue { number, owner: { name, note := @note } } filter .id = <uuid>'${BUG}' or .number = '1' order by .number`,
    ]);
    const rows = read as { number: string; owner: { name: string; note: string }[] }[];
    expect(rows.find((r) => r.number === '1')?.owner).toEqual([{ name: 'Yury', note: 'yury' }]);
    expect(rows.find((r) => r.number !== '1')?.owner).toEqual([{ name: 'Elvis', note: 'elvis' }]);
  });
});

test('an insert: a single link from an if/else, and a multi link with one link property left out', async () => {
  const [, read] = await run([
    `insert Issue { name := 'x', body := 'b', number := '99', status := (select Status limit 1),
       owner := (select User { @note := 'yes' } filter .id = <uuid>'${ANN}') if 1 > 2
         else (select User { @note := 'no' } filter .id = <uuid>'${YURY}'),
       watchers := {(select User filter .id = <uuid>'${ANN}')} }`,
    "select Issue { owner: { name, note := @note }, watchers: { name } } filter .number = '99'",
  ]);
  expect(read).toEqual([{ owner: [{ name: 'Yury', note: 'no' }], watchers: [{ name: 'Ann' }] }]);
});

test('link properties written inside a for body and a function argument go with each element', async () => {
  const [, , read] = await run([
    `insert User { name := 'Zed', friends := (for x in {('Ann', 1), ('Yury', 2)}
       union (select detached User { @since := x.1 } filter .name = x.0)) }`,
    `update User filter .name = 'Zed' set { friends += assert_distinct(
       (select detached User { @since := 3 } filter .name = 'Elvis')) }`,
    "select User { friends: { name, since := @since } order by .name } filter .name = 'Zed'",
  ]);
  expect(read).toEqual([
    {
      friends: [
        { name: 'Ann', since: 1 },
        { name: 'Elvis', since: 3 },
        { name: 'Yury', since: 2 },
      ],
    },
  ]);
});

describe('forms that cannot carry link properties are refused, naming them', () => {
  const compile = (q: string) => () => compileQuery(db.schema, q);

  test('a single link given possibly many elements is still refused', () => {
    expect(
      compile(
        `update Issue filter .id = <uuid>'${BUG}' set { owner := {(select detached User { @note := 'a' } filter .id = <uuid>'${ANN}'), (select detached User { @note := 'b' } filter .id = <uuid>'${YURY}')} }`,
      ),
    ).toThrow(QueryCardinalityError);
  });

  test('an unknown link property inside a for value', () => {
    expect(
      compile(
        `insert User { name := 'Zed', friends := (for n in {1} union (select detached User { @nope := n } filter .name = 'Ann')) }`,
      ),
    ).toThrow(/link 'friends' of object type 'default::User' has no property 'nope'/);
  });

  test('an if/else over a set of conditions', () => {
    expect(
      compile(
        `insert User { name := 'Zed', friends := (select detached User { @since := 1 } filter .name = 'Ann') if {true, false} else (select detached User filter .name = 'Yury') }`,
      ),
    ).toThrow(QueryCardinalityError);
  });

  test('an unknown link property on one element', () => {
    expect(
      compile(
        `insert User { name := 'Zed', friends := {(select detached User { @since := 1 } filter .name = 'Ann'), (select detached User { @nope := 1 } filter .name = 'Yury')} }`,
      ),
    ).toThrow(QueryError);
  });
});
