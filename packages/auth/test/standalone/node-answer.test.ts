/**
 * The Node adapter gives a handler of this package a plain request (http/request `AuthRequest`)
 * and writes its JSON answer without a Fetch `Response` (http/handler `Answer`); any other
 * handler gets a `Request` and answers a `Response`. Both ways must put the same bytes on the
 * wire: the same requests go to a listener over `auth.handler` itself and to one over a wrapper
 * of it, and every status, header (but `Date`) and body must match, the envelope's code for the
 * access log included; and again behind Express's JSON parser, whose parsed body the adapter
 * sends on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { errorCodeOf } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createAuth, type Auth } from '../../src';
import { toNodeListener } from '../../src/express';

const SECRET = 'node-answer-secret-0123456789-abcdefghijk';
let t: TestDatabase;
let auth: Auth;
const servers: http.Server[] = [];
const codes = new Map<string, (string | undefined)[]>();

/**
 * A node:http server over `listener` on a loopback port (behind Express's JSON parser with
 * `parsed`); records each answer's envelope code.
 */
async function serve(
  name: string,
  listener: ReturnType<typeof toNodeListener>,
  parsed = false,
): Promise<string> {
  codes.set(name, []);
  const app = express();
  if (parsed) app.use(express.json());
  app.use((req, res, next) => {
    res.on('finish', () => codes.get(name)?.push(errorCodeOf(res)));
    void listener(req, res, next);
  });
  const server = http.createServer(app);
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

test.each([
  ['raw bodies', false],
  ["bodies parsed by Express's JSON parser", true],
])(
  'an answer written as it is and the same answer through a Response are the same bytes: %s',
  async (_name, parsed) => {
    codes.clear();
    const direct = await serve('direct', toNodeListener(auth.handler), parsed);
    const wrapped = await serve(
      'wrapped',
      toNodeListener((request, info) => auth.handler(request, info)),
      parsed,
    );
    const registered = await fetch(`${direct}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `ann-${parsed}@example.com`,
        password: 'correct horse battery',
      }),
    });
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    const bearer = { authorization: `Bearer ${token}` };

    const json = { 'content-type': 'application/json' };
    const login = (body: string, headers: Record<string, string> = json): RequestInit => ({
      method: 'POST',
      headers,
      body,
    });
    const requests: [string, RequestInit][] = [
      ['/auth/profile', { headers: bearer }], // 200, the caller's profile
      ['/auth/profile', { method: 'HEAD', headers: bearer }], // HEAD: headers, no body
      ['/auth/profile', {}], // 401 with its challenge
      ['/auth/profile', { headers: { authorization: 'Bearer not-a-token' } }], // 401 invalid_token
      ['/auth/login', login('{')], // 400, not JSON (Express's parser answers it itself)
      ['/auth/login', login('{"email": "nobody@example.com", "password": "wrong password 1"}')],
      ['/auth/login', login('[1]')], // 400, not an object
      ['/auth/login', login('{"email": 1}', { 'content-type': 'text/plain' })], // 415
      ['/auth/login', login('\ufeff{"email": "x@example.com"}')], // a byte-order mark
      ['/auth/login', login('')], // no body
      ['/auth/magic-link/verify', login('{"token": "not-a-token"}')],
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
    expect(codes.get('wrapped')?.slice(0, 4)).toEqual([
      undefined,
      undefined,
      'UNAUTHORIZED',
      'INVALID_TOKEN',
    ]);
  },
);
