/**
 * transactions: database transactions held open across HTTP requests (docs/http.md,
 * "Transactions"). `POST /transactions` begins one and answers its id; `POST /query` with
 * `X-Svc-Transaction: <id>` runs a statement in it; `.../commit` and `.../rollback` end it.
 *
 * Each open transaction is one `Database.transaction(fn)` whose `fn` waits until the controller
 * here says commit or roll back: one database path for every transaction, its connection held
 * for exactly that long. Around it:
 *
 * - ids are `<instanceId>.<144 random bits, base64url>`: the prefix tells a load balancer which
 *   process holds it, the rest is the secret. An id of another instance answers 421
 *   TRANSACTION_MISROUTED (nothing else revealed), so a request the balancer misrouted says so.
 * - a transaction belongs to the caller who began it (its `owner` key: user, access mode and the
 *   auth values the statements see, or the service credential, or anonymous). Anyone else
 *   presenting its id gets 404 TRANSACTION_NOT_FOUND, as for an id that never existed.
 * - requests naming one transaction run one at a time, in arrival order (a queue each).
 * - idle (no request in flight) past `idleTimeout`: rolled back, its connection released. Any
 *   failed request in it (a statement's error, a refusal, a timeout) rolls it back at once:
 *   PostgreSQL aborts a transaction on an error anyway, and a client that saw 408 cannot know
 *   what ran.
 * - an ended id is remembered for a while (bounded, `TOMBSTONES`, `TOMBSTONE_MS`), so its owner
 *   learns why (409 TRANSACTION_ABORTED with `extensions.reason`, or TRANSACTION_COMMITTED:
 *   a client whose commit answer was lost learns it committed).
 * - at most `max` open at once (503 TOO_MANY_TRANSACTIONS with Retry-After past it).
 * - `close()` rolls back every one (server shutdown); a process that dies loses its connections,
 *   and PostgreSQL rolls back whatever they held.
 */
import { randomBytes } from 'node:crypto';
import {
  commonError,
  defineErrorCodes,
  fromDatabaseError,
  type Database,
  type QueryCaller,
  type Queryable,
  type StopSignal,
  type SvcError,
} from '@svc/core';
import type { Caller } from '../middleware/authenticate';

/** The transaction codes (docs/http.md, "Error codes"). */
export const transactionError = defineErrorCodes('transaction', {
  TRANSACTION_NOT_FOUND: 404,
  TRANSACTION_ABORTED: 409,
  TRANSACTION_COMMITTED: 409,
  TRANSACTION_MISROUTED: 421,
  TOO_MANY_TRANSACTIONS: 503,
});

export type Isolation = 'serializable' | 'repeatable_read';

export interface BeginOptions {
  /** @default 'serializable' (as Gel) */
  readonly isolation?: Isolation;
  /** @default false */
  readonly readOnly?: boolean;
}

/** Why a transaction ended, as `extensions.reason` names it. */
export type EndReason =
  | 'committed'
  | 'rollback'
  | 'error'
  | 'idleTimeout'
  | 'requestTimeout'
  | 'shutdown';

export interface TransactionsOptions {
  readonly db: Database;
  /** Milliseconds idle before a rollback. */
  readonly idleTimeout: number;
  /** Open transactions at most. */
  readonly max: number;
  /** The prefix of every id. */
  readonly instanceId: string;
  /**
   * PostgreSQL's statement_timeout inside each transaction (the server's requestTimeout): no
   * statement in one runs longer than a request may. Not applied on embedded PGlite, which
   * cannot interrupt a statement (db QueryOptions.signal).
   */
  readonly statementTimeout: number;
  /** Told when a transaction ends by itself (idle timeout), for the log. */
  readonly onEnded?: (id: string, reason: EndReason) => void;
}

/** Ended ids remembered, and for how long. */
const TOMBSTONES = 10_000;
const TOMBSTONE_MS = 10 * 60_000;

const ISOLATION_SQL: Record<Isolation, string> = {
  serializable: 'serializable',
  repeatable_read: 'repeatable read',
};

/** Thrown inside `Database.transaction`'s fn to roll back (never leaves this module). */
const ROLLBACK = Symbol('rollback');

interface Open {
  readonly id: string;
  readonly owner: string;
  readonly tx: Queryable;
  /** Resolves the transaction's fn: commit or roll back. */
  readonly finish: (outcome: 'commit' | 'rollback') => void;
  /** Settles when the database has committed (resolves) or rolled back (resolves) or failed. */
  readonly done: Promise<void>;
  /** The tail of its request queue. */
  queue: Promise<unknown>;
  /** Requests queued or running. */
  busy: number;
  idle: NodeJS.Timeout | undefined;
  ended: Promise<void> | undefined;
  /** Why it ended (set with `ended`; `error` when a commit failed). */
  reason: EndReason | undefined;
}

interface Tombstone {
  readonly owner: string;
  readonly reason: EndReason;
  readonly at: number;
}

/**
 * Who a transaction belongs to: the kind of credential, the user, the access mode and every auth
 * value its statements see. Only the same caller may use its id (another gets 404). A refreshed
 * access token of the same user and roles is the same caller.
 */
export function transactionOwner(caller: Caller | undefined, runs: QueryCaller): string {
  const who =
    caller?.kind === 'user'
      ? ['user', caller.context.userId ?? '', caller.context.jwtClaims?.sub ?? '']
      : [caller?.kind ?? 'anonymous'];
  return JSON.stringify([who, runs.access, runs.auth]);
}

/** A random instance id: 8 characters of base64url (48 bits), new at every start. */
export function randomInstanceId(): string {
  return randomBytes(6).toString('base64url');
}

export class Transactions {
  readonly #options: TransactionsOptions;
  readonly #open = new Map<string, Open>();
  readonly #tombstones = new Map<string, Tombstone>();
  #starting = 0;
  #closing = false;

  constructor(options: TransactionsOptions) {
    this.#options = options;
  }

  get instanceId(): string {
    return this.#options.instanceId;
  }

  get max(): number {
    return this.#options.max;
  }

  /** Open transactions now (metrics). */
  get size(): number {
    return this.#open.size;
  }

  /** Begins a transaction for `owner`; past the cap, or while closing, refused. */
  async begin(
    owner: string,
    options: BeginOptions = {},
    signal?: StopSignal,
  ): Promise<{ id: string; idleTimeout: number }> {
    const { db, idleTimeout, max, statementTimeout } = this.#options;
    if (this.#closing) throw commonError('SERVICE_UNAVAILABLE', 'the server is shutting down');
    if (this.#open.size + this.#starting >= max) {
      throw transactionError(
        'TOO_MANY_TRANSACTIONS',
        `this instance holds its most open transactions (${max}); try again shortly`,
        { headers: { 'Retry-After': String(Math.max(1, Math.ceil(idleTimeout / 1000))) } },
      );
    }
    this.#starting++;
    const id = `${this.#options.instanceId}.${randomBytes(18).toString('base64url')}`;
    let finish!: (outcome: 'commit' | 'rollback') => void;
    const outcome = new Promise<'commit' | 'rollback'>((resolve) => {
      finish = resolve;
    });
    let started!: (tx: Queryable) => void;
    const ready = new Promise<Queryable>((resolve) => {
      started = resolve;
    });
    const settings = `set transaction isolation level ${ISOLATION_SQL[options.isolation ?? 'serializable']}${options.readOnly ? ', read only' : ''}`;
    const done = db
      .transaction(async (tx) => {
        await tx.query(settings);
        if (db.kind === 'postgres')
          await tx.query(`select set_config('statement_timeout', $1, true)`, [
            String(statementTimeout),
          ]);
        started(tx);
        if ((await outcome) === 'rollback') throw ROLLBACK;
      })
      .catch((err) => {
        if (err !== ROLLBACK) throw err;
      });
    let tx: Queryable;
    try {
      tx = await Promise.race([
        ready,
        done.then(() => {
          throw new Error('the transaction ended before it began');
        }),
      ]);
    } catch (err) {
      throw fromDatabaseError(err);
    } finally {
      this.#starting--;
    }
    // The caller gave up (408 answered) or the server began closing while it waited: undo it.
    if (signal?.aborted || this.#closing) {
      finish('rollback');
      await done.catch(() => undefined);
      throw signal?.aborted
        ? commonError('REQUEST_TIMEOUT', 'the transaction could not begin in time')
        : commonError('SERVICE_UNAVAILABLE', 'the server is shutting down');
    }
    // An unhandled rejection must not escape when nobody waits on `done` (an idle rollback).
    done.catch(() => undefined);
    const entry: Open = {
      id,
      owner,
      tx,
      finish,
      done,
      queue: Promise.resolve(),
      busy: 0,
      idle: undefined,
      ended: undefined,
      reason: undefined,
    };
    this.#open.set(id, entry);
    this.#armIdle(entry);
    return { id, idleTimeout };
  }

  /**
   * Runs `work` in the transaction `id` once the requests before it are done. Any failure rolls
   * the transaction back (reason `error`, or `requestTimeout` when `signal` aborted).
   */
  async run<T>(
    id: string,
    owner: string,
    signal: StopSignal | undefined,
    work: (tx: Queryable) => Promise<T>,
  ): Promise<T> {
    const entry = this.#find(id, owner);
    return await this.#enqueue(entry, async () => {
      if (signal?.aborted) {
        await this.#end(entry, 'rollback', 'requestTimeout').catch(() => undefined);
        throw commonError('REQUEST_TIMEOUT', 'the request ran out of time before its turn');
      }
      let result: T;
      try {
        result = await work(entry.tx);
      } catch (err) {
        await this.#end(entry, 'rollback', signal?.aborted ? 'requestTimeout' : 'error').catch(
          () => undefined,
        );
        throw err;
      }
      // Answered 408 while it ran: the client cannot know it ran, so nothing of it may stand.
      if (signal?.aborted)
        await this.#end(entry, 'rollback', 'requestTimeout').catch(() => undefined);
      return result;
    });
  }

  /** Commits `id` after the requests before it; a failed commit is its database error. */
  async commit(id: string, owner: string): Promise<void> {
    const entry = this.#find(id, owner);
    await this.#enqueue(entry, async () => {
      try {
        await this.#end(entry, 'commit', 'committed');
      } catch (err) {
        throw fromDatabaseError(err);
      }
    });
  }

  /** Rolls `id` back after the requests before it. Rolling back an aborted one is a no-op. */
  async rollback(id: string, owner: string): Promise<void> {
    try {
      const entry = this.#find(id, owner);
      await this.#enqueue(entry, () => this.#end(entry, 'rollback', 'rollback'));
    } catch (err) {
      if ((err as SvcError).code === 'TRANSACTION_ABORTED') return;
      throw err;
    }
  }

  /** Rolls back every open transaction (server shutdown) and refuses new ones. */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all(
      [...this.#open.values()].map((entry) =>
        this.#enqueue(entry, () => this.#end(entry, 'rollback', 'shutdown')).catch(() => undefined),
      ),
    );
  }

  #find(id: string, owner: string): Open {
    const dot = id.indexOf('.');
    const instance = dot > 0 ? id.slice(0, dot) : '';
    if (instance !== '' && instance !== this.#options.instanceId && /^[\w-]{1,32}$/.test(instance))
      throw transactionError(
        'TRANSACTION_MISROUTED',
        `the transaction belongs to instance ${instance}; this is ${this.#options.instanceId}`,
        {
          hint: 'route every request carrying X-Svc-Transaction to the instance its id names (the part before the dot)',
        },
      );
    const entry = this.#open.get(id);
    // Another caller's transaction is as unknown as one that never existed.
    if (entry && entry.owner === owner) {
      if (entry.reason === undefined) return entry;
      throw endedError(entry.reason);
    }
    const stone = entry ? undefined : this.#tombstone(id);
    if (stone && stone.owner === owner) throw endedError(stone.reason);
    throw transactionError('TRANSACTION_NOT_FOUND', 'no such transaction', {
      hint: 'a transaction is known only to the caller who began it, on the instance its id names, until it ends',
    });
  }

  #tombstone(id: string): Tombstone | undefined {
    const stone = this.#tombstones.get(id);
    if (!stone) return undefined;
    if (Date.now() - stone.at > TOMBSTONE_MS) {
      this.#tombstones.delete(id);
      return undefined;
    }
    return stone;
  }

  async #enqueue<T>(entry: Open, work: () => Promise<T>): Promise<T> {
    entry.busy++;
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = undefined;
    const turn = entry.queue.then(async () => {
      // Ended while this request waited: say why, as for a later request.
      if (entry.reason !== undefined) throw endedError(entry.reason);
      return await work();
    });
    entry.queue = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      entry.busy--;
      if (entry.busy === 0 && entry.ended === undefined) this.#armIdle(entry);
    }
  }

  #armIdle(entry: Open): void {
    entry.idle = setTimeout(() => {
      entry.idle = undefined;
      if (entry.busy > 0 || entry.ended !== undefined) return;
      void this.#end(entry, 'rollback', 'idleTimeout').catch(() => undefined);
      this.#options.onEnded?.(entry.id, 'idleTimeout');
    }, this.#options.idleTimeout);
    entry.idle.unref();
  }

  /** Ends the transaction once: commit or roll back, tombstone it, release its connection. */
  #end(entry: Open, outcome: 'commit' | 'rollback', reason: EndReason): Promise<void> {
    if (entry.ended) return entry.ended;
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = undefined;
    entry.reason = reason;
    entry.finish(outcome);
    entry.ended = entry.done.then(
      () => this.#bury(entry),
      (err) => {
        entry.reason = 'error';
        this.#bury(entry);
        throw err;
      },
    );
    return entry.ended;
  }

  #bury(entry: Open): void {
    this.#open.delete(entry.id);
    const reason = entry.reason ?? 'error';
    this.#tombstones.set(entry.id, { owner: entry.owner, reason, at: Date.now() });
    if (this.#tombstones.size > TOMBSTONES) {
      const oldest = this.#tombstones.keys().next().value as string;
      this.#tombstones.delete(oldest);
    }
  }
}

function endedError(reason: EndReason): SvcError {
  if (reason === 'committed')
    return transactionError('TRANSACTION_COMMITTED', 'the transaction was committed', { reason });
  return transactionError('TRANSACTION_ABORTED', `the transaction was ${WHY[reason]}`, {
    reason,
    hint: 'begin a new transaction and run it again',
  });
}

const WHY: Record<EndReason, string> = {
  committed: 'committed',
  rollback: 'rolled back by its caller',
  error: 'rolled back: a request in it failed',
  idleTimeout: 'rolled back: it was idle longer than its idle timeout',
  requestTimeout: 'rolled back: a request in it ran out of time',
  shutdown: 'rolled back: the server shut down',
};
