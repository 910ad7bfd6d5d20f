import { randomUUID } from 'node:crypto';
import type { AuthEvent } from '@svc/auth';
import type { SvcServer } from '../src';
import { SECRET, authClient, build, captureEvents, sharedDatabase } from './helpers';

const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const email = () => `u-${randomUUID()}@example.com`;

describe('accounts over HTTP', () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  let events: AuthEvent[];
  beforeAll(async () => {
    server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { passwordRequireNumbers: true },
    });
    c = authClient(server);
    events = captureEvents(server);
  });
  afterAll(() => server.close());

  test('register: 201 with the Auth result of the spec', async () => {
    const address = email();
    const r = await c.register({
      email: address,
      password: `${PASSWORD}1`,
      username: `ada_${Date.now()}`,
      metadata: { plan: 'free' },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['refreshToken', 'session', 'token', 'user']);
    expect(r.body.user).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: address,
      username: expect.stringMatching(/^ada_/),
      emailVerified: false,
      active: true,
      metadata: { plan: 'free' },
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect(r.body.session).toEqual({
      id: expect.any(String),
      userId: r.body.user.id,
      token: r.body.token,
      refreshToken: r.body.refreshToken,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(JSON.stringify(r.body)).not.toMatch(/hash|\$2[aby]\$/);
    await server.auth!.settle();
    expect(events.filter((e) => e.userId === r.body.user.id).map((e) => e.eventType)).toEqual([
      'IdentityCreated',
    ]);
  });

  test('the access token carries the spec claims', async () => {
    const r = await c.register({ email: email(), password: `${PASSWORD}1` });
    const claims = JSON.parse(Buffer.from(r.body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({
      aud: 'svc-api',
      iss: 'svc',
      sub: r.body.user.id,
      email: r.body.user.email,
      roles: [],
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(typeof claims.jti).toBe('string');
  });

  test.each([
    [{ password: `${PASSWORD}1` }, 400, 'VALIDATION_ERROR'],
    [{ email: 'not-an-email', password: `${PASSWORD}1` }, 400, 'VALIDATION_ERROR'],
    [{ email: 'x@example.com', password: 'short1' }, 400, 'PASSWORD_TOO_WEAK'],
    [{ email: 'x@example.com', password: 'long enough but no digits' }, 400, 'PASSWORD_TOO_WEAK'],
  ])('register %j → %i %s', async (body, status, code) => {
    const r = await c.register(body);
    expect(r.status).toBe(status);
    expect(r.body.code).toBe(code);
    expect(r.body.error).toMatch(new RegExp(`^${code}: `));
  });

  test('PASSWORD_TOO_WEAK describes the requirements', async () => {
    const r = await c.register({ email: email(), password: 'abc' });
    expect(r.body.error).toMatch(/8/);
    expect(r.body.error).toMatch(/number|digit/i);
  });

  test('a taken email or username is 409 USER_ALREADY_EXISTS', async () => {
    const address = email();
    const username = `taken_${Date.now()}`;
    expect((await c.register({ email: address, password: `${PASSWORD}1`, username })).status).toBe(
      201,
    );
    expect(
      (await c.register({ email: address.toUpperCase(), password: `${PASSWORD}1` })).body.code,
    ).toBe('USER_ALREADY_EXISTS');
    const r = await c.register({ email: email(), password: `${PASSWORD}1`, username });
    expect(r).toMatchObject({ status: 409, body: { code: 'USER_ALREADY_EXISTS' } });
  });

  test('login by email or username; wrong or unknown is 401 INVALID_CREDENTIALS', async () => {
    const address = email();
    const username = `login_${Date.now()}`;
    await c.register({ email: address, password: `${PASSWORD}1`, username });
    const byEmail = await c.login({ email: address, password: `${PASSWORD}1` });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user.email).toBe(address);
    expect((await c.login({ username, password: `${PASSWORD}1` })).status).toBe(200);
    expect(await c.login({ email: address, password: 'wrong password 1' })).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    expect(await c.login({ email: email(), password: `${PASSWORD}1` })).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    expect(await c.login({ password: 'x' })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
  });

  test('an inactive account is 403 USER_INACTIVE', async () => {
    const address = email();
    await c.register({ email: address, password: `${PASSWORD}1` });
    await server.auth!.setActive(address, false);
    expect(await c.login({ email: address, password: `${PASSWORD}1` })).toMatchObject({
      status: 403,
      body: { code: 'USER_INACTIVE' },
    });
  });

  test('profile needs a token and returns the user without secrets', async () => {
    const r = await c.register({ email: email(), password: `${PASSWORD}1` });
    const p = await c.profile(r.body.token);
    expect(p.status).toBe(200);
    expect(p.body).toEqual(r.body.user);
    const none = await c.call('GET', '/auth/profile');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
  });

  test('token sources: the header wins over the cookie, the cookie over ?token', async () => {
    const good = (await c.register({ email: email(), password: `${PASSWORD}1` })).body.token;
    expect(
      (await c.call('GET', '/auth/profile', undefined, { cookie: `auth_token=${good}` })).status,
    ).toBe(200);
    expect((await c.call('GET', `/auth/profile?token=${good}`)).status).toBe(200);
    expect(
      (
        await c.call('GET', '/auth/profile', undefined, {
          authorization: 'Bearer bad',
          cookie: `auth_token=${good}`,
        })
      ).status,
    ).toBe(401);
    expect(
      (await c.call('GET', `/auth/profile?token=${good}`, undefined, { cookie: 'auth_token=bad' }))
        .status,
    ).toBe(401);
  });

  // Attacks: a token whose payload was edited, and one that claims `alg: none`.
  test('tampered and alg:none tokens are 401 INVALID_TOKEN', async () => {
    const r = await c.register({ email: email(), password: `${PASSWORD}1` });
    const [head, payload, sig] = r.body.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, roles: ['superuser'] })).toString(
      'base64url',
    );
    expect((await c.profile(`${head}.${forged}.${sig}`)).body.code).toBe('INVALID_TOKEN');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await c.profile(`${none}.${payload}.`)).body.code).toBe('INVALID_TOKEN');
  });

  test('logout revokes the session: the token then answers 401 SESSION_EXPIRED', async () => {
    const r = await c.register({ email: email(), password: `${PASSWORD}1` });
    const out = await c.call('POST', '/auth/logout', undefined, c.bearer(r.body.token));
    expect(out).toMatchObject({ status: 200, body: { success: true } });
    expect(await c.profile(r.body.token)).toMatchObject({
      status: 401,
      body: { code: 'SESSION_EXPIRED' },
    });
    // The refresh token of a logged-out session is dead too.
    expect(
      (await c.call('POST', '/auth/refresh', { refreshToken: r.body.refreshToken })).body.code,
    ).toBe('INVALID_REFRESH_TOKEN');
  });

  test('refresh rotates: new token and refresh token; the old refresh token and session are dead', async () => {
    const r = await c.register({ email: email(), password: `${PASSWORD}1` });
    const next = await c.call('POST', '/auth/refresh', { refreshToken: r.body.refreshToken });
    expect(next.status).toBe(200);
    expect(next.body.token).not.toBe(r.body.token);
    expect(next.body.refreshToken).not.toBe(r.body.refreshToken);
    expect((await c.profile(next.body.token)).status).toBe(200);
    expect(
      await c.call('POST', '/auth/refresh', { refreshToken: r.body.refreshToken }),
    ).toMatchObject({ status: 401, body: { code: 'INVALID_REFRESH_TOKEN' } });
    expect((await c.profile(r.body.token)).body.code).toBe('SESSION_EXPIRED');
  });

  test('ten concurrent refreshes with one refresh token give exactly one new session', async () => {
    const r = await c.register({ email: email(), password: `${PASSWORD}1` });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        c.call('POST', '/auth/refresh', { refreshToken: r.body.refreshToken }),
      ),
    );
    expect(results.filter((x) => x.status === 200)).toHaveLength(1);
    expect(
      results.filter((x) => x.status === 401 && x.body.code === 'INVALID_REFRESH_TOKEN'),
    ).toHaveLength(9);
  });

  test('changing the password revokes every session of the user', async () => {
    const address = email();
    const first = await c.register({ email: address, password: `${PASSWORD}1` });
    const second = await c.login({ email: address, password: `${PASSWORD}1` });
    const wrong = await c.call(
      'PUT',
      '/auth/password',
      { old_password: 'nope nope 1', new_password: `${PASSWORD}2` },
      c.bearer(first.body.token),
    );
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
    const ok = await c.call(
      'PUT',
      '/auth/password',
      { old_password: `${PASSWORD}1`, new_password: `${PASSWORD}2` },
      c.bearer(first.body.token),
    );
    expect(ok).toMatchObject({ status: 200, body: { success: true } });
    expect((await c.profile(first.body.token)).body.code).toBe('SESSION_EXPIRED');
    expect((await c.profile(second.body.token)).body.code).toBe('SESSION_EXPIRED');
    expect((await c.login({ email: address, password: `${PASSWORD}1` })).status).toBe(401);
    expect((await c.login({ email: address, password: `${PASSWORD}2` })).status).toBe(200);
  });

  test('a missing password field is named as the body names it (old_password, new_password)', async () => {
    const r = await c.register({ email: email(), password: `${PASSWORD}1` });
    const noNew = await c.call(
      'PUT',
      '/auth/password',
      { old_password: `${PASSWORD}1` },
      c.bearer(r.body.token),
    );
    expect(noNew).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', error: 'VALIDATION_ERROR: new_password is required' },
    });
    const noOld = await c.call(
      'PUT',
      '/auth/password',
      { new_password: `${PASSWORD}2` },
      c.bearer(r.body.token),
    );
    expect(noOld).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', error: 'VALIDATION_ERROR: old_password is required' },
    });
    const confirm = await c.call('POST', '/auth/reset/confirm', { reset_token: 'x'.repeat(43) });
    expect(confirm).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', error: 'VALIDATION_ERROR: new_password is required' },
    });
  });

  test('reset: the response never holds the token; the event does; confirming revokes every session', async () => {
    const address = email();
    const session = await c.register({ email: address, password: `${PASSWORD}1` });
    const asked = await c.call('POST', '/auth/reset', { email: address });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ message: expect.any(String), success: true });
    await server.auth!.settle();
    const event = events.find(
      (e) => e.eventType === 'PasswordResetRequested' && e.email === address,
    );
    expect(event?.resetToken).toEqual(expect.any(String));
    expect(JSON.stringify(asked.body)).not.toContain(event?.resetToken as string);
    const unknown = await c.call('POST', '/auth/reset', { email: email() });
    expect(unknown.body).toEqual(asked.body); // no enumeration

    const done = await c.call('POST', '/auth/reset/confirm', {
      reset_token: event?.resetToken,
      new_password: `${PASSWORD}3`,
    });
    expect(done).toMatchObject({ status: 200, body: { success: true } });
    expect((await c.profile(session.body.token)).body.code).toBe('SESSION_EXPIRED');
    expect((await c.login({ email: address, password: `${PASSWORD}3` })).status).toBe(200);
    const again = await c.call('POST', '/auth/reset/confirm', {
      reset_token: event?.resetToken,
      new_password: `${PASSWORD}4`,
    });
    expect(again).toMatchObject({ status: 401, body: { code: 'INVALID_TOKEN' } });
  });

  test('route lockdown: unknown /auth routes are 404, known ones with another method 405', async () => {
    expect((await c.call('POST', '/auth/nope', {})).status).toBe(404);
    const r = await c.call('GET', '/auth/login');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });
});

describe('email verification', () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  let events: AuthEvent[];
  beforeAll(async () => {
    server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { requireEmailVerification: true },
    });
    c = authClient(server);
    events = captureEvents(server);
  });
  afterAll(() => server.close());
  const tokenFor = async (address: string, nth = 0) => {
    await server.auth!.settle();
    return events.filter(
      (e) => e.eventType === 'EmailVerificationRequested' && e.email === address,
    )[nth]?.verificationToken as string;
  };

  test('login waits for verification (403 EMAIL_NOT_VERIFIED); the link works from another device', async () => {
    const address = email();
    const r = await c.register({ email: address, password: PASSWORD });
    expect(r.status).toBe(201);
    expect(r.body.user.emailVerified).toBe(false);
    expect(await c.login({ email: address, password: PASSWORD })).toMatchObject({
      status: 403,
      body: { code: 'EMAIL_NOT_VERIFIED' },
    });
    const token = await tokenFor(address);
    // "Another device": no cookie, no session, another user-agent.
    const v = await c.call('GET', `/auth/verify?token=${encodeURIComponent(token)}`, undefined, {
      'user-agent': 'another-device/1.0',
    });
    expect(v).toMatchObject({ status: 200, body: { success: true } });
    const ok = await c.login({ email: address, password: PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.body.user.emailVerified).toBe(true);
    await server.auth!.settle();
    expect(events.some((e) => e.eventType === 'EmailVerified' && e.email === address)).toBe(true);
    expect((await c.call('GET', `/auth/verify?token=${encodeURIComponent(token)}`)).body.code).toBe(
      'INVALID_TOKEN',
    );
  });

  test('after resend, the earlier link is stale (INVALID_TOKEN) and the new one works', async () => {
    const address = email();
    await c.register({ email: address, password: PASSWORD });
    const first = await tokenFor(address);
    expect(await c.call('POST', '/auth/verify/resend', { email: address })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    const second = await tokenFor(address, 1);
    expect(second).not.toBe(first);
    expect((await c.call('GET', `/auth/verify?token=${encodeURIComponent(first)}`)).body.code).toBe(
      'INVALID_TOKEN',
    );
    expect((await c.call('GET', `/auth/verify?token=${encodeURIComponent(second)}`)).status).toBe(
      200,
    );
  });

  test('resend for an unknown or verified email answers the same 200', async () => {
    expect(await c.call('POST', '/auth/verify/resend', { email: email() })).toMatchObject({
      status: 200,
      body: { success: true },
    });
  });
});

describe('configuration-driven answers', () => {
  test('allowRegistration false is 403 REGISTRATION_DISABLED', async () => {
    const server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { allowRegistration: false },
    });
    try {
      const r = await authClient(server).register({ email: email(), password: PASSWORD });
      expect(r).toMatchObject({ status: 403, body: { code: 'REGISTRATION_DISABLED' } });
    } finally {
      await server.close();
    }
  });

  test('an expired access token is 401 TOKEN_EXPIRED', async () => {
    const server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { tokenExpiry: 1 },
    });
    try {
      const c = authClient(server);
      const r = await c.register({ email: email(), password: PASSWORD });
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect(await c.profile(r.body.token)).toMatchObject({
        status: 401,
        body: { code: 'TOKEN_EXPIRED' },
      });
    } finally {
      await server.close();
    }
  });

  test('a token for another audience or issuer is INVALID_TOKEN', async () => {
    const a = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
    const b = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { jwtAudience: 'other-api' },
    });
    const d = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { jwtIssuer: 'other-issuer' },
    });
    try {
      const token = (await authClient(a).register({ email: email(), password: PASSWORD })).body
        .token;
      expect((await authClient(a).profile(token)).status).toBe(200);
      expect((await authClient(b).profile(token)).body.code).toBe('INVALID_TOKEN');
      expect((await authClient(d).profile(token)).body.code).toBe('INVALID_TOKEN');
    } finally {
      await Promise.all([a.close(), b.close(), d.close()]);
    }
  });

  test('roles are copied into tokens at issue time (Authentication 7)', async () => {
    const server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
    try {
      const c = authClient(server);
      const address = email();
      const first = await c.register({ email: address, password: PASSWORD });
      await server.auth!.roles.create(`editor-${first.body.user.id.slice(0, 8)}`);
      await server.auth!.roles.assign(address, `editor-${first.body.user.id.slice(0, 8)}`);
      const claimsOf = (t: string) =>
        JSON.parse(Buffer.from(t.split('.')[1] as string, 'base64url').toString());
      expect(claimsOf(first.body.token).roles).toEqual([]);
      const again = await c.login({ email: address, password: PASSWORD });
      expect(claimsOf(again.body.token).roles).toEqual([
        `editor-${first.body.user.id.slice(0, 8)}`,
      ]);
    } finally {
      await server.close();
    }
  });

  test('cookie: true sets auth_token (HttpOnly, SameSite=Lax, Path=/) and logout clears it', async () => {
    const server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { cookie: true },
    });
    try {
      const c = authClient(server);
      const r = await c.register({ email: email(), password: PASSWORD });
      const cookie = r.headers.get('set-cookie') as string;
      expect(cookie).toMatch(/^auth_token=[^;]+; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/);
      const out = await c.call('POST', '/auth/logout', undefined, c.bearer(r.body.token));
      expect(out.headers.get('set-cookie')).toMatch(/^auth_token=; Max-Age=0;/);
    } finally {
      await server.close();
    }
  });
});
