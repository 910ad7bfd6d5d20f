import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { runSvc, startSvc, withoutFirstStart } from './svc';

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

  test('reads dbschema/*.esdl, applies, then finds nothing to do; --dry-run changes nothing', async () => {
    const dir = project({
      'dbschema/a-users.esdl': USERS,
      'dbschema/b-posts.esdl': POSTS,
      'dbschema/notes.txt': 'not a schema',
    });
    const dry = await runSvc(['migrate', '--dry-run', ...dbArgs(dir)], { cwd: dir, ms: 60000 });
    expect(withoutFirstStart(dry.stderr)).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run: \d+ steps would apply \(nothing was changed\):/);
    const applied = await runSvc(['migrate', ...dbArgs(dir)], { cwd: dir, ms: 60000 });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^Applied \d+ steps \(schema [0-9a-f]{12}\):/);
    expect(applied.stdout).toContain('default::Post');
    const again = await runSvc(['migrate', ...dbArgs(dir)], { cwd: dir, ms: 60000 });
    expect(again.stdout).toMatch(/^The database is up to date/);
  });

  // Issue 31: told before the database opens, so an embedded folder is not created for it.
  test('a schema error exits 1 with its class, line and column, before the database opens', async () => {
    const dir = project({ 'schema.esdl': 'type User {\n  required name: strr;\n}\n' });
    const r = await runSvc(['migrate', '--schema', 'schema.esdl', ...dbArgs(dir)], {
      cwd: dir,
      ms: 60000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^svc: InvalidReferenceError \(line 2, column \d+\): /);
    expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
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
    const dir = project({ 'dbschema/default.esdl': USERS });
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
