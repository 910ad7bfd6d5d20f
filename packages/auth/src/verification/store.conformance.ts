/** Conformance cases of the verification verbs (`verification/store.ts`). */
import { randomUUID } from 'node:crypto';
import { fresh, type StoreCaseScope } from '../store/conformance-kit';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function verificationStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user, session, hourAgo } = cx;
  describe('one-time tokens', () => {
    test('a new verification token replaces the earlier one', async () => {
      const u = await user();
      const v = await user();
      const [h1, h2, hv] = [fresh(), fresh(), fresh()];
      await cx.store.issueVerificationToken(u.id, h1, new Date(cx.t + 86_400_000));
      await cx.store.issueVerificationToken(v.id, hv, new Date(cx.t + 86_400_000));
      await cx.store.issueVerificationToken(u.id, h2, new Date(cx.t + 86_400_000));
      expect(await cx.store.consumeVerificationToken(h1)).toBeNull();
      expect(await cx.store.consumeVerificationToken(h2)).toBe(u.id);
      expect(await cx.store.consumeVerificationToken(h2)).toBeNull();
      expect(await cx.store.consumeVerificationToken(hv)).toBe(v.id); // another user's is untouched
    });

    test('an expired verification token is refused', async () => {
      const u = await user();
      const h1 = fresh();
      await cx.store.issueVerificationToken(u.id, h1, new Date(cx.t + 1000));
      cx.t += 1000;
      expect(await cx.store.consumeVerificationToken(h1)).toBeNull();
    });
  });
  describe('proveEmail: a sign-in proved the address (issue 26, pre-account takeover)', () => {
    /** Everything a pre-account can hold: sessions, tokens, a passkey, a link, a code, MFA. */
    async function preAccount() {
      // Made with a provider account linked without the provider vouching for the address.
      const u = await cx.store.createUserWithIdentity(
        { email: `pre${randomUUID().slice(0, 8)}@example.com`, passwordHash: '$2b$04$hash' },
        { provider: 'idp', subject: 'before', email: null },
      );
      const other = await user();
      await cx.store.proveEmail(other.id, { provider: 'idp', subject: 'other', email: null });
      const attackerSession = session(u.id);
      const held = {
        attackerSession,
        session: await cx.store.createSession(attackerSession),
        otherUsersSession: await cx.store.createSession(session(other.id)),
        reset: fresh(),
        verification: fresh(),
        oauthCode: fresh(),
      };
      await cx.store.issueResetToken(u.id, held.reset, new Date(cx.t + 3_600_000));
      await cx.store.issueVerificationToken(u.id, held.verification, new Date(cx.t + 3_600_000));
      await cx.store.createWebAuthnCredential({
        credentialId: `cred-${randomUUID()}`,
        userId: u.id,
        publicKey: Uint8Array.from([0x30, 0x59, 1, 2, 3]),
        signCount: 0,
        name: 'Attacker key',
        aaguid: '00'.repeat(16),
        backupEligible: false,
      });
      await cx.store.createUserWithIdentity(
        { email: `l${randomUUID().slice(0, 8)}@example.com`, passwordHash: null },
        { provider: 'idp', subject: 'unrelated', email: null },
      );
      await cx.store.putTotpSecret(u.id, 'sealed');
      await cx.store.confirmTotp(u.id, 'sealed', 1);
      await cx.store.replaceRecoveryCodes(u.id, ['r1', 'r2']);
      await cx.store.createMfaChallenge('open-challenge', u.id, new Date(cx.t + 300_000));
      await cx.store.issueOAuthCode({
        codeHash: held.oauthCode,
        userId: u.id,
        provider: 'idp',
        codeChallenge: null,
        expiresAt: new Date(cx.t + 120_000),
      });
      return { u, other, ...held };
    }

    for (const link of [undefined, { provider: 'idp', subject: 'proof', email: 'p@example.com' }])
      test(`an unverified address ${link ? 'with a link' : 'alone'}: verified; password, passkeys, earlier links, sessions and everything in flight dropped; second factors kept`, async () => {
        const p = await preAccount();
        cx.t += 1000;
        const proof = await cx.store.proveEmail(p.u.id, link);
        expect(proof).toEqual({
          user: { ...p.u, emailVerified: true, passwordHash: null, updatedAt: new Date(cx.t) },
          proved: true,
        });
        expect(await cx.store.findUserById(p.u.id)).toEqual(proof?.user);
        expect((await cx.store.sessionState(p.session.accessJti))?.revoked).toBe(true);
        expect(
          await cx.store.rotateSession(
            p.attackerSession.refreshHash,
            {
              accessJti: randomUUID(),
              refreshHash: fresh(),
              expiresAt: new Date(cx.t + 3_600_000),
            },
            hourAgo(),
          ),
        ).toBeNull();
        expect(await cx.store.consumeResetToken(p.reset)).toBeNull();
        expect(await cx.store.consumeVerificationToken(p.verification)).toBeNull();
        expect(await cx.store.consumeOAuthCode(p.oauthCode)).toBeNull();
        expect(await cx.store.attemptMfaChallenge('open-challenge', 5)).toBeNull();
        expect(await cx.store.listWebAuthnCredentials(p.u.id)).toEqual([]);
        expect((await cx.store.listIdentities(p.u.id)).map((i) => i.subject)).toEqual(
          link ? ['proof'] : [],
        );
        // Kept: the second factor, and everything of other users.
        expect(await cx.store.mfaState(p.u.id)).toEqual({
          totpConfirmed: true,
          unusedRecoveryCodes: 2,
        });
        expect((await cx.store.sessionState(p.otherUsersSession.accessJti))?.revoked).toBe(false);
        expect((await cx.store.findUserByIdentity('idp', 'other'))?.id).toBe(p.other.id);
        expect(await cx.store.findUserByIdentity('idp', 'unrelated')).not.toBeNull();
        // A session made after the proof (the prover's own) lives; proving again is a no-op.
        const mine = await cx.store.createSession(session(p.u.id));
        expect(await cx.store.proveEmail(p.u.id)).toMatchObject({ proved: false });
        expect((await cx.store.sessionState(mine.accessJti))?.revoked).toBe(false);
      });

    test('a verified address: nothing is dropped, only the link is made', async () => {
      const u = await user();
      await cx.store.markEmailVerified(u.id);
      const s = await cx.store.createSession(session(u.id));
      const reset = fresh();
      await cx.store.issueResetToken(u.id, reset, new Date(cx.t + 3_600_000));
      await cx.store.proveEmail(u.id, { provider: 'idp', subject: 'first', email: null });
      const proof = await cx.store.proveEmail(u.id, {
        provider: 'idp',
        subject: 'second',
        email: null,
      });
      expect(proof).toMatchObject({
        user: { id: u.id, emailVerified: true, passwordHash: '$2b$04$hash' },
        proved: false,
      });
      expect((await cx.store.sessionState(s.accessJti))?.revoked).toBe(false);
      expect(await cx.store.consumeResetToken(reset)).toBe(u.id);
      expect((await cx.store.listIdentities(u.id)).map((i) => i.subject)).toEqual([
        'first',
        'second',
      ]);
    });

    test('concurrent proofs of one address: exactly one proves it', async () => {
      const u = await user();
      const results = await Promise.all(Array.from({ length: 5 }, () => cx.store.proveEmail(u.id)));
      expect(results.filter((r) => r?.proved)).toHaveLength(1);
    });

    test('sessions rotated while the proof runs are dropped with the rest', async () => {
      // The attack: keep refreshing the pre-account's session while the owner proves the
      // address, hoping a rotation slips its new session past the revocation.
      for (let round = 0; round < 10; round++) {
        const u = await user();
        let current = session(u.id);
        await cx.store.createSession(current);
        const rotations = (async () => {
          for (let i = 0; i < 8; i++) {
            const following = session(u.id);
            const r = await cx.store.rotateSession(current.refreshHash, following, hourAgo());
            if (!r) return;
            current = following;
          }
        })();
        const [proof] = await Promise.all([cx.store.proveEmail(u.id), rotations]);
        expect(proof?.proved).toBe(true);
        expect(await cx.store.listLiveSessions(u.id, hourAgo())).toEqual([]);
      }
    }, 60_000);
  });
}
