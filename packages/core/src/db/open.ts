import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import { DataDirLock } from './lock';
import { type BackendKey, StatementCancelledError, sendCancelRequest } from './cancel';
import { checkDatabaseUrl, connectionFailure } from './connection-error';
import { loadPGliteModule, requirePGlite, resolvePGlite } from './pglite-module';
import { Mutex } from './mutex';
import { PGliteDialect } from './pglite-dialect';
import type {
  Database,
  DatabaseConfig,
  DatabaseKind,
  PoolStats,
  QueryOptions,
  QueryResult,
  Queryable,
  Transaction,
  StopSignal,
} from './types';

export interface OpenDatabaseOptions {
  /** Called with errors of idle pooled connections (which would otherwise crash the process). */
  readonly onPoolError?: (err: Error) => void;
  /**
   * How long a new PostgreSQL connection may take before it fails as unreachable (a host that
   * drops packets would otherwise hang the opener forever). Default 10000 ms.
   */
  readonly connectTimeoutMs?: number;
  /**
   * PostgreSQL: every connection's `statement_timeout`, sent when it opens (no statement per
   * query). The database stops any statement running longer, whether or not anyone is still
   * waiting for it: the backstop behind QueryOptions.signal for a cancel request that is lost or
   * a process that died mid-statement. A transaction that may run longer lifts it with
   * `set local statement_timeout = 0` (migrations do). A pooler that refuses the parameter
   * (PgBouncer unless it is in `track_extra_parameters` or `ignore_startup_parameters`) gets
   * connections without it, and `onWarning` says so. Ignored by PGlite: it has no timer to
   * interrupt a statement with.
   */
  readonly statementTimeoutMs?: number;
  /** Told, once, of a setting the database could not take (a pooler refusing the timeout). */
  readonly onWarning?: (message: string) => void;
  /**
   * Told when an embedded folder that holds no database yet is about to be created (PGlite's
   * initdb: seconds to tens of seconds), and again when it is, with the milliseconds it took.
   */
  readonly onCreateDataDir?: (event: { dataDir: string; ms?: number }) => void;
}

/**
 * Opens the database a config names. `pg` and PGlite are loaded only when used, so a program
 * that talks to real PostgreSQL never loads the WASM build, and the reverse.
 *
 * @example
 * const db = await openDatabase({ url: process.env.DATABASE_URL! });
 * const { rows } = await db.query('select $1::int + 1 as n', [41]);
 */
export async function openDatabase(
  config: DatabaseConfig,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  if ('url' in config) {
    const pool = { size: config.poolSize ?? 10, named: config.preparedStatements ?? true };
    return openPostgres(config.url, pool, options);
  }
  if ('dataDir' in config) return openPGlite(path.resolve(config.dataDir), options);
  if ('memory' in config && config.memory) return openPGlite(undefined, options);
  throw new TypeError('database config needs one of: url, dataDir, memory');
}

/** The pool's size, and whether its statements may be named (prepared on each connection). */
interface PoolSettings {
  readonly size: number;
  readonly named: boolean;
}

async function openPostgres(url: string, pool: PoolSettings, options: OpenDatabaseOptions) {
  const target = checkDatabaseUrl(url);
  const timeout = options.statementTimeoutMs;
  try {
    return await connectPostgres(url, pool, options, timeout);
  } catch (err) {
    if (timeout === undefined || !refusedStatementTimeout(err))
      throw connectionFailure(err, target);
  }
  options.onWarning?.(
    'the database (a connection pooler) refused the statement_timeout startup parameter: ' +
      'statements past requestTimeout are stopped by a cancel request only, with no backstop ' +
      "in the database; add statement_timeout to PgBouncer's track_extra_parameters to have it",
  );
  try {
    return await connectPostgres(url, pool, options, undefined);
  } catch (err) {
    throw connectionFailure(err, target);
  }
}

/** PgBouncer's answer to a startup parameter it does not track: FATAL 08P01. */
function refusedStatementTimeout(err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  return /unsupported startup parameter/i.test(message) && message.includes('statement_timeout');
}

/** A pool on `url`, pinged once; closed again (and the driver's error thrown) when that fails. */
async function connectPostgres(
  url: string,
  settings: PoolSettings,
  options: OpenDatabaseOptions,
  statementTimeoutMs: number | undefined,
): Promise<Database> {
  const pg = require('pg') as typeof import('pg');
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => {
      // int8 as a JS number when exact, else a string: the same values PGlite gives.
      if (oid === INT8_OID) return parseInt8;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const pool = new pg.Pool({
    connectionString: url,
    max: settings.size,
    connectionTimeoutMillis: connectTimeoutMs,
    types: types as never,
    ...(statementTimeoutMs === undefined ? {} : { statement_timeout: statementTimeoutMs }),
  });
  pool.on('error', (err) => options.onPoolError?.(err));
  const kysely = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  const db = new KyselyDatabase(
    'postgres',
    describeUrl(url),
    kysely,
    () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    undefined,
    // Named and cancellable statements go to the pool directly: Kysely's driver can do neither.
    poolRunner(pg, pool, connectTimeoutMs, settings.named, options.onWarning),
  );
  try {
    await db.ping();
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/**
 * Runs a statement on a pooled connection: named (a prepared statement per connection) unless the
 * database was opened with `preparedStatements: false` (`named`) or a transaction-mode pooler has
 * shown it cannot keep them (below), and stopped by its signal
 * (db/cancel). It takes the three steps `pool.query` takes, connect, query, release (a connection
 * whose statement failed is closed, not pooled), with the connection in hand to cancel on, and
 * the query made as `submit` makes it. The abort may come before
 * the statement is sent (refused), while it runs (cancelled: its implicit transaction rolls
 * back), or once it has ended and committed but its answer is still on the way (the cancel finds
 * nothing to stop and the result is returned; the caller that gave up drops it).
 */
function poolRunner(
  pg: typeof import('pg'),
  pool: import('pg').Pool,
  cancelTimeoutMs: number,
  named: boolean,
  onWarning: ((message: string) => void) | undefined,
): StatementRunner {
  const run = async (
    statement: Statement,
    signal: StopSignal | undefined,
  ): Promise<QueryResult<Record<string, unknown>>> => {
    if (signal?.aborted) throw new StatementCancelledError();
    const client = (await pool.connect()) as import('pg').PoolClient & BackendKey;
    // A connection error while the client is out of the pool is emitted on it (pool.query
    // listens the same way); the query's own rejection reports it.
    const ignore = () => undefined;
    client.on('error', ignore);
    let cancelled = false;
    const cancel = () => {
      cancelled = true;
      void sendCancelRequest(pg, client, cancelTimeoutMs);
    };
    let failure: unknown;
    try {
      // The wait for a connection may have outlasted the caller: what has not started does not.
      if (signal?.aborted) throw new StatementCancelledError();
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        return resultOf(await submit(pg, client, statement));
      } catch (err) {
        failure = err;
        throw err;
      }
    } finally {
      signal?.removeEventListener('abort', cancel);
      client.off('error', ignore);
      // After a cancel request the backend may receive it once this statement is over and cancel
      // the next one run on it: that connection is closed, never pooled. A failed statement's
      // connection is closed too, as pool.query does.
      client.release(cancelled || failure !== undefined);
    }
  };
  return async (text, values, { name, signal }) => {
    if (name === undefined || !named) return run({ text, values, name: undefined }, signal);
    try {
      return await run({ text, values, name }, signal);
    } catch (err) {
      // A transaction-mode pooler (PgBouncer before 1.21) hands each statement to any server
      // connection: one never told the name answers 26000, one told it by another client 42P05.
      // Neither ran the statement. Stop naming statements for the rest of the pool's life and
      // run it again: every caller (query engine, auth) is served, at the cost of one failure.
      const code = (err as { code?: unknown }).code;
      if (code !== '26000' && code !== '42P05') throw err;
      if (named) {
        named = false;
        onWarning?.(
          'the database (a connection pooler) does not keep prepared statements: statements ' +
            'are sent unnamed from now on; set [database] prepared_statements = false to skip ' +
            'this first failure',
        );
      }
      if (signal?.aborted) throw new StatementCancelledError();
      return run({ text, values, name: undefined }, signal);
    }
  };
}

/** A statement for `submit`: its text, its values and, when prepared, its name. */
interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly name: string | undefined;
}

/**
 * Runs `statement` on `client` as a query object made from its text (`client.query` accepts one),
 * its name set after: given a config object instead, pg copies it property by property through
 * its descriptors (`cloneQueryConfig`), a few microseconds on every statement of every request.
 */
function submit(
  pg: typeof import('pg'),
  client: import('pg').PoolClient,
  statement: Statement,
): Promise<import('pg').QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new pg.Query(statement.text, statement.values as unknown[], (err, result) =>
      err ? reject(err) : resolve(result as import('pg').QueryResult),
    );
    // Read when the query is sent (pg's typings leave it out of the class).
    if (statement.name !== undefined) (query as { name?: string }).name = statement.name;
    client.query(query);
  });
}

function resultOf(result: import('pg').QueryResult): QueryResult<Record<string, unknown>> {
  return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
}

/**
 * PostgreSQL settings of every embedded database, given on its command line (they win over the
 * folder's postgresql.conf).
 * - `shared_buffers=16MB`: PGlite keeps its shared memory inside the WASM heap, where it stays
 *   resident: the default 128MB is most of an idle instance's memory. An embedded database is
 *   small, and the operating system's page cache is under it anyway (see bench/memory).
 * - `synchronous_commit=on`: a commit is answered only after its WAL is written to the folder, so
 *   a process killed right after (kill -9) loses nothing it answered. PGlite runs with fsync off
 *   (its Node filesystem has no fsync), so this holds for a killed process, not for a power cut.
 */
export const PGLITE_SETTINGS: readonly string[] = ['shared_buffers=16MB', 'synchronous_commit=on'];

/**
 * Whether an embedded folder holds a database already (PostgreSQL's `PG_VERSION`, written by
 * initdb); opening one that does not creates it (`onCreateDataDir`). A missing folder holds none.
 */
export function holdsEmbeddedDatabase(dataDir: string): boolean {
  return fs.existsSync(path.join(path.resolve(dataDir), 'PG_VERSION'));
}

async function openPGlite(dataDir: string | undefined, options: OpenDatabaseOptions) {
  const { PGlite } = requirePGlite(); // before the lock: a missing PGlite touches nothing
  // Held from before the first file is touched until close: a second opener fails at once.
  const lock = dataDir ? await DataDirLock.acquire(dataDir) : undefined;
  try {
    if (dataDir && !holdsEmbeddedDatabase(dataDir)) {
      const started = performance.now();
      options.onCreateDataDir?.({ dataDir });
      await initialiseDataDir(dataDir);
      options.onCreateDataDir?.({ dataDir, ms: Math.round(performance.now() - started) });
    }
    const startParams = [
      ...PGlite.defaultStartParams,
      ...PGLITE_SETTINGS.flatMap((s) => ['-c', s]),
    ];
    const pgliteWasmModule = await loadPGliteModule();
    const pg = new PGlite({
      ...(dataDir ? { dataDir } : {}),
      startParams,
      parsers: { [INT8_OID]: parseInt8 },
      pgliteWasmModule,
    });
    await pg.waitReady;
    const mutex = new Mutex();
    const kysely = new Kysely<any>({ dialect: new PGliteDialect(pg, mutex) });
    const description = dataDir ? `embedded PGlite at ${dataDir}` : 'embedded PGlite in memory';
    const db = new KyselyDatabase(
      'pglite',
      description,
      kysely,
      () => ({ total: 1, idle: mutex.locked ? 0 : 1, waiting: mutex.waiting }),
      lock,
      pgliteRunner(pg, mutex),
    );
    // Initialise Kysely's driver now: its destroy() skips a driver that was never initialised,
    // which would leave the embedded database open after close().
    await db.ping();
    return db;
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/**
 * Runs a statement on the embedded database under the same mutex as Kysely's driver (names mean
 * nothing here). PGlite runs a statement on the JavaScript thread, to its end: nothing can
 * interrupt it, not even the timer that would abort its signal. What the signal can do is keep a
 * statement from starting: one already aborted, or aborted while it waited its turn.
 *
 * A statement that waited may have waited behind one that held the thread past its deadline, so
 * that the timer aborting its signal could not fire: before checking the signal it lets the
 * event loop turn twice (from any phase, the second turn passes through the timers phase, where
 * timers already due fire). Only a signalled statement that had to wait pays for it.
 */
function pgliteRunner(pg: import('@electric-sql/pglite').PGlite, mutex: Mutex): StatementRunner {
  return async (text, values, { signal }) => {
    if (signal?.aborted) throw new StatementCancelledError();
    const waited = mutex.locked;
    await mutex.lock();
    try {
      if (signal && waited) {
        await nextTurn();
        await nextTurn();
      }
      if (signal?.aborted) throw new StatementCancelledError();
      const result = await pg.query<Record<string, unknown>>(text, [...values]);
      const affected = result.affectedRows;
      return {
        rows: result.rows,
        rowCount:
          affected !== undefined && result.fields.length === 0 ? affected : result.rows.length,
      };
    } finally {
      mutex.unlock();
    }
  };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Creates a new embedded database in `dataDir` in a child process. PGlite runs initdb in a second
 * WASM instance whose memory the process keeps until V8 collects it (about 450 MB more resident
 * memory, for minutes or for good); a child returns it to the system when it exits. The child builds the
 * folder aside and the files are moved in with `PG_VERSION` last, so a start killed half-way
 * leaves a folder that is simply initialised again, never one that looks ready and is not.
 * Falls back to PGlite's own in-process initdb when a child cannot be run.
 */
async function initialiseDataDir(dataDir: string): Promise<void> {
  const staging = path.join(dataDir, '.svc-initdb');
  fs.rmSync(staging, { recursive: true, force: true }); // left by a start that was killed
  const pglite = resolvePGlite();
  const script = [
    'const { PGlite } = require(process.argv[1]);',
    '(async () => { const pg = new PGlite({ dataDir: process.argv[2] }); await pg.waitReady; await pg.close(); })()',
    '  .catch(() => process.exit(1));',
  ].join('\n');
  const made = await new Promise<boolean>((resolve) => {
    const child = spawn(process.execPath, ['-e', script, pglite, staging], { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), INITDB_TIMEOUT_MS);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && fs.existsSync(path.join(staging, 'PG_VERSION')));
    });
  });
  if (!made) {
    fs.rmSync(staging, { recursive: true, force: true });
    return; // PGlite initialises the folder itself, in this process
  }
  const entries = fs.readdirSync(staging).filter((name) => name !== 'PG_VERSION');
  for (const name of [...entries, 'PG_VERSION']) {
    const target = path.join(dataDir, name);
    // Without PG_VERSION the folder was never a database: what is there is an interrupted start's.
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(path.join(staging, name), target);
  }
  fs.rmSync(staging, { recursive: true, force: true });
}

const INITDB_TIMEOUT_MS = 120_000;

const INT8_OID = 20;
function parseInt8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

/** `postgres://user:secret@host:5432/db?x=y` → `PostgreSQL at postgres://user@host:5432/db`. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    u.search = '';
    return `PostgreSQL at ${u.toString()}`;
  } catch {
    return 'PostgreSQL (unparseable URL)';
  }
}

function queryable(kysely: Kysely<any>): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await kysely.executeQuery<Row>(CompiledQuery.raw(sql, [...params]));
      const affected = result.numAffectedRows;
      return {
        rows: result.rows,
        rowCount: affected === undefined ? result.rows.length : Number(affected),
      };
    },
    kysely: <DB>() => kysely as Kysely<DB>,
  };
}

/** Runs one statement outside Kysely: named or with a signal, which Kysely's drivers cannot take. */
type StatementRunner = (
  text: string,
  values: readonly unknown[],
  options: QueryOptions,
) => Promise<QueryResult<Record<string, unknown>>>;

class KyselyDatabase implements Database {
  readonly #kysely: Kysely<any>;
  readonly #stats: () => PoolStats;
  readonly #queryable: Queryable;
  readonly #lock: DataDirLock | undefined;
  readonly #direct: StatementRunner;
  #closing: Promise<void> | undefined;

  constructor(
    readonly kind: DatabaseKind,
    readonly description: string,
    kysely: Kysely<any>,
    stats: () => PoolStats,
    lock: DataDirLock | undefined,
    direct: StatementRunner,
  ) {
    this.#kysely = kysely;
    this.#stats = stats;
    this.#lock = lock;
    this.#direct = direct;
    this.#queryable = queryable(kysely);
  }

  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ) {
    if (this.#closing)
      return Promise.reject(new Error(`the database is closed (${this.description})`));
    if (options?.name !== undefined || options?.signal !== undefined)
      return this.#direct(sql, params ?? [], options) as Promise<QueryResult<Row>>;
    return this.#queryable.query<Row>(sql, params);
  }

  kysely<DB = any>(): Kysely<DB> {
    return this.#kysely as Kysely<DB>;
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    if (this.#closing)
      return Promise.reject(new Error(`the database is closed (${this.description})`));
    return this.#kysely.transaction().execute((trx) => fn(queryable(trx)));
  }

  async ping(): Promise<void> {
    await this.query('select 1');
  }

  stats(): PoolStats {
    return this.#stats();
  }

  advertise(url: string | undefined): void {
    if (!this.#closing) this.#lock?.advertise(url);
  }

  close(): Promise<void> {
    // The folder is released once PGlite has shut down (its last checkpoint written).
    this.#closing ??= this.#kysely.destroy().finally(() => this.#lock?.release());
    return this.#closing;
  }
}
