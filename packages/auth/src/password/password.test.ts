import { codeOf, tokenOf, useCoreHarness, session } from '../__tests__/harness';

const h = useCoreHarness();

describe('changePassword', () => {
  test("success revokes ALL the user's sessions; the new password logs in, the old does not", async () => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'cp@example.com', password: 'password1' });
    const b = await session(auth.login({ email: 'cp@example.com', password: 'password1' }));
    const other = await auth.register({ email: 'other@example.com', password: 'password1' });
    await auth.changePassword(a.token, 'password1', 'password2');
    for (const t of [a.token, b.token])
      expect(await codeOf(auth.verifyToken(t))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.refresh(b.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    await expect(auth.verifyToken(other.token)).resolves.toBeDefined();
    expect(await codeOf(auth.login({ email: 'cp@example.com', password: 'password1' }))).toBe(
      'INVALID_CREDENTIALS',
    );
    await expect(
      auth.login({ email: 'cp@example.com', password: 'password2' }),
    ).resolves.toBeDefined();
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
    expect(reset).toMatchObject({
      userId: a.user.id,
      email: 'rs@example.com',
      resetToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    clock.advance(3599);
    await auth.confirmReset(reset.resetToken!, 'password2');
    expect(await codeOf(auth.verifyToken(a.token))).toBe('SESSION_EXPIRED');
    expect(await codeOf(auth.refresh(a.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    await expect(
      auth.login({ email: 'rs@example.com', password: 'password2' }),
    ).resolves.toBeDefined();
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
    expect(
      await codeOf(
        auth.confirmReset(tokenOf(events, 'PasswordResetRequested', 'resetToken'), 'password2'),
      ),
    ).toBe('INVALID_TOKEN');
  });

  test.each([
    ['an unknown token', 'B'.repeat(43)],
    ['garbage', '!!'],
    ['a non-string', null],
  ])('confirmReset with %s is INVALID_TOKEN', async (_n, token) => {
    const { auth } = await h.make();
    expect(await codeOf(auth.confirmReset(token as never, 'password2'))).toBe('INVALID_TOKEN');
  });

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
  test.each(['nobody@example.com', 'not an email', ''])(
    'requestReset(%j) resolves silently',
    async (email) => {
      const { auth, events } = await h.make();
      await expect(auth.requestReset(email)).resolves.toBeUndefined();
      await auth.settle();
      expect(events).toEqual([]);
    },
  );

  test('the reset token is stored as its SHA-256 only', async () => {
    const { auth, events } = await h.make();
    await auth.register({ email: 'sh@example.com', password: 'password1' });
    await auth.requestReset('sh@example.com');
    await auth.settle();
    const token = tokenOf(events, 'PasswordResetRequested', 'resetToken');
    const { rows } = await h
      .db()
      .db.query<{ token_hash: string }>('select token_hash from svc_auth.reset_tokens');
    const { createHash } = await import('node:crypto');
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
  });
});
