/**
 * Read replicas (docs/http.md, "Read replicas"). Input: the `[database] replica_urls` of a
 * PostgreSQL database and `max_replica_lag`. Output: `Replicas`, which opens a pool per replica,
 * checks each in the background (every CHECK_INTERVAL_MS, each check bounded by its timeout),
 * and hands out a healthy one round-robin (`pick`), or none: then reads run on the primary.
 * `readRouting` turns that into the engine's RunOptions for one request.
 *
 * What holds: a replica that is down, not reached within the timeout, or lagging beyond
 * `maxLagSeconds` is skipped until a later check finds it well. Lag is 0 when the replica has
 * replayed all it received (an idle primary writes nothing, so the last replay's age alone
 * would grow forever) and the age of the last replayed transaction otherwise; unknown lag
 * counts as too much. Only statements the compiler proves read-only go to a replica, outside
 * transactions, and only until the request has written (read-your-writes).
 */
import type { Request, Response } from 'express';
import {
  commonError,
  describeUrl,
  openDatabase,
  type Database,
  type OpenDatabaseOptions,
  type RunOptions,
} from '@svc/core';

/** One replica's figures, for `/stats` and `/metrics`. */
export interface ReplicaStats {
  /** Where it is, without password (`PostgreSQL at postgres://user@host:port/db`). */
  readonly replica: string;
  readonly healthy: boolean;
  /** Seconds behind the primary at the last check; null when unknown (down, never checked). */
  readonly lagSeconds: number | null;
  /** Connections running a statement, idle, and callers waiting for one. */
  readonly inUse: number;
  readonly idle: number;
  readonly waiting: number;
  /** Failed checks, and statements that failed there and ran again on the primary. */
  readonly errors: number;
}

export interface ReplicasOptions {
  readonly urls: readonly string[];
  readonly poolSize: number;
  readonly maxLagSeconds: number;
  readonly open?: OpenDatabaseOptions;
  /** Told when a replica turns unhealthy or healthy again. */
  readonly onChange?: (replica: string, healthy: boolean, reason: string) => void;
  /** @default CHECK_INTERVAL_MS */
  readonly checkIntervalMs?: number;
}

export const CHECK_INTERVAL_MS = 2000;
/** How long a check (or opening a replica's pool) may take before the replica counts as down. */
const CHECK_TIMEOUT_MS = 1500;

/** Seconds behind the primary: 0 when all received WAL is replayed (or not in recovery). */
const LAG_SQL = `select case
  when not pg_is_in_recovery() then 0
  when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
  else extract(epoch from now() - pg_last_xact_replay_timestamp())
end::float8 as lag`;

class Replica {
  db: Database | undefined;
  healthy = false;
  lag: number | null = null;
  errors = 0;
  constructor(
    readonly url: string,
    readonly description: string,
  ) {}
}

export class Replicas {
  readonly #replicas: Replica[];
  readonly #options: ReplicasOptions;
  #next = 0;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;
  #closed = false;

  private constructor(options: ReplicasOptions) {
    this.#options = options;
    this.#replicas = options.urls.map((url) => new Replica(url, describeUrl(url)));
  }

  /** Opens the pools and checks each replica once; one that is down is tried again later. */
  static async open(options: ReplicasOptions): Promise<Replicas> {
    const replicas = new Replicas(options);
    await replicas.check();
    replicas.#schedule();
    return replicas;
  }

  /** A healthy replica, round-robin; undefined when none is. */
  pick(): Database | undefined {
    const n = this.#replicas.length;
    for (let i = 0; i < n; i++) {
      const replica = this.#replicas[(this.#next + i) % n] as Replica;
      if (replica.healthy && replica.db) {
        this.#next = (this.#next + i + 1) % n;
        return replica.db;
      }
    }
    return undefined;
  }

  /** A statement failed on `db` (and ran again on the primary): skipped until a check passes. */
  failed(db: Database, err: unknown): void {
    const replica = this.#replicas.find((r) => r.db === db);
    if (!replica) return;
    replica.errors++;
    replica.lag = null;
    this.#mark(replica, false, `a statement failed there: ${reason(err)}`);
  }

  stats(): ReplicaStats[] {
    return this.#replicas.map((r) => {
      const pool = r.db?.stats() ?? { total: 0, idle: 0, waiting: 0 };
      return {
        replica: r.description,
        healthy: r.healthy,
        lagSeconds: r.lag,
        inUse: pool.total - pool.idle,
        idle: pool.idle,
        waiting: pool.waiting,
        errors: r.errors,
      };
    });
  }

  /** Checks every replica now (in parallel); the background loop calls it too. */
  check(): Promise<void> {
    this.#checking ??= Promise.all(this.#replicas.map((r) => this.#checkOne(r))).then(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#checking;
    await Promise.all(this.#replicas.map((r) => r.db?.close()));
  }

  #schedule(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      void this.check().then(() => this.#schedule());
    }, this.#options.checkIntervalMs ?? CHECK_INTERVAL_MS);
    this.#timer.unref();
  }

  async #checkOne(replica: Replica): Promise<void> {
    try {
      if (!replica.db) {
        replica.db = await openDatabase(
          { url: replica.url, poolSize: this.#options.poolSize },
          { ...this.#options.open, connectTimeoutMs: CHECK_TIMEOUT_MS },
        );
        if (this.#closed) {
          await replica.db.close();
          return;
        }
      }
      const { rows } = await replica.db.query<{ lag: number | null }>(LAG_SQL, [], {
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
      const lag = rows[0]?.lag ?? null;
      replica.lag = lag === null ? null : Math.max(0, lag);
      if (replica.lag === null) this.#mark(replica, false, 'its lag is unknown');
      else if (replica.lag > this.#options.maxLagSeconds)
        this.#mark(replica, false, `it lags ${replica.lag.toFixed(1)} s behind`);
      else this.#mark(replica, true, 'it answers');
    } catch (err) {
      replica.errors++;
      replica.lag = null;
      this.#mark(replica, false, `its check failed: ${reason(err)}`);
    }
  }

  #mark(replica: Replica, healthy: boolean, why: string): void {
    if (replica.healthy === healthy) return;
    replica.healthy = healthy;
    this.#options.onChange?.(replica.description, healthy, why);
  }
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `X-Svc-Read`: `primary` keeps a request's reads on the primary (to read its own writes). */
export const READ_HEADER = 'x-svc-read';
/** Which pool answered: `replica` when every statement of the request ran on one. */
export const SERVED_BY_HEADER = 'X-Svc-Served-By';

/**
 * The engine's RunOptions for one statement of a request, outside transactions: a healthy
 * replica when `reads` says the request may read there (a REST GET, a `/query` without
 * `"read": "primary"`), unless `X-Svc-Read: primary` asked for the primary or the request has
 * already run something there; where the statement ran noted in
 * `X-Svc-Served-By` (when replicas are configured). Call it once per statement.
 */
export function readRouting(
  replicas: Replicas | undefined,
  req: Request,
  res: Response,
  reads = true,
): Pick<RunOptions, 'replica' | 'onServed' | 'onReplicaError'> {
  const asked = req.get(READ_HEADER);
  if (asked !== undefined && asked.trim().toLowerCase() !== 'primary') {
    throw commonError('VALIDATION_ERROR', 'X-Svc-Read must be "primary" when given', {
      hint: 'leave it out to let read-only statements run on a replica',
    });
  }
  if (!replicas) return {};
  const locals = res.locals as { svcRead?: 'primary' | 'replica' };
  const replica =
    reads && asked === undefined && locals.svcRead !== 'primary' ? replicas.pick() : undefined;
  return {
    replica,
    onServed: (by) => {
      // Once anything ran on the primary (a write above all), the rest of the request stays there.
      if (locals.svcRead !== 'primary') locals.svcRead = by;
      if (!res.headersSent) res.setHeader(SERVED_BY_HEADER, locals.svcRead);
    },
    onReplicaError: (err) => {
      if (replica) replicas.failed(replica, err);
    },
  };
}
