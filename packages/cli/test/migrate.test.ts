import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { seedEmbeddedFolder } from '@svc/test-support';
import { FIRST_START_MS, runSvc, startSvc } from './svc';

const USERS = 'type User {\n  required name: str { constraint exclusive; }\n}\n';
const POSTS = 'type Post {\n  required title: str;\n  author: User;\n}\n';

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-migrate-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe(`svc migrate on ${testDatabaseKind()}`, () => {
  let t: TestDatabase | undefined;
  beforeEach(async () => {
    if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
  });
  afterEach(async () => t?.dispose());
  const dbArgs = (dir: string) =>
    t && 'url' in t.config
      ? ['--database-url', t.config.url]
      : ['--data-dir', path.join(dir, 'data')];
  /**
   * `dir`, its embedded folder (dbArgs) made already on PGlite, for a test whose subject comes
   * after the first start (the others check that a schema error creates no folder).
   */
  const withDatabase = (dir: string) => {
    if (!t) seedEmbeddedFolder(path.join(dir, 'data'));
    return dir;
  };

  // Issue 31: a dry run changes nothing on disk, not even on a first start, when the embedded
  // folder does not exist yet: it plans against an empty database in memory, and says so.
  test('reads dbschema/*.esdl; --dry-run prints the plan migrate then applies and creates nothing', async () => {
    const dir = project({
      'dbschema/a-users.esdl': USERS,
      'dbschema/b-posts.esdl': POSTS,
      'dbschema/notes.txt': 'not a schema',
    });
    // On PGlite, the default folder: .svc/data in the project.
    const args = t ? dbArgs(dir) : [];
    const run = (more: string[]) =>
      runSvc(['migrate', ...more, ...args], { cwd: dir, ms: FIRST_START_MS });
    const dry = await run(['--dry-run']);
    expect(dry.stderr).toBe(
      t
        ? ''
        : 'svc: ./.svc/data holds no database yet: the dry run plans against an empty one in memory and creates nothing\n',
    );
    expect(dry.code).toBe(0);
    expect(fs.existsSync(path.join(dir, '.svc'))).toBe(false);
    expect(dry.stdout).toMatch(/^Dry run: \d+ steps would apply \(nothing was changed\):\n/);
    const applied = await run([]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^Applied \d+ steps \(schema [0-9a-f]{12}\):\n/);
    expect(applied.stdout).toContain('default::Post');
    const steps = (out: string) => out.split('\n').slice(1);
    expect(steps(applied.stdout)).toEqual(steps(dry.stdout));
    // Once the folder holds the database, a dry run reads it (and still changes nothing).
    for (const more of [['--dry-run'], []]) {
      const again = await run(more);
      expect(again.stderr).toBe('');
      expect(again.stdout).toMatch(/^The database is up to date/);
    }
  });

  // Issue 31: told before the database opens, so an embedded folder is not created for it.
  test('a schema error exits 1 with its class, file, line and column, before the database opens', async () => {
    const dir = project({ 'schema.esdl': 'type User {\n  required name: strr;\n}\n' });
    const r = await runSvc(['migrate', '--schema', 'schema.esdl', ...dbArgs(dir)], {
      cwd: dir,
      ms: FIRST_START_MS,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^svc: error: InvalidReferenceError: type 'default::strr' does not exist\n {2}┌─ schema\.esdl:2:18\n/,
    );
    expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
  });

  // Issue 31: a schema of several files, as a new user writes it.
  const TAGS = 'type Tag {\n  required name: str;\n}\ntype Post {\n  multi tags: Tga;\n}\n';
  const COMMENTS = 'type Comment {\n  body: str;\n}\n';

  test('an error in the second of three files: its file, line and column there, a code frame, the hint', async () => {
    const dir = project({
      'dbschema/a-users.esdl': USERS,
      'dbschema/b-tags.esdl': TAGS,
      'dbschema/c-comments.esdl': COMMENTS,
    });
    const r = await runSvc(['migrate', ...dbArgs(dir)], { cwd: dir, ms: FIRST_START_MS });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        "svc: error: InvalidReferenceError: type 'default::Tga' does not exist",
        '  ┌─ dbschema/b-tags.esdl:5:15',
        '  │',
        '5 │   multi tags: Tga;',
        '  │               ^^^',
        '  │',
        "  = hint: did you mean 'default::Tag'?",
        '',
      ].join('\n'),
    });
  });

  test('independent errors in two files are all printed, syntax and reference errors alike', async () => {
    const syntax = project({
      'dbschema/a-users.esdl': 'type User {\n  required name str;\n}\n',
      'dbschema/b-tags.esdl': TAGS,
      'dbschema/c-comments.esdl': 'type Comment {\n  body: str\n  post: Post;\n}\n',
    });
    const first = await runSvc(['migrate', ...dbArgs(syntax)], { cwd: syntax, ms: FIRST_START_MS });
    expect(first.code).toBe(1);
    expect(first.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const heads = first.stderr.split('\n').filter((l) => l.includes('┌─'));
    expect(heads).toEqual([
      '  ┌─ dbschema/a-users.esdl:2:16',
      '  ┌─ dbschema/c-comments.esdl:2:12',
    ]);
    expect(first.stderr).toMatch(/^svc: error: SchemaSyntaxError: /);
    expect(first.stderr).toMatch(/\n\n2 errors\n$/);

    const references = project({
      'dbschema/a-users.esdl': 'type User {\n  required name: str;\n  tags: Tga;\n}\n',
      'dbschema/b-tags.esdl': TAGS,
    });
    const second = await runSvc(['migrate', ...dbArgs(references)], {
      cwd: references,
      ms: FIRST_START_MS,
    });
    expect(second.code).toBe(1);
    expect(second.stderr.split('\n').filter((l) => /┌─|\^/.test(l))).toEqual([
      '  ┌─ dbschema/a-users.esdl:3:9',
      '  │         ^^^',
      '  ┌─ dbschema/b-tags.esdl:5:15',
      '  │               ^^^',
    ]);
  });

  test('svc serve refuses the same schema the same way, before it listens', async () => {
    const dir = project({
      'dbschema/a-users.esdl': USERS,
      'dbschema/b-tags.esdl': TAGS,
      'dbschema/c-comments.esdl': COMMENTS,
    });
    const r = await runSvc(['serve', '--port', '0', ...dbArgs(dir)], {
      cwd: dir,
      ms: FIRST_START_MS,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^svc: error: InvalidReferenceError: type 'default::Tga' does not exist\n {2}┌─ dbschema\/b-tags\.esdl:5:15\n/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('a rename keeps the data (--rename); a new required property takes --fill; bad flags exit 2', async () => {
    const dir = withDatabase(
      project({ 'dbschema/default.esdl': 'type User { required name: str; bio: str; }\n' }),
    );
    const run = (args: string[]) => runSvc(args, { cwd: dir, ms: FIRST_START_MS });
    expect((await run(['migrate', ...dbArgs(dir)])).code).toBe(0);
    const insert = await run([
      'query',
      `insert User { name := 'ann', bio := 'hi' }`,
      ...dbArgs(dir),
    ]);
    expect(insert.code).toBe(0);
    fs.writeFileSync(
      path.join(dir, 'dbschema/default.esdl'),
      'type User { required name: str; about: str; required handle: str; }\n',
    );
    // Without being told, it is a drop and an add: refused, and the hint names the flags.
    const refused = await run(['migrate', ...dbArgs(dir)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not applied/);
    const bad = await run(['migrate', '--rename', 'User.bio', ...dbArgs(dir)]);
    expect(bad).toMatchObject({ code: 2 });
    expect(bad.stderr).toContain(
      '--rename User.bio: expected Type=NewType or Type.pointer=new_name',
    );
    const applied = await run([
      'migrate',
      '--rename',
      'User.bio=about',
      '--fill',
      'User.handle=str_lower(.name)',
      ...dbArgs(dir),
    ]);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('rename property default::User.bio to about');
    const read = await run(['query', 'select User { name, about, handle }', ...dbArgs(dir)]);
    expect(JSON.parse(read.stdout)).toEqual([{ name: 'ann', about: 'hi', handle: 'ann' }]);
  });

  test('without a schema it says how to give one', async () => {
    const dir = project({});
    const r = await runSvc(['migrate', ...dbArgs(dir)], { cwd: dir });
    expect(r).toMatchObject({
      code: 2,
      stderr: 'svc: no schema: pass --schema <file|dir> or create dbschema/\n',
    });
  });

  test('svc serve migrates to dbschema/ at start', async () => {
    const dir = withDatabase(project({ 'dbschema/default.esdl': USERS }));
    const svc = await startSvc(['--port', '0', ...dbArgs(dir)], { cwd: dir });
    try {
      const schema = (await (await fetch(`${svc.url}/schema`)).json()) as { sdl: string };
      expect(schema.sdl).toBe(USERS);
    } finally {
      svc.child.kill('SIGTERM');
    }
    expect(await svc.exited).toBe(0);
  });
});

// Issue 31: a long migration says what it is doing.
describe(`a migration of many steps tells its progress on stderr (${testDatabaseKind()})`, () => {
  let t: TestDatabase | undefined;
  beforeEach(async () => {
    if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
  });
  afterEach(async () => t?.dispose());

  test('svc migrate --dry-run: step 1 of n first; stdout holds the report only', async () => {
    const types = Array.from({ length: 12 }, (_, i) => `type T${i} {\n  name: str;\n}\n`);
    const dir = project({ 'dbschema/default.esdl': types.join('') });
    const dbArgs =
      t && 'url' in t.config
        ? ['--database-url', t.config.url]
        : ['--data-dir', path.join(dir, 'data')];
    const r = await runSvc(['migrate', '--dry-run', ...dbArgs], { cwd: dir, ms: 90000 });
    expect(r.code).toBe(0);
    const steps = Number(/^Dry run: (\d+) steps would apply/.exec(r.stdout)?.[1]);
    expect(steps).toBeGreaterThanOrEqual(12);
    const progress = r.stderr.split('\n').filter((l) => l.startsWith('svc: migrating:'));
    expect(progress[0]).toMatch(new RegExp(`^svc: migrating: step 1 of ${steps} \\(create `));
    for (const line of progress)
      expect(line).toMatch(new RegExp(`^svc: migrating: step \\d+ of ${steps} \\(`));
    expect(r.stdout).not.toContain('migrating:');
  });

  test('a migration of few steps says nothing while it runs', async () => {
    const dir = project({ 'dbschema/default.esdl': 'type User;\n' });
    // The embedded folder made already (config-and-start.pglite.test.ts checks a first start).
    if (!t) seedEmbeddedFolder(path.join(dir, 'data'));
    const dbArgs =
      t && 'url' in t.config
        ? ['--database-url', t.config.url]
        : ['--data-dir', path.join(dir, 'data')];
    const r = await runSvc(['migrate', ...dbArgs], { cwd: dir, ms: 90000 });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('migrating:');
  });
});
