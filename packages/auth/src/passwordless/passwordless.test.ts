import { randomBytes } from 'node:crypto';
import { createAuth } from '../create-auth';
import { SECRET, codeOf, session, useCoreHarness } from '../__tests__/harness';
import { sha256Hex } from '../session/tokens';
import { createMemoryStore } from '../store/memory';
import type { Auth, AuthConfig, AuthEvent } from '../types';
import { readCode, sixDigitCode } from './codes';

const h = useCoreHarness();
const PASSWORD = 'correct horse battery staple';

async function make(config: Partial<AuthConfig> = {}) {
  const made = await h.make(config);
  await h.db().db.query('truncate svc_auth.magic_link_signup_tokens');
  return made;
}
const of = (events: AuthEvent[], type: AuthEvent['eventType']) =>
  events.filter((e) => e.eventType === type);
/** The newest link or code the events carried (events are delivered after the request: settle). */
const linkOf = async (auth: Auth, events: AuthEvent[]) => {
  await auth.settle();
  return events.filter((e) => e.magicLinkToken).at(-1)?.magicLinkToken as string;
};
const codeFrom = async (auth: Auth, events: AuthEvent[]) => {
  await auth.settle();
  return of(events, 'MagicCodeRequested').at(-1)?.magicCode as string;
};
const count = async (table: string) =>
  Number(
    (await h.db().db.query<{ n: number }>(`select count(*)::int as n from svc_auth.${table}`))
      .rows[0]?.n,
  );
async function registered(auth: Auth, email = 'ann@example.com') {
  const r = await auth.register({ email, password: PASSWORD });
  return r.user;
}

describe('magic links', () => {
  test('a known email gets a link by event only; it signs in once', async () => {
    const { auth, events } = await make();
    const user = await registered(auth);
    await expect(auth.requestMagicLink('Ann@Example.com', { ip: '10.0.0.1' })).resolves.toBe(
      undefined,
    );
    await auth.settle();
    const [requested] = of(events, 'MagicLinkRequested');
    expect(requested).toMatchObject({ userId: user.id, email: 'ann@example.com' });
    const token = requested?.magicLinkToken as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // At rest: only the SHA-256 digest.
    const { rows } = await h
      .db()
      .db.query<{ token_hash: string; expires_at: Date }>(
        'select token_hash, expires_at from svc_auth.magic_link_tokens',
      );
    expect(rows.map((r) => r.token_hash)).toEqual([sha256Hex(token)]);

    const before = of(events, 'IdentityAuthenticated').length;
    const result = await session(auth.consumeMagicLink(token, { ip: '10.0.0.1' }));
    expect(result.user.id).toBe(user.id);
    expect((await auth.verifyToken(result.token)).userId).toBe(user.id);
    await auth.settle();
    expect(of(events, 'IdentityAuthenticated')).toHaveLength(before + 1);
    expect(await codeOf(auth.consumeMagicLink(token))).toBe('INVALID_TOKEN');
  });

  test('15 minutes: valid just before, refused at the limit', async () => {
    const { auth, clock, events } = await make();
    await registered(auth);
    await auth.requestMagicLink('ann@example.com');
    const first = await linkOf(auth, events);
    clock.advance(15 * 60 - 1);
    await session(auth.consumeMagicLink(first));
    clock.advance(120); // the per-email request limit is per minute
    await auth.requestMagicLink('ann@example.com');
    const second = await linkOf(auth, events);
    clock.advance(15 * 60);
    expect(await codeOf(auth.consumeMagicLink(second))).toBe('INVALID_TOKEN');
  });

  test('a newer link supersedes the older one', async () => {
    const { auth, events } = await make();
    await registered(auth);
    await auth.requestMagicLink('ann@example.com');
    const older = await linkOf(auth, events);
    await auth.requestMagicLink('ann@example.com');
    const newer = await linkOf(auth, events);
    expect(newer).not.toBe(older);
    expect(await codeOf(auth.consumeMagicLink(older))).toBe('INVALID_TOKEN');
    await session(auth.consumeMagicLink(newer));
  });

  test('unknown email, implicit signup off: same answer, nothing persisted, no event', async () => {
    const { auth, events } = await make();
    await expect(auth.requestMagicLink('nobody@example.com')).resolves.toBe(undefined);
    await expect(auth.requestMagicLink('not an address')).resolves.toBe(undefined);
    await auth.settle();
    expect(events).toEqual([]);
    for (const table of ['users', 'magic_link_tokens', 'magic_link_signup_tokens'])
      expect(await count(table)).toBe(0);
  });

  test('malformed tokens and missing input', async () => {
    const { auth } = await make();
    expect(await codeOf(auth.consumeMagicLink('short'))).toBe('INVALID_TOKEN');
    expect(await codeOf(auth.consumeMagicLink('x'.repeat(43)))).toBe('INVALID_TOKEN');
    expect(await codeOf(auth.consumeMagicLink('' as string))).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.consumeMagicLink(42 as unknown as string))).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.requestMagicLink(undefined as unknown as string))).toBe(
      'VALIDATION_ERROR',
    );
  });

  test('implicit signup: a signup token kept apart creates a verified user and signs it in', async () => {
    const { auth, events } = await make({ allowImplicitSignup: true });
    await auth.requestMagicLink('New.User@Example.com');
    await auth.settle();
    const [signup] = of(events, 'MagicLinkSignupRequested');
    expect(signup).toBeDefined();
    expect(signup?.pendingEmail).toBe('new.user@example.com');
    expect(signup?.userId).toBeUndefined();
    expect(of(events, 'MagicLinkRequested')).toEqual([]);
    expect(await count('users')).toBe(0);
    expect(await count('magic_link_tokens')).toBe(0);
    const { rows } = await h
      .db()
      .db.query<{ email: string; token_hash: string }>(
        'select email, token_hash from svc_auth.magic_link_signup_tokens',
      );
    expect(rows).toEqual([
      { email: 'new.user@example.com', token_hash: sha256Hex(signup?.magicLinkToken as string) },
    ]);

    const result = await session(auth.consumeMagicLink(signup?.magicLinkToken as string));
    expect(result.user).toMatchObject({ email: 'new.user@example.com', emailVerified: true });
    await auth.settle();
    expect(of(events, 'IdentityCreated')).toMatchObject([{ userId: result.user.id }]);
    expect(of(events, 'IdentityAuthenticated')).toMatchObject([{ userId: result.user.id }]);
    expect(await codeOf(auth.consumeMagicLink(signup?.magicLinkToken as string))).toBe(
      'INVALID_TOKEN',
    );
    // The account has no password: a password login cannot get in.
    expect(await codeOf(auth.login({ email: 'new.user@example.com', password: PASSWORD }))).toBe(
      'INVALID_CREDENTIALS',
    );
    // Known now: the next request is an ordinary magic link.
    await auth.requestMagicLink('new.user@example.com');
    await auth.settle();
    expect(of(events, 'MagicLinkRequested')).toHaveLength(1);
  });

  test('a signup link for an address registered meanwhile signs that account in', async () => {
    const { auth, events } = await make({ allowImplicitSignup: true });
    await auth.requestMagicLink('late@example.com');
    const token = await linkOf(auth, events);
    const user = await registered(auth, 'late@example.com');
    const result = await session(auth.consumeMagicLink(token));
    expect(result.user.id).toBe(user.id);
    expect(result.user.emailVerified).toBe(true);
  });

  test('signup links stop working when implicit signup is turned off', async () => {
    const on = await make({ allowImplicitSignup: true });
    await on.auth.requestMagicLink('late@example.com');
    const token = await linkOf(on.auth, on.events);
    const off = await createAuth(
      { jwtSecret: SECRET, bcryptRounds: 4 },
      { database: h.db().db, logger: { warn: () => {}, error: () => {}, info: () => {} } },
    );
    try {
      expect(await codeOf(off.consumeMagicLink(token))).toBe('INVALID_TOKEN');
      expect(await count('users')).toBe(0);
    } finally {
      await off.close();
    }
  });

  test('allowRegistration false closes implicit signup too', async () => {
    const { auth, events } = await make({ allowImplicitSignup: true, allowRegistration: false });
    await auth.requestMagicLink('new@example.com');
    await auth.settle();
    expect(events).toEqual([]);
    expect(await count('magic_link_signup_tokens')).toBe(0);
  });

  test('inactive accounts: no link is sent; a link redeemed after deactivation is refused and used up', async () => {
    const { auth, events } = await make();
    await registered(auth);
    await auth.requestMagicLink('ann@example.com');
    const token = await linkOf(auth, events);
    await auth.setActive('ann@example.com', false);
    expect(await codeOf(auth.consumeMagicLink(token))).toBe('USER_INACTIVE');
    // Redeemed before the sign-in was decided: it does not come back to life.
    await auth.setActive('ann@example.com', true);
    expect(await codeOf(auth.consumeMagicLink(token))).toBe('INVALID_TOKEN');

    await auth.setActive('ann@example.com', false);
    const n = events.length;
    await auth.requestMagicLink('ann@example.com');
    await auth.settle();
    expect(events.slice(n).filter((e) => e.magicLinkToken)).toEqual([]);
  });

  test('requireEmailVerification: a redeemed link proves the address', async () => {
    const { auth, events } = await make({ requireEmailVerification: true });
    await registered(auth);
    expect(await codeOf(auth.login({ email: 'ann@example.com', password: PASSWORD }))).toBe(
      'EMAIL_NOT_VERIFIED',
    );
    await auth.requestMagicLink('ann@example.com');
    const result = await session(auth.consumeMagicLink(await linkOf(auth, events)));
    expect(result.user.emailVerified).toBe(true);
    await auth.settle();
    expect(of(events, 'EmailVerified')).toHaveLength(1);
    // The password was set before anyone proved the address: the proof cleared it (issue 26).
    expect(await codeOf(auth.login({ email: 'ann@example.com', password: PASSWORD }))).toBe(
      'INVALID_CREDENTIALS',
    );
  });

  test('rate limits: the 6th request per email and the 11th consume per IP within a minute', async () => {
    const { auth, clock } = await make();
    await registered(auth);
    for (let i = 0; i < 5; i++)
      await auth.requestMagicLink('ann@example.com', { ip: `10.0.0.${i}` });
    const err = await auth.requestMagicLink('ann@example.com', { ip: '10.0.1.1' }).catch((e) => e);
    expect(err).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number(err.headers?.['Retry-After'])).toBeGreaterThan(0);
    // Unknown emails are counted alike: a 429 says nothing about the account.
    for (let i = 0; i < 5; i++) await auth.requestMagicLink('nobody@example.com');
    expect(await codeOf(auth.requestMagicLink('nobody@example.com'))).toBe('RATE_LIMITED');
    for (let i = 0; i < 10; i++)
      expect(await codeOf(auth.consumeMagicLink('x'.repeat(43), { ip: '10.9.9.9' }))).toBe(
        'INVALID_TOKEN',
      );
    expect(await codeOf(auth.consumeMagicLink('x'.repeat(43), { ip: '10.9.9.9' }))).toBe(
      'RATE_LIMITED',
    );
    clock.advance(61);
    await auth.requestMagicLink('ann@example.com');
  });

  test('a magicLinkUrlTemplate with no or two {token} placeholders, or plain http, is refused at construction', async () => {
    for (const magicLinkUrlTemplate of [
      'https://app.example.com/magic',
      'https://app.example.com/magic?t={token}&again={token}',
      'http://app.example.com/magic?t={token}',
    ]) {
      await expect(
        createAuth(
          { jwtSecret: SECRET, magicLinkUrlTemplate, emailBaseUrl: 'https://app.example.com' },
          { database: h.db().db, logger: { warn: () => {}, error: () => {} } },
        ),
      ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });
});

describe('guests', () => {
  test("a guest's synthetic address gets no link or code, and cannot sign up by link", async () => {
    const { auth, events } = await make({ allowImplicitSignup: true });
    const guest = await auth.signInAnonymously({ ip: '10.0.0.9' });
    await auth.requestMagicLink(guest.user.email);
    await auth.requestMagicCode(guest.user.email);
    await auth.requestMagicLink(
      `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}@anonymous.invalid`,
    );
    await auth.settle();
    expect(events.filter((e) => e.magicLinkToken || e.magicCode)).toEqual([]);
    expect(await count('magic_link_tokens')).toBe(0);
    expect(await count('magic_link_signup_tokens')).toBe(0);
    expect(await count('magic_codes')).toBe(0);
  });
});

describe('magic codes', () => {
  test('a known email gets a 6-digit code by event; it signs in once', async () => {
    const { auth, events } = await make();
    const user = await registered(auth);
    await expect(auth.requestMagicCode('ANN@example.com')).resolves.toBe(undefined);
    await auth.settle();
    const [requested] = of(events, 'MagicCodeRequested');
    expect(requested).toMatchObject({ userId: user.id, email: 'ann@example.com' });
    const code = requested?.magicCode as string;
    expect(code).toMatch(/^[0-9]{6}$/);
    // At rest: a keyed digest, neither the code nor its plain SHA-256.
    const { rows } = await h
      .db()
      .db.query<{ code_hash: string }>('select code_hash from svc_auth.magic_codes');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.code_hash).not.toContain(code);
    expect(rows[0]?.code_hash).not.toBe(sha256Hex(code));
    expect(rows[0]?.code_hash).not.toBe(sha256Hex(`${user.id}${code}`));

    const result = await session(auth.verifyMagicCode('ann@example.com', code));
    expect(result.user.id).toBe(user.id);
    expect(await codeOf(auth.verifyMagicCode('ann@example.com', code))).toBe('INVALID_TOKEN');
  });

  test('spaces and a dash inside the code are ignored; anything else is a 400 and costs no try', async () => {
    const { auth, events } = await make();
    await registered(auth);
    await auth.requestMagicCode('ann@example.com');
    const code = await codeFrom(auth, events);
    for (const bad of ['12345', '1234567', 'abcdef', '12 34 5x', ''])
      expect(await codeOf(auth.verifyMagicCode('ann@example.com', bad))).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.verifyMagicCode('' as string, code))).toBe('VALIDATION_ERROR');
    await session(
      auth.verifyMagicCode('ann@example.com', ` ${code.slice(0, 3)}-${code.slice(3)} `),
    );
  });

  test('dies after 5 wrong tries, even for the right code afterwards', async () => {
    const { auth, events } = await make();
    await registered(auth);
    await auth.requestMagicCode('ann@example.com');
    const code = await codeFrom(auth, events);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 4; i++)
      expect(await codeOf(auth.verifyMagicCode('ann@example.com', wrong))).toBe('INVALID_TOKEN');
    // Four wrong tries leave it alive.
    await auth.requestMagicCode('ann@example.com');
    const fresh = await codeFrom(auth, events);
    for (let i = 0; i < 5; i++)
      expect(
        await codeOf(
          auth.verifyMagicCode(
            'ann@example.com',
            String((Number(fresh) + 1 + i) % 1_000_000).padStart(6, '0'),
          ),
        ),
      ).toBe('INVALID_TOKEN');
    expect(await codeOf(auth.verifyMagicCode('ann@example.com', fresh))).toBe('INVALID_TOKEN');
  });

  test('four wrong tries, then the right code, signs in', async () => {
    const { auth, events } = await make();
    await registered(auth);
    await auth.requestMagicCode('ann@example.com');
    const code = await codeFrom(auth, events);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 4; i++) await codeOf(auth.verifyMagicCode('ann@example.com', wrong));
    await session(auth.verifyMagicCode('ann@example.com', code));
  });

  test('a new request kills the old code; 10 minutes', async () => {
    const { auth, clock, events } = await make();
    await registered(auth);
    await auth.requestMagicCode('ann@example.com');
    const old = await codeFrom(auth, events);
    await auth.requestMagicCode('ann@example.com');
    const current = await codeFrom(auth, events);
    if (old !== current)
      expect(await codeOf(auth.verifyMagicCode('ann@example.com', old))).toBe('INVALID_TOKEN');
    clock.advance(10 * 60);
    expect(await codeOf(auth.verifyMagicCode('ann@example.com', current))).toBe('INVALID_TOKEN');
    await auth.requestMagicCode('ann@example.com');
    clock.advance(10 * 60 - 1);
    await session(auth.verifyMagicCode('ann@example.com', await codeFrom(auth, events)));
  });

  test('unknown email: same answer, nothing persisted; verifying is INVALID_TOKEN', async () => {
    const { auth, events } = await make({ allowImplicitSignup: true });
    await expect(auth.requestMagicCode('nobody@example.com')).resolves.toBe(undefined);
    await expect(auth.requestMagicCode('not an address')).resolves.toBe(undefined);
    await auth.settle();
    expect(events).toEqual([]);
    expect(await count('magic_codes')).toBe(0);
    expect(await count('users')).toBe(0);
    expect(await codeOf(auth.verifyMagicCode('nobody@example.com', '123456'))).toBe(
      'INVALID_TOKEN',
    );
    expect(await codeOf(auth.verifyMagicCode('not an address', '123456'))).toBe('INVALID_TOKEN');
  });

  test('inactive: no code; deactivated after the request: USER_INACTIVE. Unverified: verified by the code', async () => {
    const { auth, events } = await make({ requireEmailVerification: true });
    await registered(auth);
    await auth.requestMagicCode('ann@example.com');
    const code = await codeFrom(auth, events);
    await auth.setActive('ann@example.com', false);
    expect(await codeOf(auth.verifyMagicCode('ann@example.com', code))).toBe('USER_INACTIVE');
    const n = of(events, 'MagicCodeRequested').length;
    await auth.requestMagicCode('ann@example.com');
    await auth.settle();
    expect(of(events, 'MagicCodeRequested')).toHaveLength(n);
    await auth.setActive('ann@example.com', true);
    await auth.requestMagicCode('ann@example.com');
    const result = await session(
      auth.verifyMagicCode('ann@example.com', await codeFrom(auth, events)),
    );
    expect(result.user.emailVerified).toBe(true);
  });

  test('rate limits: the 6th request and the 11th verify per email within a minute', async () => {
    const { auth } = await make();
    await registered(auth);
    for (let i = 0; i < 5; i++) await auth.requestMagicCode('ann@example.com');
    expect(await codeOf(auth.requestMagicCode('ann@example.com'))).toBe('RATE_LIMITED');
    for (let i = 0; i < 10; i++)
      expect(await codeOf(auth.verifyMagicCode('ann@example.com', '000000'))).not.toBe(
        'RATE_LIMITED',
      );
    expect(await codeOf(auth.verifyMagicCode('ann@example.com', '000000'))).toBe('RATE_LIMITED');
  });
});

describe('codes.ts', () => {
  test('sixDigitCode: uniform by rejection sampling, zero-padded', () => {
    const queue = [
      Buffer.from([0xff, 0xff, 0xff, 0xff]), // above the bound: drawn again
      Buffer.from([0x00, 0x00, 0x00, 0x2a]),
    ];
    expect(sixDigitCode(() => queue.shift() as Buffer)).toBe('000042');
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add(sixDigitCode(randomBytes));
    expect(seen.size).toBeGreaterThan(190);
    // A broken source never loops forever.
    expect(sixDigitCode(() => Buffer.from([0xff, 0xff, 0xff, 0xff]))).toMatch(/^[0-9]{6}$/);
  });

  test('readCode', () => {
    expect(readCode('123456')).toBe('123456');
    expect(readCode(' 123-456 ')).toBe('123456');
    expect(readCode('12345')).toBeNull();
    expect(readCode('١٢٣٤٥٦')).toBeNull(); // digits of other scripts are not codes
  });
});

describe('unknown emails cost what known ones do', () => {
  /** An instance over a memory store that records which verbs each request called. */
  async function counted(config: Partial<AuthConfig> = {}) {
    const calls: string[] = [];
    const inner = createMemoryStore();
    const store = new Proxy(inner, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function'
          ? (...args: unknown[]) => {
              calls.push(String(key));
              return value.apply(target, args);
            }
          : value;
      },
    });
    const auth = await createAuth(
      { jwtSecret: SECRET, bcryptRounds: 4, rateLimits: false, ...config },
      { database: undefined as never, logger: { warn: () => {}, error: () => {}, info: () => {} } },
      { store },
    );
    await auth.register({ email: 'ann@example.com', password: PASSWORD });
    const run = async (fn: () => Promise<unknown>) => {
      calls.length = 0;
      await fn();
      return calls.length;
    };
    return { auth, run };
  }

  test('a link request: as many store calls for an unknown email as for a known one', async () => {
    const { auth, run } = await counted();
    try {
      const known = await run(() => auth.requestMagicLink('ann@example.com'));
      const unknown = await run(() => auth.requestMagicLink('nobody@example.com'));
      expect(unknown).toBe(known);
      const knownCode = await run(() => auth.requestMagicCode('ann@example.com'));
      const unknownCode = await run(() => auth.requestMagicCode('nobody@example.com'));
      expect(unknownCode).toBe(knownCode);
      const wrong = await run(() => codeOf(auth.verifyMagicCode('ann@example.com', '000000')));
      const nobody = await run(() => codeOf(auth.verifyMagicCode('nobody@example.com', '000000')));
      expect(nobody).toBe(wrong);
    } finally {
      await auth.close();
    }
  });
});
