/**
 * The generated query builder against a real svc server (`createServer` over loopback HTTP, on
 * the engine under test: PGlite, or PostgreSQL with SVC_TEST_DB=postgres): each builder query
 * gives what the same hand-written EdgeQL gives through the same client, and writes what it says.
 * Plain values travel as variables (one query shape, one text), of every type the client encodes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, Duration, LocalDate, Range, type Client } from '@svc/client';
import { buildSchema } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createServer, type SvcServer } from '@svc/server';
import { generateQueryBuilder } from './query-builder';

const SDL = `
module default {
  scalar type Status extending enum<draft, published>;
  scalar type Handle extending str;
  type User {
    required name: str { constraint exclusive; }
    email: str { constraint exclusive; }
    age: int32;
    handle: Handle;
    birthday: cal::local_date;
    multi nicknames: str;
    multi friends: User;
    best: User;
    friend_count := count(.friends);
    multi fans := .<friends[is User];
  }
  type Post {
    required title: str { constraint exclusive; }
    body: str;
    status: Status;
    required author: User;
    multi tags: str;
    published: datetime;
    data: bytes;
    pages: range<int64>;
    score: float64;
    took: duration;
  }
}
`;

let dir: string;
let tdb: TestDatabase;
let server: SvcServer;
let client: Client;
// The generated module, loaded from where it was written (typed by the strict-compile test).
// biome-ignore lint/suspicious/noExplicitAny: the module is generated at run time
let e: any;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-qb-'));
  const file = path.join(dir, 'query-builder.ts');
  writeFileSync(file, generateQueryBuilder(buildSchema(SDL), 'dbschema'));
  e = require(file).e;
  tdb = await createTestDatabase();
  server = await createServer({
    env: {},
    logLevel: 'silent',
    databaseInstance: tdb.db,
    schema: SDL,
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  client = createClient({ url: server.url });
  await client.execute(`
    with
      ann := (insert User { name := 'ann', email := 'ann@example.com', age := 31 }),
      bob := (insert User { name := 'bob', age := 17, friends := ann, best := ann }),
      cid := (insert User { name := 'cid', friends := {ann, bob} })
    select {
      (insert Post { title := 'Hello', body := 'first', status := Status.published, author := ann, tags := {'a', 'b'}, published := <datetime>'2024-01-02T03:04:05Z' }),
      (insert Post { title := 'Draft', status := Status.draft, author := bob }),
      (insert Post { title := 'hello again', author := cid, tags := {'a'} })
    }`);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await tdb?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The builder query's result and the hand-written query's, through the same method. */
async function both(
  query: { run(c: Client): Promise<unknown>; toEdgeQL(): string },
  edgeql: string,
  method: 'query' | 'querySingle' | 'queryRequiredSingle',
) {
  const built = await query.run(client);
  const written = await client[method](edgeql);
  return { built, written, text: query.toEdgeQL() };
}

test('select with nested shapes, links without sub-shapes, computeds, order and paging', async () => {
  const { built, written, text } = await both(
    e.select(e.User, (u: any) => ({
      name: true,
      age: true,
      best: true,
      friends: true,
      fans: { name: true },
      friend_count: true,
      upper: e.str_upper(u.name),
      order_by: { expression: u.name, direction: 'desc' },
      limit: 2,
      offset: 1,
    })),
    `select User { name, age, best, friends, fans: { name }, friend_count, upper := str_upper(.name) }
     order by .name desc offset 1 limit 2`,
    'query',
  );
  expect(built).toEqual(written);
  expect(built).toEqual([
    expect.objectContaining({
      name: 'bob',
      age: 17,
      friend_count: 1,
      upper: 'BOB',
      fans: [{ name: 'cid' }],
    }),
    expect.objectContaining({ name: 'ann', age: 31, best: null, friends: [], friend_count: 0 }),
  ]);
  const [bob] = built as { best: unknown; friends: unknown[] }[];
  expect(typeof bob?.best).toBe('string');
  expect(bob?.friends).toEqual([expect.any(String)]);
  expect(text).toContain('select default::User {');
});

test('filter_single by an exclusive property, single link with a sub-shape', async () => {
  const { built, written } = await both(
    e.select(e.Post, () => ({
      title: true,
      status: true,
      tags: true,
      published: true,
      author: { name: true, email: true },
      filter_single: { title: 'Hello' },
    })),
    `select Post { title, status, tags, published, author: { name, email } } filter .title = 'Hello'`,
    'querySingle',
  );
  expect(built).toEqual(written);
  expect(built).toEqual({
    title: 'Hello',
    status: 'published',
    tags: ['a', 'b'],
    published: new Date('2024-01-02T03:04:05Z'),
    author: { name: 'ann', email: 'ann@example.com' },
  });
  expect(
    await e.select(e.User, () => ({ name: true, filter_single: { name: 'nobody' } })).run(client),
  ).toBeNull();
});

test('operators, functions, nested link filters and parameters', async () => {
  const query = e.params({ prefix: e.str }, (p: any) =>
    e.select(e.Post, (post: any) => ({
      title: true,
      author: () => ({
        name: true,
        friends: (f: any) => ({ name: true, filter: e.op(e.len(f.name), '>=', 3) }),
      }),
      filter: e.op(
        e.op(e.str_lower(post.title), 'like', e.op(e.str_lower(p.prefix), '++', '%')),
        'and',
        e.op(e.len(post.title), '>', 0),
      ),
      order_by: post.title,
    })),
  );
  const built = await query.run(client, { prefix: 'HEL' });
  const written = await client.query(
    `select Post { title, author: { name, friends: { name } filter len(.name) >= 3 } }
     filter str_lower(.title) like str_lower(<str>$prefix) ++ '%' and len(.title) > 0
     order by .title`,
    { prefix: 'HEL' },
  );
  expect(built).toEqual(written);
  expect((built as { title: string }[]).map((p) => p.title)).toEqual(['Hello', 'hello again']);
  const byAge = e.params({ age: e.optional(e.int32) }, (p: any) =>
    e.select(e.User, (u: any) => ({
      name: true,
      filter: e.op(u.age, '?=', p.age),
      order_by: u.name,
    })),
  );
  expect(await byAge.run(client, {})).toEqual([{ name: 'cid' }]);
  expect(await byAge.run(client, { age: 17 })).toEqual(
    await client.query('select User { name } filter .age ?= <optional int32>$age order by .name', {
      age: 17,
    }),
  );
  expect(await e.select(e.count(e.User)).run(client)).toBe(
    await client.queryRequiredSingle('select count(User)'),
  );
  expect(await e.select(e.contains('hello', 'ell')).run(client)).toBe(true);
  expect(await e.select(e.datetime_current()).run(client)).toBeInstanceOf(Date);
});

test('insert with a nested link, update with += and -=, delete', async () => {
  const inserted = await e
    .insert(e.User, {
      name: 'dee',
      age: 40,
      friends: e.select(e.User, () => ({ filter_single: { name: 'ann' } })),
      best: e.select(e.User, () => ({ filter_single: { name: 'bob' } })),
    })
    .run(client);
  const stored = await client.queryRequiredSingle<{
    id: string;
    name: string;
    age: number;
    friends: string[];
    best: string;
  }>(`select User { id, name, age, friends, best } filter .name = 'dee'`);
  expect(inserted).toEqual(expect.objectContaining(stored));
  const updated = await e
    .update(e.User, () => ({
      filter_single: { name: 'dee' },
      set: {
        age: 41,
        friends: { '+=': e.select(e.User, () => ({ filter_single: { name: 'cid' } })) },
      },
    }))
    .run(client);
  expect(updated).toEqual(expect.objectContaining({ name: 'dee', age: 41 }));
  expect(
    await client.querySingle(
      `select User { friends: { name } order by .name } filter .name = 'dee'`,
    ),
  ).toEqual({ friends: [{ name: 'ann' }, { name: 'cid' }] });
  await e
    .update(e.User, (u: any) => ({
      filter: e.op(u.name, '=', 'dee'),
      set: {
        email: null,
        friends: { '-=': e.select(e.User, () => ({ filter_single: { name: 'ann' } })) },
      },
    }))
    .run(client);
  expect(
    await client.querySingle(`select User { email, friends: { name } } filter .name = 'dee'`),
  ).toEqual({ email: null, friends: [{ name: 'cid' }] });
  const deleted = await e.delete(e.User, () => ({ filter_single: { name: 'dee' } })).run(client);
  expect(deleted).toEqual(expect.objectContaining({ name: 'dee' }));
  expect(await client.query(`select User filter .name = 'dee'`)).toEqual([]);
});

test('one query shape is one text: values travel as variables', async () => {
  const ids = await client.query<{ id: string; name: string }>(
    'select User { id, name } order by .name',
  );
  const byId = (id: string) => e.select(e.User, () => ({ name: true, filter_single: { id } }));
  const texts = new Set<string>();
  for (const { id, name } of ids) {
    const query = byId(id);
    texts.add(query.toEdgeQL());
    expect(query.toQuery().variables).toEqual({ __v0: id });
    const { built, written } = await both(
      query,
      `select User { name } filter .id = <uuid>'${id}'`,
      'querySingle',
    );
    expect(built).toEqual(written);
    expect(built).toEqual({ name });
  }
  expect([...texts]).toEqual(['select default::User { name } filter .id = <std::uuid>$__v0']);
  // Quotes, backslashes and newlines are values, not text.
  const odd = e.select(e.User, () => ({ name: true, filter_single: { name: "o'b\\r\n`x" } }));
  expect(odd.toEdgeQL()).toBe(byName('ann').toEdgeQL());
  expect(await odd.run(client)).toBeNull();
  expect(await byName('ann').run(client)).toEqual({ name: 'ann' });
});

const byName = (name: string) => e.select(e.User, () => ({ name: true, filter_single: { name } }));

test('values of every type the client encodes, typed by the pointer or by their value', async () => {
  const published = new Date('2025-06-07T08:09:10.123Z');
  const data = new Uint8Array([0, 1, 254, 255]);
  const pages = new Range(3, 9);
  const took = Duration.parse('PT1H30M');
  const birthday = LocalDate.parse('1990-02-03');
  await e
    .insert(e.User, { name: 'eve', handle: 'e.ve', birthday, nicknames: ['evie', 'e'] })
    .run(client);
  const inserted = await e
    .insert(e.Post, {
      title: 'Typed',
      status: 'draft',
      author: e.select(e.User, () => ({ filter_single: { name: 'eve' } })),
      tags: ['x', 'y'],
      published,
      data,
      pages,
      score: 2.5,
      took,
      body: null,
    })
    .run(client);
  expect(inserted).toEqual(
    expect.objectContaining({ status: 'draft', published, data, pages, score: 2.5, took }),
  );
  const { built, written } = await both(
    e.select(e.Post, (p: any) => ({
      title: true,
      status: true,
      tags: true,
      published: true,
      data: true,
      pages: true,
      score: true,
      took: true,
      author: { handle: true, birthday: true, nicknames: true },
      filter: e.op(
        e.op(e.op(p.status, '=', 'draft'), 'and', e.op(p.published, '>', new Date(0))),
        'and',
        e.op(
          e.op(p.data, '=', data),
          'and',
          e.op(e.op(p.pages, '=', pages), 'and', e.op(p.author.handle, '=', 'e.ve')),
        ),
      ),
    })),
    `select Post { title, status, tags, published, data, pages, score, took,
       author: { handle, birthday, nicknames } }
     filter .status = Status.draft and .published > <datetime>'1970-01-01T00:00:00Z'
       and .data = b'\\x00\\x01\\xfe\\xff' and .pages = range(3, 9)
       and .author.handle = <Handle>'e.ve'`,
    'query',
  );
  expect(built).toEqual(written);
  expect(built).toEqual([
    {
      title: 'Typed',
      status: 'draft',
      tags: expect.arrayContaining(['x', 'y']),
      published,
      data,
      pages,
      score: 2.5,
      took,
      author: { handle: 'e.ve', birthday, nicknames: expect.arrayContaining(['evie', 'e']) },
    },
  ]);
  // Typed by their JavaScript values.
  expect(await e.select(e.len([1, 2, 3])).run(client)).toBe(3);
  expect(await e.select(e.op(10n, '+', 5n)).run(client)).toBe(15n);
  expect(await e.select(e.op(1, '+', 0.5)).run(client)).toBe(1.5);
  expect(await e.select(e.len(data)).run(client)).toBe(4);
  expect(await e.select(e.to_str(birthday)).run(client)).toBe('1990-02-03');
  expect(await e.select(e.op(published, '+', took)).run(client)).toEqual(
    new Date('2025-06-07T09:39:10.123Z'),
  );
  expect(await e.select(e.op(e.len('abc'), '=', 3)).run(client)).toBe(true);
  // A multi property from an array, empty or not, and an optional one set to null: one text each.
  const setNicknames = (nicknames: string[], handle: string | null) =>
    e.update(e.User, () => ({ filter_single: { name: 'eve' }, set: { nicknames, handle } }));
  expect(setNicknames([], null).toEdgeQL()).toBe(setNicknames(['a', 'b'], 'h').toEdgeQL());
  await setNicknames([], null).run(client);
  expect(
    await client.querySingle(`select User { nicknames, handle } filter .name = 'eve'`),
  ).toEqual({ nicknames: [], handle: null });
  await setNicknames(['a', 'b'], 'h').run(client);
  expect(
    await client.querySingle<{ nicknames: string[]; handle: string }>(
      `select User { nicknames, handle } filter .name = 'eve'`,
    ),
  ).toEqual({ nicknames: expect.arrayContaining(['a', 'b']), handle: 'h' });
  await client.execute(`delete Post filter .title = 'Typed'`);
  await e.delete(e.User, () => ({ filter_single: { name: 'eve' } })).run(client);
});
