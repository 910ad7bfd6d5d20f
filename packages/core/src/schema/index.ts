/**
 * schema: SDL text → Schema model (build/), the storage layout and DDL of a model (storage/),
 * the plan between two models (diff/), and the runner that applies a plan (migrate.ts).
 */
export * from '../model/schema';
export * from '../model/migration';
export { buildSchema } from './build';
export { planMigration } from './diff';
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
