import { codeOf, session, tokenOf, useCoreHarness } from '../__tests__/harness';

const h = useCoreHarness();
const GUEST_EMAIL =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}@anonymous\.invalid$/;

describe('signInAnonymously', () => {
  test('a guest user with a synthetic email and a session; IdentityCreated then IdentityAuthenticated', async () => {
    const { auth, events } = await h.make();
    const r = await auth.signInAnonymously({ ip: '10.0.0.7', userAgent: 'jest' });
    expect(r.user.email).toMatch(GUEST_EMAIL);
    expect(r.user).toMatchObject({ emailVerified: false, active: true, metadata: {} });
    expect(r.session.userId).toBe(r.user.id);
    expect(Object.keys(r.user)).not.toContain('isAnonymous');
    await expect(auth.verifyToken(r.token)).resolves.toMatchObject({ userId: r.user.id });
    await auth.settle();
    expect(events.map((e) => e.eventType)).toEqual(['IdentityCreated', 'IdentityAuthenticated']);
    const other = await auth.signInAnonymously();
    expect(other.user.id).not.toBe(r.user.id);
  });

  test('a guest cannot log in by password, nor get a reset or verification mail', async () => {
    const { auth, events } = await h.make({ requireEmailVerification: false });
    const r = await auth.signInAnonymously();
    expect(await codeOf(auth.login({ email: r.user.email, password: 'anything-at-all' }))).toBe(
      'INVALID_CREDENTIALS',
    );
    await auth.requestReset(r.user.email);
    await auth.resendVerification(r.user.email);
    await auth.settle();
    expect(events.map((e) => e.eventType)).not.toContain('PasswordResetRequested');
    expect(events.map((e) => e.eventType)).not.toContain('EmailVerificationRequested');
  });

  test('REGISTRATION_DISABLED when registration is off', async () => {
    const { auth } = await h.make({ allowRegistration: false });
    expect(await codeOf(auth.signInAnonymously())).toBe('REGISTRATION_DISABLED');
  });

  test('the anonymous rate limit counts per client address (configurable)', async () => {
    const { auth, clock } = await h.make({ rateLimits: { anonymous: { perIp: 2 } } });
    await auth.signInAnonymously({ ip: '10.9.9.9' });
    await auth.signInAnonymously({ ip: '10.9.9.9' });
    const err = await auth.signInAnonymously({ ip: '10.9.9.9' }).catch((e) => e);
    expect(err).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    await expect(auth.signInAnonymously({ ip: '10.9.9.10' })).resolves.toBeDefined();
    clock.advance(61);
    await expect(auth.signInAnonymously({ ip: '10.9.9.9' })).resolves.toBeDefined();
  });
});

describe('upgrade', () => {
  test('same user id; email and password replaced; old sessions end; a new session works', async () => {
    const { auth, events } = await h.make();
    const g = await auth.signInAnonymously();
    const second = await auth.refresh(g.refreshToken);
    const up = await session(
      auth.upgrade(second.token, { email: 'New@Example.com', password: 'password1' }),
    );
    expect(up.user).toMatchObject({
      id: g.user.id,
      email: 'new@example.com',
      emailVerified: false,
    });
    expect(await codeOf(auth.verifyToken(second.token))).toBe('SESSION_EXPIRED');
    await expect(auth.verifyToken(up.token)).resolves.toMatchObject({ userId: g.user.id });
    const login = await session(auth.login({ email: 'new@example.com', password: 'password1' }));
    expect(login.user.id).toBe(g.user.id);
    // no longer a guest: a second upgrade is refused
    expect(
      await codeOf(auth.upgrade(up.token, { email: 'z@example.com', password: 'password1' })),
    ).toBe('INVALID_OPERATION');
    await auth.settle();
    expect(events.filter((e) => e.eventType === 'IdentityCreated')).toHaveLength(1);
  });

  test('a non-guest gets INVALID_OPERATION (400)', async () => {
    const { auth } = await h.make();
    const r = await auth.register({ email: 'reg@example.com', password: 'password1' });
    const err = await auth
      .upgrade(r.token, { email: 'other@example.com', password: 'password1' })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'INVALID_OPERATION', status: 400 });
  });

  test('taken email USER_ALREADY_EXISTS, weak password PASSWORD_TOO_WEAK, bad email VALIDATION_ERROR; the guest stays a guest', async () => {
    const { auth } = await h.make({ passwordMinLength: 10 });
    await auth.register({ email: 'taken@example.com', password: 'password123' });
    const g = await auth.signInAnonymously();
    expect(
      await codeOf(auth.upgrade(g.token, { email: 'TAKEN@example.com', password: 'password123' })),
    ).toBe('USER_ALREADY_EXISTS');
    expect(
      await codeOf(auth.upgrade(g.token, { email: 'ok@example.com', password: 'short' })),
    ).toBe('PASSWORD_TOO_WEAK');
    expect(await codeOf(auth.upgrade(g.token, { email: 'nope', password: 'password123' }))).toBe(
      'VALIDATION_ERROR',
    );
    expect(
      await codeOf(
        auth.upgrade(g.token, { email: 'x@anonymous.invalid', password: 'password123' }),
      ),
    ).toBe('VALIDATION_ERROR');
    expect(
      await codeOf(
        auth.upgrade(g.token, { email: 1 as unknown as string, password: 'password123' }),
      ),
    ).toBe('VALIDATION_ERROR');
    // still a guest, session alive
    await expect(auth.verifyToken(g.token)).resolves.toBeDefined();
    const up = await session(
      auth.upgrade(g.token, { email: 'ok@example.com', password: 'password123' }),
    );
    expect(up.user.id).toBe(g.user.id);
  });

  test('with requireEmailVerification the new address gets a verification token', async () => {
    const { auth, events } = await h.make({ requireEmailVerification: true });
    const g = await auth.signInAnonymously();
    await auth.upgrade(g.token, { email: 'verify-me@example.com', password: 'password1' });
    await auth.settle();
    const token = tokenOf(events, 'EmailVerificationRequested', 'verificationToken');
    expect(token).toBeDefined();
    await auth.verifyEmail(token);
    expect((await auth.findUser('verify-me@example.com'))?.emailVerified).toBe(true);
  });

  test('an invalid or ended session is refused before anything else', async () => {
    const { auth } = await h.make();
    const g = await auth.signInAnonymously();
    await auth.logout(g.token);
    expect(
      await codeOf(auth.upgrade(g.token, { email: 'late@example.com', password: 'password1' })),
    ).toBe('SESSION_EXPIRED');
    expect(
      await codeOf(auth.upgrade('junk', { email: 'late@example.com', password: 'password1' })),
    ).toBe('INVALID_TOKEN');
  });
});

describe('guest tokens say so (DECISIONS "Added 2026-11-29": "is_anonymous": true, as Supabase)', () => {
  const payload = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as Record<
      string,
      unknown
    >;

  test('a guest session and its refreshes carry is_anonymous: true; the context says isAnonymous', async () => {
    const { auth } = await h.make();
    const g = await auth.signInAnonymously();
    expect(payload(g.token).is_anonymous).toBe(true);
    await expect(auth.verifyToken(g.token)).resolves.toMatchObject({ isAnonymous: true });
    const refreshed = await auth.refresh(g.refreshToken);
    expect(payload(refreshed.token).is_anonymous).toBe(true);
    await expect(auth.verifyToken(refreshed.token)).resolves.toMatchObject({ isAnonymous: true });
  });

  test('signed-in users carry no such claim; after the upgrade neither do the new tokens', async () => {
    const { auth } = await h.make();
    const r = await auth.register({ email: 'member@example.com', password: 'password1' });
    expect(payload(r.token)).not.toHaveProperty('is_anonymous');
    await expect(auth.verifyToken(r.token)).resolves.toMatchObject({ isAnonymous: false });
    const login = await session(auth.login({ email: 'member@example.com', password: 'password1' }));
    expect(payload(login.token)).not.toHaveProperty('is_anonymous');

    const g = await auth.signInAnonymously();
    const up = await session(
      auth.upgrade(g.token, { email: 'upgraded@example.com', password: 'password1' }),
    );
    expect(payload(up.token)).not.toHaveProperty('is_anonymous');
    await expect(auth.verifyToken(up.token)).resolves.toMatchObject({
      userId: g.user.id,
      isAnonymous: false,
    });
    const refreshed = await auth.refresh(up.refreshToken);
    expect(payload(refreshed.token)).not.toHaveProperty('is_anonymous');
  });

  // Attack: a `claims(user)` hook (host code fed by user data) writes is_anonymous, making a
  // member pass for a guest or a guest for a member in the policies that read it.
  test('the claims hook can neither add nor remove the flag', async () => {
    const { auth } = await h.make({
      claims: (user) => ({
        is_anonymous: !user.email.endsWith('@anonymous.invalid'),
        permissions: ['notes:read'],
      }),
    });
    const r = await auth.register({ email: 'hooked@example.com', password: 'password1' });
    expect(payload(r.token)).not.toHaveProperty('is_anonymous');
    await expect(auth.verifyToken(r.token)).resolves.toMatchObject({
      isAnonymous: false,
      permissions: ['notes:read'],
    });
    const g = await auth.signInAnonymously();
    expect(payload(g.token).is_anonymous).toBe(true);
  });
});
