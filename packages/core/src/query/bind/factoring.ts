/**
 * bind/factoring: the paths a statement's clauses see as one element. A subject with no path of
 * its own reads some paths one element at a time (`select (Issue.number, Issue.name) order by
 * Issue.number`): inside its filter and order by those paths are the element the clause is
 * evaluated for. Which paths a call with optional arguments shares between them (Gel's path
 * factoring for `??`, `?=` and `optional` parameters) is query/ir/shared-paths.
 * Pure; used by bind/statement and bind/dml-correlation.
 */
import type { IrExpr } from '../ir';
import { pathIdOf } from '../ir';

/**
 * The key a computed pointer step is known by apart from its occurrence (each use of a computed
 * is a set of its own, with a fresh path id): its source's path id and its name. Null for any
 * other node.
 */
export function computedStepKey(expr: IrExpr): string | null {
  if (expr.kind !== 'PointerStep' || expr.computed === null) return null;
  const source = pathIdOf(expr.source);
  return source === null ? null : `${source}.${expr.pointer.name}~`;
}

/**
 * The computed steps of a statement's subject path (`U.fr` and `U.fr.foo` of `select U.fr.foo`
 * with `fr` and `foo` computed elements of `U`'s shape), each under its `computedStepKey`, as one
 * element: Gel binds the subject's path in the statement's filter and order by, so naming the
 * same step from the same source there (`order by U.fr.foo`) reads the subject's element, as a
 * stored pointer's path does.
 */
export function subjectComputedSteps(subject: IrExpr): [string, IrExpr][] {
  const out: [string, IrExpr][] = [];
  for (let e: IrExpr | null = subject; e !== null; ) {
    const key = computedStepKey(e);
    if (key !== null) out.push([key, { ...e, card: { min: 1, max: 1 } } as IrExpr]);
    switch (e.kind) {
      case 'Shape':
        e = e.subject;
        break;
      case 'PointerStep':
      case 'Backlink':
      case 'Intersection':
        e = e.source;
        break;
      case 'LinkProperty':
        e = e.link;
        break;
      default:
        e = null;
    }
  }
  return out;
}

/**
 * The paths a statement's subject makes visible to its clauses: in `select len(User.name) order
 * by User.name` the subject reads `User` and `User.name` one element at a time, so inside its
 * filter and order by those paths (and every prefix: `Issue` in `Issue.status.name`) are the
 * element the clause is evaluated for. Fences (aggregates, subqueries, EXISTS, if/else branches)
 * keep their paths to themselves; a computed pointer's source is not factored (as in Gel).
 */
export function visiblePathIds(expr: IrExpr): Set<string> {
  const out = new Set<string>();
  visitVisiblePaths(expr, (path) => out.add(path.pathId));
  return out;
}

/** The path nodes `visiblePathIds` collects, each given to `visit` (the root of a binding, a
 * type root, a pointer step, backlink or intersection), for callers that need more than ids
 * (bind/dml-correlation names them). */
export function visitVisiblePaths(
  expr: IrExpr,
  visit: (
    path: Extract<
      IrExpr,
      { kind: 'BindingRef' | 'TypeRoot' | 'PointerStep' | 'Backlink' | 'Intersection' }
    >,
  ) => void,
): void {
  const walk = (e: IrExpr): void => {
    switch (e.kind) {
      case 'BindingRef':
        if (e.binding.transparent) walk(e.binding.expr);
        else visit(e);
        return;
      case 'TypeRoot':
        visit(e);
        return;
      case 'PointerStep':
      case 'Backlink':
      case 'Intersection':
        visit(e);
        // A computed pointer's source is not a path of the scope (Gel does not factor computables).
        if (e.kind !== 'PointerStep' || e.computed === null) walk(e.source);
        return;
      case 'LinkProperty':
        walk(e.link);
        return;
      case 'Call':
        if (e.callKind !== 'element') return;
        e.args.forEach((a, i) => {
          if (e.modes[i] === 'element') walk(a);
        });
        return;
      case 'Cast':
      case 'TypeCheck':
      case 'ObjectJson':
        walk(e.expr);
        return;
      case 'TupleElement':
        walk(e.tuple);
        return;
      case 'TupleLiteral':
      case 'ArrayLiteral':
        for (const x of e.elements) walk(x);
        return;
      case 'IfElse':
        walk(e.condition);
        return;
      case 'Shape':
        walk(e.subject);
        return;
      default:
        return;
    }
  };
  walk(expr);
}
