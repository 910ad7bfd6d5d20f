/**
 * Issue 12, guests, captcha, sessions and refresh-token reuse over HTTP through @svc/server, on
 * the engine SVC_TEST_DB names: POST /auth/anonymous and /auth/upgrade, the captcha gate against
 * a fake siteverify server on 127.0.0.1 for each provider, GET /auth/sessions, DELETE
 * /auth/sessions/:id, POST /auth/sessions/revoke-others, and reuse detection; the last two also
 * across two servers over one database.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import type { AuthEvent } from '@svc/auth';
import type { CreateServerOptions, SvcServer } from '../src';
import {
  SECRET,
  authClient,
  build,
  call,
  captureEvents,
  readJson,
  recordCallers,
  sharedDatabase,
  start,
} from './helpers';

const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';
const AUTH = { enableAuth: true, jwtSecret: SECRET } as const;
const GUEST_EMAIL = /^[0-9a-f-]{36}@anonymous\.invalid$/;
const email = () => `g-${randomUUID()}@example.com`;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** A second server over the same database: its own pool on PostgreSQL (as another process would have). */
function sameDatabase(t: TestDatabase): CreateServerOptions {
  return testDatabaseKind() === 'postgres'
    ? { database: t.config, databaseInstance: undefined }
    : {};
}

/** Moves every rotation of the database into the past, as if `seconds` had gone by since. */
async function ageRotations(seconds: number): Promise<void> {
  await db
    .get()
    .db.query(
      `update svc_auth.sessions set rotated_at = rotated_at - make_interval(secs => $1) where rotated_at is not null`,
      [seconds],
    );
}

async function fetchJson(
  server: SvcServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: await readJson(res).catch(() => null) };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe(`guests over HTTP (${testDatabaseKind()})`, () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  let events: AuthEvent[];
  beforeAll(async () => {
    server = await build(db.get(), AUTH);
    c = authClient(server);
    events = captureEvents(server);
  });
  afterAll(() => server.close());

  test('POST /auth/anonymous: 201 Auth result for a guest; no body or an empty object', async () => {
    for (const body of [undefined, {}]) {
      const r = await c.call('POST', '/auth/anonymous', body);
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(['refreshToken', 'session', 'token', 'user']);
      expect(r.body.user.email).toMatch(GUEST_EMAIL);
      expect(Object.keys(r.body.user)).not.toContain('isAnonymous');
      expect(r.body.session.userId).toBe(r.body.user.id);
      const profile = await c.profile(r.body.token);
      expect(profile.status).toBe(200);
      expect(profile.body.id).toBe(r.body.user.id);
      await server.auth!.settle();
      expect(events.filter((e) => e.userId === r.body.user.id).map((e) => e.eventType)).toEqual([
        'IdentityCreated',
        'IdentityAuthenticated',
      ]);
    }
    const bad = await c.call('POST', '/auth/anonymous', '{not json');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });

  test('a guest cannot log in by password or ask for a reset', async () => {
    const g = (await c.call('POST', '/auth/anonymous')).body;
    const login = await c.login({ email: g.user.email, password: PASSWORD });
    expect(login.status).toBe(401);
    expect(login.body.code).toBe('INVALID_CREDENTIALS');
    const reset = await c.call('POST', '/auth/reset', { email: g.user.email });
    expect(reset.status).toBe(200);
    await server.auth!.settle();
    expect(
      events.filter((e) => e.userId === g.user.id && e.eventType === 'PasswordResetRequested'),
    ).toEqual([]);
  });

  test('POST /auth/upgrade: 200 Auth result for the same id; old sessions end; login works', async () => {
    const g = (await c.call('POST', '/auth/anonymous')).body;
    const address = email();
    const r = await c.call(
      'POST',
      '/auth/upgrade',
      { email: address.toUpperCase(), password: PASSWORD },
      c.bearer(g.token),
    );
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['refreshToken', 'session', 'token', 'user']);
    expect(r.body.user).toMatchObject({ id: g.user.id, email: address, emailVerified: false });
    const old = await c.profile(g.token);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('SESSION_EXPIRED');
    expect((await c.refresh(g.refreshToken)).status).toBe(401);
    expect((await c.profile(r.body.token)).body.email).toBe(address);
    const login = await c.login({ email: address, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(g.user.id);
    // not a guest any more
    const again = await c.call(
      'POST',
      '/auth/upgrade',
      { email: email(), password: PASSWORD },
      c.bearer(r.body.token),
    );
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_OPERATION');
  });

  test('upgrade errors: non-guest 400 INVALID_OPERATION, taken 409, weak 400, bad email 400, no token 401', async () => {
    const taken = email();
    const reg = await c.register({ email: taken, password: PASSWORD });
    const nonGuest = await c.call(
      'POST',
      '/auth/upgrade',
      { email: email(), password: PASSWORD },
      c.bearer(reg.body.token),
    );
    expect([nonGuest.status, nonGuest.body.code]).toEqual([400, 'INVALID_OPERATION']);
    expect(nonGuest.body.error).toMatch(/^INVALID_OPERATION: /);
    const g = (await c.call('POST', '/auth/anonymous')).body;
    const up = (body: unknown) => c.call('POST', '/auth/upgrade', body, c.bearer(g.token));
    let r = await up({ email: taken, password: PASSWORD });
    expect([r.status, r.body.code]).toEqual([409, 'USER_ALREADY_EXISTS']);
    r = await up({ email: email(), password: 'short' });
    expect([r.status, r.body.code]).toEqual([400, 'PASSWORD_TOO_WEAK']);
    r = await up({ email: 'not-an-email', password: PASSWORD });
    expect([r.status, r.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    r = await up({ password: PASSWORD });
    expect([r.status, r.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    r = await c.call('POST', '/auth/upgrade', { email: email(), password: PASSWORD });
    expect([r.status, r.body.code]).toEqual([401, 'UNAUTHORIZED']);
    // the guest is still a guest
    expect((await c.profile(g.token)).status).toBe(200);
  });
});

describe(`what a guest's token makes of a query's caller (${testDatabaseKind()})`, () => {
  const query = (server: SvcServer, token?: string) =>
    call(server, '/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
      body: JSON.stringify({ query: 'select 1' }),
    });

  test('isAnonymous for a guest and its refreshes; not after the upgrade, nor for no token', async () => {
    const server = await build(db.get(), AUTH);
    try {
      const c = authClient(server);
      const callers = recordCallers(server);
      const g = (await c.call('POST', '/auth/anonymous')).body;
      expect((await query(server, g.token)).status).toBe(200);
      const refreshed = (await c.refresh(g.refreshToken)).body;
      expect((await query(server, refreshed.token)).status).toBe(200);
      const address = email();
      const up = await c.call(
        'POST',
        '/auth/upgrade',
        { email: address, password: PASSWORD },
        c.bearer(refreshed.token),
      );
      expect((await query(server, up.body.token)).status).toBe(200);
      expect((await query(server)).status).toBe(200);
      const guest = { userId: g.user.id, email: g.user.email, roles: [], permissions: [] };
      expect(callers.map((caller) => caller.auth)).toEqual([
        { ...guest, isAnonymous: true },
        { ...guest, isAnonymous: true },
        { ...guest, email: address, isAnonymous: false },
        { roles: [] },
      ]);
      expect(callers.map((caller) => caller.access.policies)).toEqual([true, true, true, true]);
    } finally {
      await server.close();
    }
  });

  test("permissions come from the token's permissions claim (authConfig.claims)", async () => {
    const server = await build(db.get(), {
      ...AUTH,
      authConfig: { claims: () => ({ permissions: ['notes:read'] }) },
    });
    try {
      const callers = recordCallers(server);
      const g = (await authClient(server).call('POST', '/auth/anonymous')).body;
      await query(server, g.token);
      expect(callers[0]?.auth).toMatchObject({ isAnonymous: true, permissions: ['notes:read'] });
    } finally {
      await server.close();
    }
  });
});

describe(`anonymous rate limit over HTTP (${testDatabaseKind()})`, () => {
  test('per client address: 429 RATE_LIMITED with Retry-After past the configured limit', async () => {
    // the counters are shared by every server over the database: start from none
    await db.get().db.query('truncate svc_auth.rate_limits');
    const server = await start(db.get(), {
      ...AUTH,
      authConfig: { rateLimits: { anonymous: { perIp: 3 } } },
    });
    try {
      for (let i = 0; i < 3; i++)
        expect((await fetchJson(server, 'POST', '/auth/anonymous')).status).toBe(201);
      const r = await fetchJson(server, 'POST', '/auth/anonymous');
      expect(r.status).toBe(429);
      expect(r.body.code).toBe('RATE_LIMITED');
      expect(r.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    } finally {
      await server.close();
      await db.get().db.query('truncate svc_auth.rate_limits');
    }
  });
});

/** A siteverify stand-in on 127.0.0.1: token `good` passes, `down` answers 500, others fail. */
async function fakeVerifier() {
  const seen: { path: string; form: Record<string, string> }[] = [];
  const srv = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => {
      raw += d;
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      seen.push({ path: req.url ?? '', form });
      const status = form.response === 'down' ? 500 : 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          form.response === 'good'
            ? { success: true, hostname: 'localhost' }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

describe.each(['hcaptcha', 'recaptcha', 'turnstile'])(
  `captcha gate over HTTP, provider %s (${testDatabaseKind()})`,
  (provider) => {
    let fake: Awaited<ReturnType<typeof fakeVerifier>>;
    let server: SvcServer;
    beforeAll(async () => {
      fake = await fakeVerifier();
      server = await start(db.get(), {
        ...AUTH,
        authConfig: {
          captcha: {
            gate: ['register', 'anonymous', 'magicLink'],
            provider,
            secret: `secret-${provider}`,
            verifyUrl: `${fake.url}/${provider}/siteverify`,
          },
        },
      });
    });
    afterAll(async () => {
      await server.close();
      await fake.close();
    });

    test('missing or refused token: 400 CAPTCHA_FAILED before anything is written', async () => {
      const address = email();
      let r = await fetchJson(server, 'POST', '/auth/register', {
        email: address,
        password: PASSWORD,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'CAPTCHA_FAILED',
        error: expect.stringMatching(/^CAPTCHA_FAILED: /),
      });
      const before = fake.seen.length;
      r = await fetchJson(server, 'POST', '/auth/register', {
        email: address,
        password: PASSWORD,
        captchaToken: 'forged',
      });
      expect([r.status, r.body.code]).toEqual([400, 'CAPTCHA_FAILED']);
      expect(fake.seen.length).toBe(before + 1);
      expect(await server.auth!.findUser(address)).toBeNull();
      r = await fetchJson(server, 'POST', '/auth/anonymous', {});
      expect([r.status, r.body.code]).toEqual([400, 'CAPTCHA_FAILED']);
    });

    test('a good token passes; the provider got secret, response and remoteip as a form', async () => {
      const address = email();
      const r = await fetchJson(server, 'POST', '/auth/register', {
        email: address,
        password: PASSWORD,
        captchaToken: 'good',
      });
      expect(r.status).toBe(201);
      expect(fake.seen.at(-1)).toEqual({
        path: `/${provider}/siteverify`,
        form: { secret: `secret-${provider}`, response: 'good', remoteip: '127.0.0.1' },
      });
      const g = await fetchJson(server, 'POST', '/auth/anonymous', { captchaToken: 'good' });
      expect(g.status).toBe(201);
      // not gated: login
      const login = await fetchJson(server, 'POST', '/auth/login', {
        email: address,
        password: PASSWORD,
      });
      expect(login.status).toBe(200);
    });

    test('the provider failing: 503 SERVICE_UNAVAILABLE in the envelope, never a 500', async () => {
      const r = await fetchJson(server, 'POST', '/auth/register', {
        email: email(),
        password: PASSWORD,
        captchaToken: 'down',
      });
      expect(r.status).toBe(503);
      expect(r.body).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        error: expect.stringMatching(/^SERVICE_UNAVAILABLE: /),
      });
    });

    test("the gate covers another feature's route by its table entry (magicLink)", async () => {
      const r = await fetchJson(server, 'POST', '/auth/magic-link/request', { email: email() });
      expect([r.status, r.body.code]).toEqual([400, 'CAPTCHA_FAILED']);
    });
  },
);

test('configured from TOML: [auth.captcha], refresh_token_reuse_detection, [auth.rate_limits.anonymous]', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-guest-'));
  const file = path.join(dir, 'svc.toml');
  fs.writeFileSync(
    file,
    [
      '[auth]',
      'refresh_token_reuse_detection = false',
      '[auth.captcha]',
      'gate = ["register", "magic_link"]',
      'provider = "turnstile"',
      'secret = "toml-secret"',
      'verify_url = "http://127.0.0.1:9/siteverify"',
      'timeout_ms = 500',
      '[auth.rate_limits.anonymous]',
      'per_ip = 7',
    ].join('\n'),
  );
  // gate values are operation names, not keys: a snake_case spelling is refused, not converted
  await expect(build(db.get(), { ...AUTH, configFile: file })).rejects.toThrow(
    /unknown captcha.gate operation "magic_link"/,
  );
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"magic_link"', '"magicLink"'));
  const server = await build(db.get(), { ...AUTH, configFile: file });
  try {
    expect(server.auth!.config.refreshTokenReuseDetection).toBe(false);
    expect(server.auth!.config.captcha).toEqual({
      gate: ['register', 'magicLink'],
      provider: 'turnstile',
      secret: 'toml-secret',
      verifyUrl: 'http://127.0.0.1:9/siteverify',
      timeoutMs: 500,
    });
    expect(server.auth!.config.rateLimits).toMatchObject({
      anonymous: { windowSeconds: 60, perEmail: 0, perIp: 7 },
    });
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a server refuses an unknown captcha provider or gate at start', async () => {
  await expect(
    build(db.get(), {
      ...AUTH,
      authConfig: { captcha: { gate: ['register'], provider: 'nope', secret: 's' } as never },
    }),
  ).rejects.toThrow(/captcha.provider/);
  await expect(
    build(db.get(), {
      ...AUTH,
      authConfig: { captcha: { gate: ['signup'], provider: 'turnstile', secret: 's' } as never },
    }),
  ).rejects.toThrow(/captcha.gate/);
});

describe(`sessions over HTTP (${testDatabaseKind()})`, () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  beforeAll(async () => {
    server = await build(db.get(), AUTH);
    c = authClient(server);
  });
  afterAll(() => server.close());

  test('GET /auth/sessions lists the live sessions with device and the current flag', async () => {
    const address = email();
    const a = await c.call(
      'POST',
      '/auth/register',
      { email: address, password: PASSWORD },
      { 'user-agent': FIREFOX },
    );
    const b = await c.login({ email: address, password: PASSWORD });
    const ended = await c.login({ email: address, password: PASSWORD });
    expect(
      (await c.call('POST', '/auth/logout', undefined, c.bearer(ended.body.token))).status,
    ).toBe(200);
    const r = await c.call('GET', '/auth/sessions', undefined, c.bearer(a.body.token));
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['sessions']);
    expect(r.body.sessions).toHaveLength(2);
    const mine = r.body.sessions.find((s: { id: string }) => s.id === a.body.session.id);
    expect(mine).toEqual({
      id: a.body.session.id,
      createdAt: a.body.session.createdAt,
      lastActivityAt: expect.any(String),
      expiresAt: a.body.session.expiresAt,
      ip: expect.anything(),
      userAgent: FIREFOX,
      device: 'Firefox on Linux',
      current: true,
    });
    const other = r.body.sessions.find((s: { id: string }) => s.id === b.body.session.id);
    expect(other.current).toBe(false);
    expect(JSON.stringify(r.body)).not.toContain(b.body.refreshToken);
    expect((await c.call('GET', '/auth/sessions')).status).toBe(401);
  });

  test("DELETE /auth/sessions/:id ends one of mine; 404 for another user's; 400 for a bad id", async () => {
    const address = email();
    const a = (await c.register({ email: address, password: PASSWORD })).body;
    const b = (await c.login({ email: address, password: PASSWORD })).body;
    const stranger = (await c.register({ email: email(), password: PASSWORD })).body;
    let r = await c.call('DELETE', `/auth/sessions/${b.session.id}`, undefined, c.bearer(a.token));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect((await c.profile(b.token)).body.code).toBe('SESSION_EXPIRED');
    expect((await c.refresh(b.refreshToken)).status).toBe(401);
    r = await c.call('DELETE', `/auth/sessions/${b.session.id}`, undefined, c.bearer(a.token));
    expect([r.status, r.body.code]).toEqual([404, 'NOT_FOUND']);
    r = await c.call(
      'DELETE',
      `/auth/sessions/${stranger.session.id}`,
      undefined,
      c.bearer(a.token),
    );
    expect([r.status, r.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await c.profile(stranger.token)).status).toBe(200);
    r = await c.call('DELETE', '/auth/sessions/not-a-uuid', undefined, c.bearer(a.token));
    expect([r.status, r.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    r = await c.call('DELETE', `/auth/sessions/${a.session.id}`);
    expect(r.status).toBe(401);
    r = await c.call('GET', `/auth/sessions/${a.session.id}`, undefined, c.bearer(a.token));
    expect(r.status).toBe(405);
  });

  test('POST /auth/sessions/revoke-others → {revoked: n}; the current session lives', async () => {
    const address = email();
    const a = (await c.register({ email: address, password: PASSWORD })).body;
    const b = (await c.login({ email: address, password: PASSWORD })).body;
    const d = (await c.login({ email: address, password: PASSWORD })).body;
    const r = await c.call('POST', '/auth/sessions/revoke-others', undefined, c.bearer(b.token));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ revoked: 2 });
    expect((await c.profile(b.token)).status).toBe(200);
    expect((await c.profile(a.token)).status).toBe(401);
    expect((await c.profile(d.token)).status).toBe(401);
    const list = await c.call('GET', '/auth/sessions', undefined, c.bearer(b.token));
    expect(list.body.sessions.map((s: { id: string }) => s.id)).toEqual([b.session.id]);
  });
});

describe(`refresh-token reuse detection over HTTP (${testDatabaseKind()})`, () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  beforeAll(async () => {
    server = await build(db.get(), AUTH);
    c = authClient(server);
  });
  afterAll(() => server.close());

  test('a retired refresh token replayed after the grace: 401 and the whole family ends', async () => {
    const address = email();
    const first = (await c.register({ email: address, password: PASSWORD })).body;
    const elsewhere = (await c.login({ email: address, password: PASSWORD })).body;
    const second = (await c.refresh(first.refreshToken)).body;
    const third = await c.refresh(second.refreshToken);
    expect(third.status).toBe(200);
    await ageRotations(60);
    const replay = await c.refresh(first.refreshToken);
    expect([replay.status, replay.body.code]).toEqual([401, 'INVALID_REFRESH_TOKEN']);
    expect((await c.profile(third.body.token)).body.code).toBe('SESSION_EXPIRED');
    expect((await c.refresh(third.body.refreshToken)).body.code).toBe('INVALID_REFRESH_TOKEN');
    expect((await c.profile(elsewhere.token)).status).toBe(200);
  });

  test('within the grace (a lost race) the retired token is refused and the family lives', async () => {
    const first = (await c.register({ email: email(), password: PASSWORD })).body;
    const second = (await c.refresh(first.refreshToken)).body;
    const replay = await c.refresh(first.refreshToken);
    expect([replay.status, replay.body.code]).toEqual([401, 'INVALID_REFRESH_TOKEN']);
    expect((await c.profile(second.token)).status).toBe(200);
    expect((await c.refresh(second.refreshToken)).status).toBe(200);
  });

  test('concurrent refreshes with one token: one wins, the losers get 401, the winner lives', async () => {
    const first = (await c.register({ email: email(), password: PASSWORD })).body;
    const all = await Promise.all(Array.from({ length: 6 }, () => c.refresh(first.refreshToken)));
    const won = all.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    for (const r of all) if (r.status !== 200) expect(r.body.code).toBe('INVALID_REFRESH_TOKEN');
    expect((await c.profile(won[0]!.body.token)).status).toBe(200);
  });
});

describe(`two servers over one database (${testDatabaseKind()})`, () => {
  const servers: SvcServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  test('reuse detected on one server ends the family on the other; a revocation on one holds on the other', async () => {
    const a = await start(db.get(), AUTH);
    servers.push(a);
    const b = await start(db.get(), { ...AUTH, ...sameDatabase(db.get()) });
    servers.push(b);
    const address = email();
    const first = (
      await fetchJson(a, 'POST', '/auth/register', { email: address, password: PASSWORD })
    ).body;
    const second = (
      await fetchJson(b, 'POST', '/auth/refresh', { refreshToken: first.refreshToken })
    ).body;
    expect(second.token).toBeDefined();
    await ageRotations(60);
    const replay = await fetchJson(a, 'POST', '/auth/refresh', {
      refreshToken: first.refreshToken,
    });
    expect([replay.status, replay.body.code]).toEqual([401, 'INVALID_REFRESH_TOKEN']);
    const onB = await fetchJson(b, 'GET', '/auth/profile', undefined, bearer(second.token));
    expect([onB.status, onB.body.code]).toEqual([401, 'SESSION_EXPIRED']);

    const x = (await fetchJson(a, 'POST', '/auth/login', { email: address, password: PASSWORD }))
      .body;
    const y = (await fetchJson(b, 'POST', '/auth/login', { email: address, password: PASSWORD }))
      .body;
    const listed = await fetchJson(a, 'GET', '/auth/sessions', undefined, bearer(x.token));
    expect(listed.body.sessions.map((s: { id: string }) => s.id).sort()).toEqual(
      [x.session.id, y.session.id].sort(),
    );
    const del = await fetchJson(
      b,
      'DELETE',
      `/auth/sessions/${x.session.id}`,
      undefined,
      bearer(y.token),
    );
    expect(del.status).toBe(200);
    expect((await fetchJson(a, 'GET', '/auth/profile', undefined, bearer(x.token))).status).toBe(
      401,
    );
    const z = (await fetchJson(a, 'POST', '/auth/login', { email: address, password: PASSWORD }))
      .body;
    const others = await fetchJson(
      a,
      'POST',
      '/auth/sessions/revoke-others',
      undefined,
      bearer(z.token),
    );
    expect(others.body).toEqual({ revoked: 1 });
    expect((await fetchJson(b, 'GET', '/auth/profile', undefined, bearer(y.token))).status).toBe(
      401,
    );
    expect((await fetchJson(b, 'GET', '/auth/profile', undefined, bearer(z.token))).status).toBe(
      200,
    );
  });
});

describe(`guest and session routes under random input (${testDatabaseKind()})`, () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  beforeAll(async () => {
    server = await build(db.get(), {
      ...AUTH,
      authConfig: { rateLimits: { anonymous: { perIp: 10_000 } } },
    });
    c = authClient(server);
  });
  afterAll(() => server.close());

  test('with a valid guest token, no body or id gets a 500', async () => {
    const fc = (await import('fast-check')).default;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
          fc
            .record({ email: fc.jsonValue(), password: fc.jsonValue() })
            .map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 200 }),
        ),
        fc.oneof(fc.string({ maxLength: 60 }), fc.uuid()),
        async (body, id) => {
          const g = (await c.call('POST', '/auth/anonymous')).body;
          expect(g.token).toBeDefined();
          const up = await c.call('POST', '/auth/upgrade', body, c.bearer(g.token));
          expect(up.status).not.toBe(500);
          expect(typeof up.body?.code === 'string' || up.status === 200).toBe(true);
          const del = await c.call(
            'DELETE',
            `/auth/sessions/${encodeURIComponent(id)}`,
            undefined,
            c.bearer(g.token),
          );
          expect(del.status).not.toBe(500);
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});
