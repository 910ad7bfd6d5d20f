/** Conformance cases of the reset-token verbs (`password/store.ts`). */
import { fresh, type StoreCaseScope } from '../store/conformance-kit';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function passwordResetStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user } = cx;
  describe('one-time tokens', () => {
    test('a reset token is single use; a newer one supersedes the older', async () => {
      const u = await user();
      const v = await user();
      const [h1, h2, hv] = [fresh(), fresh(), fresh()];
      await cx.store.issueResetToken(u.id, h1, new Date(cx.t + 3_600_000));
      await cx.store.issueResetToken(v.id, hv, new Date(cx.t + 3_600_000));
      await cx.store.issueResetToken(u.id, h2, new Date(cx.t + 3_600_000));
      expect(await cx.store.consumeResetToken(h1)).toBeNull();
      expect(await cx.store.consumeResetToken(h2)).toBe(u.id);
      expect(await cx.store.consumeResetToken(h2)).toBeNull();
      expect(await cx.store.consumeResetToken(fresh())).toBeNull();
      expect(await cx.store.consumeResetToken(hv)).toBe(v.id); // another user's is untouched
    });

    test('an expired reset token is refused', async () => {
      const u = await user();
      const h1 = fresh();
      await cx.store.issueResetToken(u.id, h1, new Date(cx.t + 3_600_000));
      cx.t += 3_600_000;
      expect(await cx.store.consumeResetToken(h1)).toBeNull();
    });

    test('concurrent consumption of one reset token: exactly one wins', async () => {
      const u = await user();
      const h1 = fresh();
      await cx.store.issueResetToken(u.id, h1, new Date(cx.t + 3_600_000));
      const results = await Promise.all(
        Array.from({ length: 10 }, () => cx.store.consumeResetToken(h1)),
      );
      expect(results.filter((r) => r === u.id)).toHaveLength(1);
    });
  });
}
