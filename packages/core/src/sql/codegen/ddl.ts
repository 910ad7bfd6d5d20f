/**
 * sql/codegen/ddl: DDL statements from structured specs; the only place DDL text is written.
 *
 * Input: specs (tables, columns, foreign keys, checks, indexes, domains, views) whose names are
 * unquoted and whose expressions are SqlExpr trees. Output: one statement per call, no trailing
 * `;`. Invariants: identifiers through quoteIdent, values through quoteLiteral (DDL takes no
 * parameters), expressions through printSql; the same spec always prints the same text.
 * The statements are plain PostgreSQL 15 DDL, avoiding what Citus/CockroachDB/YugabyteDB lack
 * where it costs nothing: no table inheritance, no exclusion constraints, no generated columns,
 * enums as text domains rather than ENUM types. svc does depend on triggers: what a foreign key
 * cannot hold (links to polymorphic targets and `on target delete` for them, `on source delete`,
 * an `exclusive` shared by a type and its subtypes, `deferred restrict` on a polymorphic link) is
 * kept by PL/pgSQL row triggers, written by ./triggers (storage/integrity plans them). What that
 * means on each engine, and what else the layout needs there: docs/scaling.md.
 */
import type { PgType, SqlExpr } from '../ast';
import { printSql, printType } from '../print';
import { quoteIdent, quoteLiteral, quoteQualified } from './quote';

export interface QName {
  readonly schema: string;
  readonly name: string;
}

export const q = (name: QName): string => quoteQualified(name.schema, name.name);

export interface ColumnSpec {
  readonly name: string;
  readonly type: PgType;
  readonly notNull: boolean;
  readonly default: SqlExpr | null;
  readonly primaryKey?: boolean;
}

export type OnDelete = 'cascade' | 'no action' | 'set null';

export interface ForeignKeySpec {
  readonly table: QName;
  readonly name: string;
  readonly column: string;
  readonly target: QName;
  readonly onDelete: OnDelete;
  /** `deferrable initially deferred`: checked at commit (`deferred restrict`). */
  readonly deferred: boolean;
}

export interface CheckSpec {
  readonly table: QName;
  readonly name: string;
  readonly expr: SqlExpr;
}

export interface IndexSpec {
  readonly table: QName;
  readonly name: string;
  readonly unique: boolean;
  readonly elements: readonly SqlExpr[];
  readonly where: SqlExpr | null;
  /** The access method (`gin` for a full-text index); the default (btree) when absent. */
  readonly method?: string;
}

export interface DomainSpec {
  readonly name: QName;
  readonly base: PgType;
  readonly default: SqlExpr | null;
  readonly checks: readonly { readonly name: string; readonly expr: SqlExpr }[];
}

export interface ViewBranch {
  readonly table: QName;
  /** One per view column: a column of the table, or null (typed) when the table lacks it. */
  readonly columns: readonly {
    readonly name: string;
    readonly from: string | null;
    readonly type: PgType;
  }[];
  /** Constant for the `__type__` column: the concrete type's qualified name. */
  readonly typeName: string;
}

export interface ViewSpec {
  readonly name: QName;
  readonly columns: readonly { readonly name: string; readonly type: PgType }[];
  readonly branches: readonly ViewBranch[];
}

function columnDef(column: ColumnSpec): string {
  let text = `${quoteIdent(column.name)} ${printType(column.type)}`;
  if (column.primaryKey) text += ' primary key';
  else if (column.notNull) text += ' not null';
  if (column.default) text += ` default ${printSql(column.default)}`;
  return text;
}

export const ddl = {
  createSchema: (name: string) => `create schema if not exists ${quoteIdent(name)}`,
  dropSchema: (name: string) => `drop schema if exists ${quoteIdent(name)}`,
  createTable: (
    table: QName,
    columns: readonly ColumnSpec[],
    primaryKey: readonly string[] | null = null,
  ) => {
    const parts = columns.map(columnDef);
    if (primaryKey) {
      parts.push(
        `constraint ${quoteIdent(`${table.name}.pkey`)} primary key (${primaryKey.map(quoteIdent).join(', ')})`,
      );
    }
    return `create table ${q(table)} (${parts.join(', ')})`;
  },
  dropTable: (table: QName) => `drop table ${q(table)}`,
  addColumn: (table: QName, column: ColumnSpec) =>
    `alter table ${q(table)} add column ${columnDef(column)}`,
  dropColumn: (table: QName, column: string) =>
    `alter table ${q(table)} drop column ${quoteIdent(column)}`,
  alterColumnType: (table: QName, column: string, type: PgType, using: SqlExpr) =>
    `alter table ${q(table)} alter column ${quoteIdent(column)} type ${printType(type)} using ${printSql(using)}`,
  renameConstraint: (table: QName, name: string, to: string) =>
    `alter table ${q(table)} rename constraint ${quoteIdent(name)} to ${quoteIdent(to)}`,
  renameIndex: (schema: string, name: string, to: string) =>
    `alter index ${quoteQualified(schema, name)} rename to ${quoteIdent(to)}`,
  renameTable: (table: QName, name: string) =>
    `alter table ${q(table)} rename to ${quoteIdent(name)}`,
  renameColumn: (table: QName, column: string, name: string) =>
    `alter table ${q(table)} rename column ${quoteIdent(column)} to ${quoteIdent(name)}`,
  setNotNull: (table: QName, column: string) =>
    `alter table ${q(table)} alter column ${quoteIdent(column)} set not null`,
  dropNotNull: (table: QName, column: string) =>
    `alter table ${q(table)} alter column ${quoteIdent(column)} drop not null`,
  setDefault: (table: QName, column: string, value: SqlExpr | null) =>
    value === null
      ? `alter table ${q(table)} alter column ${quoteIdent(column)} drop default`
      : `alter table ${q(table)} alter column ${quoteIdent(column)} set default ${printSql(value)}`,
  /** Fills NULLs before `set not null` (a required property gaining a default). */
  backfill: (table: QName, column: string, value: SqlExpr) =>
    `update ${q(table)} set ${quoteIdent(column)} = ${printSql(value)} where ${quoteIdent(column)} is null`,
  addForeignKey: (fk: ForeignKeySpec) =>
    `alter table ${q(fk.table)} add constraint ${quoteIdent(fk.name)} foreign key (${quoteIdent(fk.column)}) references ${q(fk.target)} (${quoteIdent('id')}) on delete ${fk.onDelete}${fk.deferred ? ' deferrable initially deferred' : ''}`,
  dropConstraint: (table: QName, name: string) =>
    `alter table ${q(table)} drop constraint ${quoteIdent(name)}`,
  addCheck: (check: CheckSpec) =>
    `alter table ${q(check.table)} add constraint ${quoteIdent(check.name)} check (${printSql(check.expr)})`,
  createIndex: (index: IndexSpec) => {
    const elements = index.elements.map((e) =>
      e.kind === 'ColumnRef' && e.table === null ? printSql(e) : `(${printSql(e)})`,
    );
    const where = index.where ? ` where ${printSql(index.where)}` : '';
    const using = index.method ? ` using ${quoteIdent(index.method)}` : '';
    return `create ${index.unique ? 'unique ' : ''}index ${quoteIdent(index.name)} on ${q(index.table)}${using} (${elements.join(', ')})${where}`;
  },
  dropIndex: (schema: string, name: string) => `drop index ${quoteQualified(schema, name)}`,
  createDomain: (domain: DomainSpec) => {
    let text = `create domain ${q(domain.name)} as ${printType(domain.base)}`;
    if (domain.default) text += ` default ${printSql(domain.default)}`;
    for (const check of domain.checks)
      text += ` constraint ${quoteIdent(check.name)} check (${printSql(check.expr)})`;
    return text;
  },
  dropDomain: (name: QName) => `drop domain ${q(name)}`,
  domainAddCheck: (name: QName, check: { name: string; expr: SqlExpr }) =>
    `alter domain ${q(name)} add constraint ${quoteIdent(check.name)} check (${printSql(check.expr)})`,
  domainDropCheck: (name: QName, check: string) =>
    `alter domain ${q(name)} drop constraint ${quoteIdent(check)}`,
  createSequence: (name: QName) => `create sequence ${q(name)} as bigint`,
  dropSequence: (name: QName) => `drop sequence ${q(name)}`,
  createView: (view: ViewSpec) => {
    const branches =
      view.branches.length === 0
        ? [
            `select ${view.columns
              .map((c) => `null::${printType(c.type)} as ${quoteIdent(c.name)}`)
              .concat(`null::text as ${quoteIdent('__type__')}`)
              .join(', ')} where false`,
          ]
        : view.branches.map(
            (b) =>
              `select ${b.columns
                .map((c) =>
                  c.from === null
                    ? `null::${printType(c.type)} as ${quoteIdent(c.name)}`
                    : c.from === c.name
                      ? quoteIdent(c.name)
                      : `${quoteIdent(c.from)} as ${quoteIdent(c.name)}`,
                )
                .concat(`${quoteLiteral(b.typeName)}::text as ${quoteIdent('__type__')}`)
                .join(', ')} from ${q(b.table)}`,
          );
    return `create view ${q(view.name)} as ${branches.join(' union all ')}`;
  },
  dropView: (name: QName) => `drop view ${q(name)}`,
  /** single → multi: copies each non-null value into the new table. */
  copyColumnToTable: (from: QName, column: string, to: QName, valueColumn: string) =>
    `insert into ${q(to)} (${quoteIdent('source')}, ${quoteIdent(valueColumn)}) select ${quoteIdent('id')}, ${quoteIdent(column)} from ${q(from)} where ${quoteIdent(column)} is not null`,
  /** multi → single: takes the (checked to be only) value of each source. */
  copyTableToColumn: (from: QName, valueColumn: string, to: QName, column: string) =>
    `update ${q(to)} set ${quoteIdent(column)} = (select j.${quoteIdent(valueColumn)} from ${q(from)} as j where j.${quoteIdent('source')} = ${q(to)}.${quoteIdent('id')} limit 1)`,
};

/** SELECTs for DataCheck: each returns one row per offending item, at most 20. */
export const checks = {
  /** One row with the count if the table has rows. */
  tableHasRows: (table: QName, subject: string) =>
    `select ${quoteLiteral(subject)} as ${quoteIdent('subject')}, count(*) as ${quoteIdent('rows')} from ${q(table)} having count(*) > 0`,
  /** One row with the count if the column holds any non-null value. */
  columnHasValues: (table: QName, column: string, subject: string) =>
    `select ${quoteLiteral(subject)} as ${quoteIdent('subject')}, count(*) as ${quoteIdent('values')} from ${q(table)} where ${quoteIdent(column)} is not null having count(*) > 0`,
  /** Rows whose column is null (a property becoming required without a default). */
  nullRows: (table: QName, column: string) =>
    `select ${quoteIdent('id')} from ${q(table)} where ${quoteIdent(column)} is null order by ${quoteIdent('id')} limit 20`,
  /** Any row (a new required property without a default on a table with rows). */
  anyRows: (table: QName) =>
    `select ${quoteIdent('id')} from ${q(table)} order by ${quoteIdent('id')} limit 20`,
  /** Duplicate values under a new unique index, with their counts, most duplicated first. */
  duplicates: (index: IndexSpec) => {
    const exprs = index.elements.map((e) => printSql(e));
    const selected = exprs.map(
      (e, i) => `${e} as ${quoteIdent(`value${index.elements.length > 1 ? i + 1 : ''}`)}`,
    );
    const conditions = exprs.map(
      (e) => `${index.elements[0]?.kind === 'ColumnRef' ? e : `(${e})`} is not null`,
    );
    if (index.where) conditions.push(`(${printSql(index.where)})`);
    return `select ${selected.join(', ')}, count(*) as ${quoteIdent('count')} from ${q(index.table)} where ${conditions.join(' and ')} group by ${exprs.join(', ')} having count(*) > 1 order by count(*) desc, ${exprs.join(', ')} limit 20`;
  },
  /** Rows a new CHECK would reject. */
  failingCheck: (check: CheckSpec, keys: readonly string[]) =>
    `select ${keys.map(quoteIdent).join(', ')} from ${q(check.table)} where not (${printSql(check.expr)}) order by ${keys.map(quoteIdent).join(', ')} limit 20`,
  /** Rows whose link points to no row of the new target table. */
  danglingLinks: (fk: ForeignKeySpec) =>
    `select ${quoteIdent('id')}, ${quoteIdent(fk.column)} from ${q(fk.table)} as s where ${quoteIdent(fk.column)} is not null and not exists (select 1 from ${q(fk.target)} as t where t.${quoteIdent('id')} = s.${quoteIdent(fk.column)}) order by ${quoteIdent('id')} limit 20`,
  /** Sources with more than one value (multi → single). */
  manyValues: (table: QName) =>
    `select ${quoteIdent('source')}, count(*) as ${quoteIdent('count')} from ${q(table)} group by ${quoteIdent('source')} having count(*) > 1 order by count(*) desc, ${quoteIdent('source')} limit 20`,
  /** Stored values outside a domain's new CHECK, over every column of that domain. */
  domainViolations: (
    columns: readonly { table: QName; column: string; subject: string; check: SqlExpr }[],
  ) =>
    columns
      .map(
        (c) =>
          `select ${quoteLiteral(c.subject)} as ${quoteIdent('subject')}, ${quoteIdent(c.column)}::text as ${quoteIdent('value')} from ${q(c.table)} where not (${printSql(c.check)})`,
      )
      .join(' union all ') + ' limit 20',
};
