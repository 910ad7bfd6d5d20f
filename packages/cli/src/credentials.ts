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
 * - no token is ever printed, logged or put in an error message.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
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

/** Stores (or, with `undefined`, forgets) the sign-in for `url`; the file goes with the last one. */
export function saveLogin(projectDir: string, url: string, login: StoredLogin | undefined): void {
  const logins = readLogins(projectDir);
  if (login === undefined) delete logins[url];
  else logins[url] = login;
  const file = path.join(projectDir, CREDENTIALS_FILE);
  if (Object.keys(logins).length === 0) {
    fs.rmSync(file, { force: true });
    return;
  }
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // `.svc/` holds tokens and the embedded database: never committed, whatever the project's own
  // .gitignore says.
  try {
    fs.writeFileSync(path.join(dir, '.gitignore'), '*\n', { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
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
