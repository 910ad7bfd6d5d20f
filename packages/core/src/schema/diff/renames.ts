/**
 * schema/diff/renames: what a migration's renames mean for the plan. A rename is the user's word
 * that `default::User.bio` of the stored schema is `default::User.about` of the new one (or
 * `default::User` is `default::Person`): the data stays where it is, under the new name, instead of
 * a drop and an add (which would lose it).
 *
 * Input: the stored and the new Schema and the renames asked for. Output:
 * - `resolveRenames`: the renames checked against both schemas (each old name exists only in the
 *   stored one, each new name only in the new one, same kind, same module) and expanded to every
 *   table that stores the pointer (a pointer declared in an abstract type lives in the tables of
 *   the types extending it);
 * - `renameSteps`: the SQL (`alter table ... rename`) of the tables, junction tables and columns;
 * - `renamedModel` / `renamedLayout`: the stored schema and its layout as they are once those
 *   statements ran, for the rest of the planner to compare with the new schema as usual.
 *
 * What keeps its identity in PostgreSQL through a rename (a foreign key, a CHECK, an index: they
 * refer to columns by number) is renamed in the layout too, so it is not remade; what holds names
 * as text (the integrity triggers' functions, the views of abstract types) is compared as it was
 * and so remade. Names derived from a type's or pointer's name (an index's, a constraint's) change
 * with it: those objects are dropped and made again under the new name.
 * Pure.
 */
import { MigrationError } from '../../errors';
import type { MigrationRename } from '../../model/migration';
import type { ObjectType, Pointer, Schema, TypeRef } from '../../model/schema';
import type { SqlExpr } from '../../sql/ast';
import { ddl, type QName } from '../../sql/codegen/ddl';
import { transformSql } from '../../sql/transform';
import type { StorageLayout, TypeTable } from '../../storage/layout';
import { columnName, pointerTableName, tableName } from '../../storage/names';
import { splitName } from '../../storage/types';
import { qkey } from './planner';

export interface ResolvedRenames {
  /** Stored type name → new type name. */
  readonly types: ReadonlyMap<string, string>;
  /** By the stored type's name: its pointers' stored name → new name (inherited ones included). */
  readonly pointers: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

export const NO_RENAMES: ResolvedRenames = { types: new Map(), pointers: new Map() };

const qualify = (name: string) => (name.includes('::') ? name : `default::${name}`);

/** Checks `renames` against both schemas and expands pointer renames to every inheriting type. */
export function resolveRenames(
  from: Schema | null,
  to: Schema,
  renames: readonly MigrationRename[],
): ResolvedRenames {
  if (renames.length === 0) return NO_RENAMES;
  const refuse = (message: string, hint?: string): never => {
    throw new MigrationError(message, hint === undefined ? undefined : { hint });
  };
  if (from === null) refuse('nothing to rename: the database has no schema yet');
  const stored = new Map((from as Schema).objectTypes.map((t) => [t.name, t]));
  const next = new Map(to.objectTypes.map((t) => [t.name, t]));

  const types = new Map<string, string>();
  for (const r of renames) {
    if (r.kind !== 'type') continue;
    const old = qualify(r.from);
    const now = qualify(r.to);
    if (!stored.has(old)) refuse(`cannot rename ${old}: the stored schema has no such type`);
    if (!next.has(now)) refuse(`cannot rename ${old} to ${now}: the new schema has no type ${now}`);
    if (next.has(old))
      refuse(
        `cannot rename ${old} to ${now}: the new schema still has ${old}`,
        `a rename moves a type to a name that is new; to keep ${old} and copy its data, write the copy as a query`,
      );
    if (stored.has(now)) refuse(`cannot rename ${old} to ${now}: ${now} exists already`);
    if (splitName(old)[0] !== splitName(now)[0])
      refuse(`cannot rename ${old} to ${now}: moving a type to another module is not supported`);
    if ([...types.values()].includes(now) || types.has(old))
      refuse(`${old} or ${now} is named in two renames`);
    types.set(old, now);
  }
  const oldNameOf = new Map([...types].map(([o, n]) => [n, o]));

  // A pointer rename names its type by either name; it applies to that type's tables and to
  // those of every type that inherits the pointer from it.
  const declared = new Map<string, Map<string, string>>(); // declaring type (new name) → old → new
  for (const r of renames) {
    if (r.kind !== 'pointer') continue;
    const named = qualify(r.type);
    const newType = types.get(named) ?? named;
    const oldType = oldNameOf.get(newType) ?? newType;
    const before = stored.get(oldType);
    const after = next.get(newType);
    const subject = `${newType}.${r.from}`;
    if (!before || !after) refuse(`cannot rename ${subject}: no type ${named} in both schemas`);
    const prev = (before as ObjectType).pointers.find((p) => p.name === r.from);
    const now = (after as ObjectType).pointers.find((p) => p.name === r.to);
    if (!prev) refuse(`cannot rename ${subject}: the stored ${oldType} has no ${r.from}`);
    if (!now) refuse(`cannot rename ${subject} to ${r.to}: the new ${newType} has no ${r.to}`);
    if ((after as ObjectType).pointers.some((p) => p.name === r.from))
      refuse(`cannot rename ${subject} to ${r.to}: the new ${newType} still has ${r.from}`);
    if ((before as ObjectType).pointers.some((p) => p.name === r.to))
      refuse(`cannot rename ${subject} to ${r.to}: the stored ${oldType} has ${r.to} already`);
    const p = prev as Pointer;
    const n = now as Pointer;
    if (p.kind !== n.kind)
      refuse(`cannot rename ${subject} to ${r.to}: one is a ${p.kind}, the other a ${n.kind}`);
    if (p.declaredIn !== oldType || n.declaredIn !== newType)
      refuse(
        `cannot rename ${subject}: it is declared in ${n.declaredIn}`,
        `rename it where it is declared (${n.declaredIn}.${r.from}=${r.to})`,
      );
    const own = declared.get(newType) ?? new Map<string, string>();
    if (own.has(r.from)) refuse(`${subject} is named in two renames`);
    own.set(r.from, r.to);
    declared.set(newType, own);
  }
  const pointers = new Map<string, Map<string, string>>();
  for (const t of (from as Schema).objectTypes) {
    const newName = types.get(t.name) ?? t.name;
    const lineage = [newName, ...(next.get(newName)?.ancestors ?? [])];
    const own = new Map<string, string>();
    for (const ancestor of lineage)
      for (const [o, n] of declared.get(ancestor) ?? []) own.set(o, n);
    if (own.size) pointers.set(t.name, own);
  }
  return { types, pointers };
}

const isEmpty = (r: ResolvedRenames) => r.types.size === 0 && r.pointers.size === 0;

/** The stored schema's names as the renames leave them (expressions are kept as written). */
export function renamedModel(from: Schema, r: ResolvedRenames): Schema {
  if (isEmpty(r)) return from;
  const type = (name: string) => r.types.get(name) ?? name;
  const ref = (t: TypeRef): TypeRef => {
    switch (t.kind) {
      case 'object':
        return { ...t, name: type(t.name) };
      case 'union':
        return { ...t, members: t.members.map(type).sort() };
      case 'array':
      case 'range':
      case 'multirange':
        return { ...t, element: ref(t.element) };
      case 'tuple':
        return { ...t, elements: t.elements.map((e) => ({ ...e, type: ref(e.type) })) };
      default:
        return t;
    }
  };
  const objectTypes = from.objectTypes.map((t): ObjectType => {
    const names = r.pointers.get(t.name);
    const pointer = (p: Pointer): Pointer => ({
      ...p,
      name: names?.get(p.name) ?? p.name,
      target: ref(p.target),
      declaredIn: type(p.declaredIn),
      properties: p.properties.map((lp) => ({ ...lp, declaredIn: type(lp.declaredIn) })),
      constraints: p.constraints.map((c) => ({ ...c, declaredIn: type(c.declaredIn) })),
    });
    return {
      ...t,
      name: type(t.name),
      bases: t.bases.map(type),
      ancestors: t.ancestors.map(type),
      pointers: t.pointers.map(pointer),
      constraints: t.constraints.map((c) => ({ ...c, declaredIn: type(c.declaredIn) })),
      indexes: t.indexes.map((i) => ({ ...i, declaredIn: type(i.declaredIn) })),
      policies: t.policies.map((p) => ({ ...p, declaredIn: type(p.declaredIn) })),
    };
  });
  return {
    ...from,
    objectTypes,
    globals: from.globals.map((g) => ({ ...g, target: ref(g.target) })),
  };
}

/** A renamed table of the stored layout: its old and new name, and its columns renamed. */
interface TableMove {
  readonly from: QName;
  readonly to: QName;
  /** Its columns' old name → new name. */
  readonly columns: ReadonlyMap<string, string>;
}

/** The tables and columns the renames move, one entry a table (by its old name). */
function tableMoves(before: StorageLayout, r: ResolvedRenames): Map<string, TableMove> {
  const out = new Map<string, TableMove>();
  for (const m of renameSteps(before, r).flatMap((s) => s.moves)) {
    const had = out.get(qkey(m.from));
    out.set(qkey(m.from), had ? { ...had, columns: new Map([...had.columns, ...m.columns]) } : m);
  }
  return out;
}

export interface RenameStep {
  readonly kind: 'alter type' | 'alter property' | 'alter link';
  /** The new name: `default::Person`, `default::Person.about`. */
  readonly subject: string;
  readonly description: string;
  readonly sql: string[];
  readonly moves: TableMove[];
}

/**
 * The rename statements, a step per renamed type (its table and junction tables) and per renamed
 * pointer of each table storing it (its column, its link properties' columns, or its junction
 * table); types first, so a pointer's statements name its table's new name.
 */
export function renameSteps(before: StorageLayout, r: ResolvedRenames): RenameStep[] {
  if (isEmpty(r)) return [];
  const typeSteps: RenameStep[] = [];
  const pointerSteps: RenameStep[] = [];
  for (const t of before.tables) {
    const newType = r.types.get(t.type) ?? t.type;
    const names = r.pointers.get(t.type) ?? new Map<string, string>();
    const table = tableName(newType);
    const typeMoves: TableMove[] = [];
    if (qkey(table) !== qkey(t.table))
      typeMoves.push({ from: t.table, to: table, columns: new Map() });
    for (const j of t.junctions) {
      if (names.has(j.pointer)) continue;
      const to = pointerTableName(newType, j.pointer);
      if (qkey(to) !== qkey(j.table)) typeMoves.push({ from: j.table, to, columns: new Map() });
    }
    if (typeMoves.length)
      typeSteps.push({
        kind: 'alter type',
        subject: newType,
        description: `rename type ${t.type} to ${newType}`,
        sql: typeMoves.map((m) => ddl.renameTable(m.from, m.to.name)),
        moves: typeMoves,
      });
    for (const [old, now] of names) {
      const column = t.columns.find((c) => c.pointer === old);
      const junction = t.junctions.find((j) => j.pointer === old);
      const kind = column?.kind ?? junction?.kind;
      if (kind === undefined) continue; // a computed pointer: nothing stored
      const moves: TableMove[] = [];
      if (column) {
        // A single link's link properties are columns `link@prop` beside it.
        const columns = new Map<string, string>();
        for (const c of t.columns) {
          const [own, linkProperty] = c.pointer.split('@');
          if (own === old) columns.set(c.column.name, columnName(now, linkProperty));
        }
        moves.push({ from: t.table, to: table, columns });
      }
      if (junction)
        moves.push({
          from: junction.table,
          to: pointerTableName(newType, now),
          columns: new Map(),
        });
      pointerSteps.push({
        kind: kind === 'link' ? 'alter link' : 'alter property',
        subject: `${newType}.${now}`,
        description: `rename ${kind} ${newType}.${old} to ${now}`,
        sql: moves.flatMap((m) =>
          m.columns.size
            ? [...m.columns].map(([o, n]) => ddl.renameColumn(m.to, o, n))
            : [ddl.renameTable(m.from, m.to.name)],
        ),
        moves,
      });
    }
  }
  return [...typeSteps, ...pointerSteps];
}

/**
 * The stored layout as the rename statements leave it: tables, junction tables and columns under
 * their new names, and what PostgreSQL keeps through a rename (foreign keys, CHECKs, indexes)
 * pointing at them. Triggers and views keep what they were (they hold names as text), on their
 * table's new name, so the planner remakes them when their text changes.
 */
export function renamedLayout(before: StorageLayout, r: ResolvedRenames): StorageLayout {
  if (isEmpty(r)) return before;
  const moves = tableMoves(before, r);
  const table = (q: QName): QName => moves.get(qkey(q))?.to ?? q;
  const column = (q: QName, name: string) => moves.get(qkey(q))?.columns.get(name) ?? name;
  const exprOn = (q: QName, e: SqlExpr): SqlExpr => {
    const cols = moves.get(qkey(q))?.columns;
    if (!cols?.size) return e;
    return transformSql(e, {
      expr: (x) =>
        x.kind === 'ColumnRef' && x.table === null && cols.has(x.name)
          ? { ...x, name: cols.get(x.name) as string }
          : undefined,
    });
  };
  const type = (name: string) => r.types.get(name) ?? name;
  const tables = before.tables.map((t): TypeTable => {
    const names = r.pointers.get(t.type);
    const ptr = (p: string) => {
      const [own = p, linkProperty] = p.split('@');
      const renamed = names?.get(own) ?? own;
      return linkProperty === undefined ? renamed : `${renamed}@${linkProperty}`;
    };
    const newType = type(t.type);
    const subject = (p: string) => `${newType}.${ptr(p)}`;
    return {
      ...t,
      type: newType,
      table: table(t.table),
      columns: t.columns.map((c) => ({
        ...c,
        pointer: ptr(c.pointer),
        subject: subject(c.pointer),
        column: { ...c.column, name: column(t.table, c.column.name) },
      })),
      junctions: t.junctions.map((j) => ({
        ...j,
        pointer: ptr(j.pointer),
        subject: subject(j.pointer),
        table: table(j.table),
      })),
      foreignKeys: t.foreignKeys.map((f) => ({
        ...f,
        spec: {
          ...f.spec,
          table: table(f.spec.table),
          column: column(f.spec.table, f.spec.column),
          target: table(f.spec.target),
        },
      })),
      checks: t.checks.map((c) => ({
        ...c,
        spec: { ...c.spec, table: table(c.spec.table), expr: exprOn(c.spec.table, c.spec.expr) },
      })),
      indexes: t.indexes.map((i) => ({
        ...i,
        spec: {
          ...i.spec,
          table: table(i.spec.table),
          elements: i.spec.elements.map((e) => exprOn(i.spec.table, e)),
          where: i.spec.where === null ? null : exprOn(i.spec.table, i.spec.where),
        },
      })),
    };
  });
  return {
    ...before,
    tables,
    views: before.views.map((v) => ({ ...v, type: type(v.type) })),
    triggers: before.triggers.map((t) => ({ ...t, table: table(t.table) })),
  };
}
