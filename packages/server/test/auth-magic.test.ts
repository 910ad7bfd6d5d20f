/**
 * Issue 12, passwordless sign-in through the whole server over real HTTP, on the engine
 * SVC_TEST_DB names: magic links (with implicit signup) and magic codes delivered by a real SMTP
 * peer, every route's statuses and codes, the rate limits of DECISIONS.md shared by two servers
 * over one database, and single use holding when two servers race for one link or code.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { parseMail, startPeer, type Peer } from '@svc/smtp/testing';
import type { CreateServerOptions, SvcServer } from '../src';
import { SECRET, sharedDatabase, start } from './helpers';

const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';
const BASE = 'http://127.0.0.1:8080/app';
const LINK_MESSAGE = 'If that email can sign in, a sign-in link has been sent to it.';
const CODE_MESSAGE = 'If that email can sign in, a sign-in code has been sent to it.';

let peer: Peer;
beforeAll(async () => {
  peer = await startPeer();
});
afterAll(async () => {
  await peer.close();
});

const servers: SvcServer[] = [];
async function started(
  authConfig: Record<string, unknown> = {},
  options: CreateServerOptions = {},
): Promise<SvcServer> {
  const server = await start(db.get(), {
    enableAuth: true,
    jwtSecret: SECRET,
    ...options,
    authConfig: {
      emailBaseUrl: BASE,
      smtp: { host: '127.0.0.1', port: peer.port, from: 'Acme <noreply@example.com>' },
      ...authConfig,
    },
  });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await db.get().db.query('truncate svc_auth.rate_limits, svc_auth.magic_link_signup_tokens');
});

/** A second server over the same database: its own pool on PostgreSQL (as another process would have). */
function sameDatabase(t: TestDatabase): CreateServerOptions {
  return testDatabaseKind() === 'postgres'
    ? { database: t.config, databaseInstance: undefined }
    : {};
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}
async function post(server: SvcServer, route: string, body: unknown): Promise<Reply> {
  const res = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, body: parsed };
}

const fresh = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
async function register(server: SvcServer, email: string): Promise<string> {
  const r = await post(server, '/auth/register', { email, password: PASSWORD });
  expect(r.status).toBe(201);
  return r.body.user.id as string;
}

/** The mails the peer received for `email` so far, parsed (after the server's deliveries settle). */
async function mailsTo(server: SvcServer, email: string) {
  await server.auth?.settle();
  return peer.received.filter((m) => m.to.includes(email)).map((m) => parseMail(m.raw));
}
async function lastMail(server: SvcServer, email: string) {
  const mail = (await mailsTo(server, email)).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail;
}
/** The token of the newest magic link mailed to `email`, read from the link itself. */
async function mailedToken(server: SvcServer, email: string, prefix = `${BASE}/auth/magic?token=`) {
  const text = (await mailsTo(server, email))
    .map((m) => m.text)
    .findLast((t) => t.includes(prefix));
  if (!text) throw new Error(`no magic link mailed to ${email}`);
  const at = text.indexOf(prefix);
  const encoded = /^[A-Za-z0-9_%.~-]+/.exec(text.slice(at + prefix.length))?.[0] ?? '';
  return decodeURIComponent(encoded);
}
async function mailedCode(server: SvcServer, email: string) {
  const { text } = await lastMail(server, email);
  const code = /\b([0-9]{6})\b/.exec(text)?.[1];
  if (!code) throw new Error('no code in the mail');
  return code;
}
function expectError(r: Reply, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ code, error: expect.stringMatching(new RegExp(`^${code}: `)) });
}
function expectAuthResult(r: Reply, email: string) {
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({
    token: expect.any(String),
    refreshToken: expect.any(String),
    session: { id: expect.any(String) },
    user: { email },
  });
}
/** Whole seconds, at least 1, at most the window. */
function retryAfter(r: Reply) {
  const n = Number(r.headers.get('retry-after'));
  expect(Number.isInteger(n) && n >= 1 && n <= 60).toBe(true);
}

describe(`magic links over HTTP on ${testDatabaseKind()}`, () => {
  test('request: 200 {success, message}; the link arrives by mail only and signs in once', async () => {
    const server = await started();
    const email = fresh('ann');
    const userId = await register(server, email);
    const r = await post(server, '/auth/magic-link/request', { email: email.toUpperCase() });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: LINK_MESSAGE });

    const token = await mailedToken(server, email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.text).not.toContain(token);
    const mail = await lastMail(server, email);
    expect(mail.headers.get('to')).toContain(email);

    const signedIn = await post(server, '/auth/magic-link/consume', { token });
    expectAuthResult(signedIn, email);
    expect(signedIn.body.user.id).toBe(userId);
    const profile = await fetch(`${server.url}/auth/profile`, {
      headers: { authorization: `Bearer ${signedIn.body.token}` },
    });
    expect(profile.status).toBe(200);

    expectError(await post(server, '/auth/magic-link/consume', { token }), 401, 'INVALID_TOKEN');
  });

  test('an unknown email answers the same body, gets no mail and leaves nothing behind', async () => {
    const server = await started();
    const known = fresh('known');
    await register(server, known);
    const unknown = fresh('nobody');
    const a = await post(server, '/auth/magic-link/request', { email: known });
    const b = await post(server, '/auth/magic-link/request', { email: unknown });
    const c = await post(server, '/auth/magic-link/request', { email: 'not an address' });
    for (const r of [a, b, c]) {
      expect(r.status).toBe(200);
      expect(r.text).toBe(a.text);
    }
    expect(await mailsTo(server, unknown)).toEqual([]);
    const { rows } = await db
      .get()
      .db.query(
        'select 1 from svc_auth.magic_link_signup_tokens union all select 1 from svc_auth.users where email = $1',
        [unknown],
      );
    expect(rows).toEqual([]);
  });

  test('400 VALIDATION_ERROR for a missing email or token and a body that is not JSON; 401 for a bogus token', async () => {
    const server = await started();
    expectError(await post(server, '/auth/magic-link/request', {}), 400, 'VALIDATION_ERROR');
    expectError(
      await post(server, '/auth/magic-link/request', { email: 42 }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await post(server, '/auth/magic-link/request', '{"email":'),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await post(server, '/auth/magic-link/consume', {}), 400, 'VALIDATION_ERROR');
    expectError(
      await post(server, '/auth/magic-link/consume', { token: ['x'] }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await post(server, '/auth/magic-link/consume', { token: 'A'.repeat(43) }),
      401,
      'INVALID_TOKEN',
    );
    expectError(
      await post(server, '/auth/magic-link/consume', { token: 'not a token!' }),
      401,
      'INVALID_TOKEN',
    );
  });

  test('the link honours magicLinkUrlTemplate (token URL-encoded); a bad template stops the start', async () => {
    const server = await started({
      magicLinkUrlTemplate: 'http://localhost:3000/welcome/{token}?from=mail',
    });
    const email = fresh('tpl');
    await register(server, email);
    await post(server, '/auth/magic-link/request', { email });
    const token = await mailedToken(server, email, 'http://localhost:3000/welcome/');
    const { text } = await lastMail(server, email);
    expect(text).toContain(`http://localhost:3000/welcome/${encodeURIComponent(token)}?from=mail`);
    expectAuthResult(await post(server, '/auth/magic-link/consume', { token }), email);

    for (const magicLinkUrlTemplate of [
      'https://app.example.com/magic',
      'https://app.example.com/magic?a={token}&b={token}',
      'http://app.example.com/magic?token={token}',
    ]) {
      await expect(started({ magicLinkUrlTemplate })).rejects.toThrow(/magicLinkUrlTemplate/);
    }
  });

  test('implicit signup: the new address gets a signup link; using it creates a verified user', async () => {
    const server = await started({ allowImplicitSignup: true });
    const email = fresh('newbie');
    const r = await post(server, '/auth/magic-link/request', { email });
    expect(r.body).toEqual({ success: true, message: LINK_MESSAGE });
    const token = await mailedToken(server, email);
    expect(r.text).not.toContain(token);
    const signedIn = await post(server, '/auth/magic-link/consume', { token });
    expectAuthResult(signedIn, email);
    expect(signedIn.body.user.emailVerified).toBe(true);
    expectError(await post(server, '/auth/magic-link/consume', { token }), 401, 'INVALID_TOKEN');
    // Registered now: registering again is a conflict.
    expectError(
      await post(server, '/auth/register', { email, password: PASSWORD }),
      409,
      'USER_ALREADY_EXISTS',
    );
  });

  test('a deactivated account: 403 USER_INACTIVE', async () => {
    const server = await started();
    const email = fresh('gone');
    await register(server, email);
    await post(server, '/auth/magic-link/request', { email });
    const token = await mailedToken(server, email);
    await server.auth?.setActive(email, false);
    expectError(await post(server, '/auth/magic-link/consume', { token }), 403, 'USER_INACTIVE');
  });

  test('requireEmailVerification: the link signs an unverified user in and verifies the address', async () => {
    const server = await started({ requireEmailVerification: true });
    const email = fresh('unverified');
    await register(server, email);
    expectError(
      await post(server, '/auth/login', { email, password: PASSWORD }),
      403,
      'EMAIL_NOT_VERIFIED',
    );
    await post(server, '/auth/magic-link/request', { email });
    const signedIn = await post(server, '/auth/magic-link/consume', {
      token: await mailedToken(server, email),
    });
    expectAuthResult(signedIn, email);
    expect(signedIn.body.user.emailVerified).toBe(true);
    // The password was set before anyone proved the address: the proof cleared it (issue 26).
    expectError(
      await post(server, '/auth/login', { email, password: PASSWORD }),
      401,
      'INVALID_CREDENTIALS',
    );
  });
});

/**
 * Issue 26, point 3: pre-account takeover. The attack: with `requireEmailVerification` on, an
 * attacker registers the victim's address with a password of their own; login is refused (not
 * verified) but registration answered a session. When the owner later signs in by a magic link or
 * code sent to the address, that proof must clear the attacker's password and end the attacker's
 * session and refresh token, while the owner's new session lives.
 */
describe(`issue 26: pre-account takeover through passwordless sign-in on ${testDatabaseKind()}`, () => {
  const ATTACKER_PASSWORD = 'attacker chose this one';
  const get = (server: SvcServer, route: string, token: string) =>
    fetch(`${server.url}${route}`, { headers: { authorization: `Bearer ${token}` } });

  async function preAccount(server: SvcServer, email: string) {
    const r = await post(server, '/auth/register', { email, password: ATTACKER_PASSWORD });
    expect(r.status).toBe(201);
    expectError(
      await post(server, '/auth/login', { email, password: ATTACKER_PASSWORD }),
      403,
      'EMAIL_NOT_VERIFIED',
    );
    // Before the proof the registration's session works.
    expect((await get(server, '/auth/profile', r.body.token)).status).toBe(200);
    return { token: r.body.token as string, refreshToken: r.body.refreshToken as string };
  }

  async function attackerIsOut(
    server: SvcServer,
    email: string,
    attacker: { token: string; refreshToken: string },
  ) {
    const profile = await get(server, '/auth/profile', attacker.token);
    expect(profile.status).toBe(401);
    expect(((await profile.json()) as { code?: unknown }).code).toBe('SESSION_EXPIRED');
    expectError(
      await post(server, '/auth/refresh', { refreshToken: attacker.refreshToken }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    expectError(
      await post(server, '/auth/login', { email, password: ATTACKER_PASSWORD }),
      401,
      'INVALID_CREDENTIALS',
    );
  }

  async function ownerIsIn(server: SvcServer, owner: Reply, email: string) {
    expectAuthResult(owner, email);
    expect(owner.body.user.emailVerified).toBe(true);
    expect((await get(server, '/auth/profile', owner.body.token)).status).toBe(200);
    const refreshed = await post(server, '/auth/refresh', {
      refreshToken: owner.body.refreshToken,
    });
    expectAuthResult(refreshed, email);
  }

  test('by magic link: the attacker’s password, session and refresh token die; the owner’s session lives', async () => {
    const server = await started({ requireEmailVerification: true });
    const email = fresh('victim');
    const attacker = await preAccount(server, email);
    await post(server, '/auth/magic-link/request', { email });
    const owner = await post(server, '/auth/magic-link/consume', {
      token: await mailedToken(server, email),
    });
    await ownerIsIn(server, owner, email);
    await attackerIsOut(server, email, attacker);
  });

  test('by magic code: the same', async () => {
    const server = await started({ requireEmailVerification: true });
    const email = fresh('victim');
    const attacker = await preAccount(server, email);
    await post(server, '/auth/magic-code/request', { email });
    const owner = await post(server, '/auth/magic-code/verify', {
      email,
      code: await mailedCode(server, email),
    });
    await ownerIsIn(server, owner, email);
    await attackerIsOut(server, email, attacker);
  });

  test('an address verified by its link proves nothing new: password and sessions stay', async () => {
    const server = await started({ requireEmailVerification: true });
    const email = fresh('owner');
    const first = await post(server, '/auth/register', { email, password: PASSWORD });
    const verify = (await mailsTo(server, email))
      .map((m) => m.text)
      .findLast((t) => t.includes(`${BASE}/auth/verify?token=`));
    const token = /token=([A-Za-z0-9_%.~-]+)/.exec(verify ?? '')?.[1] ?? '';
    expect((await fetch(`${server.url}/auth/verify?token=${token}`)).status).toBe(200);
    const other = await post(server, '/auth/login', { email, password: PASSWORD });
    expectAuthResult(other, email);
    await post(server, '/auth/magic-link/request', { email });
    await ownerIsIn(
      server,
      await post(server, '/auth/magic-link/consume', { token: await mailedToken(server, email) }),
      email,
    );
    expectAuthResult(await post(server, '/auth/login', { email, password: PASSWORD }), email);
    for (const t of [first.body.token, other.body.token])
      expect((await get(server, '/auth/profile', t)).status).toBe(200);
  });
});

describe(`magic codes over HTTP on ${testDatabaseKind()}`, () => {
  test('request: the same answer shape; the mailed code signs in once', async () => {
    const server = await started();
    const email = fresh('coder');
    await register(server, email);
    const r = await post(server, '/auth/magic-code/request', { email });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: CODE_MESSAGE });
    const code = await mailedCode(server, email);
    expect(r.text).not.toContain(code);
    const unknown = await post(server, '/auth/magic-code/request', { email: fresh('nobody') });
    expect(unknown.text).toBe(r.text);

    expectAuthResult(await post(server, '/auth/magic-code/verify', { email, code }), email);
    expectError(
      await post(server, '/auth/magic-code/verify', { email, code }),
      401,
      'INVALID_TOKEN',
    );
  });

  test('400 for a malformed request, 401 for a wrong code or an unknown email', async () => {
    const server = await started();
    const email = fresh('typo');
    await register(server, email);
    expectError(await post(server, '/auth/magic-code/request', {}), 400, 'VALIDATION_ERROR');
    expectError(await post(server, '/auth/magic-code/verify', { email }), 400, 'VALIDATION_ERROR');
    expectError(
      await post(server, '/auth/magic-code/verify', { code: '123456' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await post(server, '/auth/magic-code/verify', { email, code: '12345x' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await post(server, '/auth/magic-code/verify', { email, code: 123456 }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await post(server, '/auth/magic-code/verify', { email: fresh('nobody'), code: '123456' }),
      401,
      'INVALID_TOKEN',
    );
    await post(server, '/auth/magic-code/request', { email });
    const code = await mailedCode(server, email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expectError(
      await post(server, '/auth/magic-code/verify', { email, code: wrong }),
      401,
      'INVALID_TOKEN',
    );
    expectAuthResult(await post(server, '/auth/magic-code/verify', { email, code }), email);
  });

  test('five wrong tries kill the code', async () => {
    const server = await started();
    const email = fresh('guesser');
    await register(server, email);
    await post(server, '/auth/magic-code/request', { email });
    const code = await mailedCode(server, email);
    for (let i = 1; i <= 5; i++) {
      const wrong = String((Number(code) + i) % 1_000_000).padStart(6, '0');
      expectError(
        await post(server, '/auth/magic-code/verify', { email, code: wrong }),
        401,
        'INVALID_TOKEN',
      );
    }
    expectError(
      await post(server, '/auth/magic-code/verify', { email, code }),
      401,
      'INVALID_TOKEN',
    );
  });

  test('a deactivated account: 403 USER_INACTIVE', async () => {
    const server = await started();
    const email = fresh('off');
    await register(server, email);
    await post(server, '/auth/magic-code/request', { email });
    const code = await mailedCode(server, email);
    await server.auth?.setActive(email, false);
    expectError(
      await post(server, '/auth/magic-code/verify', { email, code }),
      403,
      'USER_INACTIVE',
    );
  });
});

describe(`two servers over one database on ${testDatabaseKind()}`, () => {
  test('the request limits (5 a minute) are shared: 429 RATE_LIMITED with Retry-After', async () => {
    const a = await started();
    const b = await started({}, sameDatabase(db.get()));
    const email = fresh('spam');
    await register(a, email);
    for (const route of ['/auth/magic-link/request', '/auth/magic-code/request']) {
      for (let i = 0; i < 5; i++) {
        expect((await post(i % 2 ? a : b, route, { email })).status).toBe(200);
      }
      const r = await post(a, route, { email });
      expectError(r, 429, 'RATE_LIMITED');
      retryAfter(r);
    }
  });

  test('the consume and verify limits (10 a minute) are shared', async () => {
    const a = await started();
    const b = await started({}, sameDatabase(db.get()));
    const email = fresh('brute');
    await register(a, email);
    for (let i = 0; i < 10; i++) {
      const r = await post(i % 2 ? a : b, '/auth/magic-link/consume', { token: 'B'.repeat(43) });
      expectError(r, 401, 'INVALID_TOKEN');
    }
    const link = await post(b, '/auth/magic-link/consume', { token: 'B'.repeat(43) });
    expectError(link, 429, 'RATE_LIMITED');
    retryAfter(link);
    for (let i = 0; i < 10; i++) {
      const r = await post(i % 2 ? a : b, '/auth/magic-code/verify', { email, code: '000000' });
      expect(r.status).toBe(401);
    }
    const code = await post(a, '/auth/magic-code/verify', { email, code: '000000' });
    expectError(code, 429, 'RATE_LIMITED');
    retryAfter(code);
  });

  test('one link raced through both servers signs in exactly once; so does one code', async () => {
    const a = await started();
    const b = await started({}, sameDatabase(db.get()));
    const email = fresh('racer');
    await register(a, email);
    await post(a, '/auth/magic-link/request', { email });
    const token = await mailedToken(a, email);
    const links = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post(i % 2 ? a : b, '/auth/magic-link/consume', { token }),
      ),
    );
    expect(links.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    for (const r of links.filter((x) => x.status === 401)) expectError(r, 401, 'INVALID_TOKEN');

    await post(b, '/auth/magic-code/request', { email });
    const code = await mailedCode(b, email);
    const codes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post(i % 2 ? a : b, '/auth/magic-code/verify', { email, code }),
      ),
    );
    expect(codes.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
  });
});

describe(`passwordless events reach webhooks on ${testDatabaseKind()}`, () => {
  test('MagicLinkRequested, MagicLinkSignupRequested and MagicCodeRequested carry their secrets, signed', async () => {
    const secret = `whsec-${randomUUID()}`;
    const bodies: Array<{ body: Record<string, unknown>; signed: boolean }> = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const expected = Buffer.from(
          `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`,
        );
        const given = Buffer.from(String(req.headers['x-svc-signature-256'] ?? ''));
        bodies.push({
          body: JSON.parse(raw.toString('utf8')),
          signed: given.length === expected.length && timingSafeEqual(given, expected),
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      const server = await started({
        allowImplicitSignup: true,
        webhooks: [
          {
            url: `http://127.0.0.1:${port}/hooks`,
            events: ['MagicLinkRequested', 'MagicLinkSignupRequested', 'MagicCodeRequested'],
            secret,
          },
        ],
      });
      const known = fresh('hooked');
      const userId = await register(server, known);
      const pending = fresh('pending');
      await post(server, '/auth/magic-link/request', { email: known });
      await post(server, '/auth/magic-link/request', { email: pending });
      await post(server, '/auth/magic-code/request', { email: known });
      await server.auth?.settle();
      const byType = (type: string) => bodies.find((b) => b.body.eventType === type);
      expect(byType('MagicLinkRequested')?.body).toMatchObject({
        userId,
        email: known,
        magicLinkToken: await mailedToken(server, known),
      });
      const signup = byType('MagicLinkSignupRequested')?.body;
      expect(signup).toMatchObject({ pendingEmail: pending, magicLinkToken: expect.any(String) });
      expect(signup).not.toHaveProperty('userId');
      expect(byType('MagicCodeRequested')?.body).toMatchObject({
        userId,
        email: known,
        magicCode: await mailedCode(server, known),
      });
      expect(bodies).toHaveLength(3);
      expect(bodies.every((b) => b.signed)).toBe(true);
      // The webhook's signup token is the mailed one, and it works.
      expect(signup?.magicLinkToken).toBe(await mailedToken(server, pending));
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
