/**
 * schema/diff/plan: `planMigration(from, to)` — the SQL that takes a database from one schema to
 * another, as ordered steps, plus the data checks to run before applying.
 *
 * Input: the stored Schema (null for an empty database) and the new one. Output: MigrationPlan.
 * Pure and deterministic: same input, same plan, byte for byte. Planning the same schema again
 * gives an empty plan.
 * How: both schemas become StorageLayouts (schema/storage); their tables, columns, junction
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
import { printTypeRef } from '../../model/schema';
import * as ql from '../../syntax';
import { MigrationError } from '../../errors';
import type { ObjectType, Pointer, Schema } from '../../model/schema';
import type { DataCheck, MigrationPlan, MigrationStepKind } from '../../model/migration';
import type { PgType, SqlExpr } from '../../sql/ast';
import { printSql, printType } from '../../sql/print';
import { checks as checkSql, ddl, type ColumnSpec, type QName } from '../../sql/codegen/ddl';
import { sharedDuplicates, triggerDdl, type TriggerSpec } from '../../sql/codegen/triggers';
import {
  storageLayout,
  viewSignature,
  type DomainLayout,
  type JunctionTable,
  type OwnedCheck,
  type OwnedForeignKey,
  type OwnedIndex,
  type PointerColumn,
  type StorageLayout,
  type TypeTable,
  type ViewLayout,
} from '../../storage/layout';
import { splitName } from '../../storage/types';
import { provideDdlCompiler } from '../../storage/ddl-compiler';
import { DDL_COMPILER } from '../ddl-expression';

const EMPTY: StorageLayout = { modules: [], domains: [], tables: [], views: [], triggers: [] };
const PHASES = 12;

interface Step {
  kind: MigrationStepKind;
  subject: string;
  description: string;
  sql: string[];
}

const qkey = (q: QName) => `${q.schema}\u0000${q.name}`;

class Planner {
  readonly phases: Step[][] = Array.from({ length: PHASES }, () => []);
  readonly checks: DataCheck[] = [];
  /** FKs and indexes already emitted with their pointer's step. */
  readonly emitted = new Set<string>();

  constructor(
    readonly from: Schema | null,
    readonly to: Schema,
    readonly before: StorageLayout,
    readonly after: StorageLayout,
  ) {}

  step(
    phase: number,
    kind: MigrationStepKind,
    subject: string,
    description: string,
    sql: string[],
  ): Step {
    const s: Step = { kind, subject, description, sql };
    (this.phases[phase - 1] as Step[]).push(s);
    return s;
  }

  check(kind: DataCheck['kind'], subject: string, message: string, sql: string): void {
    this.checks.push({ kind, subject, message, sql });
  }
}

export function planMigration(from: Schema | null, to: Schema): MigrationPlan {
  provideDdlCompiler(DDL_COMPILER);
  const before = from ? storageLayout(from) : EMPTY;
  const after = storageLayout(to);
  const p = new Planner(from, to, before, after);
  planViews(p);
  planTables(p);
  planScalars(p);
  planTriggers(p);
  planModelOnly(p);
  const steps = p.phases.flat();
  placeModules(p, steps);
  return {
    steps: steps.map((s) => Object.freeze({ ...s, sql: Object.freeze([...s.sql]) })),
    checks: p.checks,
  };
}

// ---------------------------------------------------------------------------------------------
// Integrity triggers (storage/integrity)

function planTriggers(p: Planner): void {
  const key = (t: TriggerSpec) => `${qkey(t.table)}\u0000${t.name}`;
  const text = (t: TriggerSpec) =>
    `${triggerDdl.createFunction(t)}\n${triggerDdl.createTrigger(t)}`;
  const before = new Map(p.before.triggers.map((t) => [key(t), t]));
  const after = new Map(p.after.triggers.map((t) => [key(t), t]));
  const subject = (t: TriggerSpec) => `${t.table.schema}::${t.table.name}`;
  const storedTables = new Set(p.before.tables.map((t) => qkey(t.table)));
  for (const [k, t] of before) {
    const next = after.get(k);
    if (next && text(next) === text(t)) continue;
    p.step(2, 'drop trigger', subject(t), `drop integrity trigger ${t.name} on ${subject(t)}`, [
      triggerDdl.dropTrigger(t),
      triggerDdl.dropFunction(t),
    ]);
  }
  for (const [k, t] of after) {
    const prev = before.get(k);
    if (prev && text(prev) === text(t)) continue;
    p.step(
      11,
      'create trigger',
      subject(t),
      `create integrity trigger ${t.name} on ${subject(t)}`,
      [triggerDdl.createFunction(t), triggerDdl.createTrigger(t)],
    );
    // Rows stored before the trigger existed may already break what it holds.
    const duplicates = sharedDuplicates(t, (table) => storedTables.has(qkey(table)));
    if (duplicates && p.from !== null) {
      p.check(
        'violation',
        subject(t),
        `stored rows of the hierarchy of ${subject(t)} share values that ${t.name} makes exclusive`,
        duplicates,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Views (abstract types)

function planViews(p: Planner): void {
  const before = new Map(p.before.views.map((v) => [v.type, v]));
  const after = new Map(p.after.views.map((v) => [v.type, v]));
  const fromTypes = new Set(p.from?.objectTypes.map((t) => t.name) ?? []);
  for (const [type, view] of before) {
    const next = after.get(type);
    if (next && viewSignature(next) === viewSignature(view)) continue;
    const gone = !p.to.objectTypes.some((t) => t.name === type);
    p.step(
      1,
      gone ? 'drop type' : 'drop view',
      type,
      gone ? `drop abstract type ${type}` : `drop view of ${type} (recreated)`,
      [ddl.dropView(view.spec.name)],
    );
  }
  for (const [type, view] of after) {
    const prev = before.get(type);
    if (prev && viewSignature(prev) === viewSignature(view)) continue;
    const isNew = !fromTypes.has(type);
    p.step(
      11,
      isNew ? 'create type' : 'create view',
      type,
      isNew
        ? `create abstract type ${type} (view over ${describeBranches(view)})`
        : `create view of ${type} over ${describeBranches(view)}`,
      [ddl.createView(view.spec)],
    );
  }
}

function describeBranches(view: ViewLayout): string {
  return view.spec.branches.length === 0
    ? 'no concrete types'
    : view.spec.branches.map((b) => b.typeName).join(', ');
}

// ---------------------------------------------------------------------------------------------
// Tables

function columnText(c: ColumnSpec): string {
  return `${printType(c.type)}|${c.notNull}|${c.default ? printSql(c.default) : ''}`;
}

function referencedColumns(expr: SqlExpr, out = new Set<string>()): Set<string> {
  const visit = (e: unknown): void => {
    if (Array.isArray(e)) e.forEach(visit);
    else if (e && typeof e === 'object') {
      const node = e as { kind?: string; name?: string };
      if (node.kind === 'ColumnRef' && typeof node.name === 'string') out.add(node.name);
      for (const v of Object.values(e)) if (v && typeof v === 'object') visit(v);
    }
  };
  visit(expr);
  return out;
}

/** All columns of a table (type table or junction) in a layout, by table key. */
function tableColumns(layout: StorageLayout): Map<string, Map<string, ColumnSpec>> {
  const out = new Map<string, Map<string, ColumnSpec>>();
  for (const t of layout.tables) {
    out.set(qkey(t.table), new Map(t.columns.map((c) => [c.column.name, c.column])));
    for (const j of t.junctions) out.set(qkey(j.table), new Map(j.columns.map((c) => [c.name, c])));
  }
  return out;
}

function pointerOf(schema: Schema | null, subject: string): Pointer | undefined {
  if (!schema) return undefined;
  const dot = subject.lastIndexOf('.');
  const type = schema.objectTypes.find((t) => t.name === subject.slice(0, dot));
  return type?.pointers.find((x) => x.name === subject.slice(dot + 1));
}

function describePointer(schema: Schema, subject: string, what: string): string {
  const ptr = pointerOf(schema, subject.split('@')[0] as string);
  if (!ptr || subject.includes('@')) return `${what} ${subject}`;
  const flags = [
    ptr.required ? 'required' : null,
    ptr.cardinality === 'many' ? 'multi' : null,
  ].filter(Boolean);
  const target =
    ptr.kind === 'link'
      ? `-> ${printTypeRef(ptr.target)}`
      : `(${printTypeRef(ptr.target)}${flags.length ? `, ${flags.join(', ')}` : ''})`;
  return `${what} ${subject} ${target}${ptr.kind === 'link' && flags.length ? ` (${flags.join(', ')})` : ''}`;
}

function planTables(p: Planner): void {
  const before = new Map(p.before.tables.map((t) => [t.type, t]));
  const after = new Map(p.after.tables.map((t) => [t.type, t]));
  const beforeCols = tableColumns(p.before);
  const afterCols = tableColumns(p.after);
  // Tables (type tables and junction tables) that are dropped, or dropped and made again: what
  // lived on them goes with them, and what lives on the new one is made anew.
  const droppedTables = new Set<string>();
  const afterJunctions = new Map(
    p.after.tables.flatMap((t) => t.junctions).map((j) => [qkey(j.table), j]),
  );
  for (const [type, t] of before) {
    if (!after.has(type)) droppedTables.add(qkey(t.table));
    for (const j of t.junctions) {
      const next = afterJunctions.get(qkey(j.table));
      if (!after.has(type) || !next || next.kind !== j.kind) droppedTables.add(qkey(j.table));
    }
  }
  /** Columns dropped and re-added (kind or storage changed): their indexes/checks must be remade. */
  const recreated = new Set<string>();

  // Type tables dropped (phase 4) and created (phase 6, phase 8 for their links).
  for (const [type, t] of before) {
    if (after.has(type)) continue;
    const becameAbstract = p.to.objectTypes.some((x) => x.name === type);
    const sql = [...t.junctions.map((j) => ddl.dropTable(j.table)), ddl.dropTable(t.table)];
    p.step(
      4,
      becameAbstract ? 'alter type' : 'drop type',
      type,
      becameAbstract ? `make ${type} abstract (its table is dropped)` : `drop type ${type}`,
      sql,
    );
    p.check(
      'data-loss',
      type,
      `dropping ${type} would delete its stored objects`,
      checkSql.tableHasRows(t.table, type),
    );
  }
  for (const [type, t] of after) {
    if (before.has(type)) continue;
    const wasAbstract = p.from?.objectTypes.some((x) => x.name === type) ?? false;
    p.step(
      6,
      wasAbstract ? 'alter type' : 'create type',
      type,
      wasAbstract ? `make ${type} concrete (create its table)` : `create type ${type}`,
      [
        ddl.createTable(
          t.table,
          t.columns.map((c) => c.column),
        ),
      ],
    );
    for (const c of t.columns) {
      if (c.kind !== 'link') continue;
      const sql = linkExtras(p, t, c.pointer);
      if (sql.length)
        p.step(8, 'create link', c.subject, describePointer(p.to, c.subject, 'create link'), sql);
    }
    for (const j of t.junctions) createJunction(p, t, j, 8);
  }

  // Tables in both: pointers.
  for (const [type, next] of after) {
    const prev = before.get(type);
    if (!prev) continue;
    diffPointers(p, prev, next, recreated);
  }

  // FKs, checks and indexes of surviving tables.
  const fkKey = (f: OwnedForeignKey) => `${qkey(f.spec.table)}\u0000${f.spec.name}`;
  const beforeFks = new Map(
    p.before.tables.flatMap((t) => t.foreignKeys).map((f) => [fkKey(f), f]),
  );
  const afterFks = new Map(p.after.tables.flatMap((t) => t.foreignKeys).map((f) => [fkKey(f), f]));
  const touches = (table: QName, columns: Iterable<string>) =>
    droppedTables.has(qkey(table)) ||
    [...columns].some((c) => recreated.has(`${qkey(table)}\u0000${c}`));
  const sameFk = (a: OwnedForeignKey, b: OwnedForeignKey) =>
    ddl.addForeignKey(a.spec) === ddl.addForeignKey(b.spec) &&
    !touches(a.spec.table, [a.spec.column]);
  for (const [key, fk] of beforeFks) {
    const next = afterFks.get(key);
    if (next && sameFk(fk, next)) continue;
    const tableGone = droppedTables.has(qkey(fk.spec.table));
    if (
      tableGone &&
      (!droppedTables.has(qkey(fk.spec.target)) || qkey(fk.spec.target) === qkey(fk.spec.table))
    )
      continue;
    p.step(2, 'alter link', fk.subject, `drop foreign key ${fk.spec.name}`, [
      ddl.dropConstraint(fk.spec.table, fk.spec.name),
    ]);
  }
  for (const [key, fk] of afterFks) {
    const prev = beforeFks.get(key);
    if ((prev && sameFk(prev, fk)) || p.emitted.has(`fk:${key}`)) continue;
    const existed =
      beforeCols.get(qkey(fk.spec.table))?.has(fk.spec.column) &&
      !touches(fk.spec.table, [fk.spec.column]);
    // Only a new target can leave links dangling; a changed `on target delete` cannot.
    if (existed && (!prev || qkey(prev.spec.target) !== qkey(fk.spec.target))) {
      p.check(
        'violation',
        fk.subject,
        `${fk.subject} holds links to objects that are not ${fk.spec.target.schema}::${fk.spec.target.name}`,
        checkSql.danglingLinks(fk.spec),
      );
    }
    p.step(9, 'alter link', fk.subject, `add foreign key ${fk.spec.name}`, [
      ddl.addForeignKey(fk.spec),
    ]);
  }

  const checkKey = (c: OwnedCheck) => `${qkey(c.spec.table)}\u0000${c.spec.name}`;
  const beforeChecks = new Map(
    p.before.tables.flatMap((t) => t.checks).map((c) => [checkKey(c), c]),
  );
  const afterChecks = new Map(p.after.tables.flatMap((t) => t.checks).map((c) => [checkKey(c), c]));
  const sameCheck = (a: OwnedCheck, b: OwnedCheck) =>
    ddl.addCheck(a.spec) === ddl.addCheck(b.spec) &&
    !touches(b.spec.table, referencedColumns(b.spec.expr));
  /** The check query can run before applying only if every column it reads exists, same type. */
  const runnable = (table: QName, exprs: readonly SqlExpr[]): boolean => {
    const old = beforeCols.get(qkey(table));
    const now = afterCols.get(qkey(table));
    if (!old || !now) return false;
    const cols = new Set<string>();
    for (const e of exprs) referencedColumns(e, cols);
    return [...cols].every(
      (c) =>
        old.has(c) &&
        now.has(c) &&
        printType((old.get(c) as ColumnSpec).type) === printType((now.get(c) as ColumnSpec).type) &&
        !recreated.has(`${qkey(table)}\u0000${c}`),
    );
  };
  for (const [key, c] of beforeChecks) {
    const next = afterChecks.get(key);
    if ((next && sameCheck(c, next)) || droppedTables.has(qkey(c.spec.table))) continue;
    p.step(2, 'drop constraint', c.subject, `drop constraint ${c.label} on ${c.subject}`, [
      ddl.dropConstraint(c.spec.table, c.spec.name),
    ]);
  }
  for (const [key, c] of afterChecks) {
    const prev = beforeChecks.get(key);
    if (prev && sameCheck(prev, c)) continue;
    if (runnable(c.spec.table, [c.spec.expr])) {
      p.check(
        'violation',
        c.subject,
        `stored data breaks the new constraint ${c.label} on ${c.subject}`,
        checkSql.failingCheck(c.spec, c.keys),
      );
    }
    p.step(9, 'create constraint', c.subject, `create constraint ${c.label} on ${c.subject}`, [
      ddl.addCheck(c.spec),
    ]);
  }

  const indexKey = (i: OwnedIndex) => `${qkey(i.spec.table)}\u0000${i.spec.name}`;
  const beforeIdx = new Map(p.before.tables.flatMap((t) => t.indexes).map((i) => [indexKey(i), i]));
  const afterIdx = new Map(p.after.tables.flatMap((t) => t.indexes).map((i) => [indexKey(i), i]));
  const sameIdx = (a: OwnedIndex, b: OwnedIndex) =>
    ddl.createIndex(a.spec) === ddl.createIndex(b.spec) &&
    !touches(
      b.spec.table,
      b.spec.elements.flatMap((e) => [...referencedColumns(e)]),
    );
  for (const [key, i] of beforeIdx) {
    const next = afterIdx.get(key);
    if ((next && sameIdx(i, next)) || droppedTables.has(qkey(i.spec.table))) continue;
    const kind =
      i.kind === 'constraint' ? 'drop constraint' : i.kind === 'link' ? 'alter link' : 'drop index';
    p.step(
      2,
      kind,
      i.subject,
      `drop ${i.kind === 'constraint' ? `constraint ${i.label} on` : 'index'} ${i.kind === 'constraint' ? i.subject : i.spec.name}`,
      [ddl.dropIndex(i.spec.table.schema, i.spec.name)],
    );
  }
  for (const [key, i] of afterIdx) {
    const prev = beforeIdx.get(key);
    if ((prev && sameIdx(prev, i)) || p.emitted.has(`ix:${key}`)) continue;
    if (
      i.spec.unique &&
      runnable(i.spec.table, [...i.spec.elements, ...(i.spec.where ? [i.spec.where] : [])])
    ) {
      p.check(
        'violation',
        i.subject,
        `stored objects of ${i.subject} have duplicate values for the new constraint ${i.label}`,
        checkSql.duplicates(i.spec),
      );
    }
    if (i.kind === 'constraint')
      p.step(9, 'create constraint', i.subject, `create constraint ${i.label} on ${i.subject}`, [
        ddl.createIndex(i.spec),
      ]);
    else
      p.step(
        9,
        i.kind === 'link' ? 'alter link' : 'create index',
        i.subject,
        i.kind === 'link' ? `create index ${i.spec.name}` : `create ${i.label} on ${i.subject}`,
        [ddl.createIndex(i.spec)],
      );
  }
}

/** The FK and link index SQL of a new pointer, marked so the generic diff skips them. */
function linkExtras(p: Planner, t: TypeTable, pointer: string): string[] {
  const sql: string[] = [];
  for (const fk of t.foreignKeys.filter((f) => f.pointer === pointer)) {
    p.emitted.add(`fk:${qkey(fk.spec.table)}\u0000${fk.spec.name}`);
    sql.push(ddl.addForeignKey(fk.spec));
  }
  const subject = `${t.type}.${pointer}`;
  for (const i of t.indexes.filter((x) => x.kind === 'link' && x.subject === subject)) {
    p.emitted.add(`ix:${qkey(i.spec.table)}\u0000${i.spec.name}`);
    sql.push(ddl.createIndex(i.spec));
  }
  return sql;
}

function createJunction(p: Planner, t: TypeTable, j: JunctionTable, phase: number): void {
  const sql = [ddl.createTable(j.table, j.columns, j.primaryKey), ...linkExtras(p, t, j.pointer)];
  p.step(
    phase,
    j.kind === 'link' ? 'create link' : 'create property',
    j.subject,
    describePointer(p.to, j.subject, `create ${j.kind}`),
    sql,
  );
}

/** Types between which `alter column type ... using x::T` is accepted. */
const CAST_GROUPS: readonly (readonly string[])[] = [
  ['smallint', 'integer', 'bigint', 'real', 'double precision', 'numeric', '"svc_meta"."bigint"'],
  ['timestamptz', 'timestamp', 'date'],
  ['interval'],
];

function castable(from: string, to: string): boolean {
  if (from === to) return true;
  if (to === 'text' || from === 'text') return !from.endsWith('[]') && !to.endsWith('[]');
  if (to === 'jsonb') return true;
  return (
    CAST_GROUPS.some(
      (g) => g.includes(from.replace(/\[\]$/, '')) && g.includes(to.replace(/\[\]$/, '')),
    ) && from.endsWith('[]') === to.endsWith('[]')
  );
}

function diffPointers(p: Planner, prev: TypeTable, next: TypeTable, recreated: Set<string>): void {
  const oldCols = new Map(prev.columns.map((c) => [c.pointer, c]));
  const newCols = new Map(next.columns.map((c) => [c.pointer, c]));
  const oldJ = new Map(prev.junctions.map((j) => [j.pointer, j]));
  const newJ = new Map(next.junctions.map((j) => [j.pointer, j]));
  const table = next.table;

  // Removed columns (not moving to a junction table).
  for (const [name, c] of oldCols) {
    if (newCols.has(name) && newCols.get(name)?.kind === c.kind) continue;
    if (newJ.has(name) && newJ.get(name)?.kind === c.kind) continue; // single → multi, below
    p.step(
      3,
      c.kind === 'link' ? 'drop link' : 'drop property',
      c.subject,
      `drop ${c.kind} ${c.subject}`,
      [ddl.dropColumn(prev.table, c.column.name)],
    );
    p.check(
      'data-loss',
      c.subject,
      `dropping ${c.subject} would delete its stored values`,
      checkSql.columnHasValues(prev.table, c.column.name, c.subject),
    );
    if (newCols.has(name)) recreated.add(`${qkey(table)}\u0000${c.column.name}`);
  }
  for (const [name, j] of oldJ) {
    if (newJ.has(name) && newJ.get(name)?.kind === j.kind) continue;
    if (newCols.has(name) && newCols.get(name)?.kind === j.kind) continue; // multi → single, below
    p.step(
      3,
      j.kind === 'link' ? 'drop link' : 'drop property',
      j.subject,
      `drop ${j.kind} ${j.subject}`,
      [ddl.dropTable(j.table)],
    );
    p.check(
      'data-loss',
      j.subject,
      `dropping ${j.subject} would delete its stored values`,
      checkSql.tableHasRows(j.table, j.subject),
    );
  }

  // Added and changed columns.
  for (const [name, c] of newCols) {
    const old = oldCols.get(name);
    const oldJunction = oldJ.get(name);
    if (oldJunction && oldJunction.kind === c.kind) {
      multiToSingle(p, prev, oldJunction, c);
      continue;
    }
    if (!old || old.kind !== c.kind) {
      addColumn(p, prev, next, c);
      continue;
    }
    alterColumn(p, table, old, c);
  }
  for (const [name, j] of newJ) {
    const old = oldJ.get(name);
    const oldColumn = oldCols.get(name);
    if (oldColumn && oldColumn.kind === j.kind) {
      singleToMulti(p, next, oldColumn, j);
      continue;
    }
    if (!old || old.kind !== j.kind) {
      createJunction(p, next, j, 7);
      continue;
    }
    alterJunction(p, old, j);
  }
}

function addColumn(p: Planner, prev: TypeTable, next: TypeTable, c: PointerColumn): void {
  const sql = [ddl.addColumn(next.table, c.column)];
  if (c.column.notNull && (!c.column.default || c.queryDefault)) {
    p.check(
      'violation',
      c.subject,
      `${c.subject} is required and has no default, but ${next.type} already has objects; give it a default`,
      checkSql.anyRows(prev.table),
    );
  }
  if (c.kind === 'link') sql.push(...linkExtras(p, next, c.pointer));
  p.step(
    7,
    c.kind === 'link' ? 'create link' : 'create property',
    c.subject,
    describePointer(p.to, c.subject, `create ${c.kind}`),
    sql,
  );
}

function alterColumn(p: Planner, table: QName, old: PointerColumn, c: PointerColumn): void {
  if (columnText(old.column) === columnText(c.column)) return;
  const sql: string[] = [];
  const changes: string[] = [];
  const oldType = printType(old.column.type);
  const newType = printType(c.column.type);
  const kind = c.kind === 'link' ? 'alter link' : 'alter property';
  const oldDefault = old.column.default ? printSql(old.column.default) : null;
  const newDefault = c.column.default ? printSql(c.column.default) : null;
  if (oldType !== newType) {
    if (!castable(oldType, newType)) {
      throw new MigrationError(
        `cannot change the type of ${c.subject} from ${printTypeRef(old.target)} to ${printTypeRef(c.target)}: there is no cast that keeps the data`,
        {
          hint: `add a new property of type ${printTypeRef(c.target)}, copy the values with an update query, then drop ${c.pointer}`,
        },
      );
    }
    if (oldDefault !== null) sql.push(ddl.setDefault(table, c.column.name, null));
    sql.push(
      ddl.alterColumnType(table, c.column.name, c.column.type, {
        kind: 'Cast',
        expr: { kind: 'ColumnRef', table: null, name: c.column.name },
        type: c.column.type,
      }),
    );
    if (newDefault !== null) sql.push(ddl.setDefault(table, c.column.name, c.column.default));
    changes.push(`type ${printTypeRef(old.target)} → ${printTypeRef(c.target)}`);
  } else if (oldDefault !== newDefault) {
    sql.push(ddl.setDefault(table, c.column.name, c.column.default));
    changes.push(newDefault === null ? 'drop default' : `default ${newDefault}`);
  }
  if (old.column.notNull !== c.column.notNull) {
    if (c.column.notNull) {
      if (c.column.default && !c.queryDefault) {
        sql.push(ddl.backfill(table, c.column.name, c.column.default));
      } else {
        p.check(
          'violation',
          c.subject,
          `${c.subject} becomes required, but these objects have no value (give it a default to fill them)`,
          checkSql.nullRows(table, old.column.name),
        );
      }
      sql.push(ddl.setNotNull(table, c.column.name));
      changes.push('required');
    } else {
      sql.push(ddl.dropNotNull(table, c.column.name));
      changes.push('optional');
    }
  }
  if (sql.length)
    p.step(7, kind, c.subject, `alter ${c.kind} ${c.subject}: ${changes.join(', ')}`, sql);
}

function singleToMulti(p: Planner, next: TypeTable, old: PointerColumn, j: JunctionTable): void {
  const sql = [
    ddl.createTable(j.table, j.columns, j.primaryKey),
    ddl.copyColumnToTable(next.table, old.column.name, j.table, j.valueColumn),
    ...linkExtras(p, next, j.pointer),
  ];
  sql.push(ddl.dropColumn(next.table, old.column.name));
  p.step(
    7,
    j.kind === 'link' ? 'alter link' : 'alter property',
    j.subject,
    `alter ${j.kind} ${j.subject}: single → multi (values move to ${j.table.name})`,
    sql,
  );
}

function multiToSingle(p: Planner, prev: TypeTable, old: JunctionTable, c: PointerColumn): void {
  p.check(
    'violation',
    c.subject,
    `${c.subject} becomes single, but these objects have several values`,
    checkSql.manyValues(old.table),
  );
  const column: ColumnSpec = { ...c.column, notNull: false };
  const sql = [
    ddl.addColumn(prev.table, column),
    ddl.copyTableToColumn(old.table, old.valueColumn, prev.table, c.column.name),
    ddl.dropTable(old.table),
  ];
  if (c.column.notNull) {
    if (c.column.default) sql.push(ddl.backfill(prev.table, c.column.name, c.column.default));
    sql.push(ddl.setNotNull(prev.table, c.column.name));
  }
  p.step(
    7,
    c.kind === 'link' ? 'alter link' : 'alter property',
    c.subject,
    `alter ${c.kind} ${c.subject}: multi → single`,
    sql,
  );
}

function alterJunction(p: Planner, old: JunctionTable, j: JunctionTable): void {
  const sql: string[] = [];
  const oldCols = new Map(old.columns.map((c) => [c.name, c]));
  const newCols = new Map(j.columns.map((c) => [c.name, c]));
  for (const name of oldCols.keys()) {
    if (newCols.has(name)) continue;
    sql.push(ddl.dropColumn(j.table, name));
    p.check(
      'data-loss',
      `${j.subject}@${name}`,
      `dropping ${j.subject}@${name} would delete its stored values`,
      checkSql.columnHasValues(j.table, name, `${j.subject}@${name}`),
    );
  }
  for (const [name, c] of newCols) {
    const prev = oldCols.get(name);
    if (!prev) {
      sql.push(ddl.addColumn(j.table, c));
      continue;
    }
    if (columnText(prev) === columnText(c)) continue;
    const from = printType(prev.type);
    const to = printType(c.type);
    if (from !== to) {
      if (!castable(from, to)) {
        throw new MigrationError(
          `cannot change the type of ${j.subject}${name === j.valueColumn ? '' : `@${name}`} from ${from} to ${to}: there is no cast that keeps the data`,
        );
      }
      sql.push(
        ddl.alterColumnType(j.table, name, c.type, {
          kind: 'Cast',
          expr: { kind: 'ColumnRef', table: null, name },
          type: c.type,
        }),
      );
    }
    if ((prev.default ? printSql(prev.default) : null) !== (c.default ? printSql(c.default) : null))
      sql.push(ddl.setDefault(j.table, name, c.default));
  }
  if (sql.length)
    p.step(
      7,
      j.kind === 'link' ? 'alter link' : 'alter property',
      j.subject,
      `alter ${j.kind} ${j.subject}`,
      sql,
    );
}

// ---------------------------------------------------------------------------------------------
// Scalars (domains)

function planScalars(p: Planner): void {
  const before = new Map(p.before.domains.map((d) => [d.scalar, d]));
  const after = new Map(p.after.domains.map((d) => [d.scalar, d]));
  for (const [name, d] of after) {
    const prev = before.get(name);
    if (!prev) {
      const sql = d.sequence ? [ddl.createSequence(d.sequence)] : [];
      sql.push(ddl.createDomain(d.spec));
      p.step(5, 'create scalar', name, describeScalar(p.to, name, 'create scalar'), sql);
      continue;
    }
    alterScalar(p, prev, d);
  }
  for (const [name, d] of [...before].reverse()) {
    if (after.has(name)) continue;
    const sql = [ddl.dropDomain(d.spec.name)];
    if (d.sequence) sql.push(ddl.dropSequence(d.sequence));
    p.step(10, 'drop scalar', name, `drop scalar ${name}`, sql);
  }
}

function describeScalar(schema: Schema, name: string, what: string): string {
  const s = schema.scalarTypes.find((x) => x.name === name);
  if (!s) return `${what} ${name}`;
  return s.enumValues
    ? `${what} ${name} (enum ${s.enumValues.join(', ')})`
    : `${what} ${name} (${s.base})`;
}

function alterScalar(p: Planner, prev: DomainLayout, next: DomainLayout): void {
  if (printType(prev.spec.base) !== printType(next.spec.base)) {
    throw new MigrationError(
      `cannot change the base type of scalar ${next.scalar} from ${printType(prev.spec.base)} to ${printType(next.spec.base)}`,
      {
        hint: 'declare a new scalar type, move the properties to it, then drop the old one',
      },
    );
  }
  const sql: string[] = [];
  const after: string[] = [];
  const oldChecks = new Map(prev.spec.checks.map((c) => [c.name, printSql(c.expr)]));
  const newChecks = new Map(next.spec.checks.map((c) => [c.name, c]));
  for (const [name, text] of oldChecks) {
    const n = newChecks.get(name);
    if (n && printSql(n.expr) === text) continue;
    sql.push(ddl.domainDropCheck(prev.spec.name, name));
  }
  for (const [name, c] of newChecks) {
    if (oldChecks.get(name) === printSql(c.expr)) continue;
    sql.push(ddl.domainAddCheck(next.spec.name, c));
    const columns = columnsOfDomain(p.before, prev).map((col) => ({
      ...col,
      check: replaceDomainValue(c.expr, { kind: 'ColumnRef', table: null, name: col.column }),
    }));
    if (columns.length) {
      p.check(
        'violation',
        next.scalar,
        `stored values break the new definition of ${next.scalar}`,
        checkSql.domainViolations(columns),
      );
    }
  }
  if (sql.length) {
    // PostgreSQL cannot change a domain's constraints while an array column uses it: such
    // columns go to the base type's array for the change, then back (revalidating elements).
    for (const col of arrayColumnsOfDomain(p.before, prev)) {
      const base = { ...prev.spec.base, arrayDims: prev.spec.base.arrayDims + col.type.arrayDims };
      const ref: SqlExpr = { kind: 'ColumnRef', table: null, name: col.column };
      sql.unshift(
        ddl.alterColumnType(col.table, col.column, base, { kind: 'Cast', expr: ref, type: base }),
      );
      after.push(
        ddl.alterColumnType(col.table, col.column, col.type, {
          kind: 'Cast',
          expr: ref,
          type: col.type,
        }),
      );
    }
    p.step(5, 'alter scalar', next.scalar, describeScalar(p.to, next.scalar, 'alter scalar'), [
      ...sql,
      ...after,
    ]);
  }
}

/** Single columns and junction values stored as this domain (arrays are left to PostgreSQL). */
function columnsOfDomain(
  layout: StorageLayout,
  d: DomainLayout,
): { table: QName; column: string; subject: string }[] {
  const text = printType({ ...d.spec.name, arrayDims: 0 });
  const out: { table: QName; column: string; subject: string }[] = [];
  for (const t of layout.tables) {
    for (const c of t.columns)
      if (printType(c.column.type) === text)
        out.push({ table: t.table, column: c.column.name, subject: c.subject });
    for (const j of t.junctions)
      for (const c of j.columns)
        if (printType(c.type) === text)
          out.push({ table: j.table, column: c.name, subject: j.subject });
  }
  return out;
}

function arrayColumnsOfDomain(
  layout: StorageLayout,
  d: DomainLayout,
): { table: QName; column: string; type: PgType }[] {
  const name = printType({ ...d.spec.name, arrayDims: 0 });
  const out: { table: QName; column: string; type: PgType }[] = [];
  for (const t of layout.tables) {
    for (const c of t.columns) {
      if (c.column.type.arrayDims > 0 && printType({ ...c.column.type, arrayDims: 0 }) === name)
        out.push({ table: t.table, column: c.column.name, type: c.column.type });
    }
  }
  return out;
}

function replaceDomainValue(expr: SqlExpr, column: SqlExpr): SqlExpr {
  const visit = (e: unknown): unknown => {
    if (Array.isArray(e)) return e.map(visit);
    if (e && typeof e === 'object' && !(e instanceof Uint8Array)) {
      if ((e as { kind?: string }).kind === 'DomainValue') return column;
      return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, visit(v)]));
    }
    return e;
  };
  return visit(expr) as SqlExpr;
}

// ---------------------------------------------------------------------------------------------
// Model-only changes (no SQL): policies, globals, functions, aliases, annotations, computeds

const canon = (value: unknown): string => JSON.stringify(ql.withoutSpans(value));

function planModelOnly(p: Planner): void {
  const from = p.from;
  const to = p.to;
  const subjects = new Set(p.phases.flat().map((s) => s.subject));
  const byName = <T extends { name: string }>(list: readonly T[] | undefined) =>
    new Map((list ?? []).map((x) => [x.name, x]));

  // Types and their pointers.
  const oldTypes = byName(from?.objectTypes);
  const newTypes = byName(to.objectTypes);
  for (const [name, t] of newTypes) {
    const old = oldTypes.get(name);
    if (!old) {
      if (!subjects.has(name)) p.step(12, 'create type', name, `create type ${name}`, []);
    } else if (canon(typeOwn(old)) !== canon(typeOwn(t)) && !subjects.has(name)) {
      p.step(12, 'alter type', name, `alter type ${name}`, []);
    }
    for (const ptr of t.pointers.filter((x) => x.declaredIn === name)) {
      const subject = `${name}.${ptr.name}`;
      const prev = old?.pointers.find((x) => x.name === ptr.name);
      if (subjects.has(subject)) continue;
      if (!prev || prev.kind !== ptr.kind) {
        if (old)
          p.step(
            12,
            ptr.kind === 'link' ? 'create link' : 'create property',
            subject,
            `create ${ptr.computed ? 'computed ' : ''}${ptr.kind} ${subject}`,
            [],
          );
      } else if (canon(ptr) !== canon(prev)) {
        p.step(
          12,
          ptr.kind === 'link' ? 'alter link' : 'alter property',
          subject,
          `alter ${ptr.kind} ${subject}`,
          [],
        );
      }
    }
    if (old) {
      for (const prev of old.pointers.filter((x) => x.declaredIn === name)) {
        const subject = `${name}.${prev.name}`;
        if (
          subjects.has(subject) ||
          t.pointers.some((x) => x.name === prev.name && x.kind === prev.kind)
        )
          continue;
        p.step(
          12,
          prev.kind === 'link' ? 'drop link' : 'drop property',
          subject,
          `drop ${prev.computed ? 'computed ' : ''}${prev.kind} ${subject}`,
          [],
        );
      }
    }
    // Policies are enforced by the query compiler: steps without SQL.
    const oldPolicies = new Map(
      (old?.policies ?? []).filter((x) => x.declaredIn === name).map((x) => [x.name, x]),
    );
    const newPolicies = new Map(
      t.policies.filter((x) => x.declaredIn === name).map((x) => [x.name, x]),
    );
    for (const [pname, pol] of newPolicies) {
      const prev = oldPolicies.get(pname);
      if (!prev)
        p.step(
          12,
          'create policy',
          `${name}.${pname}`,
          `create access policy ${pname} on ${name} (${pol.action} ${pol.kinds.join(', ')})`,
          [],
        );
      else if (canon(prev) !== canon(pol))
        p.step(
          12,
          'alter policy',
          `${name}.${pname}`,
          `alter access policy ${pname} on ${name}`,
          [],
        );
    }
    for (const [pname] of oldPolicies) {
      if (!newPolicies.has(pname))
        p.step(12, 'drop policy', `${name}.${pname}`, `drop access policy ${pname} on ${name}`, []);
    }
  }
  for (const [name, old] of oldTypes) {
    if (newTypes.has(name) || subjects.has(name)) continue;
    p.step(12, 'drop type', name, `drop ${old.abstract ? 'abstract ' : ''}type ${name}`, []);
  }

  // Scalars whose change has no SQL (annotations, abstract scalars).
  const oldScalars = byName(from?.scalarTypes);
  for (const [name, s] of byName(to.scalarTypes)) {
    if (subjects.has(name)) continue;
    const old = oldScalars.get(name);
    if (!old) p.step(12, 'create scalar', name, describeScalar(to, name, 'create scalar'), []);
    else if (canon(old) !== canon(s)) p.step(12, 'alter scalar', name, `alter scalar ${name}`, []);
  }
  for (const [name] of oldScalars) {
    if (!to.scalarTypes.some((s) => s.name === name) && !subjects.has(name))
      p.step(12, 'drop scalar', name, `drop scalar ${name}`, []);
  }

  namedNoSql(p, from?.globals, to.globals, 'global', [
    'create global',
    'alter global',
    'drop global',
  ]);
  // Overloads share a name: a function is its name and parameter types.
  const signature = (f: Schema['functions'][number]) =>
    `${f.name}(${f.params.map((x) => printTypeRef(x.type)).join(', ')})`;
  namedNoSql(
    p,
    from?.functions,
    to.functions,
    'function',
    ['create function', 'alter function', 'drop function'],
    signature,
  );
  // There is no alias step kind: an alias is a stored query, like a view (see the report).
  namedNoSql(p, from?.aliases, to.aliases, 'alias', ['create view', 'create view', 'drop view']);
  namedNoSql(p, from?.constraints, to.constraints, 'abstract constraint', [
    'alter type',
    'alter type',
    'alter type',
  ]);
}

function typeOwn(t: ObjectType): unknown {
  const { pointers: _p, policies: _q, span: _s, ...rest } = t;
  return rest;
}

function namedNoSql<T extends { name: string }>(
  p: Planner,
  before: readonly T[] | undefined,
  after: readonly T[],
  what: string,
  [create, alter, drop]: [MigrationStepKind, MigrationStepKind, MigrationStepKind],
  key: (x: T) => string = (x) => x.name,
): void {
  const old = new Map((before ?? []).map((x) => [key(x), x]));
  for (const x of after) {
    const prev = old.get(key(x));
    if (!prev) p.step(12, create, x.name, `create ${what} ${key(x)}`, []);
    else if (canon(prev) !== canon(x)) p.step(12, alter, x.name, `alter ${what} ${key(x)}`, []);
  }
  for (const [k, x] of old) {
    if (!after.some((y) => key(y) === k)) p.step(12, drop, x.name, `drop ${what} ${k}`, []);
  }
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
