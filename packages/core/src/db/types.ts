import type { Kysely } from 'kysely';

/**
 * Where the data lives. A `url` is a real PostgreSQL server (a `pg` pool); `dataDir` is embedded
 * PGlite persisted in that folder; `memory` is embedded PGlite that vanishes on close.
 */
export type DatabaseConfig =
  | {
      readonly url: string;
      readonly poolSize?: number;
      /**
       * Run statements as named prepared statements (`QueryOptions.name`); default true. False
       * for a transaction-mode pooler that cannot keep them (PgBouncer before 1.21 or without
       * `max_prepared_statements`): every statement is then sent unnamed (parsed each time, still
       * with bound parameters).
       */
      readonly preparedStatements?: boolean;
      /**
       * Streaming replicas of `url` (PostgreSQL URLs) that read-only work may run on; the server
       * routes to them (docs/http.md, "Read replicas"). `openDatabase` opens `url` only.
       */
      readonly replicas?: readonly string[];
      /** Seconds a replica may lag behind before reads skip it. @default 10 */
      readonly maxReplicaLag?: number;
    }
  | { readonly dataDir: string }
  | { readonly memory: true };

export interface QueryResult<Row> {
  readonly rows: Row[];
  /** Rows affected by an insert, update or delete; rows returned otherwise. */
  readonly rowCount: number;
}

export interface QueryOptions {
  /**
   * Run as a named prepared statement (PostgreSQL only): each pooled connection parses and plans
   * it once, later runs send only the name and the values. One name must always carry the same
   * SQL (name it by a hash of the text). Ignored by PGlite, inside transactions, and by a
   * database opened with `preparedStatements: false`.
   */
  readonly name?: string;
  /**
   * Stops the statement when it aborts (the server passes its request's requestTimeout signal).
   * Not started yet (aborted already, or while it waited for a connection): it is never sent.
   * Running on PostgreSQL: a cancel request is sent for it (a new connection carrying the
   * backend's key: no login, no pool slot), and its connection is closed afterwards rather than
   * pooled (a cancel arriving late would hit the next statement). Either way the promise rejects
   * with SQLSTATE 57014, as PostgreSQL's own cancellation does, so errors/database-errors maps
   * both alike. Embedded PGlite runs a statement on the JavaScript thread and cannot interrupt
   * it: only statements not yet started are refused. Not available inside transactions.
   */
  readonly signal?: StopSignal;
}

/**
 * What stops a statement (QueryOptions.signal, the engine's RunOptions.signal): an AbortSignal,
 * or any object with the three members of one that the database layer reads. An abort listener
 * is called at most once, as with `{ once: true }`. The server's requests carry a lighter one
 * than AbortSignal (its middleware/timeout `RequestDeadline`): making an AbortController costs
 * Node 20 about 6 µs, more than the rest of a request's timeout step together.
 */
export interface StopSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Anything that runs parameterised SQL: the database itself or an open transaction. */
export interface Queryable {
  /** Runs one statement; values are bound as `$1, $2, ...` parameters, never spliced in. */
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<Row>>;
  /** A Kysely instance bound to this database or transaction. */
  kysely<DB = any>(): Kysely<DB>;
}

export type Transaction = Queryable;

export interface PoolStats {
  /** Connections open (always 1 for embedded PGlite). */
  readonly total: number;
  readonly idle: number;
  /** Callers waiting for a connection. */
  readonly waiting: number;
}

export type DatabaseKind = 'postgres' | 'pglite';

/** One interface over real PostgreSQL and embedded PGlite. */
export interface Database extends Queryable {
  readonly kind: DatabaseKind;
  /** Where it is, safe to log: no password. */
  readonly description: string;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * Inside, use the `tx` it is given; on PGlite the database is held for the transaction's length.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  stats(): PoolStats;
  /**
   * Embedded database in a folder: records in the folder's lock (`svc.lock`) the URL where the
   * process holding it serves, so other svc commands work through it (undefined clears it).
   * A no-op for PostgreSQL and in-memory databases.
   */
  advertise?(url: string | undefined): void;
  /** Closes the pool or the embedded database; further calls fail. Safe to call twice. */
  close(): Promise<void>;
}
