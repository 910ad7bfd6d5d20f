/**
 * bind/dunder-default: `__default__` in an insert or update shape element (Gel 5+).
 *
 * Input: a shape element's value (syntax) and the pointer (or link property) it writes.
 * Output: the scope the value is bound in, whose `dunderDefault` is the pointer's default
 * expression, bound as an insert would bind it.
 * Rules (Gel's): `__default__` is looked for in the element's own expression, not inside a nested
 * query or shape (those have their own elements); when it is there, the pointer must have a
 * default, else InvalidReferenceError ("No default expression exists"). A default svc's schema
 * refuses (one that reads the object, a query, or writes: docs/gel-differences.md) never reaches
 * here. Elsewhere `__default__` stays refused (bind/expr's anchors).
 * Invariants: pure; the default is bound in the module of the type declaring the pointer.
 */
import type * as ql from '../../syntax';
import { InvalidReferenceError } from '../../errors';
import type { IrExpr } from '../ir';
import type { PointerInfo } from '../schema-index';
import { fail, rootScope, type BindContext, type Scope } from './context';
import { bindExpr } from './dispatch';

const NESTED: ReadonlySet<string> = new Set([
  'SelectQuery',
  'ForQuery',
  'GroupQuery',
  'InternalGroupQuery',
  'InsertQuery',
  'UpdateQuery',
  'DeleteQuery',
  'Shape',
]);

/** The first `__default__` of the expression itself (not of a nested query or shape), or null. */
export function findDunderDefault(node: unknown): ql.Anchor | null {
  if (node === null || typeof node !== 'object') return null;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findDunderDefault(item);
      if (found !== null) return found;
    }
    return null;
  }
  const record = node as Record<string, unknown>;
  if (record.kind === 'Anchor' && record.name === '__default__') return node as ql.Anchor;
  if (typeof record.kind === 'string' && NESTED.has(record.kind)) return null;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'span') continue;
    const found = findDunderDefault(value);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The scope an element's value `node` is bound in: `__default__` is `pointer`'s default when
 * the value uses it (`owner` is the link when `pointer` is one of its properties); no
 * `__default__` otherwise (an enclosing element's does not reach a nested insert's elements).
 */
export function elementScope(
  ctx: BindContext,
  scope: Scope,
  pointer: PointerInfo,
  node: ql.Expr,
  owner: PointerInfo | null = null,
): Scope {
  const anchor = findDunderDefault(node);
  if (anchor === null) return scope.dunderDefault ? { ...scope, dunderDefault: undefined } : scope;
  const dflt = pointer.model?.default ?? null;
  if (dflt === null) {
    return fail(
      InvalidReferenceError,
      '__default__ cannot be used in this expression',
      anchor.span,
      `No default expression exists for '${owner ? `${owner.name}@` : ''}${pointer.name}'`,
    );
  }
  const declaredIn = (owner ?? pointer).declaredIn;
  const module = declaredIn.slice(0, declaredIn.lastIndexOf('::'));
  const value: IrExpr = bindExpr(ctx, rootScope(module), dflt);
  return { ...scope, dunderDefault: value };
}
