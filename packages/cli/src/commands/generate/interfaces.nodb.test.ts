/**
 * `svc generate interfaces`: the text for a schema of every kind of pointer is the golden file
 * (`UPDATE_GOLDEN=1` rewrites it), and that text compiles under `strict` against @svc/client,
 * where right uses type-check and wrong ones fail (`@ts-expect-error` lines).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSchema } from '@svc/core';
import ts from 'typescript';
import { generateInterfaces } from './interfaces';
import { generateQueries } from './queries';

const GOLDEN = path.join(__dirname, '__golden__');
const sdl = readFileSync(path.join(GOLDEN, 'schema.esdl'), 'utf8');
const text = generateInterfaces(buildSchema(sdl), 'dbschema');

test('the interfaces of the golden schema', () => {
  const file = path.join(GOLDEN, 'interfaces.ts.txt');
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
});

test('the same schema gives the same text', () => {
  expect(generateInterfaces(buildSchema(sdl), 'dbschema')).toBe(text);
});

const USES = `
import type { LocalDate, Range } from '@svc/client';
import type { Mood, Post, Schema, User, shop } from './interfaces';

declare const user: User;
declare const post: Post;
const name: string = user.name;
const age: number | null = user.age;
const mood: Mood | null = user.mood;
const happy: Mood = 'happy';
const unsure: Mood = 'not sure';
const birthday: LocalDate | null = user.birthday;
const friends: User[] = user.friends;
const bestName: string | undefined = user.best?.name;
const roles: string[] = user.roles;
const spotX: number | undefined = user.spot?.x;
const pair: [string, bigint] | null = user.pair;
const active: Range<Date> | null = user.active;
const count: number = user.friend_count;
const shown: string = user['display name'];
const author: User = post.author;
const item: shop.Item | User | undefined = post.attachments[0];
const owner: User | null | undefined = (item as shop.Item | undefined)?.owner;
const byName: Schema['default::Post'] = post;
const login: string | null = ({} as Schema['shop::User']).login;
void [name, age, mood, happy, unsure, birthday, friends, bestName, roles, spotX, pair, active, count, shown, author, item, owner, byName, login];

// @ts-expect-error an optional property may be null
const ageOnly: number = user.age;
// @ts-expect-error not one of the enum's labels
const angry: Mood = 'angry';
// @ts-expect-error a multi link is an array
const oneFriend: User = user.friends;
// @ts-expect-error computed pointers are read-only
user.friend_count = 3;
// @ts-expect-error no such pointer
void user.nope;
// @ts-expect-error the other module's User is another type
const shopUser: shop.User = user;
void [ageOnly, angry, oneFriend, shopUser];
`;

test('the generated text compiles under strict against @svc/client; wrong uses do not', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-generate-'));
  try {
    writeFileSync(path.join(dir, 'interfaces.ts'), text);
    writeFileSync(path.join(dir, 'uses.ts'), USES);
    expect(compileProblems(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

const queryFiles = readdirSync(path.join(GOLDEN, 'queries'))
  .sort()
  .map((f) => ({
    path: `queries/${f}`,
    text: readFileSync(path.join(GOLDEN, 'queries', f), 'utf8'),
  }));
const queries = generateQueries(buildSchema(sdl), queryFiles);

test('the typed functions of the golden query files', () => {
  const file = path.join(GOLDEN, 'queries.ts.txt');
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, queries);
  expect(queries).toBe(readFileSync(file, 'utf8'));
});

const QUERY_USES = `
import { createClient, type LocalDate } from '@svc/client';
import { addUser, countUsers, getUser, listPosts } from './queries';

const client = createClient({ url: 'http://127.0.0.1:5656' });
async function uses() {
  const user = await getUser(client, { id: '00000000-0000-0000-0000-000000000000' });
  const name: string | undefined = user?.name;
  const age: number | null | undefined = user?.age;
  const friendNames: string[] | undefined = user?.friends.map((f) => f.name);
  const bestName: string | undefined = user?.best?.name;
  const birthday: LocalDate | null | undefined = user?.birthday;
  const posts = await listPosts(client, { prefix: 'a' });
  const firstAuthor: string | undefined = posts[0]?.author.name;
  await listPosts(client, { prefix: 'a', limit: 2 });
  const [count, pair, named] = await countUsers(client);
  const n: number = count;
  const sum: number = (pair[0] ?? 0) + named.a + (named.b.lower ?? 0);
  const added = await addUser(client, { name: 'x' });
  const id: string = added.id;
  void [name, age, friendNames, bestName, birthday, firstAuthor, n, sum, id];

  // @ts-expect-error a required argument
  await getUser(client, {});
  // @ts-expect-error an argument of the wrong type
  await getUser(client, { id: 1 });
  // @ts-expect-error a single result may be null
  const sure: { name: string } = await getUser(client, { id: 'x' });
  // @ts-expect-error no such field in the shape
  void posts[0]?.body;
  // @ts-expect-error a query without variables takes no arguments
  await countUsers(client, {});
  void sure;
}
void uses;
`;

test('the generated functions compile under strict against @svc/client; wrong uses do not', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-generate-'));
  try {
    writeFileSync(path.join(dir, 'queries.ts'), queries);
    writeFileSync(path.join(dir, 'uses.ts'), QUERY_USES);
    expect(compileProblems(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

/** The type errors of `dir/uses.ts` under strict, with @svc/client from its sources. */
function compileProblems(dir: string): string[] {
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
    paths: { '@svc/client': [path.join(__dirname, '../../../../client/src/index.ts')] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
