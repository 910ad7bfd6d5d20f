import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { AuthEvent } from '@svc/auth';
import type { QueryCaller, RunOptions } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createServer, type CreateServerOptions, type SvcServer } from '../src';
import { request, type InProcessInit } from '../src/testing';
import { checkServedAnswer } from './openapi-served';

export const SECRET = 'test-secret-0123456789-abcdefghijklmnop';

/**
 * The environment a test's server resolves its settings from: empty, but for
 * `SVC_SERVER_HOT_LANE`, passed on so that a whole run can turn the hot lane off (.ci/run runs
 * the data-plane suites both ways: routes/lane.ts).
 */
export function serverEnv(): Record<string, string> {
  const lane = process.env.SVC_SERVER_HOT_LANE;
  return lane === undefined ? {} : { SVC_SERVER_HOT_LANE: lane };
}

/** A pino logger whose lines land in an array, for asserting what is (not) logged. */
export function captureLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'trace' }, stream), lines };
}

/** One test database per file; servers under test borrow it. */
export function sharedDatabase(): { get: () => TestDatabase } {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.dispose();
  });
  return {
    get: () => {
      if (!t) throw new Error('database not ready');
      return t;
    },
  };
}

/**
 * A server that does not listen, with a silent logger unless one is given: drive it in-process
 * with `call(server, path)`. `close()` it all the same (auth's deliveries, the database).
 */
export async function build(
  db: TestDatabase,
  options: CreateServerOptions = {},
): Promise<SvcServer> {
  return createServer({
    env: serverEnv(),
    logLevel: 'silent',
    databaseInstance: db.db,
    ...options,
    // bcrypt at cost 4 keeps tests fast; the default (12) is tested in @svc/auth.
    ...(options.enableAuth ? { authConfig: { bcryptRounds: 4, ...options.authConfig } } : {}),
  });
}

/**
 * Records who each query the server runs (`/query` and REST alike) runs as: the access mode and
 * the auth values its engine is given.
 */
export function recordCallers(server: SvcServer): QueryCaller[] {
  const callers: QueryCaller[] = [];
  const engine = server.queryEngine;
  const run = engine.run.bind(engine);
  Object.assign(engine, {
    run: (request: Parameters<typeof run>[0], caller: QueryCaller, options?: RunOptions) => {
      callers.push(caller);
      return run(request, caller, options);
    },
  });
  return callers;
}

/** Starts a server on 127.0.0.1, port 0: for what needs a real socket (TLS, drain, several processes). */
export async function start(
  db: TestDatabase,
  options: CreateServerOptions = {},
): Promise<SvcServer> {
  const server = await build(db, options);
  await server.listen({ port: 0, host: '127.0.0.1' });
  return server;
}

/**
 * `POST /query` with `text` (and the request's other fields in `extra`), as the caller of
 * `token` (a bearer token or the service key) or anonymously: its status, its challenge
 * (`WWW-Authenticate`) and its body.
 */
export async function postQuery(
  server: SvcServer,
  text: string,
  token?: string,
  extra: Record<string, unknown> = {},
): Promise<{ status: number; challenge: string | null; body: Record<string, unknown> }> {
  const res = await call(server, '/query', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query: text, ...extra }),
  });
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

/**
 * One request to the server's app in-process (no socket), answered as a Fetch `Response`. Every
 * answer of an `/auth/...` route is checked against the OpenAPI document the server serves
 * (issue 13: every answer of the suite validates against it; fetched with the service key when
 * the server has one), unless REST, and so the document, is off.
 */
export async function call(
  server: SvcServer,
  path: string,
  init?: InProcessInit,
): Promise<Response> {
  const res = await request(server.app, path, init);
  if (path.startsWith('/auth/') && server.config.enableRest) {
    const text = await res.clone().text();
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = text;
    }
    await checkServedAnswer(
      server,
      {
        method: init?.method ?? 'GET',
        path,
        status: res.status,
        contentType: res.headers.get('content-type'),
        body,
      },
      server.config.serviceKey,
    );
  }
  return res;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes over a raw socket and reads the response until the server closes or `ms` pass.
 * For requests fetch() will not send: bodies that stop halfway, lying Content-Length.
 */
export function rawRequest(
  url: string,
  chunks: Array<string | Buffer>,
  opts: { endAfterMs?: number; ms?: number } = {},
): Promise<RawResponse> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no complete response within ${opts.ms ?? 5000} ms; got ${JSON.stringify(data)}`),
      );
    }, opts.ms ?? 5000);
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
    });
    socket.on('data', (d) => {
      data += d.toString('utf8');
      const parsed = parseResponse(data);
      if (parsed) {
        clearTimeout(timer);
        socket.destroy();
        resolve(parsed);
      }
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

function parseResponse(text: string): RawResponse | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...headerLines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const body = text.slice(end + 4);
  const length = Number(headers['content-length'] ?? 0);
  if (Buffer.byteLength(body) < length) return undefined;
  return { status: Number(statusLine?.split(' ')[1]), headers, body };
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with the openssl CLI. */
export function selfSignedCertificate(): { cert: Buffer; key: Buffer; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return {
    cert: fs.readFileSync(path.join(dir, 'cert.pem')),
    key: fs.readFileSync(path.join(dir, 'key.pem')),
    dir,
  };
}

/** A response body as JSON, typed loosely for assertions (fetch types it as unknown). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readJson(res: Response): Promise<any> {
  return res.json();
}

/**
 * Registers a fresh user through the real route (in-process, so the server need not listen) and
 * returns its access token; with roles, assigns them and logs in again (roles are copied into
 * tokens at issue time).
 */
export async function signUp(server: SvcServer, roles: string[] = []): Promise<string> {
  const email = `user-${randomUUID()}@example.com`;
  const password = 'correct horse battery staple';
  const post = (path: string, body: unknown) =>
    call(server, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const registered = await post('/auth/register', { email, password });
  if (registered.status !== 201)
    throw new Error(`register: ${registered.status} ${await registered.text()}`);
  if (roles.length === 0) return ((await registered.json()) as { token: string }).token;
  const auth = server.auth;
  if (!auth) throw new Error('auth is not enabled on this server');
  const existing = new Set((await auth.roles.list()).map((r) => r.name));
  for (const role of roles) {
    if (!existing.has(role)) await auth.roles.create(role);
    await auth.roles.assign(email, role);
  }
  const login = await post('/auth/login', { email, password });
  return ((await login.json()) as { token: string }).token;
}

/** An answer of an /auth route: status, headers and the JSON body (null when there is none). */
export interface AuthReply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface AuthClient {
  /** Any route; a JSON body (a string is sent as it is, for bytes `JSON.stringify` would not write). */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<AuthReply>;
  bearer(token: string): Record<string, string>;
  register(body: unknown): Promise<AuthReply>;
  login(body: Record<string, unknown>): Promise<AuthReply>;
  refresh(refreshToken: string): Promise<AuthReply>;
  profile(token: string): Promise<AuthReply>;
}

/** The /auth routes as a client calls them, in-process. */
export function authClient(server: SvcServer): AuthClient {
  const send = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<AuthReply> => {
    const res = await call(server, path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return {
      status: res.status,
      headers: res.headers,
      body: await readJson(res).catch(() => null),
    };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  return {
    call: send,
    bearer,
    register: (body: unknown) => send('POST', '/auth/register', body),
    login: (body: Record<string, unknown>) => send('POST', '/auth/login', body),
    refresh: (refreshToken: string) => send('POST', '/auth/refresh', { refreshToken }),
    profile: (token: string) => send('GET', '/auth/profile', undefined, bearer(token)),
  };
}

/** Events the auth instance emits, captured for tests (the way a webhook subscriber gets them). */
export function captureEvents(server: SvcServer): AuthEvent[] {
  const events: AuthEvent[] = [];
  server.auth!.on((e) => void events.push(e));
  return events;
}
