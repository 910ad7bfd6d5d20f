/**
 * plan/mutation/delete: `delete T filter ...` — the `src` CTE of the reached objects (with the
 * statement's order, limit and offset) and one DELETE per concrete table.
 */
import { tableName } from '../../../storage/layout';
import { sql, type SqlQuery, type Target } from '../../../sql';
import type { BindingRef } from '../../ir';
import type { Delete } from '../../ir';
import type { PlanContext } from '../context';
import { Rel } from '../rel';
import { type Written, concreteOf, selectFrom } from './common';
import { subjectRows } from './scope';

export function planDelete(
  ctx: PlanContext,
  m: Delete,
  src: string,
  iterations: readonly BindingRef[],
): Written {
  const { rel: r0, keys, dups, subject } = subjectRows(ctx, m, iterations, 'delete');
  const order = m.orderBy.map((k) => sql.order(ctx.value(r0, k.expr), k.direction, k.empty));
  const targets: Target[] = [
    sql.target(subject.id, 'id'),
    sql.target(subject.tag, '__type__'),
    ...keys.map((k, i) => sql.target(k, `~it${i}`)),
    ...dups.map((d, i) => sql.target(d, `~dup${i}`)),
  ];
  const base = selectFrom(r0, targets, subject);
  const query: SqlQuery =
    m.limit || m.offset || order.length > 0
      ? {
          ...base,
          orderBy: order,
          limit: m.limit ? ctx.value(new Rel(null), m.limit) : null,
          offset: m.offset ? ctx.value(new Rel(null), m.offset) : null,
        }
      : base;
  ctx.addCte(sql.cte(src, query, { materialized: true }));
  const rows = new Map<string, string>();
  for (const c of concreteOf(ctx, m.subject)) {
    const s = 's';
    const t = 't';
    const del = ctx.fresh('delete');
    const table = tableName(c);
    ctx.addCte(
      sql.cte(
        del,
        sql.delete({
          table,
          alias: t,
          using: [sql.table(null, src, s)],
          where: sql.bin('=', sql.col('id', t), sql.col('id', s)),
          returning: [sql.target(sql.star(t))],
        }),
      ),
    );
    rows.set(c, del);
    // `on source delete` (delete target, if orphan) is held by the database's triggers
    // (schema/storage/integrity), which run as each source row goes.
  }
  return { rows, multi: new Map() };
}
