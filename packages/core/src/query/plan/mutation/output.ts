/**
 * plan/mutation/output: the written objects in the outer query — joined back from the
 * RETURNING rows (`joinWritten`, per `for` iteration) — and a bare mutation's result form: the
 * whole stored row of each written object (`mutationOutput`), read from the statement's CTEs.
 */
import { QueryError } from '../../../errors';
import {
  pgType,
  sql,
  type FromItem,
  type PgType,
  type SelectStatement,
  type SqlExpr,
  type SqlQuery,
} from '../../../sql';
import { tableName } from '../../../storage/layout';
import { jsonOf } from '../../../std/scalars';
import { typeEnv } from '../../ir';
import type { BindingRef } from '../../ir';
import type { Mutation } from '../../ir';
import type { ObjectTypeInfo, PointerInfo } from '../../schema-index';
import type { PlanContext } from '../context';
import type { Rel, Bound } from '../rel';
import { storedColumns, typeSource } from '../sources';
import { rowsFiltered } from '../access';
import { type ObjectBound, type Written, type MultiState, planned, caseWhen } from './common';
import { withElse } from './conflicts';
import { sameRank } from './scope';

export function joinWritten(
  ctx: PlanContext,
  rel: Rel,
  m: Mutation,
  src: string,
  plan: Written,
  iterations: readonly BindingRef[],
): Bound {
  const type = (m.type as { name: string }).name;
  let anchor: string | null = null;
  if (iterations.length > 0) {
    // This iteration's rows: `src` rows whose iteration columns are the outer query's.
    anchor = ctx.fresh('ws');
    const conditions = iterations.flatMap((ref, i) => {
      const outer = rel.lookup(ref.pathId);
      if (!outer)
        throw new QueryError(`'${ref.binding.name}' is used outside the statement that binds it`);
      const value = outer.kind === 'object' ? outer.id : outer.expr;
      return [
        sql.bin('is not distinct from', sql.col(`~it${i}`, anchor as string), value),
        ...sameRank(rel, ref, i, anchor as string),
      ];
    });
    rel.join('inner', sql.table(null, src, anchor), sql.and(...conditions));
  }
  if (m.kind === 'Insert' && m.conflict?.else) return withElse(ctx, rel, m, src, plan, anchor);
  const rows = [...plan.rows];
  const w = ctx.fresh('w');
  const onAnchor = anchor ? sql.bin('=', sql.col('id', w), sql.col('id', anchor)) : null;
  if (rows.length === 1) {
    // One table: its RETURNING rows (an update's new values).
    const [concrete, cte] = rows[0] as [string, string];
    rel.join('inner', sql.table(null, cte, w), onAnchor);
    return {
      kind: 'object',
      type,
      id: sql.col('id', w),
      tag: sql.text(concrete),
      alias: w,
      link: null,
      out: null,
      nullable: false,
    };
  }
  if (rows.length > 1) {
    // Several tables: their RETURNING rows with every column any of them has.
    rel.join('inner', sql.subquery(writtenRows(ctx, plan.rows), w), onAnchor);
    return {
      kind: 'object',
      type,
      id: sql.col('id', w),
      tag: sql.col('__type__', w),
      alias: w,
      link: null,
      out: null,
      nullable: false,
    };
  }
  // Only multi pointers written: the ids from `src`, the single pointers as their tables hold
  // them (the statement wrote none of them, so the snapshot before it is their value after).
  const from = anchor ?? w;
  if (!anchor) rel.join('inner', sql.table(null, src, w));
  const stored = ctx.fresh('st');
  const concrete = ctx.index.objectType(type)?.concrete ?? [];
  const tables = new Map(
    concrete.map((c) => {
      const table = tableName(c);
      return [c, sql.table(table.schema, table.name, null)] as const;
    }),
  );
  rel.join(
    'inner',
    sql.subquery(rowsOfTables(ctx, tables), stored),
    sql.bin('=', sql.col('id', stored), sql.col('id', from)),
  );
  return {
    kind: 'object',
    type,
    id: sql.col('id', from),
    tag: sql.col('__type__', stored),
    alias: stored,
    link: null,
    out: null,
    nullable: false,
  };
}

/** The written rows of several concrete tables (CTE each) as one relation (rowsOfTables). */
function writtenRows(ctx: PlanContext, rows: ReadonlyMap<string, string>): SqlQuery {
  return rowsOfTables(
    ctx,
    new Map([...rows].map(([c, cte]) => [c, sql.table(null, cte, null)] as const)),
  );
}

/**
 * The rows of several concrete types, each read from its own relation, as one: `id`, every
 * stored column any of them has (NULL where a type lacks it), `__type__`.
 */
function rowsOfTables(ctx: PlanContext, rows: ReadonlyMap<string, FromItem>): SqlQuery {
  const columns = new Map<string, PgType>();
  for (const c of rows.keys())
    for (const [name, t] of storedColumns(ctx.index, c)) columns.set(name, t);
  const branches = [...rows].map(([c, relation]) => {
    const own = storedColumns(ctx.index, c);
    return sql.select({
      targets: [
        sql.target(sql.col('id'), 'id'),
        ...[...columns].map(([name, t]) =>
          sql.target(own.has(name) ? sql.col(name) : sql.cast(sql.null(), t), name),
        ),
        sql.target(sql.text(c), '__type__'),
      ],
      from: [relation],
    }) as SqlQuery;
  });
  return branches.reduce((a, b) => sql.setOp('union', true, a, b));
}

/**
 * The whole stored row of each written object (the answer of a bare insert, update or delete: docs/http.md): `id`, every stored property (std's JSON
 * form), every single link as its id, every multi pointer as an array (ids for links) — read
 * from the statement's CTEs, since the tables still show the snapshot before it.
 */
export function mutationOutput(
  ctx: PlanContext,
  _rel: Rel,
  m: Mutation,
  bound: ObjectBound,
): SqlExpr {
  const plan = planned.get(ctx)?.get(m.pathId)?.plan;
  const type = (m.type as { name: string }).name;
  if (!plan) return sql.func('json_build_object', [sql.text('id'), bound.id]);
  const concrete =
    plan.rows.size > 0 ? [...plan.rows.keys()] : [...(ctx.index.objectType(type)?.concrete ?? [])];
  const rowOf = (c: string): SqlExpr => {
    const info = ctx.index.objectType(c) as ObjectTypeInfo;
    const env = typeEnv(ctx.index);
    const entries: [string, SqlExpr][] = [['id', bound.id]];
    for (const p of info.pointers.values()) {
      if (p.model === null || p.computed || p.name === 'id') continue;
      if (p.many) {
        const state = plan.multi.get(p.name) ?? null;
        // A new object has no rows but the ones written (its defaults are written too).
        const none = m.kind === 'Insert' && state === null;
        entries.push([
          p.name,
          none ? sql.cast(sql.text('[]'), pgType('json')) : multiJson(ctx, p, bound.id, state, c),
        ]);
      } else if (bound.alias !== null) {
        const col = sql.col(p.name, bound.alias);
        if (p.kind === 'link') {
          // A linked object the caller may not see is not shown (the link stays stored).
          const seen = visibleTarget(ctx, p, col);
          entries.push([p.name, sql.func('to_json', [seen ? caseWhen(seen, col) : col])]);
        } else {
          entries.push([p.name, jsonOf(p.target, col, env)]);
        }
      }
    }
    return sql.jsonObject(entries);
  };
  if (concrete.length === 1) return rowOf(concrete[0] as string);
  // Each row as its own concrete type stores it.
  return {
    kind: 'Case',
    whens: concrete.map((c) => ({ when: sql.bin('=', bound.tag, sql.text(c)), then: rowOf(c) })),
    else: sql.func('json_build_object', [sql.text('id'), bound.id]),
  };
}

function multiJson(
  ctx: PlanContext,
  p: PointerInfo,
  id: SqlExpr,
  state: MultiState | null,
  type: string,
): SqlExpr {
  const env = typeEnv(ctx.index);
  const valueColumn = p.kind === 'link' ? 'target' : 'value';
  const r = 'r';
  const elementJson = (col: SqlExpr) =>
    p.kind === 'link' ? sql.func('to_json', [col]) : jsonOf(p.target, col, env);
  const oldRows = (): SelectStatement => {
    const j = 'jr';
    const rows = junctionRows(ctx, type, p, j);
    return sql.select({
      targets: [sql.target(sql.col(valueColumn, j), 'v')],
      from: [rows],
      where: sql.bin('=', sql.col('source', j), id),
    });
  };
  const pairRows = (pairs: string): SqlQuery =>
    sql.select({
      targets: [sql.target(sql.col(valueColumn, 'pr'), 'v')],
      from: [sql.table(null, pairs, 'pr')],
      where: sql.bin('=', sql.col('source', 'pr'), id),
    });
  let rows: SqlQuery;
  if (state === null) rows = oldRows();
  else if (state.kind === 'replaced') rows = pairRows(state.pairs);
  else if (state.kind === 'added')
    rows = sql.setOp(
      p.kind === 'link' ? 'union' : 'union',
      p.kind !== 'link',
      oldRows(),
      pairRows(state.pairs),
    );
  else {
    // As the DELETE did: every old row whose value was removed goes.
    const old = oldRows() as SelectStatement;
    const removed = sql.exists(
      sql.select({
        targets: [sql.target(sql.num(1))],
        from: [sql.table(null, state.pairs, 'pr')],
        where: sql.and(
          sql.bin('=', sql.col('source', 'pr'), id),
          sql.bin('=', sql.col(valueColumn, 'pr'), sql.col(valueColumn, 'jr')),
        ),
      }),
    );
    rows = { ...old, where: sql.and(old.where ?? sql.bool(true), sql.not(removed)) };
  }
  const seen = p.kind === 'link' ? visibleTarget(ctx, p, sql.col('v', r)) : null;
  return sql.scalar(
    sql.select({
      targets: [sql.target(sql.jsonArrayAgg(elementJson(sql.col('v', r)), { orEmpty: true }))],
      from: [sql.subquery(rows, r)],
      where: seen,
    }),
  );
}

/**
 * For the whole-row output of a write: the condition that the object `id` a link of
 * it holds is one the caller may select (through the access hook, with this statement's new
 * rows), or null when every target is visible.
 */
function visibleTarget(ctx: PlanContext, p: PointerInfo, id: SqlExpr): SqlExpr | null {
  const target = (p.target as { name: string }).name;
  if (!rowsFiltered(ctx, target)) return null;
  const alias = ctx.fresh('vt');
  const rows = typeSource(ctx, target, alias);
  return sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [rows.item],
      where: sql.bin('=', sql.col('id', alias), id),
    }),
  );
}

function junctionRows(ctx: PlanContext, type: string, p: PointerInfo, alias: string) {
  const tables = (ctx.index.objectType(type)?.concrete ?? []).flatMap((c) => {
    const storage = ctx.index.storage(c, p);
    return storage.kind === 'junction' ? [storage.table] : [];
  });
  const valueColumn = p.kind === 'link' ? 'target' : 'value';
  const branches: SqlQuery[] = tables.map((t) =>
    sql.select({
      targets: [sql.target(sql.col('source')), sql.target(sql.col(valueColumn))],
      from: [sql.table(t.schema, t.name)],
    }),
  );
  if (branches.length === 0) {
    return sql.subquery(
      sql.select({
        targets: [
          sql.target(sql.cast(sql.null(), pgType('uuid')), 'source'),
          sql.target(sql.null(), valueColumn),
        ],
        where: sql.bool(false),
      }),
      alias,
    );
  }
  return sql.subquery(
    branches.reduce((a, b) => sql.setOp('union', true, a, b)),
    alias,
  );
}
