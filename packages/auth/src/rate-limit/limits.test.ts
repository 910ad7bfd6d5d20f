/**
 * Issue 8: login was not throttled at all (50 wrong passwords in 0.3 s, all answered 401; the
 * right one then worked). The operations now count attempts through the one rate limiter, before
 * the work they protect: a refused login runs no bcrypt compare, a refused reset sends no mail.
 */
import { bcryptPool } from '../password/pool';
import { codeOf, useCoreHarness, session } from '../__tests__/harness';

const h = useCoreHarness();
const PASSWORD = 'correct horse battery';

afterEach(() => jest.restoreAllMocks());

describe('login', () => {
  test('the 11th attempt for one email within a minute is RATE_LIMITED even with the right password, without a bcrypt compare', async () => {
    const { auth, clock, events } = await h.make();
    await auth.register({ email: 'ann@example.com', password: PASSWORD, username: 'ann' });
    const compare = jest.spyOn(bcryptPool(), 'compare');
    for (let i = 0; i < 10; i++) {
      expect(
        await codeOf(
          auth.login({ email: 'ann@example.com', password: `wrong ${i}` }, { ip: `192.0.2.${i}` }),
        ),
      ).toBe('INVALID_CREDENTIALS');
    }
    expect(compare).toHaveBeenCalledTimes(10);
    const refused = auth.login(
      { email: 'Ann@Example.com', password: PASSWORD },
      { ip: '192.0.2.99' },
    );
    await expect(refused).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
      headers: { 'Retry-After': '60' },
    });
    // The same account by its username counts against the same email.
    expect(await codeOf(auth.login({ username: 'ann', password: PASSWORD }))).toBe('RATE_LIMITED');
    expect(compare).toHaveBeenCalledTimes(10);
    await auth.settle();
    expect(events.filter((e) => e.eventType === 'IdentityAuthenticated')).toEqual([]);

    clock.advance(60);
    const ok = await session(auth.login({ email: 'ann@example.com', password: PASSWORD }));
    expect(ok.user.email).toBe('ann@example.com');
  });

  test('an unknown email is limited like a known one (a 429 reveals nothing)', async () => {
    const { auth } = await h.make();
    for (let i = 0; i < 10; i++)
      expect(await codeOf(auth.login({ email: 'nobody@example.com', password: 'x' }))).toBe(
        'INVALID_CREDENTIALS',
      );
    expect(await codeOf(auth.login({ email: 'nobody@example.com', password: 'x' }))).toBe(
      'RATE_LIMITED',
    );
  });

  test('different emails from one address hit the per-address limit (100 a minute)', async () => {
    const { auth, clock } = await h.make({ rateLimits: { login: { perIp: 12 } } });
    for (let i = 0; i < 12; i++) {
      expect(
        await codeOf(
          auth.login({ email: `u${i}@example.com`, password: 'x' }, { ip: '198.51.100.7' }),
        ),
      ).toBe('INVALID_CREDENTIALS');
      clock.advance(1);
    }
    await expect(
      auth.login({ email: 'fresh@example.com', password: 'x' }, { ip: '198.51.100.7' }),
    ).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      headers: { 'Retry-After': '48' },
    });
    // The same IPv4 address written as IPv4-mapped IPv6 is the same client.
    expect(
      await codeOf(
        auth.login({ email: 'fresh@example.com', password: 'x' }, { ip: '::ffff:198.51.100.7' }),
      ),
    ).toBe('RATE_LIMITED');
    expect(
      await codeOf(
        auth.login({ email: 'fresh@example.com', password: 'x' }, { ip: '198.51.100.8' }),
      ),
    ).toBe('INVALID_CREDENTIALS');
  });

  test('the default per-address limit is 100', async () => {
    const { auth } = await h.make({ rateLimits: { login: { perEmail: 0 } } });
    const tries = await Promise.all(
      Array.from({ length: 101 }, (_, i) =>
        codeOf(
          auth.login({ email: `v${i}@example.com`, password: 'x' }, { ip: '2001:db8:1:2::5' }),
        ),
      ),
    );
    expect(tries.filter((c) => c === 'RATE_LIMITED')).toHaveLength(1);
    // Another host of the same /64 shares the count.
    expect(
      await codeOf(
        auth.login({ email: 'w@example.com', password: 'x' }, { ip: '2001:db8:1:2::77' }),
      ),
    ).toBe('RATE_LIMITED');
  });

  test('rateLimits: false turns the limits off', async () => {
    const { auth } = await h.make({ rateLimits: false });
    for (let i = 0; i < 15; i++)
      expect(await codeOf(auth.login({ email: 'ann@example.com', password: 'x' }))).toBe(
        'INVALID_CREDENTIALS',
      );
  });

  test('two instances over one database share the count', async () => {
    const a = await h.make();
    const b = await h.make();
    for (let i = 0; i < 5; i++) {
      expect(await codeOf(a.auth.login({ email: 'ann@example.com', password: 'x' }))).toBe(
        'INVALID_CREDENTIALS',
      );
      expect(await codeOf(b.auth.login({ email: 'ann@example.com', password: 'x' }))).toBe(
        'INVALID_CREDENTIALS',
      );
    }
    expect(await codeOf(a.auth.login({ email: 'ann@example.com', password: 'x' }))).toBe(
      'RATE_LIMITED',
    );
    expect(await codeOf(b.auth.login({ email: 'ann@example.com', password: 'x' }))).toBe(
      'RATE_LIMITED',
    );
  });
});

describe('password reset and verification resend', () => {
  test('5 reset requests per email per 15 minutes; a refused one sends nothing', async () => {
    const { auth, clock, events } = await h.make();
    await auth.register({ email: 'ann@example.com', password: PASSWORD });
    for (let i = 0; i < 5; i++)
      await auth.requestReset('ann@example.com', { ip: `203.0.113.${i}` });
    await expect(auth.requestReset('ANN@example.com')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      headers: { 'Retry-After': '900' },
    });
    await auth.settle();
    expect(events.filter((e) => e.eventType === 'PasswordResetRequested')).toHaveLength(5);
    // Unknown emails are counted the same way.
    for (let i = 0; i < 5; i++) await auth.requestReset('nobody@example.com');
    expect(await codeOf(auth.requestReset('nobody@example.com'))).toBe('RATE_LIMITED');
    clock.advance(15 * 60);
    await auth.requestReset('ann@example.com');
    await auth.settle();
    expect(events.filter((e) => e.eventType === 'PasswordResetRequested')).toHaveLength(6);
  });

  test('5 verification resends per email per 15 minutes; a refused one issues no token', async () => {
    const { auth, events } = await h.make({ requireEmailVerification: true });
    await auth.register({ email: 'ann@example.com', password: PASSWORD });
    for (let i = 0; i < 5; i++) await auth.resendVerification('ann@example.com');
    expect(await codeOf(auth.resendVerification('ann@example.com'))).toBe('RATE_LIMITED');
    await auth.settle();
    // One at registration, five resends.
    expect(events.filter((e) => e.eventType === 'EmailVerificationRequested')).toHaveLength(6);
    // The reset counter is its own.
    await auth.requestReset('ann@example.com');
  });
});
