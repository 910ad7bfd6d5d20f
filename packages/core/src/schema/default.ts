/**
 * The migrator svc uses: the SDL builder, the planner over svc's storage layout, and the
 * layout's bootstrap SQL. `createMigrator` (migrate.ts) takes these as parts so the runner can be
 * tested alone.
 */
import { buildSchema } from './build';
import { planMigration } from './diff';
import { createMigrator, type Migrator } from '../storage/migrate';
import { STORAGE_BOOTSTRAP_SQL } from './bootstrap';

export function createDefaultMigrator(): Migrator {
  return createMigrator({
    build: buildSchema,
    plan: planMigration,
    bootstrapSql: STORAGE_BOOTSTRAP_SQL,
  });
}
