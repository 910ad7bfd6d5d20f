import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { base32Decode, hotp } from '@svc/auth';
import { LOCK_FILE_NAME } from '@svc/core';
import { seedEmbeddedFolder } from '@svc/test-support';
import { FIRST_START_MS, cleanEnv, runInTerminal, runSvc, startSvc, type Running } from './svc';

// `svc admin` through the `svc serve` holding an embedded data folder, and the credentials of the
// commands that go to a server: the service key, a superuser's token (--token, SVC_TOKEN), or
// the sign-in `svc login` keeps in .svc/credentials.json (issue 31). The subject is the embedded
// folder's holder, so these use PGlite whatever SVC_TEST_DB says (with a PostgreSQL URL every
// command opens the database itself and no server is involved).

const SECRET = 'cli-remote-secret-0123456789-abcdefghij';
const SERVICE_KEY = 'cli-remote-service-key-0123456789-abcdefg';
const ROOT_PW = 'root password 1';
const ANN_PW = 'ann password 12';
const USERS = 'type User {\n  required name: str;\n}\n';
const POSTS = 'type Post {\n  required title: str;\n}\n';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+Z)?/g;

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A project with a schema and, unless `{ database: false }`, its embedded database made already:
 * what these tests check comes after the first start (config-and-start.pglite.test.ts checks that).
 */
function project({ database = true } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-remote-'));
  made.push(dir);
  fs.mkdirSync(path.join(dir, 'dbschema'));
  fs.writeFileSync(path.join(dir, 'dbschema', 'default.esdl'), USERS);
  if (database) seedEmbeddedFolder(path.join(dir, '.svc', 'data'));
  return dir;
}

const svcIn = (dir: string, args: string[], env: Record<string, string> = {}, input?: string) =>
  runSvc(args, {
    cwd: dir,
    env: cleanEnv({ SVC_JWT_SECRET: SECRET, ...env }),
    ms: FIRST_START_MS,
    ...(input !== undefined ? { input } : {}),
  });

/** `svc admin create-superuser root@example.com` on the project's database. */
const createRoot = (dir: string) =>
  svcIn(dir, ['admin', 'create-superuser', 'root@example.com', '--password', ROOT_PW]);

async function stop(svc: Running): Promise<void> {
  svc.child.kill('SIGTERM');
  expect(await svc.exited).toBe(0);
}

async function signIn(url: string, email: string, password: string) {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; refreshToken: string };
}

const credentialsOf = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, '.svc', 'credentials.json'), 'utf8')) as {
    servers: Record<string, { email: string; token: string; refreshToken: string }>;
  };

test('svc admin through the server holding the folder prints what it prints on the folder itself', async () => {
  // Two projects, one sequence of commands: on the first the commands open the folder, on the
  // second `svc serve` holds it and they go through its admin routes (with the service key).
  const direct = project();
  const held = project();
  for (const dir of [direct, held]) {
    const r = await createRoot(dir);
    expect(r.code).toBe(0);
  }
  const svc = await startSvc(['--port', '0', '--enable-auth'], {
    cwd: held,
    env: cleanEnv({ SVC_JWT_SECRET: SECRET, SVC_SERVICE_KEY: SERVICE_KEY }),
  });
  const through = `svc: the data folder is held by svc serve (pid ${svc.child.pid}): working through it at ${svc.url}\n`;
  const sequence: [string[], string?][] = [
    [['create-user', 'Bob@Example.com', '--password', 'bob password 12']],
    [['create-user', 'bob@example.com', '--password', 'bob password 12']],
    [['create-superuser', 'root2@example.com'], 'root2 password 1\n'],
    [['set-password', 'bob@example.com'], 'new bob password 1\n'],
    [['set-password', 'bob@example.com', '--password', 'short']],
    [['assign-role', 'bob@example.com', 'editor']],
    [['assign-role', 'bob@example.com', 'viewer', '--existing']],
    [['create-role', 'viewer', '--description', 'Views posts']],
    [['assign-role', 'bob@example.com', 'viewer', '--existing']],
    [['list-roles']],
    [['list-users', '--limit', '1', '--offset', '1']],
    [['list-users', '--json', '--limit', '2']],
    [['revoke-sessions', 'bob@example.com']],
    [['reset-mfa', 'bob@example.com']],
    [['reset-mfa', 'nobody@example.com']],
  ];
  try {
    for (const [args, input] of sequence) {
      const a = await svcIn(direct, ['admin', ...args], { SVC_SERVICE_KEY: SERVICE_KEY }, input);
      const b = await svcIn(held, ['admin', ...args], { SVC_SERVICE_KEY: SERVICE_KEY }, input);
      const same = (text: string) => text.replace(UUID, '<id>').replace(TIME, '<time>');
      expect(b.stderr.startsWith(through)).toBe(true);
      const bErr = b.stderr.slice(through.length);
      expect([args, b.code, same(b.stdout)]).toEqual([args, a.code, same(a.stdout)]);
      if (a.code === 0) expect([args, bErr]).toEqual([args, a.stderr]);
      // A refusal is the same error (its message may name the user the route was given).
      else expect([args, bErr.split(':')[1]]).toEqual([args, a.stderr.split(':')[1]]);
    }
  } finally {
    await stop(svc);
  }
  // Both folders hold the same now.
  const list = async (dir: string) =>
    (await svcIn(dir, ['admin', 'list-users'])).stdout.replace(UUID, '<id>').replace(TIME, '');
  expect(await list(held)).toBe(await list(direct));
}, 600_000);

describe('a superuser signed in with svc login, or a token, instead of the service key', () => {
  let dir: string;
  let svc: Running;
  beforeAll(async () => {
    dir = project();
    const root = await createRoot(dir);
    const ann = await svcIn(dir, ['admin', 'create-user', 'ann@example.com', '--password', ANN_PW]);
    expect([root.code, ann.code]).toEqual([0, 0]);
    // No service key: a credential must be a superuser's.
    svc = await startSvc(['--port', '0', '--enable-auth'], {
      cwd: dir,
      env: cleanEnv({ SVC_JWT_SECRET: SECRET }),
    });
  });
  afterAll(async () => {
    if (svc) await stop(svc);
  });
  const file = () => path.join(dir, '.svc', 'credentials.json');

  test('without one, migrate and admin are refused and say how to sign in', async () => {
    for (const args of [['migrate'], ['admin', 'list-users']]) {
      const r = await svcIn(dir, args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/refused the request \((UNAUTHORIZED|ACCESS_DENIED): [^)]*\)/);
      expect(r.stderr).toContain('or sign in as a superuser with svc login');
    }
  });

  test('a user who is no superuser, or a wrong password, is refused and nothing is stored', async () => {
    const ann = await svcIn(dir, ['login', '--email', 'ann@example.com'], {}, `${ANN_PW}\n`);
    expect(ann).toMatchObject({ code: 1, stdout: '' });
    expect(ann.stderr).toBe(
      'svc: ann@example.com is not a superuser: svc login is for superusers (migrations, admin commands); nothing was stored\n',
    );
    const wrong = await svcIn(dir, ['login', '--email', 'root@example.com'], {}, 'not it\n');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      `svc: ${svc.url} refused the sign-in (INVALID_CREDENTIALS: invalid email, username or password)\n`,
    );
    const noEmail = await svcIn(dir, ['login'], {}, `${ROOT_PW}\n`);
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toContain('give --email when the password comes from standard input');
    expect(fs.existsSync(file())).toBe(false);
  });

  test('svc login (password on stdin), then migrate, migration status, admin and query go through the server; logout ends it', async () => {
    const login = await svcIn(dir, ['login', '--email', 'root@example.com'], {}, `${ROOT_PW}\n`);
    expect(login.stderr).toBe('');
    expect(login.stdout).toBe(
      `Signed in to ${svc.url} as root@example.com (superuser); the tokens are in .svc/credentials.json (svc logout signs out).\n`,
    );
    expect(login.code).toBe(0);
    // Mode 600 in a folder git ignores; the tokens are for this server's URL only.
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, '.svc', '.gitignore'), 'utf8')).toBe('*\n');
    const stored = credentialsOf(dir).servers;
    expect(Object.keys(stored)).toEqual([svc.url]);
    const { token, refreshToken } = stored[svc.url]!;
    expect(token.split('.')).toHaveLength(3);

    fs.writeFileSync(path.join(dir, 'dbschema', 'posts.esdl'), POSTS);
    const outputs: string[] = [];
    const migrated = await svcIn(dir, ['migrate']);
    expect(migrated.stdout).toMatch(/^Applied \d+ steps? \(schema [0-9a-f]{12}\):/);
    expect(migrated.code).toBe(0);
    const status = await svcIn(dir, ['migration', 'status']);
    expect(status.code).toBe(0);
    const users = await svcIn(dir, ['admin', 'list-users']);
    expect(users.code).toBe(0);
    expect(users.stdout).toMatch(/^EMAIL +ID +ROLES/);
    expect(users.stdout).toContain('root@example.com');
    expect(users.stdout).toContain('ann@example.com');
    // As a superuser, no access policies: the query counts what is there.
    const query = await svcIn(dir, ['query', 'select count(Post)']);
    expect(query).toMatchObject({ code: 0, stdout: '[0]\n' });
    outputs.push(login.stdout, login.stderr, migrated.stdout, migrated.stderr, users.stderr);
    for (const text of outputs) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(refreshToken);
    }

    // An access token that has expired (as far as the CLI can tell) is refreshed first: both
    // tokens rotate and are stored again.
    const expired = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ exp: 1 }),
    ).toString('base64url')}.x`;
    const before = credentialsOf(dir);
    before.servers[svc.url] = { ...before.servers[svc.url]!, token: expired };
    fs.writeFileSync(file(), JSON.stringify(before), { mode: 0o600 });
    const roles = await svcIn(dir, ['admin', 'list-roles']);
    expect(roles).toMatchObject({ code: 0, stdout: 'superuser\tFull access\n' });
    const after = credentialsOf(dir).servers[svc.url]!;
    expect(after.token).not.toBe(expired);
    expect(after.refreshToken).not.toBe(refreshToken);
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);

    const out = await svcIn(dir, ['logout']);
    expect(out).toMatchObject({ code: 0, stderr: '', stdout: `Signed out of ${svc.url}.\n` });
    expect(fs.existsSync(file())).toBe(false);
    // The session is over on the server too.
    const res = await fetch(`${svc.url}/_/api/users`, {
      headers: { authorization: `Bearer ${after.token}` },
    });
    expect(res.status).toBe(401);
    expect((await svcIn(dir, ['admin', 'list-roles'])).code).toBe(1);
  }, 300_000);

  test('on a terminal: the email asked, the password and the TOTP code never shown', async () => {
    const made = await fetch(`${svc.url}/_/api/users`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(await signIn(svc.url, 'root@example.com', ROOT_PW)).token}`,
      },
      body: JSON.stringify({ email: 'mfa@example.com', password: ROOT_PW, superuser: true }),
    });
    expect(made.status).toBe(201);
    const { token } = await signIn(svc.url, 'mfa@example.com', ROOT_PW);
    const bearer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const enrolled = await fetch(`${svc.url}/auth/mfa/totp/enroll`, {
      method: 'POST',
      headers: bearer,
      body: '{}',
    });
    const key = base32Decode(((await enrolled.json()) as { secret: string }).secret) as Buffer;
    const step = () => Math.floor(Date.now() / 30_000);
    const confirmed = await fetch(`${svc.url}/auth/mfa/totp/confirm`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({ code: hotp(key, step()) }),
    });
    expect(confirmed.status).toBe(200);

    const term = runInTerminal(['login'], { cwd: dir, env: cleanEnv({ SVC_JWT_SECRET: SECRET }) });
    try {
      await term.waitFor(/Email: $/);
      term.type('mfa@example.com\r');
      await term.waitFor(/Password: $/);
      term.type(`${ROOT_PW}\r`);
      await term.waitFor(/TOTP code \(or a recovery code\): $/);
      // A step not used yet (the confirmation used this one), inside the server's window.
      const code = hotp(key, step() + 1);
      term.type(`${code}\r`);
      expect(await term.exited).toBe(0);
      expect(term.output()).toContain(`Signed in to ${svc.url} as mfa@example.com (superuser)`);
      expect(term.output()).toContain('mfa@example.com'); // the email is echoed as typed
      expect(term.output()).not.toContain(ROOT_PW);
      expect(term.output()).not.toContain(code);
    } finally {
      term.kill();
    }
    expect(credentialsOf(dir).servers[svc.url]?.email).toBe('mfa@example.com');
    const roles = await svcIn(dir, ['admin', 'list-roles']);
    expect(roles).toMatchObject({ code: 0, stdout: 'superuser\tFull access\n' });
    expect(await svcIn(dir, ['logout'])).toMatchObject({ code: 0 });
  }, 300_000);

  test('--token and SVC_TOKEN: a superuser’s token works, another user’s or a bad one is refused, never echoed', async () => {
    const { token } = await signIn(svc.url, 'root@example.com', ROOT_PW);
    const flag = await svcIn(dir, ['admin', 'list-roles', '--token', token]);
    expect(flag).toMatchObject({ code: 0, stdout: 'superuser\tFull access\n' });
    const env = await svcIn(dir, ['migration', 'log'], { SVC_TOKEN: token });
    expect(env.code).toBe(0);

    const ann = (await signIn(svc.url, 'ann@example.com', ANN_PW)).token;
    const refused = await svcIn(dir, ['admin', 'list-users', '--token', ann]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'refused the request (ACCESS_DENIED: the admin routes are for superusers): the token given with --token was refused',
    );
    const bad = 'not-a-token-but-a-secret-looking-string';
    const badRun = await svcIn(dir, ['migrate'], { SVC_TOKEN: bad });
    expect(badRun.code).toBe(1);
    expect(badRun.stderr).toContain('the token given with SVC_TOKEN was refused');
    for (const r of [refused, badRun]) {
      expect(r.stderr).not.toContain(ann);
      expect(r.stderr).not.toContain(bad);
    }
  });

  test('a stored token is never sent to another URL; a credentials file others may read is refused', async () => {
    await svcIn(dir, ['login', '--email', 'root@example.com'], {}, `${ROOT_PW}\n`);
    // Another project whose data folder's lock names another server (anyone could write one).
    const other = project({ database: false });
    fs.mkdirSync(path.join(other, '.svc', 'data'), { recursive: true });
    fs.copyFileSync(file(), path.join(other, '.svc', 'credentials.json'));
    fs.chmodSync(path.join(other, '.svc', 'credentials.json'), 0o600);
    const seen: (string | undefined)[] = [];
    const fake = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"code":"UNAUTHORIZED","error":"UNAUTHORIZED: sign in"}');
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    try {
      fs.writeFileSync(
        path.join(other, '.svc', 'data', LOCK_FILE_NAME),
        JSON.stringify({
          pid: process.pid,
          hostname: os.hostname(),
          startedAt: new Date().toISOString(),
          command: 'svc serve',
          url: fakeUrl,
          token: 'someone-else',
        }),
      );
      for (const args of [['admin', 'list-users'], ['migrate'], ['query', 'select 1']]) {
        const r = await svcIn(other, args);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(
          `(.svc/credentials.json has a sign-in for ${svc.url}, not for ${fakeUrl})`,
        );
      }
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(seen.every((h) => h === undefined)).toBe(true);
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }

    fs.chmodSync(file(), 0o644);
    const loose = await svcIn(dir, ['admin', 'list-roles']);
    expect(loose.code).toBe(1);
    expect(loose.stderr).toContain(
      '\nsvc: .svc/credentials.json may be read by others (mode 644, not 600): not used; delete it and sign in again (svc login)\n',
    );
    fs.chmodSync(file(), 0o600);
    expect((await svcIn(dir, ['logout'])).code).toBe(0);
  }, 300_000);
});

// Issue 31: two commands run at once (`svc admin list-users & svc migrate`) both found the
// stored access token expired and both refreshed with the same refresh token. The server rotates
// it, so one of them was refused, forgot the sign-in, and the stored login was over for every
// command after. Now the refresh runs under a lock beside credentials.json, and the second
// command, reading the file again under it, uses the tokens the first stored.
describe('concurrent commands refreshing one stored sign-in', () => {
  const TTL_SECONDS = 2;
  let dir: string;
  let svc: Running;
  beforeAll(async () => {
    dir = project();
    fs.writeFileSync(path.join(dir, 'svc.toml'), `[auth]\ntoken_expiry = ${TTL_SECONDS}\n`);
    const root = await createRoot(dir);
    expect(root.code).toBe(0);
    svc = await startSvc(['--port', '0', '--enable-auth'], {
      cwd: dir,
      env: cleanEnv({ SVC_JWT_SECRET: SECRET }),
    });
  });
  afterAll(async () => {
    if (svc) await stop(svc);
  });

  test('both succeed on the rotated tokens, and a third command after them still works', async () => {
    const login = await svcIn(dir, ['login', '--email', 'root@example.com'], {}, `${ROOT_PW}\n`);
    expect(login.code).toBe(0);
    const first = credentialsOf(dir).servers[svc.url]!;
    // Past the access token's lifetime: the server would refuse it as expired.
    await new Promise((resolve) => setTimeout(resolve, (TTL_SECONDS + 1) * 1000));
    const expired = await fetch(`${svc.url}/_/api/users`, {
      headers: { authorization: `Bearer ${first.token}` },
    });
    expect(expired.status).toBe(401);

    fs.writeFileSync(path.join(dir, 'dbschema', 'posts.esdl'), POSTS);
    const [users, migrated] = await Promise.all([
      svcIn(dir, ['admin', 'list-users']),
      svcIn(dir, ['migrate']),
    ]);
    expect(users.stderr).toBe(
      `svc: the data folder is held by svc serve (pid ${svc.child.pid}): working through it at ${svc.url}\n`,
    );
    expect(users).toMatchObject({ code: 0 });
    expect(users.stdout).toContain('root@example.com');
    expect(migrated.stderr).toContain('migrating through it');
    expect(migrated.stderr).not.toContain('has ended');
    expect(migrated.stdout).toMatch(/^Applied \d+ steps? \(schema [0-9a-f]{12}\):/);
    expect(migrated.code).toBe(0);

    // The sign-in lives on: rotated, stored, the lock gone.
    const after = credentialsOf(dir).servers[svc.url]!;
    expect(after.refreshToken).not.toBe(first.refreshToken);
    expect(fs.existsSync(path.join(dir, '.svc', 'credentials.lock'))).toBe(false);
    const roles = await svcIn(dir, ['admin', 'list-roles']);
    expect(roles).toMatchObject({ code: 0, stdout: 'superuser\tFull access\n' });
    // No refresh token was presented twice: the server saw no reuse.
    expect(svc.stdout() + svc.stderr()).not.toContain('refresh token reuse');
    expect(await svcIn(dir, ['logout'])).toMatchObject({ code: 0 });
  }, 300_000);
});
