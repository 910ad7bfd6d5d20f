/**
 * The caller's sessions (list, revoke one, revoke the others) and refresh-token reuse detection.
 */
import { codeOf, session, useCoreHarness } from '../__tests__/harness';
import { REFRESH_REUSE_GRACE_SECONDS } from './operations';
import { describeDevice } from './device';

const h = useCoreHarness();
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('listSessions', () => {
  test('live sessions only, with ip, user agent, device and the current flag', async () => {
    const { auth, clock } = await h.make();
    const a = await auth.register(
      { email: 'l@example.com', password: 'password1' },
      { ip: '10.0.0.1', userAgent: FIREFOX },
    );
    clock.advance(5);
    const b = await session(
      auth.login(
        { email: 'l@example.com', password: 'password1' },
        { ip: '10.0.0.2', userAgent: IPHONE },
      ),
    );
    const c = await session(auth.login({ email: 'l@example.com', password: 'password1' }));
    await auth.logout(c.token);
    const other = await auth.register({ email: 'o@example.com', password: 'password1' });
    const list = await auth.listSessions(a.token);
    expect(list).toHaveLength(2);
    const byId = Object.fromEntries(list.map((s) => [s.id, s]));
    expect(byId[a.session.id]).toEqual({
      id: a.session.id,
      createdAt: a.session.createdAt,
      lastActivityAt: expect.any(String),
      expiresAt: a.session.expiresAt,
      ip: '10.0.0.1',
      userAgent: FIREFOX,
      device: 'Firefox on Linux',
      current: true,
    });
    expect(byId[b.session.id]).toMatchObject({
      ip: '10.0.0.2',
      device: 'Safari on iOS',
      current: false,
    });
    expect(list.map((s) => s.id)).not.toContain(other.session.id);
    expect(list.map((s) => s.id)).not.toContain(c.session.id);
    expect(JSON.stringify(list)).not.toMatch(/refresh|token/i);
  });

  test('a session idle past sessionTimeout is not listed', async () => {
    const { auth, clock } = await h.make({ sessionTimeout: 600, tokenExpiry: 36000 });
    const a = await auth.register({ email: 'idle@example.com', password: 'password1' });
    clock.advance(400);
    const b = await session(auth.login({ email: 'idle@example.com', password: 'password1' }));
    clock.advance(300); // a: idle 700 s
    expect((await auth.listSessions(b.token)).map((s) => s.id)).toEqual([b.session.id]);
    expect(await codeOf(auth.listSessions(a.token))).toBe('SESSION_EXPIRED');
  });
});

describe('revokeSession / revokeOtherSessions', () => {
  test("one of the caller's sessions ends; another user's id is NOT_FOUND; bad id VALIDATION_ERROR", async () => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'r@example.com', password: 'password1' });
    const b = await session(auth.login({ email: 'r@example.com', password: 'password1' }));
    const other = await auth.register({ email: 'r2@example.com', password: 'password1' });
    expect(await auth.revokeSession(a.token, b.session.id)).toEqual({ current: false });
    expect(await codeOf(auth.verifyToken(b.token))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.refresh(b.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    expect(await codeOf(auth.revokeSession(a.token, b.session.id))).toBe('NOT_FOUND');
    expect(await codeOf(auth.revokeSession(a.token, other.session.id))).toBe('NOT_FOUND');
    await expect(auth.verifyToken(other.token)).resolves.toBeDefined();
    expect(await codeOf(auth.revokeSession(a.token, 'not-a-uuid'))).toBe('VALIDATION_ERROR');
    expect(await auth.revokeSession(a.token, a.session.id.toUpperCase())).toEqual({
      current: true,
    });
    expect(await codeOf(auth.verifyToken(a.token))).toBe('SESSION_EXPIRED');
  });

  test('revokeOtherSessions keeps the current one', async () => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'k@example.com', password: 'password1' });
    const b = await session(auth.login({ email: 'k@example.com', password: 'password1' }));
    const c = await session(auth.login({ email: 'k@example.com', password: 'password1' }));
    const other = await auth.register({ email: 'k2@example.com', password: 'password1' });
    expect(await auth.revokeOtherSessions(b.token)).toBe(2);
    await expect(auth.verifyToken(b.token)).resolves.toBeDefined();
    expect(await codeOf(auth.verifyToken(a.token))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.verifyToken(c.token))).toBe('SESSION_EXPIRED');
    await expect(auth.verifyToken(other.token)).resolves.toBeDefined();
    expect(await auth.revokeOtherSessions(b.token)).toBe(0);
    expect((await auth.listSessions(b.token)).map((s) => s.id)).toEqual([b.session.id]);
  });
});

describe('refresh-token reuse detection', () => {
  test('a retired token presented after the grace revokes the whole family, not other sign-ins', async () => {
    const { auth, clock } = await h.make();
    const first = await auth.register({ email: 'f@example.com', password: 'password1' });
    const elsewhere = await session(auth.login({ email: 'f@example.com', password: 'password1' }));
    const second = await auth.refresh(first.refreshToken);
    const third = await auth.refresh(second.refreshToken);
    clock.advance(REFRESH_REUSE_GRACE_SECONDS + 1);
    // the thief replays the first token
    const err = await auth.refresh(first.refreshToken).catch((e) => e);
    expect(err).toMatchObject({ code: 'INVALID_REFRESH_TOKEN', status: 401 });
    // the whole family is gone: the newest access and refresh tokens too
    expect(await codeOf(auth.verifyToken(third.token))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.refresh(third.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    // another sign-in of the same user lives on
    await expect(auth.verifyToken(elsewhere.token)).resolves.toBeDefined();
    await expect(auth.refresh(elsewhere.refreshToken)).resolves.toBeDefined();
  });

  test('within the grace a retired token is refused without revoking the family (a lost race)', async () => {
    const { auth, clock } = await h.make();
    const first = await auth.register({ email: 'g@example.com', password: 'password1' });
    const second = await auth.refresh(first.refreshToken);
    clock.advance(REFRESH_REUSE_GRACE_SECONDS);
    expect(await codeOf(auth.refresh(first.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    await expect(auth.verifyToken(second.token)).resolves.toBeDefined();
    await expect(auth.refresh(second.refreshToken)).resolves.toBeDefined();
  });

  test('a retired token replayed after its own expiry still ends the family that lives on', async () => {
    const { auth, clock } = await h.make({ refreshTokenExpiry: 100 });
    const first = await auth.register({ email: 'x@example.com', password: 'password1' });
    clock.advance(50);
    const second = await auth.refresh(first.refreshToken);
    clock.advance(70); // first token expired at 100 s; second lives until 150 s
    expect(await codeOf(auth.refresh(first.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    expect(await codeOf(auth.verifyToken(second.token))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.refresh(second.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
  });

  test('a token of a session ended by logout is no reuse (nothing else is revoked)', async () => {
    const { auth, clock } = await h.make();
    const a = await auth.register({ email: 'h@example.com', password: 'password1' });
    const b = await session(auth.login({ email: 'h@example.com', password: 'password1' }));
    await auth.logout(a.token);
    clock.advance(60);
    expect(await codeOf(auth.refresh(a.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    await expect(auth.verifyToken(b.token)).resolves.toBeDefined();
  });

  test('off with refreshTokenReuseDetection: false', async () => {
    const { auth, clock } = await h.make({ refreshTokenReuseDetection: false });
    const first = await auth.register({ email: 'i@example.com', password: 'password1' });
    const second = await auth.refresh(first.refreshToken);
    clock.advance(60);
    expect(await codeOf(auth.refresh(first.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    await expect(auth.verifyToken(second.token)).resolves.toBeDefined();
  });

  test('config: refreshTokenReuseDetection must be a boolean', async () => {
    await expect(
      h.make({ refreshTokenReuseDetection: 'yes' as unknown as boolean }),
    ).rejects.toThrow(/refreshTokenReuseDetection/);
  });
});

describe('describeDevice', () => {
  test.each([
    [FIREFOX, 'Firefox on Linux'],
    [IPHONE, 'Safari on iOS'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome on Windows',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    ['curl/8.5.0', 'curl'],
    ['something odd', null],
    ['', null],
    [null, null],
  ])('%s → %s', (ua, want) => {
    expect(describeDevice(ua)).toBe(want);
  });
});
