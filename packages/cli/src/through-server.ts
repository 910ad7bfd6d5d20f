import {
  DataDirLockedError,
  openDatabase,
  SvcError,
  type Database,
  type DatabaseConfig,
  type LockHolder,
  type OpenDatabaseOptions,
} from '@svc/core';
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

/**
 * Sends one request to the `svc serve` that holds an embedded data folder (the URL it wrote into
 * the folder's lock), with the service key when one is configured. Resolves with the JSON body of
 * a 2xx answer; an error envelope becomes the `SvcError` it describes, so the command reports it
 * as it would its own; a refused credential says what to set.
 */
export async function requestThroughServer(
  holder: HoldingServer,
  method: 'GET' | 'POST',
  route: string,
  body: unknown,
  serviceKey: string | undefined,
): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method === 'POST') headers['content-type'] = 'application/json';
  if (serviceKey !== undefined) headers.authorization = `Bearer ${serviceKey}`;
  let res: Response;
  try {
    res = await fetch(`${holder.url}${route}`, {
      method,
      headers,
      ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    throw new ExitError(
      1,
      `the data folder is held by ${holder.command} (pid ${holder.pid}), which serves ${holder.url}, but it cannot be reached (${why}); try again once it is up, or stop it`,
    );
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (res.ok) return json;
  const envelope = (json ?? {}) as {
    code?: unknown;
    error?: unknown;
    type?: unknown;
    hint?: unknown;
    extensions?: { position?: unknown };
  };
  const code = typeof envelope.code === 'string' ? envelope.code : `HTTP_${res.status}`;
  const full =
    typeof envelope.error === 'string' ? envelope.error : `${res.status} ${res.statusText}`;
  const message = full.startsWith(`${code}: `) ? full.slice(code.length + 2) : full;
  if (res.status === 401 || res.status === 403) {
    const has =
      serviceKey === undefined
        ? 'no service key is configured'
        : 'the configured service key was refused';
    throw new ExitError(
      1,
      `the server at ${holder.url} holds the data folder and refused the request (${code}: ${message}): ${has}; set SVC_SERVICE_KEY (or service_key in svc.toml) to the server's service key`,
    );
  }
  const position = envelope.extensions?.position as { line: number; column: number } | undefined;
  throw new SvcError(code, res.status, message, {
    ...(typeof envelope.type === 'string' ? { type: envelope.type } : {}),
    ...(typeof envelope.hint === 'string' ? { hint: envelope.hint } : {}),
    ...(position && typeof position.line === 'number' && typeof position.column === 'number'
      ? { position }
      : {}),
  });
}
