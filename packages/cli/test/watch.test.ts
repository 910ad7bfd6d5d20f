import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { seedEmbeddedFolder } from '@svc/test-support';
import { runSvc, spawnSvc, startSvc } from './svc';

/** Resolves once `check()` is true; rejects with `what` after `ms` (polls every 50 ms). */
async function until(what: () => string, check: () => boolean | Promise<boolean>, ms = 30000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`waited ${ms} ms for: ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Issue 31: `svc watch` pushes the schema on every save, through the binary and its server. */
describe(`svc watch on ${testDatabaseKind()}`, () => {
  let t: TestDatabase | undefined;
  beforeEach(async () => {
    if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
  });
  afterEach(async () => t?.dispose());

  test('each save is pushed and served; a bad save prints its error and the next one applies; data loss is refused', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-watch-'));
    const schema = path.join(dir, 'dbschema/default.esdl');
    fs.mkdirSync(path.dirname(schema));
    fs.writeFileSync(schema, 'type User { required name: str; }\n');
    // On PGlite the embedded folder is made already: what is checked comes after a first start.
    if (!t) seedEmbeddedFolder(path.join(dir, 'data'));
    const db = t && 'url' in t.config ? ['--database-url', t.config.url] : ['--data-dir', 'data'];
    // A migration file: watch reminds that what it pushes is development, not a file.
    expect((await runSvc(['migration', 'create'], { cwd: dir, ms: 60000 })).code).toBe(0);

    const svc = await startSvc(['--port', '0', ...db], { cwd: dir, ms: 60000 });
    const watch = spawnSvc(['watch', ...db], { cwd: dir });
    let out = '';
    let err = '';
    watch.stdout.on('data', (d) => (out += d));
    watch.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => watch.on('exit', (code) => r(code)));
    const served = async () =>
      ((await (await fetch(`${svc.url}/schema`)).json()) as { sdl: string }).sdl;
    const shown = () => `stdout:\n${out}\nstderr:\n${err}`;
    try {
      await until(shown, () => err.includes('watching dbschema for changes'), 60000);
      expect(err).toContain(
        'svc: dbschema/migrations holds 1 migration files: what watch pushes are development pushes',
      );
      if (!t)
        expect(err).toMatch(/the data folder is held by svc serve \(pid \d+\): pushing through it/);
      expect(out).toMatch(
        /^Applied 1 steps \(schema [0-9a-f]{12}\):\n {2}create type default::User\n/,
      );
      expect(await served()).toBe('type User { required name: str; }\n');

      // A save: pushed, and the server serves it at once.
      fs.writeFileSync(schema, 'type User { required name: str; bio: str; }\n');
      await until(shown, async () => (await served()).includes('bio: str'));
      await until(shown, () => out.includes('create property default::User.bio'));

      // A bad save: the schema error with file, line and code frame; nothing pushed.
      fs.writeFileSync(schema, 'type User {\n  required name: str;\n  bio: strr;\n}\n');
      await until(shown, () => err.includes('nothing was pushed; waiting for the next save'));
      expect(err).toContain("InvalidReferenceError: type 'default::strr' does not exist");
      expect(err).toContain('┌─ dbschema/default.esdl:3:8');
      expect(await served()).toContain('bio: str;');

      // The next good save applies.
      fs.writeFileSync(schema, 'type User { required name: str; bio: str; age: int64; }\n');
      await until(shown, async () => (await served()).includes('age: int64'));

      // A save that would drop stored data is refused, with the ways on.
      const inserted = await runSvc(
        ['query', `insert User { name := 'Ann', bio := 'hi' }`, ...db],
        {
          cwd: dir,
          ms: 60000,
        },
      );
      expect(inserted.code).toBe(0);
      fs.writeFileSync(schema, 'type User { required name: str; about: str; age: int64; }\n');
      await until(shown, () => err.includes('svc watch --allow-data-loss'));
      expect(err).toContain(
        'DataLossError: the migration was not applied: it would lose stored data',
      );
      expect(err).toContain(
        'svc: if it was renamed, push the rename once: svc migrate --dev --rename User.bio=about',
      );
      expect(await served()).toContain('bio: str;');

      // Each push is a development push in the history.
      const log = await runSvc(['migration', 'log', ...db], { cwd: dir, ms: 60000 });
      expect(log.stdout.match(/development push/g)).toHaveLength(3);

      // Ctrl-C stops it cleanly.
      watch.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      watch.kill('SIGKILL');
      svc.child.kill('SIGTERM');
      await svc.exited;
    }
  });
});
