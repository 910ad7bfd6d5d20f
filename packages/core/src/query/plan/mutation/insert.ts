/**
 * plan/mutation/insert: `insert T { ... }` — the `src` CTE of new ids and values, one INSERT,
 * its multi pointers' junction rows, and under access policies the check of every new row
 * before anything is written.
 */
import { tableName } from '../../../storage/layout';
import { pgType, sql, type FromItem, type SqlExpr, type Target } from '../../../sql';
import { raise } from '../../../std/operators';
import { OBJECT } from '../../schema-index';
import { typeSource } from '../sources';
import type { BindingRef } from '../../ir';
import type { Insert } from '../../ir';
import type { PointerInfo } from '../../schema-index';
import type { PlanContext } from '../context';
import { Rel } from '../rel';
import { addWriteCheck, afterCheck, reserveWriteCheck } from '../access';
import { singleValues, columnDefaults, wouldBeRows } from './columns';
import {
  type Written,
  type MultiState,
  exclusiveAsBefore,
  nestedGuardsOf,
  selectFrom,
} from './common';
import { conflictGuard, conflictChecks, refuseGuardedUpsert } from './conflicts';
import { planPairs, requiredCheck, writeJunction } from './junctions';
import { registerJunctionWrite, overlayOf } from '../overlays';
import { applyGuards, bindExternals, bindIterations } from './scope';

export function planInsert(
  ctx: PlanContext,
  m: Insert,
  src: string,
  iterations: readonly BindingRef[],
): Written {
  const type = m.objectType;
  refuseGuardedUpsert(ctx, m);
  const r0 = new Rel(null);
  const { keys, dups } = bindIterations(ctx, r0, iterations);
  bindExternals(ctx, r0, m);
  applyGuards(ctx, r0, m);
  const targets: Target[] = [
    sql.target(m.id ? ctx.value(r0, m.id) : sql.func('uuid_generate_v7', [], 'svc_meta'), 'id'),
    ...keys.map((k, i) => sql.target(k, `~it${i}`)),
    ...dups.map((d, i) => sql.target(d, `~dup${i}`)),
  ];
  const single = m.elements.filter((e) => !e.pointer.many);
  // Mutations nested in the values run only for an object that is inserted (no conflict).
  const guard = m.conflict ? conflictGuard(ctx, m, single) : null;
  if (guard) nestedGuardsOf(ctx).push(guard);
  const columns = singleValues(ctx, r0, single, targets, guard !== null);
  (m.conflict?.keys ?? []).forEach((key, j) => {
    // A computed pointer's key is computed from the row's values where it is compared.
    if (key.row) return;
    targets.push(sql.target(ctx.value(r0, key.fresh), `k${j}`));
  });
  // Under policies that restrict inserts, the rows are checked before they are written (plan/
  // access): a stored column the insert does not give takes its default here, in `src`, so the
  // check reads the very values the insert writes.
  const check = reserveWriteCheck(ctx, type);
  const defaults = check ? columnDefaults(ctx, type, columns) : [];
  defaults.forEach((d, j) => {
    targets.push(sql.target(d.value, `d${j}`));
  });
  ctx.addCte(sql.cte(src, selectFrom(r0, targets), { materialized: true }));
  const written = [...columns, ...defaults.map((d, j) => ({ column: d.column, source: `d${j}` }))];

  const multiElements = m.elements.filter((x) => x.pointer.many);
  const multi = new Map<string, MultiState>();
  // Checked inserts: the new junction rows come from `src` (they are part of what is checked),
  // and are written for the rows actually inserted (`ins`); otherwise from `ins` itself.
  const prospective = check
    ? multiElements.map((e) => {
        const pairs = planPairs(ctx, e, src, src, iterations, null, sql.text(type));
        registerJunctionWrite(ctx, type, e, { pairs, mode: 'add', owners: null });
        return pairs;
      })
    : [];
  if (check) {
    addWriteCheck(
      ctx,
      type,
      'insert',
      (alias) => sql.subquery(wouldBeRows(ctx, type, src, written), alias),
      check,
    );
  }

  // Exclusive multi pointers `unless conflict` compares: their new rows, planned from `src`
  // before the insert (the check reads them; the junction write takes them for the rows
  // inserted).
  const conflictPairs = new Map<string, string>();
  multiElements.forEach((e, i) => {
    if (!m.conflict || !comparedMulti(m.conflict, e.pointer)) return;
    conflictPairs.set(
      e.pointer.name,
      prospective[i] ?? planPairs(ctx, e, src, src, iterations, null, sql.text(type)),
    );
  });
  const s = 's';
  const conditions = m.conflict ? conflictChecks(ctx, m, single, s, conflictPairs) : [];
  if (check) conditions.push(afterCheck(check));
  const table = tableName(type);
  const ins = ctx.fresh('insert');
  const statement = sql.insert({
    table,
    columns: ['id', ...written.map((c) => c.column)],
    source: sql.select({
      targets: [
        sql.target(m.id ? checkedId(ctx, type, sql.col('id', s)) : sql.col('id', s)),
        ...written.map((c) => {
          const value = sql.col(c.source, s);
          const e = single.find((x) => x.pointer.name === c.column);
          return sql.target(
            e ? exclusiveAsBefore(ctx, type, e.pointer, value, sql.col('id', s)) : value,
          );
        }),
      ],
      from: [sql.table(null, src, s)],
      where: conditions.length > 0 ? sql.and(...conditions) : null,
    }),
    // No `on conflict do nothing`: the check is against the objects there before the statement
    // (Gel's rule); two objects the statement itself writes with one value, or a conflicting
    // object the check cannot see (an access policy hides it), violate the constraint.
    onConflict: null,
    returning: [sql.target(sql.star())],
  });
  ctx.addCte(sql.cte(ins, statement));
  const overlay = overlayOf(ctx);
  overlay.rows.set(type, [...(overlay.rows.get(type) ?? []), ins]);

  multiElements.forEach((e, i) => {
    const checked = prospective[i];
    const early = conflictPairs.get(e.pointer.name);
    // New junction rows, for the rows actually inserted.
    const pairs = checked ?? early ?? planPairs(ctx, e, ins, src, iterations, null, sql.text(type));
    const gate = checked ? { written: ins, check } : early ? { written: ins, check: null } : null;
    writeJunction(ctx, type, e, pairs, 'add', requiredCheck(e, type, ins, false), gate);
    multi.set(e.pointer.name, { kind: 'replaced', pairs });
    if (!checked) registerJunctionWrite(ctx, type, e, { pairs, mode: 'add', owners: null });
  });
  if (guard) nestedGuardsOf(ctx).pop();
  return { rows: new Map([[type, ins]]), multi, conflictPairs };
}

/** A multi pointer with a plain exclusive constraint that the conflict clause compares (`on`
 * names it, or there is no `on`). */
function comparedMulti(conflict: NonNullable<Insert['conflict']>, pointer: PointerInfo): boolean {
  if (conflict.on !== null && !conflict.on.some((p) => p.name === pointer.name)) return false;
  return (pointer.model?.constraints ?? []).some(
    (c) => c.name === 'std::exclusive' && c.subjectExpr === null && c.except === null,
  );
}

/**
 * A given id (Insert.id), as the row is written: required, and new among the objects of every
 * type as they were before the statement, and among those the statement's earlier inserts
 * wrote (each type has its own table, so the primary key alone would let two types share an
 * id). `unless conflict` on it has already left out one taken before the statement.
 */
function checkedId(ctx: PlanContext, type: string, id: SqlExpr): SqlExpr {
  const holding = (from: FromItem, x: string) =>
    sql.exists(
      sql.select({
        targets: [sql.target(sql.num(1))],
        from: [from],
        where: sql.bin('=', sql.col('id', x), id),
      }),
    );
  const x = ctx.fresh('xid');
  const before = holding(typeSource(ctx, OBJECT, x, { written: false, visible: true }).item, x);
  const earlier = [...overlayOf(ctx).rows.values()].flat().map((cte) => {
    const w = ctx.fresh('wid');
    return holding(sql.table(null, cte, w), w);
  });
  const taken = sql.or(before, ...earlier);
  const uuid = pgType('uuid');
  return {
    kind: 'Case',
    whens: [
      {
        when: sql.isNull(id),
        then: raise(
          id,
          uuid,
          sql.text(`missing value for required property '${type}.id'`),
          '23502',
        ),
      },
      {
        when: taken,
        then: raise(id, uuid, sql.text('id violates exclusivity constraint'), '23505'),
      },
    ],
    else: id,
  };
}
