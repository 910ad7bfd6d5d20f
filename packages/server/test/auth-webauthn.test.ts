/**
 * Passkeys over HTTP through @svc/server (issue 12), on the engine SVC_TEST_DB names (PGlite by
 * default, PostgreSQL with SVC_TEST_DB=postgres): every /auth/webauthn route, its statuses and
 * error codes, with the software authenticator of @svc/auth/testing; challenges and rate limits
 * shared by two servers over one database.
 */
import { randomUUID } from 'node:crypto';
import type { AuthEvent } from '@svc/auth';
import { SoftAuthenticator } from '@svc/auth/testing';
import type { SvcServer } from '../src';
import { SECRET, build, call, captureEvents, readJson, sharedDatabase } from './helpers';

const db = sharedDatabase();
const ORIGIN = 'https://app.example.test';
const WEBAUTHN = { origin: ORIGIN, rpId: 'example.test', rpName: 'svc' };
const PASSWORD = 'correct horse battery staple';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: loose JSON for assertions
  body: any;
}

/** One client address per test, so the per-IP limits of one test do not reach another. */
function client(server: SvcServer, ip = `10.${rand()}.${rand()}.${rand()}`) {
  return async (method: string, path: string, body?: unknown, token?: string): Promise<Reply> => {
    const res = await call(server, path, {
      method,
      remoteAddress: ip,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return {
      status: res.status,
      headers: res.headers,
      body: await readJson(res).catch(() => null),
    };
  };
}
const rand = () => Math.floor(Math.random() * 250) + 1;

async function signUp(send: ReturnType<typeof client>) {
  const email = `u-${randomUUID()}@example.com`;
  const r = await send('POST', '/auth/register', { email, password: PASSWORD });
  expect(r.status).toBe(201);
  return { token: r.body.token as string, id: r.body.user.id as string, email };
}

async function enroll(
  send: ReturnType<typeof client>,
  token: string,
  authenticator = new SoftAuthenticator(),
  counter = 0,
) {
  const begin = await send('POST', '/auth/webauthn/register/begin', undefined, token);
  expect(begin.status).toBe(200);
  const response = authenticator.create(begin.body.options, {
    origin: ORIGIN,
    attestation: 'packed-self',
    counter,
  });
  const finish = await send(
    'POST',
    '/auth/webauthn/register/finish',
    { challengeId: begin.body.challengeId, ...response, name: 'Phone' },
    token,
  );
  return { authenticator, finish, credentialId: response.credentialId };
}

async function signIn(
  send: ReturnType<typeof client>,
  authenticator: SoftAuthenticator,
  body: Record<string, unknown> = {},
  get: Parameters<SoftAuthenticator['get']>[1] = { origin: ORIGIN },
) {
  const begin = await send('POST', '/auth/webauthn/login/begin', body);
  expect(begin.status).toBe(200);
  const assertion = authenticator.get(begin.body.options, get);
  return send('POST', '/auth/webauthn/login/finish', {
    challengeId: begin.body.challengeId,
    ...assertion,
  });
}

describe('passkeys over HTTP', () => {
  let server: SvcServer;
  let events: AuthEvent[];
  beforeAll(async () => {
    server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { webauthn: WEBAUTHN },
    });
    events = captureEvents(server);
  });
  afterAll(() => server.close());

  test('register begin → finish → credentials list → login begin/finish (with and without email) → delete', async () => {
    const send = client(server);
    const u = await signUp(send);
    const begin = await send('POST', '/auth/webauthn/register/begin', undefined, u.token);
    expect(begin.status).toBe(200);
    expect(Object.keys(begin.body).sort()).toEqual(['challengeId', 'options']);
    expect(begin.body.options).toMatchObject({
      rp: { id: 'example.test', name: 'svc' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      excludeCredentials: [],
    });
    const authenticator = new SoftAuthenticator();
    const response = authenticator.create(begin.body.options, {
      origin: ORIGIN,
      attestation: 'packed-x5c',
    });
    const finish = await send(
      'POST',
      '/auth/webauthn/register/finish',
      { challengeId: begin.body.challengeId, ...response, name: 'Phone' },
      u.token,
    );
    expect(finish.status).toBe(200);
    expect(finish.body).toEqual({
      credential: {
        id: response.credentialId,
        name: 'Phone',
        createdAt: expect.stringMatching(ISO_MS),
      },
    });

    const list = await send('GET', '/auth/webauthn/credentials', undefined, u.token);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      credentials: [
        {
          id: response.credentialId,
          name: 'Phone',
          createdAt: finish.body.credential.createdAt,
          lastUsedAt: null,
        },
      ],
    });

    const withEmail = await signIn(send, authenticator, { email: u.email });
    expect(withEmail.status).toBe(200);
    expect(Object.keys(withEmail.body).sort()).toEqual([
      'refreshToken',
      'session',
      'token',
      'user',
    ]);
    expect(withEmail.body.user.id).toBe(u.id);
    const profile = await send('GET', '/auth/profile', undefined, withEmail.body.token);
    expect(profile.status).toBe(200);

    const usernameless = await signIn(send, authenticator);
    expect(usernameless.status).toBe(200);
    expect(usernameless.body.user.id).toBe(u.id);
    await server.auth!.settle();
    expect(
      events.filter((e) => e.userId === u.id && e.eventType === 'IdentityAuthenticated'),
    ).toHaveLength(2);

    const listed = await send('GET', '/auth/webauthn/credentials', undefined, u.token);
    expect(listed.body.credentials[0].lastUsedAt).toMatch(ISO_MS);

    const del = await send(
      'POST',
      '/auth/webauthn/credentials/delete',
      { credentialId: response.credentialId },
      u.token,
    );
    expect(del).toMatchObject({ status: 200, body: { success: true } });
    const again = await send(
      'POST',
      '/auth/webauthn/credentials/delete',
      { credentialId: response.credentialId },
      u.token,
    );
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
    const gone = await signIn(send, authenticator);
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe('INVALID_CREDENTIALS');
  });

  test('login/begin for an unknown email answers 200 in the same shape', async () => {
    const send = client(server);
    const r = await send('POST', '/auth/webauthn/login/begin', {
      email: `nobody-${randomUUID()}@example.com`,
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['challengeId', 'options']);
    expect(Object.keys(r.body.options).sort()).toEqual([
      'allowCredentials',
      'challenge',
      'rpId',
      'timeout',
      'userVerification',
    ]);
    expect(r.body.options.allowCredentials).toHaveLength(1);
    const bad = await send('POST', '/auth/webauthn/login/begin', { email: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });

  test('register/finish refusals: 400 VALIDATION_ERROR naming the check, 401 INVALID_TOKEN for a spent challenge', async () => {
    const send = client(server);
    const u = await signUp(send);
    const begin = await send('POST', '/auth/webauthn/register/begin', undefined, u.token);
    const a = new SoftAuthenticator();
    const evil = a.create(begin.body.options, { origin: 'https://evil.example.test' });
    const r = await send(
      'POST',
      '/auth/webauthn/register/finish',
      { challengeId: begin.body.challengeId, ...evil },
      u.token,
    );
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 'VALIDATION_ERROR',
      error: expect.stringMatching(
        /^VALIDATION_ERROR: passkey registration failed: clientData.origin/,
      ),
    });
    const good = a.create(begin.body.options, { origin: ORIGIN });
    const spent = await send(
      'POST',
      '/auth/webauthn/register/finish',
      { challengeId: begin.body.challengeId, ...good },
      u.token,
    );
    expect(spent.status).toBe(401);
    expect(spent.body.code).toBe('INVALID_TOKEN');
    const tpmBegin = await send('POST', '/auth/webauthn/register/begin', undefined, u.token);
    const tpm = a.create(tpmBegin.body.options, { origin: ORIGIN, fmt: 'tpm' });
    const refused = await send(
      'POST',
      '/auth/webauthn/register/finish',
      { challengeId: tpmBegin.body.challengeId, ...tpm },
      u.token,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/format "tpm" is not supported/);
    for (const body of [{}, { challengeId: 'x', credentialId: '***' }, '[1]', 'not json']) {
      const bad = await send('POST', '/auth/webauthn/register/finish', body, u.token);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
    }
  });

  test('login/finish refusals: bad signature 401 INVALID_CREDENTIALS, replayed challenge 401 INVALID_TOKEN, malformed 400', async () => {
    const send = client(server);
    const u = await signUp(send);
    const { authenticator } = await enroll(send, u.token);
    const forged = await signIn(
      send,
      authenticator,
      {},
      { origin: ORIGIN, corruptSignature: true },
    );
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('INVALID_CREDENTIALS');
    const begin = await send('POST', '/auth/webauthn/login/begin', {});
    const assertion = authenticator.get(begin.body.options, { origin: ORIGIN });
    const ok = await send('POST', '/auth/webauthn/login/finish', {
      challengeId: begin.body.challengeId,
      ...assertion,
    });
    expect(ok.status).toBe(200);
    const replay = await send('POST', '/auth/webauthn/login/finish', {
      challengeId: begin.body.challengeId,
      ...assertion,
    });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('INVALID_TOKEN');
    const malformed = await send('POST', '/auth/webauthn/login/finish', {
      challengeId: begin.body.challengeId,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_ERROR');
  });

  test('counter regression: 401 INVALID_TOKEN and the audit event webauthn_counter_regression', async () => {
    const send = client(server);
    const u = await signUp(send);
    const { authenticator, credentialId } = await enroll(
      send,
      u.token,
      new SoftAuthenticator(),
      10,
    );
    expect((await signIn(send, authenticator, {}, { origin: ORIGIN, counter: 11 })).status).toBe(
      200,
    );
    const cloned = await signIn(send, authenticator, {}, { origin: ORIGIN, counter: 11 });
    expect(cloned.status).toBe(401);
    expect(cloned.body.code).toBe('INVALID_TOKEN');
    await server.auth!.settle();
    expect(
      events.filter((e) => e.eventType === 'webauthn_counter_regression' && e.userId === u.id),
    ).toEqual([expect.objectContaining({ credentialId, storedCounter: 11, receivedCounter: 11 })]);
    expect((await signIn(send, authenticator, {}, { origin: ORIGIN, counter: 12 })).status).toBe(
      200,
    );
  });

  test("the Auth routes need a token; another user's credential cannot be deleted", async () => {
    const send = client(server);
    for (const [method, path] of [
      ['POST', '/auth/webauthn/register/begin'],
      ['POST', '/auth/webauthn/register/finish'],
      ['GET', '/auth/webauthn/credentials'],
      ['POST', '/auth/webauthn/credentials/delete'],
    ] as const) {
      const r = await send(method, path, method === 'POST' ? {} : undefined);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
    }
    const u = await signUp(send);
    const v = await signUp(send);
    const { credentialId } = await enroll(send, u.token);
    const r = await send('POST', '/auth/webauthn/credentials/delete', { credentialId }, v.token);
    expect(r.status).toBe(404);
    const missing = await send('POST', '/auth/webauthn/credentials/delete', {}, v.token);
    expect(missing.status).toBe(400);
    expect(
      (await send('GET', '/auth/webauthn/credentials', undefined, u.token)).body.credentials,
    ).toHaveLength(1);
  });

  test('login/begin and login/finish: the 21st request from one address within a minute is 429 RATE_LIMITED with Retry-After', async () => {
    const send = client(server);
    for (let i = 0; i < 20; i++)
      expect((await send('POST', '/auth/webauthn/login/begin', {})).status).toBe(200);
    const limited = await send('POST', '/auth/webauthn/login/begin', {});
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    const other = client(server);
    for (let i = 0; i < 20; i++)
      expect((await other('POST', '/auth/webauthn/login/finish', {})).status).toBe(400);
    const finishLimited = await other('POST', '/auth/webauthn/login/finish', {});
    expect(finishLimited.status).toBe(429);
    expect(finishLimited.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  });

  test('two servers over one database share challenges (begin on one, finish on the other, once) and rate limits', async () => {
    const second = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { webauthn: WEBAUTHN },
    });
    try {
      const ip = '10.200.200.1';
      const one = client(server, ip);
      const two = client(second, ip);
      const u = await signUp(one);
      const { authenticator } = await enroll(one, u.token);
      const begin = await one('POST', '/auth/webauthn/login/begin', {});
      const assertion = authenticator.get(begin.body.options, { origin: ORIGIN });
      const body = { challengeId: begin.body.challengeId, ...assertion };
      const [a, b] = await Promise.all([
        two('POST', '/auth/webauthn/login/finish', body),
        one('POST', '/auth/webauthn/login/finish', body),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 401]);
      // Rate limits: 10 begins on each server make 20 for the address; the next is refused by either.
      for (let i = 0; i < 9; i++)
        expect((await one('POST', '/auth/webauthn/login/begin', {})).status).toBe(200);
      for (let i = 0; i < 10; i++)
        expect((await two('POST', '/auth/webauthn/login/begin', {})).status).toBe(200);
      expect((await one('POST', '/auth/webauthn/login/begin', {})).status).toBe(429);
      expect((await two('POST', '/auth/webauthn/login/begin', {})).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('passkeys over HTTP without the webauthn configuration', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
  });
  afterAll(() => server.close());

  test('every route answers 400 INVALID_OPERATION', async () => {
    const send = client(server);
    const u = await signUp(send);
    for (const [method, path] of [
      ['POST', '/auth/webauthn/register/begin'],
      ['POST', '/auth/webauthn/register/finish'],
      ['POST', '/auth/webauthn/login/begin'],
      ['POST', '/auth/webauthn/login/finish'],
      ['GET', '/auth/webauthn/credentials'],
      ['POST', '/auth/webauthn/credentials/delete'],
    ] as const) {
      const r = await send(
        method,
        path,
        method === 'POST' ? { credentialId: 'x' } : undefined,
        u.token,
      );
      expect([path, r.status, r.body.code]).toEqual([path, 400, 'INVALID_OPERATION']);
      expect(r.body.error).toMatch(/^INVALID_OPERATION: WebAuthn is not configured/);
    }
  });
});
