/**
 * schema/diff/scalars: custom scalars (domains) created, altered and dropped.
 */
import { MigrationError } from '../../errors';
import type { Schema } from '../../model/schema';
import type { PgType, SqlExpr } from '../../sql/ast';
import { printSql, printType } from '../../sql/print';
import { checks as checkSql, ddl, type QName } from '../../sql/codegen/ddl';
import type { DomainLayout, StorageLayout } from '../../storage/layout';
import type { Planner } from './planner';

export function planScalars(p: Planner): void {
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

export function describeScalar(schema: Schema, name: string, what: string): string {
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
