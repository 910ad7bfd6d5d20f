/**
 * Issue 8, auth findings: sessions that idled out or belong to a deactivated user, one-time reset
 * tokens that outlived what should have killed them, text PostgreSQL cannot store, methods a Fetch
 * `Request` cannot carry, identifier normalisation (RFC 5321 limits, NFKC, case-insensitive
 * usernames, NFKC passwords), the metadata size limit and the failed-login log line. Every case
 * goes through @svc/server's whole HTTP pipeline on the engine SVC_TEST_DB picks: in-process,
 * and on a real socket for TRACE and CONNECT.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { AuthEvent } from '@svc/auth';
import type { SvcServer } from '../src';
import {
  SECRET,
  authClient,
  build,
  captureEvents,
  captureLogger,
  rawRequest,
  sharedDatabase,
  start,
} from './helpers';

// bcrypt as @svc/auth uses it (not a dependency of the server), to write a legacy hash by hand.
const bcrypt = createRequire(require.resolve('@svc/auth'))('bcryptjs') as {
  hash(data: string, rounds: number): Promise<string>;
  compare(data: string, hash: string): Promise<boolean>;
};
const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';
const email = () => `h-${randomUUID()}@example.com`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Attack: a refresh token lifted from an abandoned device. The spec ends a session idle past
// `sessionTimeout` ("any request using it": 401 SESSION_EXPIRED); refreshing must not revive it.
describe('issue 8: an idle-timed-out session cannot be revived by refresh', () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  beforeAll(async () => {
    server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { sessionTimeout: 1 },
    });
    c = authClient(server);
  });
  afterAll(() => server.close());

  test('refresh within the timeout rotates; after it, 401 SESSION_EXPIRED', async () => {
    const r = await c.register({ email: email(), password: PASSWORD });
    const next = await c.refresh(r.body.refreshToken);
    expect(next.status).toBe(200);
    await sleep(1300);
    expect(await c.profile(next.body.token)).toMatchObject({
      status: 401,
      body: { code: 'SESSION_EXPIRED' },
    });
    const revived = await c.refresh(next.body.refreshToken);
    expect(revived).toMatchObject({
      status: 401,
      body: { code: 'SESSION_EXPIRED', error: expect.stringMatching(/^SESSION_EXPIRED: /) },
    });
  });
});

// Attack: an employee is deactivated but keeps a refresh token; refreshing must not mint tokens.
describe('issue 8: deactivation', () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  beforeAll(async () => {
    server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
    c = authClient(server);
  });
  afterAll(() => server.close());

  test('refresh of a deactivated user is 403 USER_INACTIVE; deactivation revokes every session', async () => {
    const address = email();
    const a = await c.register({ email: address, password: PASSWORD });
    const b = await c.login({ email: address, password: PASSWORD });
    await server.auth!.setActive(address, false);
    expect(await c.refresh(a.body.refreshToken)).toMatchObject({
      status: 403,
      body: { code: 'USER_INACTIVE' },
    });
    expect(await c.profile(b.body.token)).toMatchObject({
      status: 403,
      body: { code: 'USER_INACTIVE' },
    });
    const { rows } = await server.database.query<{ n: number }>(
      'select count(*)::int as n from svc_auth.sessions where user_id = $1 and revoked_at is null',
      [a.body.user.id],
    );
    expect(rows).toEqual([{ n: 0 }]);
    // Reactivation does not bring the old sessions back: the user logs in again.
    await server.auth!.setActive(address, true);
    expect(await c.refresh(b.body.refreshToken)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_REFRESH_TOKEN' },
    });
    expect(await c.profile(a.body.token)).toMatchObject({
      status: 401,
      body: { code: 'SESSION_EXPIRED' },
    });
    expect((await c.login({ email: address, password: PASSWORD })).status).toBe(200);
  });
});

// Attack: a reset link sitting in a mailbox (or leaked) after the owner changed their password,
// or after they asked for a newer link, still takes the account over.
describe('issue 8: reset tokens die when they should', () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  let events: AuthEvent[];
  beforeAll(async () => {
    server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
    c = authClient(server);
    events = captureEvents(server);
  });
  afterAll(() => server.close());
  const resetTokens = async (address: string) => {
    await server.auth!.settle();
    return events
      .filter((e) => e.eventType === 'PasswordResetRequested' && e.email === address)
      .map((e) => e.resetToken as string);
  };
  const confirm = (token: string, password: string) =>
    c.call('POST', '/auth/reset/confirm', { reset_token: token, new_password: password });

  test('a password change kills an outstanding reset token', async () => {
    const address = email();
    const r = await c.register({ email: address, password: PASSWORD });
    await c.call('POST', '/auth/reset', { email: address });
    const [token] = await resetTokens(address);
    const changed = await c.call(
      'PUT',
      '/auth/password',
      { old_password: PASSWORD, new_password: `${PASSWORD} 2` },
      c.bearer(r.body.token),
    );
    expect(changed.status).toBe(200);
    expect(await confirm(token as string, 'attacker password')).toMatchObject({
      status: 401,
      body: { code: 'INVALID_TOKEN' },
    });
    expect((await c.login({ email: address, password: `${PASSWORD} 2` })).status).toBe(200);
  });

  test('an administrative set-password kills an outstanding reset token', async () => {
    const address = email();
    await c.register({ email: address, password: PASSWORD });
    await c.call('POST', '/auth/reset', { email: address });
    const [token] = await resetTokens(address);
    await server.auth!.setPassword(address, `${PASSWORD} 3`);
    expect(await confirm(token as string, 'attacker password')).toMatchObject({
      status: 401,
      body: { code: 'INVALID_TOKEN' },
    });
  });

  test('a newer reset token supersedes the older one; using the newer kills any other', async () => {
    const address = email();
    await c.register({ email: address, password: PASSWORD });
    await c.call('POST', '/auth/reset', { email: address });
    await c.call('POST', '/auth/reset', { email: address });
    const [older, newer] = await resetTokens(address);
    expect(await confirm(older as string, 'attacker password')).toMatchObject({
      status: 401,
      body: { code: 'INVALID_TOKEN' },
    });
    expect(await confirm(newer as string, `${PASSWORD} 4`)).toMatchObject({
      status: 200,
      body: { success: true },
    });
    expect(await confirm(newer as string, `${PASSWORD} 5`)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_TOKEN' },
    });
    expect((await c.login({ email: address, password: `${PASSWORD} 4` })).status).toBe(200);
  });
});

describe('issue 8: text PostgreSQL cannot store, methods a Request cannot carry', () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  beforeAll(async () => {
    // CONNECT goes to the listening server's `connect` event: this one listens.
    server = await start(db.get(), { enableAuth: true, jwtSecret: SECRET });
    c = authClient(server);
  });
  afterAll(() => server.close());

  // JSON escapes can spell a lone UTF-16 surrogate, which is not Unicode text: PostgreSQL's
  // jsonb refuses it (a 500 before) and text columns would store U+FFFD in its place.
  test.each([
    ['metadata', `{"email":"${email()}","password":"${PASSWORD}","metadata":{"note":"\\ud800"}}`],
    ['a metadata key', `{"email":"${email()}","password":"${PASSWORD}","metadata":{"\\udfff":1}}`],
    ['email', `{"email":"a\\ud800@example.com","password":"${PASSWORD}"}`],
    ['username', `{"email":"${email()}","password":"${PASSWORD}","username":"ab\\udc00c"}`],
    ['password', `{"email":"${email()}","password":"${PASSWORD}\\ud83d"}`],
  ])('a lone surrogate in %s is 400 VALIDATION_ERROR', async (_n, body) => {
    const r = await c.register(body);
    expect(r).toMatchObject({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        error: expect.stringMatching(/^VALIDATION_ERROR: .*surrogate/),
      },
    });
  });

  test('a lone surrogate on login and reset routes is 400 too', async () => {
    for (const [path, body] of [
      ['/auth/login', `{"email":"x@example.com","password":"\\udbff"}`],
      ['/auth/reset', `{"email":"\\ud800@example.com"}`],
      ['/auth/refresh', `{"refreshToken":"\\ud800"}`],
    ] as const) {
      expect(await c.call('POST', path, body)).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR' },
      });
    }
  });

  test('a well-formed surrogate pair (an emoji) is fine', async () => {
    const r = await c.register({
      email: email(),
      password: `${PASSWORD} 🔑`,
      metadata: { mood: '😀' },
    });
    expect(r.status).toBe(201);
    expect(r.body.user.metadata).toEqual({ mood: '😀' });
  });

  // fetch() will not send TRACE, so the request is written by hand on a raw socket.
  test('TRACE on an auth route is 405 METHOD_NOT_ALLOWED with Allow, in the envelope', async () => {
    const r = await rawRequest(server.url, [
      `TRACE /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    ]);
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST');
    expect(JSON.parse(r.body)).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      error: 'METHOD_NOT_ALLOWED: TRACE is not allowed on /auth/login',
    });
    const profile = await rawRequest(server.url, [
      `TRACE /auth/profile HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    ]);
    expect(profile.status).toBe(405);
    expect(profile.headers.allow).toBe('GET');
    const unknown = await rawRequest(server.url, [
      `TRACE /auth/nope HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    ]);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).code).toBe('NOT_FOUND');
  });

  // Node gives CONNECT (a proxy tunnel request) to the server's `connect` event; unanswered, the
  // socket was dropped with no response at all.
  test('CONNECT is 405 METHOD_NOT_ALLOWED in the envelope (svc is not a proxy)', async () => {
    const r = await rawRequest(server.url, [
      `CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n`,
    ]);
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('');
    expect(JSON.parse(r.body)).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      error: 'METHOD_NOT_ALLOWED: CONNECT is not allowed: svc is not a proxy',
    });
    expect((await c.call('GET', '/health')).status).toBe(200); // the server carries on
  });
});

describe('issue 8: identifiers are normalised (RFC 5321 limits, NFKC, case-insensitive usernames)', () => {
  let server: SvcServer;
  let c: ReturnType<typeof authClient>;
  beforeAll(async () => {
    server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
    c = authClient(server);
  });
  afterAll(() => server.close());
  const tag = () => randomUUID().slice(0, 8);

  test.each([
    ['a 65-octet local part', `${'a'.repeat(65)}@example.com`, /local part/],
    [
      'a 254-octet domain',
      `a@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(58)}.com`,
      /domain/,
    ],
    [
      'a 255-octet address',
      `${'a'.repeat(64)}@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(58)}.com`,
      /254/,
    ],
  ])('%s is 400 VALIDATION_ERROR', async (_n, address, message) => {
    const r = await c.register({ email: address, password: PASSWORD });
    expect(r).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(r.body.error).toMatch(message);
  });

  test('a 254-octet address with a 64-octet local part is accepted', async () => {
    const address = `${tag()}${'a'.repeat(56)}@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(Buffer.byteLength(address)).toBe(254);
    expect((await c.register({ email: address, password: PASSWORD })).status).toBe(201);
  });

  // Attack: a look-alike account. `ｅve@…` (fullwidth) or a decomposed `é` renders like the
  // victim's address; without normalisation they would be two accounts.
  test('NFC, NFD and fullwidth spellings of an email are one account', async () => {
    const t = tag();
    const nfc = `ren\u00e9e-${t}@example.com`;
    const nfd = `rene\u0301e-${t}@example.com`;
    const r = await c.register({ email: nfd, password: PASSWORD });
    expect(r.status).toBe(201);
    expect(r.body.user.email).toBe(nfc);
    expect(await c.register({ email: nfc, password: PASSWORD })).toMatchObject({
      status: 409,
      body: { code: 'USER_ALREADY_EXISTS' },
    });
    expect((await c.login({ email: nfd.toUpperCase(), password: PASSWORD })).status).toBe(200);

    const plain = `eve-${t}@example.com`;
    expect((await c.register({ email: plain, password: PASSWORD })).status).toBe(201);
    const fullwidth = `\uff45\uff56\uff45-${t}@\uff45xample.com`;
    expect(await c.register({ email: fullwidth, password: PASSWORD })).toMatchObject({
      status: 409,
      body: { code: 'USER_ALREADY_EXISTS' },
    });
    expect((await c.login({ email: fullwidth, password: PASSWORD })).body.user.email).toBe(plain);
  });

  test('usernames are unique case-insensitively and NFKC-normalised; login by username ignores case', async () => {
    const t = tag();
    const r = await c.register({ email: email(), password: PASSWORD, username: `Ada_${t}` });
    expect(r.status).toBe(201);
    expect(r.body.user.username).toBe(`Ada_${t}`);
    expect(
      await c.register({ email: email(), password: PASSWORD, username: `ada_${t}` }),
    ).toMatchObject({ status: 409, body: { code: 'USER_ALREADY_EXISTS' } });
    const fullwidth = `\uff21\uff44\uff41_${t}`;
    expect(
      await c.register({ email: email(), password: PASSWORD, username: fullwidth }),
    ).toMatchObject({ status: 409, body: { code: 'USER_ALREADY_EXISTS' } });
    for (const name of [`ADA_${t}`, `ada_${t}`, fullwidth]) {
      const login = await c.login({ username: name, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body.user.id).toBe(r.body.user.id);
    }
  });

  test('passwords are NFKC-normalised before hashing: NFC and NFD spellings both log in', async () => {
    const address = email();
    const nfc = `p\u00e4ssw\u00f6rd long enough`;
    const nfd = `pa\u0308ssw\u00f6\u0308rd long enough`.replace('\u00f6\u0308', 'o\u0308');
    expect(nfd).not.toBe(nfc);
    expect((await c.register({ email: address, password: nfc })).status).toBe(201);
    expect((await c.login({ email: address, password: nfd })).status).toBe(200);
  });

  // A hash made before passwords were normalised is of the raw text: it still logs in with that
  // text, and the login rehashes it in the normalised form.
  test('a legacy hash of an unnormalised password logs in and is rehashed', async () => {
    const address = email();
    const r = await c.register({ email: address, password: PASSWORD });
    const nfd = `cafe\u0301 au lait, please`;
    await server.database.query('update svc_auth.users set password_hash = $1 where id = $2', [
      await bcrypt.hash(nfd, 4),
      r.body.user.id,
    ]);
    const login = await c.login({ email: address, password: nfd });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(r.body.user.id);
    const { rows } = await server.database.query<{ h: string }>(
      'select password_hash as h from svc_auth.users where id = $1',
      [r.body.user.id],
    );
    expect(await bcrypt.compare(nfd.normalize('NFKC'), rows[0]!.h)).toBe(true);
    expect((await c.login({ email: address, password: nfd.normalize('NFKC') })).status).toBe(200);
    // The rehash did not end the session it was made in.
    expect((await c.profile(login.body.token)).status).toBe(200);
  });
});

describe('issue 8: metadata size limit', () => {
  test('16 KiB by default; over it is 400 VALIDATION_ERROR naming metadata', async () => {
    const server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
    try {
      const c = authClient(server);
      const fits = { note: 'x'.repeat(16 * 1024 - 11) };
      expect(Buffer.byteLength(JSON.stringify(fits))).toBe(16 * 1024);
      expect(
        (await c.register({ email: email(), password: PASSWORD, metadata: fits })).status,
      ).toBe(201);
      const over = await c.register({
        email: email(),
        password: PASSWORD,
        metadata: { note: 'x'.repeat(16 * 1024 - 10) },
      });
      expect(over).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
      expect(over.body.error).toMatch(/metadata.*16384 bytes/);
    } finally {
      await server.close();
    }
  });

  test('authConfig.maxMetadataBytes sets it (counted in UTF-8 bytes of the JSON)', async () => {
    const server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { maxMetadataBytes: 64 },
    });
    try {
      const c = authClient(server);
      expect(
        (await c.register({ email: email(), password: PASSWORD, metadata: { n: 'é'.repeat(28) } }))
          .status,
      ).toBe(201);
      const over = await c.register({
        email: email(),
        password: PASSWORD,
        metadata: { n: 'é'.repeat(29) },
      });
      expect(over).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
      expect(over.body.error).toMatch(/metadata.*64 bytes/);
    } finally {
      await server.close();
    }
  });

  test('the TOML file sets it as [auth] max_metadata_bytes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-auth-'));
    const configFile = path.join(dir, 'svc.toml');
    fs.writeFileSync(configFile, '[auth]\nmax_metadata_bytes = 32\n');
    const server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET, configFile });
    try {
      expect(server.auth!.config.maxMetadataBytes).toBe(32);
      const over = await authClient(server).register({
        email: email(),
        password: PASSWORD,
        metadata: { n: 'x'.repeat(32) },
      });
      expect(over).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an invalid maxMetadataBytes fails at start', async () => {
    await expect(
      build(db.get(), { enableAuth: true, jwtSecret: SECRET, authConfig: { maxMetadataBytes: 0 } }),
    ).rejects.toThrow(/maxMetadataBytes must be an integer from 2 to 1048576/);
  });
});

describe('issue 8: failed logins are logged', () => {
  test('with the client IP and the user id when the account exists; never the email or password', async () => {
    const { logger, lines } = captureLogger();
    const server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET, logger });
    try {
      const c = authClient(server);
      const address = email();
      const r = await c.register({ email: address, password: PASSWORD });
      const wrong = 'wrong but long password';
      expect((await c.login({ email: address, password: wrong })).status).toBe(401);
      const ghost = email();
      expect((await c.login({ email: ghost, password: wrong })).status).toBe(401);
      await server.auth!.setActive(address, false);
      expect((await c.login({ email: address, password: PASSWORD })).status).toBe(403);
      const failed = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'login failed');
      expect(failed).toEqual([
        expect.objectContaining({
          level: 40,
          ip: expect.stringMatching(/127\.0\.0\.1$/),
          userId: r.body.user.id,
          reason: 'INVALID_CREDENTIALS',
        }),
        expect.objectContaining({
          level: 40,
          ip: expect.stringMatching(/127\.0\.0\.1$/),
          reason: 'INVALID_CREDENTIALS',
        }),
        expect.objectContaining({
          level: 40,
          ip: expect.stringMatching(/127\.0\.0\.1$/),
          userId: r.body.user.id,
          reason: 'USER_INACTIVE',
        }),
      ]);
      expect(failed[1].userId).toBeUndefined();
      const all = lines.join('\n');
      for (const secret of [address, ghost, wrong, PASSWORD, address.split('@')[0] as string])
        expect(all).not.toContain(secret);
    } finally {
      await server.close();
    }
  });
});
