/**
 * The admin UI's own session (issue 30; docs/http.md, "The admin UI"), tested as an attacker
 * would try it. The server runs with `[auth] cookie` off (the default) and `requireAuth` on.
 *
 * - The admin cookie (`svc_admin`, Path=/_/) opens only `/_/api/*`: sent to the app's `/api/*`,
 *   `/query` or `/auth/*` it is no credential at all (401), so a page of the app that leaks
 *   requests cannot borrow the admin's session.
 * - The app's `auth_token` cookie opens nothing under `/_/api/*`.
 * - A write under `/_/api/` authenticated by the admin cookie from a foreign Origin is 403 before
 *   anything runs (the sign-in, refresh and sign-out routes included).
 * - A non-superuser's right password gets no cookie, and the session it made is revoked.
 * - Sign-out revokes the session (the old cookies are dead, not only forgotten); a refresh works
 *   after the access token expires, and rotates the refresh token.
 */
import { base32Decode, hotp } from '@svc/auth';
import type { SvcServer } from '../src';
import { SECRET, authClient, build, call, readJson, sharedDatabase } from './helpers';

const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';
const OWN = 'http://localhost';
const EVIL = 'http://evil.example';
const SDL = `module default {
  type Book { required title: str; }
}`;

/** The `name=value` pairs a response sets, and each cookie's attributes. */
function setCookies(res: Response): Map<string, { value: string; attributes: string[] }> {
  const out = new Map<string, { value: string; attributes: string[] }>();
  for (const line of res.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';').map((p) => p.trim());
    const eq = pair.indexOf('=');
    out.set(pair.slice(0, eq), { value: pair.slice(eq + 1), attributes });
  }
  return out;
}

interface AdminSession {
  access: string;
  refresh: string;
  expiresAt: string;
}

function post(
  server: SvcServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return call(server, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: OWN, ...headers },
    body: JSON.stringify(body),
  });
}

async function signInAdmin(server: SvcServer, email: string): Promise<AdminSession> {
  const res = await post(server, '/_/api/session/login', { email, password: PASSWORD });
  expect(res.status).toBe(200);
  const body = await readJson(res);
  const cookies = setCookies(res);
  return {
    access: cookies.get('svc_admin')!.value,
    refresh: cookies.get('svc_admin_refresh')!.value,
    expiresAt: body.expiresAt,
  };
}

const cookie = (s: AdminSession) => `svc_admin=${s.access}; svc_admin_refresh=${s.refresh}`;

describe('the admin session (cookie = false, requireAuth on)', () => {
  let server: SvcServer;
  const admin = { email: 'root@example.com', id: '' };
  let admitted: AdminSession;

  beforeAll(async () => {
    server = await build(db.get(), {
      schema: SDL,
      enableAuth: true,
      jwtSecret: SECRET,
      requireAuth: true,
      // The suite's helper checks /auth answers against the served document, read with it.
      serviceKey: 'service-key-0123456789-abcdefghijklmnop',
      metricsToken: 'metrics-token-0123456789-abcdefghijklmnop',
      authConfig: { webauthn: { origin: OWN, rpId: 'localhost', rpName: 'svc test' } },
    });
    admin.id = (await server.auth!.createSuperuser(admin.email, PASSWORD)).id;
    admitted = await signInAdmin(server, admin.email);
  });
  afterAll(() => server?.close());

  test('sign-in sets two HttpOnly, SameSite=Strict cookies of its own; no token in the body', async () => {
    const res = await post(server, '/_/api/session/login', {
      email: admin.email,
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(body).toEqual({
      user: { id: admin.id, email: admin.email },
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(JSON.stringify(body)).not.toMatch(/token/i);
    const cookies = setCookies(res);
    expect([...cookies.keys()].sort()).toEqual(['svc_admin', 'svc_admin_refresh']);
    expect(cookies.get('svc_admin')!.attributes).toEqual([
      'Max-Age=3600',
      'Path=/_/',
      'HttpOnly',
      'SameSite=Strict',
    ]);
    expect(cookies.get('svc_admin_refresh')!.attributes).toEqual([
      'Max-Age=604800',
      'Path=/_/api/session',
      'HttpOnly',
      'SameSite=Strict',
    ]);
    // The app's cookie is not set: [auth] cookie is off.
    expect(cookies.has('auth_token')).toBe(false);
  });

  test('GET /_/api/session says who the admin cookie is', async () => {
    const who = await readJson(
      await call(server, '/_/api/session', { headers: { cookie: cookie(admitted) } }),
    );
    expect(who.caller).toEqual({
      id: admin.id,
      email: admin.email,
      roles: ['superuser'],
      superuser: true,
    });
    expect(who).not.toHaveProperty('cookie');
  });

  test('attack: the admin cookie is no credential on /api/*, /query or /auth/*', async () => {
    const headers = { cookie: cookie(admitted), origin: OWN };
    for (const [method, path] of [
      ['GET', '/api/Book'],
      ['POST', '/query'],
      ['GET', '/schema/types'],
      ['GET', '/auth/profile'],
      ['GET', '/auth/sessions'],
      ['POST', '/auth/logout'],
      ['GET', '/auth/webauthn/credentials'],
    ] as const) {
      const res = await call(server, path, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ query: 'select 1' }) } : {}),
      });
      expect([path, res.status]).toEqual([path, 401]);
    }
    // The same token as a bearer is the superuser: it is the cookie that is refused, not the user.
    const bearer = await call(server, '/auth/profile', {
      headers: { authorization: `Bearer ${admitted.access}` },
    });
    expect(bearer.status).toBe(200);
  });

  test('attack: the app cookie (auth_token) is no credential under /_/api/', async () => {
    const app = await authClient(server).login({ email: admin.email, password: PASSWORD });
    const headers = { cookie: `auth_token=${app.body.token}` };
    for (const path of ['/_/api/db/schema/types', '/_/api/users', '/_/api/account/passkeys']) {
      expect([path, (await call(server, path, { headers })).status]).toEqual([path, 401]);
    }
    const who = await readJson(await call(server, '/_/api/session', { headers }));
    expect(who.caller).toBeNull();
  });

  test('the admin cookie reaches the data plane under /_/api/db: the same handlers', async () => {
    const headers = { cookie: cookie(admitted), origin: OWN, 'content-type': 'application/json' };
    const created = await call(server, '/_/api/db/api/Book', {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Earthsea' }),
    });
    expect(created.status).toBe(201);
    const listed = await readJson(await call(server, '/_/api/db/api/Book', { headers }));
    expect(listed.map((b: { title: string }) => b.title)).toContain('Earthsea');
    const queried = await call(server, '/_/api/db/query', {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'select count(Book)' }),
    });
    expect(await readJson(queried)).toEqual({ data: [1] });
    const types = await readJson(await call(server, '/_/api/db/schema/types', { headers }));
    expect(JSON.stringify(types)).toMatch(/default::Book/);
    const history = await call(server, '/_/api/db/migrations', { headers });
    expect(history.status).toBe(200);
    // /stats takes only the metrics token at /stats; under /_/api/db a superuser reads it.
    expect((await call(server, '/stats', { headers })).status).toBe(401);
    const stats = await call(server, '/_/api/db/stats', { headers });
    expect(stats.status).toBe(200);
    expect(await readJson(stats)).toHaveProperty('requests');
  });

  test('under /_/api/db: anonymous 401, the service key as a bearer passes; the account routes want a user', async () => {
    const anonymous = await call(server, '/_/api/db/schema/types');
    expect(anonymous.status).toBe(401);
    expect((await readJson(anonymous)).code).toBe('UNAUTHORIZED');
    const service = { authorization: 'Bearer service-key-0123456789-abcdefghijklmnop' };
    expect((await call(server, '/_/api/db/schema/types', { headers: service })).status).toBe(200);
    const account = await call(server, '/_/api/account/passkeys', { headers: service });
    expect(account.status).toBe(400);
    expect((await readJson(account)).code).toBe('INVALID_OPERATION');
  });

  test('attack: a non-superuser gets no admin cookie, and no session is left behind', async () => {
    const email = 'mallory@example.com';
    const reg = await authClient(server).register({ email, password: PASSWORD });
    expect(reg.status).toBe(201);
    const before = (await server.auth!.listUserSessions(email)).length;
    const res = await post(server, '/_/api/session/login', { email, password: PASSWORD });
    expect(res.status).toBe(403);
    const body = await readJson(res);
    expect(body.code).toBe('ACCESS_DENIED');
    expect(body.error).toMatch(/mallory@example\.com is not a superuser/);
    for (const [name, c] of setCookies(res)) {
      expect([name, c.value, c.attributes[0]]).toEqual([name, '', 'Max-Age=0']);
    }
    expect((await server.auth!.listUserSessions(email)).length).toBe(before);
    // Their own token, as a bearer or planted in the admin cookie, opens no admin route.
    const token = reg.body.token as string;
    const planted: Record<string, string>[] = [
      { authorization: `Bearer ${token}` },
      { cookie: `svc_admin=${token}` },
    ];
    for (const headers of planted) {
      const r = await call(server, '/_/api/db/schema/types', { headers });
      expect(r.status).toBe(403);
      expect((await call(server, '/_/api/account/passkeys', { headers })).status).toBe(403);
    }
  });

  test('attack: cookie writes under /_/api/ from a foreign Origin are 403 before anything runs', async () => {
    const writes: [string, unknown][] = [
      ['/_/api/db/query', { query: "insert Book { title := 'forged' }" }],
      ['/_/api/db/api/Book', { title: 'forged' }],
      ['/_/api/db/migrations', { schema: 'module default { type Forged {} }' }],
      ['/_/api/account/passkeys/register/begin', {}],
      ['/_/api/account/totp/enroll', {}],
      ['/_/api/session/refresh', {}],
      ['/_/api/session/logout', {}],
      ['/_/api/session/login', { email: admin.email, password: PASSWORD }],
    ];
    for (const [path, body] of writes) {
      const res = await post(server, path, body, { cookie: cookie(admitted), origin: EVIL });
      expect([path, res.status]).toEqual([path, 403]);
      expect((await readJson(res)).code).toBe('ACCESS_DENIED');
    }
    // Sec-Fetch-Site says the same without Origin.
    const res = await call(server, '/_/api/db/query', {
      method: 'POST',
      headers: {
        cookie: cookie(admitted),
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ query: 'select 1' }),
    });
    expect(res.status).toBe(403);
    const forged = await readJson(
      await post(
        server,
        '/_/api/db/query',
        { query: "select count(Book filter .title = 'forged')" },
        {
          cookie: cookie(admitted),
        },
      ),
    );
    expect(forged).toEqual({ data: [0] });
    // The admin's session survived the forged sign-out.
    expect(
      (await call(server, '/_/api/db/schema', { headers: { cookie: cookie(admitted) } })).status,
    ).toBe(200);
  });

  test('sign-out revokes the session: the old cookies are dead, not only forgotten', async () => {
    const s = await signInAdmin(server, admin.email);
    const out = await post(server, '/_/api/session/logout', {}, { cookie: cookie(s) });
    expect(out.status).toBe(200);
    expect(await readJson(out)).toEqual({ success: true });
    expect(setCookies(out).get('svc_admin')!.attributes[0]).toBe('Max-Age=0');
    const replay = await call(server, '/_/api/db/schema', { headers: { cookie: cookie(s) } });
    expect(replay.status).toBe(401);
    expect((await readJson(replay)).code).toBe('SESSION_EXPIRED');
    const refresh = await post(server, '/_/api/session/refresh', {}, { cookie: cookie(s) });
    expect(refresh.status).toBe(401);
    // Signing out twice, or with no session, is harmless.
    expect((await post(server, '/_/api/session/logout', {}, { cookie: cookie(s) })).status).toBe(
      200,
    );
    expect((await post(server, '/_/api/session/logout', {})).status).toBe(200);
  });

  test('a superuser with TOTP: the challenge, then the code, then the cookies', async () => {
    const email = 'root-totp@example.com';
    await server.auth!.createSuperuser(email, PASSWORD);
    const s = await signInAdmin(server, email);
    const headers = { cookie: cookie(s) };
    const enrolled = await readJson(await post(server, '/_/api/account/totp/enroll', {}, headers));
    const key = base32Decode(enrolled.secret) as Buffer;
    const step = Math.floor(Date.now() / 30_000);
    const confirmed = await post(
      server,
      '/_/api/account/totp/confirm',
      { code: hotp(key, step) },
      headers,
    );
    expect(confirmed.status).toBe(200);
    const first = await post(server, '/_/api/session/login', { email, password: PASSWORD });
    const challenge = await readJson(first);
    expect(challenge).toMatchObject({ mfaRequired: true, methods: ['totp'] });
    expect(setCookies(first).size).toBe(0);
    const wrong = await post(server, '/_/api/session/totp', {
      challengeToken: challenge.challengeToken,
      code: '000000',
    });
    expect(wrong.status).toBe(401);
    const right = await post(server, '/_/api/session/totp', {
      challengeToken: challenge.challengeToken,
      code: hotp(key, step + 1),
    });
    expect(right.status).toBe(200);
    expect(setCookies(right).has('svc_admin')).toBe(true);
  });

  test('bad input is a clear 400, never a 500', async () => {
    const unknown = await post(server, '/_/api/session/login', {
      email: admin.email,
      password: PASSWORD,
      admin: true,
    });
    expect(unknown.status).toBe(400);
    expect((await readJson(unknown)).code).toBe('VALIDATION_ERROR');
    const noPassword = await post(server, '/_/api/session/login', { email: admin.email });
    expect(noPassword.status).toBe(400);
    const badChallenge = await post(server, '/_/api/session/totp', { challengeToken: 1, code: 2 });
    expect(badChallenge.status).toBeGreaterThanOrEqual(400);
    expect(badChallenge.status).toBeLessThan(500);
    for (const [path, body] of [
      ['/_/api/session/login', { username: ['root'], password: PASSWORD }],
      ['/_/api/session/login', []],
      ['/_/api/session/passkey/begin', { email: 5 }],
      ['/_/api/session/passkey/finish', { challengeId: 'x', credentialId: '%%%' }],
      ['/_/api/session/recovery-code', { challengeToken: 'nope', code: 'AAAAA-AAAAA' }],
    ] as const) {
      const res = await post(server, path, body);
      expect([path, res.status >= 400 && res.status < 500]).toEqual([path, true]);
      expect(setCookies(res).size).toBe(0);
    }
    const noCookie = await post(server, '/_/api/session/refresh', {});
    expect(noCookie.status).toBe(401);
    const badDelete = await post(
      server,
      '/_/api/account/passkeys/delete',
      { credentialId: 5 },
      { cookie: cookie(admitted) },
    );
    expect(badDelete.status).toBe(400);
  });
});

describe('refresh (tokenExpiry 5 s)', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), {
      schema: SDL,
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { tokenExpiry: 5 },
    });
    await server.auth!.createSuperuser('root5@example.com', PASSWORD);
  });
  afterAll(() => server?.close());

  test('after the access token expires, the refresh cookie gives a new session; the old refresh token is spent', async () => {
    const s = await signInAdmin(server, 'root5@example.com');
    const read = (x: AdminSession) =>
      call(server, '/_/api/db/schema/types', { headers: { cookie: cookie(x) } });
    // Right after sign-in (about 5 s of slack).
    expect((await read(s)).status).toBe(200);
    const wait = Date.parse(s.expiresAt) - Date.now() + 1000;
    expect(wait).toBeLessThanOrEqual(6000);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
    const expired = await read(s);
    expect(expired.status).toBe(401);
    expect((await readJson(expired)).code).toBe('TOKEN_EXPIRED');

    const refreshed = await post(server, '/_/api/session/refresh', {}, { cookie: cookie(s) });
    expect(refreshed.status).toBe(200);
    const body = await readJson(refreshed);
    expect(body.user.email).toBe('root5@example.com');
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now() + 3000);
    const cookies = setCookies(refreshed);
    const next: AdminSession = {
      access: cookies.get('svc_admin')!.value,
      refresh: cookies.get('svc_admin_refresh')!.value,
      expiresAt: body.expiresAt,
    };
    expect(next.refresh).not.toBe(s.refresh);
    expect((await read(next)).status).toBe(200);
    // The spent refresh token is refused; the cookies are left alone (another tab may hold the
    // fresh ones: a lost race must not sign it out).
    const again = await post(server, '/_/api/session/refresh', {}, { cookie: cookie(s) });
    expect(again.status).toBe(401);
    expect((await readJson(again)).code).toBe('INVALID_REFRESH_TOKEN');
    expect(setCookies(again).size).toBe(0);
    expect((await read(next)).status).toBe(200);
  }, 20_000);

  test('a refresh after the superuser role was taken away is refused and the session ends', async () => {
    const email = 'demoted@example.com';
    await server.auth!.createSuperuser(email, PASSWORD);
    const s = await signInAdmin(server, email);
    await server.auth!.roles.revoke(email, 'superuser');
    const res = await post(server, '/_/api/session/refresh', {}, { cookie: cookie(s) });
    expect(res.status).toBe(403);
    expect((await server.auth!.listUserSessions(email)).length).toBe(0);
  });
});
