/**
 * bind/dispatch: `bindExpr`, the entry every binder recurses through, and the table it dispatches
 * on: one binder per kind of syntax node (`BinderTable`, so a new kind does not compile until it
 * has one). bind/expr fills the table (it imports the binder of each kind); the binders import
 * `bindExpr` from here, not from each other or from bind/expr, so the recursion makes no import
 * cycle. A module that starts binding from outside the recursion (bind/index, bind/ddl,
 * bind/policies, bind/alias-types, schema/build/bound.ts) imports `bindExpr` from bind/expr
 * instead, which loads the table.
 */
import type * as ql from '../../syntax';
import type { IrExpr } from '../ir';
import type { BindContext, Scope } from './context';

export type SyntaxKind = ql.Expr['kind'];

/** Binds one kind of syntax node. */
export type NodeBinder<K extends SyntaxKind> = (
  ctx: BindContext,
  scope: Scope,
  node: Extract<ql.Expr, { kind: K }>,
) => IrExpr;

export type BinderTable = { readonly [K in SyntaxKind]: NodeBinder<K> };

let binders: BinderTable | null = null;

/** Sets the table `bindExpr` dispatches on (bind/expr, once, when it is loaded). */
export function registerBinders(table: BinderTable): void {
  binders = table;
}

/** `node` bound in `scope` (its depth counted against the nesting limit). */
export function bindExpr(ctx: BindContext, scope: Scope, node: ql.Expr): IrExpr {
  const table = binders;
  if (table === null)
    throw new Error('bind/dispatch: no binders registered (import bindExpr from bind/expr)');
  const bind = table[node.kind] as NodeBinder<SyntaxKind>;
  return ctx.nested(node.span, () => bind(ctx, scope, node));
}
