/**
 * schema: SDL text → Schema model (build/), the storage layout and DDL of a model (storage/),
 * the plan between two models (diff/), and the runner that applies a plan (migrate.ts).
 */
export * from './model';
export * from './plan';
export { buildSchema } from './build';
export { planMigration } from './diff';
export { STORAGE_BOOTSTRAP_SQL } from './storage';
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
} from './migrate';
export {
  describeSchema,
  type TypeCatalogue,
  type CatalogueType,
  type CataloguePointer,
  type CatalogueLink,
} from './catalogue';
export { createDefaultMigrator } from './default';
