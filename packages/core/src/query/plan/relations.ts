/**
 * plan/relations: `liftNew`, the planner's `lift` for a set not bound yet — one case per IR kind,
 * each making the set's elements rows of the Rel (joining what they need; Gel's relgen).
 *
 * A many set multiplies rows (inner join), an at-most-one set keeps them (left join, NULL =
 * empty). The cases themselves live by concern: paths through pointers in plan/pointers, set
 * operators and assertions in plan/sets, calls in plan/calls, groups in plan/group, statements
 * as subqueries in plan/rows, writes in plan/mutation. A link step from many sources is made a
 * DISTINCT subquery (`needsDistinct`): EdgeQL paths are sets.
 */
import { QueryError } from '../../errors';
import { sql } from '../../sql';
import type { IrExpr } from '../ir';
import { containsMutation, isMutation } from '../ir';
import { planMutation } from './mutation';
import { derivesFromMutation, dupPathId, liftIteration } from './mutation/scope';
import type { Rel, Bound } from './rel';
import { backlinkIds, typeSource } from './sources';
import type { PlanContext } from './context';
import { volatileElement, liftVolatile, liftSetReturning, bindShared } from './calls';
import { objectBound, shortName } from './common';
import { liftGroup, liftGroupElements, groupingNames } from './group';
import { selectClauses } from './ordering';
import { shapeJson } from './output';
import { ownPathId } from '../ir';
import { objectOf, joinObject, liftPointer } from './pointers';
import { presence, liftRows, subqueryLift } from './rows';
import { liftUnion, liftCoalesce, liftIfElse, liftAssert } from './sets';
import { objectCastId } from './values';

/** The elements of `expr`, not bound in `rel` yet, made rows of it (see the module doc). */
export function liftNew(ctx: PlanContext, rel: Rel, expr: IrExpr): Bound {
  if (needsDistinct(ctx, rel, expr)) {
    // Marked while its DISTINCT subquery lifts it; planned again elsewhere (a value and its
    // JSON output), it is made distinct again.
    ctx.distinctDone.add(expr);
    try {
      return subqueryLift(ctx, rel, expr, { distinct: true });
    } finally {
      ctx.distinctDone.delete(expr);
    }
  }
  switch (expr.kind) {
    case 'TypeRoot': {
      const alias = ctx.fresh(shortName(expr.objectType));
      const src = typeSource(ctx, expr.objectType, alias, { written: false });
      rel.join('inner', src.item);
      return objectBound(expr.objectType, alias, src.tag, false);
    }
    case 'PointerStep':
      return overlaid(ctx, expr.source, () => liftPointer(ctx, rel, expr));
    case 'Backlink': {
      const target = objectOf(ctx, rel, expr.source);
      const ids = ctx.fresh('bl');
      const type = (expr.type as { name: string }).name;
      // Followed back from a mutation's result, the links are read as the statement left them.
      const written = overlaid(ctx, expr.source, () => ctx.overlayDepth > 0);
      rel.join(
        'inner',
        sql.subquery(backlinkIds(ctx, expr.links, target.id, written), ids, { lateral: true }),
      );
      const bound = joinObject(ctx, rel, type, sql.col('id', ids), 'inner');
      return {
        ...(bound as Extract<Bound, { kind: 'object' }>),
        link: { kind: 'junction', alias: ids },
      };
    }
    case 'Intersection':
      return overlaid(ctx, expr.source, () => {
        const source = objectOf(ctx, rel, expr.source);
        const bound = joinObject(ctx, rel, expr.objectType, source.id, 'inner', true);
        return bound.kind === 'object' ? { ...bound, link: source.link } : bound;
      });
    case 'ObjectCast': {
      const checked = objectCastId(ctx, rel, expr);
      // objectCastId looked the id up through the access hook.
      return joinObject(
        ctx,
        rel,
        expr.objectType,
        checked,
        expr.card.min === 1 ? 'inner' : 'left',
        true,
      );
    }
    case 'BindingRef': {
      // A mutation's written rows are joined as they are (their columns are the new values).
      if (isMutation(expr.binding.expr)) return ctx.lift(rel, expr.binding.expr);
      if (expr.binding.iteration) {
        throw new QueryError(`'${expr.binding.name}' is used outside the statement that binds it`);
      }
      if (expr.binding.transparent) return ctx.lift(rel, expr.binding.expr);
      const bound = subqueryLift(ctx, rel, expr.binding.expr);
      return expr.binding.withAlias && bound.kind === 'object' ? { ...bound, out: null } : bound;
    }
    case 'Shape':
      return overlaid(ctx, expr.subject, () => {
        const subject = ctx.lift(rel, expr.subject);
        return { ...subject, out: shapeJson(ctx, rel, expr, subject) };
      });
    case 'Select': {
      const bound = subqueryLift(ctx, rel, expr.result, {
        after: (inner) => selectClauses(ctx, inner, expr),
        clauses: [...(expr.filter ? [expr.filter] : []), ...expr.orderBy.map((k) => k.expr)],
      });
      return bound;
    }
    case 'For':
      return subqueryLift(ctx, rel, expr.body, {
        before: (inner) => {
          // Iterated row by row (the binder gave the iterator's paths names of their own, so
          // they are not the body's); `for optional` runs the body once on an empty iterator.
          let iteration: Bound;
          if (containsMutation(expr.body)) {
            // A body that writes: ranked as its writes' `src` ranks it, so each iteration meets
            // its own writes (mutation/scope.liftIteration).
            const { bound, dup } = liftIteration(
              ctx,
              inner,
              expr.iterator,
              expr.optional ? 'left' : undefined,
            );
            iteration = bound;
            const present = expr.optional ? null : presence(bound);
            if (present) inner.where.push(present);
            inner.bind(dupPathId(`@${expr.binding.id}`), {
              kind: 'value',
              type: { kind: 'scalar', name: 'std::int64' },
              expr: dup,
              out: null,
              nullable: false,
            });
          } else if (expr.optional) {
            const { query, columns } = ctx.rows(inner, expr.iterator);
            iteration = liftRows(ctx, inner, expr.iterator, query, columns, 'left');
          } else {
            iteration = ctx.lift(inner, expr.iterator);
            // An element computed in place may be NULL (`<str>.x` of an unset x): no iteration.
            const present = presence(iteration);
            if (present) inner.where.push(present);
            // A value computed in place is evaluated even when the body never reads it (Gel
            // runs the iterator first: `for _ in assert(...) union (...)` raises).
            else if (iteration.kind === 'value' && iteration.expr.kind !== 'ColumnRef')
              inner.where.push(sql.isNull(iteration.expr, true));
          }
          inner.bind(`@${expr.binding.id}`, iteration);
          inner.carried.set(`@${expr.binding.id}`, iteration);
        },
      });
    case 'SetLiteral':
    case 'SetOp':
      return liftUnion(ctx, rel, expr);
    case 'Distinct': {
      const { query, columns } = ctx.rows(rel, expr.expr);
      const alias = ctx.fresh('d');
      const key = columns.object ? 'id' : 'v';
      const distinct = sql.select({
        distinct: [sql.col(key, alias)],
        targets: [sql.target(sql.star(alias))],
        from: [sql.subquery(query, alias)],
        orderBy: [sql.order(sql.col(key, alias))],
      });
      // The row kept for each element carries its `for` variables out with it (a computed
      // element of the objects read after the `distinct` may name them).
      return liftRows(ctx, rel, expr, distinct, {
        ord: [],
        object: columns.object,
        carried: columns.carried,
      });
    }
    case 'Coalesce':
      bindShared(ctx, rel, expr);
      if (
        expr.left.card.max !== 'many' &&
        expr.right.card.max !== 'many' &&
        expr.type.kind !== 'object'
      ) {
        return valueBound(ctx, rel, expr);
      }
      return liftCoalesce(ctx, rel, expr);
    case 'IfElse':
      if (
        expr.then.card.max !== 'many' &&
        expr.else.card.max !== 'many' &&
        expr.type.kind !== 'object'
      ) {
        return valueBound(ctx, rel, expr);
      }
      return liftIfElse(ctx, rel, expr);
    case 'Call':
      if (expr.callKind === 'set-returning') return liftSetReturning(ctx, rel, expr);
      if (volatileElement(ctx, rel, expr)) return liftVolatile(ctx, rel, expr);
      return valueBound(ctx, rel, expr);
    case 'Assert':
      return liftAssert(ctx, rel, expr);
    case 'Group':
      return liftGroup(ctx, rel, expr);
    case 'GroupElements':
      return liftGroupElements(ctx, rel, expr);
    case 'GroupGrouping':
      if (expr.array) return valueBound(ctx, rel, expr);
      return liftRows(ctx, rel, expr, groupingNames(ctx, rel, expr), {
        ord: [],
        object: false,
      });
    case 'Insert':
    case 'Update':
    case 'Delete':
      return planMutation(ctx, rel, expr);
    default:
      return valueBound(ctx, rel, expr);
  }
}

/**
 * A link or backlink step from many sources not bound here yields each object once (EdgeQL
 * paths are sets): it is planned as a DISTINCT subquery instead of multiplying the rows.
 */
function needsDistinct(ctx: PlanContext, rel: Rel, expr: IrExpr): boolean {
  if (ctx.distinctDone.has(expr)) return false;
  if (expr.kind !== 'PointerStep' && expr.kind !== 'Backlink') return false;
  if (expr.type.kind !== 'object' || expr.source.card.max !== 'many') return false;
  const source = ownPathId(expr.source);
  return source === null || rel.lookup(source) === undefined;
}

function valueBound(ctx: PlanContext, rel: Rel, expr: IrExpr): Bound {
  if (expr.type.kind === 'object') {
    const id = ctx.value(rel, expr);
    return joinObject(ctx, rel, expr.type.name, id, expr.card.min === 1 ? 'inner' : 'left', true);
  }
  return {
    kind: 'value',
    type: expr.type,
    expr: ctx.value(rel, expr),
    out: null,
    nullable: expr.card.min === 0,
  };
}

/**
 * Plans `fn` with rows updated earlier in the statement read as updated when `source` derives
 * from a mutation's result (`(update T ...) { x }`, `.link` of a new object, `[is S]` of it),
 * as Gel applies a mutation's overlays to the sets that come from it; other reads (`select T`
 * beside an update of T) see the rows as they were.
 */
function overlaid<T>(ctx: PlanContext, source: IrExpr, fn: () => T): T {
  if (!derivesFromMutation(source)) return fn();
  ctx.overlayDepth++;
  try {
    return fn();
  } finally {
    ctx.overlayDepth--;
  }
}
