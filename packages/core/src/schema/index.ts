/**
 * schema: SDL text → Schema model (build/), the compiler of DDL expressions (./ddl-expression),
 * the plan between two models (diff/), the bootstrap SQL (./bootstrap) and the default migrator
 * (./default). It sits above the query compiler, which it uses; the model (model/), the storage
 * layout and the migration runner (storage/) sit below it.
 */
export * from '../model/schema';
export * from '../model/migration';
export { buildSchema } from './build';
export { planMigration, typeChangeWanting, type TypeChangeWantingFill } from './diff';
export { STORAGE_BOOTSTRAP_SQL } from './bootstrap';
export {
  createMigrator,
  schemaVersion,
  type MigrateOptions,
  type MigrateResult,
  type MigrationRecord,
  type MigrationStepSummary,
  type Migrator,
  type MigratorParts,
  type StoredSchema,
} from '../storage/migrate';
export {
  describeSchema,
  type TypeCatalogue,
  type CatalogueType,
  type CataloguePointer,
  type CatalogueLink,
} from '../model/catalogue';
export { createDefaultMigrator } from './default';
export {
  makeMigration,
  migrationChain,
  migrationFileName,
  parseMigrationFile,
  renderMigrationFile,
  type MigrationFile,
} from './migration-file';
