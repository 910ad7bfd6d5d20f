/**
 * db: one interface over real PostgreSQL (`pg`) and embedded PGlite, both driven through Kysely.
 * Input: a DatabaseConfig. Output: a Database with parameterised queries, transactions, a Kysely
 * instance, pool figures and a clean close. Values are always bound, never spliced into SQL.
 */
export type {
  Database,
  DatabaseConfig,
  DatabaseKind,
  PoolStats,
  QueryOptions,
  StopSignal,
  QueryResult,
  Queryable,
  Transaction,
} from './types';
export {
  openDatabase,
  describeUrl,
  holdsEmbeddedDatabase,
  PGLITE_SETTINGS,
  type OpenDatabaseOptions,
} from './open';
export { loadPGliteModule, type PGliteWasmModule } from './pglite-module';
export {
  DataDirLock,
  DataDirLockedError,
  LOCK_FILE_NAME,
  lockError,
  readDataDirLock,
  type LockHolder,
} from './lock';
export { DatabaseConnectionError, type DatabaseConnectionProblem } from './connection-error';
