/** Conformance cases of the OAuth verbs (`oauth/store.ts`). */
import { randomUUID } from 'node:crypto';
import { T0, fresh, type StoreCaseScope } from '../store/conformance-kit';
import type { NewOAuthState } from '../store/types';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function oauthStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user, session } = cx;
  describe('oauth', () => {
    const newState = (over: Partial<NewOAuthState> = {}): NewOAuthState => ({
      stateHash: fresh(),
      provider: 'idp',
      redirectUri: 'https://app.example.com/cb',
      callbackUrl: 'https://api.example.com/auth/oauth/idp/callback',
      nonceHash: fresh(),
      verifierSealed: 'sealed',
      codeChallenge: null,
      expiresAt: new Date(cx.t + 600_000),
      ...over,
    });

    test('a state is consumed once, by its provider, before it expires', async () => {
      const st = newState({ codeChallenge: 'c'.repeat(43) });
      await cx.store.createOAuthState(st);
      expect(await cx.store.consumeOAuthState(st.stateHash, 'other')).toBeNull();
      expect(await cx.store.consumeOAuthState(st.stateHash, 'idp')).toEqual({
        provider: 'idp',
        redirectUri: st.redirectUri,
        callbackUrl: st.callbackUrl,
        nonceHash: st.nonceHash,
        verifierSealed: 'sealed',
        codeChallenge: 'c'.repeat(43),
      });
      expect(await cx.store.consumeOAuthState(st.stateHash, 'idp')).toBeNull();
      const late = newState();
      await cx.store.createOAuthState(late);
      cx.t += 600_000;
      expect(await cx.store.consumeOAuthState(late.stateHash, 'idp')).toBeNull();
      expect(await cx.store.consumeOAuthState(fresh(), 'idp')).toBeNull();
    });

    test('concurrent callbacks with one state: exactly one consumes it', async () => {
      const st = newState();
      await cx.store.createOAuthState(st);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => cx.store.consumeOAuthState(st.stateHash, 'idp')),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });

    test('createUserWithIdentity makes both; findUserByIdentity finds the user', async () => {
      const u = await cx.store.createUserWithIdentity(
        { email: 'Oa@Example.com', passwordHash: null, emailVerified: true },
        { provider: 'idp', subject: 's-1', email: 'Oa@Example.com' },
      );
      expect(u).toMatchObject({
        email: 'oa@example.com',
        passwordHash: null,
        emailVerified: true,
      });
      expect((await cx.store.findUserByIdentity('idp', 's-1'))?.id).toBe(u.id);
      expect(await cx.store.findUserByIdentity('idp', 's-2')).toBeNull();
      expect(await cx.store.findUserByIdentity('other', 's-1')).toBeNull();
      expect(await cx.store.listIdentities(u.id)).toEqual([
        {
          provider: 'idp',
          subject: 's-1',
          email: 'oa@example.com',
          userId: u.id,
          createdAt: new Date(T0),
        },
      ]);
    });

    test('createUserWithIdentity: a taken email or identity writes nothing', async () => {
      await cx.store.createUserWithIdentity(
        { email: 'one@example.com', passwordHash: null },
        { provider: 'idp', subject: 's-1', email: null },
      );
      await expect(
        cx.store.createUserWithIdentity(
          { email: 'two@example.com', passwordHash: null },
          { provider: 'idp', subject: 's-1', email: null },
        ),
      ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
      expect(await cx.store.findUserByEmail('two@example.com')).toBeNull();
      await expect(
        cx.store.createUserWithIdentity(
          { email: 'one@example.com', passwordHash: null },
          { provider: 'idp', subject: 's-2', email: null },
        ),
      ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
      expect(await cx.store.findUserByIdentity('idp', 's-2')).toBeNull();
    });

    test('proveEmail with a link: a user may have several; one identity belongs to one user', async () => {
      const a = await user();
      const b = await user();
      await cx.store.markEmailVerified(a.id);
      await cx.store.markEmailVerified(b.id);
      const first = await cx.store.proveEmail(a.id, { provider: 'idp', subject: 'x', email: null });
      expect(first).toMatchObject({ user: { id: a.id }, proved: false });
      cx.t += 1;
      await cx.store.proveEmail(a.id, { provider: 'gh', subject: '42', email: null });
      // Linking the same identity again is a no-op.
      await cx.store.proveEmail(a.id, { provider: 'idp', subject: 'x', email: null });
      expect(
        (await cx.store.listIdentities(a.id)).map((i) => `${i.provider}:${i.subject}`),
      ).toEqual(['idp:x', 'gh:42']);
      await expect(
        cx.store.proveEmail(b.id, { provider: 'idp', subject: 'x', email: null }),
      ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
      expect(await cx.store.listIdentities(b.id)).toEqual([]);
      expect(
        await cx.store.proveEmail(randomUUID(), { provider: 'idp', subject: 'y', email: null }),
      ).toBeNull();
      expect(await cx.store.proveEmail('not-a-uuid')).toBeNull();
    });

    test('proveEmail of an address linked to another user changes nothing, even when unverified', async () => {
      const a = await user();
      const b = await user();
      await cx.store.proveEmail(a.id, { provider: 'idp', subject: 'x', email: null });
      const s = await cx.store.createSession(session(b.id));
      await expect(
        cx.store.proveEmail(b.id, { provider: 'idp', subject: 'x', email: null }),
      ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
      expect(await cx.store.findUserById(b.id)).toMatchObject({
        emailVerified: false,
        passwordHash: '$2b$04$hash',
      });
      expect((await cx.store.sessionState(s.accessJti))?.revoked).toBe(false);
    });
    test('a code is consumed once before it expires', async () => {
      const u = await user();
      const codeHash = fresh();
      await cx.store.issueOAuthCode({
        codeHash,
        userId: u.id,
        provider: 'idp',
        codeChallenge: null,
        expiresAt: new Date(cx.t + 120_000),
      });
      const results = await Promise.all(
        Array.from({ length: 4 }, () => cx.store.consumeOAuthCode(codeHash)),
      );
      expect(results.filter((r) => r !== null)).toEqual([
        { userId: u.id, provider: 'idp', codeChallenge: null },
      ]);
      const late = fresh();
      await cx.store.issueOAuthCode({
        codeHash: late,
        userId: u.id,
        provider: 'idp',
        codeChallenge: 'c'.repeat(43),
        expiresAt: new Date(cx.t + 120_000),
      });
      cx.t += 120_000;
      expect(await cx.store.consumeOAuthCode(late)).toBeNull();
    });
  });
}
