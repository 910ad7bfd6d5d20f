/**
 * schema/diff/pointers: the columns and junction tables of one type table that changed — added,
 * altered (type, required, default), single to multi and back.
 */
import { printTypeRef, type Schema } from '../../model/schema';
import type { SqlExpr } from '../../sql/ast';
import { ddlCompiler } from '../../storage/ddl-compiler';
import { splitName } from '../../storage/types';
import * as ql from '../../syntax';
import { MigrationError } from '../../errors';
import { printSql, printType } from '../../sql/print';
import { checks as checkSql, ddl, type ColumnSpec, type QName } from '../../sql/codegen/ddl';
import type { JunctionTable, PointerColumn, TypeTable } from '../../storage/layout';
import { columnText, createJunction, describePointer, linkExtras } from './columns';
import { type Planner, qkey } from './planner';

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

export function diffPointers(
  p: Planner,
  prev: TypeTable,
  next: TypeTable,
  recreated: Set<string>,
): void {
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
    alterColumn(p, next.type, table, old, c);
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
    const fill = fillExpression(p, p.to, next.type, c);
    if (fill) {
      sql.splice(
        0,
        1,
        ddl.addColumn(next.table, { ...c.column, notNull: false }),
        ddl.backfill(next.table, c.column.name, fill),
        ddl.setNotNull(next.table, c.column.name),
      );
    } else {
      p.fillsWanted.add(c.subject);
      p.check(
        'violation',
        c.subject,
        `${c.subject} is required and has no default, but ${next.type} already has objects; give it a default, or a fill expression for the objects there are`,
        checkSql.anyRows(prev.table),
      );
    }
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

/** A type change no cast makes, which a fill would: what `typeChangeWanting` answers. */
export interface TypeChangeWantingFill {
  /** The pointer, qualified: `default::User.age`. */
  readonly subject: string;
  /** The stored type and the new one: `std::str`, `std::int64`. */
  readonly from: string;
  readonly to: string;
}

const typeChanges = new WeakMap<Error, TypeChangeWantingFill>();

/**
 * When `err` is `planMigration` refusing a type change that no cast makes, which change (a fill
 * written over the stored value would make it: `svc migration create` asks for one); else
 * undefined.
 */
export function typeChangeWanting(err: unknown): TypeChangeWantingFill | undefined {
  return err instanceof Error ? typeChanges.get(err) : undefined;
}

function alterColumn(
  p: Planner,
  type: string,
  table: QName,
  old: PointerColumn,
  c: PointerColumn,
): void {
  if (columnText(old.column) === columnText(c.column)) return;
  const sql: string[] = [];
  const changes: string[] = [];
  const oldType = printType(old.column.type);
  const newType = printType(c.column.type);
  const kind = c.kind === 'link' ? 'alter link' : 'alter property';
  const oldDefault = old.column.default ? printSql(old.column.default) : null;
  const newDefault = c.column.default ? printSql(c.column.default) : null;
  if (oldType !== newType) {
    // A fill for a changed type is written over the stored value (`<int64>.age`).
    const fill = p.from ? fillExpression(p, p.from, type, c) : null;
    if (!fill && !castable(oldType, newType)) {
      const error = new MigrationError(
        `cannot change the type of ${c.subject} from ${printTypeRef(old.target)} to ${printTypeRef(c.target)}: there is no cast that keeps the data`,
        {
          hint: `give a fill expression that computes the new value from the stored one, or add a new property of type ${printTypeRef(c.target)}, copy the values with an update query, then drop ${c.pointer}`,
        },
      );
      typeChanges.set(error, {
        subject: c.subject,
        from: printTypeRef(old.target),
        to: printTypeRef(c.target),
      });
      throw error;
    }
    if (oldDefault !== null) sql.push(ddl.setDefault(table, c.column.name, null));
    sql.push(
      ddl.alterColumnType(
        table,
        c.column.name,
        c.column.type,
        fill ?? {
          kind: 'Cast',
          expr: { kind: 'ColumnRef', table: null, name: c.column.name },
          type: c.column.type,
        },
      ),
    );
    if (newDefault !== null) sql.push(ddl.setDefault(table, c.column.name, c.column.default));
    changes.push(`type ${printTypeRef(old.target)} → ${printTypeRef(c.target)}`);
  } else if (oldDefault !== newDefault) {
    sql.push(ddl.setDefault(table, c.column.name, c.column.default));
    changes.push(newDefault === null ? 'drop default' : `default ${newDefault}`);
  }
  if (old.column.notNull !== c.column.notNull) {
    if (c.column.notNull) {
      const fill = oldType === newType ? fillExpression(p, p.to, type, c) : null;
      if (fill) {
        sql.push(ddl.backfill(table, c.column.name, fill));
      } else if (c.column.default && !c.queryDefault) {
        sql.push(ddl.backfill(table, c.column.name, c.column.default));
      } else {
        p.fillsWanted.add(c.subject);
        p.check(
          'violation',
          c.subject,
          `${c.subject} becomes required, but these objects have no value (give it a default or a fill expression to fill them)`,
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

/**
 * The SQL of the fill expression given for `c` (MigrationHints.fills), compiled over a row of
 * `type` in `schema` (the new schema for a value to add, the stored one for a value to convert),
 * or null when none was given. It must give the pointer's type.
 */
function fillExpression(
  p: Planner,
  schema: Schema,
  type: string,
  c: PointerColumn,
): SqlExpr | null {
  const text = p.fills.get(c.subject);
  if (text === undefined) return null;
  p.usedFills.add(c.subject);
  let expr: ql.Expr;
  try {
    expr = ql.parseExpression(text);
  } catch (err) {
    throw new MigrationError(
      `the fill expression for ${c.subject} does not parse: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const compiled = ddlCompiler().compileScalar(expr, {
    schema,
    module: splitName(type)[0],
    mode: 'default',
    subject: { kind: 'object', type },
  });
  if (compiled.type !== null && printTypeRef(compiled.type) !== printTypeRef(c.target)) {
    throw new MigrationError(
      `the fill expression for ${c.subject} gives ${printTypeRef(compiled.type)}, but ${c.subject} is ${printTypeRef(c.target)}`,
      { hint: `cast it: <${printTypeRef(c.target)}>(${text})` },
    );
  }
  return compiled.sql;
}
