import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CREDENTIALS_LOCK_WORK_MS,
  expiresSoon,
  saveLogin,
  serverUrl,
  storedLogin,
  storedUrls,
  withCredentialsLock,
} from './credentials';

const LOGIN = { email: 'root@example.com', userId: 'u1', token: 'a.b.c', refreshToken: 'r1' };

describe('serverUrl: the address credentials are bound to', () => {
  test('one form per server: no trailing slash, the origin as URL writes it', () => {
    expect(serverUrl('http://127.0.0.1:5656/')).toBe('http://127.0.0.1:5656');
    expect(serverUrl('HTTP://LOCALHOST:5656')).toBe('http://localhost:5656');
    expect(serverUrl('https://db.example.com/svc/')).toBe('https://db.example.com/svc');
    expect(serverUrl('https://db.example.com:443')).toBe('https://db.example.com');
    expect(serverUrl('http://[::1]:80')).toBe('http://[::1]');
  });

  test('refused: not a URL, another scheme, a user, a query, plain http to another host', () => {
    const refused = (text: string) => {
      try {
        serverUrl(text);
        return 'accepted';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(refused('localhost:5656')).toMatch(/must be an http:\/\/ or https:\/\/ URL/);
    expect(refused('nope')).toMatch(/is not a URL/);
    expect(refused('ftp://127.0.0.1')).toMatch(/http:\/\/ or https:\/\//);
    expect(refused('http://root:pw@127.0.0.1:5656')).toMatch(/address only/);
    expect(refused('http://127.0.0.1:5656/?x=1')).toMatch(/address only/);
    expect(refused('http://db.example.com:5656')).toMatch(
      /plain http is only for this machine; use https/,
    );
    expect(refused('http://127.0.0.1.example.com')).toMatch(/plain http is only for this machine/);
  });
});

describe('the credentials file', () => {
  let dir: string;
  const file = () => path.join(dir, '.svc', 'credentials.json');
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-credentials-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('written mode 600 in a .svc folder git ignores; a sign-in per URL; the last one removed takes the file', () => {
    expect(storedLogin(dir, 'http://127.0.0.1:1')).toBeUndefined();
    saveLogin(dir, 'http://127.0.0.1:1', LOGIN);
    saveLogin(dir, 'http://127.0.0.1:2', { ...LOGIN, token: 'x.y.z' });
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file())).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(path.join(dir, '.svc', '.gitignore'), 'utf8')).toBe('*\n');
    expect(storedLogin(dir, 'http://127.0.0.1:1')).toEqual(LOGIN);
    expect(storedLogin(dir, 'http://127.0.0.1:2')?.token).toBe('x.y.z');
    expect(storedLogin(dir, 'http://127.0.0.1:3')).toBeUndefined();
    expect(storedLogin(dir, 'toString')).toBeUndefined();
    saveLogin(dir, 'http://127.0.0.1:1', undefined);
    expect(storedUrls(dir)).toEqual(['http://127.0.0.1:2']);
    saveLogin(dir, 'http://127.0.0.1:2', undefined);
    expect(fs.existsSync(file())).toBe(false);
    // No temporary file is left behind.
    expect(fs.readdirSync(path.join(dir, '.svc')).sort()).toEqual(['.gitignore']);
  });

  test('refused, never read: readable by others, a symbolic link, not JSON, not a credentials file', () => {
    saveLogin(dir, 'http://127.0.0.1:1', LOGIN);
    fs.chmodSync(file(), 0o640);
    expect(() => storedLogin(dir, 'http://127.0.0.1:1')).toThrow(
      '.svc/credentials.json may be read by others (mode 640, not 600): not used; delete it and sign in again (svc login)',
    );
    // Nor written over: a store that would keep tokens in a readable file refuses.
    expect(() => saveLogin(dir, 'http://127.0.0.1:2', LOGIN)).toThrow(/may be read by others/);

    fs.rmSync(file());
    const elsewhere = path.join(dir, 'elsewhere.json');
    fs.writeFileSync(elsewhere, JSON.stringify({ servers: {} }), { mode: 0o600 });
    fs.symlinkSync(elsewhere, file());
    expect(() => storedLogin(dir, 'http://127.0.0.1:1')).toThrow(/is not a plain file/);

    fs.rmSync(file());
    fs.writeFileSync(file(), '{', { mode: 0o600 });
    expect(() => storedUrls(dir)).toThrow(/is not JSON/);
    fs.writeFileSync(file(), JSON.stringify({ servers: { x: { email: 1 } } }));
    expect(() => storedUrls(dir)).toThrow(/is not a credentials file/);
  });
});

test('expiresSoon reads the exp claim (unverified), with a margin; no claim or no JWT never expires', () => {
  const jwt = (claims: object) =>
    `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
  const now = 1_800_000_000_000;
  expect(expiresSoon(jwt({ exp: now / 1000 - 1 }), 30_000, now)).toBe(true);
  expect(expiresSoon(jwt({ exp: now / 1000 + 10 }), 30_000, now)).toBe(true);
  expect(expiresSoon(jwt({ exp: now / 1000 + 60 }), 30_000, now)).toBe(false);
  expect(expiresSoon(jwt({}), 30_000, now)).toBe(false);
  expect(expiresSoon('not a token', 30_000, now)).toBe(false);
});

describe('withCredentialsLock: one svc process at a time refreshes or rewrites the sign-ins', () => {
  let dir: string;
  const lock = () => path.join(dir, '.svc', 'credentials.lock');
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-credentials-lock-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test('holders run one after the other; the lock file is gone after each, even after a failure', async () => {
    const log: string[] = [];
    const holder = (name: string) =>
      withCredentialsLock(dir, async () => {
        log.push(`${name} in`);
        expect(fs.existsSync(lock())).toBe(true);
        await pause(50);
        log.push(`${name} out`);
        if (name === 'b') throw new Error('b failed');
        return name;
      });
    const results = await Promise.allSettled([holder('a'), holder('b'), holder('c')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    for (let i = 0; i < log.length; i += 2) {
      expect(log[i]?.endsWith(' in')).toBe(true);
      expect(log[i + 1]).toBe(`${log[i]?.slice(0, 1)} out`);
    }
    expect(log).toHaveLength(6);
    expect(fs.existsSync(lock())).toBe(false);
    // The folder is made as saveLogin makes it: private, ignored by git.
    expect(fs.statSync(path.join(dir, '.svc')).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(path.join(dir, '.svc', '.gitignore'), 'utf8')).toBe('*\n');
  });

  test('a lock left by a process that is gone is taken over at once', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    fs.mkdirSync(path.join(dir, '.svc'));
    fs.writeFileSync(lock(), JSON.stringify({ pid: gone, hostname: os.hostname(), token: 'x' }));
    const started = Date.now();
    expect(await withCredentialsLock(dir, async () => 'mine')).toBe('mine');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fs.existsSync(lock())).toBe(false);
  });

  test('a lock of a live process is waited for, and taken over once older than the stale bound', async () => {
    fs.mkdirSync(path.join(dir, '.svc'));
    // This process is alive: only age makes its lock stale.
    const live = JSON.stringify({ pid: process.ppid, hostname: os.hostname(), token: 'y' });
    fs.writeFileSync(lock(), live);
    let ran = false;
    const waiting = withCredentialsLock(dir, async () => {
      ran = true;
    });
    await pause(300);
    expect(ran).toBe(false);
    expect(fs.readFileSync(lock(), 'utf8')).toBe(live);
    const old = new Date(Date.now() - 2 * CREDENTIALS_LOCK_WORK_MS - 1_000);
    fs.utimesSync(lock(), old, old);
    await waiting;
    expect(ran).toBe(true);
    expect(fs.existsSync(lock())).toBe(false);
  });
});
