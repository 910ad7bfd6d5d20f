import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../main';
import { buildSchema, planMigration } from '@svc/core';
import { renameCandidates } from './questions';

/** Issue 31: `svc migration create` asks about renames and fills, as Gel does, on a terminal. */

/** An io whose `ask` answers from a script and records every question. */
function scripted(answers: readonly string[] | undefined) {
  const out = { stdout: '', stderr: '', asked: [] as string[] };
  const left = [...(answers ?? [])];
  return {
    out,
    io: {
      stdout: (t: string) => {
        out.stdout += `${t}\n`;
      },
      stderr: (t: string) => {
        out.stderr += `${t}\n`;
      },
      ...(answers
        ? {
            ask: async (question: string) => {
              out.asked.push(question);
              const answer = left.shift();
              if (answer === undefined) throw new Error(`unexpected question: ${question}`);
              return answer;
            },
          }
        : {}),
    },
  };
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-questions-'));
  fs.mkdirSync(path.join(dir, 'dbschema'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const writeSchema = (sdl: string) =>
  fs.writeFileSync(path.join(dir, 'dbschema/default.esdl'), `${sdl}\n`);
const migrations = () => fs.readdirSync(path.join(dir, 'dbschema/migrations')).sort();
const lastFile = () =>
  fs.readFileSync(path.join(dir, 'dbschema/migrations', migrations().at(-1) as string), 'utf8');

async function create(answers: readonly string[] | undefined, flags: string[] = []) {
  const { io, out } = scripted(answers);
  const code = await run(['migration', 'create', ...flags], { cwd: dir, env: {}, io });
  return { code, ...out };
}

test('a type dropped and one created with the same pointers: asked whether it was renamed', async () => {
  writeSchema('type User { required name: str; bio: str; }');
  expect((await create([])).code).toBe(0); // the first migration asks nothing
  writeSchema('type Person { required name: str; bio: str; }');
  const yes = await create(['y']);
  expect(yes.asked).toEqual(['Did you rename type default::User to default::Person? [y/n] ']);
  expect(yes.code).toBe(0);
  expect(yes.stdout).toContain('rename type default::User to default::Person');
  expect(lastFile()).toContain(
    '\n    alter type default::User {\n        rename to default::Person;\n',
  );
});

test('a rename and a fill asked, a wrong answer asked again; the file is the one the flags make', async () => {
  writeSchema('type User { required name: str; bio: str; }');
  await create([]);
  writeSchema('type User { required name: str; about: str; required handle: str; }');
  const asked = await create(['maybe', 'y', '', 'str_lower(', '42', 'str_lower(.name)']);
  expect(asked.code).toBe(0);
  const fill =
    'default::User.handle is required and has no default: what value do the objects stored already get? (an EdgeQL expression over the object, e.g. .name)\n> ';
  expect(asked.asked).toEqual([
    'Did you rename default::User.bio to default::User.about? [y/n] ',
    'Did you rename default::User.bio to default::User.about? [y/n] ',
    fill,
    fill,
    fill,
    fill,
  ]);
  expect(asked.stderr).toContain('Answer y (yes) or n (no)');
  expect(asked.stderr).toContain('An expression is needed');
  expect(asked.stderr).toContain('the fill expression for default::User.handle does not parse');
  expect(asked.stderr).toMatch(/default::User\.handle gives std::int64, but .* is std::str/);
  // No notes about candidates once the questions were answered.
  expect(asked.stderr).not.toContain('create the migration with --rename');
  const byQuestions = migrations().at(-1);
  const text = lastFile();
  expect(text).toContain('alter property bio {\n            rename to about;\n        };');
  expect(text).toContain(
    'alter property handle {\n            set required using (str_lower(.name));',
  );

  // The same answers as flags, in a script: the same migration, to the byte.
  fs.rmSync(path.join(dir, 'dbschema/migrations', byQuestions as string));
  const flags = await create(undefined, [
    '--rename',
    'User.bio=about',
    '--fill',
    'User.handle=str_lower(.name)',
  ]);
  expect(flags.code).toBe(0);
  expect(migrations().at(-1)).toBe(byQuestions);
  expect(lastFile()).toBe(text);
});

test('a rename declined: a drop and a create, and the other questions still come', async () => {
  writeSchema('type User { required name: str; bio: str; }');
  await create([]);
  writeSchema('type User { required name: str; about: str; required handle: str; }');
  const no = await create(['n', 'n', '.name']);
  expect(no.code).toBe(0);
  expect(no.asked).toEqual([
    'Did you rename default::User.bio to default::User.about? [y/n] ',
    'Did you rename default::User.bio to default::User.handle? [y/n] ',
    expect.stringMatching(/^default::User\.handle is required/),
  ]);
  expect(no.stdout).toContain('drop property default::User.bio');
  expect(no.stdout).toContain('create property default::User.about');
  expect(lastFile()).not.toContain('rename');
  expect(lastFile()).toContain('drop property bio;');
  expect(lastFile()).toContain('set required using (.name);');
});

test('flags answer first: a rename given as a flag is not asked', async () => {
  writeSchema('type User { required name: str; bio: str; }');
  await create([]);
  writeSchema('type User { required name: str; about: str; required handle: str; }');
  const some = await create(['.name'], ['--rename', 'User.bio=about']);
  expect(some.code).toBe(0);
  expect(some.asked).toEqual([expect.stringMatching(/^default::User\.handle is required/)]);
});

test('without a terminal: notes and a refusal naming the flags; nothing is written', async () => {
  writeSchema('type User { required name: str; bio: str; }');
  await create(undefined);
  writeSchema('type Person { required name: str; bio: str; }');
  const script = await create(undefined);
  expect(script.code).toBe(0);
  expect(script.stderr).toContain(
    'svc: type default::User is dropped and type default::Person created: if User was renamed, create the migration with --rename User=Person to keep its data',
  );
  fs.rmSync(path.join(dir, 'dbschema/migrations', migrations().at(-1) as string));
  writeSchema('type User { required name: str; bio: str; required handle: str; }');
  const refused = await create(undefined);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('--fill "User.handle=<EdgeQL expression>"');
  expect(migrations()).toHaveLength(1);
});

test('a type change no cast makes: asked for the new value, over the stored one', async () => {
  writeSchema('type Task { required title: str; done: bool; }');
  await create([]);
  writeSchema('type Task { required title: str; done: int64; }');
  const refused = await create(undefined);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('cannot change the type of default::Task.done');
  const asked = await create(['.nope', '1 if .done else 0']);
  expect(asked.code).toBe(0);
  expect(asked.asked).toEqual([
    'default::Task.done changes type from std::bool to std::int64, and no cast keeps its data: what is the new value? (an EdgeQL expression over the stored object, e.g. <std::int64>.done)\n> ',
    expect.stringMatching(/^default::Task\.done changes type/),
  ]);
  expect(asked.stderr).toContain('Try again');
  expect(lastFile()).toContain('set type int64 using (1 if .done else 0);');
});

test('a question is asked a bounded number of times', async () => {
  writeSchema('type User { required name: str; }');
  await create([]);
  writeSchema('type User { required name: str; required handle: str; }');
  const tired = await create(Array(10).fill(''));
  expect(tired.code).toBe(1);
  expect(tired.asked).toHaveLength(10);
  expect(tired.stderr).toContain('no fill for default::User.handle planned: pass it with --fill');
  expect(migrations()).toHaveLength(1);
});

describe('rename candidates', () => {
  const candidates = (from: string, to: string) => {
    const a = buildSchema(from);
    const b = buildSchema(to);
    return renameCandidates(a, b, planMigration(a, b)).map((c) => c.flag);
  };

  test('a type renamed while a property was added or renamed is still a candidate', () => {
    expect(
      candidates(
        'type User { name: str; bio: str; age: int64; }',
        'type Person { name: str; bio: str; age: int64; email: str; }',
      ),
    ).toEqual(['--rename User=Person']);
    expect(
      candidates(
        'type User { name: str; bio: str; age: int64; }',
        'type Person { name: str; about: str; age: int64; }',
      ),
    ).toEqual(['--rename User=Person']);
  });

  test('types with little in common are not; the closest comes first', () => {
    expect(candidates('type A { x: str; }', 'type B { y: str; z: str; }')).toEqual([]);
    expect(
      candidates(
        'type User { a: str; b: str; c: str; }',
        'type Person { a: str; b: str; c: str; }\ntype Member { a: str; b: str; d: str; }',
      ),
    ).toEqual(['--rename User=Person', '--rename User=Member']);
  });
});
