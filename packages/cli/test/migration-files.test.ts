import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { seedEmbeddedFolder } from '@svc/test-support';
import { FIRST_START_MS, runInTerminal, runSvc, startSvc } from './svc';

/** Issue 31: Gel's workflow of migration files, through the real binary. */
describe(`svc migration on ${testDatabaseKind()}`, () => {
  let t: TestDatabase | undefined;
  beforeEach(async () => {
    if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
  });
  afterEach(async () => t?.dispose());
  /**
   * The test database's URL, or an embedded folder in `dir` with its database made already: what
   * these check comes after a first start (config-and-start.pglite.test.ts checks that).
   */
  const dbArgs = (dir: string) => {
    if (t && 'url' in t.config) return ['--database-url', t.config.url];
    seedEmbeddedFolder(path.join(dir, 'data'));
    return ['--data-dir', path.join(dir, 'data')];
  };

  test('create, status, migrate, log; renames and fills in the file; an edited file is refused', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-migration-'));
    const schema = path.join(dir, 'dbschema/default.esdl');
    fs.mkdirSync(path.dirname(schema));
    fs.writeFileSync(schema, 'type User { required name: str; bio: str; }\n');
    const db = dbArgs(dir);
    const run = (args: string[]) => runSvc(args, { cwd: dir, ms: FIRST_START_MS });
    const migrations = () => fs.readdirSync(path.join(dir, 'dbschema/migrations')).sort();

    const first = await run(['migration', 'create']);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(
      /^Created dbschema\/migrations\/00001-[0-9a-f]{12}\.edgeql \(1 steps\):\n {2}create type default::User/,
    );
    expect(migrations()).toHaveLength(1);
    const text = fs.readFileSync(
      path.join(dir, 'dbschema/migrations', migrations()[0] as string),
      'utf8',
    );
    expect(text).toMatch(/^# svc migration 00001, onto an empty database\./);
    expect(text).toMatch(
      /\ncreate migration m1[0-9a-f]{64}\n {4}onto initial\n\{\n {4}create module default;\n {4}create type default::User \{\n {8}create required property name: str;\n {8}create property bio: str;\n {4}\};\n\};\n$/,
    );
    expect((await run(['migration', 'create'])).stdout).toMatch(
      /^No schema changes since dbschema\/migrations\/00001-/,
    );

    expect((await run(['migration', 'status', ...db])).stdout).toMatch(
      /^1 migration files in dbschema\/migrations; 0 applied to the database\.\nPending \(apply with `svc migrate`\):\n {2}dbschema\/migrations\/00001-/,
    );
    const applied = await run(['migrate', ...db]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(
      /^Applied dbschema\/migrations\/00001-[0-9a-f]{12}\.edgeql \(1 steps\)/,
    );
    expect((await run(['migrate', ...db])).stdout).toBe(
      'The database is up to date: all 1 migrations are applied.\n',
    );
    expect((await run(['query', `insert User { name := 'Ann', bio := 'hi' }`, ...db])).code).toBe(
      0,
    );

    // The next schema: bio renamed, a required handle. Without the flags create asks for them.
    fs.writeFileSync(
      schema,
      'type User { required name: str; about: str; required handle: str; }\n',
    );
    const asks = await run(['migration', 'create']);
    expect(asks.code).toBe(1);
    expect(asks.stderr).toContain(
      'default::User.handle is required and has no default: say what existing objects get with --fill "User.handle=<EdgeQL expression>"',
    );
    expect(asks.stderr).toContain(
      'if bio was renamed, create the migration with --rename User.bio=about',
    );
    const second = await run([
      'migration',
      'create',
      '--rename',
      'User.bio=about',
      '--fill',
      'User.handle=str_lower(.name)',
    ]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('rename property default::User.bio to about');
    expect(migrations()).toHaveLength(2);
    expect((await run(['migration', 'status', ...db])).stdout).toContain(
      '1 applied to the database',
    );
    // Flags for a push are refused when files say what to do.
    expect((await run(['migrate', '--rename', 'User.bio=about', ...db])).code).toBe(2);
    const next = await run(['migrate', ...db]);
    expect(next.stderr).toBe('');
    expect(next.stdout).toMatch(/^Applied dbschema\/migrations\/00002-/);
    const read = await run(['query', 'select User { about, handle }', ...db]);
    expect(JSON.parse(read.stdout)).toEqual([{ about: 'hi', handle: 'ann' }]);
    const log = await run(['migration', 'log', ...db]);
    expect(log.stdout.trim().split('\n')).toHaveLength(2);
    expect(log.stdout).toMatch(
      /m1[0-9a-f]{12} dbschema\/migrations\/00002-[0-9a-f]{12}\.edgeql {2}\d+ steps/,
    );

    // A file changed after it was made is refused, naming it; nothing is applied.
    const file = path.join(dir, 'dbschema/migrations', migrations()[1] as string);
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('str_lower(.name)', 'str_upper(.name)'),
    );
    const edited = await run(['migrate', ...db]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toMatch(/00002-[0-9a-f]{12}\.edgeql: its content does not match its id/);
  });

  test('svc serve names pending migration files, and applies them with --migrate', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-migration-serve-'));
    fs.mkdirSync(path.join(dir, 'dbschema'));
    fs.writeFileSync(path.join(dir, 'dbschema/default.esdl'), 'type Note { title: str; }\n');
    const db = dbArgs(dir);
    expect((await runSvc(['migration', 'create'], { cwd: dir, ms: FIRST_START_MS })).code).toBe(0);
    const sdlOf = async (url: string) =>
      ((await (await fetch(`${url}/schema`)).json()) as { sdl: string }).sdl;
    for (const [args, expected] of [
      [[], ''],
      // The schema the files make, as svc prints it (Gel's `describe schema as sdl` is its own too).
      [
        ['--migrate'],
        'module default {\n    type Note {\n        property title: str;\n    }\n}\n',
      ],
    ] as const) {
      const svc = await startSvc(['--port', '0', ...args, ...db], { cwd: dir, ms: FIRST_START_MS });
      try {
        expect(await sdlOf(svc.url)).toBe(expected);
        const output = svc.stdout() + svc.stderr();
        if (args.length === 0) expect(output).toContain('1 migration files are pending');
        else expect(output).toContain('applied: 1 steps');
      } finally {
        svc.child.kill('SIGTERM');
      }
      expect(await svc.exited).toBe(0);
    }
  });
});

/** Issue 31: on a terminal, `svc migration create` asks, as Gel does (no database involved). */
describe('svc migration create on a terminal', () => {
  const project = (sdl: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-migration-tty-'));
    fs.mkdirSync(path.join(dir, 'dbschema'));
    fs.writeFileSync(path.join(dir, 'dbschema/default.esdl'), sdl);
    return dir;
  };

  test('asks about the rename and the fill, and writes them into the file', async () => {
    const dir = project('type User { required name: str; bio: str; }\n');
    expect((await runSvc(['migration', 'create'], { cwd: dir, ms: FIRST_START_MS })).code).toBe(0);
    fs.writeFileSync(
      path.join(dir, 'dbschema/default.esdl'),
      'type User { required name: str; about: str; required handle: str; }\n',
    );
    const term = runInTerminal(['migration', 'create'], { cwd: dir });
    try {
      // readline moves the cursor with escape sequences after each prompt.
      await term.waitFor(/Did you rename default::User\.bio to default::User\.about\? \[y\/n\] /);
      term.type('y\r');
      await term.waitFor(/default::User\.handle is required and has no default: .*\r?\n> /);
      term.type('str_lower(.name\r');
      await term.waitFor(/does not parse[\s\S]*\n> /);
      term.type('str_lower(.name)\r');
      expect(await term.exited).toBe(0);
    } finally {
      term.kill();
    }
    expect(term.output()).toMatch(
      /Created dbschema\/migrations\/00002-[0-9a-f]{12}\.edgeql \(2 steps\)/,
    );
    const [, second] = fs.readdirSync(path.join(dir, 'dbschema/migrations')).sort();
    expect(
      fs.readFileSync(path.join(dir, 'dbschema/migrations', second as string), 'utf8'),
    ).toContain(
      '\n        alter property bio {\n            rename to about;\n        };\n        create property handle: str;\n        alter property handle {\n            set required using (str_lower(.name));\n        };\n',
    );
  });

  test('Ctrl-C at a question exits 130 and writes nothing', async () => {
    const dir = project('type User { required name: str; }\n');
    expect((await runSvc(['migration', 'create'], { cwd: dir, ms: FIRST_START_MS })).code).toBe(0);
    fs.writeFileSync(
      path.join(dir, 'dbschema/default.esdl'),
      'type User { required name: str; required handle: str; }\n',
    );
    const term = runInTerminal(['migration', 'create'], { cwd: dir });
    try {
      await term.waitFor(/\n> /);
      term.type('\x03');
      expect(await term.exited).toBe(130);
    } finally {
      term.kill();
    }
    expect(term.output()).toContain('svc: cancelled');
    expect(fs.readdirSync(path.join(dir, 'dbschema/migrations'))).toHaveLength(1);
  });
});
