/** Conformance cases of the WebAuthn verbs (`webauthn/store.ts`). */
import { randomUUID } from 'node:crypto';
import { fresh, type StoreCaseScope } from '../store/conformance-kit';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function webAuthnStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user } = cx;
  describe('webauthn', () => {
    const challenge = (userId: string | null, ceremony: 'register' | 'login' = 'register') => ({
      ceremony,
      userId,
      challengeHash: fresh(),
      expiresAt: new Date(cx.t + 300_000),
    });
    const credential = (userId: string, credentialId = `cred-${randomUUID()}`) => ({
      credentialId,
      userId,
      publicKey: Uint8Array.from([0x30, 0x59, 1, 2, 3]),
      signCount: 0,
      name: 'Laptop',
      aaguid: '00'.repeat(16),
      backupEligible: true,
    });

    test('a challenge is consumed once, only for its ceremony, only before it expires', async () => {
      const u = await user();
      const c = challenge(u.id);
      const id = await cx.store.createWebAuthnChallenge(c);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await cx.store.consumeWebAuthnChallenge(id, 'login')).toBeNull();
      expect(await cx.store.consumeWebAuthnChallenge(id, 'register')).toEqual({
        id,
        ceremony: 'register',
        userId: u.id,
        challengeHash: c.challengeHash,
        expiresAt: c.expiresAt,
        secondFactor: false,
      });
      expect(await cx.store.consumeWebAuthnChallenge(id, 'register')).toBeNull();
      // A registration begun with the second factor proven says so at its finish.
      const proven = await cx.store.createWebAuthnChallenge({
        ...challenge(u.id),
        secondFactor: true,
      });
      expect((await cx.store.consumeWebAuthnChallenge(proven, 'register'))?.secondFactor).toBe(
        true,
      );
      const late = await cx.store.createWebAuthnChallenge(challenge(null, 'login'));
      cx.t += 300_000;
      expect(await cx.store.consumeWebAuthnChallenge(late, 'login')).toBeNull();
      expect(await cx.store.consumeWebAuthnChallenge('not-a-uuid', 'login')).toBeNull();
      expect(await cx.store.consumeWebAuthnChallenge(randomUUID(), 'login')).toBeNull();
    });

    test('concurrent consumers of one challenge: exactly one gets it', async () => {
      const id = await cx.store.createWebAuthnChallenge(challenge(null, 'login'));
      const got = await Promise.all(
        Array.from({ length: 6 }, () => cx.store.consumeWebAuthnChallenge(id, 'login')),
      );
      expect(got.filter((g) => g !== null)).toHaveLength(1);
    });

    test("credentials: create (unique id across users), find, list oldest first, delete only the owner's", async () => {
      const u = await user();
      const v = await user();
      const a = await cx.store.createWebAuthnCredential(credential(u.id, 'cred-a'));
      expect(a).toEqual({
        ...credential(u.id, 'cred-a'),
        createdAt: new Date(cx.t),
        lastUsedAt: null,
      });
      cx.t += 1000;
      await cx.store.createWebAuthnCredential(credential(u.id, 'cred-b'));
      expect(await cx.store.createWebAuthnCredential(credential(v.id, 'cred-a'))).toBeNull();
      expect(await cx.store.findWebAuthnCredential('cred-a')).toEqual(a);
      expect(await cx.store.findWebAuthnCredential('cred-z')).toBeNull();
      expect((await cx.store.listWebAuthnCredentials(u.id)).map((c) => c.credentialId)).toEqual([
        'cred-a',
        'cred-b',
      ]);
      expect(await cx.store.listWebAuthnCredentials(v.id)).toEqual([]);
      expect(await cx.store.listWebAuthnCredentials('not-a-uuid')).toEqual([]);
      expect(await cx.store.deleteWebAuthnCredential(v.id, 'cred-a')).toBe(false);
      expect(await cx.store.deleteWebAuthnCredential(u.id, 'cred-a')).toBe(true);
      expect(await cx.store.deleteWebAuthnCredential(u.id, 'cred-a')).toBe(false);
      expect(await cx.store.findWebAuthnCredential('cred-a')).toBeNull();
    });

    test('a use moves the counter forward only (0 and 0 always pass) and stamps lastUsedAt', async () => {
      const u = await user();
      await cx.store.createWebAuthnCredential(credential(u.id, 'c0'));
      cx.t += 5000;
      expect(await cx.store.useWebAuthnCredential('c0', 0)).toBe(true);
      expect(await cx.store.useWebAuthnCredential('c0', 0)).toBe(true);
      expect((await cx.store.findWebAuthnCredential('c0'))?.lastUsedAt).toEqual(new Date(cx.t));
      expect(await cx.store.useWebAuthnCredential('c0', 4)).toBe(true);
      for (const n of [4, 3, 0]) expect(await cx.store.useWebAuthnCredential('c0', n)).toBe(false);
      expect((await cx.store.findWebAuthnCredential('c0'))?.signCount).toBe(4);
      expect(await cx.store.useWebAuthnCredential('c0', 2 ** 32 - 1)).toBe(true);
      expect((await cx.store.findWebAuthnCredential('c0'))?.signCount).toBe(2 ** 32 - 1);
      expect(await cx.store.useWebAuthnCredential('missing', 9)).toBe(false);
      const racing = await Promise.all(
        Array.from({ length: 4 }, () => cx.store.useWebAuthnCredential('c0', 2 ** 32 - 1)),
      );
      expect(racing.filter(Boolean)).toHaveLength(0);
    });
  });
}
