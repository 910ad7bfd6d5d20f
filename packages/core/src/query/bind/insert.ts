/**
 * bind/insert: `insert T { ... } [unless conflict [on ...] [else ...]]` → an `Insert` node.
 *
 * - an insert of an abstract type is refused; a required pointer with neither a value nor a
 *   default is `MissingRequiredError` at compile time; a default the database cannot apply (on a
 *   multi pointer, or one that reads a query or global: the storage layout's `queryDefault`) is
 *   bound here and written like a value;
 * - a single property of a scalar extending `sequence` takes the sequence's next value (its
 *   domain's default) when the insert gives none, as Gel numbers it;
 * - `unless conflict on .p` needs an exclusive constraint on `p` (or an exclusive constraint on
 *   an expression of it); `else (...)` needs `on`; inside `else`, the inserted type's short name
 *   is the conflicting object.
 * Invariants: pure; errors are QueryError subclasses with the position of the offending node.
 */
import { subjectPointerName } from '../ir';
import type * as ql from '../../syntax';
import {
  InvalidReferenceError,
  InvalidTypeError,
  MissingRequiredError,
  QueryError,
  UnsupportedFeatureError,
} from '../../errors';
import { AT_MOST_ONE, ONE, cardEither, type Binding, type IrExpr } from '../ir';
import type { Conflict, ConflictKey, Insert, MutationElement } from '../ir';
import { OBJECT, type ObjectTypeInfo, type PointerInfo } from '../schema-index';
import { fail, rootScope, unknownName, type BindContext, type Scope } from './context';
import { bindShape } from './shape';
import { bindExpr } from './dispatch';
import { subjectScope } from './names';
import { withScope } from './statement';
import { callsVolatile } from './scoping';
import { isObjectType, printIrType } from './types';
import { isLinkPropertyAssignment } from './link-writes';
import { guardsOf } from './mutation-writes';
import {
  bindElements,
  databaseAppliesDefault,
  element,
  isStored,
  writableType,
} from './mutation-elements';

export function bindInsert(ctx: BindContext, outer: Scope, q: ql.InsertQuery): IrExpr {
  const props = outer.linkWrite ? q.shape.filter(isLinkPropertyAssignment) : [];
  if (props.length === 0) return bindPlainInsert(ctx, outer, q);
  // `insert T { ..., @p := x }` in a link's value: the new object, shaped with its link
  // properties (bound where the insert is, as Gel binds them).
  const rest = q.shape.filter((el) => !isLinkPropertyAssignment(el));
  const inserted = bindPlainInsert(ctx, { ...outer, linkWrite: undefined }, { ...q, shape: rest });
  return bindShape(ctx, outer, inserted, props, q.span);
}

/**
 * A single property of a custom scalar extending `sequence`: its storage domain defaults to the
 * scalar's SEQUENCE (storage/domains), so an insert without a value is numbered by the database.
 */
function sequenceNumbered(ctx: BindContext, pointer: PointerInfo): boolean {
  if (pointer.many || pointer.target.kind !== 'scalar') return false;
  const scalar = ctx.index.scalar(pointer.target.name);
  return (
    scalar !== undefined && scalar.name !== 'std::sequence' && scalar.stdBase === 'std::sequence'
  );
}

function bindPlainInsert(ctx: BindContext, outer: Scope, q: ql.InsertQuery): Insert {
  const scope = withScope(ctx, outer, q.aliases);
  const type = writableType(ctx, scope, q.subject, 'insert into');
  refuseSelfInsertInElse(outer, type.name, q.subject.span);
  if (type.abstract) {
    return fail(
      QueryError,
      `cannot insert into abstract object type '${type.name}'`,
      q.subject.span,
    );
  }
  // Values see the statement's names but no subject: `.x` means nothing in an insert.
  const valueScope: Scope = { ...scope, subject: null, link: null, inserting: type.name };
  const bound = bindElements(ctx, valueScope, type, q.shape, 'insert');
  // A given id (allowed by the compile options) is the row's key, kept apart from the columns.
  const givenId = bound.find((e) => e.pointer.name === 'id');
  const elements = givenId ? bound.filter((e) => e !== givenId) : bound;
  const given = new Set(bound.map((e) => e.pointer.name));
  // A default of a pointer `unless conflict` compares is bound here (its value is needed for
  // the conflict check before the row is written), not left to the database.
  const conflictKeys = conflictKeyNames(type, q.unlessConflict);
  const defaults: MutationElement[] = [];
  for (const pointer of type.pointers.values()) {
    if (given.has(pointer.name) || !isStored(pointer)) continue;
    const dflt = pointer.model?.default ?? null;
    if (dflt === null) {
      if (pointer.required && !sequenceNumbered(ctx, pointer)) {
        fail(
          MissingRequiredError,
          `missing value for required ${pointer.kind} '${type.name}.${pointer.name}'`,
          q.span,
        );
      }
      continue;
    }
    if (
      !pointer.many &&
      !conflictKeys.has(pointer.name) &&
      databaseAppliesDefault(ctx, type.name, pointer.name)
    )
      continue;
    const module = pointer.declaredIn.slice(0, pointer.declaredIn.lastIndexOf('::'));
    const value = bindExpr(ctx, rootScope(module), dflt);
    defaults.push(element(ctx, type, pointer, ':=', value, [], null, q.span));
  }
  const pathId = `insert~${ctx.freshId()}${scope.namespace}`;
  const conflict = q.unlessConflict
    ? bindConflict(ctx, scope, type, q.subject, q.unlessConflict, [...elements, ...defaults])
    : null;
  const card =
    conflict === null
      ? ONE
      : conflict.else
        ? // Under access policies the object the `else` reads may be one the caller cannot
          // see: none (Gel's inference, for a type with policies).
          cardEither(
            ctx.policies && hasPolicies(ctx, type.name) ? AT_MOST_ONE : ONE,
            conflict.else.card,
          )
        : AT_MOST_ONE;
  // With `else`, the answer is the new object or the else clause's: the union of their types.
  const elseType = conflict?.else?.type;
  const resultType =
    elseType?.kind === 'object' ? ctx.index.unionOf([type.name, elseType.name]) : type.name;
  return {
    kind: 'Insert',
    type: { kind: 'object', name: resultType },
    card,
    pathId,
    objectType: type.name,
    elements: [...elements, ...defaults],
    conflict,
    ...(givenId ? { id: givenId.value } : {}),
    ...guardsOf(scope),
  };
}

/** True when a concrete type of `type` has access policies. */
function hasPolicies(ctx: BindContext, type: string): boolean {
  return (ctx.index.objectType(type)?.concrete ?? []).some(
    (c) => (ctx.index.objectType(c)?.model?.policies.length ?? 0) > 0,
  );
}

function bindConflict(
  ctx: BindContext,
  scope: Scope,
  type: ObjectTypeInfo,
  subject: ql.ObjectRef,
  clause: ql.UnlessConflict,
  elements: readonly MutationElement[],
): Conflict {
  const conflictPathId = `conflict~${ctx.freshId()}${scope.namespace}`;
  const keyOf = (pointer: PointerInfo, constraint: ExpressionConstraint): ConflictKey | null => {
    const given = elements.find((e) => e.pointer.name === pointer.name);
    if (!given) return null;
    // The key of a constraint on an expression is computed apart from the stored value: a
    // volatile value (`random()`) would be checked with another value than the one written
    // (Gel refuses volatile conflict keys; a plain exclusive pointer compares the stored value).
    if (callsVolatile(given.value)) {
      return fail(
        UnsupportedFeatureError,
        'INSERT UNLESS CONFLICT ON does not support volatile properties',
        clause.on?.span ?? subject.span,
      );
    }
    return conflictKey(ctx, pointer, constraint, given.value);
  };
  // An exclusive computed pointer (`name := .first ++ .last`): its expression over an existing
  // object against the same expression over the inserted values (a row of them, `row`), as
  // Gel compiles the conflict select over the insert's shape.
  const computedKey = (owner: string, pointer: PointerInfo): ConflictKey | null => {
    if (elements.some((e) => !e.pointer.many && callsVolatile(e.value))) {
      return fail(
        UnsupportedFeatureError,
        'INSERT UNLESS CONFLICT ON does not support volatile properties',
        clause.on?.span ?? subject.span,
      );
    }
    const module = owner.slice(0, owner.lastIndexOf('::'));
    const path = (root: IrExpr): IrExpr =>
      bindExpr(ctx, subjectScope(rootScope(module), root, null), {
        kind: 'Path',
        subject: null,
        steps: [{ kind: 'Ptr', name: pointer.name, via: '.', span: subject.span }],
        span: subject.span,
      });
    const rootOf = (name: string, pathId: string): IrExpr => ({
      kind: 'TypeRoot',
      type: { kind: 'object', name },
      card: ONE,
      objectType: name,
      pathId,
    });
    const pathId = `conflict-key~${ctx.freshId()}`;
    const row = `conflict-row~${ctx.freshId()}`;
    return {
      existing: path(rootOf(owner, pathId)),
      pathId,
      fresh: path(rootOf(type.name, row)),
      owner,
      row,
    };
  };
  if (clause.on === null) {
    if (clause.elseExpr !== null) {
      return fail(QueryError, '`unless conflict ... else` needs `on`', clause.elseExpr.span);
    }
    const keys = [...type.pointers.values()]
      .filter((p) => !p.many)
      .flatMap((p) => [
        ...expressionConstraints(p).map((c) => keyOf(p, c)),
        ...computedConstraints(p).map((c) => computedKey(c.declaredIn, p)),
      ])
      .filter((k): k is ConflictKey => k !== null);
    return { on: null, owner: null, else: null, conflictPathId, ...(keys.length ? { keys } : {}) };
  }
  const { pointers: on, owner, constraint } = conflictPointers(type, clause.on);
  const onComputed = on.length === 1 && (on[0] as PointerInfo).computed !== null;
  const key = constraint
    ? keyOf(on[0] as PointerInfo, constraint)
    : onComputed
      ? computedKey(owner, on[0] as PointerInfo)
      : null;
  const keys = constraint || onComputed ? { keys: key ? [key] : [] } : {};
  let elseExpr: IrExpr | null = null;
  if (clause.elseExpr !== null) {
    // Inside `else`, the inserted type's name is the conflicting object.
    const root: IrExpr = {
      kind: 'TypeRoot',
      type: { kind: 'object', name: type.name },
      card: ONE,
      objectType: type.name,
      pathId: conflictPathId,
    };
    const binding: Binding = {
      id: ctx.freshId(),
      name: subject.name,
      expr: root,
      iteration: false,
    };
    const elseScope: Scope = {
      ...scope,
      names: new Map([...scope.names, [subject.name, binding]]),
      conflictElse: { type: type.name, namespace: scope.namespace, binding },
    };
    elseExpr = bindExpr(ctx, elseScope, clause.elseExpr);
    if (!isObjectType(elseExpr.type)) {
      return fail(
        InvalidTypeError,
        `the else clause of an insert must yield objects, not '${printIrType(elseExpr.type)}'`,
        clause.elseExpr.span,
      );
    }
  }
  return { on, owner, else: elseExpr, conflictPathId, ...keys };
}

/** An insert of `type` directly inside the `else` of an insert of the same type (Gel refuses
 * it; `detached (insert T ...)` inserts independently). */
function refuseSelfInsertInElse(scope: Scope, type: string, span: ql.Span): void {
  const inElse = scope.conflictElse;
  if (inElse && inElse.type === type && inElse.namespace === scope.namespace) {
    fail(
      QueryError,
      `invalid reference to ${type}: self-referencing INSERTs are not allowed`,
      span,
      `use DETACHED if you meant to refer to an uncorrelated ${type} set`,
    );
  }
}

type ExpressionConstraint = NonNullable<PointerInfo['model']>['constraints'][number];

/** A computed pointer's plain exclusive constraints. */
function computedConstraints(pointer: PointerInfo): ExpressionConstraint[] {
  if (pointer.computed === null) return [];
  return (pointer.model?.constraints ?? []).filter(
    (c) => c.name === 'std::exclusive' && c.except === null && c.subjectExpr === null,
  );
}

/** A pointer's exclusive constraints on an expression of its value. */
function expressionConstraints(pointer: PointerInfo): ExpressionConstraint[] {
  return (pointer.model?.constraints ?? []).filter(
    (c) => c.name === 'std::exclusive' && c.except === null && c.subjectExpr !== null,
  );
}

/** The constraint's expression bound over an existing object's value of the pointer and over
 * the inserted value (`__subject__` each). */
function conflictKey(
  ctx: BindContext,
  pointer: PointerInfo,
  constraint: ExpressionConstraint,
  value: IrExpr,
): ConflictKey {
  const owner = constraint.declaredIn;
  const module = owner.slice(0, owner.lastIndexOf('::'));
  const pathId = `conflict-key~${ctx.freshId()}`;
  const root: IrExpr = {
    kind: 'TypeRoot',
    type: { kind: 'object', name: owner },
    card: ONE,
    objectType: owner,
    pathId,
  };
  const step: IrExpr = {
    kind: 'PointerStep',
    type: pointer.target,
    card: AT_MOST_ONE,
    source: root,
    sourceType: owner,
    pointer,
    computed: null,
    pathId: `${pathId}.${pointer.name}`,
  };
  const subjectExpr = constraint.subjectExpr as ql.Expr;
  const existing = bindExpr(ctx, subjectScope(rootScope(module), step, null), subjectExpr);
  const fresh = bindExpr(ctx, { ...rootScope(module), subject: value }, subjectExpr);
  return { existing, pathId, fresh, owner };
}

/**
 * `on .p` → [p] when `p` is exclusive (or `id`); `on (.a, .b)` → [a, b] when the type (or an
 * ancestor) has `constraint exclusive on ((.a, .b))`. Also the type declaring the constraint.
 */
function conflictPointers(
  type: ObjectTypeInfo,
  on: ql.Expr,
): {
  pointers: PointerInfo[];
  owner: string;
  constraint?: ExpressionConstraint;
} {
  const isTuple = on.kind === 'TupleLiteral';
  const parts = isTuple ? on.elements : [on];
  const names = parts.map((part) => subjectPointerName(part));
  if (names.some((n) => n === null)) {
    return fail(
      QueryError,
      '`unless conflict on` takes a property or link of the inserted type (`on .name`) or a tuple of them (`on (.a, .b)`)',
      on.span,
    );
  }
  const pointers = (names as string[]).map((name) => {
    const pointer = type.pointers.get(name);
    if (!pointer) return unknownName('link or property', name, on.span);
    // A multi pointer conflicts when any of its values does (alone, not in a tuple).
    if (pointer.many && isTuple)
      return fail(
        QueryError,
        `'${type.name}.${name}' is multi: \`unless conflict on\` a tuple needs single pointers`,
        on.span,
      );
    return pointer;
  });
  const plainExclusive = (c: { name: string; except: unknown }) =>
    c.name === 'std::exclusive' && c.except === null;
  if (!isTuple) {
    const pointer = pointers[0] as PointerInfo;
    const constraint = (pointer.model?.constraints ?? []).find(
      (c) => plainExclusive(c) && c.subjectExpr === null,
    );
    // Ids are unique among the objects of every type.
    if (pointer.name === 'id') return { pointers, owner: OBJECT };
    if (constraint) return { pointers, owner: constraint.declaredIn };
    const [onExpression] = expressionConstraints(pointer);
    if (onExpression)
      return {
        pointers,
        owner: onExpression.declaredIn,
        constraint: onExpression,
      };
  }
  // A type-level `exclusive on (...)` over exactly these pointers.
  const wanted = JSON.stringify([...(names as string[])].sort());
  const typeLevel = (type.model?.constraints ?? []).find((c) => {
    if (!plainExclusive(c) || c.subjectExpr === null) return false;
    const subject = c.subjectExpr;
    const elements = subject.kind === 'TupleLiteral' ? subject.elements : [subject];
    const found = elements.map((e) => subjectPointerName(e));
    return !found.includes(null) && JSON.stringify([...(found as string[])].sort()) === wanted;
  });
  if (!typeLevel) {
    return fail(
      InvalidReferenceError,
      `'${type.name}' has no exclusive constraint on ${isTuple ? `(${names.map((n) => `.${n}`).join(', ')})` : `'${names[0]}'`}: \`unless conflict on\` needs one`,
      on.span,
    );
  }
  return { pointers, owner: typeLevel.declaredIn };
}

/** The pointers an `unless conflict` clause may compare: the ones `on` names, or every pointer
 * with an exclusive constraint. */
function conflictKeyNames(
  type: ObjectTypeInfo,
  clause: ql.UnlessConflict | null,
): ReadonlySet<string> {
  if (clause === null) return new Set();
  if (clause.on !== null) {
    const parts = clause.on.kind === 'TupleLiteral' ? clause.on.elements : [clause.on];
    return new Set(parts.map(subjectPointerName).filter((n): n is string => n !== null));
  }
  return new Set(
    [...type.pointers.values()]
      .filter((p) => (p.model?.constraints ?? []).some((c) => c.name === 'std::exclusive'))
      .map((p) => p.name),
  );
}
