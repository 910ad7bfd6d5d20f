/**
 * The contract between the schema pipeline (build → storage layout → diff) and the migration
 * runner. `planMigration` is pure: it reads two schemas and says what SQL would take a database
 * from one to the other; the runner (storage/migrate.ts) checks stored data and executes it.
 */
export type MigrationStepKind =
  | 'create type'
  | 'drop type'
  | 'alter type'
  | 'create property'
  | 'drop property'
  | 'alter property'
  | 'create link'
  | 'drop link'
  | 'alter link'
  | 'create constraint'
  | 'drop constraint'
  | 'create index'
  | 'drop index'
  | 'create policy'
  | 'drop policy'
  | 'alter policy'
  | 'create scalar'
  | 'drop scalar'
  | 'alter scalar'
  | 'create global'
  | 'drop global'
  | 'alter global'
  | 'create function'
  | 'drop function'
  | 'alter function'
  | 'create view'
  | 'drop view'
  | 'create trigger'
  | 'drop trigger';

export interface MigrationStep {
  readonly kind: MigrationStepKind;
  /** What it is about, qualified: `default::User`, `default::User.name`. */
  readonly subject: string;
  /** One line a person reads: `create property default::User.email (std::str, required)`. */
  readonly description: string;
  /** The SQL statements of this step, in order. */
  readonly sql: readonly string[];
}

/**
 * A query run before anything is applied; if it returns rows, the migration refuses.
 * - `data-loss`: the step drops a column, table or link that holds data (refused unless
 *   `allowDataLoss`);
 * - `violation`: stored rows break a constraint being added (an `exclusive on ((.a, .b))`
 *   with duplicates); never overridable.
 */
export interface DataCheck {
  readonly kind: 'data-loss' | 'violation';
  readonly subject: string;
  /** What the user is told when the query returns rows. */
  readonly message: string;
  /** A SELECT returning one row per offending item (at most 20). No parameters. */
  readonly sql: string;
}

export interface MigrationPlan {
  readonly steps: readonly MigrationStep[];
  readonly checks: readonly DataCheck[];
}
