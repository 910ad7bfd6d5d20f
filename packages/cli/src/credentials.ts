/**
 * The tokens `svc login` keeps for a project: `.svc/credentials.json` in the project folder (the
 * folder `svc` runs in), one sign-in per server URL, each the superuser's access and refresh
 * tokens. What holds:
 *
 * - the file is written mode 0600 (through a temporary file of that mode, renamed over it) in a
 *   `.svc` folder made mode 0700 that ignores itself for git (`.svc/.gitignore`); a file that is
 *   not a plain file of this user's, or that others may read, is refused, never read;
 * - a stored token goes only to the URL it was issued by (the lookup is by that URL): a lock
 *   file naming another server never gets it;
 * - no token is ever printed, logged or put in an error message;
 * - a refresh, and any other rewrite of the file, runs under `withCredentialsLock`: the server
 *   rotates refresh tokens and ends a whole sign-in when a retired one is presented again, so two
 *   commands must never refresh with the same token. The second reads the file again under the
 *   lock and uses the tokens the first stored.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExitError } from './io';

/** One sign-in: who, and the tokens `POST /auth/login` (or `/auth/refresh`) answered. */
export interface StoredLogin {
  readonly email: string;
  readonly userId: string;
  readonly token: string;
  readonly refreshToken: string;
}

/** The file, by server URL (`serverUrl`'s form). */
type Logins = Record<string, StoredLogin>;

/** Where `svc login` keeps its tokens, for messages: relative to the project folder. */
export const CREDENTIALS_FILE = path.join('.svc', 'credentials.json');

/**
 * A server's address as credentials are bound to it: `http(s)://host[:port][/path]` with no
 * trailing slash, user, query or fragment. Plain `http` only to this machine: a password or a
 * token never crosses a network unencrypted.
 */
export function serverUrl(text: string, flag = '--url'): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ExitError(2, `${flag} ${JSON.stringify(text)} is not a URL (http://host:port)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ExitError(2, `${flag} must be an http:// or https:// URL`);
  if (url.username || url.password || url.search || url.hash)
    throw new ExitError(2, `${flag} takes the server's address only (no user, query or fragment)`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    throw new ExitError(
      2,
      `${flag} ${url.origin}: plain http is only for this machine; use https for another host`,
    );
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function isLoopback(host: string): boolean {
  return (
    host === 'localhost' ||
    host === '[::1]' ||
    host === '0.0.0.0' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** The stored sign-in for exactly this server URL, if any. */
export function storedLogin(projectDir: string, url: string): StoredLogin | undefined {
  const logins = readLogins(projectDir);
  return Object.hasOwn(logins, url) ? logins[url] : undefined;
}

/** The URLs there are sign-ins for. */
export function storedUrls(projectDir: string): string[] {
  return Object.keys(readLogins(projectDir));
}

/**
 * Stores (or, with `undefined`, forgets) the sign-in for `url`; the file goes with the last one.
 * Call it under `withCredentialsLock`: it reads the file, then writes it whole.
 */
export function saveLogin(projectDir: string, url: string, login: StoredLogin | undefined): void {
  const logins = readLogins(projectDir);
  if (login === undefined) delete logins[url];
  else logins[url] = login;
  const file = path.join(projectDir, CREDENTIALS_FILE);
  if (Object.keys(logins).length === 0) {
    fs.rmSync(file, { force: true });
    return;
  }
  const dir = svcFolder(projectDir);
  const tmp = path.join(dir, `.credentials.${process.pid}.${crypto.randomUUID()}.tmp`);
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, `${JSON.stringify({ servers: logins }, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** The project's `.svc` folder, made mode 0700 with a `.gitignore` of its own if missing. */
function svcFolder(projectDir: string): string {
  const dir = path.join(projectDir, path.dirname(CREDENTIALS_FILE));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // `.svc/` holds tokens and the embedded database: never committed, whatever the project's own
  // .gitignore says.
  try {
    fs.writeFileSync(path.join(dir, '.gitignore'), '*\n', { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return dir;
}

/** The lock file of `withCredentialsLock`, beside the credentials file. */
export const CREDENTIALS_LOCK = path.join('.svc', 'credentials.lock');

/**
 * The longest a holder of the lock works under it: the timeout of its one request (the refresh),
 * with the file read and written around it in milliseconds.
 */
export const CREDENTIALS_LOCK_WORK_MS = 10_000;
/** A lock older than this is stale, whoever holds it: twice what a holder may take. */
const LOCK_STALE_MS = 2 * CREDENTIALS_LOCK_WORK_MS;
/** How long a command waits for the lock: past the stale bound, so a stuck lock is taken over. */
const LOCK_WAIT_MS = LOCK_STALE_MS + 5_000;
const LOCK_POLL_MS = 25;

/**
 * Runs `work` holding the project's credentials lock (`.svc/credentials.lock`), so that of
 * several `svc` processes one at a time refreshes or rewrites the stored sign-ins. The lock is a
 * file created exclusively (O_EXCL) holding its owner's pid, host and a random token; it is
 * removed after `work` if it is still ours. A lock is stale, and taken over, once its process is
 * gone (on this host) or it is older than `LOCK_STALE_MS`; a command that cannot take it within
 * `LOCK_WAIT_MS` exits 1 saying so. `work` must take at most `CREDENTIALS_LOCK_WORK_MS`.
 */
export async function withCredentialsLock<T>(
  projectDir: string,
  work: () => Promise<T>,
): Promise<T> {
  svcFolder(projectDir);
  const file = path.join(projectDir, CREDENTIALS_LOCK);
  const mine = JSON.stringify({
    pid: process.pid,
    hostname: os.hostname(),
    token: crypto.randomUUID(),
  });
  const deadline = Date.now() + LOCK_WAIT_MS;
  // Bounded by the deadline, and by a count for a clock that stands still.
  for (let attempt = 0; !createLock(file, mine); attempt++) {
    if (Date.now() >= deadline || attempt > LOCK_WAIT_MS / LOCK_POLL_MS + 100)
      throw new ExitError(
        1,
        `another svc command has held ${CREDENTIALS_LOCK} (it refreshes the stored sign-in) for ${LOCK_WAIT_MS / 1000} s; try again, or delete that file if no svc command is running`,
      );
    const held = readLock(file);
    if (held !== undefined && isStale(held)) takeOver(file, held.text);
    else await sleep(LOCK_POLL_MS);
  }
  try {
    return await work();
  } finally {
    if (readLock(file)?.text === mine) fs.rmSync(file, { force: true });
  }
}

/** Creates the lock file with `text` exclusively: false when one exists. */
function createLock(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeFileSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

interface HeldLock {
  readonly text: string;
  readonly ageMs: number;
  /** Undefined while the file is being written (or was written by something else). */
  readonly owner: { readonly pid: number; readonly hostname: string } | undefined;
}

function readLock(file: string): HeldLock | undefined {
  try {
    const ageMs = Date.now() - fs.statSync(file).mtimeMs;
    const text = fs.readFileSync(file, 'utf8');
    let owner: HeldLock['owner'];
    try {
      const o = JSON.parse(text) as { pid?: unknown; hostname?: unknown };
      if (typeof o.pid === 'number' && typeof o.hostname === 'string')
        owner = { pid: o.pid, hostname: o.hostname };
    } catch {
      owner = undefined;
    }
    return { text, ageMs, owner };
  } catch {
    return undefined; // released meanwhile
  }
}

function isStale({ ageMs, owner }: HeldLock): boolean {
  if (ageMs > LOCK_STALE_MS) return true;
  if (owner === undefined || owner.hostname !== os.hostname() || owner.pid === process.pid)
    return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH'; // EPERM: alive, another user's
  }
}

/**
 * Removes the stale lock whose content was `staleText`, and only that one: it is moved aside
 * (atomic), then checked; a live lock placed meanwhile by a faster taker is put back.
 */
function takeOver(file: string, staleText: string): void {
  const aside = `${file}.${process.pid}.${crypto.randomUUID()}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return; // released or taken over meanwhile
  }
  try {
    if (fs.readFileSync(aside, 'utf8') !== staleText) fs.linkSync(aside, file);
  } catch {
    // EEXIST: yet another lock is in place; the one moved aside has lost its file either way
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function readLogins(projectDir: string): Logins {
  const file = path.join(projectDir, CREDENTIALS_FILE);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  const refuse = (why: string) =>
    new ExitError(
      1,
      `${CREDENTIALS_FILE} ${why}: not used; delete it and sign in again (svc login)`,
    );
  if (!stat.isFile()) throw refuse('is not a plain file');
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
    throw refuse('belongs to another user');
  if ((stat.mode & 0o077) !== 0)
    throw refuse(`may be read by others (mode ${(stat.mode & 0o777).toString(8)}, not 600)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw refuse('is not JSON');
  }
  const servers = (parsed as { servers?: unknown } | null)?.servers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw refuse('is not a credentials file');
  const logins: Logins = {};
  for (const [url, login] of Object.entries(servers)) {
    const l = login as Partial<StoredLogin> | null;
    if (
      typeof l?.email !== 'string' ||
      typeof l.userId !== 'string' ||
      typeof l.token !== 'string' ||
      typeof l.refreshToken !== 'string'
    )
      throw refuse('is not a credentials file');
    logins[url] = {
      email: l.email,
      userId: l.userId,
      token: l.token,
      refreshToken: l.refreshToken,
    };
  }
  return logins;
}

/**
 * Whether an access token expires within `marginMs` (read from its `exp` claim, unverified: the
 * server verifies; this only saves a refused request). A token without one never expires here.
 */
export function expiresSoon(token: string, marginMs = 30_000, now = Date.now()): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' && payload.exp * 1000 - now < marginMs;
  } catch {
    return false;
  }
}
