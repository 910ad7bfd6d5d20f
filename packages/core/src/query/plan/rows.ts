/**
 * plan/rows: a set planned as the rows of a subquery correlated with the current Rel (`planRows`,
 * the planner's `rows`), and such a subquery joined back as the bound element (`liftRows`).
 *
 * Sets that must not multiply the current rows (shape elements, aggregate arguments, statements
 * used as values) are planned here in a child Rel. The subquery's columns are `id` and
 * `__type__` (objects) or `v` (values), `~json` or `~text` (the output), link properties by name,
 * carried `for` variables `~c<i>`, and its order keys `~o<i>`: the consumer sorts by the keys
 * themselves, once, where it aggregates. `prebind` is Gel's path factoring across siblings.
 */
import { isJsonText, pgType, sql, type SqlExpr, type SqlQuery, type Target } from '../../sql';
import type { IrExpr } from '../ir';
import { Rel, type Bound } from './rel';
import { sharedPrefixes } from './factoring';
import type { CarriedColumn, PlanContext, PlannedRows, RowsHooks } from './context';
import { whereOf, outputColumn } from './common';
import { type OrderKey, orderBy } from './ordering';
import {
  markLinkRows,
  readsLinkRowsOf,
  linkPropertyNames,
  collectElementPaths,
  boundPrefixes,
} from './paths';
import { ownPathId } from '../ir';

/** The condition that a lifted element exists (NULL stands for "empty"). */
export function presence(bound: Bound): SqlExpr | null {
  if (!bound.nullable) return null;
  return sql.isNull(bound.kind === 'object' ? bound.id : bound.expr, true);
}

/**
 * `e`'s elements as the rows of a subquery correlated with `parent`: columns `id` and
 * `__type__` (objects) or `v` (values), `~json` (their output) and their order keys `~o<i>`
 * (`columns.ord`): the consumer sorts by the keys themselves (once, where it aggregates),
 * not by a row number computed here, which would cost a second sort of the same rows.
 */
export function planRows(
  ctx: PlanContext,
  parent: Rel,
  expr: IrExpr,
  hooks: RowsHooks = {},
): PlannedRows {
  const rel = new Rel(parent);
  hooks.before?.(rel);
  prebind(ctx, rel, expr, hooks.clauses);
  const bound = ctx.lift(rel, expr);
  const slice = hooks.after?.(rel);
  const out = bound.out ?? ctx.outputOf(rel, expr, bound);
  const targets: Target[] =
    bound.kind === 'object'
      ? [sql.target(bound.id, 'id'), sql.target(bound.tag, '__type__')]
      : [sql.target(bound.expr, 'v')];
  const text = hooks.text === true && isJsonText(out);
  targets.push(
    text ? sql.target(sql.cast(out, pgType('text')), '~text') : sql.target(out, '~json'),
  );
  if (hooks.extra) targets.push(...hooks.extra(rel));
  // Objects that came through a link carry its row (link properties, by name) out of the subquery.
  const linkProps = bound.kind === 'object' && bound.link ? linkPropertyNames(expr) : [];
  if (bound.kind === 'object' && bound.link) {
    const link = bound.link;
    for (const p of linkProps) {
      targets.push(
        sql.target(
          link.kind === 'junction'
            ? sql.col(p, link.alias)
            : sql.col(`${link.pointer}@${p}`, link.alias),
          p,
        ),
      );
    }
  }
  const carried: CarriedColumn[] = [];
  for (const [pid, b] of rel.carried) {
    const column = `~c${carried.length}`;
    targets.push(sql.target(b.kind === 'object' ? b.id : b.expr, column));
    if (b.kind === 'object') targets.push(sql.target(b.tag, `${column}t`));
    carried.push({ pathId: pid, column, bound: b });
  }
  const distinct = hooks.distinct === true && bound.kind === 'object';
  const ord: OrderKey[] = distinct
    ? []
    : rel.order.map((o, i) => ({ column: `~o${i}`, direction: o.direction, nulls: o.nulls }));
  rel.order.forEach((o, i) => {
    if (!distinct) targets.push(sql.target(o.expr, `~o${i}`));
  });
  const present = presence(bound);
  const sliced = slice !== undefined && (slice.limit !== null || slice.offset !== null);
  return {
    query: sql.select({
      distinct: distinct && bound.kind === 'object' ? [bound.id] : false,
      targets,
      from: rel.from ? [rel.from] : [],
      where: whereOf([...rel.where, ...(present ? [present] : [])]),
      orderBy: sliced
        ? rel.order
        : distinct && bound.kind === 'object'
          ? [sql.order(bound.id)]
          : [],
      limit: slice?.limit ?? null,
      offset: slice?.offset ?? null,
    }),
    columns: {
      out: true,
      text,
      ord,
      object: bound.kind === 'object',
      carried,
      linkRow: linkProps.length > 0 && !distinct,
    },
  };
}

/**
 * Gel's path factoring across siblings: the object paths `expr` reads element-wise (outside
 * aggregates, EXISTS and other fences) are bound first, so a fenced use of the same path
 * anywhere in `expr` (`count(User.friends)` beside `User.name`) sees the same element.
 */
export function prebind(
  ctx: PlanContext,
  rel: Rel,
  expr: IrExpr,
  clauses: readonly IrExpr[] = [],
): void {
  // `User.friends { @since }`: the shape reads its subject's link rows, so the subject is one
  // element per (source, target) link, not each target once (marked before anything lifts it).
  if (expr.kind === 'Shape' && readsLinkRowsOf(expr)) markLinkRows(ctx.distinctDone, expr.subject);
  const paths: IrExpr[] = [];
  const links: IrExpr[] = [];
  collectElementPaths(expr, paths, links);
  for (const link of links) markLinkRows(ctx.distinctDone, link);
  const covered = boundPrefixes(rel, expr);
  // Prefixes other paths of the scope share are one element (`Issue` in
  // `Issue.owner.name ++ Issue.watchers.name`): bound before the paths through them.
  for (const p of sharedPrefixes(paths, [expr, ...clauses])) {
    const id = ownPathId(p);
    if (id !== null && rel.lookup(id) === undefined && !covered.has(id)) ctx.lift(rel, p);
  }
  for (const p of paths) {
    const id = ownPathId(p);
    if (id !== null && rel.lookup(id) === undefined && !covered.has(id)) ctx.lift(rel, p);
  }
}

/** Joins a subquery of `e`'s rows into `rel` (LATERAL) and returns the bound element. */
export function liftRows(
  ctx: PlanContext,
  rel: Rel,
  expr: IrExpr,
  query: SqlQuery,
  columns: {
    ord: readonly OrderKey[];
    object: boolean;
    carried?: readonly CarriedColumn[];
    linkRow?: boolean;
    text?: boolean;
  },
  forceJoin?: 'left',
): Bound {
  const alias = ctx.fresh('q');
  const join = forceJoin ?? (expr.card.max === 'many' || expr.card.min === 1 ? 'inner' : 'left');
  const nullable = join === 'left';
  rel.join(join, sql.subquery(query, alias, { lateral: true }));
  rel.order.push(...orderBy(columns.ord, alias));
  for (const c of columns.carried ?? []) {
    const carried: Bound =
      c.bound.kind === 'object'
        ? {
            ...c.bound,
            id: sql.col(c.column, alias),
            tag: sql.col(`${c.column}t`, alias),
            alias: null,
            link: null,
            out: null,
          }
        : { ...c.bound, expr: sql.col(c.column, alias), out: null };
    if (rel.lookup(c.pathId) === undefined) rel.bind(c.pathId, carried);
    rel.carried.set(c.pathId, carried);
  }
  const out = outputColumn(columns, alias);
  if (columns.object) {
    return {
      kind: 'object',
      type: (expr.type as { name: string }).name,
      id: sql.col('id', alias),
      tag: sql.col('__type__', alias),
      alias: null,
      link: columns.linkRow ? { kind: 'junction', alias } : null,
      out,
      nullable,
    };
  }
  return { kind: 'value', type: expr.type, expr: sql.col('v', alias), out, nullable };
}

export function subqueryLift(
  ctx: PlanContext,
  rel: Rel,
  expr: IrExpr,
  hooks: RowsHooks = {},
): Bound {
  const { query, columns } = ctx.rows(rel, expr, { ...hooks, text: true });
  return liftRows(ctx, rel, expr, query, columns);
}
