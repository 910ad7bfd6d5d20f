/** Conformance cases of the rate-limit verbs (`rate-limit/store.ts`). */
import { randomUUID } from 'node:crypto';
import { T0, type StoreCaseScope } from '../store/conformance-kit';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function rateLimitStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  describe('rate limits', () => {
    const key = (limit: number, windowMs = 60_000, name = `k-${randomUUID()}`) => ({
      key: name,
      limit,
      windowMs,
    });

    test('counts up to the limit, refuses the next with the time until the oldest hit leaves the window', async () => {
      const k = key(3);
      for (let i = 0; i < 3; i++) {
        expect(await cx.store.hitRateLimit([k])).toEqual({ allowed: true });
        cx.t += 10_000;
      }
      // Hits at T0, T0+10s, T0+20s; now T0+30s: the T0 hit leaves at T0+60s.
      expect(await cx.store.hitRateLimit([k])).toEqual({ allowed: false, retryAfterMs: 30_000 });
      cx.t = T0 + 59_999;
      expect(await cx.store.hitRateLimit([k])).toEqual({ allowed: false, retryAfterMs: 1 });
      // The window slides: one hit has left, so one more passes, and the next waits for T0+10s.
      cx.t = T0 + 60_000;
      expect(await cx.store.hitRateLimit([k])).toEqual({ allowed: true });
      expect(await cx.store.hitRateLimit([k])).toEqual({ allowed: false, retryAfterMs: 10_000 });
    });

    test('a refused request is not counted', async () => {
      const k = key(2, 1000);
      await cx.store.hitRateLimit([k]);
      await cx.store.hitRateLimit([k]);
      for (let i = 0; i < 5; i++) expect((await cx.store.hitRateLimit([k])).allowed).toBe(false);
      cx.t += 1000;
      expect(await cx.store.hitRateLimit([k])).toEqual({ allowed: true });
      expect(await cx.store.hitRateLimit([k])).toEqual({ allowed: true });
      expect((await cx.store.hitRateLimit([k])).allowed).toBe(false);
    });

    test('several keys: counted against all or none; the longest wait wins', async () => {
      const full = key(1, 60_000);
      const roomy = key(3, 10_000);
      expect(await cx.store.hitRateLimit([full, roomy])).toEqual({ allowed: true });
      cx.t += 5_000;
      expect(await cx.store.hitRateLimit([roomy, full])).toEqual({
        allowed: false,
        retryAfterMs: 55_000,
      });
      // `roomy` holds one hit, not two: two more pass, the third is refused.
      expect(await cx.store.hitRateLimit([roomy])).toEqual({ allowed: true });
      expect(await cx.store.hitRateLimit([roomy])).toEqual({ allowed: true });
      expect(await cx.store.hitRateLimit([roomy])).toEqual({ allowed: false, retryAfterMs: 5_000 });
      expect(await cx.store.hitRateLimit([key(1), roomy])).toEqual({
        allowed: false,
        retryAfterMs: 5_000,
      });
    });

    test('a limit lowered below the hits already counted waits for enough of them to leave', async () => {
      const name = `k-${randomUUID()}`;
      for (let i = 0; i < 4; i++) {
        await cx.store.hitRateLimit([{ key: name, limit: 10, windowMs: 60_000 }]);
        cx.t += 1_000;
      }
      // Hits at T0..T0+3s, now T0+4s; with limit 2, one may stay: the third leaves at T0+62s.
      expect(await cx.store.hitRateLimit([{ key: name, limit: 2, windowMs: 60_000 }])).toEqual({
        allowed: false,
        retryAfterMs: 58_000,
      });
    });

    test('concurrent requests never exceed the limit', async () => {
      const k = key(5);
      const results = await Promise.all(
        Array.from({ length: 16 }, () => cx.store.hitRateLimit([k])),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
      const other = key(4);
      // Overlapping key sets in both orders at once: still exact, and no deadlock.
      const mixed = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          cx.store.hitRateLimit(i % 2 ? [k, other] : [other, k]),
        ),
      );
      expect(mixed.filter((r) => r.allowed)).toHaveLength(0);
      cx.t += 60_000;
      const again = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          cx.store.hitRateLimit(i % 2 ? [k, other] : [other, k]),
        ),
      );
      expect(again.filter((r) => r.allowed)).toHaveLength(4);
    });

    test('pruneRateLimits deletes the counters whose hits have all left their window, and only those', async () => {
      const short = [key(5, 1_000), key(5, 1_000), key(5, 1_000)];
      const long = key(5, 60_000);
      for (const k of short) await cx.store.hitRateLimit([k]);
      await cx.store.hitRateLimit([long]);
      expect(await cx.store.pruneRateLimits()).toBe(0);
      cx.t += 1_000;
      expect(await cx.store.pruneRateLimits()).toBe(3);
      expect(await cx.store.pruneRateLimits()).toBe(0);
      // The long window's hit survived the sweep.
      for (let i = 0; i < 4; i++) await cx.store.hitRateLimit([long]);
      expect((await cx.store.hitRateLimit([long])).allowed).toBe(false);
      cx.t += 60_000;
      expect(await cx.store.pruneRateLimits()).toBe(1);
      expect(await cx.store.hitRateLimit([long])).toEqual({ allowed: true });
    });

    test('sweeps running alongside requests neither fail them nor let more than the limit through', async () => {
      const keys = Array.from({ length: 6 }, () => key(3, 1_000));
      for (const k of keys) await cx.store.hitRateLimit([k]);
      cx.t += 1_000; // every counter has expired: the sweeps below want all of them
      const work = await Promise.all([
        ...Array.from({ length: 18 }, (_, i) =>
          cx.store.hitRateLimit([keys[i % 6]!, keys[(i + 1) % 6]!]),
        ),
        ...Array.from({ length: 4 }, () => cx.store.pruneRateLimits()),
      ]);
      const hits = work.slice(0, 18) as Array<{ allowed: boolean }>;
      // Each key takes 3 hits; each request charges two keys: at most 9 requests pass.
      expect(hits.filter((r) => r.allowed).length).toBeLessThanOrEqual(9);
      expect(hits.filter((r) => r.allowed).length).toBeGreaterThan(0);
    });

    test('refuses malformed keys', async () => {
      const k = key(1);
      await expect(cx.store.hitRateLimit([])).rejects.toThrow(TypeError);
      await expect(cx.store.hitRateLimit([k, k])).rejects.toThrow(TypeError);
      await expect(cx.store.hitRateLimit([{ ...k, limit: 0 }])).rejects.toThrow(TypeError);
      await expect(cx.store.hitRateLimit([{ ...k, windowMs: 1.5 }])).rejects.toThrow(TypeError);
    });
  });
}
