/**
 * bind/union-check: the static checks Gel makes when it builds a union or an intersection type
 * (`A union B`, `{A, B}`, `A | B`, `A[is B].p`), on the pointers the new type would have.
 *
 * A union type has every pointer all its members have (Gel's union pointers). Where the members'
 * versions of one pointer differ (declared separately on each, not inherited from one base):
 * - a computed version (a schema computed, or a shape's `name := expr` on a member that is a
 *   view, or a free object's element) may not mix with other versions: SchemaError;
 * - the versions' targets must have a common type (scalars implicitly convertible to one type,
 *   or all object types), and so must the link properties all the links share: SchemaError.
 * An intersection's pointer read through `[is T].p` mixes the parts' versions the same way: a
 * computed version, or versions of different cardinality, are a SchemaError.
 * Input: the schema index, the members (or the bound operands, for views); output: nothing, or
 * the error thrown at the union's position. Pure.
 */
import type * as ql from '../../syntax';
import { SchemaError } from '../../errors';
import { printTypeRef, type TypeRef } from '../../model/schema';
import { commonType } from '../../std/casts';
import type { IrExpr } from '../ir';
import type { PointerInfo, SchemaIndex } from '../schema-index';
import { typeEnv } from '../ir';
import { type BindContext, fail } from './context';
import { shapeChain, shapeOf } from './views';

/** Two versions of a pointer are one when inherited from the same declaration. */
function samePointer(a: PointerInfo, b: PointerInfo): boolean {
  return (
    a === b || (a.declaredIn === b.declaredIn && printTypeRef(a.target) === printTypeRef(b.target))
  );
}

/** The distinct versions among `pointers` (inherited copies of one declaration count once). */
function versionsOf(pointers: readonly PointerInfo[]): PointerInfo[] {
  const out: PointerInfo[] = [];
  for (const p of pointers) if (!out.some((o) => samePointer(o, p))) out.push(p);
  return out;
}

const mixingComputed = (op: 'union' | 'intersection', kind: string, name: string): string =>
  `it is illegal to create a type ${op} that causes a computed ${kind} '${name}' to mix with other versions of the same ${kind} '${name}'`;

/** Whether `types` have a common type a union's pointer could have (Gel's union of targets). */
function compatible(index: SchemaIndex, types: readonly TypeRef[]): boolean {
  if (types.every((t) => t.kind === 'object')) return true;
  if (types.some((t) => t.kind === 'object')) return false;
  return commonType(types, typeEnv(index)) !== null;
}

/** Why versions of one pointer cannot be one pointer of a union, or null. */
function pointerConflict(index: SchemaIndex, versions: readonly PointerInfo[]): string | null {
  const [first] = versions;
  if (!first || versions.length < 2 || first.name === '__type__') return null;
  const what = `${first.kind} '${first.name}'`;
  if (versions.some((v) => v.computed !== null))
    return mixingComputed('union', first.kind, first.name);
  if (
    versions.some((v) => v.kind !== first.kind) ||
    !compatible(
      index,
      versions.map((v) => v.target),
    )
  )
    return `with ${what} using incompatible types ${typeList(versions.map((v) => v.target))}`;
  if (first.kind !== 'link') return null;
  for (const [name, prop] of first.properties) {
    const props = versions.map((v) => v.properties.get(name));
    if (props.some((p) => p === undefined)) continue;
    const targets = (props as PointerInfo[]).map((p) => p.target);
    if (!compatible(index, targets))
      return `with ${what} with property '${prop.name}' using incompatible types ${typeList(targets)}`;
  }
  return null;
}

const typeList = (types: readonly TypeRef[]): string =>
  [...new Set(types.map((t) => printTypeRef(t)))].sort().join(', ');

/**
 * The union type `name` (as the index names it) must be one Gel can build: throws SchemaError
 * naming the first pointer its members have in incompatible versions.
 */
export function checkUnionType(index: SchemaIndex, name: string, span: ql.Span | null): void {
  const members = index.membersOf(name);
  if (members.length < 2) return;
  const infos = members.map((m) => index.objectType(m));
  if (infos.some((i) => i === undefined)) return;
  const [first, ...rest] = infos as NonNullable<(typeof infos)[number]>[];
  for (const [pname, p] of (first as NonNullable<typeof first>).pointers) {
    const others = rest.map((t) => t.pointers.get(pname));
    if (others.some((o) => o === undefined)) continue;
    const problem = pointerConflict(index, versionsOf([p, ...(others as PointerInfo[])]));
    if (problem) fail(SchemaError, `cannot create union (${members.join(' | ')}) ${problem}`, span);
  }
}

/** A version of a pointer as one operand of a union has it: a view's element, or the schema's. */
type Version =
  | { readonly kind: 'view'; readonly id: object }
  | { readonly kind: 'schema'; readonly pointer: PointerInfo };

/** The computed elements the shapes an operand carries define (nearest shape first), by name. */
function viewVersions(ctx: BindContext, expr: IrExpr): Map<string, object> {
  const out = new Map<string, object>();
  for (const shape of shapeChain(shapeOf(expr))) {
    for (const [name, view] of ctx.viewElements.get(shape) ?? []) {
      if (view.element.compExpr && !out.has(name)) out.set(name, view.element);
    }
  }
  return out;
}

/** The free object an operand makes (through names and selects), if it is one literal. */
function freeObjectOf(expr: IrExpr): Extract<IrExpr, { kind: 'FreeObject' }> | null {
  switch (expr.kind) {
    case 'FreeObject':
      return expr;
    case 'BindingRef':
      return freeObjectOf(expr.binding.expr);
    case 'Select':
      return freeObjectOf(expr.result);
    case 'Shape':
      return freeObjectOf(expr.subject);
    default:
      return null;
  }
}

/**
 * The operands of one union (`a union b`, `{a, b, ...}`) must not mix a computed element of a
 * view or a free object with other versions of it (`{Issue {number := 'foo'}, Issue}.number`,
 * `{{z := 1}, {z := 2}}`): SchemaError at `span`.
 */
export function checkUnionOperands(
  ctx: BindContext,
  operands: readonly IrExpr[],
  span: ql.Span | null,
): void {
  if (operands.length < 2) return;
  if (operands.every((o) => o.type.kind === 'free')) {
    const objects = operands.map(freeObjectOf);
    if (objects.some((o) => o === null)) return;
    const distinct = [...new Set(objects)] as Extract<IrExpr, { kind: 'FreeObject' }>[];
    const [first, ...rest] = distinct;
    if (!first || rest.length === 0) return;
    for (const el of first.elements) {
      if (rest.every((o) => o.elements.some((e) => e.name === el.name)))
        fail(SchemaError, mixingComputed('union', 'property', el.name), span);
    }
    return;
  }
  if (!operands.every((o) => o.type.kind === 'object')) return;
  const views = operands.map((o) => viewVersions(ctx, o));
  if (views.every((v) => v.size === 0)) return;
  const versionOf = (i: number, name: string): Version | null => {
    const view = views[i]?.get(name);
    if (view) return { kind: 'view', id: view };
    const type = (operands[i] as IrExpr).type as { name: string };
    const pointer = ctx.index.objectType(type.name)?.pointers.get(name);
    return pointer ? { kind: 'schema', pointer } : null;
  };
  const names = new Set(views.flatMap((v) => [...v.keys()]));
  for (const name of names) {
    const versions = operands.map((_, i) => versionOf(i, name));
    if (versions.some((v) => v === null)) continue;
    const all = versions as Version[];
    const same = (a: Version, b: Version) =>
      a.kind === 'view'
        ? b.kind === 'view' && a.id === b.id
        : b.kind === 'schema' && samePointer(a.pointer, b.pointer);
    if (all.every((v) => same(v, all[0] as Version))) continue;
    const schemaKind = all.find((v) => v.kind === 'schema') as
      | Extract<Version, { kind: 'schema' }>
      | undefined;
    fail(SchemaError, mixingComputed('union', schemaKind?.pointer.kind ?? 'property', name), span);
  }
}

/**
 * `pointer` read on the intersection type `typeName` (`A[is B].p`): the parts' versions of it
 * must not mix a computed one with others, nor differ in cardinality (Gel's intersection
 * pointers): SchemaError at `span`.
 */
export function checkIntersectionPointer(
  index: SchemaIndex,
  typeName: string,
  pointer: string,
  span: ql.Span | null,
): void {
  for (const member of index.membersOf(typeName)) {
    const parts = member.split(' & ');
    if (parts.length < 2) continue;
    const found = parts
      .map((p) => index.objectType(p)?.pointers.get(pointer))
      .filter((p): p is PointerInfo => p !== undefined);
    const versions = versionsOf(found);
    const [first] = versions;
    if (!first || versions.length < 2 || pointer === '__type__') continue;
    if (versions.some((v) => v.computed !== null))
      fail(SchemaError, mixingComputed('intersection', first.kind, pointer), span);
    if (versions.some((v) => v.many !== first.many)) {
      fail(
        SchemaError,
        `it is illegal to create a type intersection that causes a ${first.kind} '${pointer}' to mix with other versions of ${first.kind} '${pointer}' which have a different cardinality`,
        span,
      );
    }
  }
}
