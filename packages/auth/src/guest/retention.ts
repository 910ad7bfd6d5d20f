/**
 * Guest retention (issue 26): a guest nobody came back to is deleted once it has been inactive for
 * `guestRetention` seconds (default 30 days; 0 keeps guests). Inactive means: made before that
 * point, and no session of it active since (sessions record activity at most once a minute).
 *
 * - Where it runs: at start (`createAuth`), and inside normal traffic (a token check, a new guest)
 *   at most once per `everyMs` per process, in the background: the request that triggers a sweep
 *   never waits for it. When a sweep deletes a full batch, the next request sweeps again, so a
 *   backlog drains under traffic without one long statement.
 * - Several processes: the store's one DELETE skips rows another transaction holds, so concurrent
 *   sweeps never wait on each other or on a guest being upgraded.
 * - What goes: the user row, and with it everything the store keeps for it (sessions, tokens,
 *   passkeys...: the foreign keys cascade). No event is emitted (no operation deletes users, so
 *   there is no deletion event to reuse); the count is logged at info. Rows an application keeps
 *   for the guest's id in its own tables are the application's to remove.
 */
import type { AuthLogger } from '../events';
import type { AuthStore } from '../store/types';

/** A process sweeps at most this often. */
export const GUEST_SWEEP_EVERY_MS = 10 * 60 * 1000;
/** At most this many guests per sweep. */
export const GUEST_SWEEP_BATCH = 500;

export interface GuestSweeper {
  /** Starts a sweep in the background when one is due; returns at once. */
  poke(): void;
  /** Resolves when the sweep under way, if any, has finished. */
  idle(): Promise<void>;
}

export interface GuestSweeperOptions {
  readonly store: Pick<AuthStore, 'deleteInactiveGuests'>;
  /** Seconds; 0: never sweep. */
  readonly retentionSeconds: number;
  readonly now: () => number;
  readonly logger?: AuthLogger | undefined;
  /** @default GUEST_SWEEP_EVERY_MS */
  readonly everyMs?: number;
  /** @default GUEST_SWEEP_BATCH */
  readonly batch?: number;
}

export function createGuestSweeper(options: GuestSweeperOptions): GuestSweeper {
  const { store, retentionSeconds, now, logger } = options;
  const everyMs = options.everyMs ?? GUEST_SWEEP_EVERY_MS;
  const batch = options.batch ?? GUEST_SWEEP_BATCH;
  let last = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | undefined;

  const sweep = async (at: number) => {
    try {
      const deleted = await store.deleteInactiveGuests(
        new Date(at - retentionSeconds * 1000),
        batch,
      );
      if (deleted > 0) logger?.info?.({ deleted }, 'inactive guests deleted (guestRetention)');
      // A full batch may have left more behind: the next request sweeps again.
      if (deleted >= batch) last = Number.NEGATIVE_INFINITY;
    } catch (err) {
      logger?.warn({ err }, 'could not delete inactive guests');
    }
  };

  return {
    poke() {
      if (retentionSeconds === 0 || running) return;
      const at = now();
      if (at - last < everyMs) return;
      last = at;
      running = sweep(at).finally(() => {
        running = undefined;
      });
    },
    idle: () => running ?? Promise.resolve(),
  };
}
