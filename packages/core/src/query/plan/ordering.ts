/**
 * plan/ordering: order keys and the clauses of a select.
 *
 * An ordered set lifted into a Rel adds its order keys (a subquery's `~o<i>` columns, with their
 * directions: `OrderKey`) to the Rel's, and the final aggregate sorts by them once — not at all
 * over one page subquery already sorted by them (`aggregateOrder`). Only where differently
 * ordered sets meet (union members, if/else branches) are rows numbered (`ordinal`). A select's
 * filter, order keys, limit and offset are planned by `selectClauses`.
 */
import { sql, type FromItem, type OrderItem, type SqlExpr } from '../../sql';
import type { IrExpr } from '../ir';
import { Rel } from './rel';
import type { PlanContext } from './context';
import { whereOf } from './common';

/** A select's clauses on the Rel its subject is lifted in; its order keys come first. */
export function selectClauses(
  ctx: PlanContext,
  rel: Rel,
  select: Extract<IrExpr, { kind: 'Select' }>,
): { limit: SqlExpr | null; offset: SqlExpr | null } {
  ctx.lift(rel, select.subject);
  if (select.filter) rel.where.push(ctx.condition(rel, select.filter));
  // A key that is never empty (`.id`, a required property) needs no NULLS clause, and without
  // one PostgreSQL can walk a plain btree index in either direction instead of sorting the table.
  const keys: OrderItem[] = select.orderBy.map((k) =>
    sql.order(
      scoped(ctx, rel, k.expr),
      k.direction,
      k.expr.card.min >= 1 ? null : k.empty === 'first' ? 'first' : 'last',
    ),
  );
  rel.order.unshift(...keys);
  return {
    limit: select.limit ? ctx.value(rel.parent ?? rel, select.limit) : null,
    offset: select.offset ? ctx.value(rel.parent ?? rel, select.offset) : null,
  };
}

/** A single value computed in a scope of its own (an order key): inline when it joins nothing. */
function scoped(ctx: PlanContext, rel: Rel, expr: IrExpr): SqlExpr {
  const inner = new Rel(rel);
  const v = ctx.value(inner, expr);
  if (inner.from === null && inner.where.length === 0) return v;
  return sql.scalar(
    sql.select({
      targets: [sql.target(v)],
      from: inner.from ? [inner.from] : [],
      where: whereOf(inner.where),
      limit: sql.num(1),
    }),
  );
}

/** One order key of a subquery's rows: a column and how it sorts. */
export interface OrderKey {
  readonly column: string;
  readonly direction: OrderItem['direction'];
  readonly nulls: OrderItem['nulls'];
}

/** Rows numbered in order, in one column `~ord`. */
export const ORDINAL: readonly OrderKey[] = [{ column: '~ord', direction: null, nulls: null }];

/** A union's rows: by member, then by the member's row number. */
export const UNION_ORDER: readonly OrderKey[] = [
  { column: '~u1', direction: null, nulls: null },
  { column: '~u2', direction: null, nulls: null },
];

/** Sorting by a subquery's order keys (`alias`: the subquery). */
export function orderBy(keys: readonly OrderKey[], alias: string): OrderItem[] {
  return keys.map((k) => sql.order(sql.col(k.column, alias), k.direction, k.nulls));
}

/**
 * The ORDER BY of an aggregate over the rows of `from` that must come in `order`: none when
 * `from` is one subquery already sorted by exactly those keys (a sliced set: `order by ...
 * limit`), since a scan of one sorted subquery with no join above it hands the aggregate its rows
 * in that order (PostgreSQL documents that only a join, or other processing, above the subquery
 * may reorder them). On PostgreSQL 15 this saves a sort of the page per aggregate; 16 and later
 * skip a sort of presorted input themselves.
 */
export function aggregateOrder(from: FromItem | null, order: readonly OrderItem[]): OrderItem[] {
  if (order.length === 0) return [];
  if (from?.kind !== 'SubqueryFrom' || from.query.kind !== 'Select') return [...order];
  const sub = from.query;
  if (sub.orderBy.length !== order.length || sub.distinct !== false) return [...order];
  const sorted = order.every((o, i) => {
    const by = sub.orderBy[i] as OrderItem;
    if (o.direction !== by.direction || o.nulls !== by.nulls) return false;
    if (o.expr.kind !== 'ColumnRef' || o.expr.table !== from.alias) return false;
    const column = o.expr.name;
    const target = sub.targets.find((t) => t.alias === column);
    return target !== undefined && sameExpr(target.expr, by.expr);
  });
  return sorted ? [] : [...order];
}

/** Structural equality of two SQL expressions (both are plain data). */
function sameExpr(a: SqlExpr, b: SqlExpr): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** The rows' position in their order (`0` for all when unordered). */
export function ordinal(keys: readonly OrderKey[], alias: string): SqlExpr {
  if (keys.length === 0) return sql.num(0);
  return sql.agg('row_number', [], { over: { partitionBy: [], orderBy: orderBy(keys, alias) } });
}

/** Orders the aggregate call in a std form (`coalesce(array_agg(x), '{}')` orders array_agg). */
export function orderAggregate(form: SqlExpr, order: readonly OrderItem[]): SqlExpr {
  if (form.kind !== 'FuncCall') return form;
  if (form.name === 'coalesce' && form.args[0]) {
    return { ...form, args: [orderAggregate(form.args[0], order), ...form.args.slice(1)] };
  }
  return form.orderBy ? form : { ...form, orderBy: order };
}
