/**
 * @svc/auth without @svc/server: mounted in a bare Express app, and called as a Fetch handler.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { Hono } from 'hono';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createAuth, type Auth } from '../../src';
import { authRouter, toNodeListener } from '../../src/express';

const SECRET = 'standalone-secret-0123456789-abcdefghijkl';
let t: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  t = await createTestDatabase();
  auth = await createAuth({ jwtSecret: SECRET, bcryptRounds: 4 }, { database: t.db });
});
afterAll(async () => {
  await auth.close();
  await t.dispose();
});
/**
 * One request written on a raw socket (fetch() refuses TRACE), read until the server closes or
 * 5 s pass: the status line, the headers, the body.
 */
function rawRequest(
  base: string,
  head: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(head));
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no response within 5 s: ${JSON.stringify(data)}`));
    }, 5000);
    socket.on('data', (d) => {
      data += d.toString('utf8');
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const end = data.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = data.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [
          l.slice(0, l.indexOf(':')).toLowerCase(),
          l.slice(l.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine?.split(' ')[1]), headers, body: data.slice(end + 4) });
    });
  });
}
const trace = (path: string) =>
  `TRACE ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** An Express app set up by `setup`, listening on a loopback port while `run` uses its base URL. */
async function withApp(
  setup: (app: express.Express) => void,
  run: (base: string) => Promise<void>,
): Promise<void> {
  const app = express();
  setup(app);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('in a bare Express app', () => {
  test('register, login and profile through app.use("/auth", authRouter(auth))', async () => {
    await withApp(
      (app) => {
        app.use('/auth', authRouter(auth));
        app.get('/hello', (_req, res) => void res.send('still mine'));
      },
      async (base) => {
        const reg = await fetch(
          `${base}/auth/register`,
          json({ email: 'express@example.com', password: 'long enough pw' }),
        );
        expect(reg.status).toBe(201);
        const { token } = (await reg.json()) as { token: string };
        const login = await fetch(
          `${base}/auth/login`,
          json({ email: 'express@example.com', password: 'long enough pw' }),
        );
        expect(login.status).toBe(200);
        const profile = await fetch(`${base}/auth/profile`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(((await profile.json()) as { email: string }).email).toBe('express@example.com');
        expect(await (await fetch(`${base}/hello`)).text()).toBe('still mine');
        expect((await fetch(`${base}/auth/nope`)).status).toBe(404);
      },
    );
  });

  test('works behind express.json() (a body already parsed is passed on)', async () => {
    await withApp(
      (app) => {
        app.use(express.json());
        app.use('/auth', authRouter(auth));
      },
      async (base) => {
        const reg = await fetch(
          `${base}/auth/register`,
          json({ email: 'parsed@example.com', password: 'long enough pw' }),
        );
        expect(reg.status).toBe(201);
      },
    );
  });

  test('the client address and user-agent reach the session', async () => {
    await withApp(
      (app) => void app.use('/auth', authRouter(auth)),
      async (base) => {
        const reg = await fetch(`${base}/auth/register`, {
          ...json({ email: 'ua@example.com', password: 'long enough pw' }),
          headers: { 'content-type': 'application/json', 'user-agent': 'svc-test-agent/1.0' },
        });
        const { session } = (await reg.json()) as { session: { id: string } };
        const { rows } = await t.db.query<{ ip: string | null; user_agent: string | null }>(
          'select ip, user_agent from svc_auth.sessions where id = $1',
          [session.id],
        );
        expect(rows[0]?.user_agent).toBe('svc-test-agent/1.0');
        expect(rows[0]?.ip).toMatch(/127\.0\.0\.1/);
      },
    );
  });
});

// Issue 8: `new Request` throws on TRACE (the Fetch standard forbids it), which became a 500.
describe('methods a Request cannot carry (TRACE)', () => {
  const expectTraceAnswers = async (base: string) => {
    const login = await rawRequest(base, trace('/auth/login'));
    expect(login).toMatchObject({ status: 405, headers: { allow: 'POST' } });
    expect(JSON.parse(login.body)).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      error: 'METHOD_NOT_ALLOWED: TRACE is not allowed on /auth/login',
    });
    const unknown = await rawRequest(base, trace('/auth/nope'));
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).code).toBe('NOT_FOUND');
  };

  test('through authRouter in a bare Express app: 405 with Allow, or 404', async () => {
    await withApp((app) => app.use('/auth', authRouter(auth)), expectTraceAnswers);
  });

  test('through toNodeListener on node:http (no framework, no next)', async () => {
    const listener = toNodeListener((request, info) => auth.handler(request, info));
    const server = http.createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await expectTraceAnswers(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('the Fetch handler takes the method from info when the Request cannot carry it', async () => {
    const res = await auth.handler(new Request('http://app.local/auth/profile'), {
      method: 'TRACE',
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});

describe('as a Fetch handler', () => {
  test('Request in, Response out', async () => {
    const reg = await auth.handler(
      new Request(
        'http://app.local/auth/register',
        json({ email: 'fetch@example.com', password: 'long enough pw' }),
      ),
    );
    expect(reg.status).toBe(201);
    expect(reg.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const { token } = (await reg.json()) as { token: string };
    const profile = await auth.handler(
      new Request('http://app.local/auth/profile', {
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(profile.status).toBe(200);
    const missing = await auth.handler(new Request('http://app.local/auth/profile'));
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
    expect(await missing.json()).toEqual({
      code: 'UNAUTHORIZED',
      error: 'UNAUTHORIZED: a bearer token is required',
    });
  });

  test('bad bodies get the envelope, never a 500', async () => {
    const cases: Array<[RequestInit, number, string]> = [
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' },
        400,
        'VALIDATION_ERROR',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1,2]' },
        400,
        'VALIDATION_ERROR',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'email=a' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(2 * 1024 * 1024) }),
        },
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 42, password: 'long enough pw' }),
        },
        400,
        'VALIDATION_ERROR',
      ],
    ];
    for (const [init, status, code] of cases) {
      const res = await auth.handler(new Request('http://app.local/auth/register', init));
      expect({ status: res.status, code: ((await res.json()) as { code: string }).code }).toEqual({
        status,
        code,
      });
    }
  });
});

// Issue 8, "Browsers". The attack: a page on another site posts to /auth/logout (a text/plain
// body needs no preflight) and the browser attaches the victim's auth_token cookie. Before the
// fix this signed the victim out; any cookie-authenticated write was open to it the same way.
describe('cross-site requests authenticated by the cookie (CSRF)', () => {
  let n = 0;
  async function signIn(a: Auth = auth): Promise<string> {
    const res = await a.handler(
      new Request(
        'http://app.local/auth/register',
        json({ email: `csrf-${++n}-${Date.now()}@example.com`, password: 'long enough pw' }),
      ),
    );
    expect(res.status).toBe(201);
    return ((await res.json()) as { token: string }).token;
  }
  const profileStatus = async (token: string) =>
    (
      await auth.handler(
        new Request('http://app.local/auth/profile', {
          headers: { authorization: `Bearer ${token}` },
        }),
      )
    ).status;
  const logout = (base: string, token: string, headers: Record<string, string>) =>
    fetch(`${base}/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie: `auth_token=${token}`, ...headers },
      body: 'x',
    });

  const withExpress = (a: Pick<Auth, 'handler'>, run: (base: string) => Promise<void>) =>
    withApp((app) => app.use('/auth', authRouter(a)), run);

  test('Express: a foreign page is refused with 403 ACCESS_DENIED and the session stays live', async () => {
    await withExpress(auth, async (base) => {
      for (const headers of [
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } as Record<
          string,
          string
        >,
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
      ]) {
        const token = await signIn();
        const res = await logout(base, token, headers);
        expect({ status: res.status, code: ((await res.json()) as { code: string }).code }).toEqual(
          { status: 403, code: 'ACCESS_DENIED' },
        );
        expect(await profileStatus(token)).toBe(200);
      }
    });
  });

  test('Express: the same origin, no browser headers, and a bearer token all work', async () => {
    await withExpress(auth, async (base) => {
      const ways: Array<Record<string, string>> = [
        { origin: base, 'sec-fetch-site': 'same-origin' },
        {},
        { 'sec-fetch-site': 'same-site' },
      ];
      for (const headers of ways) {
        const token = await signIn();
        const res = await logout(base, token, headers);
        expect(res.status).toBe(200);
        expect(await profileStatus(token)).toBe(401);
      }
      // A bearer token cannot be attached by a foreign page: the Origin does not matter.
      const token = await signIn();
      const res = await fetch(`${base}/auth/logout`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          origin: 'https://evil.example',
          'sec-fetch-site': 'cross-site',
        },
      });
      expect(res.status).toBe(200);
      // Reading is not state-changing: a cookie GET from anywhere is answered (CORS decides who reads it).
      const other = await signIn();
      const read = await fetch(`${base}/auth/profile`, {
        headers: { cookie: `auth_token=${other}`, origin: 'https://evil.example' },
      });
      expect(read.status).toBe(200);
    });
  });

  test('trustedOrigins: a listed origin may use the cookie; others still may not', async () => {
    const trusting = await createAuth(
      { jwtSecret: SECRET, bcryptRounds: 4 },
      { database: t.db, trustedOrigins: ['https://App.example.com:443'] },
    );
    try {
      await withExpress(trusting, async (base) => {
        const token = await signIn(trusting);
        expect((await logout(base, token, { origin: 'https://evil.example' })).status).toBe(403);
        const res = await logout(base, token, {
          origin: 'https://app.example.com',
          'sec-fetch-site': 'cross-site',
        });
        expect(res.status).toBe(200);
        expect(await profileStatus(token)).toBe(401);
      });
    } finally {
      await trusting.close();
    }
  });

  test('trustedOrigins entries must be origins', async () => {
    await expect(
      createAuth(
        { jwtSecret: SECRET, bcryptRounds: 4 },
        { database: t.db, trustedOrigins: ['https://app.example.com/'] },
      ),
    ).rejects.toThrow(/trustedOrigins: "https:\/\/app\.example\.com\/" is not an origin/);
  });

  test('Fetch handler: the same rule, with the origin taken from the request URL', async () => {
    const token = await signIn();
    const post = (origin: string) =>
      auth.handler(
        new Request('https://db.example.com/auth/logout', {
          method: 'POST',
          headers: { cookie: `auth_token=${token}`, origin },
        }),
      );
    const refused = await post('http://db.example.com');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await profileStatus(token)).toBe(200);
    expect((await post('https://db.example.com')).status).toBe(200);
    expect(await profileStatus(token)).toBe(401);
  });
});

// Issue 12: guests, sessions, reuse detection and the captcha gate, standalone.
describe('guests and sessions standalone', () => {
  // biome-ignore lint/suspicious/noExplicitAny: replies are read loosely, as in the other tests
  type Reply = { status: number; body: any };
  /** Runs the guest and session flow against `send` (Express over loopback, or Hono's fetch). */
  async function guestAndSessionFlow(
    send: (method: string, path: string, body?: unknown, token?: string) => Promise<Reply>,
    agent: string,
  ) {
    const guest = await send('POST', '/auth/anonymous');
    expect(guest.status).toBe(201);
    expect(guest.body.user.email).toMatch(/@anonymous\.invalid$/);
    const address = `${agent}-${Date.now()}@example.com`;
    const up = await send(
      'POST',
      '/auth/upgrade',
      { email: address, password: 'long enough pw' },
      guest.body.token,
    );
    expect(up.status).toBe(200);
    expect(up.body.user).toMatchObject({ id: guest.body.user.id, email: address });
    expect((await send('GET', '/auth/profile', undefined, guest.body.token)).status).toBe(401);

    const second = await send('POST', '/auth/login', {
      email: address,
      password: 'long enough pw',
    });
    expect(second.status).toBe(200);
    const list = await send('GET', '/auth/sessions', undefined, up.body.token);
    expect(list.status).toBe(200);
    expect(list.body.sessions.map((s: { id: string }) => s.id).sort()).toEqual(
      [up.body.session.id, second.body.session.id].sort(),
    );
    expect(list.body.sessions.find((s: { current: boolean }) => s.current).id).toBe(
      up.body.session.id,
    );
    const del = await send(
      'DELETE',
      `/auth/sessions/${second.body.session.id}`,
      undefined,
      up.body.token,
    );
    expect([del.status, del.body]).toEqual([200, { success: true }]);
    expect((await send('GET', '/auth/profile', undefined, second.body.token)).status).toBe(401);
    const third = await send('POST', '/auth/login', { email: address, password: 'long enough pw' });
    const others = await send('POST', '/auth/sessions/revoke-others', undefined, third.body.token);
    expect(others.body).toEqual({ revoked: 1 });

    // refresh reuse: a retired token, replayed after the grace, ends the family
    const rotated = await send('POST', '/auth/refresh', { refreshToken: third.body.refreshToken });
    expect(rotated.status).toBe(200);
    await t.db.query(
      "update svc_auth.sessions set rotated_at = rotated_at - interval '1 minute' where rotated_at is not null",
    );
    const replay = await send('POST', '/auth/refresh', { refreshToken: third.body.refreshToken });
    expect([replay.status, replay.body.code]).toEqual([401, 'INVALID_REFRESH_TOKEN']);
    expect((await send('GET', '/auth/profile', undefined, rotated.body.token)).status).toBe(401);
  }

  test('through authRouter in a bare Express app', async () => {
    await withApp(
      (app) => void app.use('/auth', authRouter(auth)),
      async (base) => {
        await guestAndSessionFlow(async (method, path, body, token) => {
          const res = await fetch(`${base}${path}`, {
            method,
            headers: {
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          return { status: res.status, body: await res.json().catch(() => null) };
        }, 'express');
      },
    );
  });

  test('through the Fetch handler in a Hono app', async () => {
    const app = new Hono();
    app.all('/auth/*', (c) => auth.handler(c.req.raw, { ip: '10.0.0.9', userAgent: 'hono-test' }));
    app.get('/hello', (c) => c.text('hono'));
    await guestAndSessionFlow(async (method, path, body, token) => {
      const res = await app.fetch(
        new Request(`http://app.local${path}`, {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
      return { status: res.status, body: await res.json().catch(() => null) };
    }, 'hono');
    expect(await (await app.fetch(new Request('http://app.local/hello'))).text()).toBe('hono');
  });

  test('the captcha gate in a Hono app, against a verifier on 127.0.0.1', async () => {
    const seen: Record<string, string>[] = [];
    const verifier = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => {
        raw += d;
      });
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(raw));
        seen.push(form);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: form.response === 'ok' }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
    const gated = await createAuth(
      {
        jwtSecret: SECRET,
        bcryptRounds: 4,
        captcha: {
          gate: ['anonymous'],
          provider: 'turnstile',
          secret: 'ts-secret',
          verifyUrl: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`,
        },
      },
      { database: t.db },
    );
    try {
      const app = new Hono();
      app.all('/auth/*', (c) => gated.handler(c.req.raw, { ip: '10.0.0.8' }));
      const post = (body: unknown) =>
        app.fetch(new Request('http://app.local/auth/anonymous', json(body)));
      const refused = await post({});
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { code: string }).code).toBe('CAPTCHA_FAILED');
      expect((await post({ captchaToken: 'nope' })).status).toBe(400);
      expect((await post({ captchaToken: 'ok' })).status).toBe(201);
      expect(seen.at(-1)).toEqual({ secret: 'ts-secret', response: 'ok', remoteip: '10.0.0.8' });
    } finally {
      await gated.close();
      verifier.closeAllConnections();
      await new Promise((resolve) => verifier.close(resolve));
    }
  });
});
