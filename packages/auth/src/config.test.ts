import bcrypt from 'bcryptjs';
import { resolveAuthConfig } from './config';
import { createAuth } from './create-auth';
import { SECRET, useCoreHarness } from './__tests__/harness';

const h = useCoreHarness();

describe('configuration', () => {
  test('defaults of the spec', () => {
    expect(resolveAuthConfig({ jwtSecret: SECRET })).toMatchObject({
      jwtAudience: 'svc-api',
      jwtIssuer: 'svc',
      tokenExpiry: 3600,
      refreshTokenExpiry: 604800,
      sessionTimeout: 3600,
      allowRegistration: true,
      requireEmailVerification: false,
      bcryptRounds: 12,
      passwordMinLength: 8,
      passwordRequireNumbers: false,
      passwordRequireSpecial: false,
      passwordRequireUppercase: false,
      guestRetention: 30 * 24 * 3600,
    });
  });

  test('guestRetention: 0 keeps guests; else an hour at least, and no shorter than sessionTimeout', () => {
    for (const ok of [0, 3600, 7 * 24 * 3600])
      expect(resolveAuthConfig({ jwtSecret: SECRET, guestRetention: ok }).guestRetention).toBe(ok);
    expect(
      resolveAuthConfig({ jwtSecret: SECRET, sessionTimeout: 86400, guestRetention: 86400 })
        .guestRetention,
    ).toBe(86400);
    // Left out with a sessionTimeout longer than 30 days: as long as sessionTimeout.
    expect(
      resolveAuthConfig({ jwtSecret: SECRET, sessionTimeout: 90 * 86400 }).guestRetention,
    ).toBe(90 * 86400);
    for (const [bad, message] of [
      [
        { guestRetention: 3599 },
        /guestRetention must be 0 \(keep guests\) or an integer from 3600/,
      ],
      [{ guestRetention: -1 }, /guestRetention/],
      [{ guestRetention: 1.5 }, /guestRetention/],
      [{ guestRetention: '30d' }, /guestRetention/],
      [{ guestRetention: 11 * 365 * 24 * 3600 }, /guestRetention/],
      [{ sessionTimeout: 86400, guestRetention: 86399 }, /guestRetention must be .* from 86400/],
    ] as const)
      expect(() => resolveAuthConfig({ jwtSecret: SECRET, ...(bad as object) } as never)).toThrow(
        message,
      );
  });

  test.each([
    [{ jwtSecret: 'short' }, /jwtSecret must be a string of at least 32/],
    [{ jwtSecret: 42 }, /jwtSecret/],
    [{ tokenExpiry: '3600' }, /tokenExpiry must be an integer/],
    [{ tokenExpiry: 0 }, /tokenExpiry must be an integer from 1/],
    [{ refreshTokenExpiry: 1.5 }, /refreshTokenExpiry/],
    [{ sessionTimeout: -1 }, /sessionTimeout/],
    [{ bcryptRounds: 3 }, /bcryptRounds must be an integer from 4 to 31/],
    [{ passwordMinLength: NaN }, /passwordMinLength/],
    [{ allowRegistration: 'yes' }, /allowRegistration must be true or false/],
    [{ requireEmailVerification: 1 }, /requireEmailVerification/],
    [{ passwordRequireNumbers: null }, /passwordRequireNumbers/],
    [{ jwtAudience: '' }, /jwtAudience must be a non-empty string/],
    [{ claims: 'permissions' }, /claims must be a function/],
  ])('refuses %j at construction', (bad, message) => {
    expect(() => resolveAuthConfig({ jwtSecret: SECRET, ...(bad as object) } as never)).toThrow(
      message,
    );
  });

  test('createAuth rejects a short secret before touching the database', async () => {
    await expect(
      createAuth({ jwtSecret: 'x'.repeat(31) }, { database: h.db().db }),
    ).rejects.toThrow(TypeError);
  });

  test('the default cost of bcrypt is 12', async () => {
    const { auth } = await h.make({ bcryptRounds: undefined });
    expect(auth.config.bcryptRounds).toBe(12);
    const { user } = await auth.register({ email: 'cost@example.com', password: 'password1' });
    const { rows } = await h
      .db()
      .db.query<{ password_hash: string }>(
        'select password_hash from svc_auth.users where id = $1',
        [user.id],
      );
    expect(bcrypt.getRounds(rows[0]!.password_hash)).toBe(12);
  });
});
