import {
  InvalidTypeError,
  MissingRequiredError,
  QueryCardinalityError,
  QueryError,
} from '../../errors';
import type { CompileOptions } from '../api';
import { compileQuery } from '../compile';
import { rolledBack } from '../../testing';
import {
  ANN,
  BUG,
  ELVIS,
  RELEASE,
  YURY,
  openIssuesDb,
  type IssuesDb,
} from '../__tests__/issues-db';

/**
 * Result tests of insert, update and delete on the issues fixture, on the engine under test
 * (PGlite, or PostgreSQL with SVC_TEST_DB=postgres). Each test runs its queries in one
 * transaction that is rolled back, so every test starts from the fixture's rows.
 */

let db: IssuesDb;
beforeAll(async () => {
  db = await openIssuesDb();
}, 60_000);
afterAll(async () => {
  await db.tdb.dispose();
});

/** Runs the queries in order in one transaction, rolled back; their results. */
function run(queries: readonly string[], options: CompileOptions = {}): Promise<unknown[]> {
  return rolledBack(db.tdb.db, async (tx) => {
    const results: unknown[] = [];
    for (const query of queries) {
      const compiled = compileQuery(db.schema, query, options);
      const { rows } = await tx.query<{ result: string }>(compiled.sql, []);
      results.push(JSON.parse((rows[0] as { result: string }).result));
    }
    return results;
  });
}

const compile = (query: string, options: CompileOptions = {}) =>
  compileQuery(db.schema, query, options);
const UUID = expect.stringMatching(
  /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
);

describe('insert', () => {
  test('a bare insert answers the whole stored row (item 16) and the row is stored', async () => {
    const [inserted, selected] = await run([
      "insert User { name := 'Zed', age := 5, nicknames := {'z', 'zz'} }",
      "select User { name, age, nicknames } filter .name = 'Zed'",
    ]);
    expect(inserted).toEqual([
      {
        id: UUID,
        name: 'Zed',
        age: 5,
        best_friend: null,
        friends: [],
        todo: [],
        nicknames: ['z', 'zz'],
      },
    ]);
    expect(selected).toEqual([{ name: 'Zed', age: 5, nicknames: ['z', 'zz'] }]);
  });

  test('links from subqueries, multi links with link properties', async () => {
    const [, selected] = await run([
      `insert User {
         name := 'Zed',
         best_friend := (select detached User filter .name = 'Elvis' limit 1),
         friends := (select detached User { @since := 2001 } filter .name in {'Yury', 'Ann'})
       }`,
      "select User { best_friend: { name }, friends: { name, since := @since } order by .name } filter .name = 'Zed'",
    ]);
    const [projected] = await run([
      `select (insert User { name := 'Zed', friends := (select detached User { @since := 2001 } filter .name = 'Ann') })
       { friends: { name, since := @since } }`,
    ]);
    expect(projected).toEqual([{ friends: [{ name: 'Ann', since: 2001 }] }]);
    expect(selected).toEqual([
      {
        best_friend: [{ name: 'Elvis' }],
        friends: [
          { name: 'Ann', since: 2001 },
          { name: 'Yury', since: 2001 },
        ],
      },
    ]);
  });

  test('nested inserts and `select (insert ...) { shape }` (item 33)', async () => {
    const [result, status] = await run([
      `select (insert Issue {
         name := 'New', body := 'b', number := '99',
         owner := (select User filter .id = <uuid>'${YURY}'),
         status := (insert Status { name := 'Triage' })
       }) { name, owner: { name }, status: { name } }`,
      "select Issue { status: { name } } filter .number = '99'",
    ]);
    expect(result).toEqual([
      { name: 'New', owner: [{ name: 'Yury' }], status: [{ name: 'Triage' }] },
    ]);
    expect(status).toEqual([{ status: [{ name: 'Triage' }] }]);
  });

  test('`with u := (insert ...) select u { ... }` (item 33)', async () => {
    const [result, count] = await run([
      "with u := (insert Status { name := 'Later' }) select u { name }",
      "with u := (insert Status { name := 'Again' }) select (u.name, count(Status))",
    ]);
    expect(result).toEqual([{ name: 'Later' }]);
    // A type's own rows are the snapshot before the statement (Gel's rule).
    expect(count).toEqual([['Again', 3]]); // Open, Closed, Later: not Again
  });

  test('a for inside a link value: one linked object per iteration', async () => {
    const [result] = await run([
      `select (insert User { name := 'x', todo := (for n in {'51', '52'} union (insert Issue {
         name := n, body := 'b', number := n, owner := (select detached User filter .name = 'Elvis' limit 1),
         status := (select Status filter .name = 'Open' limit 1) })) }) { todo: { number } order by .number }`,
    ]);
    expect(result).toEqual([{ todo: [{ number: '51' }, { number: '52' }] }]);
  });

  test('for ... union (insert ...) writes one object per iteration', async () => {
    const [written, names] = await run([
      "for n in {'One', 'Two'} union (insert Status { name := n })",
      "select Status.name filter Status.name in {'One', 'Two'} order by Status.name",
    ]);
    expect((written as { name: string }[]).map((r) => r.name).sort()).toEqual(['One', 'Two']);
    expect(names).toEqual(['One', 'Two']);
  });

  test('defaults: a pointer left out takes no value; a required one without default is refused', async () => {
    expect(() => compile('insert User { age := 1 }')).toThrow(MissingRequiredError);
    expect(() => compile('insert User { age := 1 }')).toThrow(
      /required property 'default::User.name'/,
    );
  });

  test('refusals: abstract types, computed pointers, id, +=, wrong types', () => {
    expect(() => compile("insert Named { name := 'x' }")).toThrow(
      /abstract object type 'default::Named'/,
    );
    expect(() => compile('insert Issue { num_watchers := 1 }')).toThrow(/computed property/);
    expect(() => compile(`insert Status { id := <uuid>'${ELVIS}', name := 'x' }`)).toThrow(
      QueryError,
    );
    expect(() => compile("insert User { name := 'x', nicknames += 'y' }")).toThrow(
      /only allowed in an update/,
    );
    expect(() => compile('insert User { name := 1 }')).toThrow(InvalidTypeError);
    expect(() =>
      compile("insert User { name := 'x', best_friend := (select Status limit 1) }"),
    ).toThrow(InvalidTypeError);
  });

  test('item 20: a single pointer takes a provably single value, also from a `with` binding', async () => {
    expect(() =>
      compile("with u := (select User) insert User { name := 'x', best_friend := u }"),
    ).toThrow(QueryCardinalityError);
    expect(() => compile("insert User { name := {'a', 'b'} }")).toThrow(QueryCardinalityError);
    const [result] = await run([
      "with u := (select detached User filter .name = 'Elvis' limit 1) select (insert User { name := 'x', best_friend := u }) { best_friend: { name } }",
    ]);
    expect(result).toEqual([{ best_friend: [{ name: 'Elvis' }] }]);
  });

  test('unless conflict: nothing written answers [] (item 26); a new value inserts', async () => {
    const [conflicting, fresh, count] = await run([
      `insert Issue { name := 'Dup', body := 'b', number := '1', owner := (select User filter .id = <uuid>'${ELVIS}'), status := (select Status filter .name = 'Open' limit 1) } unless conflict on .number`,
      `insert Issue { name := 'Fresh', body := 'b', number := '77', owner := (select User filter .id = <uuid>'${ELVIS}'), status := (select Status filter .name = 'Open' limit 1) } unless conflict`,
      'select count(Issue)',
    ]);
    expect(conflicting).toEqual([]);
    expect((fresh as { name: string }[]).map((r) => r.name)).toEqual(['Fresh']);
    expect(count).toEqual([4]);
  });

  test('unless conflict on ... else (select ...) answers the conflicting object', async () => {
    const [result] = await run([
      `select (insert Issue { name := 'Dup', body := 'b', number := '1', owner := (select User filter .id = <uuid>'${ELVIS}'), status := (select Status filter .name = 'Open' limit 1) }
       unless conflict on .number else (select Issue)) { name }`,
    ]);
    expect(result).toEqual([{ name: 'Release' }]);
  });

  test('unless conflict on ... else (update ...) updates only the conflicting object', async () => {
    const [result, bodies] = await run([
      `select (insert Issue { name := 'Dup', body := 'b', number := '2', owner := (select User filter .id = <uuid>'${ELVIS}'), status := (select Status filter .name = 'Open' limit 1) }
       unless conflict on .number else (update Issue set { body := 'reopened' })) { name, body }`,
      'select Issue { name, body } order by .name',
    ]);
    expect(result).toEqual([{ name: 'Bug', body: 'reopened' }]);
    expect(bodies).toEqual([
      { name: 'Bug', body: 'reopened' },
      { name: 'Docs', body: 'Write them' },
      { name: 'Release', body: 'Ship it' },
    ]);
  });

  test('`unless conflict on` needs an exclusive pointer; `else` needs `on`', () => {
    expect(() => compile("insert Status { name := 'x' } unless conflict on .name")).toThrow(
      /exclusive/,
    );
    expect(() =>
      compile("insert Status { name := 'x' } unless conflict else (select Status)"),
    ).toThrow(QueryError);
  });
});

describe('mutations in enclosing queries', () => {
  test('a mutation in a shape element is refused (as in Gel: it would run once per element)', () => {
    expect(() => compile('select User { copy := (insert Status { name := User.name }) }')).toThrow(
      /mutations are invalid in a shape's computed expression/,
    );
    expect(() => compile("select { a := 1 } { copy := (insert Status { name := 'x' }) }")).toThrow(
      /mutations are invalid in a shape's computed expression/,
    );
  });

  test('a mutation in a conditional branch writes only when its branch is taken (Gel 4+)', async () => {
    const [chosen, coalesced, again, names] = await run([
      "select ((insert Status { name := 'a' }) if false else (insert Status { name := 'b' })) { name }",
      "select ((select Status filter .name = 'c') ?? (insert Status { name := 'c' })) { name }",
      "select ((select Status filter .name = 'c') ?? (insert Status { name := 'c' })) { name }",
      "select Status.name filter Status.name in {'a', 'b', 'c'} order by Status.name",
    ]);
    expect(chosen).toEqual([{ name: 'b' }]);
    expect(coalesced).toEqual([{ name: 'c' }]);
    expect(again).toEqual([{ name: 'c' }]);
    expect(names).toEqual(['b', 'c']);
  });

  test('a `with` binding that writes runs even when nothing reads it (as in Gel)', async () => {
    const [one, count] = await run([
      "with _ := (insert Status { name := 'Unused' }), d := (delete LogEntry) select 1",
      "select (count(Status filter .name = 'Unused'), count(LogEntry))",
    ]);
    expect(one).toEqual([1]);
    expect(count).toEqual([[1, 0]]);
    // What read-only mode refuses (the engine, engine.test.ts): a write however nested.
    expect(compile("with _ := (insert Status { name := 'x' }) select 1").writes).toBe(true);
  });

  test('the same mutation read twice is written once', async () => {
    const [result, count] = await run([
      "with s := (insert Status { name := 'Once' }) select { a := s.name, b := s.name }",
      "select count(Status filter .name = 'Once')",
    ]);
    expect(result).toEqual([{ a: 'Once', b: 'Once' }]);
    expect(count).toEqual([1]);
  });
});

describe('update', () => {
  test(':= on properties, reading the old values; the answer is the updated rows', async () => {
    const [updated, ages] = await run([
      "update User filter .name = 'Elvis' set { age := .age + 1, name := 'The King' }",
      'select User { name, age } order by .name',
    ]);
    expect(updated).toEqual([
      expect.objectContaining({ id: ELVIS, name: 'The King', age: 31, nicknames: ['King', 'E'] }),
    ]);
    expect(ages).toEqual([
      { name: 'Ann', age: null },
      { name: 'The King', age: 31 },
      { name: 'Yury', age: 25 },
    ]);
  });

  test('+=, -= and := on multi links and multi properties', async () => {
    const [, afterAdd, , afterRemove, , afterSet] = await run([
      `update User filter .id = <uuid>'${YURY}' set { friends += (select detached User filter .name = 'Ann'), nicknames += 'Y' }`,
      `select User { friends: { name } order by .name, nicknames } filter .id = <uuid>'${YURY}'`,
      `update User filter .id = <uuid>'${YURY}' set { friends -= (select detached User filter .name = 'Elvis') }`,
      `select User { friends: { name } } filter .id = <uuid>'${YURY}'`,
      `update User filter .id = <uuid>'${YURY}' set { friends := (select detached User { @since := 1999 } filter .name = 'Elvis'), nicknames := {} }`,
      `select User { friends: { name, since := @since }, nicknames } filter .id = <uuid>'${YURY}'`,
    ]);
    expect(afterAdd).toEqual([{ friends: [{ name: 'Ann' }, { name: 'Elvis' }], nicknames: ['Y'] }]);
    expect(afterRemove).toEqual([{ friends: [{ name: 'Ann' }] }]);
    expect(afterSet).toEqual([{ friends: [{ name: 'Elvis', since: 1999 }], nicknames: [] }]);
  });

  test('a single link with link properties; set anew, it loses the ones not written', async () => {
    const [, withNote, , withoutNote] = await run([
      `update Issue filter .id = <uuid>'${BUG}' set { owner := (select detached User { @note := 'fixer' } filter .id = <uuid>'${ANN}') }`,
      `select Issue { owner: { name, note := @note } } filter .id = <uuid>'${BUG}'`,
      `update Issue filter .id = <uuid>'${RELEASE}' set { owner := (select detached User filter .id = <uuid>'${YURY}') }`,
      `select Issue { owner: { name, note := @note } } filter .id = <uuid>'${RELEASE}'`,
    ]);
    expect(withNote).toEqual([{ owner: [{ name: 'Ann', note: 'fixer' }] }]);
    expect(withoutNote).toEqual([{ owner: [{ name: 'Yury', note: null }] }]);
  });

  test('the answer of a multi-link update shows the links after it', async () => {
    const [updated] = await run([
      `update Issue filter .id = <uuid>'${BUG}' set { watchers -= (select User filter .id = <uuid>'${ANN}') }`,
    ]);
    expect((updated as { watchers: string[] }[])[0]?.watchers).toEqual([ELVIS]);
  });

  test('a shape over an update reads the multi pointers as written', async () => {
    const [added, replaced] = await run([
      "select (update User filter .name = 'Elvis' set { nicknames += {'a', 'b'} }) { name, nicknames }",
      `select (update User filter .name = 'Elvis' set { friends := (select detached User { @since := 1 } filter .name = 'Ann') }) { friends: { name, since := @since } }`,
    ]);
    expect((added as { nicknames: string[] }[])[0]?.nicknames.sort()).toEqual([
      'E',
      'King',
      'a',
      'b',
    ]);
    expect(replaced).toEqual([{ friends: [{ name: 'Ann', since: 1 }] }]);
  });

  test(':= on a multi link links anew (link properties not written are reset); for over update', async () => {
    const [, friends, , ages] = await run([
      `update User filter .id = <uuid>'${ELVIS}' set { friends := (select detached User filter .id = <uuid>'${YURY}') }`,
      `select User { friends: { name, since := @since } } filter .id = <uuid>'${ELVIS}'`,
      'for u in (select User filter .age > 20) union (update u set { age := u.age * 2 })',
      'select User { name, age } order by .name',
    ]);
    expect(friends).toEqual([{ friends: [{ name: 'Yury', since: null }] }]);
    expect(ages).toEqual([
      { name: 'Ann', age: null },
      { name: 'Elvis', age: 60 },
      { name: 'Yury', age: 50 },
    ]);
  });

  test('a single link set from the old one with new link properties', async () => {
    const [, owner] = await run([
      `update Issue filter .number = '1' set { owner := .owner { @note := 'changed' } }`,
      `select Issue { owner: { name, note := @note } } filter .number = '1'`,
    ]);
    expect(owner).toEqual([{ owner: [{ name: 'Elvis', note: 'changed' }] }]);
  });

  test('nothing matched answers []; with u := (update ...) select u { ... } (item 33)', async () => {
    const [none, projected] = await run([
      "update User filter .name = 'Nobody' set { age := 1 }",
      `with u := (update Issue filter .id = <uuid>'${RELEASE}' set { time_estimate := 10 }) select u { name, time_estimate }`,
    ]);
    expect(none).toEqual([]);
    expect(projected).toEqual([{ name: 'Release', time_estimate: 10 }]);
  });

  test('an abstract subject updates every concrete table', async () => {
    const [, names] = await run([
      "update Named filter .name in {'Ann', 'Open'} set { name := .name ++ '!' }",
      "select Named.name filter Named.name like '%!' order by Named.name",
    ]);
    expect(names).toEqual(['Ann!', 'Open!']);
  });

  test('refusals: += on a single pointer, unknown pointers', () => {
    expect(() => compile('update User set { age += 1 }')).toThrow(/single/);
    expect(() => compile('update User set { nope := 1 }')).toThrow(/nope/);
    expect(compile('update User set { age := 1 }').writes).toBe(true);
  });
});

describe('delete', () => {
  test('deleting the target of a restrict link is refused (Ann watches an issue)', async () => {
    await expect(run([`delete User filter .id = <uuid>'${ANN}'`])).rejects.toMatchObject({
      code: '23503',
      message: expect.stringMatching(
        /prohibited by link target policy of 'default::Issue.watchers'/,
      ),
    });
  });

  test('delete answers the deleted rows; they are gone, with their link rows', async () => {
    const [, deleted, users, friendsOfYury] = await run([
      `update Issue set { watchers -= (select detached User filter .id = <uuid>'${ANN}') }`,
      `delete User filter .id = <uuid>'${ANN}'`,
      'select User.name order by User.name',
      `select User { friends: { name } } filter .id = <uuid>'${YURY}'`,
    ]);
    expect(deleted).toEqual([expect.objectContaining({ id: ANN, name: 'Ann', level: 3 })]);
    expect(users).toEqual(['Elvis', 'Yury']);
    expect(friendsOfYury).toEqual([{ friends: [{ name: 'Elvis' }] }]);
  });

  test('delete with order by and limit', async () => {
    const [deleted, left] = await run([
      'delete LogEntry order by .spent_time desc limit 1',
      'select count(LogEntry)',
    ]);
    expect((deleted as unknown[]).length).toBe(1);
    expect(left).toEqual([0]);
  });

  test('a nested delete marks the query as writing (what read-only mode refuses)', () => {
    expect(compile('select (delete LogEntry) { id }').writes).toBe(true);
    expect(compile('select LogEntry { id }').writes).toBe(false);
  });
});
