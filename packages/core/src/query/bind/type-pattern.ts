/**
 * bind/type-pattern: the right side of `x is T` when T may name a pseudo-type (`5 is anyint`,
 * `[5] is array<anytype>`, `(5, 'a') is tuple<anytype, str>`), and its static answer for values
 * that are not objects (a scalar's or a collection's type is known before running). A free
 * object's type is `std::FreeObject` (`{x := 1} is FreeObject`), alone or in a union of types.
 *
 * Input: a type expression and a Scope. Output: a TypePattern; `matchesPattern` decides a type.
 * Pseudo-types are std's families (std/resolve `isOfPolyType`): one source of truth.
 */
import type * as ql from '../../syntax';
import type { TypeRef } from '../../model/schema';
import type { PolyName } from '../../std/model';
import { isOfPolyType, polyTypeName } from '../../std/resolve';
import type { IrType } from '../ir';
import type { SchemaIndex } from '../schema-index';
import { typeEnv } from '../ir';
import type { Scope } from './context';
import { resolveTypeExpr, sameType } from './types';

export type TypePattern =
  | { readonly kind: 'type'; readonly type: TypeRef }
  /** `std::FreeObject`: the type of free objects (`{x := 1}`). */
  | { readonly kind: 'free' }
  /** `A | B` with `FreeObject` as one of its types: any of them. */
  | { readonly kind: 'anyOf'; readonly patterns: readonly TypePattern[] }
  | { readonly kind: 'poly'; readonly name: PolyName }
  | { readonly kind: 'array'; readonly element: TypePattern }
  | {
      readonly kind: 'tuple';
      readonly elements: readonly { readonly name: string | null; readonly pattern: TypePattern }[];
    };

export function resolveTypePattern(
  index: SchemaIndex,
  scope: Scope,
  texpr: ql.TypeExpr,
): TypePattern {
  if (isFreeObject(texpr)) return { kind: 'free' };
  if (texpr.kind === 'TypeOp' && texpr.op === '|') {
    const parts = unionParts(texpr);
    if (parts.some(isFreeObject))
      return { kind: 'anyOf', patterns: parts.map((p) => resolveTypePattern(index, scope, p)) };
  }
  if (texpr.kind === 'TypeName') {
    const { name, subtypes } = texpr;
    const bare = name.module === null || name.module === 'std' ? name.name : null;
    const poly = bare !== null && subtypes.length === 0 ? polyTypeName(bare) : null;
    if (poly) return { kind: 'poly', name: poly };
    const [element] = subtypes;
    if (bare === 'array' && subtypes.length === 1 && element && element.kind !== 'NamedSubtype')
      return { kind: 'array', element: resolveTypePattern(index, scope, element) };
    if (bare === 'tuple' && subtypes.length > 0) {
      const named = subtypes.filter((s) => s.kind === 'NamedSubtype').length;
      if (named === 0 || named === subtypes.length)
        return {
          kind: 'tuple',
          elements: subtypes.map((s) =>
            s.kind === 'NamedSubtype'
              ? { name: s.name, pattern: resolveTypePattern(index, scope, s.type) }
              : { name: null, pattern: resolveTypePattern(index, scope, s) },
          ),
        };
    }
  }
  return { kind: 'type', type: resolveTypeExpr(index, scope, texpr) };
}

/** `FreeObject` or `std::FreeObject`. */
function isFreeObject(texpr: ql.TypeExpr): boolean {
  return (
    texpr.kind === 'TypeName' &&
    texpr.subtypes.length === 0 &&
    texpr.name.name === 'FreeObject' &&
    (texpr.name.module === null || texpr.name.module === 'std')
  );
}

/** The types `A | B | C` joins, in order. */
function unionParts(texpr: ql.TypeExpr): ql.TypeExpr[] {
  return texpr.kind === 'TypeOp' && texpr.op === '|'
    ? [...unionParts(texpr.left), ...unionParts(texpr.right)]
    : [texpr];
}

/** True when a value of the scalar `sub` is a value of `sup` (the same, or extending it). */
export function scalarExtends(index: SchemaIndex, sub: string, sup: string): boolean {
  let current: string | undefined = sub;
  for (let guard = 0; current && guard < 64; guard++) {
    if (current === sup) return true;
    current = index.scalar(current)?.base;
  }
  return false;
}

/** Whether every value of `type` is of the pattern (statically). */
export function matchesPattern(index: SchemaIndex, type: IrType, pattern: TypePattern): boolean {
  if (pattern.kind === 'anyOf') return pattern.patterns.some((p) => matchesPattern(index, type, p));
  if (pattern.kind === 'free') return type.kind === 'free';
  if (type.kind === 'free' || type.kind === 'empty') return false;
  switch (pattern.kind) {
    case 'poly':
      return isOfPolyType(pattern.name, type, typeEnv(index));
    case 'array':
      return type.kind === 'array' && matchesPattern(index, type.element, pattern.element);
    case 'tuple':
      return (
        type.kind === 'tuple' &&
        type.elements.length === pattern.elements.length &&
        pattern.elements.every((p, i) => {
          const element = type.elements[i];
          return (
            element !== undefined &&
            (p.name === null || p.name === element.name) &&
            matchesPattern(index, element.type, p.pattern)
          );
        })
      );
    case 'type': {
      const target = pattern.type;
      if (type.kind === 'object' && target.kind === 'object')
        return index.isSubtype(type.name, target.name);
      if (type.kind === 'scalar' && target.kind === 'scalar')
        return scalarExtends(index, type.name, target.name);
      return sameType(type, target);
    }
  }
}
