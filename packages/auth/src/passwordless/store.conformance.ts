/** Conformance cases of the passwordless verbs (`passwordless/store.ts`). */
import { randomUUID } from 'node:crypto';
import { fresh, type StoreCaseScope } from '../store/conformance-kit';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function passwordlessStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user } = cx;
  describe('passwordless: magic links and codes', () => {
    const soon = () => new Date(cx.t + 900_000);
    const pending = () => `new-${randomUUID().slice(0, 8)}@example.com`;

    test('a magic link is single use; a newer one supersedes the older; others are untouched', async () => {
      const u = await user();
      const v = await user();
      const [h1, h2, hv] = [fresh(), fresh(), fresh()];
      await cx.store.issueMagicLinkToken(u.id, h1, soon());
      await cx.store.issueMagicLinkToken(v.id, hv, soon());
      await cx.store.issueMagicLinkToken(u.id, h2, soon());
      expect(await cx.store.redeemMagicLink(h1)).toBeNull();
      expect(await cx.store.redeemMagicLink(h2)).toEqual({ kind: 'user', userId: u.id });
      expect(await cx.store.redeemMagicLink(h2)).toBeNull();
      expect(await cx.store.redeemMagicLink(fresh())).toBeNull();
      expect(await cx.store.redeemMagicLink(hv)).toEqual({ kind: 'user', userId: v.id });
    });

    test('an expired magic link is refused', async () => {
      const u = await user();
      const h = fresh();
      await cx.store.issueMagicLinkToken(u.id, h, soon());
      cx.t += 900_000;
      expect(await cx.store.redeemMagicLink(h)).toBeNull();
    });

    test('a signup token carries its pending email (lower-cased), single use, newest wins', async () => {
      const email = pending();
      const [h1, h2] = [fresh(), fresh()];
      await cx.store.issueMagicLinkSignupToken(email.toUpperCase(), h1, soon());
      await cx.store.issueMagicLinkSignupToken(email, h2, soon());
      expect(await cx.store.redeemMagicLink(h1)).toBeNull();
      expect(await cx.store.redeemMagicLink(h2)).toEqual({ kind: 'signup', email });
      expect(await cx.store.redeemMagicLink(h2)).toBeNull();
      const h3 = fresh();
      await cx.store.issueMagicLinkSignupToken(email, h3, soon());
      cx.t += 900_000;
      expect(await cx.store.redeemMagicLink(h3)).toBeNull();
    });

    test('concurrent redemption of one magic link: exactly one wins', async () => {
      const u = await user();
      const h = fresh();
      await cx.store.issueMagicLinkToken(u.id, h, soon());
      const hs = fresh();
      await cx.store.issueMagicLinkSignupToken(pending(), hs, soon());
      for (const hash of [h, hs]) {
        const results = await Promise.all(
          Array.from({ length: 10 }, () => cx.store.redeemMagicLink(hash)),
        );
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      }
    });

    test('a magic code: the right digest consumes it once; a wrong one counts a try', async () => {
      const u = await user();
      const [right, wrong] = [fresh(), fresh()];
      await cx.store.issueMagicCode(u.id, right, new Date(cx.t + 600_000));
      expect(await cx.store.verifyMagicCode(u.id, wrong, 5)).toBe('wrong');
      expect(await cx.store.verifyMagicCode(u.id, right, 5)).toBe('ok');
      expect(await cx.store.verifyMagicCode(u.id, right, 5)).toBe('none');
      expect(await cx.store.verifyMagicCode((await user()).id, right, 5)).toBe('none');
      expect(await cx.store.verifyMagicCode(randomUUID(), right, 5)).toBe('none');
      expect(await cx.store.verifyMagicCode('not-a-uuid', right, 5)).toBe('none');
    });

    test('a magic code dies after maxAttempts wrong tries, and at its expiry', async () => {
      const u = await user();
      const right = fresh();
      await cx.store.issueMagicCode(u.id, right, new Date(cx.t + 600_000));
      for (let i = 0; i < 5; i++)
        expect(await cx.store.verifyMagicCode(u.id, fresh(), 5)).toBe('wrong');
      expect(await cx.store.verifyMagicCode(u.id, right, 5)).toBe('none');
      // A new code starts afresh and replaces the old.
      const next = fresh();
      await cx.store.issueMagicCode(u.id, next, new Date(cx.t + 600_000));
      expect(await cx.store.verifyMagicCode(u.id, right, 5)).toBe('wrong');
      cx.t += 600_000;
      expect(await cx.store.verifyMagicCode(u.id, next, 5)).toBe('none');
    });

    test('a new magic code kills the earlier one', async () => {
      const u = await user();
      const [first, second] = [fresh(), fresh()];
      await cx.store.issueMagicCode(u.id, first, new Date(cx.t + 600_000));
      await cx.store.issueMagicCode(u.id, second, new Date(cx.t + 600_000));
      expect(await cx.store.verifyMagicCode(u.id, first, 5)).toBe('wrong');
      expect(await cx.store.verifyMagicCode(u.id, second, 5)).toBe('ok');
    });

    test('concurrent magic-code checks never pass the try limit nor consume twice', async () => {
      const u = await user();
      const right = fresh();
      await cx.store.issueMagicCode(u.id, right, new Date(cx.t + 600_000));
      const wrongs = await Promise.all(
        Array.from({ length: 12 }, () => cx.store.verifyMagicCode(u.id, fresh(), 5)),
      );
      expect(wrongs.filter((r) => r === 'wrong')).toHaveLength(5);
      expect(await cx.store.verifyMagicCode(u.id, right, 5)).toBe('none');
      const v = await user();
      await cx.store.issueMagicCode(v.id, right, new Date(cx.t + 600_000));
      const oks = await Promise.all(
        Array.from({ length: 10 }, () => cx.store.verifyMagicCode(v.id, right, 5)),
      );
      expect(oks.filter((r) => r === 'ok')).toHaveLength(1);
    });
  });
}
