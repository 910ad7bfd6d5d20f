/** Conformance cases of the MFA verbs (`mfa/store.ts`). */
import { T0, type StoreCaseScope } from '../store/conformance-kit';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function mfaStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user } = cx;
  describe('mfa', () => {
    test('a TOTP enrolment is pending until confirmed; enrolling again replaces it', async () => {
      const u = await user();
      expect(await cx.store.totpFactor(u.id)).toBeNull();
      expect(await cx.store.mfaState(u.id)).toEqual({
        totpConfirmed: false,
        unusedRecoveryCodes: 0,
      });
      await cx.store.putTotpSecret(u.id, 'sealed-1');
      expect(await cx.store.totpFactor(u.id)).toEqual({
        userId: u.id,
        secretCiphertext: 'sealed-1',
        confirmedAt: null,
        lastUsedStep: null,
      });
      // Pending: no step can be used, the state owes nothing.
      expect(await cx.store.useTotpStep(u.id, 5)).toBe(false);
      expect((await cx.store.mfaState(u.id)).totpConfirmed).toBe(false);
      await cx.store.putTotpSecret(u.id, 'sealed-2');
      // The first secret is gone: confirming it fails.
      expect(await cx.store.confirmTotp(u.id, 'sealed-1', 10)).toBe(false);
      expect(await cx.store.confirmTotp(u.id, 'sealed-2', 10)).toBe(true);
      expect(await cx.store.confirmTotp(u.id, 'sealed-2', 11)).toBe(false);
      expect(await cx.store.totpFactor(u.id)).toMatchObject({
        confirmedAt: new Date(T0),
        lastUsedStep: 10,
      });
      expect((await cx.store.mfaState(u.id)).totpConfirmed).toBe(true);
      await cx.store.putTotpSecret(u.id, 'sealed-3');
      expect(await cx.store.totpFactor(u.id)).toMatchObject({
        confirmedAt: null,
        lastUsedStep: null,
      });
      expect(await cx.store.deleteTotp(u.id)).toBe(true);
      expect(await cx.store.deleteTotp(u.id)).toBe(false);
      expect(await cx.store.totpFactor(u.id)).toBeNull();
    });

    test('TOTP steps only go forward, and of concurrent uses of one step exactly one wins', async () => {
      const u = await user();
      await cx.store.putTotpSecret(u.id, 's');
      await cx.store.confirmTotp(u.id, 's', 100);
      expect(await cx.store.useTotpStep(u.id, 100)).toBe(false);
      expect(await cx.store.useTotpStep(u.id, 99)).toBe(false);
      const wins = await Promise.all(
        Array.from({ length: 6 }, () => cx.store.useTotpStep(u.id, 101)),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await cx.store.totpFactor(u.id))?.lastUsedStep).toBe(101);
      // Steps beyond 2^31 (bigint column) round-trip.
      expect(await cx.store.useTotpStep(u.id, 3_000_000_000)).toBe(true);
      expect((await cx.store.totpFactor(u.id))?.lastUsedStep).toBe(3_000_000_000);
    });

    test('recovery codes: a new batch kills the old; each code burns once, concurrently too', async () => {
      const u = await user();
      const other = await user();
      await cx.store.replaceRecoveryCodes(u.id, ['a', 'b', 'c']);
      await cx.store.replaceRecoveryCodes(other.id, ['a']);
      expect((await cx.store.mfaState(u.id)).unusedRecoveryCodes).toBe(3);
      const wins = await Promise.all(
        Array.from({ length: 5 }, () => cx.store.consumeRecoveryCode(u.id, 'a')),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await cx.store.mfaState(u.id)).unusedRecoveryCodes).toBe(2);
      // Another user's code of the same hash is untouched.
      expect((await cx.store.mfaState(other.id)).unusedRecoveryCodes).toBe(1);
      await cx.store.replaceRecoveryCodes(u.id, ['d']);
      expect(await cx.store.consumeRecoveryCode(u.id, 'b')).toBe(false);
      expect(await cx.store.consumeRecoveryCode(u.id, 'd')).toBe(true);
      expect((await cx.store.mfaState(u.id)).unusedRecoveryCodes).toBe(0);
    });

    test('challenges: tries are counted up to the bound; expiry and consumption end them', async () => {
      const u = await user();
      await cx.store.createMfaChallenge('h1', u.id, new Date(cx.t + 300_000));
      for (let i = 0; i < 3; i++) expect(await cx.store.attemptMfaChallenge('h1', 3)).toBe(u.id);
      expect(await cx.store.attemptMfaChallenge('h1', 3)).toBeNull();
      expect(await cx.store.attemptMfaChallenge('nope', 3)).toBeNull();

      await cx.store.createMfaChallenge('h2', u.id, new Date(cx.t + 300_000));
      const tries = await Promise.all(
        Array.from({ length: 8 }, () => cx.store.attemptMfaChallenge('h2', 5)),
      );
      expect(tries.filter((x) => x === u.id)).toHaveLength(5);

      await cx.store.createMfaChallenge('h3', u.id, new Date(cx.t + 300_000));
      cx.t += 300_000;
      expect(await cx.store.attemptMfaChallenge('h3', 5)).toBeNull();
      expect(await cx.store.completeMfaChallenge('h3', { kind: 'totp', step: 1 })).toBe(
        'challenge-dead',
      );
    });

    test('completing a challenge spends the proof with it, both or neither', async () => {
      const u = await user();
      await cx.store.putTotpSecret(u.id, 's');
      await cx.store.confirmTotp(u.id, 's', 100);
      await cx.store.replaceRecoveryCodes(u.id, ['code']);
      await cx.store.createMfaChallenge('c1', u.id, new Date(cx.t + 300_000));
      // A replayed step: refused, and the challenge stays open.
      expect(await cx.store.completeMfaChallenge('c1', { kind: 'totp', step: 100 })).toBe(
        'proof-refused',
      );
      expect(
        await cx.store.completeMfaChallenge('c1', { kind: 'recovery-code', codeHash: 'x' }),
      ).toBe('proof-refused');
      expect(await cx.store.completeMfaChallenge('c1', { kind: 'totp', step: 101 })).toBe(
        'completed',
      );
      expect(await cx.store.completeMfaChallenge('c1', { kind: 'totp', step: 102 })).toBe(
        'challenge-dead',
      );
      // The dead challenge did not spend step 102.
      expect((await cx.store.totpFactor(u.id))?.lastUsedStep).toBe(101);

      await cx.store.createMfaChallenge('c2', u.id, new Date(cx.t + 300_000));
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          cx.store.completeMfaChallenge('c2', { kind: 'recovery-code', codeHash: 'code' }),
        ),
      );
      expect(results.filter((r) => r === 'completed')).toHaveLength(1);
      expect((await cx.store.mfaState(u.id)).unusedRecoveryCodes).toBe(0);
    });
  });
}
