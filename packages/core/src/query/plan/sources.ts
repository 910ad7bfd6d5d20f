/**
 * plan/sources: where the rows of a type, a multi pointer and a backlink come from, as FROM
 * items — and the one access hook every read of a type's rows passes through.
 *
 * - A type's rows: its concrete descendants' tables (one table: the table itself; several: a
 *   UNION ALL of them with every stored single column any of them has, NULL where one lacks it,
 *   and `__type__` naming the concrete type; none: an empty relation). Never the abstract-type
 *   views. The `schema` module's types (and their multi pointers) are the catalogue's rows
 *   (query/schema-index/catalogue), as VALUES.
 * - A multi pointer's rows: its table `"<Concrete>.<ptr>"` for each concrete source type.
 * - Every one of these passes the access hook (`SourceContext.selectFilter`, plan/access): under
 *   access policies a type's rows are those the caller may select (the access policies of the type); the filter is a
 *   WHERE over the table's row, evaluated by PostgreSQL.
 */
import { tableName } from '../../storage/layout';
import { columnName } from '../../storage/names';
import { pgTypeFor } from '../../std/scalars';
import { pgType, sql, type FromItem, type SqlExpr, type SqlQuery } from '../../sql';
import type { CompileAccess } from '../api';
// Rows written earlier in the same statement (plan/overlays), which the snapshot hides.
import { hasWrittenRows, writtenJunction, writtenTable } from './overlays';
import { typeId, type PointerInfo, type SchemaIndex } from '../schema-index';
import {
  CATALOGUE_SCHEMA,
  type CatalogueAlias,
  type CatalogueValue,
  catalogueRows,
  isCatalogueType,
} from '../schema-index/catalogue';

export interface SourceContext {
  readonly index: SchemaIndex;
  readonly access: CompileAccess;
  /** A fresh SQL alias starting with `prefix`. */
  fresh(prefix: string): string;
  /**
   * The access hook (access policies): the condition a row of concrete type `concrete`, read from
   * `alias`, must meet for the caller to select it, or null for none (plan/access).
   */
  selectFilter(concrete: string, alias: string): SqlExpr | null;
  /** True when some row of `type` may be hidden from the caller (no shortcut past the hook). */
  rowsFiltered(type: string): boolean;
  /** The schema's aliases and computed globals with their types, as the catalogue lists them. */
  aliasTypes(): readonly CatalogueAlias[];
}

export interface TypeSource {
  readonly item: FromItem;
  readonly alias: string;
  /** SQL text naming each row's concrete type. */
  readonly tag: SqlExpr;
}

/** The stored single columns of a concrete type: name → PostgreSQL type. */
export function storedColumns(
  index: SchemaIndex,
  concrete: string,
): Map<string, ReturnType<typeof pgTypeFor>> {
  const out = new Map<string, ReturnType<typeof pgTypeFor>>();
  const info = index.objectType(concrete);
  for (const p of info?.pointers.values() ?? []) {
    const storage = index.storage(concrete, p);
    if (storage.kind === 'column') {
      out.set(storage.column, pgTypeFor(p.target));
      if (p.kind === 'link') {
        for (const lp of p.properties.values()) {
          if (!lp.computed) out.set(`${p.name}@${lp.name}`, pgTypeFor(lp.target));
        }
      }
    }
  }
  return out;
}

/** The rows of `type` (every concrete descendant), as a FROM item named `alias`. */
/**
 * `written` (default true): include rows this statement inserted earlier (see plan/mutation's
 * `writtenTable`) — right when following a link to objects by id (a new link may point at a new
 * object); a type's own rows scanned as a set (`select T`) are the snapshot before the statement,
 * as in Gel, so the planner passes false there. `updated` (default false): rows updated earlier
 * are read as updated — for a link's targets (`insert P { notes := (update Note ...) }` links
 * the updated notes).
 */
export function typeSource(
  ctx: SourceContext,
  type: string,
  alias: string,
  options: {
    readonly written?: boolean;
    readonly updated?: boolean;
    /**
     * The rows are joined by the ids of objects the query already holds, which passed the access
     * hook where they were read: no filter again (policies are per concrete type, so an object
     * the caller may see stays visible whatever its static type).
     */
    readonly visible?: boolean;
  } = {},
): TypeSource {
  const written = options.written ?? true;
  const updated = written && (options.updated ?? false);
  const info = ctx.index.objectType(type);
  const concrete = info?.concrete ?? [];
  const filtered = (c: string): boolean => options.visible !== true && ctx.rowsFiltered(c);
  if (concrete.length === 1) {
    const only = concrete[0] as string;
    const row = filtered(only) ? ctx.fresh('r') : alias;
    const filter = filtered(only) ? ctx.selectFilter(only, row) : null;
    const item = filter
      ? sql.subquery(
          sql.select({
            targets: [sql.target(sql.star(row))],
            from: [tableOf(ctx, only, row, written, updated)],
            where: filter,
          }),
          alias,
        )
      : tableOf(ctx, only, alias, written, updated);
    return { item, alias, tag: sql.text(only) };
  }
  if (concrete.length === 0) {
    // No rows (`A[is B]` where no type extends both), with the columns the type's pointers read.
    const columns = [...storedColumns(ctx.index, type)].map(([name, pg]) =>
      sql.target(sql.cast(sql.null(), pg), name),
    );
    const empty = sql.select({
      targets: [
        sql.target(sql.cast(sql.null(), pgType('uuid')), 'id'),
        ...columns,
        sql.target(sql.cast(sql.null(), pgType('text')), '__type__'),
      ],
      where: sql.bool(false),
    });
    return { item: sql.subquery(empty, alias), alias, tag: sql.col('__type__', alias) };
  }
  const union =
    concrete.some(filtered) || (written && hasWrittenRows(ctx))
      ? unionOf(ctx, concrete, written, updated, filtered)
      : memoUnion(ctx, type, concrete);
  return { item: sql.subquery(union, alias), alias, tag: sql.col('__type__', alias) };
}

const unions = new WeakMap<SchemaIndex, Map<string, SqlQuery>>();

/** The UNION ALL of a type's tables, built once per schema (it does not depend on the query). */
function memoUnion(ctx: SourceContext, type: string, concrete: readonly string[]): SqlQuery {
  let cache = unions.get(ctx.index);
  if (!cache) {
    cache = new Map();
    unions.set(ctx.index, cache);
  }
  let union = cache.get(type);
  if (!union) {
    union = unionOf(ctx, concrete);
    cache.set(type, union);
  }
  return union;
}

function tableOf(
  ctx: SourceContext,
  concrete: string,
  alias: string | null,
  written: boolean,
  updated = false,
): FromItem {
  const t = tableName(concrete);
  if (isCatalogueType(concrete)) return catalogueTable(ctx, concrete, alias ?? t.name);
  return written ? writtenTable(ctx, concrete, alias, updated) : sql.table(t.schema, t.name, alias);
}

function unionOf(
  ctx: SourceContext,
  concrete: readonly string[],
  written = false,
  updated = false,
  filtered: (concrete: string) => boolean = () => false,
): SqlQuery {
  const columns = new Map<string, ReturnType<typeof pgTypeFor>>();
  for (const c of concrete)
    for (const [name, t] of storedColumns(ctx.index, c)) columns.set(name, t);
  // A name the tables store with different types (unrelated types' own pointers, as under
  // `Object`) is no pointer of the union: left out, so the UNION ALL's columns match.
  for (const c of concrete)
    for (const [name, t] of storedColumns(ctx.index, c))
      if (JSON.stringify(columns.get(name)) !== JSON.stringify(t)) columns.delete(name);
  const branches: SqlQuery[] = concrete.map((c) => {
    const own = storedColumns(ctx.index, c);
    const row = filtered(c) ? ctx.fresh('r') : tableName(c).name;
    // The one FROM item's columns, unqualified (the filter's own subqueries name theirs).
    return sql.select({
      targets: [
        sql.target(sql.col('id'), 'id'),
        ...[...columns].map(([name, pg]) =>
          sql.target(own.has(name) ? sql.col(name) : sql.cast(sql.null(), pg), name),
        ),
        sql.target(sql.text(c), '__type__'),
      ],
      from: [tableOf(ctx, c, row, written, updated)],
      where: filtered(c) ? ctx.selectFilter(c, row) : null,
    });
  });
  return unionAll(branches);
}

export function unionAll(queries: readonly SqlQuery[]): SqlQuery {
  let out = queries[0] as SqlQuery;
  for (const q of queries.slice(1)) out = sql.setOp('union', true, out, q);
  return out;
}

/** A catalogue value as a SQL literal of type `pg`. */
function literal(value: CatalogueValue, pg: ReturnType<typeof pgTypeFor>): SqlExpr {
  if (value === null) return sql.cast(sql.null(), pg);
  if (typeof value === 'boolean') return sql.bool(value);
  return sql.cast(sql.text(String(value)), pg);
}

function untyped(value: CatalogueValue): SqlExpr {
  if (value === null) return sql.null();
  if (typeof value === 'boolean') return sql.bool(value);
  return sql.text(String(value));
}

/** Rows as a FROM item: VALUES with `columns`, or an empty SELECT of them. */
function valuesOf(
  columns: readonly (readonly [string, ReturnType<typeof pgTypeFor>])[],
  rows: readonly ((name: string) => CatalogueValue)[],
  alias: string,
): FromItem {
  if (rows.length === 0) {
    const empty = sql.select({
      targets: columns.map(([name, pg]) => sql.target(sql.cast(sql.null(), pg), name)),
      where: sql.bool(false),
    });
    return sql.subquery(empty, alias);
  }
  // The first row's casts type the columns; PostgreSQL reads the other rows' literals as those.
  const values = rows.map((row, i) =>
    columns.map(([name, pg]) => (i === 0 ? literal(row(name), pg) : untyped(row(name)))),
  );
  return sql.subquery(sql.values(values), alias, { columns: columns.map(([name]) => name) });
}

/** The rows of a concrete catalogue type (query/schema-index/catalogue), as VALUES. */
function catalogueTable(ctx: SourceContext, concrete: string, alias: string): FromItem {
  const rows = catalogueRows(ctx.index, typeId, ctx.aliasTypes()).rows.get(concrete) ?? [];
  const columns = [['id', pgType('uuid')] as const, ...storedColumns(ctx.index, concrete)];
  return valuesOf(
    columns,
    rows.map((r) => (name) => r[name] ?? null),
    alias,
  );
}

/** A catalogue multi pointer's rows `(source, target|value, link properties)`, as VALUES. */
function catalogueJunction(
  ctx: SourceContext,
  table: string,
  pointer: PointerInfo,
  alias: string,
): FromItem {
  const rows = catalogueRows(ctx.index, typeId, ctx.aliasTypes()).junctions.get(table) ?? [];
  const valueColumn = pointer.kind === 'link' ? 'target' : 'value';
  const props = [...pointer.properties.values()].filter((p) => !p.computed);
  const columns = [
    ['source', pgType('uuid')] as const,
    [valueColumn, pgTypeFor(pointer.target)] as const,
    ...props.map((p) => [p.name, pgTypeFor(p.target)] as const),
  ];
  return valuesOf(
    columns,
    rows.map(
      (r) => (name) =>
        name === 'source' ? r.source : name === valueColumn ? r.target : (r.props?.[name] ?? null),
    ),
    alias,
  );
}

/** A junction table's rows: the stored table (with this statement's writes) or the catalogue's. */
function junctionRows(
  ctx: SourceContext,
  table: { readonly schema: string; readonly name: string },
  pointer: PointerInfo,
  alias: string,
): FromItem {
  return table.schema === CATALOGUE_SCHEMA
    ? catalogueJunction(ctx, table.name, pointer, alias)
    : writtenJunction(ctx, table, pointer, alias);
}

/**
 * The rows of a multi pointer for sources of static type `sourceType`: `(source, target|value,
 * link properties...)`, as a FROM item named `alias`.
 */
export function junctionSource(
  ctx: SourceContext,
  sourceType: string,
  pointer: PointerInfo,
  alias: string,
): { item: FromItem; valueColumn: string } {
  const concrete = ctx.index.objectType(sourceType)?.concrete ?? [];
  const valueColumn = pointer.kind === 'link' ? 'target' : 'value';
  const props = [...pointer.properties.values()].filter((p) => !p.computed);
  const tables = concrete.flatMap((c) => {
    const storage = ctx.index.storage(c, pointer);
    return storage.kind === 'junction' ? [storage.table] : [];
  });
  // A union's multi pointer that some member stores as a single column (Gel's union pointer:
  // `(A | B).l` with `l` single on A, multi on B): that member's set columns as junction rows.
  const columns = concrete.flatMap((c) => {
    const storage = ctx.index.storage(c, pointer);
    return storage.kind === 'column' ? [{ concrete: c, column: storage.column }] : [];
  });
  if (tables.length === 1 && columns.length === 0) {
    const t = tables[0] as { schema: string; name: string };
    return { item: junctionRows(ctx, t, pointer, alias), valueColumn };
  }
  const pg = pgTypeFor(pointer.target);
  const branches: SqlQuery[] = tables.map((t) =>
    sql.select({
      targets: [
        sql.target(sql.col('source'), 'source'),
        sql.target(sql.col(valueColumn), valueColumn),
        ...props.map((p) => sql.target(sql.col(p.name), p.name)),
      ],
      from: [junctionRows(ctx, t, pointer, t.name)],
    }),
  );
  for (const { concrete: c, column } of columns) {
    const row = ctx.fresh('c');
    branches.push(
      sql.select({
        targets: [
          sql.target(sql.col('id', row), 'source'),
          sql.target(sql.col(column, row), valueColumn),
          ...props.map((p) => sql.target(sql.col(columnName(pointer.name, p.name), row), p.name)),
        ],
        from: [tableOf(ctx, c, row, true)],
        where: sql.isNull(sql.col(column, row), true),
      }),
    );
  }
  if (branches.length === 0) {
    branches.push(
      sql.select({
        targets: [
          sql.target(sql.cast(sql.null(), pgType('uuid')), 'source'),
          sql.target(sql.cast(sql.null(), pg), valueColumn),
          ...props.map((p) => sql.target(sql.cast(sql.null(), pgTypeFor(p.target)), p.name)),
        ],
        where: sql.bool(false),
      }),
    );
  }
  return { item: sql.subquery(unionAll(branches), alias), valueColumn };
}

/**
 * The ids of objects whose link `pointer` (declared on `sourceType`) points at `target`: one
 * SELECT per concrete source table, united. The planner joins the objects themselves by these
 * ids through `typeSource`, which applies the access hook: the ids alone are not filtered here.
 */
export function backlinkIds(
  ctx: SourceContext,
  links: readonly { readonly source: string; readonly pointer: PointerInfo }[],
  target: SqlExpr,
  /** Read the sources' rows and link tables as this statement's earlier writes left them
   * (plan/overlays), for a backlink of a mutation's result. */
  written = false,
): SqlQuery {
  const branches: SqlQuery[] = [];
  // Every link property any of the links has, so `.<link@prop` reads the link row.
  // A concrete type's own version of a link (an overload may add link properties).
  const own = (c: string, link: { readonly pointer: PointerInfo }): PointerInfo =>
    ctx.index.objectType(c)?.pointers.get(link.pointer.name) ?? link.pointer;
  const props = new Map<string, PointerInfo>();
  for (const link of links) {
    for (const c of ctx.index.objectType(link.source)?.concrete ?? []) {
      for (const p of own(c, link).properties.values()) if (!p.computed) props.set(p.name, p);
    }
  }
  for (const link of links) {
    for (const c of ctx.index.objectType(link.source)?.concrete ?? []) {
      const storage = ctx.index.storage(c, link.pointer);

      const pointer = own(c, link);
      const propTargets = (column: (name: string) => SqlExpr) =>
        [...props].map(([name, p]) =>
          sql.target(
            pointer.properties.has(name) && !pointer.properties.get(name)?.computed
              ? column(name)
              : sql.cast(sql.null(), pgTypeFor(p.target)),
            name,
          ),
        );
      if (storage.kind === 'column') {
        const t = tableName(c);
        branches.push(
          sql.select({
            targets: [
              sql.target(sql.col('id'), 'id'),
              ...propTargets((name) => sql.col(`${link.pointer.name}@${name}`)),
            ],
            from: [
              isCatalogueType(c)
                ? catalogueTable(ctx, c, t.name)
                : written
                  ? writtenTable(ctx, c, null, true)
                  : sql.table(t.schema, t.name),
            ],
            where: sql.bin('=', sql.col(storage.column), target),
          }),
        );
      } else if (storage.kind === 'junction') {
        branches.push(
          sql.select({
            targets: [sql.target(sql.col('source'), 'id'), ...propTargets((name) => sql.col(name))],
            from: [
              storage.table.schema === CATALOGUE_SCHEMA
                ? catalogueJunction(ctx, storage.table.name, link.pointer, storage.table.name)
                : written
                  ? writtenJunction(ctx, storage.table, link.pointer, null)
                  : sql.table(storage.table.schema, storage.table.name),
            ],
            where: sql.bin('=', sql.col('target'), target),
          }),
        );
      }
    }
  }
  if (branches.length === 0) {
    return sql.select({
      targets: [sql.target(sql.cast(sql.null(), pgType('uuid')), 'id')],
      where: sql.bool(false),
    });
  }
  return unionAll(branches);
}
