/**
 * Passkeys through the `Auth` instance, against a software authenticator (none, packed self,
 * packed x5c), on PGlite or PostgreSQL: both ceremonies, every check failing, the counter rule
 * and its audit event, usernameless sign-in, credential list and delete, INVALID_OPERATION
 * without configuration.
 */
import { generateKeyPairSync } from 'node:crypto';
import { codeOf, session, T0, useCoreHarness } from '../__tests__/harness';
import { createAuth } from '../create-auth';
import type { Auth, AuthConfig, AuthEvent } from '../types';
import type { CborMap } from './cbor';
import { SoftAuthenticator, type CreateOptions, type GetOptions } from './soft-authenticator';

const h = useCoreHarness();
const ORIGIN = 'https://app.example.test';
const WEBAUTHN = { origin: ORIGIN, rpId: 'example.test', rpName: 'svc tests' };
const PASSWORD = 'a long passphrase';

async function setup(config: Partial<AuthConfig> = {}) {
  const made = await h.make({ webauthn: WEBAUTHN, ...config });
  return made;
}

let n = 0;
async function user(auth: Auth) {
  n++;
  const r = await auth.register({ email: `u${n}@example.test`, password: PASSWORD });
  return { token: r.token, id: r.user.id, email: r.user.email };
}

/** Registers a passkey for the holder of `token`; returns the authenticator and the finish answer. */
async function enroll(
  auth: Auth,
  token: string,
  opts: Partial<CreateOptions> = {},
  authenticator = new SoftAuthenticator(),
) {
  const begin = await auth.webauthn.registerBegin(token);
  const response = authenticator.create(begin.options, { origin: ORIGIN, now: T0, ...opts });
  const result = await auth.webauthn.registerFinish(token, {
    challengeId: begin.challengeId,
    credentialId: response.credentialId,
    clientDataJSON: response.clientDataJSON,
    attestationObject: response.attestationObject,
    name: 'Laptop',
  });
  return { authenticator, result, credentialId: response.credentialId };
}

/** A sign-in with the authenticator: begin (with `email` when given), get, finish. */
async function signIn(
  auth: Auth,
  authenticator: SoftAuthenticator,
  opts: Partial<GetOptions> = {},
  email?: string,
  credentialId?: string,
) {
  const begin = await auth.webauthn.loginBegin(email === undefined ? {} : { email }, {
    ip: '192.0.2.1',
  });
  const assertion = authenticator.get(begin.options, { origin: ORIGIN, ...opts }, credentialId);
  return auth.webauthn.loginFinish(
    { challengeId: begin.challengeId, ...assertion },
    { ip: '192.0.2.1' },
  );
}

async function registrationCode(
  opts: Partial<CreateOptions>,
): Promise<{ code: string; message: string }> {
  const { auth } = await setup();
  const u = await user(auth);
  try {
    await enroll(auth, u.token, opts);
  } catch (err) {
    return { code: (err as { code: string }).code, message: (err as Error).message };
  }
  return { code: '(resolved)', message: '' };
}

describe('without webauthn configuration', () => {
  test('every WebAuthn operation fails with INVALID_OPERATION (400)', async () => {
    const { auth } = await h.make();
    const u = await user(auth);
    const calls = [
      auth.webauthn.registerBegin(u.token),
      auth.webauthn.registerFinish(u.token, {} as never),
      auth.webauthn.loginBegin({}),
      auth.webauthn.loginFinish({} as never),
      auth.webauthn.listCredentials(u.token),
      auth.webauthn.deleteCredential(u.token, 'x'),
    ];
    for (const c of calls) expect(await codeOf(c)).toBe('INVALID_OPERATION');
    await auth.webauthn.loginBegin({}).catch((err) => expect(err.status).toBe(400));
  });
});

describe('configuration', () => {
  test.each([
    [{ ...WEBAUTHN, origin: 'https://app.example.test/' }, /origin must be an origin/],
    [{ ...WEBAUTHN, origin: 'http://app.example.test' }, /https/],
    [{ ...WEBAUTHN, rpId: 'other.test' }, /parent domain/],
    [{ ...WEBAUTHN, rpId: 'Example.test' }, /lower-case/],
    [{ ...WEBAUTHN, rpName: '' }, /rpName/],
    [{ ...WEBAUTHN, requireResidentKey: 'yes' }, /requireResidentKey/],
    [{ ...WEBAUTHN, extra: 1 }, /unknown key webauthn.extra/],
    ['on', /must be an object/],
  ])('refuses %j at construction', async (webauthn, message) => {
    await expect(
      createAuth(
        { jwtSecret: 'x'.repeat(40), webauthn: webauthn as never },
        { database: h.db().db },
      ),
    ).rejects.toThrow(message);
  });

  test('http://localhost is accepted (a secure context)', async () => {
    const { auth } = await h.make({
      webauthn: { origin: 'http://localhost:5173', rpId: 'localhost', rpName: 'dev' },
    });
    expect(auth.config.webauthn).toEqual({
      origin: 'http://localhost:5173',
      rpId: 'localhost',
      rpName: 'dev',
      requireResidentKey: false,
    });
  });
});

describe('registration', () => {
  test('begin: PublicKeyCredentialCreationOptionsJSON bound to the caller', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const { challengeId, options } = await auth.webauthn.registerBegin(u.token);
    expect(challengeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(options).toEqual({
      rp: { id: 'example.test', name: 'svc tests' },
      user: { id: expect.any(String), name: u.email, displayName: u.email },
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      timeout: 300000,
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    expect(Buffer.from(options.user.id, 'base64url').toString('hex')).toBe(u.id.replace(/-/g, ''));
    const again = await auth.webauthn.registerBegin(u.token);
    expect(again.options.challenge).not.toBe(options.challenge);
  });

  test('requireResidentKey: resident key required and the legacy flag set', async () => {
    const { auth } = await setup({ webauthn: { ...WEBAUTHN, requireResidentKey: true } });
    const u = await user(auth);
    const { options } = await auth.webauthn.registerBegin(u.token);
    expect(options.authenticatorSelection).toEqual({
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'preferred',
    });
  });

  test.each(['none', 'packed-self', 'packed-x5c'] as const)(
    'finish with attestation %s stores the passkey',
    async (attestation) => {
      const { auth } = await setup();
      const u = await user(auth);
      const { result, credentialId } = await enroll(auth, u.token, { attestation });
      expect(result).toEqual({
        credential: {
          id: credentialId,
          name: 'Laptop',
          createdAt: new Date(T0).toISOString(),
        },
      });
      expect(await auth.webauthn.listCredentials(u.token)).toEqual({
        credentials: [{ ...result.credential, lastUsedAt: null }],
      });
      const next = await auth.webauthn.registerBegin(u.token);
      expect(next.options.excludeCredentials).toEqual([{ type: 'public-key', id: credentialId }]);
    },
  );

  test('the name defaults to "Passkey" and is validated', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const a = new SoftAuthenticator();
    const begin = await auth.webauthn.registerBegin(u.token);
    const r = a.create(begin.options, { origin: ORIGIN });
    const { name: _n, ...rest } = { ...r, challengeId: begin.challengeId, name: undefined };
    const done = await auth.webauthn.registerFinish(u.token, rest);
    expect(done.credential.name).toBe('Passkey');
    const b2 = await auth.webauthn.registerBegin(u.token);
    const r2 = a.create(b2.options, { origin: ORIGIN });
    expect(
      await codeOf(
        auth.webauthn.registerFinish(u.token, {
          ...r2,
          challengeId: b2.challengeId,
          name: 'x'.repeat(101),
        }),
      ),
    ).toBe('VALIDATION_ERROR');
  });

  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  test.each<[string, Partial<CreateOptions>, RegExp]>([
    ['clientData.type', { type: 'webauthn.get' }, /clientData.type/],
    [
      'challenge',
      { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      /challenge does not match/,
    ],
    ['origin', { origin: 'https://evil.example.test' }, /origin/],
    ['cross-origin iframe', { crossOrigin: true }, /cross-origin/],
    ['rpIdHash', { rpId: 'evil.test' }, /rpIdHash/],
    ['user presence', { up: false }, /UP flag/],
    ['attestation format', { fmt: 'tpm' }, /format "tpm" is not supported/],
    ['none with a statement', { attStmt: () => new Map([['alg', -7]]) }, /empty attStmt/],
    [
      'packed algorithm',
      { attestation: 'packed-self', attStmt: (s: CborMap) => new Map([...s, ['alg', -257]]) },
      /algorithm -257/,
    ],
    [
      'packed self signature',
      {
        attestation: 'packed-self',
        attStmt: (s: CborMap) => new Map([...s, ['sig', Buffer.alloc(70, 1)]]),
      },
      /self attestation signature is invalid/,
    ],
    [
      'packed ECDAA',
      {
        attestation: 'packed-self',
        attStmt: (s: CborMap) => new Map([...s, ['ecdaaKeyId', Buffer.alloc(4)]]),
      },
      /ECDAA/,
    ],
    [
      'packed x5c signature',
      {
        attestation: 'packed-x5c',
        attStmt: (s: CborMap) => {
          const { sign } = require('node:crypto') as typeof import('node:crypto');
          return new Map([...s, ['sig', sign('sha256', Buffer.from('x'), other.privateKey)]]);
        },
      },
      /x5c leaf certificate/,
    ],
    [
      'x5c certificate version',
      { attestation: 'packed-x5c', certificate: { version: 1 } },
      /version 3/,
    ],
    [
      'x5c certificate CA',
      { attestation: 'packed-x5c', certificate: { ca: true } },
      /must not be a CA/,
    ],
    [
      'x5c certificate OU',
      { attestation: 'packed-x5c', certificate: { ou: 'Other' } },
      /OU must be/,
    ],
    [
      'x5c AAGUID extension',
      { attestation: 'packed-x5c', certificate: { aaguidExtension: Buffer.alloc(16, 7) } },
      /AAGUID does not match/,
    ],
    [
      'x5c validity',
      { attestation: 'packed-x5c', certificate: { notAfter: new Date(T0 - 1000) } },
      /not valid at this time/,
    ],
    [
      'x5c not a certificate',
      {
        attestation: 'packed-x5c',
        attStmt: (s: CborMap) => new Map([...s, ['x5c', [Buffer.from('nope')]]]),
      },
      /not an X.509/,
    ],
    [
      'COSE algorithm',
      { coseKey: (k: CborMap) => new Map([...k, [3, -257]]) },
      /COSE algorithm -257/,
    ],
    ['COSE key type', { coseKey: (k: CborMap) => new Map([...k, [1, 3]]) }, /COSE key type 3/],
    ['COSE curve', { coseKey: (k: CborMap) => new Map([...k, [-1, 2]]) }, /curve 2/],
    [
      'COSE point off the curve',
      { coseKey: (k: CborMap) => new Map([...k, [-3, k.get(-2) as Uint8Array]]) },
      /not a point on P-256/,
    ],
  ])('finish refuses a bad %s (400 VALIDATION_ERROR naming it)', async (_what, opts, message) => {
    const r = await registrationCode(opts);
    expect(r.code).toBe('VALIDATION_ERROR');
    expect(r.message).toMatch(/passkey registration failed/);
    expect(r.message).toMatch(message);
  });

  test('x5c without the AAGUID extension is accepted', async () => {
    const r = await registrationCode({
      attestation: 'packed-x5c',
      certificate: { aaguidExtension: false },
    });
    expect(r.code).toBe('(resolved)');
  });

  test('credentialId must be the attested credential; base64url fields are checked', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const a = new SoftAuthenticator();
    const begin = await auth.webauthn.registerBegin(u.token);
    const r = a.create(begin.options, { origin: ORIGIN });
    const finish = (patch: Record<string, unknown>) =>
      auth.webauthn.registerFinish(u.token, {
        ...r,
        challengeId: begin.challengeId,
        ...patch,
      } as never);
    expect(await codeOf(finish({ credentialId: 'AAAA' }))).toBe('VALIDATION_ERROR');
    for (const patch of [
      { clientDataJSON: 'not base64url!' },
      { attestationObject: 42 },
      { credentialId: undefined },
      { clientDataJSON: 'x'.repeat(10_000) },
      { challengeId: 7 },
    ]) {
      expect(await codeOf(finish(patch))).toBe('VALIDATION_ERROR');
    }
    expect(await codeOf(auth.webauthn.registerFinish(u.token, 'x' as never))).toBe(
      'VALIDATION_ERROR',
    );
  });

  test('a challenge is single use (even when the finish failed), lives 5 minutes, and belongs to its user and ceremony', async () => {
    const { auth, clock } = await setup();
    const u = await user(auth);
    const v = await user(auth);
    const a = new SoftAuthenticator();
    // Single use: a failed finish burns it too.
    let begin = await auth.webauthn.registerBegin(u.token);
    let r = a.create(begin.options, { origin: 'https://evil.example.test' });
    expect(
      await codeOf(auth.webauthn.registerFinish(u.token, { ...r, challengeId: begin.challengeId })),
    ).toBe('VALIDATION_ERROR');
    r = a.create(begin.options, { origin: ORIGIN });
    expect(
      await codeOf(auth.webauthn.registerFinish(u.token, { ...r, challengeId: begin.challengeId })),
    ).toBe('INVALID_TOKEN');
    // Expired after 5 minutes.
    begin = await auth.webauthn.registerBegin(u.token);
    r = a.create(begin.options, { origin: ORIGIN });
    clock.advance(301);
    expect(
      await codeOf(auth.webauthn.registerFinish(u.token, { ...r, challengeId: begin.challengeId })),
    ).toBe('INVALID_TOKEN');
    // Another user's challenge.
    const vt = (await session(auth.login({ email: v.email, password: PASSWORD }))).token;
    const ut = (await session(auth.login({ email: u.email, password: PASSWORD }))).token;
    begin = await auth.webauthn.registerBegin(ut);
    r = a.create(begin.options, { origin: ORIGIN });
    expect(
      await codeOf(auth.webauthn.registerFinish(vt, { ...r, challengeId: begin.challengeId })),
    ).toBe('INVALID_TOKEN');
    // A sign-in challenge is not a registration challenge.
    const login = await auth.webauthn.loginBegin({});
    r = a.create({ ...begin.options, challenge: login.options.challenge }, { origin: ORIGIN });
    expect(
      await codeOf(auth.webauthn.registerFinish(ut, { ...r, challengeId: login.challengeId })),
    ).toBe('INVALID_TOKEN');
    // Not a UUID at all.
    expect(await codeOf(auth.webauthn.registerFinish(ut, { ...r, challengeId: 'nope' }))).toBe(
      'INVALID_TOKEN',
    );
  });

  test('the same credential cannot be registered twice', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const a = new SoftAuthenticator();
    const begin = await auth.webauthn.registerBegin(u.token);
    const r = a.create(begin.options, { origin: ORIGIN });
    await auth.webauthn.registerFinish(u.token, { ...r, challengeId: begin.challengeId });
    // The same credential id, attested again (for this user or another), is refused.
    for (const who of [u, await user(auth)]) {
      const again = await auth.webauthn.registerBegin(who.token);
      const dup = a.create(again.options, {
        origin: ORIGIN,
        credentialId: Buffer.from(r.credentialId, 'base64url'),
      });
      const err = await auth.webauthn
        .registerFinish(who.token, { ...dup, challengeId: again.challengeId })
        .catch((e) => e);
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.message).toMatch(/already registered/);
    }
  });

  test('needs a live session', async () => {
    const { auth } = await setup();
    expect(await codeOf(auth.webauthn.registerBegin('not-a-token'))).toBe('INVALID_TOKEN');
    const u = await user(auth);
    await auth.logout(u.token);
    expect(await codeOf(auth.webauthn.registerBegin(u.token))).toBe('SESSION_EXPIRED');
  });
});

describe('sign-in', () => {
  test("with an email: allowCredentials lists the user's passkeys; finish answers an Auth result", async () => {
    const { auth, clock, events } = await setup();
    const u = await user(auth);
    const { authenticator, credentialId } = await enroll(auth, u.token);
    clock.advance(1); // oldest first: the second passkey is listed second
    const { credentialId: second } = await enroll(auth, u.token, {}, authenticator);
    const begin = await auth.webauthn.loginBegin({ email: u.email.toUpperCase() });
    expect(begin.options).toEqual({
      rpId: 'example.test',
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      timeout: 300000,
      userVerification: 'preferred',
      allowCredentials: [
        { type: 'public-key', id: credentialId },
        { type: 'public-key', id: second },
      ],
    });
    clock.advance(10);
    const assertion = authenticator.get(begin.options, { origin: ORIGIN }, credentialId);
    const result = await session(
      auth.webauthn.loginFinish({ challengeId: begin.challengeId, ...assertion }),
    );
    expect(result.user.id).toBe(u.id);
    expect(await auth.verifyToken(result.token)).toMatchObject({ userId: u.id });
    await auth.settle();
    expect(events.filter((e) => e.eventType === 'IdentityAuthenticated').at(-1)).toMatchObject({
      userId: u.id,
    });
    const { credentials } = await auth.webauthn.listCredentials(u.token);
    expect(credentials.find((c) => c.id === credentialId)?.lastUsedAt).toBe(
      new Date(T0 + 11_000).toISOString(),
    );
  });

  test('without an email: an unscoped challenge any discoverable credential answers (usernameless)', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const { authenticator } = await enroll(auth, u.token);
    const begin = await auth.webauthn.loginBegin();
    expect(begin.options.allowCredentials).toEqual([]);
    const assertion = authenticator.get(begin.options, { origin: ORIGIN });
    expect(assertion.userHandle).toBe(
      Buffer.from(u.id.replace(/-/g, ''), 'hex').toString('base64url'),
    );
    const result = await session(
      auth.webauthn.loginFinish({ challengeId: begin.challengeId, ...assertion }),
    );
    expect(result.user.id).toBe(u.id);
  });

  test('an unknown email, or a user without passkeys, answers the same shape (one stable pseudo credential)', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const a1 = await auth.webauthn.loginBegin({ email: 'nobody@example.test' });
    const a2 = await auth.webauthn.loginBegin({ email: 'NOBODY@example.test' });
    const b = await auth.webauthn.loginBegin({ email: u.email });
    const c = await auth.webauthn.loginBegin({ email: 'not an address' });
    for (const r of [a1, b, c]) {
      expect(Object.keys(r.options).sort()).toEqual([
        'allowCredentials',
        'challenge',
        'rpId',
        'timeout',
        'userVerification',
      ]);
      expect(r.options.allowCredentials).toHaveLength(1);
      expect(r.options.allowCredentials[0]?.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(a2.options.allowCredentials).toEqual(a1.options.allowCredentials);
    expect(b.options.allowCredentials).not.toEqual(a1.options.allowCredentials);
    expect(await codeOf(auth.webauthn.loginBegin({ email: 42 as never }))).toBe('VALIDATION_ERROR');
  });

  const forger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  test.each<[string, Partial<GetOptions>, RegExp]>([
    ['clientData.type', { type: 'webauthn.create' }, /clientData.type/],
    [
      'challenge',
      { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      /challenge does not match/,
    ],
    ['origin', { origin: 'https://app.example.test:8443' }, /origin/],
    ['rpIdHash', { rpId: 'evil.test' }, /rpIdHash/],
    ['user presence', { up: false }, /UP flag/],
    ['signature', { corruptSignature: true }, /signature is invalid/],
    ['signing key', { signWith: forger.privateKey }, /signature is invalid/],
  ])('finish refuses a bad %s (401 INVALID_CREDENTIALS)', async (_what, opts, message) => {
    const { auth } = await setup();
    const u = await user(auth);
    const { authenticator } = await enroll(auth, u.token);
    const err = await signIn(auth, authenticator, opts).catch((e) => e);
    expect(err.code).toBe('INVALID_CREDENTIALS');
    expect(err.status).toBe(401);
    expect(err.message).toMatch(message);
    // A failed finish burned nothing else: a good sign-in still works.
    await session(signIn(auth, authenticator));
  });

  test("unknown credential, another user's credential under an email-scoped challenge, a wrong userHandle", async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const v = await user(auth);
    const { authenticator: ua } = await enroll(auth, u.token);
    const { authenticator: va } = await enroll(auth, v.token);
    const stranger = new SoftAuthenticator();
    stranger.create(
      { rp: { id: 'example.test' }, user: { id: 'AAAA' }, challenge: 'x' },
      { origin: ORIGIN },
    );
    expect(await codeOf(signIn(auth, stranger))).toBe('INVALID_CREDENTIALS');
    // u's email scopes the challenge to u: v's passkey may not answer it.
    expect(await codeOf(signIn(auth, va, {}, u.email))).toBe('INVALID_CREDENTIALS');
    // A userHandle naming someone else.
    const begin = await auth.webauthn.loginBegin();
    const assertion = ua.get(begin.options, { origin: ORIGIN });
    const vHandle = Buffer.from(v.id.replace(/-/g, ''), 'hex').toString('base64url');
    expect(
      await codeOf(
        auth.webauthn.loginFinish({
          challengeId: begin.challengeId,
          ...assertion,
          userHandle: vHandle,
        }),
      ),
    ).toBe('INVALID_CREDENTIALS');
    // Usernameless: the user handle is required; with an email it may be left out.
    const unnamed = await auth.webauthn.loginBegin();
    const bare = ua.get(unnamed.options, { origin: ORIGIN, userHandle: false });
    const err = await auth.webauthn
      .loginFinish({ challengeId: unnamed.challengeId, ...bare })
      .catch((e) => e);
    expect(err.code).toBe('INVALID_CREDENTIALS');
    expect(err.message).toMatch(/userHandle is required/);
    await session(signIn(auth, ua, { userHandle: false }, u.email));
  });

  test('a sign-in challenge is single use and lives 5 minutes', async () => {
    const { auth, clock } = await setup();
    const u = await user(auth);
    const { authenticator } = await enroll(auth, u.token);
    let begin = await auth.webauthn.loginBegin();
    const assertion = authenticator.get(begin.options, { origin: ORIGIN });
    await session(auth.webauthn.loginFinish({ challengeId: begin.challengeId, ...assertion }));
    expect(
      await codeOf(auth.webauthn.loginFinish({ challengeId: begin.challengeId, ...assertion })),
    ).toBe('INVALID_TOKEN');
    begin = await auth.webauthn.loginBegin();
    const late = authenticator.get(begin.options, { origin: ORIGIN });
    clock.advance(300);
    expect(
      await codeOf(auth.webauthn.loginFinish({ challengeId: begin.challengeId, ...late })),
    ).toBe('INVALID_TOKEN');
    // A registration challenge does not serve a sign-in.
    const reg = await auth.webauthn.registerBegin(
      (await session(auth.login({ email: u.email, password: PASSWORD }))).token,
    );
    const wrong = authenticator.get(
      { rpId: 'example.test', challenge: reg.options.challenge },
      { origin: ORIGIN },
    );
    expect(
      await codeOf(auth.webauthn.loginFinish({ challengeId: reg.challengeId, ...wrong })),
    ).toBe('INVALID_TOKEN');
  });

  test('counter rule: a counter that does not increase is INVALID_TOKEN, audited, and leaves the stored counter', async () => {
    const { auth, events } = await setup();
    const u = await user(auth);
    const { authenticator, credentialId } = await enroll(auth, u.token, { counter: 5 });
    await session(signIn(auth, authenticator, { counter: 6 }));
    for (const counter of [6, 3, 0]) {
      const err = await signIn(auth, authenticator, { counter }).catch((e) => e);
      expect(err.code).toBe('INVALID_TOKEN');
      expect(err.status).toBe(401);
    }
    await auth.settle();
    const audits = events.filter((e: AuthEvent) => e.eventType === 'webauthn_counter_regression');
    expect(audits).toHaveLength(3);
    expect(audits[0]).toMatchObject({
      userId: u.id,
      credentialId,
      storedCounter: 6,
      receivedCounter: 6,
    });
    expect(audits[1]).toMatchObject({ storedCounter: 6, receivedCounter: 3 });
    // The stored counter stayed at 6: 7 passes.
    await session(signIn(auth, authenticator, { counter: 7 }));
  });

  test('an authenticator without a counter (always 0) signs in every time', async () => {
    const { auth, events } = await setup();
    const u = await user(auth);
    const { authenticator } = await enroll(auth, u.token);
    for (let i = 0; i < 3; i++) await session(signIn(auth, authenticator, { counter: 0 }));
    await auth.settle();
    expect(events.some((e) => e.eventType === 'webauthn_counter_regression')).toBe(false);
  });

  test('two sign-ins racing with the same counter: exactly one passes', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const { authenticator } = await enroll(auth, u.token, { counter: 1 });
    const b1 = await auth.webauthn.loginBegin();
    const b2 = await auth.webauthn.loginBegin();
    const a1 = authenticator.get(b1.options, { origin: ORIGIN, counter: 2 });
    const a2 = authenticator.get(b2.options, { origin: ORIGIN, counter: 2 });
    const results = await Promise.allSettled([
      auth.webauthn.loginFinish({ challengeId: b1.challengeId, ...a1 }),
      auth.webauthn.loginFinish({ challengeId: b2.challengeId, ...a2 }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  test('without user verification the sign-in still ends in completeSignIn (one factor)', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const { authenticator } = await enroll(auth, u.token);
    const result = await signIn(auth, authenticator, { uv: false });
    // No second factor is configured for this user, so the one factor yields a session.
    expect('token' in result).toBe(true);
  });

  test('a deactivated user cannot sign in with a passkey', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const { authenticator } = await enroll(auth, u.token);
    await auth.setActive(u.id, false);
    expect(await codeOf(signIn(auth, authenticator))).toBe('USER_INACTIVE');
  });

  test('malformed finish input is a VALIDATION_ERROR before any challenge is spent', async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const { authenticator } = await enroll(auth, u.token);
    const begin = await auth.webauthn.loginBegin();
    const assertion = authenticator.get(begin.options, { origin: ORIGIN });
    for (const patch of [
      { signature: '' },
      { authenticatorData: 'a+b/' },
      { clientDataJSON: null },
      { userHandle: 'x'.repeat(200) },
      { challengeId: undefined },
    ]) {
      expect(
        await codeOf(
          auth.webauthn.loginFinish({
            challengeId: begin.challengeId,
            ...assertion,
            ...patch,
          } as never),
        ),
      ).toBe('VALIDATION_ERROR');
    }
    await session(auth.webauthn.loginFinish({ challengeId: begin.challengeId, ...assertion }));
  });

  test('login/begin and login/finish are rate-limited per client address (20 a minute)', async () => {
    const { auth, clock } = await setup();
    for (let i = 0; i < 20; i++) await auth.webauthn.loginBegin({}, { ip: '198.51.100.7' });
    expect(await codeOf(auth.webauthn.loginBegin({}, { ip: '198.51.100.7' }))).toBe('RATE_LIMITED');
    expect(await codeOf(auth.webauthn.loginBegin({}, { ip: '198.51.100.8' }))).not.toBe(
      'RATE_LIMITED',
    );
    for (let i = 0; i < 20; i++)
      expect(await codeOf(auth.webauthn.loginFinish({} as never, { ip: '198.51.100.9' }))).toBe(
        'VALIDATION_ERROR',
      );
    expect(await codeOf(auth.webauthn.loginFinish({} as never, { ip: '198.51.100.9' }))).toBe(
      'RATE_LIMITED',
    );
    clock.advance(61);
    expect(await codeOf(auth.webauthn.loginBegin({}, { ip: '198.51.100.7' }))).toBe('(resolved)');
  });
});

describe('credentials', () => {
  test("list and delete only the caller's", async () => {
    const { auth } = await setup();
    const u = await user(auth);
    const v = await user(auth);
    const { authenticator, credentialId } = await enroll(auth, u.token);
    expect((await auth.webauthn.listCredentials(v.token)).credentials).toEqual([]);
    expect(await codeOf(auth.webauthn.deleteCredential(v.token, credentialId))).toBe('NOT_FOUND');
    expect((await auth.webauthn.listCredentials(u.token)).credentials).toHaveLength(1);
    await auth.webauthn.deleteCredential(u.token, credentialId);
    expect((await auth.webauthn.listCredentials(u.token)).credentials).toEqual([]);
    expect(await codeOf(auth.webauthn.deleteCredential(u.token, credentialId))).toBe('NOT_FOUND');
    expect(await codeOf(signIn(auth, authenticator))).toBe('INVALID_CREDENTIALS');
  });
});
