import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createServer, type CreateServerOptions, type SvcServer } from '../src';

export const SECRET = 'test-secret-0123456789-abcdefghijklmnop';

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

/** Starts a server on 127.0.0.1, port 0, with a silent logger unless one is given. */
export async function start(db: TestDatabase, options: CreateServerOptions = {}): Promise<SvcServer> {
  const server = await createServer({
    env: {},
    logLevel: 'silent',
    databaseInstance: db.db,
    ...options,
    // bcrypt at cost 4 keeps tests fast; the default (12) is tested in @svc/auth.
    ...(options.enableAuth ? { authConfig: { bcryptRounds: 4, ...options.authConfig } } : {}),
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return server;
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
export function rawRequest(url: string, chunks: Array<string | Buffer>, opts: { endAfterMs?: number; ms?: number } = {}): Promise<RawResponse> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${opts.ms ?? 5000} ms; got ${JSON.stringify(data)}`));
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
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '2',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ], { stdio: 'ignore' });
  return { cert: fs.readFileSync(path.join(dir, 'cert.pem')), key: fs.readFileSync(path.join(dir, 'key.pem')), dir };
}

/** A response body as JSON, typed loosely for assertions (fetch types it as unknown). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readJson(res: Response): Promise<any> {
  return res.json();
}

/**
 * Registers a fresh user through the real HTTP route and returns its access token; with roles,
 * assigns them and logs in again (roles are copied into tokens at issue time).
 */
export async function signUp(server: SvcServer, roles: string[] = []): Promise<string> {
  const email = `user-${randomUUID()}@example.com`;
  const password = 'correct horse battery staple';
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const registered = await post('/auth/register', { email, password });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
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
