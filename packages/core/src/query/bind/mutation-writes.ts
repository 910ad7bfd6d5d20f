/**
 * bind/mutation-writes: what every mutation records while it is bound: the writes of a query's
 * `with` bindings (run whether or not the statement reads them, as in Gel), and the guards and
 * `for` iterations a mutation is bound under (query/ir `Guard`, `within`).
 */
import type { BindingRef, IrExpr } from '../ir';
import type { Guard } from '../ir';
import { containsMutation } from '../ir';
import type { BindContext, Scope } from './context';
import { bindingRef } from './names';

/** `with` bindings whose value writes, per binding (see IrQuery.sideEffects). */
const writes = new WeakMap<BindContext, IrExpr[]>();

/** Keeps a `with` binding's value when it writes, so it is planned even if nothing reads it. */
export function recordWrites(ctx: BindContext, expr: IrExpr): void {
  if (!containsMutation(expr)) return;
  const list = writes.get(ctx) ?? [];
  list.push(expr);
  writes.set(ctx, list);
}

export function writesOf(ctx: BindContext): readonly IrExpr[] {
  return writes.get(ctx) ?? [];
}

/** The conditions of the branches a mutation is bound in (Gel's conditional DML), and the `for`
 * variables whose bodies it is in (it runs once per iteration). */
export function guardsOf(scope: Scope): {
  guards?: readonly Guard[];
  within?: readonly BindingRef[];
} {
  // (Not a `for optional` variable: its iterations are planned only where it is read.)
  const within = [...scope.names.values()]
    .filter((b) => b.iteration && !b.optional)
    .map(bindingRef);
  return {
    ...(scope.guards && scope.guards.length > 0 ? { guards: scope.guards } : {}),
    ...(within.length > 0 ? { within } : {}),
  };
}
