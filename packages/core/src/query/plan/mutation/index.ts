/**
 * plan/mutation: insert, update and delete → data-modifying CTEs of the one top-level statement
 * (PostgreSQL runs every data-modifying CTE once, on one snapshot; they must be top-level).
 *
 * Input: a Mutation IR node (query/mutation-ir) met while lifting `rel`. Output: the written
 * objects bound in `rel` (a `Bound` whose `alias` reads the written row's stored columns where
 * one table holds them), and CTEs added through `ctx.addCte`.
 *
 * Shape of the SQL, for each mutation (`N` a fresh number):
 * - `src_N` (materialized): one row per object to write — for an insert a new id
 *   (`svc_meta.uuid_generate_v7()`, computed once) and the single values; for update/delete the
 *   selected objects' ids and `__type__` (and the update's new single values). Values are planned
 *   in a fresh Rel, so the CTE is not correlated with the outer query; a `for` variable the
 *   mutation reads is planned into it (one row per iteration) and kept as columns `~it<i>`
 *   with the iteration's rank among equal elements `~dup<i>`, through which the outer query
 *   joins back to its own iteration (Gel's approach, dml.py; ./scope `liftIteration`);
 * - one INSERT / UPDATE / DELETE per concrete table, `returning *` (./insert, ./update, ./delete);
 * - multi pointers: `pairs_N_p` (the new junction rows: source, target|value, link properties),
 *   then INSERT / DELETE on the junction table (./junctions: `:=` deletes what is not in the new
 *   set, `+=` inserts, `-=` deletes);
 * - `unless conflict` (./conflicts): the new row is written only when no object of the
 *   constraint's declaring type (every concrete table, so across the hierarchy) had the value
 *   before the statement; objects the statement itself writes with the same value violate the
 *   constraint (as in Gel); `else` is planned with the conflicting object bound.
 * A new value of an exclusive pointer is checked against the objects as they were before the
 * statement (the written object aside: ./common `exclusiveAsBefore`), as Gel checks it; an
 * update through a parent type checks a link target a subtype narrows (`covariantTarget`).
 * Reads inside the statement see the snapshot before it (PostgreSQL's rule for CTEs), as Gel's
 * do, with Gel's overlays (./overlays): the written objects' own columns come from the RETURNING
 * rows; reads through links (joins by id, junction rows) also see rows inserted and links
 * written earlier in the statement; a type scanned as a set does not. ./output gives the written
 * objects to the outer query, and a bare mutation's whole stored row (docs/http.md).
 * A mutation runs once per statement (./scope): one that reads the current element of an
 * enclosing query is refused; one in a conditional branch (if/else, `??`) writes only the rows
 * whose branch conditions hold (its `src` rows are filtered by them).
 * Access policies (plan/access): what an update or delete reaches is what the caller may select
 * and `update read` / `delete`; every inserted and updated row is checked against the `insert` /
 * `update write` policies after the statement's writes (a failure raises, nothing is written).
 * An upsert whose `else` updates a type with update policies is refused (./conflicts).
 */
import type { IrExpr } from '../../ir';
import type { Mutation } from '../../ir';
import type { PlanContext } from '../context';
import { Rel, type Bound } from '../rel';
import { planned, type Written } from './common';
import { children } from '../../ir';
import { planDelete } from './delete';
import { planInsert } from './insert';
import { joinWritten } from './output';
import { assertUncorrelated, iterationRefs } from './scope';
import { planUpdate } from './update';

/**
 * Plans a `with` binding that writes (IrQuery.sideEffects) on its own, so its CTEs exist even
 * when the statement never reads it; reads of it later reuse them. One inside a `for` body (it
 * reads the `for` variable) is planned where it is read.
 */
export function planSideEffect(ctx: PlanContext, expr: IrExpr): void {
  const seen = new Set<IrExpr>();
  const inside = new Set<number>();
  let iterates = false;
  const visit = (e: IrExpr): void => {
    if (seen.has(e) || iterates) return;
    seen.add(e);
    if (e.kind === 'For') inside.add(e.binding.id);
    if (e.kind === 'Update' && e.each) inside.add(e.each.binding.id);
    if (e.kind === 'BindingRef') {
      if (e.binding.iteration && !inside.has(e.binding.id)) iterates = true;
      else visit(e.binding.expr);
      return;
    }
    for (const child of children(e)) visit(child);
  };
  visit(expr);
  if (!iterates) ctx.lift(new Rel(null), expr);
}

/** The written objects of `m`, bound in `rel` (the planner's dispatch calls this). */
export function planMutation(ctx: PlanContext, rel: Rel, m: Mutation): Bound {
  assertUncorrelated(ctx, rel, m);
  const iterations = iterationRefs(m);
  let done = planned.get(ctx);
  if (!done) {
    done = new Map();
    planned.set(ctx, done);
  }
  // By path id: the binder copies nodes (a subject with cardinality one) but keeps their ids.
  let entry = done.get(m.pathId);
  if (!entry) {
    const src = ctx.fresh(`${m.kind.toLowerCase()}_src`);
    // The CTEs sit at the statement's top, outside the if/else branch being planned: the
    // branch's gates (conditions on the enclosing row) cannot be read there. The mutation
    // writes only where its branch holds through its own guards (`applyGuards`).
    const gates = ctx.gates.splice(0);
    let plan: Written;
    try {
      plan =
        m.kind === 'Insert'
          ? planInsert(ctx, m, src, iterations)
          : m.kind === 'Update'
            ? planUpdate(ctx, m, src, iterations)
            : planDelete(ctx, m, src, iterations);
    } finally {
      ctx.gates.push(...gates);
    }
    entry = { src, plan };
    done.set(m.pathId, entry);
  }
  return joinWritten(ctx, rel, m, entry.src, entry.plan, iterations);
}
