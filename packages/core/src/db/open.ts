import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import { DataDirLock } from './lock';
import { checkDatabaseUrl, connectionFailure } from './connection-error';
import { loadPGliteModule } from './pglite-module';
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
} from './types';

export interface OpenDatabaseOptions {
  /** Called with errors of idle pooled connections (which would otherwise crash the process). */
  readonly onPoolError?: (err: Error) => void;
  /**
   * How long a new PostgreSQL connection may take before it fails as unreachable (a host that
   * drops packets would otherwise hang the opener forever). Default 10000 ms.
   */
  readonly connectTimeoutMs?: number;
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
  if ('url' in config) return openPostgres(config.url, config.poolSize ?? 10, options);
  if ('dataDir' in config) return openPGlite(path.resolve(config.dataDir));
  if ('memory' in config && config.memory) return openPGlite(undefined);
  throw new TypeError('database config needs one of: url, dataDir, memory');
}

async function openPostgres(url: string, poolSize: number, options: OpenDatabaseOptions) {
  const target = checkDatabaseUrl(url);
  const pg = require('pg') as typeof import('pg');
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => {
      // int8 as a JS number when exact, else a string: the same values PGlite gives.
      if (oid === INT8_OID) return parseInt8;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    types: types as never,
  });
  pool.on('error', (err) => options.onPoolError?.(err));
  const kysely = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  const db = new KyselyDatabase(
    'postgres',
    describeUrl(url),
    kysely,
    () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    undefined,
    // Named statements go to the pool directly: Kysely's driver has no way to name them.
    async (name, text, values) => {
      const result = await pool.query({ name, text, values: [...values] });
      return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
    },
  );
  try {
    await db.ping();
  } catch (err) {
    await db.close();
    throw connectionFailure(err, target);
  }
  return db;
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

async function openPGlite(dataDir: string | undefined) {
  const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  // Held from before the first file is touched until close: a second opener fails at once.
  const lock = dataDir ? await DataDirLock.acquire(dataDir) : undefined;
  try {
    if (dataDir && !fs.existsSync(path.join(dataDir, 'PG_VERSION')))
      await initialiseDataDir(dataDir);
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
  const pglite = require.resolve('@electric-sql/pglite');
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

/** Runs a named prepared statement (PostgreSQL's pool, which Kysely's driver cannot name). */
type PreparedRunner = (
  name: string,
  text: string,
  values: readonly unknown[],
) => Promise<QueryResult<Record<string, unknown>>>;

class KyselyDatabase implements Database {
  readonly #kysely: Kysely<any>;
  readonly #stats: () => PoolStats;
  readonly #queryable: Queryable;
  readonly #lock: DataDirLock | undefined;
  readonly #prepared: PreparedRunner | undefined;
  #closing: Promise<void> | undefined;

  constructor(
    readonly kind: DatabaseKind,
    readonly description: string,
    kysely: Kysely<any>,
    stats: () => PoolStats,
    lock?: DataDirLock,
    prepared?: PreparedRunner,
  ) {
    this.#kysely = kysely;
    this.#stats = stats;
    this.#lock = lock;
    this.#prepared = prepared;
    this.#queryable = queryable(kysely);
  }

  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ) {
    if (this.#closing)
      return Promise.reject(new Error(`the database is closed (${this.description})`));
    if (options?.name !== undefined && this.#prepared)
      return this.#prepared(options.name, sql, params ?? []) as Promise<QueryResult<Row>>;
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
