import { codeOf, tokenOf, useCoreHarness } from '../__tests__/harness';

const h = useCoreHarness();

describe('email verification', () => {
  test('verifyEmail from "another device" (just the token) verifies, consumes, emits EmailVerified', async () => {
    const { auth, events } = await h.make({ requireEmailVerification: true });
    const r = await auth.register({ email: 've@example.com', password: 'password1' });
    await auth.settle();
    const token = tokenOf(events, 'EmailVerificationRequested', 'verificationToken');
    await auth.verifyEmail(token);
    expect(await auth.findUser(r.user.id)).toMatchObject({ emailVerified: true });
    await auth.settle();
    expect(events.at(-1)).toMatchObject({
      eventType: 'EmailVerified',
      userId: r.user.id,
      email: 've@example.com',
    });
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
    expect(
      await codeOf(
        auth.verifyEmail(tokenOf(events, 'EmailVerificationRequested', 'verificationToken')),
      ),
    ).toBe('INVALID_TOKEN');
  });
});
