/**
 * Access policies and the caller's globals, through the engine on a real database (PGlite or
 * PostgreSQL: SVC_TEST_DB): every read path and write form of spec item 38, as user A, user B,
 * an editor, a guest, an anonymous caller and the service credential (policies off). After every
 * refused write, the rows are counted with the service credential: nothing written, nothing lost.
 */
import { SvcError } from '../errors';
import { buildSchema, createDefaultMigrator } from '../schema';
import { createTestDatabase, type TestDatabase } from '../testing';
import type { AccessMode } from './api';
import { compileQuery } from './compile';
import {
  createQueryEngine,
  storedSchemaSource,
  type AuthValues,
  type QueryCaller,
  type QueryEngine,
  type QueryRequest,
} from './engine';

const SDL = `
global tenant: str { default := 'main' };
global strict: bool;

abstract type Owned {
  required owner: User;
  access policy owner_all allow all using (.owner.id ?= global current_user_id);
}
type User {
  required name: str { constraint exclusive; }
  note_count := count(.<owner[is Note]);
  access policy see_all allow select;
  access policy self allow update using (.id ?= global current_user_id);
}
type Tag {
  required label: str { constraint exclusive; }
  access policy read allow select;
  access policy editors allow insert, update, delete using (has_role('editor'));
}
type Note extending Owned {
  required title: str;
  multi tags: Tag;
  multi related: Post;
  access policy no_secret deny insert, update write using (.title = 'secret') {
    errmessage := 'no secrets';
  };
}
type Post {
  required title: str { constraint exclusive; }
  author: User;
  required published: bool { default := false };
  access policy readable allow select using (.published);
  access policy author allow all using (.author.id ?= global current_user_id);
  access policy editors allow all using (has_role('editor'));
  access policy no_guests deny insert using (global current_user_is_anonymous) {
    errmessage := 'guests cannot post';
  };
}
type Attachment {
  required name: str;
  required note: Note;
}
type Comment {
  required body: str;
  post: Post;
}
`;

// The users' ids: inserted by the seed with the service credential (ids are svc's to choose).
let A = '';
let B = '';
const GUEST = '00000000-0000-7000-8000-00000000000c';

const on = (extra: Partial<AccessMode> = {}): AccessMode => ({
  policies: true,
  readOnly: false,
  ...extra,
});
const caller = (auth: AuthValues, access: AccessMode = on()): QueryCaller => ({ access, auth });
const SERVICE = caller({ roles: [] }, { policies: false, readOnly: false });
const ANON = caller({ roles: [] });
const EDITOR = caller({ userId: GUEST, roles: ['editor'] });
const GUEST_CALLER = caller({ userId: GUEST, roles: [], isAnonymous: true });
// Set once the users exist; a getter so test tables can name them before `beforeAll`.
const users = { a: ANON, b: ANON };
const USER_A = new Proxy({} as QueryCaller, { get: (_, k) => users.a[k as keyof QueryCaller] });
const USER_B = new Proxy({} as QueryCaller, { get: (_, k) => users.b[k as keyof QueryCaller] });

let tdb: TestDatabase;
let engine: QueryEngine;

async function run(who: QueryCaller, query: string, extra: Omit<QueryRequest, 'query'> = {}) {
  return JSON.parse(await engine.run({ query, ...extra }, who)) as unknown[];
}

/** The error a query fails with: its class name (or envelope code) and message. */
async function failure(who: QueryCaller, query: string, extra: Omit<QueryRequest, 'query'> = {}) {
  try {
    await engine.run({ query, ...extra }, who);
  } catch (err) {
    if (err instanceof SvcError) {
      return {
        type: err.type ?? err.code,
        code: err.code,
        status: err.status,
        message: err.message,
      };
    }
    throw err;
  }
  throw new Error(`expected ${query} to fail`);
}

/** Every row of every type, read with policies off: what a refused write must leave as it was. */
async function snapshot(): Promise<unknown> {
  return run(
    SERVICE,
    `select {
      users := (select User { name } order by .name),
      notes := (select Note { title, owner: { name }, tags: { label } order by .label, related: { title } } order by .title),
      posts := (select Post { title, published, author: { name } } order by .title),
      tags := (select Tag { label } order by .label),
      comments := (select Comment { body } order by .body),
    }`,
  );
}

async function expectRefusedWrite(
  who: QueryCaller,
  query: string,
  expected: { type: string; message?: RegExp; status?: number },
) {
  const before = await snapshot();
  const err = await failure(who, query);
  expect(err.type).toBe(expected.type);
  if (expected.message) expect(err.message).toMatch(expected.message);
  if (expected.status) expect(err.status).toBe(expected.status);
  expect(await snapshot()).toEqual(before);
  return err;
}

/** Runs a write in a transaction-free way and undoes it with the service credential. */
async function expectUnchanged(who: QueryCaller, query: string, result: unknown[]) {
  const before = await snapshot();
  expect(await run(who, query)).toEqual(result);
  expect(await snapshot()).toEqual(before);
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  const migrator = createDefaultMigrator();
  await migrator.migrate(tdb.db, SDL);
  engine = createQueryEngine({
    db: tdb.db,
    compile: compileQuery,
    schema: storedSchemaSource(tdb.db, migrator, buildSchema),
  });
  await run(
    SERVICE,
    `with
      a := (insert User { name := 'Ann' }),
      b := (insert User { name := 'Bob' }),
      red := (insert Tag { label := 'red' }),
      blue := (insert Tag { label := 'blue' }),
      draft := (insert Post { title := 'B draft', author := b }),
      public := (insert Post { title := 'B public', author := b, published := true }),
      na := (insert Note { title := 'A1', owner := a, tags := red }),
      na2 := (insert Note { title := 'A2', owner := a, tags := {red, blue}, related := draft }),
      nb := (insert Note { title := 'B1', owner := b, tags := blue }),
      att := (insert Attachment { name := 'file', note := na }),
      c := (insert Comment { body := 'hello', post := public }),
    select 1`,
  );
  [A, B] = (await run(SERVICE, 'select User.id order by User.name')) as [string, string];
  users.a = caller({ userId: A, email: 'a@example.com', roles: [] });
  users.b = caller({ userId: B, email: 'b@example.com', roles: ['reader', 'editor'] });
}, 120_000);
afterAll(() => tdb?.dispose());

const sorted = (v: unknown[]) =>
  [...v].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));

describe('reads are filtered, however the type is reached', () => {
  test.each([
    [
      'owner A sees their notes',
      USER_A,
      'select Note { title } order by .title',
      [{ title: 'A1' }, { title: 'A2' }],
    ],
    ['owner B sees theirs', USER_B, 'select Note { title } order by .title', [{ title: 'B1' }]],
    ['anonymous sees none', ANON, 'select Note { title }', []],
    [
      'the service credential sees all',
      SERVICE,
      'select Note.title order by Note.title',
      ['A1', 'A2', 'B1'],
    ],
    ['a fully qualified name is the same type', USER_B, 'select default::Note.title', ['B1']],
    ['an abstract parent', USER_A, 'select Owned[is Note].title', ['A1', 'A2']],
    ['an abstract parent, counted', USER_B, 'select count(Owned)', [1]],
    ['count', ANON, 'select count(Note)', [0]],
    ['exists', USER_B, "select exists (select Note filter .title = 'A1')", [false]],
    ['array_agg', USER_B, 'select array_agg(Note.title)', [['B1']]],
    [
      'a backlink into the type',
      USER_B,
      'select Tag { label, notes := .<tags[is Note].title } order by .label',
      [
        { label: 'blue', notes: ['B1'] },
        { label: 'red', notes: [] },
      ],
    ],
    [
      'a computed pointer',
      USER_A,
      'select User { name, note_count } order by .name',
      [
        { name: 'Ann', note_count: 2 },
        { name: 'Bob', note_count: 0 },
      ],
    ],
    ['a with binding', USER_B, 'with n := Note select n.title', ['B1']],
    ['a for', USER_B, 'for n in Note union n.title', ['B1']],
    ['a group', USER_A, 'select (group Note by .owner).key.owner.name', ['Ann']],
    ['a cast to json', USER_B, 'select <json>(select Note { title })', [{ title: 'B1' }]],
    ['a splat', USER_B, 'select Note { * } { title }', [{ title: 'B1' }]],
    ['detached', USER_B, 'select detached Note.title', ['B1']],
    [
      'a link to a hidden object is empty',
      USER_A,
      "select Note { title, related: { title } } filter .title = 'A2'",
      [{ title: 'A2', related: [] }],
    ],
    [
      'an object cast of a hidden id',
      USER_A,
      `select exists (select Note filter .title = 'B1')`,
      [false],
    ],
    ['an unpublished post is hidden from others', ANON, 'select Post.title', ['B public']],
    [
      'its author sees it',
      USER_B,
      'select Post.title order by Post.title',
      ['B draft', 'B public'],
    ],
    ['an editor sees it (has_role)', EDITOR, 'select count(Post)', [2]],
  ] as const)('%s', async (_, who, query, expected) => {
    const result = await run(who, query);
    expect(Array.isArray(expected) && query.includes('order by') ? result : sorted(result)).toEqual(
      Array.isArray(expected) && query.includes('order by') ? expected : sorted([...expected]),
    );
  });

  test('a required link to a hidden object is an error, not a missing row (Gel)', async () => {
    const err = await failure(USER_B, 'select Attachment { name, note }');
    expect(err.type).toBe('CardinalityViolationError');
    expect(err.message).toBe(
      "required link 'note' of object type 'default::Attachment' is hidden by access policy",
    );
    expect(await run(USER_B, 'select Attachment { name, n := .?>note }')).toEqual([
      { name: 'file', n: null },
    ]);
    expect(await run(USER_A, 'select Attachment { note: { title } }')).toEqual([
      { note: [{ title: 'A1' }] },
    ]);
  });
});

describe('writes', () => {
  test('insert as the owner works; as another owner it is refused and writes nothing', async () => {
    const [row] = (await run(
      USER_A,
      `insert Note { title := 'A3', owner := (select User filter .id = global current_user_id) }`,
    )) as { title: string }[];
    expect(row?.title).toBe('A3');
    await run(SERVICE, "delete Note filter .title = 'A3'");
    const err = await expectRefusedWrite(
      USER_A,
      `insert Note { title := 'X', owner := (select User filter .name = 'Bob') }`,
      { type: 'AccessPolicyError', status: 403 },
    );
    expect(err.code).toBe('ACCESS_DENIED');
    expect(err.message).toBe('access policy violation on insert of default::Note');
  });

  test("a deny policy's errmessage, never the row", async () => {
    const err = await expectRefusedWrite(
      USER_A,
      `insert Note { title := 'secret', owner := (select User filter .name = 'Ann') }`,
      { type: 'AccessPolicyError' },
    );
    expect(err.message).toBe('access policy violation on insert of default::Note (no secrets)');
  });

  test('anonymous callers and guests', async () => {
    await expectRefusedWrite(ANON, `insert Tag { label := 'green' }`, {
      type: 'AccessPolicyError',
    });
    // `.author.id ?= global current_user_id` holds for an anonymous caller's post without an
    // author ({} ?= {}): that one is theirs to write. One by Bob is not.
    await expectRefusedWrite(
      ANON,
      `insert Post { title := 'p', author := (select User filter .name = 'Bob') }`,
      { type: 'AccessPolicyError' },
    );
    const err = await expectRefusedWrite(
      caller({ userId: GUEST, roles: ['editor'], isAnonymous: true }),
      `insert Post { title := 'guest post' }`,
      { type: 'AccessPolicyError' },
    );
    expect(err.message).toBe(
      'access policy violation on insert of default::Post (guests cannot post)',
    );
    expect(await run(GUEST_CALLER, 'select global current_user_is_anonymous')).toEqual([true]);
    expect(await run(USER_A, 'select global current_user_is_anonymous')).toEqual([false]);
    expect(await run(ANON, 'select global current_user_is_anonymous')).toEqual([false]);
  });

  test('update and delete reach only what update read / delete allow', async () => {
    await expectUnchanged(USER_A, `update Note filter .title = 'B1' set { title := 'mine' }`, []);
    await expectUnchanged(USER_A, `delete Note filter .title = 'B1'`, []);
    await expectUnchanged(ANON, 'delete Note', []);
    await expectUnchanged(ANON, 'delete Post', []);
    // Tag: everyone may select, only editors may update or delete.
    await expectUnchanged(USER_A, `update Tag set { label := .label ++ '!' }`, []);
    await expectUnchanged(USER_A, 'delete Tag', []);
  });

  test('update write: a row may not be left in a state the policies refuse', async () => {
    await expectRefusedWrite(
      USER_A,
      `update Note filter .title = 'A1' set { owner := (select User filter .name = 'Bob') }`,
      {
        type: 'AccessPolicyError',
        message: /^access policy violation on update of default::Note$/,
      },
    );
    await expectRefusedWrite(USER_A, `update Note filter .title = 'A1' set { title := 'secret' }`, {
      type: 'AccessPolicyError',
      message: /\(no secrets\)$/,
    });
  });

  test('nested writes are checked wherever they are', async () => {
    await expectRefusedWrite(
      USER_A,
      `with u := (update Note set { owner := (select User filter .name = 'Bob') }) select u { title }`,
      { type: 'AccessPolicyError' },
    );
    await expectRefusedWrite(
      USER_A,
      `for t in {'x', 'y'} union (insert Note { title := t, owner := (select User filter .name = 'Bob') })`,
      { type: 'AccessPolicyError' },
    );
    await expectRefusedWrite(
      USER_A,
      `select (insert Comment { body := 'c', post := (insert Post { title := 'nested', author := (select User filter .name = 'Bob') }) }) { body }`,
      { type: 'AccessPolicyError', message: /insert of default::Post/ },
    );
  });

  test('a multi link cannot attach an object the caller cannot see', async () => {
    const before = await snapshot();
    expect(
      await run(
        USER_A,
        `update Note filter .title = 'A1' set { related += (select Post filter .title = 'B draft') } `,
      ),
    ).toHaveLength(1);
    expect(await snapshot()).toEqual(before);
    expect(
      (
        await failure(
          USER_A,
          `update Note filter .title = 'A1' set { related += <Post><uuid>$p }`,
          {
            variables: { p: await postId('B draft') },
          },
        )
      ).type,
    ).toBe('CardinalityViolationError');
    // A link the caller may see is attached; removing it again leaves the data as it was.
    await run(
      USER_A,
      `update Note filter .title = 'A1' set { related += (select Post filter .title = 'B public') }`,
    );
    expect(await run(USER_A, `select Note { related: { title } } filter .title = 'A1'`)).toEqual([
      { related: [{ title: 'B public' }] },
    ]);
    await run(
      USER_A,
      `update Note filter .title = 'A1' set { related -= (select Post filter .title = 'B public') }`,
    );
    expect(await snapshot()).toEqual(before);
  });

  test('an upsert that would update a type with update policies is a compile error', async () => {
    const err = await failure(
      USER_B,
      `insert Post { title := 'B draft' } unless conflict on .title else (update Post set { published := true })`,
    );
    expect(err.type).toBe('QueryError');
    expect(err.message).toMatch(/upsert/);
    // The service credential may.
    expect(
      await run(
        SERVICE,
        `select (insert Post { title := 'B draft' } unless conflict on .title else (update Post set { published := false })).title`,
      ),
    ).toEqual(['B draft']);
  });

  test('the service credential writes anything', async () => {
    const [row] = (await run(
      SERVICE,
      `insert Note { title := 'svc', owner := (select User filter .name = 'Bob') }`,
    )) as { title: string }[];
    expect(row?.title).toBe('svc');
    expect(await run(SERVICE, "delete Note filter .title = 'svc'")).toHaveLength(1);
  });
});

describe('read-only mode refuses every write before it runs', () => {
  const readOnly = new Proxy({} as QueryCaller, {
    get: (_, k) => caller({ userId: A, roles: [] }, on({ readOnly: true }))[k as keyof QueryCaller],
  });
  test.each([
    "insert Tag { label := 'ro' }",
    "select (insert Tag { label := 'ro' }) { label }",
    "with t := (update Tag set { label := 'ro' }) select t",
    "for x in {1} union (delete Tag filter .label = 'ro')",
  ])('%s', async (query) => {
    const before = await snapshot();
    const err = await failure(readOnly, query);
    expect([err.code, err.status]).toEqual(['READ_ONLY', 503]);
    expect(await snapshot()).toEqual(before);
  });
  test('reads run', async () => {
    expect(await run(readOnly, 'select count(Note)')).toEqual([2]);
  });
});

describe('defaultAccess: deny makes a type without policies reachable only with policies off', () => {
  test('reads and writes', async () => {
    const closed = caller({ userId: A, roles: [] }, on({ defaultAccess: 'deny' }));
    expect(await run(USER_A, 'select Comment.body')).toEqual(['hello']);
    expect(await run(closed, 'select Comment.body')).toEqual([]);
    expect(await run(closed, 'select Note.title order by Note.title')).toEqual(['A1', 'A2']);
    await expectRefusedWrite(closed, `insert Comment { body := 'no' }`, {
      type: 'AccessPolicyError',
    });
    await expectUnchanged(closed, 'delete Comment', []);
  });
});

describe("the caller's globals", () => {
  test.each([
    [
      'current_user_id',
      USER_A,
      "select global current_user_id = (select User filter .name = 'Ann').id",
      [true],
    ],
    ['current_user_id when anonymous', ANON, 'select global current_user_id', []],
    ['current_user_email', USER_B, 'select global current_user_email', ['b@example.com']],
    ['current_role is the first role', USER_B, 'select global current_role', ['reader']],
    ['current_role without roles', USER_A, 'select global current_role', []],
    ['has_role', USER_B, "select (has_role('editor'), has_role('admin'))", [[true, false]]],
    ['has_role anonymous', ANON, "select has_role('editor')", [false]],
    ['in a filter', USER_A, 'select User.name filter User.id = global current_user_id', ['Ann']],
  ] as const)('%s', async (_, who, query, expected) => {
    expect(await run(who, query)).toEqual(expected);
  });

  test('cannot be set through globals', async () => {
    for (const name of ['current_user_id', 'default::current_role', 'current_user_is_anonymous']) {
      const err = await failure(ANON, 'select global current_user_id', { globals: { [name]: A } });
      expect(err.code).toBe('VALIDATION_ERROR');
    }
  });

  test('cannot pass roles to has_role', async () => {
    const err = await failure(USER_A, "select has_role('x', roles := ['x'])");
    expect(err.type).toBe('QueryError');
  });

  test('a declared global: its default when left out, empty when null, the value when given', async () => {
    expect(await run(ANON, 'select global tenant')).toEqual(['main']);
    expect(await run(ANON, 'select global tenant', { globals: { tenant: null } })).toEqual([]);
    expect(await run(ANON, 'select global tenant', { globals: { tenant: 'x' } })).toEqual(['x']);
    expect(await run(ANON, 'select global strict', { globals: { strict: null } })).toEqual([]);
  });

  test('a schema may not declare them', () => {
    expect(() => buildSchema('global current_user_id: uuid;')).toThrow(/cannot be declared/);
  });
});

async function postId(title: string): Promise<string> {
  const [id] = (await run(SERVICE, `select (select Post filter .title = <str>$t).id`, {
    variables: { t: title },
  })) as string[];
  return id as string;
}
