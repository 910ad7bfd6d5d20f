/**
 * plan/mutation/scope: the Rel a mutation's own CTEs are planned in. A mutation runs once per
 * statement: it may read `for` variables (planned into its CTEs, `bindIterations`) and objects
 * registered as external (`bindExternals`), but not the current row of an enclosing query
 * (`assertUncorrelated`). A conditional mutation writes only where its branch holds
 * (`applyGuards`); the `with` bindings that write run unconditionally (`markSideEffects`).
 */
import { InvalidReferenceError, QueryError } from '../../../errors';
import { pgType, sql, type SqlExpr } from '../../../sql';
import { liftRows } from '../rows';
import { rootKeyOf } from '../../ir';
import type { BindingRef, IrExpr } from '../../ir';
import { isMutation, type Mutation } from '../../ir';
import type { PlanContext } from '../context';
import { Rel, type Bound } from '../rel';
import { nestedGuardsOf, externals, unconditional, objectOf, type ObjectBound } from './common';
import { subjectCondition } from '../access';
import type { Delete, Update } from '../../ir';
import { children } from '../../ir';

/** A conditional mutation (mutation-ir `Guard`) writes only the `src` rows where its branch's
 * conditions hold: the condition (true/false for an if/else branch, `exists left` false for the
 * right of `??`) is evaluated in the mutation's own Rel, per `for` iteration when it reads one. */
export function applyGuards(ctx: PlanContext, rel: Rel, m: Mutation): void {
  for (const guard of m.guards ?? []) {
    rel.where.push(sql.bin('is', ctx.value(rel, guard.expr), sql.bool(guard.when)));
  }
  // Nested in the values of `unless conflict` inserts: only for the objects they insert (a
  // `with` binding's mutation read there runs whatever happens, as in Gel).
  if (unconditional.get(ctx)?.has(m.pathId)) return;
  for (const guard of nestedGuardsOf(ctx)) rel.where.push(...guard(rel));
}

/** Records the mutations of the statement's `with` bindings that write: they run
 * unconditionally, wherever they are first read. */
export function markSideEffects(ctx: PlanContext, exprs: readonly IrExpr[]): void {
  const ids = new Set<string>();
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (isMutation(expr) && (expr.guards ?? []).length === 0) ids.add(expr.pathId);
    if (expr.kind === 'BindingRef') visit(expr.binding.expr);
    for (const child of children(expr)) visit(child);
  };
  for (const expr of exprs) visit(expr);
  unconditional.set(ctx, ids);
}

/** True when `expr`'s elements come from a mutation's written objects (through bindings,
 * `??`, if/else, unions, selects and shapes of them, links and `[is T]` from them). */
export function derivesFromMutation(expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'Insert':
    case 'Update':
    case 'Delete':
      return true;
    case 'BindingRef':
      return !expr.binding.iteration && derivesFromMutation(expr.binding.expr);
    case 'Coalesce':
    case 'SetOp':
      return derivesFromMutation(expr.left) || derivesFromMutation(expr.right);
    case 'IfElse':
      return derivesFromMutation(expr.then) || derivesFromMutation(expr.else);
    case 'SetLiteral':
      return expr.elements.some(derivesFromMutation);
    case 'Select':
    case 'Shape':
      return derivesFromMutation(expr.subject);
    case 'Intersection':
    case 'PointerStep':
    case 'Backlink':
      return derivesFromMutation(expr.source);
    case 'Assert':
    case 'Distinct':
      return derivesFromMutation(expr.expr);
    case 'For':
      return derivesFromMutation(expr.body);
    default:
      return false;
  }
}

/** Binds in a fresh Rel the outside objects (see `externals`) that `m` reads. */
export function bindExternals(ctx: PlanContext, rel: Rel, m: Mutation): void {
  const registry = externals.get(ctx);
  if (!registry || registry.size === 0) return;
  const wanted = new Set<string>();
  // The conflicting objects of the inserts inside `m` (one it reads through a `with` binding
  // included) are theirs, not external to `m`.
  const owned = new Set<string>();
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (expr.kind === 'TypeRoot' && registry.has(expr.pathId)) wanted.add(expr.pathId);
    if (expr.kind === 'Insert' && expr.conflict) owned.add(expr.conflict.conflictPathId);
    if (expr.kind === 'BindingRef') visit(expr.binding.expr);
    for (const child of children(expr)) visit(child);
  };
  visit(m);
  for (const pathId of wanted) {
    if (!owned.has(pathId)) rel.bind(pathId, (registry.get(pathId) as (r: Rel) => Bound)(rel));
  }
}

/**
 * A mutation runs once per statement, in its own CTEs: it may read `for` variables (planned into
 * its CTEs) but not the current row of an enclosing query (`select User { x := (insert Log {
 * user := User }) }` would need one write per row, a data-modifying CTE cannot be correlated).
 */
export function assertUncorrelated(ctx: PlanContext, rel: Rel, m: Mutation): void {
  const registry = externals.get(ctx);
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (
      (expr.kind === 'TypeRoot' || expr.kind === 'PointerStep') &&
      !registry?.has(expr.pathId) &&
      rel.lookup(expr.pathId)
    ) {
      throw new QueryError(
        'a mutation cannot read the current element of an enclosing query; it runs once per statement (use `for x in ... union (...)` to write per element)',
      );
    }
    // Another occurrence of the same root beside the mutation, in the same row (`select
    // (Subordinate, (insert T { subordinates := Subordinate }))`): Gel refuses to factor it in.
    if (expr.kind === 'TypeRoot' && !registry?.has(expr.pathId)) {
      const key = rootKeyOf(expr.pathId);
      if (
        key !== expr.pathId &&
        rel.someBoundHere((id) => id !== expr.pathId && rootKeyOf(id) === key)
      )
        throw new InvalidReferenceError(
          `cannot reference correlated set '${expr.objectType}' here`,
        );
    }
    for (const child of children(expr)) visit(child);
  };
  visit(m);
}

/** `for` variables read inside the mutation whose `for` is outside it (a `for` inside, e.g. in a
 * link's value, is planned where it is). Nested mutations included: they plan their own CTEs but
 * their `for` variables must be available here too. */
export function iterationRefs(m: Mutation): BindingRef[] {
  const inside = new Set<number>();
  const refs = new Map<string, BindingRef>();
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (expr.kind === 'For') inside.add(expr.binding.id);
    if (expr.kind === 'Update' && expr.each) inside.add(expr.each.binding.id);
    if (expr.kind === 'BindingRef') {
      if (expr.binding.iteration) refs.set(expr.pathId, expr);
      else visit(expr.binding.expr);
      return;
    }
    for (const child of children(expr)) visit(child);
  };
  visit(m);
  return [...refs.values()].filter((ref) => !inside.has(ref.binding.id));
}

/**
 * A `for` iterator whose body writes, lifted row by row with each row's rank among the equal
 * elements of the iterator (`dup`): `for x in {a, a} union (insert ...)` writes twice, and the
 * enclosing query joins each iteration to its own write by value and rank (the value alone
 * would pair each of the two iterations with both writes). The write's `src` and the enclosing
 * `for` lift the iterator this same way, so the ranks agree (equal elements are
 * interchangeable: any pairing of them is right); a nested iterator is ranked per outer row.
 */
export function liftIteration(
  ctx: PlanContext,
  rel: Rel,
  iterator: IrExpr,
  join?: 'left',
): { bound: Bound; dup: SqlExpr } {
  const { query, columns } = ctx.rows(rel, iterator);
  const a = ctx.fresh('it');
  const key = sql.cast(sql.col(columns.object ? 'id' : 'v', a), pgType('text'));
  const ranked = sql.select({
    targets: [
      sql.target(sql.star(a)),
      sql.target(sql.agg('row_number', [], { over: { partitionBy: [key], orderBy: [] } }), '~dup'),
    ],
    from: [sql.subquery(query, a)],
  });
  const bound = liftRows(ctx, rel, iterator, ranked, columns, join);
  const column = (bound.kind === 'object' ? bound.id : bound.expr) as { table: string | null };
  return { bound, dup: sql.col('~dup', column.table) };
}

/** The path id an iteration's rank (`liftIteration`) is bound at, beside its value's. */
export const dupPathId = (pathId: string): string => `${pathId}~dup`;

/**
 * Binds each `for` variable in `rel` by planning its iterator there (`liftIteration`); their
 * values and ranks, in order.
 */
export function bindIterations(
  ctx: PlanContext,
  rel: Rel,
  refs: readonly BindingRef[],
): { keys: SqlExpr[]; dups: SqlExpr[] } {
  const keys: SqlExpr[] = [];
  const dups: SqlExpr[] = [];
  for (const ref of refs) {
    const { bound, dup } = liftIteration(ctx, rel, ref.binding.expr);
    rel.bind(ref.pathId, bound);
    const value = bound.kind === 'object' ? bound.id : bound.expr;
    // An empty iterator (lifted as a NULL row) has no iterations.
    if (bound.nullable) rel.where.push(sql.isNull(value, true));
    keys.push(value);
    dups.push(dup);
  }
  return { keys, dups };
}

/**
 * The rows an update or delete starts from: its iterations and the objects it reads from outside
 * bound, its guards applied, its subject lifted and filtered, and only the subject's rows the
 * caller may reach (`select`, and `update read` or `delete`).
 */
export function subjectRows(
  ctx: PlanContext,
  m: Update | Delete,
  iterations: readonly BindingRef[],
  access: 'update read' | 'delete',
): { rel: Rel; keys: SqlExpr[]; dups: SqlExpr[]; subject: ObjectBound } {
  const rel = new Rel(null);
  const { keys, dups } = bindIterations(ctx, rel, iterations);
  bindExternals(ctx, rel, m);
  applyGuards(ctx, rel, m);
  const subject = objectOf(ctx, rel, m.subject);
  if (m.filter) rel.where.push(ctx.value(rel, m.filter));
  const reach = subjectCondition(ctx, subject.type, access, subject);
  if (reach) rel.where.push(reach);
  return { rel, keys, dups, subject };
}

/**
 * `src.~dup<i> = <the iteration's rank>` when the enclosing `for` ranked its iterator
 * (scope.liftIteration): each iteration of equal elements meets its own write.
 */
export function sameRank(rel: Rel, ref: BindingRef, i: number, src: string): SqlExpr[] {
  const dup = rel.lookup(dupPathId(ref.pathId));
  return dup?.kind === 'value' ? [sql.bin('=', sql.col(`~dup${i}`, src), dup.expr)] : [];
}
