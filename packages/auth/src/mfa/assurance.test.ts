/**
 * Issue 26, points 1 and 2: managing a confirmed second factor needs the second factor.
 *
 * The attack: a session opened before TOTP was confirmed (or any stolen access token of one
 * factor) called `POST /auth/mfa/totp/enroll`; the factor went back to pending and the next
 * password login answered a full session — MFA removed without a code. The same session could
 * call `POST /auth/mfa/recovery-codes/generate` and answer the MFA challenge of a password login
 * with one of the new codes. Sessions now carry an assurance level (`aal1` after one factor,
 * `aal2` after an MFA challenge or a user-verified passkey; the `aal` claim of the access token),
 * and for a user with confirmed TOTP, re-enrolling, disabling TOTP, generating recovery codes and
 * registering or deleting a passkey need an `aal2` session or a current TOTP or recovery code in
 * the body (`code`); otherwise 403 `MFA_REQUIRED` and nothing changes (docs/http.md,
 * MFA; ASVS 4.0 V3.7.1).
 *
 * Every request goes over loopback HTTP to the auth handler (the Node adapter on 127.0.0.1), on
 * the engine `SVC_TEST_DB` names.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { T0, useCoreHarness } from '../__tests__/harness';
import { authError } from '../errors';
import { toNodeListener } from '../http/node';
import type { AuthConfig } from '../types';
import { SoftAuthenticator } from '../webauthn/soft-authenticator';
import { base32Decode, totp } from './totp';

const h = useCoreHarness();
const PASSWORD = 'correct horse battery staple';
const ORIGIN = 'https://app.example.test';
const WEBAUTHN = { origin: ORIGIN, rpId: 'example.test', rpName: 'svc tests' };

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in assertions
type Body = any;
interface Reply {
  readonly status: number;
  readonly body: Body;
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
  );
});

/** An auth instance behind a loopback HTTP server; `post` sends JSON with an optional bearer. */
async function setup(config: Partial<AuthConfig> = {}) {
  const { auth, clock } = await h.make({ webauthn: WEBAUTHN, ...config });
  const server = http.createServer(toNodeListener(auth.handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const send = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${base}/auth${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null } as Reply;
  };
  const post = (path: string, body?: unknown, token?: string) => send('POST', path, body, token);
  return { auth, clock, post, send };
}
type Setup = Awaited<ReturnType<typeof setup>>;

let n = 0;
const address = () => `aal-${++n}@example.test`;

/** The claims of an access token (its signature is the server's business, checked elsewhere). */
function claimsOf(token: string): Body {
  return JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'));
}

/**
 * The attacker's starting point: a user whose TOTP is confirmed, and a session that was open
 * before (a password sign-in on another device, or its stolen token: `aal1`). The registration's
 * session enrols and confirms TOTP (confirming raises that session alone to `aal2`). `next()`
 * gives a fresh TOTP code (a code is good once).
 */
async function victim(s: Setup) {
  const email = address();
  const reg = await s.post('/register', { email, password: PASSWORD });
  expect(reg.status).toBe(201);
  const other = await s.post('/login', { email, password: PASSWORD });
  expect(other.status).toBe(200);
  const preMfaToken = other.body.token as string;
  const enrolled = await s.post('/mfa/totp/enroll', undefined, reg.body.token);
  expect(enrolled.status).toBe(200);
  const key = base32Decode(enrolled.body.secret) as Buffer;
  const confirmed = await s.post(
    '/mfa/totp/confirm',
    { code: totp(key, s.clock()) },
    reg.body.token,
  );
  expect(confirmed).toEqual({ status: 200, body: { success: true } });
  const next = () => {
    s.clock.advance(30);
    return totp(key, s.clock());
  };
  return {
    email,
    userId: reg.body.user.id as string,
    preMfaToken,
    refreshToken: other.body.refreshToken as string,
    confirmingToken: reg.body.token as string,
    key,
    next,
  };
}

/** A full sign-in: password, then the challenge answered with a TOTP code → an `aal2` session. */
async function signInWithMfa(s: Setup, email: string, code: string) {
  const challenge = await s.post('/login', { email, password: PASSWORD });
  expect(challenge.body).toMatchObject({ mfaRequired: true });
  const done = await s.post('/mfa/totp/login', {
    challengeToken: challenge.body.challengeToken,
    code,
  });
  expect(done.status).toBe(200);
  return done.body as { token: string; refreshToken: string };
}

async function factorRow(userId: string) {
  const { rows } = await h
    .db()
    .db.query<{ secret_ciphertext: string; confirmed_at: Date | null }>(
      'select secret_ciphertext, confirmed_at from svc_auth.totp_factors where user_id = $1',
      [userId],
    );
  return rows[0];
}

async function recoveryCodeCount(userId: string): Promise<number> {
  const { rows } = await h
    .db()
    .db.query<{ n: number }>(
      'select count(*)::int as n from svc_auth.recovery_codes where user_id = $1 and used_at is null',
      [userId],
    );
  return Number(rows[0]?.n);
}

const MFA_REQUIRED = { status: 403, body: { code: 'MFA_REQUIRED' } };

test('MFA_REQUIRED is an auth code with status 403, in the one registry', () => {
  expect(authError.statuses.MFA_REQUIRED).toBe(403);
  expect(authError('MFA_REQUIRED', 'x').status).toBe(403);
});

describe('issue 26 point 1: re-enrolling TOTP with a pre-MFA session', () => {
  test('is refused with 403 MFA_REQUIRED; the factor stays confirmed and login still owes the challenge', async () => {
    const s = await setup();
    const v = await victim(s);
    const before = await factorRow(v.userId);
    expect(before?.confirmed_at).not.toBeNull();

    const attack = await s.post('/mfa/totp/enroll', undefined, v.preMfaToken);
    expect(attack).toMatchObject(MFA_REQUIRED);
    expect(attack.body.error).toMatch(/^MFA_REQUIRED: /);
    expect(attack.body).not.toHaveProperty('secret');
    // An empty JSON body or an empty code is no second factor either.
    expect(await s.post('/mfa/totp/enroll', {}, v.preMfaToken)).toMatchObject(MFA_REQUIRED);
    expect(await s.post('/mfa/totp/enroll', { code: '' }, v.preMfaToken)).toMatchObject(
      MFA_REQUIRED,
    );
    // Nothing changed: same sealed secret, still confirmed.
    expect(await factorRow(v.userId)).toEqual(before);
    const login = await s.post('/login', { email: v.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ mfaRequired: true });
    expect(login.body).not.toHaveProperty('token');
  });

  test('a refresh of the pre-MFA session is still aal1: refused as well', async () => {
    const s = await setup();
    const v = await victim(s);
    const refreshed = await s.post('/refresh', { refreshToken: v.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(claimsOf(refreshed.body.token).aal).toBe('aal1');
    expect(await s.post('/mfa/totp/enroll', undefined, refreshed.body.token)).toMatchObject(
      MFA_REQUIRED,
    );
    expect((await factorRow(v.userId))?.confirmed_at).not.toBeNull();
  });

  test('disabling TOTP with a pre-MFA session and no code is refused; the factor stays', async () => {
    const s = await setup();
    const v = await victim(s);
    expect(await s.post('/mfa/totp/disable', {}, v.preMfaToken)).toMatchObject(MFA_REQUIRED);
    expect(await s.post('/mfa/totp/disable', undefined, v.preMfaToken)).toMatchObject(MFA_REQUIRED);
    expect((await factorRow(v.userId))?.confirmed_at).not.toBeNull();
  });

  test('a wrong code is refused the same way and counts toward the mfaVerify limit', async () => {
    const s = await setup({ rateLimits: { mfaVerify: { perEmail: 3 } } });
    const v = await victim(s); // confirming counted one check
    const right = totp(v.key, s.clock() + 30_000);
    const wrong = right === '000000' ? '000001' : '000000';
    const refused = await s.post('/mfa/totp/enroll', { code: wrong }, v.preMfaToken);
    expect(refused).toMatchObject(MFA_REQUIRED);
    expect(refused.body.error).toMatch(/wrong/);
    expect(
      await s.post('/mfa/recovery-codes/generate', { code: 'ABCDE-FGHJK' }, v.preMfaToken),
    ).toMatchObject(MFA_REQUIRED);
    // The limit is reached: even the right code now waits.
    s.clock.advance(30);
    const limited = await s.post('/mfa/totp/enroll', { code: right }, v.preMfaToken);
    expect(limited).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await factorRow(v.userId))?.confirmed_at).not.toBeNull();
    // Malformed input is a 400, not a guess.
    expect(await s.post('/mfa/totp/enroll', { code: 123456 }, v.preMfaToken)).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
  });

  test('with a current TOTP code in the body the pre-MFA session may re-enroll (the code is spent)', async () => {
    const s = await setup();
    const v = await victim(s);
    const code = v.next();
    const again = await s.post('/mfa/totp/enroll', { code }, v.preMfaToken);
    expect(again.status).toBe(200);
    expect(again.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await factorRow(v.userId))?.confirmed_at).toBeNull();
    // Enrolling again makes TOTP pending again. The spent code cannot be replayed.
    const key2 = base32Decode(again.body.secret) as Buffer;
    expect(
      (await s.post('/mfa/totp/confirm', { code: totp(key2, s.clock()) }, v.preMfaToken)).status,
    ).toBe(200);
    // Confirming raised that session to aal2; a code it sends is still checked: the spent one is
    // refused (401 from an aal2 session), and nothing changes.
    expect(await s.post('/mfa/totp/enroll', { code }, v.preMfaToken)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    expect((await factorRow(v.userId))?.confirmed_at).not.toBeNull();
  });

  test('an aal2 session (password + TOTP challenge) re-enrolls without a code; disabling takes its code', async () => {
    const s = await setup();
    const v = await victim(s);
    const full = await signInWithMfa(s, v.email, v.next());
    expect(claimsOf(full.token).aal).toBe('aal2');
    const again = await s.post('/mfa/totp/enroll', undefined, full.token);
    expect(again.status).toBe(200);
    const key2 = base32Decode(again.body.secret) as Buffer;
    s.clock.advance(30);
    expect(
      (await s.post('/mfa/totp/confirm', { code: totp(key2, s.clock()) }, full.token)).status,
    ).toBe(200);
    // A code that is sent is checked even from an aal2 session: a wrong one changes nothing.
    const wrong = await s.post('/mfa/totp/disable', { code: '000000' }, full.token);
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
    expect((await factorRow(v.userId))?.confirmed_at).toBeTruthy();
    // Disabling always takes {code} (docs/http.md): 400 without one from an aal2 session.
    expect(await s.post('/mfa/totp/disable', {}, full.token)).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    s.clock.advance(30);
    expect(await s.post('/mfa/totp/disable', { code: totp(key2, s.clock()) }, full.token)).toEqual({
      status: 200,
      body: { success: true },
    });
    expect(await factorRow(v.userId)).toBeUndefined();
    // No confirmed factor any more: the pre-MFA session is unaffected again.
    expect((await s.post('/mfa/totp/enroll', undefined, v.preMfaToken)).status).toBe(200);
  });
});

describe('issue 26 point 2: recovery codes with a pre-MFA session', () => {
  test('generating is refused; no code exists that could answer the challenge', async () => {
    const s = await setup();
    const v = await victim(s);
    const attack = await s.post('/mfa/recovery-codes/generate', undefined, v.preMfaToken);
    expect(attack).toMatchObject(MFA_REQUIRED);
    expect(attack.body).not.toHaveProperty('codes');
    expect(await recoveryCodeCount(v.userId)).toBe(0);
    const challenge = await s.post('/login', { email: v.email, password: PASSWORD });
    expect(challenge.body.methods).toEqual(['totp']);
  });

  test('earlier codes survive a refused regeneration', async () => {
    const s = await setup();
    const v = await victim(s);
    const full = await signInWithMfa(s, v.email, v.next());
    const first = await s.post('/mfa/recovery-codes/generate', undefined, full.token);
    expect(first.body.codes).toHaveLength(8);
    expect(await s.post('/mfa/recovery-codes/generate', {}, v.preMfaToken)).toMatchObject(
      MFA_REQUIRED,
    );
    expect(await recoveryCodeCount(v.userId)).toBe(8);
    const challenge = await s.post('/login', { email: v.email, password: PASSWORD });
    expect(
      (
        await s.post('/mfa/recovery-codes/login', {
          challengeToken: challenge.body.challengeToken,
          code: first.body.codes[0],
        })
      ).status,
    ).toBe(200);
  });

  test('with a current TOTP code, or an unused recovery code (which is burned), it is allowed', async () => {
    const s = await setup();
    const v = await victim(s);
    const byTotp = await s.post('/mfa/recovery-codes/generate', { code: v.next() }, v.preMfaToken);
    expect(byTotp.status).toBe(200);
    expect(byTotp.body.codes).toHaveLength(8);
    const spend = byTotp.body.codes[2] as string;
    const byRecovery = await s.post(
      '/mfa/recovery-codes/generate',
      { code: spend.toLowerCase() },
      v.preMfaToken,
    );
    expect(byRecovery.status).toBe(200);
    expect(byRecovery.body.codes).toHaveLength(8);
    // The batch that spent it is gone anyway; the spent code is refused on the new batch too.
    expect(await s.post('/mfa/totp/disable', { code: spend }, v.preMfaToken)).toMatchObject(
      MFA_REQUIRED,
    );
    // A recovery code of the current batch disables TOTP, and is burned by it.
    expect(
      await s.post('/mfa/totp/disable', { code: byRecovery.body.codes[0] }, v.preMfaToken),
    ).toEqual({ status: 200, body: { success: true } });
    expect(await recoveryCodeCount(v.userId)).toBe(7);
  });

  test('an aal2 session generates without a code', async () => {
    const s = await setup();
    const v = await victim(s);
    const full = await signInWithMfa(s, v.email, v.next());
    const r = await s.post('/mfa/recovery-codes/generate', undefined, full.token);
    expect(r.status).toBe(200);
    expect(r.body.codes).toHaveLength(8);
  });

  test('a user without confirmed TOTP is unaffected (pending counts as none)', async () => {
    const s = await setup();
    const reg = await s.post('/register', { email: address(), password: PASSWORD });
    const token = reg.body.token as string;
    expect((await s.post('/mfa/recovery-codes/generate', undefined, token)).status).toBe(200);
    expect((await s.post('/mfa/totp/enroll', undefined, token)).status).toBe(200);
    expect((await s.post('/mfa/totp/enroll', undefined, token)).status).toBe(200);
    expect((await s.post('/mfa/recovery-codes/generate', undefined, token)).status).toBe(200);
  });
});

describe('confirming TOTP', () => {
  test('raises the confirming session alone to aal2: it goes on to generate recovery codes', async () => {
    const s = await setup();
    const email = address();
    const reg = await s.post('/register', { email, password: PASSWORD });
    const other = await s.post('/login', { email, password: PASSWORD });
    const token = reg.body.token as string;
    const key = base32Decode((await s.post('/mfa/totp/enroll', undefined, token)).body.secret);
    expect(
      (await s.post('/mfa/totp/confirm', { code: totp(key as Buffer, s.clock()) }, token)).status,
    ).toBe(200);
    const codes = await s.post('/mfa/recovery-codes/generate', undefined, token);
    expect(codes.status).toBe(200);
    expect(codes.body.codes).toHaveLength(8);
    // The session's next tokens say so; the other session stays aal1 and is refused.
    const refreshed = await s.post('/refresh', { refreshToken: reg.body.refreshToken });
    expect(claimsOf(refreshed.body.token).aal).toBe('aal2');
    expect(await s.post('/mfa/recovery-codes/generate', undefined, other.body.token)).toMatchObject(
      MFA_REQUIRED,
    );
  });
});

describe('the aal claim and the session record', () => {
  async function sessionAal(token: string): Promise<string | undefined> {
    const { rows } = await h
      .db()
      .db.query<{ aal: string }>('select aal from svc_auth.sessions where access_jti = $1', [
        claimsOf(token).jti,
      ]);
    return rows[0]?.aal;
  }

  test('aal1 after a password; aal2 after the MFA challenge; a refresh keeps the level', async () => {
    const s = await setup();
    const email = address();
    const reg = await s.post('/register', { email, password: PASSWORD });
    expect(claimsOf(reg.body.token).aal).toBe('aal1');
    const plain = await s.post('/login', { email, password: PASSWORD });
    expect(claimsOf(plain.body.token).aal).toBe('aal1');
    expect(await sessionAal(plain.body.token)).toBe('aal1');
    await expect(s.auth.verifyToken(plain.body.token)).resolves.toMatchObject({ aal: 'aal1' });

    const enrolled = await s.post('/mfa/totp/enroll', undefined, reg.body.token);
    const key = base32Decode(enrolled.body.secret) as Buffer;
    await s.post('/mfa/totp/confirm', { code: totp(key, s.clock()) }, reg.body.token);
    s.clock.advance(30);
    const full = await signInWithMfa(s, email, totp(key, s.clock()));
    expect(claimsOf(full.token).aal).toBe('aal2');
    expect(await sessionAal(full.token)).toBe('aal2');
    await expect(s.auth.verifyToken(full.token)).resolves.toMatchObject({ aal: 'aal2' });

    const refreshed = await s.post('/refresh', { refreshToken: full.refreshToken });
    expect(claimsOf(refreshed.body.token).aal).toBe('aal2');
    expect(await sessionAal(refreshed.body.token)).toBe('aal2');
    const again = await s.post('/refresh', { refreshToken: refreshed.body.refreshToken });
    expect(claimsOf(again.body.token).aal).toBe('aal2');
    // The refreshed aal2 session manages the factor without a code.
    expect((await s.post('/mfa/recovery-codes/generate', undefined, again.body.token)).status).toBe(
      200,
    );
    const plainRefreshed = await s.post('/refresh', { refreshToken: plain.body.refreshToken });
    expect(claimsOf(plainRefreshed.body.token).aal).toBe('aal1');
  });

  // Attack: a `claims(user)` hook (host code fed by user data) writes `aal: 'aal2'` into a
  // one-factor token. The token keeps the session's level, and the guard reads the session.
  test('the claims hook cannot raise the level', async () => {
    const s = await setup({ claims: () => ({ aal: 'aal2', permissions: ['notes:read'] }) });
    const v = await victim(s);
    expect(claimsOf(v.preMfaToken)).toMatchObject({ aal: 'aal1', permissions: ['notes:read'] });
    expect(await s.post('/mfa/recovery-codes/generate', undefined, v.preMfaToken)).toMatchObject(
      MFA_REQUIRED,
    );
  });

  test('a recovery-code answer to the challenge is aal2 too; a guest is aal1', async () => {
    const s = await setup();
    const v = await victim(s);
    const full = await signInWithMfa(s, v.email, v.next());
    const { codes } = (await s.post('/mfa/recovery-codes/generate', undefined, full.token)).body;
    const challenge = await s.post('/login', { email: v.email, password: PASSWORD });
    const byCode = await s.post('/mfa/recovery-codes/login', {
      challengeToken: challenge.body.challengeToken,
      code: codes[0],
    });
    expect(claimsOf(byCode.body.token).aal).toBe('aal2');
    const guest = await s.post('/anonymous');
    expect(claimsOf(guest.body.token).aal).toBe('aal1');
  });
});

describe('passkeys of a user with confirmed TOTP', () => {
  /** register/begin, the authenticator's answer, register/finish (extra fields merged in). */
  async function registerPasskey(
    s: Setup,
    token: string,
    beginBody?: unknown,
    finishExtra: Record<string, unknown> = {},
    uv = true,
  ) {
    const authenticator = new SoftAuthenticator();
    const begin = await s.post('/webauthn/register/begin', beginBody, token);
    if (begin.status !== 200) return { begin, finish: undefined, authenticator };
    const made = authenticator.create(begin.body.options, { origin: ORIGIN, now: T0, uv });
    const finish = await s.post(
      '/webauthn/register/finish',
      {
        challengeId: begin.body.challengeId,
        credentialId: made.credentialId,
        clientDataJSON: made.clientDataJSON,
        attestationObject: made.attestationObject,
        name: 'Laptop',
        ...finishExtra,
      },
      token,
    );
    return { begin, finish, authenticator, credentialId: made.credentialId };
  }
  const credentials = async (s: Setup, token: string) =>
    (
      (await s.send('GET', '/webauthn/credentials', undefined, token)).body.credentials as {
        id: string;
      }[]
    ).map((c) => c.id);

  test('registering with a pre-MFA session is refused at begin; with a code at begin the ceremony completes', async () => {
    const s = await setup();
    const v = await victim(s);
    const refused = await registerPasskey(s, v.preMfaToken);
    expect(refused.begin).toMatchObject(MFA_REQUIRED);
    expect(await credentials(s, v.preMfaToken)).toEqual([]);

    const allowed = await registerPasskey(s, v.preMfaToken, { code: v.next() });
    expect(allowed.begin.status).toBe(200);
    expect(allowed.finish?.status).toBe(200);
    expect(await credentials(s, v.preMfaToken)).toEqual([allowed.credentialId]);
  });

  test('a ceremony begun before TOTP was confirmed cannot be finished by the pre-MFA session without a code', async () => {
    const s = await setup();
    const email = address();
    const reg = await s.post('/register', { email, password: PASSWORD });
    const token = reg.body.token as string;
    // The attacker begins while the account has one factor...
    const authenticator = new SoftAuthenticator();
    const begin = await s.post('/webauthn/register/begin', undefined, token);
    expect(begin.status).toBe(200);
    // ...the owner, signed in elsewhere, turns TOTP on...
    const owner = (await s.post('/login', { email, password: PASSWORD })).body.token as string;
    const key = base32Decode((await s.post('/mfa/totp/enroll', undefined, owner)).body.secret);
    await s.post('/mfa/totp/confirm', { code: totp(key as Buffer, s.clock()) }, owner);
    // ...and the attacker's finish is refused: nothing stored.
    const made = authenticator.create(begin.body.options, { origin: ORIGIN, now: T0 });
    const finish = await s.post(
      '/webauthn/register/finish',
      {
        challengeId: begin.body.challengeId,
        credentialId: made.credentialId,
        clientDataJSON: made.clientDataJSON,
        attestationObject: made.attestationObject,
      },
      token,
    );
    expect(finish).toMatchObject(MFA_REQUIRED);
    expect(await credentials(s, token)).toEqual([]);
    // A new ceremony is refused at begin; with a code at finish instead, it completes.
    expect((await registerPasskey(s, token)).begin).toMatchObject(MFA_REQUIRED);
    s.clock.advance(30);
    const second = await registerPasskey(s, token, { code: totp(key as Buffer, s.clock()) });
    expect(second.finish?.status).toBe(200);
    expect(await credentials(s, token)).toEqual([second.credentialId]);
  });

  test('an aal2 session registers and deletes without a code; a user-verified passkey sign-in is aal2', async () => {
    const s = await setup();
    const v = await victim(s);
    const full = await signInWithMfa(s, v.email, v.next());
    const reg = await registerPasskey(s, full.token);
    expect(reg.finish?.status).toBe(200);

    const signIn = async (uv: boolean) => {
      const begin = await s.post('/webauthn/login/begin', { email: v.email });
      const assertion = reg.authenticator.get(begin.body.options, { origin: ORIGIN, uv });
      return s.post('/webauthn/login/finish', {
        challengeId: begin.body.challengeId,
        ...assertion,
      });
    };
    const byPasskey = await signIn(true);
    expect(byPasskey.status).toBe(200);
    expect(claimsOf(byPasskey.body.token).aal).toBe('aal2');
    // Without user verification the passkey is one factor: the challenge, then aal2.
    const unverified = await signIn(false);
    expect(unverified.body).toMatchObject({ mfaRequired: true });

    // Deleting with the pre-MFA session: refused, the passkey stays; with the passkey's aal2 session: gone.
    const del = (token: string, body: Record<string, unknown> = {}) =>
      s.post('/webauthn/credentials/delete', { credentialId: reg.credentialId, ...body }, token);
    expect(await del(v.preMfaToken)).toMatchObject(MFA_REQUIRED);
    expect(await credentials(s, v.preMfaToken)).toEqual([reg.credentialId]);
    expect(await del(byPasskey.body.token)).toEqual({ status: 200, body: { success: true } });
    expect(await credentials(s, v.preMfaToken)).toEqual([]);
  });

  test('deleting with a pre-MFA session and a current code is allowed; an unknown id is 404 before any code is spent', async () => {
    const s = await setup();
    const v = await victim(s);
    const reg = await registerPasskey(s, v.preMfaToken, { code: v.next() });
    expect(reg.finish?.status).toBe(200);
    const code = v.next();
    expect(
      await s.post('/webauthn/credentials/delete', { credentialId: 'nope', code }, v.preMfaToken),
    ).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(
      await s.post(
        '/webauthn/credentials/delete',
        { credentialId: reg.credentialId, code },
        v.preMfaToken,
      ),
    ).toEqual({ status: 200, body: { success: true } });
    expect(await credentials(s, v.preMfaToken)).toEqual([]);
  });

  test('a user-verified passkey sign-in of a user without TOTP is aal2; without UV aal1', async () => {
    const s = await setup();
    const email = address();
    const reg = await s.post('/register', { email, password: PASSWORD });
    const passkey = await registerPasskey(s, reg.body.token);
    expect(passkey.finish?.status).toBe(200);
    for (const uv of [true, false]) {
      const begin = await s.post('/webauthn/login/begin', { email });
      const assertion = passkey.authenticator.get(begin.body.options, { origin: ORIGIN, uv });
      const r = await s.post('/webauthn/login/finish', {
        challengeId: begin.body.challengeId,
        ...assertion,
      });
      expect(r.status).toBe(200);
      expect(claimsOf(r.body.token).aal).toBe(uv ? 'aal2' : 'aal1');
    }
  });
});
