import { codeOf, useCoreHarness, session } from '../__tests__/harness';

const h = useCoreHarness();

describe('verifyToken', () => {
  test('returns the auth context of the token', async () => {
    const { auth } = await h.make();
    const r = await auth.register({
      email: 'a@example.com',
      password: 'password1',
      username: 'ayy',
    });
    expect(await auth.verifyToken(r.token)).toEqual({
      userId: r.user.id,
      roles: [],
      permissions: [],
      isAnonymous: false,
      aal: 'aal1',
      jwtClaims: {
        sub: r.user.id,
        email: 'a@example.com',
        aud: 'svc-api',
        iss: 'svc',
        username: 'ayy',
      },
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
      (
        await h.db().db.query<{ t: Date }>('select last_activity_at as t from svc_auth.sessions')
      ).rows[0]!.t.getTime();
    const start = await lastActivity();
    clock.advance(30);
    await auth.verifyToken(r.token);
    expect(await lastActivity()).toBe(start);
    clock.advance(30);
    await auth.verifyToken(r.token);
    expect(await lastActivity()).toBe(start + 60_000);
  });

  test("a deactivated user's token is refused with USER_INACTIVE", async () => {
    const { auth } = await h.make();
    const r = await auth.register({ email: 'in@example.com', password: 'password1' });
    await auth.setActive(r.user.id, false);
    expect(await codeOf(auth.verifyToken(r.token))).toBe('USER_INACTIVE');
  });
});

describe('checkToken: the same verdict as verifyToken, confirmed alone or through its probe', () => {
  type Made = Awaited<ReturnType<typeof h.make>>;
  /** The three ways to check a token: 'ok' or the error code of each. */
  async function verdicts(auth: Made['auth'], token: string) {
    const viaVerify = await codeOf(auth.verifyToken(token));
    let check: ReturnType<Made['auth']['checkToken']>;
    try {
      check = auth.checkToken(token);
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'thrown';
      return { viaVerify, viaConfirm: code, viaProbe: code };
    }
    const viaConfirm = await codeOf(check.confirm());
    const probe = check.probe;
    if (!probe) throw new Error('a store in the database gives a probe');
    // What the query engine does: the probe's SELECT in a statement, its row's text settled.
    const { rows } = await h
      .db()
      .db.query<{ text: string; live: boolean }>(probe.select('$1'), [probe.value]);
    const viaProbe = await codeOf(probe.settle(rows[0]?.text ?? null));
    // `live` is what SQL alone can tell (not the idle timeout): never true where settle refuses
    // for a reason SQL sees.
    if (viaProbe === 'USER_INACTIVE' || rows.length === 0)
      expect(rows[0]?.live ?? false).toBe(false);
    if (rows[0]?.live === false) expect(viaProbe).not.toBe(OK);
    return { viaVerify, viaConfirm, viaProbe };
  }
  const same = (code: string) => ({ viaVerify: code, viaConfirm: code, viaProbe: code });
  const OK = '(resolved)';

  test('live, then idle past sessionTimeout, then logged out', async () => {
    const { auth, clock } = await h.make({ tokenExpiry: 36000, sessionTimeout: 600 });
    const r = await auth.register({ email: 'ct@example.com', password: 'password1' });
    expect(await verdicts(auth, r.token)).toEqual(same(OK));
    expect(auth.checkToken(r.token).context).toEqual(await auth.verifyToken(r.token));
    clock.advance(601);
    expect(await verdicts(auth, r.token)).toEqual(same('SESSION_EXPIRED'));
    const again = await auth.login({ email: 'ct@example.com', password: 'password1' });
    if (!('token' in again)) throw new Error('signed in');
    await auth.logout(again.token);
    expect(await verdicts(auth, again.token)).toEqual(same('SESSION_EXPIRED'));
  });

  test('a deactivated user, a garbage token, an expired token', async () => {
    const { auth, clock } = await h.make({ tokenExpiry: 60, sessionTimeout: 3600 });
    const r = await auth.register({ email: 'cd@example.com', password: 'password1' });
    const other = await auth.register({ email: 'ce@example.com', password: 'password1' });
    await auth.setActive(r.user.id, false);
    expect(await verdicts(auth, r.token)).toEqual(same('USER_INACTIVE'));
    expect(await verdicts(auth, 'not.a.jwt')).toEqual(same('INVALID_TOKEN'));
    clock.advance(61);
    expect(await verdicts(auth, other.token)).toEqual(same('TOKEN_EXPIRED'));
  });

  test('the probe moves last activity forward when due, as verifyToken does', async () => {
    const { auth, clock } = await h.make({ sessionTimeout: 3600 });
    const r = await auth.register({ email: 'cl@example.com', password: 'password1' });
    const lastActivity = async () =>
      (
        await h.db().db.query<{ t: Date }>('select last_activity_at as t from svc_auth.sessions')
      ).rows[0]!.t.getTime();
    const start = await lastActivity();
    clock.advance(60);
    expect(await verdicts(auth, r.token)).toEqual(same(OK));
    expect(await lastActivity()).toBe(start + 60_000);
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
    expect(events.map((e) => e.eventType)).toEqual([
      'IdentityCreated',
      'IdentityAuthenticated',
      'IdentityAuthenticated',
    ]);
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

  // Issue 8: an idle session used to come back through refresh. A timed-out session answers
  // 401 SESSION_EXPIRED to any request using it (docs/http.md).
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
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => auth.refresh(r.refreshToken)),
    );
    const ok = results.filter((x) => x.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    for (const x of results)
      if (x.status === 'rejected')
        expect(x.reason).toMatchObject({ code: 'INVALID_REFRESH_TOKEN' });
    const { rows } = await h
      .db()
      .db.query('select count(*)::int as n from svc_auth.sessions where revoked_at is null');
    expect(rows).toEqual([{ n: 1 }]);
  });
});

describe('logout', () => {
  test('revokes only this session', async () => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'l@example.com', password: 'password1' });
    const b = await session(auth.login({ email: 'l@example.com', password: 'password1' }));
    await expect(auth.logout(a.token)).resolves.toBeUndefined();
    expect(await codeOf(auth.verifyToken(a.token))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.logout(a.token))).toBe('SESSION_EXPIRED');
    await expect(auth.verifyToken(b.token)).resolves.toBeDefined();
  });
});
