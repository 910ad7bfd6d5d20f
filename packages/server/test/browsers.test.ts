/**
 * Issue 8, "Browsers": CORS, CSRF for cookie-authenticated requests and security headers, over
 * real HTTP on the whole server (every route family, errors included).
 */
import { randomUUID } from 'node:crypto';
import https from 'node:https';
import type { Database } from '@svc/core';
import type { SvcServer } from '../src';
import { SECRET, readJson, selfSignedCertificate, sharedDatabase, signUp, start } from './helpers';

const db = sharedDatabase();
const APP = 'http://localhost:5173';
const PASSWORD = 'correct horse battery staple';
const accessControl = (res: Response) =>
  [...res.headers.keys()].filter((h) => h.startsWith('access-control-'));

async function register(server: SvcServer): Promise<string> {
  const res = await fetch(`${server.url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `b-${randomUUID()}@example.com`, password: PASSWORD }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}
const profileStatus = async (server: SvcServer, token: string) =>
  (await fetch(`${server.url}/auth/profile`, { headers: { authorization: `Bearer ${token}` } }))
    .status;

describe('CORS', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await start(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      cors: { origins: [APP, 'https://app.example.com'], credentials: true },
      bodyLimit: 1024,
    });
  });
  afterAll(() => server.close());

  // Before: OPTIONS /auth/login was 405, so no page on another origin could sign in.
  test('a preflight of POST /auth/login from a listed origin: 204 with the allow headers', async () => {
    const res = await fetch(`${server.url}/auth/login`, {
      method: 'OPTIONS',
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(res.headers.get('vary')).toContain('Origin');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('a preflight from an unlisted origin: 204 without CORS headers, on any path', async () => {
    for (const path of ['/auth/login', '/query', '/no/such/route']) {
      const res = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(res.status).toBe(204);
      expect(accessControl(res)).toEqual([]);
    }
  });

  test('the sign-in itself from a listed origin: Allow-Origin, credentials, Vary and the exposed headers', async () => {
    const email = `cors-${randomUUID()}@example.com`;
    await fetch(`${server.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const res = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  test('errors from every layer carry the CORS headers too, so the page can read them', async () => {
    const cases: Array<[string, RequestInit, number]> = [
      ['/no/such/route', {}, 404],
      ['/query', {}, 405],
      ['/auth/profile', {}, 401],
      ['/auth/nope', {}, 404],
      [
        '/query',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'x'.repeat(4096) }),
        },
        413,
      ],
    ];
    for (const [path, init, status] of cases) {
      const res = await fetch(`${server.url}${path}`, {
        ...init,
        headers: { ...(init.headers as object), origin: APP },
      });
      expect([path, res.status]).toEqual([path, status]);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      expect(res.headers.get('vary')).toContain('Origin');
    }
  });

  test('an unlisted origin gets no CORS headers on an actual request', async () => {
    const res = await fetch(`${server.url}/`, { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(accessControl(res)).toEqual([]);
  });

  test("origins ['*']: Allow-Origin *, no credentials", async () => {
    const open = await start(db.get(), { cors: { origins: ['*'] } });
    try {
      const pre = await fetch(`${open.url}/query`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://anyone.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      expect(pre.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      const res = await fetch(`${open.url}/health`, {
        headers: { origin: 'https://anyone.example' },
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await open.close();
    }
  });

  test('off when absent: no CORS headers, and an OPTIONS is 405 as before', async () => {
    const plain = await start(db.get());
    try {
      const res = await fetch(`${plain.url}/query`, {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'POST' },
      });
      expect(res.status).toBe(405);
      expect(accessControl(res)).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  test('a bad configuration refuses to start, naming the problem', async () => {
    await expect(start(db.get(), { cors: { origins: ['*'], credentials: true } })).rejects.toThrow(
      /origins '\*' cannot go with credentials/,
    );
    await expect(
      start(db.get(), { cors: { origins: ['https://app.example.com/'] } }),
    ).rejects.toThrow(/"https:\/\/app\.example\.com\/"/);
  });
});

// The attack: a page on another site posts to the server (a text/plain body needs no preflight)
// and the browser attaches the victim's auth_token cookie. Before: the logout below succeeded.
describe('CSRF: state-changing requests authenticated by the auth_token cookie', () => {
  let server: SvcServer;
  const LISTED = 'https://app.example.com';
  beforeAll(async () => {
    server = await start(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { cookie: true },
      cors: { origins: [LISTED], credentials: true },
    });
  });
  afterAll(() => server.close());

  const logout = (token: string, headers: Record<string, string>) =>
    fetch(`${server.url}/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie: `auth_token=${token}`, ...headers },
      body: 'x',
    });

  test('a cross-site text/plain POST /auth/logout with only the cookie: 403 ACCESS_DENIED, session still live', async () => {
    const token = await register(server);
    const res = await logout(token, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(res.status).toBe(403);
    expect(await readJson(res)).toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await profileStatus(server, token)).toBe(200);
    const bySite = await logout(token, { 'sec-fetch-site': 'cross-site' });
    expect(bySite.status).toBe(403);
    expect(await profileStatus(server, token)).toBe(200);
  });

  test('the same origin, a listed origin and a client without browser headers may', async () => {
    for (const headers of [
      { origin: server.url, 'sec-fetch-site': 'same-origin' },
      { origin: LISTED, 'sec-fetch-site': 'cross-site' },
      {},
    ] as Array<Record<string, string>>) {
      const token = await register(server);
      const res = await logout(token, headers);
      expect(res.status).toBe(200);
      expect(await profileStatus(server, token)).toBe(401);
    }
  });

  test('a bearer token is not affected, whatever the Origin', async () => {
    const token = await register(server);
    const res = await fetch(`${server.url}/auth/logout`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    });
    expect(res.status).toBe(200);
  });

  test('the data plane applies the same rule: /query and /migrations', async () => {
    const token = await signUp(server, ['superuser']);
    const cookie = `auth_token=${token}`;
    const post = (path: string, body: unknown, origin?: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...(origin ? { origin } : {}) },
        body: JSON.stringify(body),
      });
    const refused = await post('/query', { query: 'select 1' }, 'https://evil.example');
    expect(refused.status).toBe(403);
    expect(await readJson(refused)).toMatchObject({
      code: 'ACCESS_DENIED',
      error: expect.stringContaining('cross-site request refused'),
    });
    // Same origin: the request goes on to the handler.
    expect((await post('/query', { query: 'select 1' }, server.url)).status).toBe(200);

    const sdl = `type Csrf${randomUUID().replace(/-/g, '')} { name: str; }`;
    const forged = await post('/migrations', { schema: sdl }, 'https://evil.example');
    expect(forged.status).toBe(403);
    expect(await readJson(forged)).toMatchObject({
      code: 'ACCESS_DENIED',
      error: expect.stringContaining('cross-site request refused'),
    });
    const schema = await fetch(`${server.url}/schema`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await readJson(schema)).sdl).not.toContain('Csrf');
    const own = await post('/migrations', { schema: sdl, dryRun: true }, server.url);
    expect(own.status).toBe(200);
    // Reads are not state-changing: a cookie GET from a foreign page is answered (CORS decides who may read it).
    expect(
      (await fetch(`${server.url}/schema`, { headers: { cookie, origin: 'https://evil.example' } }))
        .status,
    ).toBe(200);
  });
});

describe('security headers on every response', () => {
  const expectHeaders = (res: Response, where: string) => {
    expect([
      where,
      res.headers.get('x-content-type-options'),
      res.headers.get('referrer-policy'),
    ]).toEqual([where, 'nosniff', 'no-referrer']);
    expect([where, res.headers.get('strict-transport-security')]).toEqual([where, null]);
  };

  test('success, errors of every layer (404, 405, 401, 413, 500) and /auth/*', async () => {
    // A database that fails in a way nobody expected: its errors must become a 500 envelope.
    let broken = false;
    const real = db.get().db;
    const flaky = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === 'query' && broken)
          return async () => Promise.reject(new Error('connection reset by peer'));
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Database;
    const server = await start(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      bodyLimit: 1024,
      databaseInstance: flaky,
    });
    try {
      const cases: Array<[string, RequestInit, number]> = [
        ['/', {}, 200],
        ['/no/such/route', {}, 404],
        ['/query', {}, 405],
        ['/stats', { headers: { authorization: 'Bearer junk' } }, 401],
        [
          '/query',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: 'x'.repeat(4096) }),
          },
          413,
        ],
        [
          '/auth/register',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'x'.repeat(4096) }),
          },
          413,
        ],
        ['/auth/nope', {}, 404],
        ['/auth/login', { method: 'GET' }, 405],
        ['/metrics', {}, 200],
      ];
      for (const [path, init, status] of cases) {
        const res = await fetch(`${server.url}${path}`, init);
        expect([path, res.status]).toEqual([path, status]);
        expectHeaders(res, path);
      }
      broken = true;
      const failed = await fetch(`${server.url}/schema`);
      expect(failed.status).toBe(500);
      expect(await readJson(failed)).toEqual({
        code: 'INTERNAL_ERROR',
        error: 'INTERNAL_ERROR: an unexpected error occurred',
      });
      expectHeaders(failed, '/schema (500)');
    } finally {
      broken = false;
      await server.close();
    }
  });

  test('HSTS under TLS', async () => {
    const { cert, key } = selfSignedCertificate();
    const server = await start(db.get(), { tls: { cert, key } });
    try {
      for (const path of ['/', '/no/such/route']) {
        const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
          https
            .get(`${server.url}${path}`, { ca: cert }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.headers));
            })
            .on('error', reject);
        });
        expect([path, headers['strict-transport-security']]).toEqual([
          path,
          'max-age=31536000; includeSubDomains',
        ]);
        expect(headers['x-content-type-options']).toBe('nosniff');
      }
    } finally {
      await server.close();
    }
  });
});
