import { createAuth } from '../create-auth';
import type { OperationContext } from '../context';
import { completeSignIn, type SignInMethod } from '../session/sign-in';
import type { UserRecord } from '../store/types';
import type { Auth, MfaChallenge, SignInResult } from '../types';
import { SECRET, T0, codeOf, session, useCoreHarness } from '../__tests__/harness';
import { MFA_CHALLENGE_MAX_ATTEMPTS } from './challenge';
import { base32Decode, hotp, timeStep, totp } from './totp';

const h = useCoreHarness();
const PASSWORD = 'correct horse battery staple';
let n = 0;
const email = () => `mfa-${++n}-${Date.now()}@example.com`;

function challengeOf(result: SignInResult): MfaChallenge {
  if (!('mfaRequired' in result)) throw new Error('expected an MFA challenge, got a session');
  return result;
}

/** A user with confirmed TOTP: its address, its access token, its secret's key. */
async function withTotp(auth: Auth, clock: () => number) {
  const address = email();
  const { token } = await auth.register({ email: address, password: PASSWORD });
  const { secret } = await auth.mfa.enrollTotp(token);
  const key = base32Decode(secret) as Buffer;
  await auth.mfa.confirmTotp(token, totp(key, clock()));
  return { address, token, key };
}

describe('TOTP enrolment', () => {
  test('enroll: a base32 secret and the otpauth URI; the secret is stored encrypted', async () => {
    const { auth } = await h.make({ branding: { appName: 'Acme Notes' } });
    const address = email();
    const { token, user } = await auth.register({ email: address, password: PASSWORD });
    const enrolled = await auth.mfa.enrollTotp(token);
    expect(Object.keys(enrolled).sort()).toEqual(['otpauthUri', 'secret']);
    expect(enrolled.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolled.otpauthUri).toBe(
      `otpauth://totp/Acme%20Notes:${encodeURIComponent(address)}?secret=${enrolled.secret}&issuer=Acme%20Notes&algorithm=SHA1&digits=6&period=30`,
    );
    const { rows } = await h
      .db()
      .db.query<{ secret_ciphertext: string; confirmed_at: Date | null }>(
        'select secret_ciphertext, confirmed_at from svc_auth.totp_factors where user_id = $1',
        [user.id],
      );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.confirmed_at).toBeNull();
    expect(rows[0]?.secret_ciphertext).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    const raw = base32Decode(enrolled.secret) as Buffer;
    for (const form of [enrolled.secret, raw.toString('hex'), raw.toString('base64url')])
      expect(rows[0]?.secret_ciphertext).not.toContain(form);
  });

  test('a pending enrolment does not gate login; confirming makes later logins a challenge', async () => {
    const { auth, clock, events } = await h.make();
    const address = email();
    const { token } = await auth.register({ email: address, password: PASSWORD });
    const key = base32Decode((await auth.mfa.enrollTotp(token)).secret) as Buffer;
    await session(auth.login({ email: address, password: PASSWORD }));
    expect(await codeOf(auth.mfa.confirmTotp(token, '000000'))).toBe('INVALID_CREDENTIALS');
    await auth.mfa.confirmTotp(token, totp(key, clock()));
    expect(await codeOf(auth.mfa.confirmTotp(token, totp(key, clock())))).toBe('INVALID_OPERATION');
    await auth.settle();
    const before = events.filter((e) => e.eventType === 'IdentityAuthenticated').length;
    const challenge = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    expect(Object.keys(challenge).sort()).toEqual([
      'challengeToken',
      'expiresAt',
      'methods',
      'mfaRequired',
    ]);
    expect(challenge).toEqual({
      mfaRequired: true,
      challengeToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      methods: ['totp'],
      expiresAt: new Date(T0 + 300_000).toISOString(),
    });
    await auth.settle();
    // No session yet: no IdentityAuthenticated for the challenge.
    expect(events.filter((e) => e.eventType === 'IdentityAuthenticated')).toHaveLength(before);
  });

  test('confirm: the code of the pending secret, within one step either side', async () => {
    const { auth, clock } = await h.make();
    const { token } = await auth.register({ email: email(), password: PASSWORD });
    const key = base32Decode((await auth.mfa.enrollTotp(token)).secret) as Buffer;
    const step = timeStep(clock());
    expect(await codeOf(auth.mfa.confirmTotp(token, hotp(key, step + 2)))).toBe(
      'INVALID_CREDENTIALS',
    );
    expect(await codeOf(auth.mfa.confirmTotp(token, hotp(key, step - 2)))).toBe(
      'INVALID_CREDENTIALS',
    );
    await auth.mfa.confirmTotp(token, hotp(key, step - 1));
  });

  test('enrolling again: a new secret, pending; the previous secret is dead', async () => {
    const { auth, clock } = await h.make();
    const { address, token, key } = await withTotp(auth, clock);
    const second = await auth.mfa.enrollTotp(token);
    const key2 = base32Decode(second.secret) as Buffer;
    expect(key2.equals(key)).toBe(false);
    // Pending again: login is not gated.
    await session(auth.login({ email: address, password: PASSWORD }));
    clock.advance(30);
    expect(await codeOf(auth.mfa.confirmTotp(token, totp(key, clock())))).toBe(
      'INVALID_CREDENTIALS',
    );
    await auth.mfa.confirmTotp(token, totp(key2, clock()));
    challengeOf(await auth.login({ email: address, password: PASSWORD }));
  });

  test('input: a missing or malformed code is a VALIDATION_ERROR; confirm without enrolling INVALID_OPERATION', async () => {
    const { auth } = await h.make();
    const { token } = await auth.register({ email: email(), password: PASSWORD });
    expect(await codeOf(auth.mfa.confirmTotp(token, '123456'))).toBe('INVALID_OPERATION');
    await auth.mfa.enrollTotp(token);
    for (const bad of [undefined, 123456, '', '12345', 'abcdef', 'x'.repeat(65)])
      expect(await codeOf(auth.mfa.confirmTotp(token, bad as string))).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.mfa.enrollTotp('not-a-token'))).toBe('INVALID_TOKEN');
  });
});

describe('the MFA challenge', () => {
  test('totp login: a session; the challenge and the code are single use', async () => {
    const { auth, clock, events } = await h.make();
    const { address, key } = await withTotp(auth, clock);
    clock.advance(30);
    const c = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    const code = totp(key, clock());
    const result = await auth.mfa.totpLogin(c.challengeToken, code, { ip: '192.0.2.1' });
    expect(result.user.email).toBe(address);
    expect(await auth.verifyToken(result.token)).toMatchObject({ userId: result.user.id });
    await auth.settle();
    expect(events.at(-1)).toMatchObject({
      eventType: 'IdentityAuthenticated',
      userId: result.user.id,
    });
    // The challenge is consumed.
    expect(await codeOf(auth.mfa.totpLogin(c.challengeToken, code))).toBe('INVALID_TOKEN');
    // The same code on a fresh challenge is a replay, even inside its window.
    const c2 = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    expect(await codeOf(auth.mfa.totpLogin(c2.challengeToken, code))).toBe('INVALID_CREDENTIALS');
    // An older step inside the window is refused too (steps only go forward).
    expect(
      await codeOf(auth.mfa.totpLogin(c2.challengeToken, hotp(key, timeStep(clock()) - 1))),
    ).toBe('INVALID_CREDENTIALS');
    // The next step is accepted on the same challenge (wrong tries did not consume it).
    await auth.mfa.totpLogin(c2.challengeToken, hotp(key, timeStep(clock()) + 1));
  });

  test(`${MFA_CHALLENGE_MAX_ATTEMPTS} tries per challenge, then it is dead even for the right code`, async () => {
    const { auth, clock } = await h.make();
    const { address, key } = await withTotp(auth, clock);
    clock.advance(30);
    const c = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    const right = totp(key, clock());
    const wrong = right === '000000' ? '000001' : '000000';
    for (let i = 0; i < MFA_CHALLENGE_MAX_ATTEMPTS; i++)
      expect(await codeOf(auth.mfa.totpLogin(c.challengeToken, wrong))).toBe('INVALID_CREDENTIALS');
    expect(await codeOf(auth.mfa.totpLogin(c.challengeToken, right))).toBe('INVALID_TOKEN');
    // A new sign-in gives a new challenge, and the code still works there.
    const c2 = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    await auth.mfa.totpLogin(c2.challengeToken, right);
  });

  test('a challenge lives 5 minutes', async () => {
    const { auth, clock } = await h.make();
    const { address, key } = await withTotp(auth, clock);
    const c = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    clock.advance(300);
    expect(await codeOf(auth.mfa.totpLogin(c.challengeToken, totp(key, clock())))).toBe(
      'INVALID_TOKEN',
    );
    const c2 = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    clock.advance(299);
    await auth.mfa.totpLogin(c2.challengeToken, totp(key, clock()));
  });

  test('challenge input: missing fields VALIDATION_ERROR; an unknown token INVALID_TOKEN', async () => {
    const { auth } = await h.make();
    const valid = 'A'.repeat(43);
    expect(await codeOf(auth.mfa.totpLogin(undefined as never, '123456'))).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.mfa.totpLogin(valid, undefined as never))).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.mfa.totpLogin(valid, '12345'))).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.mfa.totpLogin('short', '123456'))).toBe('INVALID_TOKEN');
    expect(await codeOf(auth.mfa.totpLogin(valid, '123456'))).toBe('INVALID_TOKEN');
    expect(await codeOf(auth.mfa.recoveryCodeLogin(valid, ''))).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.mfa.recoveryCodeLogin(valid, 'ABCDE-FGHJK'))).toBe('INVALID_TOKEN');
  });

  test('a user deactivated while the challenge is open cannot complete it', async () => {
    const { auth, clock } = await h.make();
    const { address, key } = await withTotp(auth, clock);
    clock.advance(30);
    const c = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    await auth.setActive(address, false);
    expect(await codeOf(auth.mfa.totpLogin(c.challengeToken, totp(key, clock())))).toBe(
      'USER_INACTIVE',
    );
  });

  test('wrong codes are rate limited per account (mfaVerify) before they are checked', async () => {
    const { auth, clock } = await h.make({ rateLimits: { mfaVerify: { perEmail: 3 } } });
    const { address, key, token } = await withTotp(auth, clock);
    // confirmTotp in withTotp counted one.
    const c = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    const right = totp(key, clock());
    const wrong = right === '000000' ? '000001' : '000000';
    expect(await codeOf(auth.mfa.totpLogin(c.challengeToken, wrong))).toBe('INVALID_CREDENTIALS');
    expect(await codeOf(auth.mfa.disableTotp(token, wrong))).toBe('INVALID_CREDENTIALS');
    expect(await codeOf(auth.mfa.totpLogin(c.challengeToken, right))).toBe('RATE_LIMITED');
    clock.advance(60);
    const c2 = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    await auth.mfa.totpLogin(c2.challengeToken, totp(key, clock()));
  });
});

describe('recovery codes', () => {
  test('generate: 8 codes; methods offer recovery_code while unused codes remain', async () => {
    const { auth, clock } = await h.make();
    const { address, token } = await withTotp(auth, clock);
    const { codes } = await auth.mfa.generateRecoveryCodes(token);
    expect(codes).toHaveLength(8);
    const c = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    expect(c.methods).toEqual(['totp', 'recovery_code']);
    // Input normalised: lower case, spaces instead of the dash.
    const typed = (codes[0] as string).toLowerCase().replace('-', ' ');
    const result = await auth.mfa.recoveryCodeLogin(c.challengeToken, ` ${typed} `);
    expect(result.user.email).toBe(address);
    // Burned.
    const c2 = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    expect(await codeOf(auth.mfa.recoveryCodeLogin(c2.challengeToken, codes[0] as string))).toBe(
      'INVALID_CREDENTIALS',
    );
    expect(await codeOf(auth.mfa.recoveryCodeLogin(c2.challengeToken, 'not a code'))).toBe(
      'INVALID_CREDENTIALS',
    );
    await auth.mfa.recoveryCodeLogin(c2.challengeToken, codes[1] as string);
    const { rows } = await h
      .db()
      .db.query<{ code_hash: string }>(
        'select code_hash from svc_auth.recovery_codes where user_id = $1',
        [result.user.id],
      );
    expect(rows).toHaveLength(8);
    for (const r of rows) {
      expect(r.code_hash).toMatch(/^[0-9a-f]{64}$/);
      for (const code of codes) expect(r.code_hash).not.toContain(code.replace('-', ''));
    }
  });

  test('a new batch kills every earlier code; with none left, methods is ["totp"]', async () => {
    const { auth, clock } = await h.make();
    const { address, token } = await withTotp(auth, clock);
    const first = await auth.mfa.generateRecoveryCodes(token);
    const second = await auth.mfa.generateRecoveryCodes(token);
    expect(second.codes.some((c) => first.codes.includes(c))).toBe(false);
    const c = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    expect(
      await codeOf(auth.mfa.recoveryCodeLogin(c.challengeToken, first.codes[0] as string)),
    ).toBe('INVALID_CREDENTIALS');
    for (const code of second.codes) {
      const ch = challengeOf(await auth.login({ email: address, password: PASSWORD }));
      expect(ch.methods).toEqual(['totp', 'recovery_code']);
      await auth.mfa.recoveryCodeLogin(ch.challengeToken, code);
    }
    const last = challengeOf(await auth.login({ email: address, password: PASSWORD }));
    expect(last.methods).toEqual(['totp']);
  });
});

describe('disabling TOTP', () => {
  test('with a current TOTP code, or with an unused recovery code; then login is a session', async () => {
    const { auth, clock } = await h.make();
    const a = await withTotp(auth, clock);
    clock.advance(30);
    expect(await codeOf(auth.mfa.disableTotp(a.token, '12345'))).toBe('INVALID_CREDENTIALS');
    expect(await codeOf(auth.mfa.disableTotp(a.token, undefined as never))).toBe(
      'VALIDATION_ERROR',
    );
    await auth.mfa.disableTotp(a.token, totp(a.key, clock()));
    await session(auth.login({ email: a.address, password: PASSWORD }));
    expect(await codeOf(auth.mfa.disableTotp(a.token, totp(a.key, clock())))).toBe(
      'INVALID_OPERATION',
    );

    const b = await withTotp(auth, clock);
    const { codes } = await auth.mfa.generateRecoveryCodes(b.token);
    // The code used to confirm cannot be used again to disable.
    expect(await codeOf(auth.mfa.disableTotp(b.token, totp(b.key, clock())))).toBe(
      'INVALID_CREDENTIALS',
    );
    await auth.mfa.disableTotp(b.token, (codes[3] as string).toLowerCase());
    await session(auth.login({ email: b.address, password: PASSWORD }));
    // The recovery code is burned.
    await withTotpAgain(auth, b.token, clock);
    expect(await codeOf(auth.mfa.disableTotp(b.token, codes[3] as string))).toBe(
      'INVALID_CREDENTIALS',
    );
  });

  test('a pending enrolment is not "enabled"', async () => {
    const { auth } = await h.make();
    const { token } = await auth.register({ email: email(), password: PASSWORD });
    await auth.mfa.enrollTotp(token);
    expect(await codeOf(auth.mfa.disableTotp(token, '123456'))).toBe('INVALID_OPERATION');
  });
});

async function withTotpAgain(auth: Auth, token: string, clock: () => number) {
  const key = base32Decode((await auth.mfa.enrollTotp(token)).secret) as Buffer;
  await auth.mfa.confirmTotp(token, totp(key, clock()));
  return key;
}

describe('the server secret', () => {
  test('a TOTP secret sealed under another jwtSecret does not open; recovery codes still work', async () => {
    const { auth, clock } = await h.make();
    const { address, token, key } = await withTotp(auth, clock);
    const { codes } = await auth.mfa.generateRecoveryCodes(token);
    clock.advance(30);
    const other = await createAuth(
      { jwtSecret: `${SECRET}-rotated`, bcryptRounds: 4 },
      { database: h.db().db, now: clock, logger: { info() {}, warn() {}, error() {} } },
    );
    try {
      const c = challengeOf(await other.login({ email: address, password: PASSWORD }));
      // The secret's real codes, every step of the window: refused, as the secret cannot be read.
      for (let d = -1; d <= 1; d++) {
        const code = hotp(key, timeStep(clock()) + d);
        expect(await codeOf(other.mfa.totpLogin(c.challengeToken, code))).toBe(
          'INVALID_CREDENTIALS',
        );
      }
      await other.mfa.recoveryCodeLogin(c.challengeToken, codes[0] as string);
    } finally {
      await other.close();
    }
  });
});

describe('completeSignIn decides by method', () => {
  const user: UserRecord = {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'x@example.com',
    username: null,
    passwordHash: null,
    emailVerified: true,
    active: true,
    isAnonymous: false,
    metadata: {},
    createdAt: new Date(T0),
    updatedAt: new Date(T0),
  };
  const SESSION_ISSUED = new Error('session issued');
  const ctxWithTotp = (asked: string[]) =>
    ({
      now: () => T0,
      random: (k: number) => Buffer.alloc(k, 7),
      store: {
        mfaState: async () => {
          asked.push('mfaState');
          return { totpConfirmed: true, unusedRecoveryCodes: 0 };
        },
        createMfaChallenge: async () => {},
        // Issuing a session starts by reading the roles: stop there.
        userRoles: async () => {
          throw SESSION_ISSUED;
        },
      },
    }) as unknown as OperationContext;

  test.each<SignInMethod>(['password', 'magic-link', 'magic-code', 'oauth', 'upgrade'])(
    '%s owes the challenge',
    async (method) => {
      const result = await completeSignIn(ctxWithTotp([]), user, undefined, method);
      expect(result).toMatchObject({ mfaRequired: true, methods: ['totp'] });
    },
  );

  test.each<SignInMethod>(['passkey', 'mfa', 'anonymous'])(
    '%s is already two factors (or none): a session, without asking',
    async (method) => {
      const asked: string[] = [];
      await expect(completeSignIn(ctxWithTotp(asked), user, undefined, method)).rejects.toBe(
        SESSION_ISSUED,
      );
      expect(asked).toEqual([]);
    },
  );
});
