import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCK_FILE_NAME, openDatabase } from '@svc/core';
import { seedEmbeddedFolder } from '@svc/test-support';
import { FIRST_START_MS, cleanEnv, runSvc, startSvc, type Running, withoutFirstStart } from './svc';

// One embedded data folder, several svc processes: the folder's lock keeps PGlite to one process,
// `svc migrate` works through a server that holds it, and a server killed with -9 loses no write
// it answered. These use the embedded database whatever SVC_TEST_DB says: that is their subject.
// Each folder is made already (seedEmbeddedFolder): what comes after a first start is what these
// check; config-and-start.pglite.test.ts checks the first start itself.

const SECRET = 'cli-embedded-secret-0123456789-abcdefgh';
const SERVICE_KEY = 'cli-embedded-service-key-0123456789-abcdef';
const USERS = 'type User {\n  required name: str { constraint exclusive; }\n}\n';
const POSTS = 'type Post {\n  required title: str;\n  author: User;\n}\n';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-embedded-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function stop(svc: Running): Promise<void> {
  svc.child.kill('SIGTERM');
  expect(await svc.exited).toBe(0);
}

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

describe('one embedded data folder, several svc processes', () => {
  test('while svc serve holds the folder: migrate and admin go through it, a second serve is refused, nothing is lost', async () => {
    const dir = project({ 'dbschema/default.esdl': USERS });
    const data = path.join(dir, '.svc', 'data');
    seedEmbeddedFolder(data);
    const env = cleanEnv({ SVC_JWT_SECRET: SECRET });
    const svc = await startSvc(['--port', '0', '--enable-auth'], {
      cwd: dir,
      env: cleanEnv({ SVC_JWT_SECRET: SECRET, SVC_SERVICE_KEY: SERVICE_KEY }),
    });
    let stopped = false;
    try {
      const lock = JSON.parse(fs.readFileSync(path.join(data, LOCK_FILE_NAME), 'utf8')) as {
        pid: number;
        url: string;
        command: string;
      };
      expect(lock).toMatchObject({ pid: svc.child.pid, url: svc.url, command: 'svc serve' });

      // A new type in dbschema/, migrated while the server runs.
      fs.writeFileSync(path.join(dir, 'dbschema', 'posts.esdl'), POSTS);
      const refused = await runSvc(['migrate'], { cwd: dir, env, ms: FIRST_START_MS });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /refused the request \((UNAUTHORIZED|ACCESS_DENIED): .*\): no credential is configured: set SVC_SERVICE_KEY .*, give a superuser's token \(--token or SVC_TOKEN\), or sign in as a superuser with svc login$/m,
      );
      const migrated = await runSvc(['migrate'], {
        cwd: dir,
        env: cleanEnv({ SVC_JWT_SECRET: SECRET, SVC_SERVICE_KEY: SERVICE_KEY }),
        ms: FIRST_START_MS,
      });
      expect(migrated.stderr).toBe(
        `svc: the data folder is held by svc serve (pid ${svc.child.pid}): migrating through it at ${svc.url}\n`,
      );
      expect(migrated.stdout).toMatch(/^Applied \d+ steps \(schema [0-9a-f]{12}\):/);
      expect(migrated.code).toBe(0);
      const schema = await json(`${svc.url}/schema`, {
        headers: { authorization: `Bearer ${SERVICE_KEY}` },
      });
      expect(schema.body.sdl).toContain('type Post');
      // A schema error is told before the folder is even tried (issue 31): class, line, column;
      // the server's own refusals come back as the command's (the missing service key above).
      fs.writeFileSync(
        path.join(dir, 'dbschema', 'posts.esdl'),
        'type Post {\n  required title: strr;\n}\n',
      );
      const bad = await runSvc(['migrate'], {
        cwd: dir,
        env: cleanEnv({ SVC_SERVICE_KEY: SERVICE_KEY }),
        ms: FIRST_START_MS,
      });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(
        /^svc: error: InvalidReferenceError: type 'default::strr' does not exist\n {2}┌─ dbschema\/posts\.esdl:2:19\n/,
      );
      fs.writeFileSync(path.join(dir, 'dbschema', 'posts.esdl'), POSTS);

      // A user registered through the server, then admin commands on the held folder.
      const reg = await fetch(`${svc.url}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'first@example.com', password: 'a long passphrase 1' }),
      });
      expect(reg.status).toBe(201);
      // Admin commands go through it too (issue 31): refused without a credential, done with one.
      const create = [
        'admin',
        'create-superuser',
        'root@example.com',
        '--password',
        'root password 1',
      ];
      const admin = await runSvc(create, { cwd: dir, env, ms: FIRST_START_MS });
      expect(admin.code).toBe(1);
      expect(admin.stdout).toBe('');
      expect(admin.stderr).toContain(
        `svc: the server at ${svc.url} holds the data folder and refused the request (UNAUTHORIZED: sign in as a superuser): no credential is configured`,
      );
      const made = await runSvc(create, {
        cwd: dir,
        env: cleanEnv({ SVC_SERVICE_KEY: SERVICE_KEY }),
        ms: FIRST_START_MS,
      });
      expect(made.stderr).toBe(
        `svc: the data folder is held by svc serve (pid ${svc.child.pid}): working through it at ${svc.url}\n`,
      );
      expect(made.stdout).toMatch(/^Created superuser root@example\.com \([0-9a-f-]{36}\)\.\n$/);
      expect(made.code).toBe(0);

      const second = await runSvc(['serve', '--port', '0'], { cwd: dir, env, ms: FIRST_START_MS });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        `DATA_DIR_LOCKED: the embedded database folder ${data} is in use by svc serve (pid ${svc.child.pid}`,
      );

      // The server is untouched: it still answers with everything written so far.
      const login = await fetch(`${svc.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'first@example.com', password: 'a long passphrase 1' }),
      });
      expect(login.status).toBe(200);
      await stop(svc);
      stopped = true;
    } finally {
      if (!stopped) svc.child.kill('SIGKILL');
    }
    expect(fs.existsSync(path.join(data, LOCK_FILE_NAME))).toBe(false);

    // Afterwards the folder opens directly and holds everything.
    const upToDate = await runSvc(['migrate'], { cwd: dir, env, ms: FIRST_START_MS });
    expect(upToDate).toMatchObject({ code: 0, stderr: '' });
    expect(upToDate.stdout).toMatch(/^The database is up to date/);
    const created = await runSvc(
      ['admin', 'create-superuser', 'later@example.com', '--password', 'root password 1'],
      { cwd: dir, env, ms: FIRST_START_MS },
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const db = await openDatabase({ dataDir: data });
    try {
      const users = await db.query<{ email: string }>(
        'select email from svc_auth.users order by email',
      );
      expect(users.rows.map((r) => r.email)).toEqual([
        'first@example.com',
        'later@example.com',
        'root@example.com',
      ]);
      const tables = await db.query(
        "select 1 from information_schema.tables where table_schema = 'default' and table_name = 'Post'",
      );
      expect(tables.rowCount).toBe(1);
    } finally {
      await db.close();
    }
  });

  test('a lock left by a dead process is taken over by the next svc command', async () => {
    const dir = project({ 'dbschema/default.esdl': USERS });
    const data = path.join(dir, 'data');
    seedEmbeddedFolder(data);
    const dead = Number(
      spawnSync(process.execPath, [
        '-e',
        'process.stdout.write(String(process.pid))',
      ]).stdout.toString(),
    );
    fs.mkdirSync(data, { recursive: true });
    fs.writeFileSync(
      path.join(data, LOCK_FILE_NAME),
      JSON.stringify({
        pid: dead,
        hostname: os.hostname(),
        startedAt: '2020-01-01T00:00:00.000Z',
        command: 'svc serve',
        url: 'http://127.0.0.1:9',
        token: 'stale',
      }),
    );
    const r = await runSvc(['migrate', '--data-dir', data], { cwd: dir, ms: FIRST_START_MS });
    expect(withoutFirstStart(r.stderr)).toBe('');
    expect(r.stdout).toMatch(/^Applied \d+ steps/);
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(data, LOCK_FILE_NAME))).toBe(false);
  });

  test('svc serve killed with -9 while writes are in flight: the folder opens again and every write answered 2xx is there', async () => {
    const dir = project({ 'dbschema/default.esdl': USERS });
    const data = path.join(dir, 'data');
    seedEmbeddedFolder(data);
    const env = cleanEnv({ SVC_JWT_SECRET: SECRET, SVC_SERVICE_KEY: SERVICE_KEY });
    const args = ['--port', '0', '--enable-auth', '--data-dir', data];
    const svc = await startSvc(args, { cwd: dir, env });

    const registered: string[] = [];
    const versions: string[] = [];
    let killed = false;
    const post = (route: string, body: unknown, auth = false) =>
      fetch(`${svc.url}${route}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(auth ? { authorization: `Bearer ${SERVICE_KEY}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const registerer = async (w: number) => {
      for (let i = 0; i < 1000 && !killed; i++) {
        const email = `user-${w}-${i}@example.com`;
        try {
          const res = await post('/auth/register', { email, password: 'a long passphrase 1' });
          if (res.ok) registered.push(email);
        } catch {
          return; // the server is gone
        }
      }
    };
    const migrator = async () => {
      let sdl = USERS;
      for (let i = 0; i < 200 && !killed; i++) {
        sdl += `type Thing${i} {\n  label: str;\n}\n`;
        try {
          const res = await post('/migrations', { schema: sdl }, true);
          if (res.ok) versions.push(((await res.json()) as { version: string }).version);
        } catch {
          return;
        }
      }
    };
    const workers = [...Array.from({ length: 6 }, (_, w) => registerer(w)), migrator()];
    // Kill once enough writes were answered; requests are in flight all along (7 workers).
    const deadline = Date.now() + 90_000;
    while ((registered.length < 40 || versions.length < 3) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    svc.child.kill('SIGKILL');
    killed = true;
    await svc.exited;
    await Promise.all(workers);
    expect(registered.length).toBeGreaterThanOrEqual(40);
    expect(versions.length).toBeGreaterThanOrEqual(3);
    expect(fs.existsSync(path.join(data, LOCK_FILE_NAME))).toBe(true); // kill -9 leaves it: stale

    // The next server takes the stale lock over and opens the folder.
    const again = await startSvc(args, { cwd: dir, env });
    try {
      const history = await json(`${again.url}/migrations`, {
        headers: { authorization: `Bearer ${SERVICE_KEY}` },
      });
      expect(history.status).toBe(200);
      const stored = new Set((history.body as { version: string }[]).map((m) => m.version));
      expect(versions.filter((v) => !stored.has(v))).toEqual([]);
    } finally {
      await stop(again);
    }
    const db = await openDatabase({ dataDir: data });
    try {
      const { rows } = await db.query<{ email: string }>('select email from svc_auth.users');
      const stored = new Set(rows.map((r) => r.email));
      expect(registered.filter((e) => !stored.has(e))).toEqual([]);
      await db.query('select count(*) from pg_class'); // the catalogue reads back whole
    } finally {
      await db.close();
    }
  });
});
