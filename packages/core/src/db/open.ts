import fs from 'node:fs';
import path from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import { checkDatabaseUrl, connectionFailure } from './connection-error';
import { Mutex } from './mutex';
import { PGliteDialect } from './pglite-dialect';
import type {
  Database,
  DatabaseConfig,
  DatabaseKind,
  PoolStats,
  QueryResult,
  Queryable,
  Transaction,
} from './types';

export interface OpenDatabaseOptions {
  /** Called with errors of idle pooled connections (which would otherwise crash the process). */
  readonly onPoolError?: (err: Error) => void;
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
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: types as never });
  pool.on('error', (err) => options.onPoolError?.(err));
  const kysely = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  const db = new KyselyDatabase('postgres', describeUrl(url), kysely, () => ({
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
  }));
  try {
    await db.ping();
  } catch (err) {
    await db.close();
    throw connectionFailure(err, target);
  }
  return db;
}

async function openPGlite(dataDir: string | undefined) {
  const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const pg = new PGlite({ ...(dataDir ? { dataDir } : {}), parsers: { [INT8_OID]: parseInt8 } });
  await pg.waitReady;
  const mutex = new Mutex();
  const kysely = new Kysely<any>({ dialect: new PGliteDialect(pg, mutex) });
  const description = dataDir ? `embedded PGlite at ${dataDir}` : 'embedded PGlite in memory';
  const db = new KyselyDatabase('pglite', description, kysely, () => ({
    total: 1,
    idle: mutex.locked ? 0 : 1,
    waiting: mutex.waiting,
  }));
  // Initialise Kysely's driver now: its destroy() skips a driver that was never initialised,
  // which would leave the embedded database open after close().
  await db.ping();
  return db;
}

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

class KyselyDatabase implements Database {
  readonly #kysely: Kysely<any>;
  readonly #stats: () => PoolStats;
  readonly #queryable: Queryable;
  #closing: Promise<void> | undefined;

  constructor(
    readonly kind: DatabaseKind,
    readonly description: string,
    kysely: Kysely<any>,
    stats: () => PoolStats,
  ) {
    this.#kysely = kysely;
    this.#stats = stats;
    this.#queryable = queryable(kysely);
  }

  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]) {
    if (this.#closing) return Promise.reject(new Error(`the database is closed (${this.description})`));
    return this.#queryable.query<Row>(sql, params);
  }

  kysely<DB = any>(): Kysely<DB> {
    return this.#kysely as Kysely<DB>;
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    if (this.#closing) return Promise.reject(new Error(`the database is closed (${this.description})`));
    return this.#kysely.transaction().execute((trx) => fn(queryable(trx)));
  }

  async ping(): Promise<void> {
    await this.query('select 1');
  }

  stats(): PoolStats {
    return this.#stats();
  }

  close(): Promise<void> {
    this.#closing ??= this.#kysely.destroy();
    return this.#closing;
  }
}
