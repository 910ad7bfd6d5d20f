/**
 * storage/migrate: applies a schema to a database. Input: SDL text and an open Database.
 * Output: what was (or, for a dry run, would be) done. It builds the target model, loads the
 * stored schema, asks for the plan between them, runs the plan's checks, then executes every
 * step and records the migration, all in one transaction: a migration applies whole or not at
 * all. Concurrent migrations are serialised by a transaction-scoped row lock (storage/lock).
 */
import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../db';
import {
  ConstraintViolationError,
  DataLossError,
  EdgeQLSyntaxError,
  InvalidDefinitionError,
  MigrationError,
  SvcError,
  databaseErrorFields,
  fromDatabaseError,
} from '../errors';
import { MIGRATION_LOCK, withLock } from './lock';
import type { Schema } from '../model/schema';
import type { DataCheck, MigrationHints, MigrationPlan, MigrationStep } from '../model/migration';

export interface MigratorParts {
  /** SDL text → model (throws schema errors with positions). */
  readonly build: (sdl: string) => Schema;
  /** The plan from one model to another (`null`: an empty database). */
  readonly plan: (from: Schema | null, to: Schema, hints: MigrationHints) => MigrationPlan;
  /** Idempotent SQL run before every migration (helper functions the layout relies on). */
  readonly bootstrapSql: readonly BootstrapStatement[];
}

/**
 * One statement of the bootstrap: plain SQL run every time (`create or replace ...`), or SQL that
 * makes a type in `svc_meta` and runs only when `pg_type` has no type of that name there (a
 * `CREATE DOMAIN` has no `if not exists`).
 */
export type BootstrapStatement = string | { readonly sql: string; readonly unlessType: string };

/**
 * Runs the bootstrap: one `pg_type` query for the `svc_meta` types it would make, then each
 * statement whose type is missing, in order. Not safe against a concurrent run by itself: the
 * migrator calls it under its migration lock (tests on a database of their own call it alone).
 */
export async function runBootstrap(
  db: Queryable,
  statements: readonly BootstrapStatement[],
  exec: (sql: string) => Promise<unknown> = (sql) => db.query(sql),
): Promise<void> {
  const types = statements.flatMap((s) => (typeof s === 'string' ? [] : [s.unlessType]));
  const present = new Set<string>();
  if (types.length > 0) {
    const { rows } = await db.query<{ typname: string }>(
      "select t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'svc_meta' and t.typname = any($1::text[])",
      [types],
    );
    for (const r of rows) present.add(r.typname);
  }
  for (const s of statements) {
    if (typeof s === 'string') await exec(s);
    else if (!present.has(s.unlessType)) await exec(s.sql);
  }
}

export interface MigrateOptions extends MigrationHints {
  /** Plan and check, then roll back: nothing changes. */
  readonly dryRun?: boolean;
  /**
   * The migration file this is (schema/migration-file): recorded by id, refused unless the last
   * migration file applied is its parent, and a no-op when it was applied already. Absent: a
   * development push of the schema as it is (`svc migrate --dev`), recorded without an id.
   */
  readonly migration?: { readonly id: string; readonly parent: string | null };
  /** Let steps drop data (columns, tables, links holding rows). @default false */
  readonly allowDataLoss?: boolean;
  /**
   * Told before each step runs (`done` of `total` have run), for progress on long migrations; a
   * dry run runs its steps too, then rolls them back.
   */
  readonly onStep?: (done: number, total: number, step: MigrationStepSummary) => void;
}

export interface MigrationStepSummary {
  readonly kind: string;
  readonly subject: string;
  readonly description: string;
}

/** The answer of `POST /migrations` (docs/http.md). */
export interface MigrateResult {
  readonly version: string;
  readonly applied: boolean;
  readonly steps: readonly MigrationStepSummary[];
  readonly sql: readonly string[];
}

export interface StoredSchema {
  readonly version: string;
  readonly sdl: string;
  readonly appliedAt: string;
}

export interface MigrationRecord extends StoredSchema {
  readonly steps: readonly MigrationStepSummary[];
  /** The migration file's id; null for a development push. */
  readonly migration: string | null;
}

/** The metadata table: one row per applied migration, the newest being the current schema. */
const META_SQL = [
  'create schema if not exists svc_meta',
  `create table if not exists svc_meta.migrations (
    id bigint generated always as identity primary key,
    version text not null,
    sdl text not null,
    steps jsonb not null,
    applied_at timestamptz not null default now()
  )`,
  // The migration file's id (schema/migration-file); null for a development push. Added after
  // the table's first release, so created databases gain it here.
  'alter table svc_meta.migrations add column if not exists migration text',
];
const CHECK_ROW_LIMIT = 20;

/** The version of a schema: a hash of its model, so equal schemas have equal versions. */
export function schemaVersion(schema: Schema): string {
  const canonical = JSON.stringify(schema, (key, value: unknown) =>
    key === 'span' ? undefined : value,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

export interface Migrator {
  migrate(db: Database, sdl: string, options?: MigrateOptions): Promise<MigrateResult>;
  /** The current schema, or null when none was ever applied. */
  current(db: Queryable): Promise<StoredSchema | null>;
  /** Every applied migration, newest first. */
  history(db: Queryable): Promise<MigrationRecord[]>;
  /** The ids of the migration files applied, in the order they were. */
  appliedMigrations(db: Queryable): Promise<string[]>;
  /** The version an empty database has. */
  readonly emptyVersion: string;
}

export function createMigrator(parts: MigratorParts): Migrator {
  const emptyVersion = schemaVersion(parts.build(''));

  async function current(db: Queryable): Promise<StoredSchema | null> {
    if (!(await hasMetadata(db))) return null;
    const { rows } = await db.query<{ version: string; sdl: string; applied_at: Date }>(
      'select version, sdl, applied_at from svc_meta.migrations order by id desc limit 1',
    );
    const row = rows[0];
    return row
      ? { version: row.version, sdl: row.sdl, appliedAt: row.applied_at.toISOString() }
      : null;
  }

  async function history(db: Queryable): Promise<MigrationRecord[]> {
    if (!(await hasMetadata(db))) return [];
    const hasIds = await hasMigrationColumn(db);
    const { rows } = await db.query<{
      version: string;
      sdl: string;
      steps: MigrationStepSummary[];
      applied_at: Date;
      migration: string | null;
    }>(
      `select version, sdl, steps, applied_at, ${hasIds ? 'migration' : 'null::text as migration'} from svc_meta.migrations order by id desc`,
    );
    return rows.map((r) => ({
      version: r.version,
      sdl: r.sdl,
      steps: r.steps,
      appliedAt: r.applied_at.toISOString(),
      migration: r.migration,
    }));
  }

  async function appliedMigrations(db: Queryable): Promise<string[]> {
    if (!(await hasMetadata(db)) || !(await hasMigrationColumn(db))) return [];
    const { rows } = await db.query<{ migration: string }>(
      'select migration from svc_meta.migrations where migration is not null order by id',
    );
    return rows.map((r) => r.migration);
  }

  async function migrate(
    db: Database,
    sdl: string,
    options: MigrateOptions = {},
  ): Promise<MigrateResult> {
    const target = parts.build(sdl); // schema errors surface before any database work
    const version = schemaVersion(target);
    // Lock first: even `create ... if not exists` races in PostgreSQL's catalog. withLock also
    // lifts the pool's statement_timeout (a server's requestTimeout) for this transaction: a
    // migration may outlast it (an index over a large table, a wait for another process's).
    const outcome = await withLock(db, MIGRATION_LOCK, async (tx) => {
      for (const statement of META_SQL) await tx.query(statement);
      const file = options.migration;
      if (file) {
        const applied = await appliedMigrations(tx);
        if (applied.includes(file.id)) {
          const result = {
            version: (await current(tx))?.version ?? version,
            applied: false,
            steps: [],
            sql: [],
          };
          if (options.dryRun) throw new DryRunDone(result);
          return result;
        }
        const last = applied.at(-1) ?? null;
        if (last !== file.parent) {
          throw new MigrationError(
            `migration ${file.id.slice(0, 14)} applies onto ${file.parent?.slice(0, 14) ?? 'an empty history'}, but the last migration applied to this database is ${last?.slice(0, 14) ?? 'none'}`,
            {
              hint: 'apply the migration files in order (`svc migrate`); `svc migration status` shows where the database is',
            },
          );
        }
      }
      const stored = await current(tx);
      const from = stored ? parts.build(stored.sdl) : null;
      const plan = parts.plan(from, target, { renames: options.renames, fills: options.fills });
      const steps = plan.steps.map(({ kind, subject, description }) => ({
        kind,
        subject,
        description,
      }));
      const sql = plan.steps.flatMap((s) => s.sql);
      if (steps.length === 0 && !file) {
        const result = { version: stored?.version ?? version, applied: false, steps, sql };
        // A dry run leaves nothing behind, not even the metadata table it may have created.
        if (options.dryRun) throw new DryRunDone(result);
        return result;
      }
      // Renames first (they change no data): the checks read the names they leave.
      const renames = plan.steps.slice(0, plan.renameSteps ?? 0);
      for (const step of renames) for (const statement of step.sql) await run(tx, statement, step);
      await runChecks(tx, plan.checks, options.allowDataLoss ?? false);
      await runBootstrap(tx, parts.bootstrapSql, (statement) => run(tx, statement, null));
      for (const [index, step] of plan.steps.entries()) {
        if (index < renames.length) continue;
        options.onStep?.(index, steps.length, steps[index] as MigrationStepSummary);
        for (const statement of step.sql) await run(tx, statement, step);
      }
      await tx.query(
        'insert into svc_meta.migrations (version, sdl, steps, migration) values ($1, $2, $3, $4)',
        [version, sdl, JSON.stringify(steps), file?.id ?? null],
      );
      // A dry run has done everything, so every error a real run would meet has surfaced;
      // throwing rolls it all back.
      if (options.dryRun) throw new DryRunDone({ version, applied: false, steps, sql });
      return { version, applied: true, steps, sql };
    }).catch((err: unknown) => {
      if (err instanceof DryRunDone) return err.result;
      throw err;
    });
    return outcome;
  }

  return { migrate, current, history, appliedMigrations, emptyVersion };
}

class DryRunDone {
  constructor(readonly result: MigrateResult) {}
}

/** One statement of a migration; what the database throws becomes an error in the envelope. */
async function run(tx: Queryable, statement: string, step: MigrationStep | null): Promise<void> {
  try {
    await tx.query(statement);
  } catch (err) {
    throw migrationError(err, step);
  }
}

/**
 * What the database's refusal of a migration statement means to the schema's author. A SQLSTATE
 * the one table knows (errors/query-errors: a data error, 22 or 23; a transaction or availability
 * error; a type combination svc does not compile, 42883) keeps its class, as a query's would; one
 * it does not know (42P17: an index expression calls a function PostgreSQL does not mark
 * immutable), and its syntax class (which means the user's EdgeQL, while a migration's SQL is
 * svc's own), is a schema the database cannot store as planned: InvalidDefinitionError naming the
 * step, never an internal error. A thrown value that is no database error is an internal one.
 */
function migrationError(err: unknown, step: MigrationStep | null): SvcError {
  if (err instanceof SvcError) return err;
  const fields = databaseErrorFields(err);
  const mapped = fromDatabaseError(err);
  if (!fields) return mapped;
  if (mapped.code !== 'INTERNAL_ERROR' && !(mapped instanceof EdgeQLSyntaxError)) return mapped;
  const what = step ? `the migration step '${step.description}'` : 'the migration';
  return new InvalidDefinitionError(`the database refused ${what}: ${fields.message}`, {
    sqlState: fields.code,
    cause: err,
  });
}

/** Whether the metadata table has the `migration` column (a database made before it had not). */
async function hasMigrationColumn(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    "select exists (select 1 from information_schema.columns where table_schema = 'svc_meta' and table_name = 'migrations' and column_name = 'migration') as found",
  );
  return rows[0]?.found === true;
}

async function hasMetadata(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ found: string | null }>(
    "select to_regclass('svc_meta.migrations')::text as found",
  );
  return rows[0]?.found != null;
}

/**
 * Runs every check and reports all offenders at once. A violation always refuses; data loss
 * refuses unless allowed. Each check's query is in the message so the user can run it.
 */
async function runChecks(
  tx: Queryable,
  checks: readonly DataCheck[],
  allowDataLoss: boolean,
): Promise<void> {
  const violations: string[] = [];
  const losses: string[] = [];
  for (const check of checks) {
    if (check.kind === 'data-loss' && allowDataLoss) continue;
    let rows: unknown[];
    try {
      ({ rows } = await tx.query(`select * from (${check.sql}) as found limit ${CHECK_ROW_LIMIT}`));
    } catch (err) {
      throw migrationError(err, null);
    }
    if (rows.length === 0) continue;
    const shown = rows.map((r) => `      ${JSON.stringify(r)}`).join('\n');
    const entry = `${check.message}\n    query: ${check.sql}\n    found:\n${shown}`;
    (check.kind === 'violation' ? violations : losses).push(entry);
  }
  if (violations.length) {
    throw new ConstraintViolationError(
      `the migration was not applied: stored rows violate the new schema\n  - ${violations.join('\n  - ')}`,
      { hint: 'fix or remove the rows listed, then migrate again' },
    );
  }
  if (losses.length) {
    throw new DataLossError(
      `the migration was not applied: it would lose stored data\n  - ${losses.join('\n  - ')}`,
      {
        hint: 'to drop it, migrate with `svc migrate --allow-data-loss` (`allowDataLoss: true` in POST /migrations); if it was renamed, say so to keep it (`--rename`, `renames`)',
      },
    );
  }
}
