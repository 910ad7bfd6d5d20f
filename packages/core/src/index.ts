/**
 * @svc/core: what a program needs from the language core, and nothing else. Internals stay in
 * their stage folders (`syntax/`, `schema/`, `sql/`, `db/`), test helpers in `@svc/core/testing`.
 *
 * - errors: the one error class, the Gel-named query errors, the code registry and the renderer;
 * - db: `openDatabase` over PostgreSQL or a PGlite folder, and its types;
 * - schema: SDL → model (`buildSchema`), model → plan (`planMigration`), the migrator and the
 *   type catalogue, with the model's types;
 * - `ql`: parse and print EdgeQL and SDL;
 * - json: the bound on a caller's JSON nesting and a serialiser for JSON of any depth.
 */
export {
  SvcError,
  defineErrorCodes,
  registeredErrorCodes,
  type ErrorCodeEntry,
  type ErrorFactory,
  type SourcePosition,
  type SvcErrorOptions,
} from './errors/svc-error';
export { commonError, notInThisRelease, type CommonErrorCode } from './errors/codes';
export { escapeHtml } from './html';
export { MAX_JSON_DEPTH, jsonDepthProblem, stringifyJson } from './json';
/** "Did you mean" for a name a person typed (a command, an option, a configuration key). */
export { closestName } from './syntax/hints';
export {
  ERROR_ENVELOPE_SCHEMA,
  errorCodeOf,
  noteErrorCode,
  renderError,
  type ErrorEnvelope,
  type RenderedError,
} from './errors/render';
export { formatErrorReport } from './errors/frame';
export {
  QueryError,
  InvalidSyntaxError,
  EdgeQLSyntaxError,
  SchemaSyntaxError,
  InvalidTypeError,
  InvalidTargetError,
  InvalidPropertyTargetError,
  InvalidLinkTargetError,
  InvalidReferenceError,
  UnknownModuleError,
  UnknownParameterError,
  SchemaError,
  SchemaDefinitionError,
  InvalidDefinitionError,
  InvalidPropertyDefinitionError,
  InvalidLinkDefinitionError,
  InvalidConstraintDefinitionError,
  InvalidFunctionDefinitionError,
  DuplicateDefinitionError,
  QueryCardinalityError,
  ResultCardinalityMismatchError,
  QueryArgumentError,
  NoDataError,
  UnsupportedFeatureError,
  ExecutionError,
  InvalidValueError,
  DivisionByZeroError,
  NumericOutOfRangeError,
  IntegrityError,
  ConstraintViolationError,
  CardinalityViolationError,
  MissingRequiredError,
  ForeignKeyViolationError,
  TransactionError,
  TransactionSerializationError,
  TransactionDeadlockError,
  QueryTimeoutError,
  MigrationError,
  DataLossError,
  queryErrorClassForSqlState,
  type QueryErrorOptions,
} from './errors/query-errors';
export {
  fromDatabaseError,
  databaseErrorFields,
  NO_VOCABULARY,
  type DatabaseErrorFields,
  type ErrorVocabulary,
} from './errors/database-errors';

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
} from './db/types';
export {
  describeUrl,
  holdsEmbeddedDatabase,
  openDatabase,
  PGLITE_SETTINGS,
  type OpenDatabaseOptions,
} from './db/open';
export { DatabaseConnectionError, type DatabaseConnectionProblem } from './db/connection-error';
export { DataDirLockedError, LOCK_FILE_NAME, readDataDirLock, type LockHolder } from './db/lock';

export type {
  AbstractAnnotation,
  AbstractConstraint,
  AccessKind,
  AccessPolicy,
  Alias,
  Annotations,
  Constraint,
  FunctionDef,
  FunctionParam,
  Global,
  Index,
  ObjectType,
  OnSourceDelete,
  OnTargetDelete,
  Pointer,
  ScalarType,
  Schema,
  SourceSpan,
  StdScalarName,
  TypeNamePrinter,
  TypeRef,
} from './model/schema';
export { printTypeRef } from './model/schema';
/** The std table's signatures (for `svc generate query-builder`'s typed functions and operators). */
export {
  stdFunctionNames,
  stdFunctionOverloads,
  stdOperatorNames,
  stdOperatorOverloads,
  type Overload as StdOverload,
  type SigType,
} from './std';
export type {
  DataCheck,
  MigrationHints,
  MigrationPlan,
  MigrationRename,
  MigrationStep,
  MigrationStepKind,
} from './model/migration';
export { buildSchema, joinSchemaFiles, type SchemaFile } from './schema/build';
export { planMigration, typeChangeWanting, type TypeChangeWantingFill } from './schema/diff';
export { createDefaultMigrator } from './schema/default';
export { schemaVersion } from './storage/migrate';
export { MIGRATION_LOCK, withLock } from './storage/lock';
export {
  makeMigration,
  migrationChain,
  migrationFileName,
  parseMigrationFile,
  renderMigrationFile,
  type MigrationFile,
} from './schema/migration-file';
export type {
  MigrateOptions,
  MigrateResult,
  MigrationRecord,
  MigrationStepSummary,
  Migrator,
  StoredSchema,
} from './storage/migrate';
export {
  describeSchema,
  openObjectTypes,
  openToEveryone,
  type DefaultAccess,
  type CatalogueLink,
  type CataloguePointer,
  type CatalogueType,
  type TypeCatalogue,
} from './model/catalogue';

export * as ql from './ql';

export type {
  AccessMode,
  CompileOptions,
  CompileQuery,
  CompiledQuery,
  InferredCardinality,
  QueryParam,
  RequestedCardinality,
  SingleLinkForm,
  ArgumentsDescriptor,
  DescribedCardinality,
  PointerDescriptor,
  QueryDescription,
  TypeDescriptor,
} from './query/api';
export { resultArrayText } from './query/api';
export { compileQuery } from './query/compile';
export {
  ANONYMOUS_AUTH,
  createQueryEngine,
  EXACT_TEXT,
  scalarValueKind,
  storedSchemaSource,
  valueProblem,
  type AuthValues,
  type QueryCaller,
  type QueryEngine,
  type QueryEngineOptions,
  type ParamKind,
  type QueryRequest,
  type Probe,
  type RunOptions,
  type SchemaSource,
} from './query/engine';
