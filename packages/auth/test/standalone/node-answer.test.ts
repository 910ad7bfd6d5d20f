/**
 * The Node adapter writes a JSON answer of this package's handler without making a Fetch
 * `Response` (http/handler `Answer`), and any other handler's `Response` as it is. Both ways
 * must put the same bytes on the wire: the same requests go to a listener over `auth.handler`
 * itself (the answer path) and to one over a wrapper of it (the `Response` path), and every
 * status, header (but `Date`) and body must match, the envelope's code for the access log
 * included.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorCodeOf } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createAuth, type Auth } from '../../src';
import { toNodeListener } from '../../src/express';

const SECRET = 'node-answer-secret-0123456789-abcdefghijk';
let t: TestDatabase;
let auth: Auth;
const servers: http.Server[] = [];
const codes = new Map<string, (string | undefined)[]>();

/** A node:http server over `listener` on a loopback port; records each answer's envelope code. */
async function serve(name: string, listener: ReturnType<typeof toNodeListener>): Promise<string> {
  codes.set(name, []);
  const server = http.createServer((req, res) => {
    res.on('finish', () => codes.get(name)?.push(errorCodeOf(res)));
    void listener(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const logger = { info: () => {}, warn: () => {}, error: () => {} };
  auth = await createAuth({ jwtSecret: SECRET, bcryptRounds: 4 }, { database: t.db, logger });
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await auth.close();
  await t.dispose();
});

async function exchange(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
  const headers = [...res.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive');
  return { status: res.status, headers, body: await res.text() };
}

test('an answer written as it is and the same answer through a Response are the same bytes', async () => {
  const direct = await serve('direct', toNodeListener(auth.handler));
  const wrapped = await serve(
    'wrapped',
    toNodeListener((request, info) => auth.handler(request, info)),
  );
  const registered = await fetch(`${direct}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ann@example.com', password: 'correct horse battery' }),
  });
  expect(registered.status).toBe(201);
  const { token } = (await registered.json()) as { token: string };
  const bearer = { authorization: `Bearer ${token}` };

  const requests: [string, RequestInit][] = [
    ['/auth/profile', { headers: bearer }], // 200, the caller's profile
    ['/auth/profile', { method: 'HEAD', headers: bearer }], // HEAD: headers, no body
    ['/auth/profile', {}], // 401 with its challenge
    ['/auth/profile', { headers: { authorization: 'Bearer not-a-token' } }], // 401 invalid_token
    ['/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }],
    ['/auth/login', { method: 'GET' }], // 405 with Allow
    ['/auth/no-such-route', {}], // 404
    ['/auth/sessions', { headers: bearer }], // 200, a list
  ];
  for (const [path, init] of requests) {
    const a = await exchange(direct, path, init);
    const b = await exchange(wrapped, path, init);
    expect([path, init.method ?? 'GET', a]).toEqual([path, init.method ?? 'GET', b]);
  }
  // The register above, then one answer per request on each side, with the same codes.
  expect(codes.get('direct')?.slice(1)).toEqual(codes.get('wrapped'));
  expect(codes.get('wrapped')).toEqual([
    undefined,
    undefined,
    'UNAUTHORIZED',
    'INVALID_TOKEN',
    'VALIDATION_ERROR',
    'METHOD_NOT_ALLOWED',
    'NOT_FOUND',
    undefined,
  ]);
});
