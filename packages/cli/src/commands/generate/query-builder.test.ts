/**
 * `svc generate query-builder`: the module for the golden schema is the golden file
 * (`UPDATE_GOLDEN=1` rewrites it), and it compiles under `strict` against @svc/client, where
 * right uses type-check (result types by svc's conventions) and wrong ones fail
 * (`@ts-expect-error` lines).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  void [insertedId, insertedBest, updatedAge, deletedCount, total, foundName, text];

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
