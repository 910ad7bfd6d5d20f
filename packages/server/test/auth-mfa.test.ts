/**
 * Issue 12, MFA over HTTP through @svc/server, on the engine SVC_TEST_DB names: every TOTP and
 * recovery-code route with its statuses and error codes (DECISIONS "MFA challenge", "TOTP"), the
 * challenge a password login returns, and two servers over one database agreeing on challenges
 * and on replayed codes.
 */
import { randomUUID } from 'node:crypto';
import { base32Decode, hotp, totp } from '@svc/auth';
import { testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import type { CreateServerOptions, SvcServer } from '../src';
import {
  SECRET,
  authClient,
  build,
  captureLogger,
  readJson,
  sharedDatabase,
  start,
} from './helpers';

const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';
const AUTH = { enableAuth: true, jwtSecret: SECRET } as const;
const email = () => `mfa-${randomUUID()}@example.com`;
const step = () => Math.floor(Date.now() / 30_000);

type Client = ReturnType<typeof authClient>;

/** A user with confirmed TOTP (over HTTP): address, access token and the secret's key. */
async function userWithTotp(c: Client) {
  const address = email();
  const reg = await c.register({ email: address, password: PASSWORD });
  expect(reg.status).toBe(201);
  const token = reg.body.token as string;
  const enrolled = await c.call('POST', '/auth/mfa/totp/enroll', undefined, c.bearer(token));
  expect(enrolled.status).toBe(200);
  const key = base32Decode(enrolled.body.secret) as Buffer;
  const confirmed = await c.call(
    'POST',
    '/auth/mfa/totp/confirm',
    { code: totp(key, Date.now()) },
    c.bearer(token),
  );
  expect(confirmed).toMatchObject({ status: 200, body: { success: true } });
  return { address, token, key, userId: reg.body.user.id as string };
}

/** A code for a step this user has not used yet: the next step (inside the ±1 window). */
const nextCode = (key: Buffer) => hotp(key, step() + 1);

describe(`MFA over HTTP on ${testDatabaseKind()}`, () => {
  let server: SvcServer;
  let c: Client;
  let lines: string[];
  beforeAll(async () => {
    const captured = captureLogger();
    lines = captured.lines;
    server = await build(db.get(), {
      ...AUTH,
      logger: captured.logger,
      authConfig: { cookie: true, branding: { appName: 'Acme' } },
    });
    c = authClient(server);
  });
  afterAll(() => server.close());

  test('the MFA routes need a token where the spec says Auth, and none answers 501', async () => {
    for (const path of [
      '/auth/mfa/totp/enroll',
      '/auth/mfa/totp/confirm',
      '/auth/mfa/totp/disable',
      '/auth/mfa/recovery-codes/generate',
    ]) {
      const r = await c.call('POST', path, {});
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('UNAUTHORIZED');
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
    }
    for (const path of ['/auth/mfa/totp/login', '/auth/mfa/recovery-codes/login']) {
      const r = await c.call('POST', path, {});
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await c.call('GET', '/auth/mfa/totp/enroll')).status).toBe(405);
  });

  test('enroll → 200 {secret, otpauthUri}; confirm → 200 {success: true}; never cached', async () => {
    const address = email();
    const { body } = await c.register({ email: address, password: PASSWORD });
    const r = await c.call('POST', '/auth/mfa/totp/enroll', undefined, c.bearer(body.token));
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(r.body).sort()).toEqual(['otpauthUri', 'secret']);
    expect(r.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(r.body.otpauthUri).toBe(
      `otpauth://totp/Acme:${encodeURIComponent(address)}?secret=${r.body.secret}&issuer=Acme&algorithm=SHA1&digits=6&period=30`,
    );
    const key = base32Decode(r.body.secret) as Buffer;
    const confirm = (code: unknown) =>
      c.call('POST', '/auth/mfa/totp/confirm', { code }, c.bearer(body.token));
    expect(await confirm(totp(key, Date.now()) === '999999' ? '000000' : '999999')).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    expect(await confirm('12 34')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    expect(await confirm(123456)).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    expect(await confirm(totp(key, Date.now()))).toMatchObject({
      status: 200,
      body: { success: true },
    });
    expect(await confirm(nextCode(key))).toMatchObject({
      status: 400,
      body: { code: 'INVALID_OPERATION' },
    });
    // The secret never shows again, nor in the logs.
    expect(lines.join('\n')).not.toContain(r.body.secret);
  });

  test('confirm without an enrolment: 400 INVALID_OPERATION; a body that is not JSON: 400', async () => {
    const { body } = await c.register({ email: email(), password: PASSWORD });
    expect(
      await c.call('POST', '/auth/mfa/totp/confirm', { code: '123456' }, c.bearer(body.token)),
    ).toMatchObject({ status: 400, body: { code: 'INVALID_OPERATION' } });
    expect(
      await c.call('POST', '/auth/mfa/totp/confirm', '{"code":', c.bearer(body.token)),
    ).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  test('login with confirmed TOTP → 200 challenge (no cookie); totp/login → Auth result with cookie', async () => {
    const u = await userWithTotp(c);
    const login = await c.login({ email: u.address, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).toBeNull();
    expect(Object.keys(login.body).sort()).toEqual([
      'challengeToken',
      'expiresAt',
      'methods',
      'mfaRequired',
    ]);
    expect(login.body).toMatchObject({ mfaRequired: true, methods: ['totp'] });
    const expires = Date.parse(login.body.expiresAt);
    expect(expires - Date.now()).toBeGreaterThan(290_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(300_000);

    const answer = (challengeToken: unknown, code: unknown) =>
      c.call('POST', '/auth/mfa/totp/login', { challengeToken, code });
    const code = nextCode(u.key);
    const wrong = code === '000000' ? '000001' : '000000';
    expect(await answer(login.body.challengeToken, wrong)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS', error: expect.stringMatching(/^INVALID_CREDENTIALS: /) },
    });
    const ok = await answer(login.body.challengeToken, code);
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body).sort()).toEqual(['refreshToken', 'session', 'token', 'user']);
    expect(ok.body.user.id).toBe(u.userId);
    expect(ok.headers.get('set-cookie')).toMatch(/^auth_token=.+; HttpOnly; SameSite=Lax/);
    expect((await c.profile(ok.body.token)).status).toBe(200);
    // Used: the challenge is dead, and the code is spent for a new challenge too.
    expect(await answer(login.body.challengeToken, code)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_TOKEN' },
    });
    const again = await c.login({ email: u.address, password: PASSWORD });
    expect(await answer(again.body.challengeToken, code)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    expect(await answer('x'.repeat(43), code)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_TOKEN' },
    });
    expect(await answer(again.body.challengeToken, 'abc')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    expect(await answer(undefined, code)).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    // The failures are logged (so the checks below see a live log), the secrets are not.
    expect(lines.join('\n')).toContain('mfa verification failed');
    expect(lines.join('\n')).not.toContain(login.body.challengeToken);
    expect(lines.join('\n')).not.toContain(`"${code}"`);
  });

  test('5 wrong codes kill a challenge: then 401 INVALID_TOKEN even for the right code', async () => {
    const u = await userWithTotp(c);
    const login = await c.login({ email: u.address, password: PASSWORD });
    const code = nextCode(u.key);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await c.call('POST', '/auth/mfa/totp/login', {
        challengeToken: login.body.challengeToken,
        code: wrong,
      });
      expect(r.body.code).toBe('INVALID_CREDENTIALS');
    }
    const r = await c.call('POST', '/auth/mfa/totp/login', {
      challengeToken: login.body.challengeToken,
      code,
    });
    expect(r).toMatchObject({ status: 401, body: { code: 'INVALID_TOKEN' } });
  });

  test('a user deactivated while a challenge is open: 403 USER_INACTIVE', async () => {
    const u = await userWithTotp(c);
    const login = await c.login({ email: u.address, password: PASSWORD });
    await server.auth?.setActive(u.address, false);
    expect(
      await c.call('POST', '/auth/mfa/totp/login', {
        challengeToken: login.body.challengeToken,
        code: nextCode(u.key),
      }),
    ).toMatchObject({ status: 403, body: { code: 'USER_INACTIVE' } });
  });

  test('recovery codes: generate → 200 {codes: 8}; recovery-codes/login → Auth result; a code burns once', async () => {
    const u = await userWithTotp(c);
    const gen = await c.call(
      'POST',
      '/auth/mfa/recovery-codes/generate',
      undefined,
      c.bearer(u.token),
    );
    expect(gen.status).toBe(200);
    expect(Object.keys(gen.body)).toEqual(['codes']);
    expect(gen.body.codes).toHaveLength(8);
    for (const code of gen.body.codes)
      expect(code).toMatch(/^[A-HJKMNP-TV-Z2-9]{5}-[A-HJKMNP-TV-Z2-9]{5}$/);

    const login = await c.login({ email: u.address, password: PASSWORD });
    expect(login.body.methods).toEqual(['totp', 'recovery_code']);
    const use = (challengeToken: string, code: string) =>
      c.call('POST', '/auth/mfa/recovery-codes/login', { challengeToken, code });
    const typed = ` ${gen.body.codes[0].toLowerCase().replace('-', ' ')} `;
    const ok = await use(login.body.challengeToken, typed);
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(u.userId);
    expect(ok.headers.get('set-cookie')).toMatch(/^auth_token=/);

    const again = await c.login({ email: u.address, password: PASSWORD });
    expect(await use(again.body.challengeToken, gen.body.codes[0])).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    // A new batch kills the old one.
    const gen2 = await c.call(
      'POST',
      '/auth/mfa/recovery-codes/generate',
      undefined,
      c.bearer(u.token),
    );
    expect(await use(again.body.challengeToken, gen.body.codes[1])).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    expect((await use(again.body.challengeToken, gen2.body.codes[1])).status).toBe(200);
    expect(await use('y'.repeat(43), gen2.body.codes[2])).toMatchObject({
      status: 401,
      body: { code: 'INVALID_TOKEN' },
    });
    expect(
      await c.call('POST', '/auth/mfa/recovery-codes/login', { challengeToken: 'y'.repeat(43) }),
    ).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    const log = lines.join('\n');
    for (const code of [...gen.body.codes, ...gen2.body.codes]) expect(log).not.toContain(code);
  });

  test('disable: 200 with a TOTP code or a recovery code; wrong 401; not enabled 400', async () => {
    const u = await userWithTotp(c);
    const disable = (code: unknown, token = u.token) =>
      c.call('POST', '/auth/mfa/totp/disable', { code }, c.bearer(token));
    const code = nextCode(u.key);
    expect(await disable(code === '000000' ? '000001' : '000000')).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    expect(await disable(undefined)).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    expect(await disable(code)).toMatchObject({ status: 200, body: { success: true } });
    expect(await disable(code)).toMatchObject({ status: 400, body: { code: 'INVALID_OPERATION' } });
    // TOTP is off: login is a session again.
    const login = await c.login({ email: u.address, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.token).toEqual(expect.any(String));

    const v = await userWithTotp(c);
    const gen = await c.call(
      'POST',
      '/auth/mfa/recovery-codes/generate',
      undefined,
      c.bearer(v.token),
    );
    expect(await disable(gen.body.codes[5], v.token)).toMatchObject({ status: 200 });
    expect((await c.login({ email: v.address, password: PASSWORD })).body.token).toEqual(
      expect.any(String),
    );
  });
});

describe(`MFA across two servers over one database (${testDatabaseKind()})`, () => {
  const servers: SvcServer[] = [];
  /** A second server as another process would be: its own pool on PostgreSQL. */
  const sameDatabase = (t: TestDatabase): CreateServerOptions =>
    testDatabaseKind() === 'postgres' ? { database: t.config, databaseInstance: undefined } : {};
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function post(server: SvcServer, route: string, body: unknown, token?: string) {
    const res = await fetch(`${server.url}${route}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: assertions read the body loosely
    return { status: res.status, body: (await readJson(res).catch(() => null)) as any };
  }

  test('a challenge made by one server is completed through the other; replays are refused on both', async () => {
    const a = await start(db.get(), AUTH);
    const b = await start(db.get(), { ...AUTH, ...sameDatabase(db.get()) });
    servers.push(a, b);
    const address = email();
    const reg = await post(a, '/auth/register', { email: address, password: PASSWORD });
    const token = reg.body.token as string;
    const enrolled = await post(a, '/auth/mfa/totp/enroll', {}, token);
    const key = base32Decode(enrolled.body.secret) as Buffer;
    // Confirmed through B: the enrolment A made is in the shared database.
    expect(
      (await post(b, '/auth/mfa/totp/confirm', { code: totp(key, Date.now()) }, token)).status,
    ).toBe(200);

    const challenge = await post(a, '/auth/login', { email: address, password: PASSWORD });
    expect(challenge.body.mfaRequired).toBe(true);
    const code = nextCode(key);
    const done = await post(b, '/auth/mfa/totp/login', {
      challengeToken: challenge.body.challengeToken,
      code,
    });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(reg.body.user.id);
    // The challenge is consumed for A too, and the code is spent for A's next challenge.
    expect(
      (
        await post(a, '/auth/mfa/totp/login', {
          challengeToken: challenge.body.challengeToken,
          code,
        })
      ).body.code,
    ).toBe('INVALID_TOKEN');
    const next = await post(a, '/auth/login', { email: address, password: PASSWORD });
    expect(
      await post(a, '/auth/mfa/totp/login', { challengeToken: next.body.challengeToken, code }),
    ).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
  });

  test('one code sent to both servers at once, on two challenges: exactly one session', async () => {
    const a = await start(db.get(), AUTH);
    const b = await start(db.get(), { ...AUTH, ...sameDatabase(db.get()) });
    servers.push(a, b);
    const address = email();
    const reg = await post(a, '/auth/register', { email: address, password: PASSWORD });
    const enrolled = await post(a, '/auth/mfa/totp/enroll', {}, reg.body.token);
    const key = base32Decode(enrolled.body.secret) as Buffer;
    await post(a, '/auth/mfa/totp/confirm', { code: totp(key, Date.now()) }, reg.body.token);
    const gen = await post(a, '/auth/mfa/recovery-codes/generate', {}, reg.body.token);
    const code = nextCode(key);
    const challenges = await Promise.all(
      [a, b, a, b].map((s) => post(s, '/auth/login', { email: address, password: PASSWORD })),
    );
    const answers = await Promise.all(
      challenges.map((ch, i) =>
        post(i % 2 ? b : a, '/auth/mfa/totp/login', {
          challengeToken: ch.body.challengeToken,
          code,
        }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
    // The same for one recovery code: burned by exactly one.
    const more = await Promise.all(
      [a, b, a, b].map((s) => post(s, '/auth/login', { email: address, password: PASSWORD })),
    );
    const burns = await Promise.all(
      more.map((ch, i) =>
        post(i % 2 ? b : a, '/auth/mfa/recovery-codes/login', {
          challengeToken: ch.body.challengeToken,
          code: gen.body.codes[0],
        }),
      ),
    );
    expect(burns.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
  });

  test('wrong codes over the mfaVerify limit: 429 RATE_LIMITED with Retry-After, counted across servers', async () => {
    const limited = { ...AUTH, authConfig: { rateLimits: { mfaVerify: { perEmail: 3 } } } };
    const a = await start(db.get(), limited);
    const b = await start(db.get(), { ...limited, ...sameDatabase(db.get()) });
    servers.push(a, b);
    const address = email();
    const reg = await post(a, '/auth/register', { email: address, password: PASSWORD });
    await post(a, '/auth/mfa/totp/enroll', {}, reg.body.token);
    // Three wrong confirms, split over both servers, fill the account's count.
    for (const s of [a, b, a])
      expect(
        (await post(s, '/auth/mfa/totp/confirm', { code: '000000' }, reg.body.token)).status,
      ).toBeGreaterThanOrEqual(400);
    const res = await fetch(`${b.url}/auth/mfa/totp/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${reg.body.token}` },
      body: JSON.stringify({ code: '000000' }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(((await res.json()) as { code: string }).code).toBe('RATE_LIMITED');
    await db.get().db.query('truncate svc_auth.rate_limits');
  });
});
