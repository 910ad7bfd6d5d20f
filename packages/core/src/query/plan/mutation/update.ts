/**
 * plan/mutation/update: `update T filter ... set { ... }` — the `src` CTE of the reached objects
 * and their new values, one UPDATE per concrete table, the multi pointers' junction writes, and
 * under access policies the check of every row as the update leaves it.
 */
import { tableName } from '../../../storage/layout';
import { sql, type Target } from '../../../sql';
import type { BindingRef } from '../../ir';
import type { Update } from '../../ir';
import type { PlanContext } from '../context';
import { addWriteCheck, afterCheck, reserveWriteCheck } from '../access';
import { singleValues, resetLinkProperties, wouldBeRows } from './columns';
import {
  type Written,
  type MultiState,
  concreteOf,
  covariantTarget,
  exclusiveConflict,
  selectFrom,
} from './common';
import { planPairs, requiredCheck, writeJunction, clearJunction } from './junctions';
import { registerJunctionWrite, overlayOf } from '../overlays';
import { subjectRows } from './scope';

export function planUpdate(
  ctx: PlanContext,
  m: Update,
  src: string,
  iterations: readonly BindingRef[],
): Written {
  const { rel: r0, keys, dups, subject } = subjectRows(ctx, m, iterations, 'update read');
  // The writes in the values iterate over the updated objects: this object is their iteration.
  const perObject = m.each ? [...iterations, m.each] : iterations;
  if (m.each) {
    r0.bind(m.each.pathId, subject);
    keys.push(subject.id);
  }
  const single = m.elements.filter((e) => !e.pointer.many);
  const targets: Target[] = [
    sql.target(subject.id, 'id'),
    sql.target(subject.tag, '__type__'),
    ...keys.map((k, i) => sql.target(k, `~it${i}`)),
    ...dups.map((d, i) => sql.target(d, `~dup${i}`)),
  ];
  const columns = singleValues(ctx, r0, single, targets);
  ctx.addCte(sql.cte(src, selectFrom(r0, targets, subject), { materialized: true }));

  const concrete = concreteOf(ctx, m.subject);
  // The new junction rows of each multi element, and what reads later in the statement see of
  // them (registered before the checks, which read them too).
  const multiElements = m.elements.filter((x) => x.pointer.many);
  const multi = new Map<string, MultiState>();
  const multiPairs = multiElements.map((e) => {
    const pairs = planPairs(
      ctx,
      e,
      src,
      src,
      perObject,
      { pathId: m.subjectPathId, type: (m.subject.type as { name: string }).name },
      null,
    );
    const mode = e.op === ':=' ? 'replace' : e.op === '+=' ? 'add' : 'remove';
    for (const c of concrete) {
      if (ctx.index.storage(c, e.pointer).kind !== 'junction') continue;
      registerJunctionWrite(ctx, c, e, { pairs, mode, owners: mode === 'replace' ? src : null });
    }
    multi.set(e.pointer.name, {
      kind: e.op === ':=' ? 'replaced' : e.op === '+=' ? 'added' : 'removed',
      pairs,
    });
    return pairs;
  });

  // Each row as the update leaves it, checked before anything is written (`update write`).
  const checks = new Map<string, string>();
  const reset = new Set(resetLinkProperties(single).map((r) => r.column));
  for (const c of concrete) {
    const check = reserveWriteCheck(ctx, c);
    if (check === null) continue;
    checks.set(c, check);
    addWriteCheck(
      ctx,
      c,
      'update write',
      (alias) => sql.subquery(wouldBeRows(ctx, c, src, columns, { reset }), alias),
      check,
    );
  }

  const rows = new Map<string, string>();
  for (const c of concrete) {
    if (single.length === 0) continue;
    const s = 's';
    const t = 't';
    const upd = ctx.fresh('update');
    const table = tableName(c);
    const check = checks.get(c);
    // The exclusive values, checked against the rows as they were, in a CTE of their own that
    // raises on a conflict (not inside the SET: Citus refuses a function over column references
    // in an UPDATE of a distributed table; docs/scaling.md). The UPDATE waits for it the way it
    // waits for the access check, after that one.
    const conflicts = columns.flatMap((col) => {
      const e = single.find((x) => x.pointer.name === col.column);
      if (!e) return [];
      const conflict = exclusiveConflict(
        ctx,
        c,
        e.pointer,
        sql.col(col.source, s),
        sql.col('id', s),
      );
      return conflict ? [conflict] : [];
    });
    let exclusive: string | null = null;
    if (conflicts.length > 0) {
      exclusive = ctx.fresh('exclusive');
      ctx.addCte(
        sql.cte(
          exclusive,
          sql.select({
            targets: [sql.target({ kind: 'Case', whens: conflicts, else: null }, 'conflict')],
            from: [sql.table(null, src, s), sql.table(table.schema, table.name, t)],
            where: sql.bin('=', sql.col('id', t), sql.col('id', s)),
          }),
          { materialized: true },
        ),
      );
    }
    ctx.addCte(
      sql.cte(
        upd,
        sql.update({
          table,
          alias: t,
          set: [
            ...columns.map((col) => {
              const value = sql.col(col.source, s);
              const e = single.find((x) => x.pointer.name === col.column);
              if (!e) return { column: col.column, value };
              return {
                column: col.column,
                value:
                  e.pointer.kind === 'link'
                    ? covariantTarget(ctx, c, e.pointer, e.value.type, value)
                    : value,
              };
            }),
            ...resetLinkProperties(single),
          ],
          from: [sql.table(null, src, s)],
          where: sql.and(
            sql.bin('=', sql.col('id', t), sql.col('id', s)),
            ...(check ? [afterCheck(check)] : []),
            ...(exclusive ? [afterCheck(exclusive)] : []),
          ),
          returning: [sql.target(sql.star(t))],
        }),
      ),
    );
    rows.set(c, upd);
    const overlay = overlayOf(ctx);
    overlay.updated.set(c, [...(overlay.updated.get(c) ?? []), upd]);
  }

  multiElements.forEach((e, i) => {
    const pairs = multiPairs[i] as string;
    for (const c of concrete) {
      if (ctx.index.storage(c, e.pointer).kind !== 'junction') continue;
      const check = checks.get(c);
      const gate = check ? { written: null, check } : null;
      if (e.op === ':=') {
        clearJunction(ctx, c, e.pointer, src, pairs, gate);
        writeJunction(ctx, c, e, pairs, 'add', requiredCheck(e, c, src, true), gate);
      } else if (e.op === '+=') {
        writeJunction(ctx, c, e, pairs, 'add', null, gate);
      } else {
        writeJunction(ctx, c, e, pairs, 'remove', null, gate);
      }
    }
  });
  return { rows, multi };
}
