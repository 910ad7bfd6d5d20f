/**
 * The sliding-log decision both stores share. Input: the time now, the keys of one request (each
 * with its limit and window) and the hits already counted against each key. Output: allowed (and
 * the hit lists to write back, the new hit appended, expired hits dropped) or refused with how
 * long until the request would pass.
 *
 * Invariants: a refused request counts against no key (so a key never holds more than its limit
 * of live hits, and the stored lists stay bounded); a request passes only when every key has room.
 * A hit stamped slightly in the future (another process whose clock runs ahead) still counts.
 */

/** One counter a request is charged against. */
export interface RateLimitKey {
  /** Opaque and at most a few hundred characters; the limiter hashes emails and addresses into it. */
  readonly key: string;
  /** Hits allowed within the window (at least 1). */
  readonly limit: number;
  /** The sliding window, in milliseconds. */
  readonly windowMs: number;
}

export type RateLimitOutcome =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      /** Milliseconds until the oldest hit that blocks the request leaves its window (at least 1). */
      readonly retryAfterMs: number;
    };

export interface RateLimitDecision {
  readonly outcome: RateLimitOutcome;
  /** What to store per key when allowed: live hits plus now, ascending, and when they all expire. */
  readonly writes: ReadonlyArray<{
    readonly key: string;
    readonly hits: number[];
    readonly expiresAt: number;
  }>;
}

/** `hits` holds epoch milliseconds per key (any order; missing keys have none). */
export function decideRateLimit(
  now: number,
  keys: readonly RateLimitKey[],
  hits: ReadonlyMap<string, readonly number[]>,
): RateLimitDecision {
  let retryAfterMs = 0;
  const live = keys.map((k) => {
    const kept = (hits.get(k.key) ?? []).filter((h) => h > now - k.windowMs).sort((a, b) => a - b);
    if (kept.length >= k.limit) {
      // The request passes once all but limit-1 of the live hits have left the window.
      const blocking = kept[kept.length - k.limit] as number;
      retryAfterMs = Math.max(retryAfterMs, blocking + k.windowMs - now);
    }
    return { key: k.key, hits: kept, windowMs: k.windowMs };
  });
  if (retryAfterMs > 0)
    return { outcome: { allowed: false, retryAfterMs: Math.max(1, retryAfterMs) }, writes: [] };
  return {
    outcome: { allowed: true },
    writes: live.map((l) => ({ key: l.key, hits: [...l.hits, now], expiresAt: now + l.windowMs })),
  };
}

/** Refuses keys a store cannot take: an empty list, duplicates, limits or windows not positive integers. */
export function checkRateLimitKeys(keys: readonly RateLimitKey[]): void {
  if (!Array.isArray(keys) || keys.length === 0)
    throw new TypeError('hitRateLimit needs at least one key');
  const seen = new Set<string>();
  for (const k of keys) {
    if (typeof k.key !== 'string' || k.key.length === 0 || k.key.length > 512)
      throw new TypeError('a rate-limit key must be 1 to 512 characters');
    if (seen.has(k.key)) throw new TypeError(`rate-limit key ${k.key} given twice`);
    seen.add(k.key);
    if (!Number.isInteger(k.limit) || k.limit < 1)
      throw new TypeError('a rate-limit limit must be a positive integer');
    if (!Number.isInteger(k.windowMs) || k.windowMs < 1)
      throw new TypeError('a rate-limit window must be a positive integer of milliseconds');
  }
}
