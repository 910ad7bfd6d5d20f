/**
 * bind/mutation-elements: the `name := value` elements of an insert's or update's shape.
 *
 * - only stored pointers are written; `id`, `__type__`, computed and (in an update) readonly
 *   pointers are refused; a pointer is written once per statement;
 * - a property's value is cast to its type when std allows the cast on assignment; a link's value
 *   must be objects of its target type; a single pointer's value must be provably at most one
 *   element (also when it comes from a `with` binding) — a compile error otherwise;
 * - `+=` / `-=` only in an update and only on multi pointers;
 * - `__default__` in an element's value is the pointer's (or link property's) default
 *   (bind/dunder-default); `[]` takes the property's array type.
 * Link properties written with a link's targets are bind/link-writes.
 */
import type * as ql from '../../syntax';
import {
  InvalidLinkTargetError,
  InvalidPropertyTargetError,
  InvalidTypeError,
  MissingRequiredError,
  QueryCardinalityError,
  QueryError,
} from '../../errors';
import type { TypeRef } from '../../model/schema';
import { storageLayout } from '../../storage/layout';
import { resolveCast } from '../../std';
import type { IrExpr } from '../ir';
import type { MutationElement } from '../ir';
import type { ObjectTypeInfo, PointerInfo } from '../schema-index';
import { typeEnv } from '../ir';
import { bindCast } from './calls';
import { fail, rootScope, unknownName, type BindContext, type Scope } from './context';
import { bindExpr } from './dispatch';
import { emptyArrayOf } from './operators';
import { bindStep } from './paths';
import { elementScope } from './dunder-default';
import { isObjectType, lookupSchemaName, printIrType } from './types';
import { bindValueParts, hasLinkProperties } from './link-writes';

/** The hint of the error for a single pointer given a value that may be more than one. */
export const SINGLE_VALUE_HINT =
  'filter on .id or an exclusive property, add `limit 1`, or use assert_single(...)';

export function bindElements(
  ctx: BindContext,
  scope: Scope,
  type: ObjectTypeInfo,
  shape: readonly ql.ShapeElement[],
  verb: 'insert' | 'update',
): MutationElement[] {
  const out: MutationElement[] = [];
  if (scope.linkWrite) scope = { ...scope, linkWrite: undefined };
  for (const el of shape) {
    const [step, ...rest] = el.path;
    if (
      !step ||
      step.kind !== 'Ptr' ||
      step.via !== '.' ||
      rest.length > 0 ||
      el.compExpr === null
    ) {
      return fail(
        QueryError,
        `an ${verb} shape assigns pointers: write \`name := value\``,
        el.span,
      );
    }
    if (el.elements !== null || el.filter || el.orderBy.length || el.offset || el.limit) {
      return fail(
        QueryError,
        `an ${verb} shape element is \`name := value\`, without a sub-shape or clauses`,
        el.span,
      );
    }
    const pointer = type.pointers.get(step.name);
    if (!pointer) {
      return unknownName(
        'link or property',
        step.name,
        step.span,
        `'${type.name}' has no such pointer`,
      );
    }
    // An object's id is the database's to choose, unless the caller may give it on insert
    // (Gel's `allow_user_specified_id`; svc's allowUserSpecifiedId option).
    const givenId = pointer.name === 'id' && verb === 'insert' && ctx.userSpecifiedId;
    if (pointer.name === 'id' && !givenId) {
      return fail(
        QueryError,
        `cannot assign to property 'id'`,
        step.span,
        verb === 'insert'
          ? "the server chooses every new object's id; to give your own, turn on the server setting allowUserSpecifiedId (SVC_ALLOW_USER_SPECIFIED_ID; Gel: allow_user_specified_id)"
          : undefined,
      );
    }
    if (!givenId && (pointer.name === '__type__' || pointer.model === null)) {
      return fail(QueryError, `cannot assign to '${pointer.name}'`, step.span);
    }
    if (pointer.computed) {
      return fail(
        QueryError,
        `cannot assign to computed ${pointer.kind} '${type.name}.${pointer.name}'`,
        step.span,
      );
    }
    if (verb === 'update' && pointer.model?.readonly) {
      return fail(
        QueryError,
        `cannot update read-only ${pointer.kind} '${type.name}.${pointer.name}'`,
        step.span,
      );
    }
    if (out.some((e) => e.pointer.name === pointer.name)) {
      return fail(QueryError, `'${pointer.name}' is assigned twice`, step.span);
    }
    // A union's pointer that is single on some members and multi on others is read as multi
    // (schema-index `sharedPointer`); each member stores it its own way, so it is written per
    // member type.
    const mixed = type.concrete.filter(
      (c) =>
        (ctx.index.objectType(c)?.pointers.get(pointer.name)?.many ?? pointer.many) !==
        pointer.many,
    );
    if (mixed.length > 0) {
      return fail(
        QueryError,
        `cannot ${verb} ${pointer.kind} '${pointer.name}' of '${type.name}': it is single on ${mixed.join(', ')} and multi on other members`,
        step.span,
        `${verb} each member type on its own`,
      );
    }
    const op = el.operation ?? ':=';
    const valueScope = elementScope(ctx, scope, pointer, el.compExpr);
    if (op === '-=' && verb === 'update' && !pointer.many && scope.subject) {
      out.push(subtractFromSingle(ctx, valueScope, type, pointer, step, el.compExpr));
      continue;
    }
    if (op !== ':=' && (verb === 'insert' || !pointer.many)) {
      return fail(
        QueryError,
        verb === 'insert'
          ? `'${op}' is only allowed in an update`
          : `'${op}' applies to multi pointers; '${pointer.name}' is single: use ':='`,
        el.span,
      );
    }
    if (!hasLinkProperties(el.compExpr)) {
      // `[]` takes the property's array type.
      const value =
        emptyArrayOf(el.compExpr, pointer.target) ?? bindExpr(ctx, valueScope, el.compExpr);
      out.push(element(ctx, type, pointer, op, value, [], null, el.compExpr.span));
      continue;
    }
    if (pointer.kind !== 'link') {
      return fail(
        QueryError,
        `'${pointer.name}' is a property: it has no link properties`,
        el.span,
      );
    }
    const { value, linkProperties, parts } = bindValueParts(ctx, valueScope, pointer, el.compExpr);
    out.push(element(ctx, type, pointer, op, value, linkProperties, parts, el.compExpr.span));
  }
  return out;
}

/** The value of a link property a part of the value does not give (another part does): its
 * default, as the database would apply it to a row written without it; null (NULL) without one. */
export function linkPropertyDefault(
  ctx: BindContext,
  pointer: PointerInfo,
  property: PointerInfo,
  span: ql.Span,
): IrExpr | null {
  const dflt = property.model?.default ?? null;
  if (dflt === null) return null;
  const module = pointer.declaredIn.slice(0, pointer.declaredIn.lastIndexOf('::'));
  return conform(
    ctx,
    property,
    bindExpr(ctx, rootScope(module), dflt),
    `${pointer.name}@${property.name}`,
    span,
  );
}

export function element(
  ctx: BindContext,
  type: ObjectTypeInfo,
  pointer: PointerInfo,
  op: MutationElement['op'],
  value: IrExpr,
  linkProperties: MutationElement['linkProperties'],
  parts: MutationElement['parts'],
  span: ql.Span,
): MutationElement {
  const conformed = conform(ctx, pointer, value, `${type.name}.${pointer.name}`, span);
  if (op === ':=' && pointer.required && conformed.card.max === 0) {
    fail(
      MissingRequiredError,
      `missing value for required ${pointer.kind} '${type.name}.${pointer.name}'`,
      span,
    );
  }
  return { pointer, op, value: conformed, linkProperties, parts };
}

/**
 * `p -= v` on a single pointer (Gel): `p` becomes empty when its value is among `v`, else stays;
 * written as `p := .p except v`.
 */
function subtractFromSingle(
  ctx: BindContext,
  scope: Scope,
  type: ObjectTypeInfo,
  pointer: PointerInfo,
  step: ql.Ptr,
  node: ql.Expr,
): MutationElement {
  const value = bindExpr(ctx, scope, node);
  const current = bindStep(ctx, scope, scope.subject as IrExpr, step);
  const remaining: IrExpr = {
    kind: 'SetOp',
    op: 'except',
    type: current.type,
    card: { min: 0, max: current.card.max === 0 ? 0 : 1 },
    left: current,
    right: conform(
      ctx,
      { ...pointer, many: true },
      value,
      `${type.name}.${pointer.name}`,
      node.span,
    ),
  };
  return element(ctx, type, pointer, ':=', remaining, [], null, node.span);
}

/** The value as the pointer's type (cast where std allows it on assignment), checked to be at
 * most one element for a single pointer. */
export function conform(
  ctx: BindContext,
  pointer: PointerInfo,
  value: IrExpr,
  what: string,
  span: ql.Span,
): IrExpr {
  const target = pointer.target;
  let out = value;
  if (value.type.kind !== 'empty') {
    if (pointer.kind === 'link' || target.kind === 'object') {
      const ok =
        isObjectType(value.type) &&
        target.kind === 'object' &&
        (!ctx.index.objectType(target.name) || ctx.index.isSubtype(value.type.name, target.name));
      if (!ok) {
        return fail(
          InvalidLinkTargetError,
          `invalid target for '${what}': '${printIrType(value.type)}' (expecting '${printIrType(target)}')`,
          span,
        );
      }
    } else if (!sameTypeRef(value.type, target)) {
      if (value.type.kind === 'free' || value.type.kind === 'object') {
        return fail(
          InvalidPropertyTargetError,
          `invalid value for '${what}': '${printIrType(value.type)}' (expecting '${printIrType(target)}')`,
          span,
        );
      }
      const from = value.type;
      let allowed = false;
      try {
        allowed = resolveCast(from, target, typeEnv(ctx.index)).assignment;
      } catch (error) {
        // No cast at all: the same refusal as a cast not allowed on assignment.
        if (!(error instanceof QueryError)) throw error;
      }
      if (!allowed) {
        return fail(
          InvalidPropertyTargetError,
          `invalid value for '${what}': '${printIrType(value.type)}' (expecting '${printIrType(target)}')`,
          span,
        );
      }
      out = bindCast(ctx, value, target, span);
    }
  } else {
    out = bindCast(ctx, value, target, span);
  }
  if (!pointer.many && out.card.max === 'many') {
    fail(
      QueryCardinalityError,
      `possibly more than one element for single ${pointer.kind} '${what}'`,
      span,
      SINGLE_VALUE_HINT,
    );
  }
  return out;
}

export function writableType(
  ctx: BindContext,
  scope: Scope,
  ref: ql.ObjectRef,
  verb: string,
): ObjectTypeInfo {
  const found = lookupSchemaName(ctx.index, scope, ref);
  const shown = ref.module ? `${ref.module}::${ref.name}` : ref.name;
  if (!found) return unknownName('object type', shown, ref.span);
  const info = found.kind === 'object' ? ctx.index.objectType(found.name) : undefined;
  if (!info)
    return fail(InvalidTypeError, `cannot ${verb} '${found.name}': not an object type`, ref.span);
  if (info.model === null) return fail(QueryError, `cannot ${verb} '${info.name}'`, ref.span);
  return info;
}

export function isStored(pointer: PointerInfo): boolean {
  return (
    pointer.model !== null &&
    pointer.computed === null &&
    pointer.name !== 'id' &&
    pointer.name !== '__type__'
  );
}

/** True when the concrete type's table has a column default for the pointer (so an insert that
 * leaves the column out gets it from PostgreSQL). */
export function databaseAppliesDefault(ctx: BindContext, type: string, pointer: string): boolean {
  const table = storageLayout(ctx.index.schema).tables.find((t) => t.type === type);
  const column = table?.columns.find((c) => c.pointer === pointer);
  return column !== undefined && column.column.default !== null && !column.queryDefault;
}

function sameTypeRef(a: unknown, b: TypeRef): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
