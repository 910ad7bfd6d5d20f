import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { Mutex } from './mutex';

/**
 * A Kysely dialect over one embedded PGlite instance. PGlite is a single connection, so the
 * driver hands it out under a mutex: a transaction holds it from BEGIN to COMMIT and other
 * callers wait their turn instead of interleaving statements into it.
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly pg: PGlite,
    private readonly mutex: Mutex,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg, this.mutex);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  constructor(
    private readonly pg: PGlite,
    private readonly mutex: Mutex,
  ) {
    this.#connection = new PGliteConnection(pg);
  }
  async init(): Promise<void> {
    await this.pg.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.#connection;
  }
  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await conn.executeQuery(CompiledQuery.raw(`begin${level}`));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }
  async destroy(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pg.query<R>(compiled.sql, compiled.parameters as unknown[]);
    const affected = result.affectedRows;
    return affected !== undefined && result.fields.length === 0
      ? { rows: result.rows, numAffectedRows: BigInt(affected) }
      : { rows: result.rows };
  }
  // biome-ignore lint/correctness/useYield: a generator that refuses before yielding anything
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on embedded PGlite');
  }
}
