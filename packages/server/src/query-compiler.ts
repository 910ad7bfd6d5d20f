/**
 * The EdgeQL compiler svc runs queries with, and the one assembly of a query engine over a
 * database: `svc serve` (server.ts) and `svc query` (the CLI, which depends on this package) both
 * build theirs here, so they always compile and read the stored schema alike.
 */
import {
  buildSchema,
  compileQuery,
  createDefaultMigrator,
  createQueryEngine,
  storedSchemaSource,
  type CompileQuery,
  type Database,
  type Migrator,
  type QueryEngine,
  type QueryEngineOptions,
} from '@svc/core';

export { compileQuery };

export interface ServerQueryEngineOptions
  extends Pick<
    QueryEngineOptions,
    'cacheSize' | 'onCompileCache' | 'onStatementCancelled' | 'allowUserSpecifiedId'
  > {
  /** @default core's `compileQuery` */
  readonly compileQuery?: CompileQuery;
  /** The migrator whose stored schema queries compile against. @default createDefaultMigrator() */
  readonly migrator?: Pick<Migrator, 'current' | 'emptyVersion'>;
}

/**
 * A query engine over `database`: svc's compiler, the schema the migrator stored (read again
 * when its version moves).
 */
export function createServerQueryEngine(
  database: Database,
  options: ServerQueryEngineOptions = {},
): QueryEngine {
  const { compileQuery: compile, migrator, ...rest } = options;
  return createQueryEngine({
    ...rest,
    db: database,
    compile: compile ?? compileQuery,
    schema: storedSchemaSource(database, migrator ?? createDefaultMigrator(), buildSchema),
  });
}
