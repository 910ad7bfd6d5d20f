import type { AuthEvent } from '../../src/types';
import { codeOf, useCoreHarness } from './harness';

const h = useCoreHarness();
const tokenOf = (events: AuthEvent[], type: AuthEvent['eventType'], key: 'resetToken' | 'verificationToken') =>
  events.filter((e) => e.eventType === type).at(-1)?.[key] as string;

describe('verifyToken', () => {
  test('returns the auth context of the token', async () => {
    const { auth } = await h.make();
    const r = await auth.register({ email: 'a@example.com', password: 'password1', username: 'ayy' });
    expect(await auth.verifyToken(r.token)).toEqual({
      userId: r.user.id,
      roles: [],
      permissions: [],
      jwtClaims: { sub: r.user.id, email: 'a@example.com', aud: 'svc-api', iss: 'svc', username: 'ayy' },
    });
  });

  test.each([
    ['garbage', 'not.a.jwt', 'INVALID_TOKEN'],
    ['empty', '', 'INVALID_TOKEN'],
  ])('%s → %s', async (_n, token, code) => {
    const { auth } = await h.make();
    expect(await codeOf(auth.verifyToken(token))).toBe(code);
  });

  test('a token of another audience or secret is INVALID_TOKEN', async () => {
    const { auth } = await h.make();
    const { auth: other } = await h.make({ jwtAudience: 'elsewhere' });
    const r = await other.register({ email: 'x@example.com', password: 'password1' });
    expect(await codeOf(auth.verifyToken(r.token))).toBe('INVALID_TOKEN');
  });

  test('token expiry: TOKEN_EXPIRED after tokenExpiry seconds (injected clock)', async () => {
    const { auth, clock } = await h.make({ tokenExpiry: 60, sessionTimeout: 3600 });
    const r = await auth.register({ email: 'e@example.com', password: 'password1' });
    clock.advance(59);
    await expect(auth.verifyToken(r.token)).resolves.toBeDefined();
    clock.advance(1);
    const err = await auth.verifyToken(r.token).catch((e) => e);
    expect(err).toMatchObject({ code: 'TOKEN_EXPIRED', status: 401 });
  });

  test('session timeout counts from the last activity (injected clock)', async () => {
    const { auth, clock } = await h.make({ tokenExpiry: 36000, sessionTimeout: 600 });
    const r = await auth.register({ email: 't@example.com', password: 'password1' });
    // activity every 500 s keeps it alive well past 600 s from creation
    for (let i = 0; i < 4; i++) {
      clock.advance(500);
      await expect(auth.verifyToken(r.token)).resolves.toBeDefined();
    }
    clock.advance(600);
    const err = await auth.verifyToken(r.token).catch((e) => e);
    expect(err).toMatchObject({ code: 'SESSION_EXPIRED', status: 401 });
  });

  test('last activity is written at most once per min(60 s, sessionTimeout/10)', async () => {
    const { auth, clock } = await h.make({ sessionTimeout: 3600 });
    const r = await auth.register({ email: 'th@example.com', password: 'password1' });
    const lastActivity = async () =>
      (await h.db().db.query<{ t: Date }>('select last_activity_at as t from svc_auth.sessions')).rows[0]!.t.getTime();
    const start = await lastActivity();
    clock.advance(30);
    await auth.verifyToken(r.token);
    expect(await lastActivity()).toBe(start);
    clock.advance(30);
    await auth.verifyToken(r.token);
    expect(await lastActivity()).toBe(start + 60_000);
  });

  test('a deactivated user\'s token is refused with USER_INACTIVE', async () => {
    const { auth } = await h.make();
    const r = await auth.register({ email: 'in@example.com', password: 'password1' });
    await auth.setActive(r.user.id, false);
    expect(await codeOf(auth.verifyToken(r.token))).toBe('USER_INACTIVE');
  });
});

describe('refresh', () => {
  test('rotates: a new session, tokens and refresh token; the old session and refresh token die', async () => {
    const { auth, events } = await h.make();
    const first = await auth.register({ email: 'r@example.com', password: 'password1' });
    const second = await auth.refresh(first.refreshToken, { ip: '2.2.2.2' });
    expect(second.session.id).not.toBe(first.session.id);
    expect(second.token).not.toBe(first.token);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.user).toEqual(first.user);
    await expect(auth.verifyToken(second.token)).resolves.toMatchObject({ userId: first.user.id });
    expect(await codeOf(auth.verifyToken(first.token))).toBe('SESSION_EXPIRED');
    const err = await auth.refresh(first.refreshToken).catch((e) => e);
    expect(err).toMatchObject({ code: 'INVALID_REFRESH_TOKEN', status: 401 });
    await expect(auth.refresh(second.refreshToken)).resolves.toBeDefined();
    await auth.settle();
    expect(events.map((e) => e.eventType)).toEqual(['IdentityCreated', 'IdentityAuthenticated', 'IdentityAuthenticated']);
  });

  test.each([
    ['garbage', 'nope'],
    ['an unknown token of the right shape', 'A'.repeat(43)],
    ['a non-string', 42],
  ])('INVALID_REFRESH_TOKEN for %s', async (_n, token) => {
    const { auth } = await h.make();
    expect(await codeOf(auth.refresh(token as never))).toBe('INVALID_REFRESH_TOKEN');
  });

  test('an expired refresh token (refreshTokenExpiry) is refused', async () => {
    const { auth, clock } = await h.make({ refreshTokenExpiry: 120 });
    const r = await auth.register({ email: 'x@example.com', password: 'password1' });
    clock.advance(120);
    expect(await codeOf(auth.refresh(r.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
  });

  // Issue 8: an idle session used to come back through refresh. The spec: a timed-out session
  // answers 401 SESSION_EXPIRED to any request using it.
  test('a session idle past sessionTimeout cannot be refreshed: SESSION_EXPIRED', async () => {
    const { auth, clock } = await h.make({ sessionTimeout: 60 });
    const r = await auth.register({ email: 'idle@example.com', password: 'password1' });
    clock.advance(59);
    const next = await auth.refresh(r.refreshToken); // inside the timeout: rotates, activity now
    clock.advance(59);
    await expect(auth.verifyToken(next.token)).resolves.toBeDefined();
    clock.advance(60);
    expect(await codeOf(auth.verifyToken(next.token))).toBe('SESSION_EXPIRED');
    const err = await auth.refresh(next.refreshToken).catch((e) => e);
    expect(err).toMatchObject({ code: 'SESSION_EXPIRED', status: 401 });
  });

  test('a deactivated user cannot refresh (USER_INACTIVE); deactivation revoked the sessions', async () => {
    const { auth } = await h.make();
    const r = await auth.register({ email: 'off@example.com', password: 'password1' });
    await auth.setActive(r.user.id, false);
    expect(await codeOf(auth.refresh(r.refreshToken))).toBe('USER_INACTIVE');
    await auth.setActive(r.user.id, true);
    expect(await codeOf(auth.refresh(r.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    expect(await codeOf(auth.verifyToken(r.token))).toBe('SESSION_EXPIRED');
  });

  test('after logout the refresh token is dead too', async () => {
    const { auth } = await h.make();
    const r = await auth.register({ email: 'lo@example.com', password: 'password1' });
    await auth.logout(r.token);
    expect(await codeOf(auth.refresh(r.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
  });

  // Attack: refresh-token replay. A stolen refresh token raced against the owner's must not yield
  // two live sessions; the conditional UPDATE lets exactly one caller rotate.
  test('ten concurrent refreshes with one refresh token: exactly one new session', async () => {
    const { auth } = await h.make();
    const r = await auth.register({ email: 'race@example.com', password: 'password1' });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => auth.refresh(r.refreshToken)));
    const ok = results.filter((x) => x.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    for (const x of results) if (x.status === 'rejected') expect(x.reason).toMatchObject({ code: 'INVALID_REFRESH_TOKEN' });
    const { rows } = await h.db().db.query('select count(*)::int as n from svc_auth.sessions where revoked_at is null');
    expect(rows).toEqual([{ n: 1 }]);
  });
});

describe('logout', () => {
  test('revokes only this session', async () => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'l@example.com', password: 'password1' });
    const b = await auth.login({ email: 'l@example.com', password: 'password1' });
    await expect(auth.logout(a.token)).resolves.toBeUndefined();
    expect(await codeOf(auth.verifyToken(a.token))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.logout(a.token))).toBe('SESSION_EXPIRED');
    await expect(auth.verifyToken(b.token)).resolves.toBeDefined();
  });
});

describe('changePassword', () => {
  test('success revokes ALL the user\'s sessions; the new password logs in, the old does not', async () => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'cp@example.com', password: 'password1' });
    const b = await auth.login({ email: 'cp@example.com', password: 'password1' });
    const other = await auth.register({ email: 'other@example.com', password: 'password1' });
    await auth.changePassword(a.token, 'password1', 'password2');
    for (const t of [a.token, b.token]) expect(await codeOf(auth.verifyToken(t))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.refresh(b.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    await expect(auth.verifyToken(other.token)).resolves.toBeDefined();
    expect(await codeOf(auth.login({ email: 'cp@example.com', password: 'password1' }))).toBe('INVALID_CREDENTIALS');
    await expect(auth.login({ email: 'cp@example.com', password: 'password2' })).resolves.toBeDefined();
  });

  test.each([
    ['a wrong old password', 'wrong-pass', 'password2', 'INVALID_CREDENTIALS'],
    ['a weak new password', 'password1', 'short', 'PASSWORD_TOO_WEAK'],
    ['an empty old password', '', 'password2', 'VALIDATION_ERROR'],
  ])('%s → %s, nothing revoked', async (_n, oldPw, newPw, code) => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'cp@example.com', password: 'password1' });
    expect(await codeOf(auth.changePassword(a.token, oldPw, newPw))).toBe(code);
    await expect(auth.verifyToken(a.token)).resolves.toBeDefined();
  });
});

describe('password reset', () => {
  test('requestReset emits the token; confirmReset replaces the password and revokes every session', async () => {
    const { auth, events, clock } = await h.make();
    const a = await auth.register({ email: 'rs@example.com', password: 'password1' });
    await auth.requestReset('RS@example.com');
    await auth.settle();
    const reset = events.find((e) => e.eventType === 'PasswordResetRequested')!;
    expect(reset).toMatchObject({ userId: a.user.id, email: 'rs@example.com', resetToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    clock.advance(3599);
    await auth.confirmReset(reset.resetToken!, 'password2');
    expect(await codeOf(auth.verifyToken(a.token))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.refresh(a.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    await expect(auth.login({ email: 'rs@example.com', password: 'password2' })).resolves.toBeDefined();
    // single use
    const err = await auth.confirmReset(reset.resetToken!, 'password3').catch((e) => e);
    expect(err).toMatchObject({ code: 'INVALID_TOKEN', status: 401 });
  });

  test('an expired reset token (1 hour) is INVALID_TOKEN', async () => {
    const { auth, events, clock } = await h.make();
    await auth.register({ email: 'ex@example.com', password: 'password1' });
    await auth.requestReset('ex@example.com');
    await auth.settle();
    clock.advance(3600);
    expect(await codeOf(auth.confirmReset(tokenOf(events, 'PasswordResetRequested', 'resetToken'), 'password2'))).toBe('INVALID_TOKEN');
  });

  test.each([['an unknown token', 'B'.repeat(43)], ['garbage', '!!'], ['a non-string', null]])(
    'confirmReset with %s is INVALID_TOKEN',
    async (_n, token) => {
      const { auth } = await h.make();
      expect(await codeOf(auth.confirmReset(token as never, 'password2'))).toBe('INVALID_TOKEN');
    },
  );

  test('a weak new password is refused without consuming the token', async () => {
    const { auth, events } = await h.make();
    await auth.register({ email: 'wk@example.com', password: 'password1' });
    await auth.requestReset('wk@example.com');
    await auth.settle();
    const token = tokenOf(events, 'PasswordResetRequested', 'resetToken');
    expect(await codeOf(auth.confirmReset(token, 'short'))).toBe('PASSWORD_TOO_WEAK');
    await expect(auth.confirmReset(token, 'password2')).resolves.toBeUndefined();
  });

  // Attack: account enumeration through the reset form. Unknown and malformed emails resolve
  // exactly like known ones, with no event.
  test.each(['nobody@example.com', 'not an email', ''])('requestReset(%j) resolves silently', async (email) => {
    const { auth, events } = await h.make();
    await expect(auth.requestReset(email)).resolves.toBeUndefined();
    await auth.settle();
    expect(events).toEqual([]);
  });

  test('the reset token is stored as its SHA-256 only', async () => {
    const { auth, events } = await h.make();
    await auth.register({ email: 'sh@example.com', password: 'password1' });
    await auth.requestReset('sh@example.com');
    await auth.settle();
    const token = tokenOf(events, 'PasswordResetRequested', 'resetToken');
    const { rows } = await h.db().db.query<{ token_hash: string }>('select token_hash from svc_auth.reset_tokens');
    const { createHash } = await import('node:crypto');
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
  });
});

describe('email verification', () => {
  test('verifyEmail from "another device" (just the token) verifies, consumes, emits EmailVerified', async () => {
    const { auth, events } = await h.make({ requireEmailVerification: true });
    const r = await auth.register({ email: 've@example.com', password: 'password1' });
    await auth.settle();
    const token = tokenOf(events, 'EmailVerificationRequested', 'verificationToken');
    await auth.verifyEmail(token);
    expect(await auth.findUser(r.user.id)).toMatchObject({ emailVerified: true });
    await auth.settle();
    expect(events.at(-1)).toMatchObject({ eventType: 'EmailVerified', userId: r.user.id, email: 've@example.com' });
    expect(await codeOf(auth.verifyEmail(token))).toBe('INVALID_TOKEN');
  });

  test('resendVerification replaces the token: the stale link is INVALID_TOKEN, the new one works', async () => {
    const { auth, events } = await h.make({ requireEmailVerification: true });
    await auth.register({ email: 'rv@example.com', password: 'password1' });
    await auth.settle();
    const stale = tokenOf(events, 'EmailVerificationRequested', 'verificationToken');
    await auth.resendVerification('RV@example.com');
    await auth.settle();
    const fresh = tokenOf(events, 'EmailVerificationRequested', 'verificationToken');
    expect(fresh).not.toBe(stale);
    expect(await codeOf(auth.verifyEmail(stale))).toBe('INVALID_TOKEN');
    await expect(auth.verifyEmail(fresh)).resolves.toBeUndefined();
  });

  test('resendVerification for an unknown or verified email resolves silently with no event', async () => {
    const { auth, events } = await h.make({ requireEmailVerification: true });
    await auth.register({ email: 'done@example.com', password: 'password1' });
    await auth.settle();
    await auth.verifyEmail(tokenOf(events, 'EmailVerificationRequested', 'verificationToken'));
    await auth.settle();
    const before = events.length;
    await expect(auth.resendVerification('done@example.com')).resolves.toBeUndefined();
    await expect(auth.resendVerification('nobody@example.com')).resolves.toBeUndefined();
    await expect(auth.resendVerification('garbage')).resolves.toBeUndefined();
    await auth.settle();
    expect(events.length).toBe(before);
  });

  test('resendVerification works without requireEmailVerification too', async () => {
    const { auth, events } = await h.make();
    const r = await auth.register({ email: 'opt@example.com', password: 'password1' });
    await auth.resendVerification('opt@example.com');
    await auth.settle();
    await auth.verifyEmail(tokenOf(events, 'EmailVerificationRequested', 'verificationToken'));
    expect(await auth.findUser(r.user.id)).toMatchObject({ emailVerified: true });
  });

  test('an expired verification token (24 h) is INVALID_TOKEN', async () => {
    const { auth, events, clock } = await h.make({ requireEmailVerification: true });
    await auth.register({ email: 'old@example.com', password: 'password1' });
    await auth.settle();
    clock.advance(24 * 3600);
    expect(await codeOf(auth.verifyEmail(tokenOf(events, 'EmailVerificationRequested', 'verificationToken')))).toBe('INVALID_TOKEN');
  });
});
