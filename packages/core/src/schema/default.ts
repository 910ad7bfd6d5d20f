/**
 * The migrator svc uses: the SDL builder, the planner over svc's storage layout, and the
 * layout's bootstrap SQL. `createMigrator` (migrate.ts) takes these as parts so the runner can be
 * tested alone.
 */
import { buildSchema } from './build';
import { planMigration } from './diff';
import { createMigrator, type Migrator } from './migrate';
import { STORAGE_BOOTSTRAP_SQL } from './storage';

export function createDefaultMigrator(): Migrator {
  return createMigrator({
    build: buildSchema,
    plan: planMigration,
    bootstrapSql: STORAGE_BOOTSTRAP_SQL,
  });
}
