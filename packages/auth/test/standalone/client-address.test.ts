/**
 * Issue 26 (6): the client's address is part of the handler's contract.
 *
 * The attack: `auth.handler(c.req.raw)`, the Hono line the README used to give, passes no
 * address, so per-IP rate limits never count and an attacker guesses magic-link tokens without
 * end (13 wrong tokens, 13 answers of 401, where `svc serve` says 429 after 10). Sessions record
 * no IP either. `@svc/auth/hono` fills the address from the runtime (the Node socket under
 * @hono/node-server, Bun's server, Deno's handler info, or the `getConnInfo` given), the Node
 * adapter from the socket or Express's `req.ip` (honouring `trust proxy`), and a handler called
 * without an address says so once in the log.
 */
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import express from 'express';
import { Hono, type Context } from 'hono';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createAuth, type Auth } from '../../src';
import { authRouter, toNodeListener } from '../../src/express';
import { authHandler } from '../../src/hono';

const SECRET = 'standalone-secret-0123456789-abcdefghijkl';
let t: TestDatabase;
let auth: Auth;
/** The warnings about a missing client address (others, such as "no SMTP", are not counted). */
const warnings: { obj: unknown; msg: string | undefined }[] = [];
const logger = {
  info: () => {},
  error: () => {},
  warn: (obj: unknown, msg?: string) =>
    void (/client's address/.test(msg ?? '') && warnings.push({ obj, msg })),
};

beforeAll(async () => {
  t = await createTestDatabase();
  auth = await createAuth({ jwtSecret: SECRET, bcryptRounds: 4 }, { database: t.db, logger });
});
afterAll(async () => {
  await auth.close();
  await t.dispose();
});
beforeEach(async () => {
  // Each test starts with no counters, no users and no warnings.
  await t.db.query('truncate svc_auth.users, svc_auth.rate_limits cascade');
  warnings.length = 0;
});

/** A Hono app served by @hono/node-server on a loopback port while `run` uses its base URL. */
async function withHono(app: Hono, run: (base: string) => Promise<void>): Promise<void> {
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A node:http server (an Express app or a bare listener) on a loopback port while `run` runs. */
async function withServer(
  server: http.Server,
  run: (base: string) => Promise<void>,
): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The statuses of 13 wrong magic-link tokens, sent one after another. */
async function wrongTokens(base: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 13; i++) {
    const res = await post(base, '/auth/magic-link/consume', { token: `wrong-token-${i}` });
    statuses.push(res.status);
    if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    await res.arrayBuffer();
  }
  return statuses;
}
const LIMITED = [...Array<number>(10).fill(401), 429, 429, 429];

/** Registers a user through `base` and answers the IP and user agent its session recorded. */
async function sessionSeen(
  base: string,
  headers: Record<string, string> = {},
): Promise<{ ip: string | null; userAgent: string | null }> {
  const email = `who-${Math.random().toString(36).slice(2)}@example.com`;
  const reg = await post(base, '/auth/register', { email, password: 'long enough pw' }, headers);
  expect(reg.status).toBe(201);
  const { token } = (await reg.json()) as { token: string };
  const list = await fetch(`${base}/auth/sessions`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  const { sessions } = (await list.json()) as {
    sessions: { ip: string | null; userAgent: string | null }[];
  };
  expect(sessions).toHaveLength(1);
  return { ip: sessions[0]!.ip, userAgent: sessions[0]!.userAgent };
}

describe('@svc/auth/hono under @hono/node-server, over loopback HTTP', () => {
  test('13 wrong magic-link tokens: 401 ten times, then 429 with Retry-After', async () => {
    const app = new Hono();
    app.all('/auth/*', authHandler(auth));
    await withHono(app, async (base) => {
      expect(await wrongTokens(base)).toEqual(LIMITED);
    });
    expect(warnings).toEqual([]);
  });

  test('a session records the client address and user agent', async () => {
    const app = new Hono();
    app.all('/auth/*', authHandler(auth));
    await withHono(app, async (base) => {
      expect(await sessionSeen(base, { 'user-agent': 'hono-node/1' })).toEqual({
        ip: '127.0.0.1',
        userAgent: 'hono-node/1',
      });
    });
  });

  test("getConnInfo decides the address: @hono/node-server's own, or a proxy's header", async () => {
    const app = new Hono();
    app.all('/auth/*', authHandler(auth, { getConnInfo }));
    // Behind a proxy the socket's address is the proxy's: the app names the header it trusts.
    const proxied = new Hono();
    proxied.all(
      '/auth/*',
      authHandler(auth, {
        getConnInfo: (c: Context) => ({ remote: { address: c.req.header('x-real-ip') } }),
      }),
    );
    await withHono(app, async (base) => {
      expect((await sessionSeen(base)).ip).toBe('127.0.0.1');
    });
    await withHono(proxied, async (base) => {
      expect((await sessionSeen(base, { 'x-real-ip': '203.0.113.9' })).ip).toBe('203.0.113.9');
    });
  });
});

describe('@svc/auth/hono on the other runtimes (what each passes to app.fetch as env)', () => {
  const fetchWith = (env: unknown) => {
    const app = new Hono();
    app.all('/auth/*', authHandler(auth));
    return async (path: string, init: RequestInit) =>
      app.fetch(new Request(`http://app.local${path}`, init), env as never);
  };

  async function ipOf(send: (path: string, init: RequestInit) => Promise<Response>) {
    const reg = await send('/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `rt-${Date.now()}@example.com`, password: 'long enough pw' }),
    });
    const { token } = (await reg.json()) as { token: string };
    const list = await send('/auth/sessions', { headers: { authorization: `Bearer ${token}` } });
    return ((await list.json()) as { sessions: { ip: string | null }[] }).sessions[0]?.ip;
  }

  test("Bun.serve: the server's requestIP(request)", async () => {
    const bunServer = {
      requestIP(request: Request) {
        // Called as a method of the server, with the request Hono was given.
        expect(this).toBe(bunServer);
        expect(request.url).toMatch(/^http:\/\/app\.local\/auth\//);
        return { address: '198.51.100.4', family: 'IPv4', port: 50000 };
      },
    };
    expect(await ipOf(fetchWith(bunServer))).toBe('198.51.100.4');
  });

  test("Deno.serve: the handler info's remoteAddr", async () => {
    const denoInfo = { remoteAddr: { transport: 'tcp', hostname: '2001:db8::7', port: 50001 } };
    expect(await ipOf(fetchWith(denoInfo))).toBe('2001:db8::7');
    expect(warnings).toEqual([]);
  });

  test('a runtime the adapter cannot read warns once, like the bare handler', async () => {
    const lone = await createAuth(
      { jwtSecret: SECRET, bcryptRounds: 4 },
      { database: t.db, logger },
    );
    try {
      const unknown = new Hono();
      unknown.all('/auth/*', authHandler(lone));
      for (let i = 0; i < 3; i++) await unknown.fetch(new Request('http://app.local/auth/nope'));
      expect(warnings).toHaveLength(1);
    } finally {
      await lone.close();
    }
  });
});

describe('the Fetch handler called without an address', () => {
  test('warns once per handler, naming the consequences and the fix; never per request', async () => {
    const lone = await createAuth(
      { jwtSecret: SECRET, bcryptRounds: 4 },
      { database: t.db, logger },
    );
    try {
      const app = new Hono();
      app.all('/auth/*', (c) => lone.handler(c.req.raw)); // the README's old line
      await withHono(app, async (base) => {
        expect(warnings).toEqual([]);
        // Still no per-IP limit without an address: that is what the warning is about.
        expect(await wrongTokens(base)).toEqual(Array<number>(13).fill(401));
        expect((await sessionSeen(base, { 'user-agent': 'bare/1' })).ip).toBeNull();
      });
      expect(warnings).toHaveLength(1);
      const msg = warnings[0]!.msg ?? '';
      expect(msg).toMatch(/without the client's address/);
      expect(msg).toMatch(/sessions record no IP/);
      expect(msg).toMatch(/per-IP rate limits are off/);
      expect(msg).toMatch(/@svc\/auth\/hono/);
      expect(msg).toMatch(/@svc\/auth\/express/);
      expect(msg).toMatch(/\{ ip \}/);
    } finally {
      await lone.close();
    }
  });

  test('the user agent is read from the request itself', async () => {
    const app = new Hono();
    app.all('/auth/*', (c) => auth.handler(c.req.raw, { ip: '192.0.2.1' }));
    await withHono(app, async (base) => {
      expect(await sessionSeen(base, { 'user-agent': 'fetch-only/2' })).toEqual({
        ip: '192.0.2.1',
        userAgent: 'fetch-only/2',
      });
    });
  });

  test('without a logger the warning goes to the console, once', async () => {
    // The console is captured from the start: createAuth's own "no SMTP" warning goes there too.
    const seen: unknown[][] = [];
    const spy = jest
      .spyOn(console, 'warn')
      .mockImplementation(
        (...args) => void (/client's address/.test(String(args[0])) && seen.push(args)),
      );
    const quiet = await createAuth({ jwtSecret: SECRET, bcryptRounds: 4 }, { database: t.db });
    try {
      for (let i = 0; i < 3; i++) await quiet.handler(new Request('http://app.local/auth/nope'));
      expect(seen).toHaveLength(1);
      expect(String(seen[0]![0])).toMatch(/per-IP rate limits are off/);
    } finally {
      spy.mockRestore();
      await quiet.close();
    }
  });
});

describe("the Node adapter fills the address from the socket or Express's req.ip", () => {
  test('a bare node:http listener: 429 after 10 wrong tokens; the session records the address', async () => {
    await withServer(http.createServer(toNodeListener(auth.handler)), async (base) => {
      expect(await wrongTokens(base)).toEqual(LIMITED);
      expect((await sessionSeen(base)).ip).toBe('127.0.0.1');
    });
    expect(warnings).toEqual([]);
  });

  test("Express with trust proxy: the forwarded client's address; without it, the socket's", async () => {
    const trusting = express();
    trusting.set('trust proxy', 'loopback');
    trusting.use('/auth', authRouter(auth));
    await withServer(http.createServer(trusting), async (base) => {
      expect((await sessionSeen(base, { 'x-forwarded-for': '203.0.113.7' })).ip).toBe(
        '203.0.113.7',
      );
    });
    const plain = express();
    plain.use('/auth', authRouter(auth));
    await withServer(http.createServer(plain), async (base) => {
      // A header any client can send counts for nothing unless the proxy is trusted.
      expect((await sessionSeen(base, { 'x-forwarded-for': '203.0.113.7' })).ip).toBe('127.0.0.1');
    });
  });
});
