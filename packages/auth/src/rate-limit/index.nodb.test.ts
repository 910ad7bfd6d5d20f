import { SvcError } from '@svc/core';
import { createMemoryStore } from '../store/memory';
import {
  RATE_LIMIT_DEFAULTS,
  RATE_LIMIT_RULES,
  clientAddressKey,
  createRateLimiter,
  resolveRateLimits,
  type RateLimitRuleName,
} from '.';

const T0 = Date.UTC(2030, 0, 1);

function setup(config: unknown = undefined) {
  let t = T0;
  const clock = Object.assign(() => t, {
    advance: (s: number): void => {
      t += s * 1000;
    },
  });
  const store = createMemoryStore({ now: clock });
  let prunes = 0;
  const counted = {
    hitRateLimit: store.hitRateLimit,
    pruneRateLimits: async () => {
      prunes++;
      return store.pruneRateLimits();
    },
  };
  const limiter = createRateLimiter({
    store: counted,
    limits: resolveRateLimits(config),
    now: clock,
  });
  return { limiter, clock, store, prunes: () => prunes };
}

async function refusal(p: Promise<unknown>): Promise<SvcError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SvcError) return err;
    throw err;
  }
  throw new Error('the request was allowed');
}

describe('rate limiter (injected clock, memory store)', () => {
  test('login: the 11th attempt for one email within a minute is RATE_LIMITED with Retry-After', async () => {
    const { limiter, clock } = setup();
    for (let i = 0; i < 10; i++) {
      await limiter.check('login', { email: 'ann@example.com', ip: '192.0.2.1' });
      clock.advance(1);
    }
    const err = await refusal(
      limiter.check('login', { email: 'ANN@example.com ', ip: '192.0.2.2' }),
    );
    expect(err).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    // First attempt at T0, now T0+10s: it leaves the window 50 s from now.
    expect(err.headers).toEqual({ 'Retry-After': '50' });
    expect(err.message).toBe('too many requests; retry in 50 s');
    // Another email from the same address is not held back by this one.
    await limiter.check('login', { email: 'bob@example.com', ip: '192.0.2.1' });
    clock.advance(50);
    await limiter.check('login', { email: 'ann@example.com', ip: '192.0.2.1' });
  });

  test('login: 100 per address whatever the emails, then 429', async () => {
    const { limiter } = setup();
    for (let i = 0; i < 100; i++)
      await limiter.check('login', { email: `u${i}@example.com`, ip: '198.51.100.7' });
    const err = await refusal(
      limiter.check('login', { email: 'new@example.com', ip: '198.51.100.7' }),
    );
    expect(err.headers).toEqual({ 'Retry-After': '60' });
    await limiter.check('login', { email: 'new@example.com', ip: '198.51.100.8' });
  });

  test('password reset and verification resend: 5 per email per 15 minutes, separate counters', async () => {
    const { limiter, clock } = setup();
    for (let i = 0; i < 5; i++)
      await limiter.check('passwordReset', { email: 'ann@example.com', ip: `203.0.113.${i}` });
    const err = await refusal(limiter.check('passwordReset', { email: 'ann@example.com' }));
    expect(err.headers).toEqual({ 'Retry-After': '900' });
    for (let i = 0; i < 5; i++)
      await limiter.check('verificationResend', { email: 'ann@example.com' });
    await expect(
      limiter.check('verificationResend', { email: 'ann@example.com' }),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    clock.advance(899);
    await expect(
      limiter.check('passwordReset', { email: 'ann@example.com' }),
    ).rejects.toMatchObject({ headers: { 'Retry-After': '1' } });
    clock.advance(1);
    await limiter.check('passwordReset', { email: 'ann@example.com' });
  });

  test('Retry-After rounds up to whole seconds and is never 0', async () => {
    const { limiter, clock } = setup({ login: { perEmail: 1, windowSeconds: 2 } });
    await limiter.check('login', { email: 'a@example.com' });
    clock.advance(1.9995);
    await expect(limiter.check('login', { email: 'a@example.com' })).rejects.toMatchObject({
      headers: { 'Retry-After': '1' },
    });
  });

  test('the table names every rule of DECISIONS.md with its numbers', () => {
    expect([...RATE_LIMIT_RULES].sort()).toEqual(Object.keys(RATE_LIMIT_DEFAULTS).sort());
    const shown = Object.fromEntries(
      Object.entries(RATE_LIMIT_DEFAULTS).map(([k, r]) => [
        k,
        `${r.perEmail}/${r.perIp} per ${r.windowSeconds}s`,
      ]),
    );
    expect(shown).toEqual({
      login: '10/100 per 60s',
      passwordReset: '5/0 per 900s',
      verificationResend: '5/0 per 900s',
      magicLinkRequest: '5/5 per 60s',
      magicCodeRequest: '5/5 per 60s',
      magicLinkConsume: '10/10 per 60s',
      magicCodeVerify: '10/10 per 60s',
      webauthnLoginBegin: '20/20 per 60s',
      webauthnLoginFinish: '20/20 per 60s',
      anonymous: '0/30 per 60s',
      mfaVerify: '10/100 per 60s',
      oauth: '0/60 per 60s',
    });
  });

  test.each(RATE_LIMIT_RULES.map((r) => [r]))(
    'rule %s refuses one past its per-address limit',
    async (name) => {
      const rule = RATE_LIMIT_DEFAULTS[name as RateLimitRuleName];
      const { limiter } = setup();
      const n = rule.perIp || rule.perEmail;
      const subject = rule.perIp ? { ip: '192.0.2.9' } : { email: 'x@example.com' };
      for (let i = 0; i < n; i++) await limiter.check(name as RateLimitRuleName, subject);
      await expect(limiter.check(name as RateLimitRuleName, subject)).rejects.toMatchObject({
        code: 'RATE_LIMITED',
      });
    },
  );

  test('configuration: one number overridden, a key turned off with 0, everything off with false or enabled=false', async () => {
    const a = setup({ login: { perEmail: 2, perIp: 0 } });
    for (let i = 0; i < 2; i++)
      await a.limiter.check('login', { email: 'a@example.com', ip: '192.0.2.1' });
    await expect(
      a.limiter.check('login', { email: 'a@example.com', ip: '192.0.2.1' }),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    for (let i = 0; i < 150; i++)
      await a.limiter.check('login', { email: `x${i}@example.com`, ip: '192.0.2.1' });
    for (const off of [false, { enabled: false }]) {
      const b = setup(off);
      for (let i = 0; i < 30; i++)
        await b.limiter.check('login', { email: 'a@example.com', ip: '192.0.2.1' });
    }
  });

  test('configuration errors name the key', () => {
    expect(() => resolveRateLimits({ logins: {} })).toThrow(
      /unknown rate limit rateLimits\.logins/,
    );
    expect(() => resolveRateLimits({ login: { perMinute: 3 } })).toThrow(
      /unknown field rateLimits\.login\.perMinute/,
    );
    expect(() => resolveRateLimits({ login: { perEmail: -1 } })).toThrow(
      /rateLimits\.login\.perEmail must be an integer from 0/,
    );
    expect(() => resolveRateLimits({ login: { windowSeconds: 0 } })).toThrow(
      /rateLimits\.login\.windowSeconds must be an integer from 1/,
    );
    expect(() => resolveRateLimits({ login: { perIp: '5' } })).toThrow(/perIp/);
    expect(() => resolveRateLimits({ login: 5 })).toThrow(/rateLimits\.login must be an object/);
    expect(() => resolveRateLimits({ enabled: 'no' })).toThrow(/rateLimits\.enabled/);
    expect(() => resolveRateLimits('strict')).toThrow(/rateLimits must be an object/);
    expect(resolveRateLimits({ login: { perEmail: 3n as unknown as number } }).login.perEmail).toBe(
      3,
    );
  });

  test('a request with no email and no address is not counted', async () => {
    const { limiter } = setup({ login: { perEmail: 1 } });
    for (let i = 0; i < 5; i++) await limiter.check('login', {});
  });

  test('expired counters are swept at most once a minute', async () => {
    const { limiter, clock, store, prunes } = setup();
    await limiter.check('login', { email: 'a@example.com', ip: '192.0.2.1' });
    expect(prunes()).toBe(1);
    clock.advance(59);
    await limiter.check('login', { email: 'b@example.com', ip: '192.0.2.1' });
    expect(prunes()).toBe(1);
    clock.advance(61);
    // Both counters of the first attempt (email and address) and both of the second have expired.
    expect(await store.pruneRateLimits()).toBe(3);
    await limiter.check('login', { email: 'c@example.com' });
    expect(prunes()).toBe(2);
  });
});

describe('clientAddressKey', () => {
  test.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['not an address', 'not an address'],
  ])('%s → %s', (ip, key) => {
    expect(clientAddressKey(ip)).toBe(key);
  });
});
