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
  | 'alter constraint'
  | 'drop constraint'
  | 'create index'
  | 'alter index'
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
  /**
   * How many leading steps are renames (MigrationHints): they change no data, and the checks
   * read tables and columns by the names they leave, so the runner runs them before the checks.
   * Absent: none.
   */
  readonly renameSteps?: number;
  /**
   * Stored pointers whose existing objects need a value no default gives (added as required, or
   * made required) and for which no fill was given: the migration is refused if such objects
   * exist (a `violation` check). `svc migration create`, which plans without a database, asks
   * for their fills as Gel does. Absent: none.
   */
  readonly fillsWanted?: readonly string[];
}

/**
 * The user's word that a name of the stored schema is a name of the new one: the data stays,
 * renamed, instead of a drop and an add. Unqualified type names are in `default`.
 * - `type`: `default::User` is now `default::Person` (same module);
 * - `pointer`: `type.from` is now `type.to`, in the type that declares it (named by its stored or
 *   its new name), and so in every type that inherits it.
 */
export type MigrationRename =
  | { readonly kind: 'type'; readonly from: string; readonly to: string }
  | { readonly kind: 'pointer'; readonly type: string; readonly from: string; readonly to: string };

/**
 * What a migration needs to know that two schemas cannot say (Gel asks for the same when it
 * creates a migration):
 * - `renames`: see `MigrationRename`;
 * - `fills`: by a stored pointer's subject in the new schema (`default::User.about`), an EdgeQL
 *   expression over the object (`.name ++ '!'`) giving the value of rows that have none when the
 *   pointer is added as required or becomes required, or (written over the stored value, e.g.
 *   `<int64>.age`) the new value when its type changes.
 */
export interface MigrationHints {
  readonly renames?: readonly MigrationRename[];
  readonly fills?: Readonly<Record<string, string>>;
}
