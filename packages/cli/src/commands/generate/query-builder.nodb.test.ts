/**
 * `svc generate query-builder`: the module for the golden schema is the golden file
 * (`UPDATE_GOLDEN=1` rewrites it), and it compiles under `strict` against @svc/client, where
 * right uses type-check (result types by svc's conventions) and wrong ones fail
 * (`@ts-expect-error` lines). Its queries' texts: plain values are variables, typed by what
 * they meet or by their JavaScript value, so one query shape is one text.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDate, Range } from '@svc/client';
import { buildSchema } from '@svc/core';
import ts from 'typescript';
import { generateQueryBuilder } from './query-builder';

const GOLDEN = path.join(__dirname, '__golden__');
const sdl = readFileSync(path.join(GOLDEN, 'schema.esdl'), 'utf8');
const text = generateQueryBuilder(buildSchema(sdl), 'dbschema');

test('the query builder of the golden schema', () => {
  const file = path.join(GOLDEN, 'query-builder.ts.txt');
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
});

test('the same schema gives the same text', () => {
  expect(generateQueryBuilder(buildSchema(sdl), 'dbschema')).toBe(text);
});

describe('plain values are variables', () => {
  // The generated module, loaded from where it is written (typed by the strict-compile test).
  // biome-ignore lint/suspicious/noExplicitAny: the module is generated at run time
  let e: any;
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-qb-text-'));
    const file = path.join(dir, 'query-builder.ts');
    writeFileSync(file, text);
    e = require(file).e;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const ID1 = '00000000-0000-0000-0000-000000000001';
  const ID2 = '00000000-0000-0000-0000-000000000002';

  test('one query shape, one text, whatever its values', () => {
    const byId = (id: string) => e.select(e.User, () => ({ name: true, filter_single: { id } }));
    expect(byId(ID1).toEdgeQL()).toBe(byId(ID2).toEdgeQL());
    expect(byId(ID1).toQuery()).toEqual({
      query: 'select default::User { name } filter .id = <std::uuid>$__v0',
      variables: { __v0: ID1 },
    });
    expect(byId(ID2).toQuery().variables).toEqual({ __v0: ID2 });
    const page = (name: string, limit: number, offset: number) =>
      e.select(e.User, (u: any) => ({
        name: true,
        filter: e.op(e.op(u.name, 'like', name), 'and', e.op(u.age, '>', 18)),
        order_by: u.name,
        limit,
        offset,
      }));
    expect(page('a%', 10, 0).toQuery()).toEqual({
      query:
        'select default::User { name } filter ((.name like <std::str>$__v0) and (.age > <std::int32>$__v1)) order by .name offset <std::int64>$__v2 limit <std::int64>$__v3',
      variables: { __v0: 'a%', __v1: 18, __v2: 0, __v3: 10 },
    });
    expect(page("o'brien", 5, 100).toEdgeQL()).toBe(page('a%', 10, 0).toEdgeQL());
  });

  test("typed by the pointer a value meets: enums, custom scalars, the schema's types", () => {
    const joined = new Date('2024-01-02T03:04:05Z');
    const birthday = LocalDate.parse('2000-01-02');
    const avatar = new Uint8Array([1, 2, 3]);
    const active = new Range(joined, null);
    const { query, variables } = e
      .insert(e.User, {
        name: 'ann',
        roles: ['a', 'b'],
        mood: 'not sure',
        handle: 'ann1',
        joined,
        birthday,
        avatar,
        active,
        big: 12,
        tags: [],
        age: null,
      })
      .toQuery();
    expect(query).toBe(
      'insert default::User { name := <std::str>$__v0, roles := array_unpack(<array<std::str>>$__v1), mood := <optional default::Mood>$__v2, handle := <optional default::Handle>$__v3, joined := <optional std::datetime>$__v4, birthday := <optional cal::local_date>$__v5, avatar := <optional std::bytes>$__v6, active := <optional range<std::datetime>>$__v7, big := <optional std::int64>$__v8, tags := <optional array<std::str>>$__v9, age := <optional std::int32>$__v10 }',
    );
    expect(variables).toEqual({
      __v0: 'ann',
      __v1: ['a', 'b'],
      __v2: 'not sure',
      __v3: 'ann1',
      __v4: joined,
      __v5: birthday,
      __v6: avatar,
      __v7: active,
      __v8: 12,
      __v9: [],
      __v10: null,
    });
    expect(e.select(e.User, (u: any) => ({ filter: e.op(u.mood, '=', 'happy') })).toEdgeQL()).toBe(
      'select default::User filter (.mood = <default::Mood>$__v0)',
    );
    expect(
      e
        .update(e.User, () => ({
          filter_single: { name: 'ann' },
          set: { roles: { '+=': ['c'] }, age: 3 },
        }))
        .toEdgeQL(),
    ).toBe(
      'update default::User filter .name = <std::str>$__v0 set { roles += array_unpack(<array<std::str>>$__v1), age := <optional std::int32>$__v2 }',
    );
  });

  test('typed by the JavaScript value where nothing says otherwise', () => {
    const typeOf = (value: unknown) =>
      /^select str_lower\(to_str\(<(.*)>\$__v0\)\)$/.exec(
        e.select(e.str_lower(e.to_str(value))).toEdgeQL(),
      )?.[1];
    expect(typeOf(3)).toBe('std::int64');
    expect(typeOf(3.5)).toBe('std::float64');
    expect(typeOf('x')).toBe('std::str');
    expect(typeOf(true)).toBe('std::bool');
    expect(typeOf(3n)).toBe('std::bigint');
    expect(typeOf(new Date(0))).toBe('std::datetime');
    expect(typeOf(LocalDate.parse('2024-01-02'))).toBe('cal::local_date');
    expect(typeOf(new Uint8Array([1]))).toBe('std::bytes');
    expect(typeOf([1, 2.5])).toBe('array<std::float64>');
    expect(typeOf(['a'])).toBe('array<std::str>');
    expect(typeOf(new Range(1, 5))).toBe('range<std::int64>');
    expect(() => e.select(e.len([])).toEdgeQL()).toThrow(/empty array needs a known type/);
    expect(() => e.select(e.len({})).toEdgeQL()).toThrow(/use e.params/);
    // JSON cannot carry NaN: a constant.
    expect(e.select(e.op(NaN, '+', 1)).toEdgeQL()).toBe(
      "select (<std::float64>'NaN' + <std::int64>$__v0)",
    );
  });

  test("e.params: its values beside the builder's; its names may not be the builder's", () => {
    const q = e.params({ name: e.str, age: e.optional(e.int32) }, (p: any) =>
      e.select(e.User, (u: any) => ({
        name: true,
        filter: e.op(e.op(u.name, '=', p.name), 'and', e.op(u.mood, '=', 'sad')),
        limit: 2,
      })),
    );
    expect(q.toQuery({ name: 'ann' })).toEqual({
      query:
        'select default::User { name } filter ((.name = <std::str>$name) and (.mood = <default::Mood>$__v0)) limit <std::int64>$__v1',
      variables: { name: 'ann', age: null, __v0: 'sad', __v1: 2 },
    });
    expect(() => e.params({ __v0: e.str }, () => e.select(e.User))).toThrow(
      /may not start with __v/,
    );
  });
});

const USES = `import { createClient, type LocalDate } from '@svc/client';
import { e } from './query-builder';

const client = createClient({ url: 'http://127.0.0.1:5656' });
async function uses(id: string) {
  const post = await e
    .select(e.Post, (p) => ({ title: true, author: { name: true, age: true }, attachments: true, filter_single: { id } }))
    .run(client);
  const title: string | undefined = post?.title;
  const authorName: string | undefined = post?.author.name;
  const authorAge: number | null | undefined = post?.author.age;
  const attachments: string[] | undefined = post?.attachments;
  const users = await e
    .select(e.User, (u) => ({
      name: true,
      friends: true,
      best: true,
      birthday: true,
      mood: true,
      friend_count: true,
      shouting: e.str_upper(u.name),
      n: e.count(u.friends),
      filter: e.op(e.op(u.age, '>', 18), 'and', e.op(u.name, 'like', 'a%')),
      order_by: [{ expression: u.name, direction: 'desc' }, u.age],
      limit: 10,
      offset: 0,
    }))
    .run(client);
  const first = users[0];
  if (first) {
    const name: string = first.name;
    const friends: string[] = first.friends;
    const best: string | null = first.best;
    const bday: LocalDate | null = first.birthday;
    const mood: 'happy' | 'sad' | 'not sure' | null = first.mood;
    const count: number = first.friend_count;
    const shouting: string = first.shouting;
    const n: number = first.n;
    void [name, friends, best, bday, mood, count, shouting, n];
  }
  const withFriends = await e
    .select(e.User, () => ({ friends: (f) => ({ name: true, filter: e.op(f.name, '!=', 'x'), limit: 3 }), best: { name: true } }))
    .run(client);
  const friendNames: string[] | undefined = withFriends[0]?.friends.map((f) => f.name);
  const bestName: string | null | undefined = withFriends[0]?.best?.name;
  void [title, authorName, authorAge, attachments, friendNames, bestName];

  const inserted = await e.insert(e.User, { name: 'x', roles: ['a'], best: e.select(e.User, () => ({ filter_single: { name: 'y' } })) }).run(client);
  const insertedId: string = inserted.id;
  const insertedBest: string | null = inserted.best;
  const updated = await e
    .update(e.User, (u) => ({ filter_single: { id }, set: { age: 3, friends: { '+=': e.select(e.User, () => ({ filter_single: { name: 'y' } })) } } }))
    .run(client);
  const updatedAge: number | null | undefined = updated?.age;
  const deleted = await e.delete(e.User, (u) => ({ filter: e.op(u.name, '=', 'x') })).run(client);
  const deletedCount: number = deleted.length;
  const total: number = await e.select(e.count(e.User)).run(client);
  const byName = e.params({ name: e.str, min: e.optional(e.int32) }, (p) =>
    e.select(e.User, (u) => ({ name: true, filter: e.op(u.name, '=', p.name) })),
  );
  const found = await byName.run(client, { name: 'x' });
  const foundName: string | undefined = found[0]?.name;
  const text: string = byName.toEdgeQL();
  const built: { query: string; variables: Record<string, unknown> } = byName.toQuery({ name: 'x' });
  const plain: { query: string; variables: Record<string, unknown> } = e.select(e.User, () => ({ filter_single: { id } })).toQuery();
  void [insertedId, insertedBest, updatedAge, deletedCount, total, foundName, text, built, plain];

  // @ts-expect-error no such pointer in the shape
  e.select(e.User, () => ({ nope: true }));
  // @ts-expect-error a filter is a bool expression
  e.select(e.User, (u) => ({ name: true, filter: u.name }));
  // @ts-expect-error filter_single takes exclusive properties only
  e.select(e.User, () => ({ filter_single: { age: 3 } }));
  // @ts-expect-error filter_single's value has the property's type
  e.select(e.User, () => ({ filter_single: { id: 3 } }));
  // @ts-expect-error a parameter of the wrong type
  await byName.run(client, { name: 3 });
  // @ts-expect-error a required parameter left out
  await byName.run(client, {});
  // @ts-expect-error toQuery takes the parameters' values
  byName.toQuery({ name: 3 });
  // @ts-expect-error operands of different types
  e.op(e.str_lower('a'), '=', 3);
  // @ts-expect-error a required pointer left out of an insert
  e.insert(e.User, { age: 3 });
  // @ts-expect-error a computed pointer cannot be written
  e.update(e.User, () => ({ set: { friend_count: 3 } }));
  // @ts-expect-error a link takes a query, not a value
  e.insert(e.Post, { title: 't', author: 'someone' });
  // @ts-expect-error a link to another type
  e.insert(e.Post, { title: 't', author: e.select(e.Post, () => ({ filter_single: { id } })) });
  const one = await e.select(e.User, () => ({ name: true, filter_single: { id } })).run(client);
  // @ts-expect-error a single result may be null
  const sure: { name: string } = one;
  void sure;
}
void uses;
`;

test('the module compiles under strict against @svc/client; wrong uses do not', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-generate-'));
  try {
    writeFileSync(path.join(dir, 'query-builder.ts'), text);
    writeFileSync(path.join(dir, 'uses.ts'), USES);
    expect(compileProblems(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

/** The type errors of `dir/uses.ts` under strict, with @svc/client from its sources. */
function compileProblems(dir: string): string[] {
  const client = path.join(__dirname, '../../../../client/src');
  const program = ts.createProgram([path.join(dir, 'uses.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
    baseUrl: dir,
    paths: {
      '@svc/client': [path.join(client, 'index.ts')],
      '@svc/client/query-builder': [path.join(client, 'query-builder/index.ts')],
    },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}
