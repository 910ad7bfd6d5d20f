/**
 * bind/shape-checks: what Gel refuses in a select shape's elements before running anything.
 *
 * - Duplicates: naming the same pointer twice (`User { name, name }`, `{ name, name := ... }`)
 *   is a QueryError; a splat's element may be named again (`{ *, name := upper(.name) }`).
 * - Computed elements over a pointer of the subject's type (`Issue { owner := ... }`) keep that
 *   pointer's definition: the value's type must be the pointer's target or a subtype of it (a
 *   scalar may also be the one the target extends) (SchemaError), `single` / `multi` may not change its cardinality, `optional` may not relax a
 *   required pointer (SchemaError).
 * - Distinct objects: a computed link's value may not hold one object twice; a union of object
 *   sets whose types overlap may (`.owner.todo union .owner.todo`), unless every part is an
 *   insert (Gel's multiplicity inference of UNION) (QueryError).
 * - Cardinality: an element declared (or inheriting) `single` must yield at most one value per
 *   object, one declared (or inheriting) `required` at least one (QueryError). A stored pointer
 *   with its own clauses (`owner: {name} filter ...`) is such an element too.
 *
 * Input: the bound element and what it was written as. Output: nothing; throws with a position.
 */
import type * as ql from '../../syntax';
import { QueryError, SchemaError } from '../../errors';
import type { TypeRef } from '../../model/schema';
import type { IrExpr, IrType } from '../ir';
import type { PointerInfo, SchemaIndex } from '../schema-index';
import { fail } from './context';
import { scalarExtends } from './type-pattern';
import { printIrType } from './types';

/** `property 'name' of object type 'default::User'`, as Gel names a pointer in messages. */
export function describePointer(kind: 'link' | 'property', name: string, owner: string): string {
  return `${kind} '${name}' of object type '${owner}'`;
}

/** `User { name, name }`: the second is refused unless the first came from a splat. */
export function checkDuplicate(
  kind: 'link' | 'property',
  name: string,
  owner: string,
  span: ql.Span,
): never {
  return fail(QueryError, `duplicate definition of ${describePointer(kind, name, owner)}`, span);
}

function typeWord(type: IrType): string {
  if (type.kind === 'object') return `object type '${printIrType(type)}'`;
  if (type.kind === 'scalar') return `scalar type '${printIrType(type)}'`;
  return `'${printIrType(type)}'`;
}

/** Whether a computed element of type `type` may stand for a pointer targeting `target`. */
function fitsTarget(index: SchemaIndex, type: IrType, target: TypeRef): boolean | null {
  if (type.kind === 'empty') return true;
  const objectValue = type.kind === 'object' || type.kind === 'free';
  if (objectValue !== (target.kind === 'object')) return false;
  if (type.kind === 'object' && target.kind === 'object')
    return index.isSubtype(type.name, target.name);
  // Scalars of one line of descent fit either way (`number := 'x'` over a scalar extending str).
  if (type.kind === 'scalar' && target.kind === 'scalar')
    return (
      scalarExtends(index, type.name, target.name) || scalarExtends(index, target.name, type.name)
    );
  // Collections and free objects: not judged here.
  return null;
}

export interface ElementSpec {
  readonly name: string;
  /** The subject's type (the pointer's owner in messages). */
  readonly owner: string;
  /** The subject type's own pointer of that name, if any (null for a new name). */
  readonly base: PointerInfo | null;
  /** True when the element has an expression (`name := ...`). */
  readonly computed: boolean;
  readonly required: boolean | null;
  readonly cardinality: 'single' | 'multi' | null;
  readonly span: ql.Span;
  readonly exprSpan: ql.Span;
}

/**
 * Checks a computed element, or a stored pointer's element with clauses, against the pointer it
 * defines (see the module doc). `expr` is the element's bound value.
 */
export function checkComputedElement(index: SchemaIndex, spec: ElementSpec, expr: IrExpr): void {
  const { base } = spec;
  const kind: 'link' | 'property' =
    expr.type.kind === 'object' || expr.type.kind === 'free' ? 'link' : 'property';
  let single = spec.cardinality === 'single';
  let required = spec.required === true;
  if (base) {
    const baseKind = base.kind === 'link' ? 'link' : 'property';
    const described = describePointer(baseKind, spec.name, spec.owner);
    if (spec.computed && fitsTarget(index, expr.type, base.target) === false) {
      fail(SchemaError, `cannot redefine ${described} as ${typeWord(expr.type)}`, spec.exprSpan);
    }
    const baseCard = base.many ? 'multi' : 'single';
    if (spec.cardinality !== null && spec.cardinality !== baseCard) {
      fail(
        SchemaError,
        `cannot redefine the cardinality of ${baseKind} '${spec.name}': it is defined as '${baseCard}' in the base object type '${spec.owner}'`,
        spec.exprSpan,
      );
    }
    if (spec.required === false && base.required) {
      fail(
        SchemaError,
        `cannot redefine ${baseKind} '${spec.name}' as optional: it is defined as required in the base object type '${spec.owner}'`,
        spec.exprSpan,
      );
    }
    single = !base.many;
    required = spec.required ?? base.required;
  }
  const what = `computed ${kind} '${spec.name}'`;
  if (spec.computed && expr.type.kind === 'object' && mayRepeat(index, expr)) {
    fail(
      QueryError,
      `possibly not a distinct set returned by an expression for a ${what}`,
      spec.exprSpan,
      'use assert_distinct() around the expression to check it when it runs, or distinct to drop repeated objects',
    );
  }
  if (single && expr.card.max === 'many') {
    fail(
      QueryError,
      `possibly more than one element returned by an expression for a ${what} declared as 'single'`,
      spec.exprSpan,
    );
  }
  if (required && expr.card.min === 0) {
    fail(
      QueryError,
      `possibly an empty set returned by an expression for a ${what} declared as 'required'`,
      spec.exprSpan,
    );
  }
}

/**
 * True when `expr` may yield one object twice by Gel's rule for UNION: two or more parts that
 * may be non-empty, whose types share a concrete type, not all of them inserts (each insert makes
 * new objects). Paths, type roots and selects of them are distinct sets; other forms are taken
 * as distinct (Gel may know more, never less, of what repeats).
 */
function mayRepeat(index: SchemaIndex, expr: IrExpr): boolean {
  if (expr.card.max !== 'many') return false;
  switch (expr.kind) {
    case 'Select':
      return mayRepeat(index, expr.subject);
    case 'Shape':
      return mayRepeat(index, expr.subject);
    case 'SetOp':
      // `a except b` repeats what `a` repeats; `a intersect b` what both repeat.
      if (expr.op === 'except') return mayRepeat(index, expr.left);
      if (expr.op === 'intersect')
        return mayRepeat(index, expr.left) && mayRepeat(index, expr.right);
      return unionRepeats(index, expr);
    case 'SetLiteral':
      return unionRepeats(index, expr);
    default:
      return false;
  }
}

/** A union of two or more parts that may be non-empty: see `mayRepeat`. */
function unionRepeats(index: SchemaIndex, expr: IrExpr): boolean {
  const parts = unionParts(expr).filter((p) => p.card.max !== 0);
  if (parts.some((p) => mayRepeat(index, p))) return true;
  if (parts.length < 2 || parts.every((p) => p.kind === 'Insert')) return false;
  const seen = new Set<string>();
  for (const p of parts) {
    if (p.type.kind !== 'object') return false;
    const concrete = index.objectType(p.type.name)?.concrete ?? [];
    if (concrete.some((c) => seen.has(c))) return true;
    for (const c of concrete) seen.add(c);
  }
  return false;
}

/** The operands of a chain of unions (`a union b union c`, `{a, b, c}`). */
function unionParts(expr: IrExpr): IrExpr[] {
  if (expr.kind === 'SetOp' && expr.op === 'union')
    return [...unionParts(expr.left), ...unionParts(expr.right)];
  if (expr.kind === 'SetLiteral') return expr.elements.flatMap(unionParts);
  return [expr];
}
