/** Rate-limit storage: sliding-window counters shared by every process. */
import { sql } from 'kysely';
import type { MemoryState } from '../store/memory-state';
import { AUTH_SCHEMA } from '../store/migrations';
import { compare, type PgRunner } from '../store/sql';
import {
  checkRateLimitKeys,
  decideRateLimit,
  type RateLimitKey,
  type RateLimitOutcome,
} from './window';

export interface RateLimitStore {
  /**
   * Checks and counts one request against every key (distinct keys), atomically: when each key
   * holds fewer than `limit` hits within its last `windowMs`, a hit stamped now is added to every
   * key and the request is allowed; otherwise nothing is counted and the outcome says how long
   * until it would pass. Concurrent callers (other processes included) never push a key past its
   * limit.
   */
  hitRateLimit(keys: readonly RateLimitKey[]): Promise<RateLimitOutcome>;
  /** Deletes the counters whose every hit has left its window; returns how many. */
  pruneRateLimits(): Promise<number>;
}

export function postgresRateLimitStore(r: PgRunner): RateLimitStore {
  const { root, now } = r;
  const table = sql.table(`${AUTH_SCHEMA}.rate_limits`);
  return {
    async hitRateLimit(keys) {
      checkRateLimitKeys(keys);
      // Rows are locked in key order, so two requests sharing keys cannot deadlock.
      const ordered = keys.map((x) => x.key).sort(compare);
      return root.transaction().execute(async (trx) => {
        const at = now();
        // One statement locks every key's row, creating the missing ones: ON CONFLICT DO UPDATE
        // takes the row lock as part of the insert-or-update, so neither a concurrent first hit
        // nor a sweep can slip in between the read and the write below.
        const locked = await sql<{ key: string; hits: Date[] }>`
          insert into ${table} as r (key, hits, expires_at)
          select u.k, '{}', ${at} from unnest(${ordered}::text[]) with ordinality as u(k, i) order by u.i
          on conflict (key) do update set expires_at = r.expires_at
          returning r.key, r.hits`.execute(trx);
        const hits = new Map(
          locked.rows.map(
            (row) => [row.key, (row.hits ?? []).map((h) => new Date(h).getTime())] as const,
          ),
        );
        const { outcome, writes } = decideRateLimit(at.getTime(), keys, hits);
        for (const w of writes) {
          await sql`update ${table}
            set hits = ${w.hits.map((h) => new Date(h).toISOString())}::timestamptz[], expires_at = ${new Date(w.expiresAt)}
            where key = ${w.key}`.execute(trx);
        }
        return outcome;
      });
    },
    async pruneRateLimits() {
      // SKIP LOCKED: rows a request holds are left for the next sweep. The sweep never waits for a
      // lock, so it cannot deadlock with requests (they lock in key order, a sweep in scan order).
      const res = await sql`delete from ${table} where key in (
          select key from ${table} where expires_at <= ${now()} for update skip locked)`.execute(
        root,
      );
      return Number(res.numAffectedRows ?? 0n);
    },
  };
}

export function memoryRateLimitStore(m: MemoryState): RateLimitStore {
  const { rateLimits } = m;
  return {
    async hitRateLimit(keys) {
      checkRateLimitKeys(keys);
      const hits = new Map(keys.map((k) => [k.key, rateLimits.get(k.key)?.hits ?? []] as const));
      const { outcome, writes } = decideRateLimit(m.now().getTime(), keys, hits);
      for (const w of writes) rateLimits.set(w.key, { hits: w.hits, expiresAt: w.expiresAt });
      return outcome;
    },
    async pruneRateLimits() {
      const t = m.now().getTime();
      let n = 0;
      for (const [key, row] of rateLimits) {
        if (row.expiresAt <= t) {
          rateLimits.delete(key);
          n++;
        }
      }
      return n;
    },
  };
}
