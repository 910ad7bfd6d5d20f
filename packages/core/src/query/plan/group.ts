/**
 * plan/group: `group ... by`. The subject's elements with their keys (`keyedRows`); one row
 * per grouping set and distinct key tuple (`liftGroup`: its value is the keys' jsonb array,
 * followed by the set's index when there are several sets); a group's `elements` and
 * `grouping`.
 */
import { pgType, sql, type SqlExpr, type SqlQuery } from '../../sql';
import type { IrExpr } from '../ir';
import type { Rel, Bound } from './rel';
import { unionAll } from './sources';
import type { PlanContext } from './context';
import { JSON_T } from './common';
import { type OrderKey, orderBy } from './ordering';
import { scalarJson } from './output';
import { groupNode } from './paths';
import { liftRows } from './rows';

/**
 * A group's subject elements with their keys: columns of `rows()` plus `~key`, the keys as
 * one jsonb array (the group's identity, as a tuple value is stored), `s<i>`, each key, and
 * with several grouping sets `j<i>`, each key's jsonb.
 */
function keyedRows(
  ctx: PlanContext,
  rel: Rel,
  group: Extract<IrExpr, { kind: 'Group' }>,
): { query: SqlQuery; object: boolean; ord: readonly OrderKey[]; linkRow: boolean } {
  const { query, columns } = ctx.rows(rel, group.elements, {
    extra: (inner) => {
      const values = group.keys.map((k) => ctx.value(inner, k.expr));
      const json = group.keys.map((k, i) =>
        sql.cast(scalarJson(ctx, k.expr.type, values[i] as SqlExpr), pgType('jsonb')),
      );
      return [
        sql.target(sql.jsonBuild('jsonb_build_array', json), '~key'),
        ...values.map((v, i) => sql.target(v, `s${i}`)),
        ...(singleSet(group) ? [] : json.map((j, i) => sql.target(j, `j${i}`))),
      ];
    },
  });
  return { query, object: columns.object, ord: columns.ord, linkRow: columns.linkRow };
}

/**
 * `group`: one row per grouping set and distinct key tuple of the set. Its value is the keys'
 * jsonb array (a key outside the set is JSON null), followed by the set's index when there are
 * several sets.
 */
export function liftGroup(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'Group' }>,
): Bound {
  const keyed = keyedRows(ctx, rel, expr);
  const single = singleSet(expr);
  const queries = expr.sets.map((set, index) => {
    const k = ctx.fresh('gk');
    const keyJson = expr.keys.map((_, i) =>
      single
        ? sql.bin('->', sql.col('~key', k), sql.num(i))
        : set.includes(i)
          ? sql.col(`j${i}`, k)
          : sql.cast(sql.text('null'), pgType('jsonb')),
    );
    const value = single
      ? sql.col('~key', k)
      : sql.jsonBuild('jsonb_build_array', [...keyJson, sql.num(index)]);
    // The objects as text (json_build_object's bytes): no engine reorders their keys.
    const keyObject = sql.jsonObject(
      expr.keys.map((kk, i) => [kk.name, sql.cast(keyJson[i] as SqlExpr, JSON_T)]),
      'build_object',
    );
    const grouping = sql.jsonBuild(
      'json_build_array',
      set.map((i) => sql.text((expr.keys[i] as { name: string }).name)),
    );
    const order = orderBy(keyed.ord, k);
    return sql.select({
      targets: [
        sql.target(value, 'v'),
        sql.target(
          sql.jsonObject(
            [
              ['key', keyObject],
              ['grouping', grouping],
              ['elements', sql.agg('json_agg', [sql.col('~json', k)], { orderBy: order })],
            ],
            'build_object',
          ),
          '~json',
        ),
      ],
      from: [sql.subquery(keyed.query, k)],
      groupBy: single
        ? [sql.col('~key', k), ...expr.keys.map((_, i) => sql.col(`s${i}`, k))]
        : set.flatMap((i) => [sql.col(`j${i}`, k), sql.col(`s${i}`, k)]),
      orderBy: single
        ? expr.keys.map((_, i) => sql.order(sql.col(`s${i}`, k), 'asc', 'first'))
        : [],
    });
  });
  return liftRows(ctx, rel, { ...expr, type: { kind: 'empty' } }, unionAll(queries), {
    ord: [],
    object: false,
  });
}

/** `g.elements`: the subject's elements whose keys are the group's. */
export function liftGroupElements(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'GroupElements' }>,
): Bound {
  const group = ctx.lift(rel, expr.group);
  const source = groupNode(expr.group);
  const keyed = keyedRows(ctx, rel, source);
  const alias = ctx.fresh('ge');
  const value = group.kind === 'value' ? group.expr : group.id;
  const key = sql.col('~key', alias);
  const query = sql.select({
    targets: [sql.target(sql.star(alias))],
    from: [sql.subquery(keyed.query, alias)],
    where: singleSet(source)
      ? sql.bin('=', key, value)
      : sql.or(
          ...source.sets.map((set, j) =>
            sql.and(
              groupSetIs(source, value, j),
              ...set.map((i) =>
                sql.bin('=', sql.bin('->', key, sql.num(i)), sql.bin('->', value, sql.num(i))),
              ),
            ),
          ),
        ),
  });
  return liftRows(ctx, rel, expr, query, {
    ord: keyed.ord,
    object: keyed.object,
    linkRow: keyed.linkRow,
  });
}

/** The names of the keys of a group's grouping set: rows `v` and `~json`. */
export function groupingNames(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'GroupGrouping' }>,
): SqlQuery {
  const group = ctx.lift(rel, expr.group);
  const value = group.kind === 'value' ? group.expr : group.id;
  const source = groupNode(expr.group);
  return unionAll(
    source.keys.map((k, i) =>
      sql.select({
        targets: [
          sql.target(sql.text(k.name), 'v'),
          sql.target(sql.func('to_json', [sql.cast(sql.text(k.name), pgType('text'))]), '~json'),
        ],
        where: singleSet(source)
          ? null
          : sql.or(
              ...source.sets.flatMap((set, j) =>
                set.includes(i) ? [groupSetIs(source, value, j)] : [],
              ),
            ),
      }),
    ),
  );
}

/** A group with one grouping set of all its keys (`by a, b`): its value is the keys' array. */
function singleSet(group: Extract<IrExpr, { kind: 'Group' }>): boolean {
  return group.sets.length === 1 && group.sets[0]?.length === group.keys.length;
}

/** That a group's value (with several grouping sets) belongs to set `index`. */
function groupSetIs(
  group: Extract<IrExpr, { kind: 'Group' }>,
  value: SqlExpr,
  index: number,
): SqlExpr {
  return sql.bin(
    '=',
    sql.bin('->', value, sql.num(group.keys.length)),
    sql.cast(sql.text(String(index)), pgType('jsonb')),
  );
}
