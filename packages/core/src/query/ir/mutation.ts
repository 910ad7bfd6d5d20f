/**
 * query/ir/mutation: analyses of the mutation nodes (insert, update, delete; their types are in
 * ./types): where they occur and whether they are placed where they can run.
 */
import type { IrExpr, Mutation } from './types';
import { children } from './walk';

export function isMutation(expr: { readonly kind: string }): expr is Mutation {
  return expr.kind === 'Insert' || expr.kind === 'Update' || expr.kind === 'Delete';
}

/** True when a mutation occurs anywhere in `root` (a binding's expression included). */
export function containsMutation(root: IrExpr): boolean {
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): boolean => {
    if (seen.has(expr)) return false;
    seen.add(expr);
    if (isMutation(expr)) return true;
    if (expr.kind === 'BindingRef' && visit(expr.binding.expr)) return true;
    return children(expr).some(visit);
  };
  return visit(root);
}

/**
 * Refuses a mutation where it would be run conditionally (a branch of `if ... else`, the right
 * side of `??`) but carries no guards (the binder gives a mutation bound inside a branch the
 * branch's conditions; the planner writes it only when they hold): without them it would be
 * written whichever branch is taken. A `with` binding's mutation runs whether or not a branch
 * reads it (as in Gel).
 */
export function assertMutationPlacement(root: IrExpr, refuse: (message: string) => never): void {
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr, conditional: boolean): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (isMutation(expr) && conditional && (expr.guards ?? []).length === 0) {
      refuse(
        `${expr.kind.toLowerCase()} inside a conditional expression (if/else, ??) is not supported yet: write it as its own statement or in a with binding`,
      );
    }
    if (expr.kind === 'BindingRef') {
      return visit(expr.binding.expr, expr.binding.transparent === true && conditional);
    }
    if (expr.kind === 'IfElse') {
      visit(expr.condition, conditional);
      visit(expr.then, true);
      visit(expr.else, true);
      return;
    }
    if (expr.kind === 'Coalesce') {
      visit(expr.left, conditional);
      visit(expr.right, true);
      return;
    }
    for (const child of children(expr)) visit(child, conditional);
  };
  visit(root, false);
}
