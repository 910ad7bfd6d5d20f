import {
  DataDirLockedError,
  openDatabase,
  SvcError,
  type Database,
  type DatabaseConfig,
  type LockHolder,
  type OpenDatabaseOptions,
} from '@svc/core';
import {
  CREDENTIALS_FILE,
  CREDENTIALS_LOCK_WORK_MS,
  expiresSoon,
  saveLogin,
  serverUrl,
  storedLogin,
  storedUrls,
  withCredentialsLock,
  type StoredLogin,
} from './credentials';
import { asExitError } from './failure';
import { ExitError } from './io';

/** A running `svc serve` that holds an embedded data folder, and the URL it serves. */
export type HoldingServer = LockHolder & { url: string };

/**
 * Opens the command's database; when a running `svc serve` holds the embedded folder, answers
 * that server instead, so the command can work through it. Any other failure is the command's
 * exit error, naming where the database setting came from (`source`).
 */
export async function openOrFindServer(
  database: DatabaseConfig,
  source: string,
  options: OpenDatabaseOptions = {},
): Promise<{ readonly db: Database } | { readonly server: HoldingServer }> {
  try {
    return { db: await openDatabase(database, options) };
  } catch (err) {
    const holder = err instanceof DataDirLockedError ? err.holder : undefined;
    if (holder?.url === undefined) throw asExitError(err, source);
    return { server: { ...holder, url: holder.url } };
  }
}

/** How long a command waits for the server it works through (a migration may take a while). */
const REQUEST_TIMEOUT_MS = 120_000;

/** The flag of every command that may work through a server: a superuser's access token. */
export const SERVER_FLAGS = { token: { type: 'string' } } as const;

/**
 * What a command sends to the server it works through, first found first: a superuser's access
 * token (`--token`, else `SVC_TOKEN`), the service key (`SVC_SERVICE_KEY` or `service_key`), or
 * the sign-in `svc login` stored in the project for that server's URL.
 */
export interface ServerCredentials {
  readonly token: { readonly value: string; readonly source: '--token' | 'SVC_TOKEN' } | undefined;
  readonly serviceKey: string | undefined;
  /** The project folder, whose `.svc/credentials.json` holds `svc login`'s tokens. */
  readonly projectDir: string;
}

/** A command's `ServerCredentials` from its `--token`, environment and configuration. */
export function serverCredentials(
  values: { readonly token?: string | undefined },
  serviceKey: string | undefined,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): ServerCredentials {
  if (values.token === '') throw new ExitError(2, '--token needs a token');
  const token =
    values.token !== undefined
      ? { value: values.token, source: '--token' as const }
      : env.SVC_TOKEN
        ? { value: env.SVC_TOKEN, source: 'SVC_TOKEN' as const }
        : undefined;
  return { token, serviceKey, projectDir: cwd };
}

/** One answer of a server: its status and JSON body (undefined when there is none). */
export interface ServerAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly json: unknown;
}

/**
 * One request to a server at `url`, with `bearer` as its credential when given, given up after
 * `timeoutMs`. A server that cannot be reached is the ExitError `unreachable` words from the
 * reason.
 */
export async function callServer(
  url: string,
  method: 'GET' | 'POST',
  route: string,
  body: unknown,
  bearer: string | undefined,
  unreachable: (why: string) => string,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<ServerAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method === 'POST') headers['content-type'] = 'application/json';
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
  let res: Response;
  try {
    res = await fetch(`${url}${route}`, {
      method,
      headers,
      ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ExitError(1, unreachable(cause?.code ?? cause?.message ?? (err as Error).message));
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, statusText: res.statusText, json };
}

/** A refused answer's error envelope as the `SvcError` it describes. */
export function answerError(answer: ServerAnswer): SvcError {
  const envelope = (answer.json ?? {}) as {
    code?: unknown;
    error?: unknown;
    type?: unknown;
    hint?: unknown;
    extensions?: { position?: unknown };
  };
  const code = typeof envelope.code === 'string' ? envelope.code : `HTTP_${answer.status}`;
  const full =
    typeof envelope.error === 'string' ? envelope.error : `${answer.status} ${answer.statusText}`;
  const message = full.startsWith(`${code}: `) ? full.slice(code.length + 2) : full;
  const position = envelope.extensions?.position as { line: number; column: number } | undefined;
  return new SvcError(code, answer.status, message, {
    ...(typeof envelope.type === 'string' ? { type: envelope.type } : {}),
    ...(typeof envelope.hint === 'string' ? { hint: envelope.hint } : {}),
    ...(position && typeof position.line === 'number' && typeof position.column === 'number'
      ? { position }
      : {}),
  });
}

/**
 * Exchanges a stored sign-in's refresh token for new tokens (`POST /auth/refresh`, which rotates
 * both) and stores them; a refused refresh forgets the sign-in and says to sign in again.
 *
 * Under the credentials lock, and with the file read again there: when another command has
 * refreshed since `login` was read, its tokens are the live ones and are used as they are. Sending
 * the retired refresh token instead would be refused, and after a few seconds taken by the server
 * for a replayed token, which ends the whole sign-in (@svc/auth, reuse detection).
 */
export async function refreshLogin(
  projectDir: string,
  url: string,
  login: StoredLogin,
): Promise<StoredLogin> {
  return withCredentialsLock(projectDir, async () => {
    const stored = storedLogin(projectDir, url);
    if (stored === undefined)
      throw new ExitError(
        1,
        `the sign-in of ${login.email} at ${url} has ended (signed out meanwhile); sign in again: svc login`,
      );
    if (stored.refreshToken !== login.refreshToken) return stored;
    const answer = await callServer(
      url,
      'POST',
      '/auth/refresh',
      { refreshToken: login.refreshToken },
      undefined,
      (why) => `cannot reach ${url} to refresh the sign-in of ${login.email} (${why})`,
      CREDENTIALS_LOCK_WORK_MS,
    );
    const tokens = answer.json as { token?: unknown; refreshToken?: unknown } | undefined;
    if (
      answer.status !== 200 ||
      typeof tokens?.token !== 'string' ||
      typeof tokens.refreshToken !== 'string'
    ) {
      const err = answerError(answer);
      if (answer.status === 401 || answer.status === 403) saveLogin(projectDir, url, undefined);
      throw new ExitError(
        1,
        `the sign-in of ${login.email} at ${url} has ended (${err.code}: ${err.message}); sign in again: svc login`,
      );
    }
    const renewed = { ...stored, token: tokens.token, refreshToken: tokens.refreshToken };
    saveLogin(projectDir, url, renewed);
    return renewed;
  });
}

/** `serverUrl` for a URL read from a lock file: undefined when it is no address to sign in to. */
function boundUrl(url: string): string | undefined {
  try {
    return serverUrl(url);
  } catch {
    return undefined;
  }
}

/**
 * Sends one request to the `svc serve` that holds an embedded data folder (the URL it wrote into
 * the folder's lock), with the command's credential (`ServerCredentials`); a stored sign-in
 * about to expire, or refused as expired, is refreshed once. Resolves with the JSON body of a 2xx
 * answer; an error envelope becomes the `SvcError` it describes, so the command reports it as it
 * would its own; a refused credential says what to set.
 */
export async function requestThroughServer(
  holder: HoldingServer,
  method: 'GET' | 'POST',
  route: string,
  body: unknown,
  credentials: ServerCredentials,
): Promise<unknown> {
  const unreachable = (why: string) =>
    `the data folder is held by ${holder.command} (pid ${holder.pid}), which serves ${holder.url}, but it cannot be reached (${why}); try again once it is up, or stop it`;
  const send = (bearer: string | undefined) =>
    callServer(holder.url, method, route, body, bearer, unreachable);

  let answer: ServerAnswer;
  let used: string;
  if (credentials.token !== undefined) {
    used = `the token given with ${credentials.token.source} was refused`;
    answer = await send(credentials.token.value);
  } else if (credentials.serviceKey !== undefined) {
    used = 'the configured service key was refused';
    answer = await send(credentials.serviceKey);
  } else {
    // A stored token goes to the URL it was issued by, and nowhere else.
    const url = boundUrl(holder.url);
    let login = url === undefined ? undefined : storedLogin(credentials.projectDir, url);
    if (url === undefined || login === undefined) {
      const others = storedUrls(credentials.projectDir);
      used = `no credential is configured${others.length ? ` (${CREDENTIALS_FILE} has a sign-in for ${others.join(', ')}, not for ${holder.url})` : ''}: set SVC_SERVICE_KEY (or service_key in svc.toml) to the server's service key, give a superuser's token (--token or SVC_TOKEN), or sign in as a superuser with svc login`;
      answer = await send(undefined);
    } else {
      used = `the sign-in of ${login.email} stored for ${url} was refused; sign in again with svc login`;
      if (expiresSoon(login.token)) login = await refreshLogin(credentials.projectDir, url, login);
      answer = await send(login.token);
      if (answer.status === 401 && answerError(answer).code === 'TOKEN_EXPIRED') {
        login = await refreshLogin(credentials.projectDir, url, login);
        answer = await send(login.token);
      }
    }
  }
  if (answer.status >= 200 && answer.status < 300) return answer.json;
  const err = answerError(answer);
  if (answer.status === 401 || answer.status === 403) {
    throw new ExitError(
      1,
      `the server at ${holder.url} holds the data folder and refused the request (${err.code}: ${err.message}): ${used}`,
    );
  }
  throw err;
}
