/**
 * schema/diff/columns: what the table and pointer diffs share — a column's text, the columns an
 * expression reads, a layout's columns by table, a pointer by its subject and its description, a
 * new pointer's FKs and link index, a new junction table.
 */
import { printTypeRef } from '../../model/schema';
import type { Pointer, Schema } from '../../model/schema';
import type { SqlExpr } from '../../sql/ast';
import { printSql, printType } from '../../sql/print';
import { ddl, type ColumnSpec } from '../../sql/codegen/ddl';
import type { JunctionTable, StorageLayout, TypeTable } from '../../storage/layout';
import { type Planner, qkey } from './planner';

export function columnText(c: ColumnSpec): string {
  return `${printType(c.type)}|${c.notNull}|${c.default ? printSql(c.default) : ''}`;
}

export function referencedColumns(expr: SqlExpr, out = new Set<string>()): Set<string> {
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
export function tableColumns(layout: StorageLayout): Map<string, Map<string, ColumnSpec>> {
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

export function describePointer(schema: Schema, subject: string, what: string): string {
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

/** The FK and link index SQL of a new pointer, marked so the generic diff skips them. */
export function linkExtras(p: Planner, t: TypeTable, pointer: string): string[] {
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

export function createJunction(p: Planner, t: TypeTable, j: JunctionTable, phase: number): void {
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
