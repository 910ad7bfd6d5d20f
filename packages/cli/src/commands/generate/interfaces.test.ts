/**
 * `svc generate interfaces`: the text for a schema of every kind of pointer is the golden file
 * (`UPDATE_GOLDEN=1` rewrites it), and that text compiles under `strict` against @svc/client,
 * where right uses type-check and wrong ones fail (`@ts-expect-error` lines).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSchema } from '@svc/core';
import ts from 'typescript';
import { generateInterfaces } from './interfaces';

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
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
