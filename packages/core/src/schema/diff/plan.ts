/**
 * schema/diff/plan: `planMigration(from, to)` — the SQL that takes a database from one schema to
 * another, as ordered steps, plus the data checks to run before applying.
 *
 * Input: the stored Schema (null for an empty database), the new one, and the user's renames and
 * fill expressions (MigrationHints). Output: MigrationPlan.
 * Pure and deterministic: same input, same plan, byte for byte. Planning the same schema again
 * gives an empty plan.
 * How: both schemas become StorageLayouts (storage/); their tables, columns, junction
 * tables, foreign keys, CHECKs, indexes, domains and views are compared by name and printed SQL;
 * model-only changes (policies, globals, functions, aliases, annotations, computed pointers) are
 * steps with no SQL. Phases, in order:
 *   1 drop changed/removed views        2 drop changed/removed FKs, CHECKs, indexes, triggers
 *   3 drop pointers (columns, tables)   4 drop type tables
 *   5 create/alter scalars (domains)    6 create type tables (columns inline, no FKs)
 *   7 add/alter pointers of existing tables (with their FKs and link indexes)
 *   8 links and multi pointers of new tables (FKs, junction tables)
 *   9 create CHECKs, unique and other indexes   10 drop scalars
 *   11 create views, then integrity triggers (storage/integrity; compared by printed SQL)
 *   12 steps without SQL
 * Each new module's `create schema` leads the first step in it; a module that disappears is
 * dropped after its last step.
 */
import type { Schema } from '../../model/schema';
import { MigrationError } from '../../errors';
import type { MigrationHints, MigrationPlan } from '../../model/migration';
import { ddl } from '../../sql/codegen/ddl';
import { storageLayout, type StorageLayout } from '../../storage/layout';
import { splitName } from '../../storage/types';
import { provideDdlCompiler } from '../../storage/ddl-compiler';
import { DDL_COMPILER } from '../ddl-expression';
import { planModelOnly } from './model-only';
import { renamedLayout, renamedModel, renameSteps, resolveRenames } from './renames';
import { Planner, type Step } from './planner';
import { planScalars } from './scalars';
import { planTables } from './tables';
import { planTriggers } from './triggers';
import { planViews } from './views';

const EMPTY: StorageLayout = { modules: [], domains: [], tables: [], views: [], triggers: [] };

export function planMigration(
  from: Schema | null,
  to: Schema,
  hints: MigrationHints = {},
): MigrationPlan {
  provideDdlCompiler(DDL_COMPILER);
  const renames = resolveRenames(from, to, hints.renames ?? []);
  const stored = from ? storageLayout(from) : EMPTY;
  const before = renamedLayout(stored, renames);
  const after = storageLayout(to);
  // Fills are keyed by subject; an unqualified type is in `default` (`User.about`).
  const fills = new Map(
    Object.entries(hints.fills ?? {}).map(([k, v]) => [k.includes('::') ? k : `default::${k}`, v]),
  );
  const p = new Planner(from && renamedModel(from, renames), to, before, after, fills);
  const renaming = renameSteps(stored, renames);
  for (const s of renaming) p.step(1, s.kind, s.subject, s.description, s.sql);
  planViews(p);
  planTables(p);
  planScalars(p);
  planTriggers(p);
  planModelOnly(p);
  const unused = [...fills.keys()].filter((k) => !p.usedFills.has(k));
  if (unused.length)
    throw new MigrationError(`no change of this migration needs a fill for ${unused.join(', ')}`, {
      hint: 'a fill gives the value of a property added or made required, or of one whose type changes',
    });
  const steps = p.phases.flat();
  placeModules(p, steps);
  return {
    steps: steps.map((s) => Object.freeze({ ...s, sql: Object.freeze([...s.sql]) })),
    checks: p.checks,
    ...(renaming.length ? { renameSteps: renaming.length } : {}),
    ...(p.fillsWanted.size ? { fillsWanted: [...p.fillsWanted].sort() } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Modules

function moduleOf(subject: string): string {
  return splitName(subject.split('.')[0] as string)[0];
}

function placeModules(p: Planner, steps: Step[]): void {
  const had = new Set(p.before.modules);
  const has = new Set(p.after.modules);
  for (const m of p.after.modules) {
    if (had.has(m)) continue;
    const first = steps.find((s) => s.sql.length > 0 && moduleOf(s.subject) === m);
    if (first) first.sql.unshift(ddl.createSchema(m));
  }
  for (const m of p.before.modules) {
    if (has.has(m)) continue;
    const last = [...steps].reverse().find((s) => s.sql.length > 0 && moduleOf(s.subject) === m);
    if (last) last.sql.push(ddl.dropSchema(m));
  }
}
