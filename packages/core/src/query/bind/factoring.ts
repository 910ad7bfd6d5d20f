/**
 * bind/factoring: which paths a statement's subject makes visible to its clauses (Gel's path
 * factoring, as the binder needs it for cardinality).
 *
 * In `select len(User.name) order by User.name`, the subject reads `User` and `User.name` one
 * element at a time, so inside the filter and order by clauses those paths (and every prefix of
 * them: `Issue` in `Issue.status.name`) are the element the clause is evaluated for: one value,
 * not the whole set. Fences (aggregates, subqueries, EXISTS, the branches of if/else) keep their
 * paths to themselves.
 *
 * Input: a bound subject. Output: the path ids it reads element-wise, with their prefixes.
 */
import type { IrExpr } from '../ir';

export function visiblePathIds(expr: IrExpr): Set<string> {
  const out = new Set<string>();
  collect(expr, out);
  return out;
}

function collect(expr: IrExpr, out: Set<string>): void {
  switch (expr.kind) {
    case 'BindingRef':
      if (expr.binding.transparent) collect(expr.binding.expr, out);
      else out.add(expr.pathId);
      return;
    case 'TypeRoot':
      out.add(expr.pathId);
      return;
    case 'PointerStep':
    case 'Backlink':
    case 'Intersection':
      out.add(expr.pathId);
      // A computed pointer's source is not a path of the scope (Gel does not factor computables).
      if (expr.kind !== 'PointerStep' || expr.computed === null) collect(expr.source, out);
      return;
    case 'LinkProperty':
      collect(expr.link, out);
      return;
    case 'Call':
      if (expr.callKind !== 'element') return;
      expr.args.forEach((a, i) => {
        if (expr.modes[i] === 'element') collect(a, out);
      });
      return;
    case 'Cast':
    case 'TypeCheck':
      collect(expr.expr, out);
      return;
    case 'TupleElement':
      collect(expr.tuple, out);
      return;
    case 'TupleLiteral':
    case 'ArrayLiteral':
      for (const e of expr.elements) collect(e, out);
      return;
    case 'IfElse':
      collect(expr.condition, out);
      return;
    case 'Shape':
      collect(expr.subject, out);
      return;
    default:
      return;
  }
}
