/**
 * Issue 8: login was not throttled at all (50 wrong passwords in 0.3 s, all answered 401; the
 * right one then worked). Over HTTP, on the engine SVC_TEST_DB names: the limits of DECISIONS.md
 * answer 429 RATE_LIMITED with Retry-After, count in the database (two servers over one database
 * share them), and cannot be dodged by a forged X-Forwarded-For.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import type { AuthEvent } from '@svc/auth';
import { createServer, type CreateServerOptions, type SvcServer } from '../src';
import { SECRET, readJson, serverEnv, sharedDatabase, start } from './helpers';

const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';
const AUTH = { enableAuth: true, jwtSecret: SECRET } as const;

async function post(
  server: SvcServer,
  route: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await readJson(res).catch(() => null)) as Record<string, unknown>,
  };
}

/** Retry-After is whole seconds, at least 1 and at most the window. */
function retryAfter(headers: Headers, windowSeconds: number): number {
  const text = headers.get('retry-after') ?? '';
  expect(text).toMatch(/^[1-9][0-9]*$/);
  const n = Number(text);
  expect(n).toBeLessThanOrEqual(windowSeconds);
  return n;
}

/** A second server over the same database: its own pool on PostgreSQL (as another process would have). */
function sameDatabase(t: TestDatabase): CreateServerOptions {
  return testDatabaseKind() === 'postgres'
    ? { database: t.config, databaseInstance: undefined }
    : {};
}

const servers: SvcServer[] = [];
const started = async (options: CreateServerOptions) => {
  const s = await start(db.get(), { ...AUTH, ...options });
  servers.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await db.get().db.query('truncate svc_auth.rate_limits');
});

describe(`rate limits over HTTP on ${testDatabaseKind()}`, () => {
  test('the 11th login for one email within a minute is 429 even with the right password', async () => {
    const server = await started({});
    expect(
      (await post(server, '/auth/register', { email: 'ann@example.com', password: PASSWORD }))
        .status,
    ).toBe(201);
    for (let i = 0; i < 10; i++) {
      expect(
        (await post(server, '/auth/login', { email: 'ann@example.com', password: `wrong ${i}` }))
          .status,
      ).toBe(401);
    }
    const r = await post(server, '/auth/login', { email: 'ann@example.com', password: PASSWORD });
    expect(r.status).toBe(429);
    const seconds = retryAfter(r.headers, 60);
    expect(r.body).toEqual({
      code: 'RATE_LIMITED',
      error: `RATE_LIMITED: too many requests; retry in ${seconds} s`,
    });
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    // Other accounts are not locked out by this one.
    expect(
      (await post(server, '/auth/login', { email: 'bob@example.com', password: PASSWORD })).status,
    ).toBe(401);
  });

  test('different emails from one address hit the per-address limit of 100', async () => {
    const server = await started({});
    for (let i = 0; i < 100; i++) {
      const r = await post(server, '/auth/login', {
        email: `u${i}@example.com`,
        password: PASSWORD,
      });
      expect(r.status).toBe(401);
    }
    const r = await post(server, '/auth/login', {
      email: 'someone-else@example.com',
      password: PASSWORD,
    });
    expect(r.status).toBe(429);
    retryAfter(r.headers, 60);
  });

  test('a forged X-Forwarded-For does not make a new client (the socket address counts)', async () => {
    const server = await started({ authConfig: { rateLimits: { login: { perIp: 5 } } } });
    for (let i = 0; i < 5; i++) {
      const r = await post(
        server,
        '/auth/login',
        { email: `v${i}@example.com`, password: PASSWORD },
        { 'x-forwarded-for': `203.0.113.${i}` },
      );
      expect(r.status).toBe(401);
    }
    const r = await post(
      server,
      '/auth/login',
      { email: 'v9@example.com', password: PASSWORD },
      { 'x-forwarded-for': '198.51.100.1' },
    );
    expect(r.status).toBe(429);
  });

  test('with trustProxy naming the proxy, X-Forwarded-For names the client', async () => {
    const server = await started({
      trustProxy: 'loopback',
      authConfig: { rateLimits: { login: { perIp: 3 } } },
    });
    const attempt = (i: number, client: string) =>
      post(
        server,
        '/auth/login',
        { email: `w${i}@example.com`, password: PASSWORD },
        { 'x-forwarded-for': `${client}, 127.0.0.1` },
      );
    for (let i = 0; i < 3; i++) expect((await attempt(i, '203.0.113.1')).status).toBe(401);
    expect((await attempt(3, '203.0.113.1')).status).toBe(429);
    // Another client behind the same proxy has its own count.
    expect((await attempt(4, '203.0.113.2')).status).toBe(401);
  });

  test('password reset and verification resend: the 6th request for one email within 15 minutes is 429, and sends nothing', async () => {
    const server = await started({ authConfig: { requireEmailVerification: true } });
    const events: AuthEvent[] = [];
    server.auth!.on((e) => void events.push(e));
    expect(
      (await post(server, '/auth/register', { email: 'cy@example.com', password: PASSWORD }))
        .status,
    ).toBe(201);
    for (let i = 0; i < 5; i++) {
      expect((await post(server, '/auth/reset', { email: 'cy@example.com' })).status).toBe(200);
      expect((await post(server, '/auth/verify/resend', { email: 'cy@example.com' })).status).toBe(
        200,
      );
    }
    for (const route of ['/auth/reset', '/auth/verify/resend']) {
      const r = await post(server, route, { email: 'CY@example.com' });
      expect(r.status).toBe(429);
      expect(r.body.code).toBe('RATE_LIMITED');
      expect(retryAfter(r.headers, 900)).toBeGreaterThan(800);
    }
    await server.auth!.settle();
    expect(events.filter((e) => e.eventType === 'PasswordResetRequested')).toHaveLength(5);
    expect(events.filter((e) => e.eventType === 'EmailVerificationRequested')).toHaveLength(6);
  });

  test('two servers over one database share the count', async () => {
    const a = await started({});
    const b = await started(sameDatabase(db.get()));
    for (let i = 0; i < 5; i++) {
      expect(
        (await post(a, '/auth/login', { email: 'dee@example.com', password: PASSWORD })).status,
      ).toBe(401);
      expect(
        (await post(b, '/auth/login', { email: 'dee@example.com', password: PASSWORD })).status,
      ).toBe(401);
    }
    expect(
      (await post(a, '/auth/login', { email: 'dee@example.com', password: PASSWORD })).status,
    ).toBe(429);
    expect(
      (await post(b, '/auth/login', { email: 'dee@example.com', password: PASSWORD })).status,
    ).toBe(429);
  });

  test('concurrent attempts on two servers never pass the limit', async () => {
    const a = await started({ authConfig: { rateLimits: { login: { perEmail: 7 } } } });
    const b = await started({
      ...sameDatabase(db.get()),
      authConfig: { rateLimits: { login: { perEmail: 7 } } },
    });
    const all = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        post(i % 2 ? a : b, '/auth/login', { email: 'eve@example.com', password: PASSWORD }),
      ),
    );
    expect(all.filter((r) => r.status === 401)).toHaveLength(7);
    expect(all.filter((r) => r.status === 429)).toHaveLength(17);
  });

  test('configured from TOML [auth.rate_limits]', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rl-'));
    const file = path.join(dir, 'svc.toml');
    fs.writeFileSync(file, '[auth.rate_limits.login]\nper_email = 2\nwindow_seconds = 30\n');
    const server = await started({ configFile: file });
    expect(server.auth!.config.rateLimits).toMatchObject({
      login: { perEmail: 2, perIp: 100, windowSeconds: 30 },
    });
    for (let i = 0; i < 2; i++)
      expect(
        (await post(server, '/auth/login', { email: 'fay@example.com', password: PASSWORD }))
          .status,
      ).toBe(401);
    const r = await post(server, '/auth/login', { email: 'fay@example.com', password: PASSWORD });
    expect(r.status).toBe(429);
    retryAfter(r.headers, 30);
  });

  test('a bad rate-limit setting stops the start with a message naming it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rl-'));
    const file = path.join(dir, 'svc.toml');
    fs.writeFileSync(file, '[auth.rate_limits.login]\nper_minute = 2\n');
    await expect(
      createServer({
        env: serverEnv(),
        logLevel: 'silent',
        databaseInstance: db.get().db,
        ...AUTH,
        configFile: file,
      }),
    ).rejects.toThrow(/unknown field rateLimits\.login\.perMinute/);
  });
});
