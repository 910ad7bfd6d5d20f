/**
 * bind/mutation: `insert`, `update` and `delete` → IR (query/ir).
 *
 * Input: the statement's syntax, the BindContext and Scope. Output: an `Insert`, `Update` or
 * `Delete` node: the set of objects it writes.
 * Rules (Gel's, and the spec's Versioning items):
 * - only stored pointers are written; `id`, `__type__`, computed and (in an update) readonly
 *   pointers are refused; a pointer is written once per statement;
 * - a property's value is cast to its type when std allows the cast on assignment; a link's value
 *   must be objects of its target type; a single pointer's value must be provably at most one
 *   element (item 20: also when it comes from a `with` binding) — a compile error otherwise;
 * - `+=` / `-=` only in an update and only on multi pointers;
 * - an insert of an abstract type is refused; a required pointer with neither a value nor a
 *   default is `MissingRequiredError` at compile time; a default the database cannot apply (on a
 *   multi pointer, or one that reads a query or global: the storage layout's `queryDefault`) is
 *   bound here and written like a value;
 * - link properties are written as `@p := expr` in the value's shape
 *   (`tags := (select Tag { @weight := 1 } filter ...)`), each bound with one target as `.`; each
 *   element of a set literal or union, and each branch of an if/else, carries its own (the value's
 *   parts, query/ir `ValuePart`); `@p := x` anywhere else in the value (a `for` body, a
 *   function argument, a nested insert's shape) rides on the value's own shapes and goes with
 *   each element the value yields (a carried part); an unknown property is InvalidReferenceError;
 * - `__default__` in an element's value is the pointer's (or link property's) default
 *   (bind/dunder-default); `[]` takes the property's array type;
 * - `unless conflict on .p` needs an exclusive constraint on `p`; `else (...)` needs `on`; inside
 *   `else`, the inserted type's short name is the conflicting object.
 * Invariants: pure; errors are QueryError subclasses with the position of the offending node.
 */
import { pathIdOf, rootKeyOf, subjectPointerName } from '../ir';
import type * as ql from '../../syntax';
import {
  InvalidLinkTargetError,
  InvalidPropertyTargetError,
  InvalidReferenceError,
  InvalidTypeError,
  MissingRequiredError,
  QueryCardinalityError,
  QueryError,
} from '../../errors';
import type { TypeRef } from '../../schema/model';
import { storageLayout } from '../../schema/storage/layout';
import { resolveCast } from '../../std';
import {
  AT_MOST_ONE,
  EMPTY,
  ONE,
  cardEither,
  cardProduct,
  cardUnion,
  type Binding,
  type BindingRef,
  type Card,
  type IrExpr,
  type IrType,
} from '../ir';
import type {
  Conflict,
  ConflictKey,
  Delete,
  Guard,
  Insert,
  MutationElement,
  Update,
  ValuePart,
} from '../ir';
import { containsMutation } from '../ir';
import type { ObjectTypeInfo, PointerInfo } from '../schema-index';
import { isCatalogueType } from '../schema-index/catalogue';
import { typeEnv } from '../ir';
import { bindCast } from './calls';
import { fail, rootScope, unknownName, type BindContext, type Scope } from './context';
import { bindShape } from './shape';
import { bindExpr } from './dispatch';
import { bindingRef, subjectScope, withPathId } from './names';
import { emptyArrayOf, unifyTypes } from './operators';
import { bindStep } from './paths';
import { elementScope } from './dunder-default';
import { selectOver, withScope } from './statement';
import { isObjectType, lookupSchemaName, printIrType } from './types';

const ITEM_20_HINT =
  'filter on .id or an exclusive property, add `limit 1`, or use assert_single(...)';

export function bindMutation(
  ctx: BindContext,
  scope: Scope,
  node: ql.InsertQuery | ql.UpdateQuery | ql.DeleteQuery,
): IrExpr {
  if (ctx.mode !== 'query') {
    return fail(QueryError, 'a schema expression cannot insert, update or delete', node.span);
  }
  switch (node.kind) {
    case 'InsertQuery':
      return bindInsert(ctx, scope, node);
    case 'UpdateQuery':
      return bindUpdate(ctx, scope, node);
    case 'DeleteQuery':
      return bindDelete(ctx, scope, node);
  }
}

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

// ---------------------------------------------------------------------------------------------
// insert

function bindInsert(ctx: BindContext, outer: Scope, q: ql.InsertQuery): IrExpr {
  const props = outer.linkWrite ? q.shape.filter(isLinkPropertyAssignment) : [];
  if (props.length === 0) return bindPlainInsert(ctx, outer, q);
  // `insert T { ..., @p := x }` in a link's value: the new object, shaped with its link
  // properties (bound where the insert is, as Gel binds them).
  const rest = q.shape.filter((el) => !isLinkPropertyAssignment(el));
  const inserted = bindPlainInsert(ctx, { ...outer, linkWrite: undefined }, { ...q, shape: rest });
  return bindShape(ctx, outer, inserted, props, q.span);
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
  const elements = bindElements(ctx, valueScope, type, q.shape, 'insert');
  const given = new Set(elements.map((e) => e.pointer.name));
  // A default of a pointer `unless conflict` compares is bound here (its value is needed for
  // the conflict check before the row is written), not left to the database.
  const conflictKeys = conflictKeyNames(type, q.unlessConflict);
  const defaults: MutationElement[] = [];
  for (const pointer of type.pointers.values()) {
    if (given.has(pointer.name) || !isStored(pointer)) continue;
    const dflt = pointer.model?.default ?? null;
    if (dflt === null) {
      if (pointer.required) {
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
    return given ? conflictKey(ctx, pointer, constraint, given.value) : null;
  };
  if (clause.on === null) {
    if (clause.elseExpr !== null) {
      return fail(QueryError, '`unless conflict ... else` needs `on`', clause.elseExpr.span);
    }
    const keys = [...type.pointers.values()]
      .filter((p) => !p.many)
      .flatMap((p) => expressionConstraints(p).map((c) => keyOf(p, c)))
      .filter((k): k is ConflictKey => k !== null);
    return { on: null, owner: null, else: null, conflictPathId, ...(keys.length ? { keys } : {}) };
  }
  const { pointers: on, owner, constraint } = conflictPointers(type, clause.on);
  const key = constraint ? keyOf(on[0] as PointerInfo, constraint) : null;
  const keys = constraint ? { keys: key ? [key] : [] } : {};
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
): { pointers: PointerInfo[]; owner: string; constraint?: ExpressionConstraint } {
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
    if (pointer.many)
      return fail(
        QueryError,
        `'${type.name}.${name}' is multi: \`unless conflict on\` needs single pointers`,
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
    if (pointer.name === 'id') return { pointers, owner: type.name };
    if (constraint) return { pointers, owner: constraint.declaredIn };
    const [onExpression] = expressionConstraints(pointer);
    if (onExpression) return { pointers, owner: onExpression.declaredIn, constraint: onExpression };
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

// ---------------------------------------------------------------------------------------------
// update, delete

function bindUpdate(ctx: BindContext, outer: Scope, q: ql.UpdateQuery): Update {
  const scope = withScope(ctx, outer, q.aliases);
  const { set, subject, subjectPathId, filter, card } = selectSubject(
    ctx,
    scope,
    q.subject,
    q,
    'update',
  );
  const type = ctx.index.objectType((subject.type as { name: string }).name) as ObjectTypeInfo;
  // A mutation in a value runs once per updated object (Gel evaluates an update's shape per
  // object): it is bound inside an iteration over the updated objects (query/ir `each`).
  const each: Binding = {
    id: ctx.freshId(),
    name: `~each${ctx.freshId()}`,
    expr: set,
    iteration: true,
  };
  const subjectInner = subjectScope(scope, subject, null);
  const inner: Scope = {
    ...subjectInner,
    names: new Map([...subjectInner.names, [each.name, each]]),
  };
  const elements = bindElements(ctx, inner, type, q.shape, 'update');
  const writesPerObject = elements.some((e) => containsMutation(e.value));
  return {
    kind: 'Update',
    type: subject.type,
    card,
    pathId: `update~${ctx.freshId()}${scope.namespace}`,
    subject,
    subjectPathId,
    filter,
    elements,
    ...guardsOf(scope),
    ...(writesPerObject ? { each: bindingRef(each) } : {}),
  };
}

function bindDelete(ctx: BindContext, outer: Scope, q: ql.DeleteQuery): Delete {
  const scope = withScope(ctx, outer, q.aliases);
  const selected = selectSubject(ctx, scope, q.subject, q, 'delete');
  return {
    kind: 'Delete',
    type: selected.subject.type,
    card: selected.card,
    pathId: `delete~${ctx.freshId()}${scope.namespace}`,
    subject: selected.subject,
    subjectPathId: selected.subjectPathId,
    filter: selected.filter,
    orderBy: selected.orderBy,
    offset: selected.offset,
    limit: selected.limit,
    ...guardsOf(scope),
  };
}

/** The conditions of the branches a mutation is bound in (Gel's conditional DML), and the `for`
 * variables whose bodies it is in (it runs once per iteration). */
function guardsOf(scope: Scope): { guards?: readonly Guard[]; within?: readonly BindingRef[] } {
  // (Not a `for optional` variable: its iterations are planned only where it is read.)
  const within = [...scope.names.values()]
    .filter((b) => b.iteration && !b.optional)
    .map(bindingRef);
  return {
    ...(scope.guards && scope.guards.length > 0 ? { guards: scope.guards } : {}),
    ...(within.length > 0 ? { within } : {}),
  };
}

/** The objects an update or delete writes: its subject with filter / order by / offset / limit
 * bound as a select's (so cardinality follows the select rules: `filter .id = ...` is at most
 * one). */
function selectSubject(
  ctx: BindContext,
  scope: Scope,
  node: ql.Expr,
  clauses: {
    readonly filter: ql.Expr | null;
    readonly orderBy?: readonly ql.SortExpr[];
    readonly offset?: ql.Expr | null;
    readonly limit?: ql.Expr | null;
  },
  verb: 'update' | 'delete',
) {
  const bound = bindExpr(ctx, scope, node);
  const core = bound.kind === 'Shape' ? bound.subject : bound;
  if (!isObjectType(core.type)) {
    return fail(
      InvalidTypeError,
      `${verb} needs objects, not '${printIrType(core.type)}'`,
      node.span,
    );
  }
  const info = ctx.index.objectType(core.type.name);
  // The schema catalogue is read-only (a set that may hold its objects, too).
  const catalogue = info?.concrete.find(isCatalogueType);
  if (catalogue) {
    return fail(QueryError, `cannot ${verb} standard library type '${catalogue}'`, node.span);
  }
  if (!info || info.name.startsWith('schema::') || info.concrete.length === 0) {
    return fail(QueryError, `cannot ${verb} '${core.type.name}' objects`, node.span);
  }
  const selected = selectOver(
    ctx,
    scope,
    core,
    {
      filter: clauses.filter,
      orderBy: clauses.orderBy ?? [],
      offset: clauses.offset ?? null,
      limit: clauses.limit ?? null,
    },
    node.span,
  );
  if (selected.kind !== 'Select') {
    const subject = withPathId(ctx, scope, core);
    return {
      set: subject,
      subject,
      subjectPathId: pathIdOf(subject) as string,
      filter: null,
      orderBy: [],
      offset: null,
      limit: null,
      card: subject.card,
    };
  }
  return {
    set: selected as IrExpr,
    subject: selected.subject,
    subjectPathId: selected.subjectPathId,
    filter: selected.filter,
    orderBy: selected.orderBy,
    offset: selected.offset,
    limit: selected.limit,
    card: selected.card,
  };
}

// ---------------------------------------------------------------------------------------------
// Elements

function bindElements(
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
    if (pointer.name === 'id' || pointer.name === '__type__' || pointer.model === null) {
      return fail(QueryError, `cannot assign to '${pointer.name}'`, step.span);
    }
    if (pointer.computed) {
      return fail(
        QueryError,
        `cannot assign to computed ${pointer.kind} '${type.name}.${pointer.name}'`,
        step.span,
      );
    }
    if (verb === 'update' && pointer.model.readonly) {
      return fail(
        QueryError,
        `cannot update read-only ${pointer.kind} '${type.name}.${pointer.name}'`,
        step.span,
      );
    }
    if (out.some((e) => e.pointer.name === pointer.name)) {
      return fail(QueryError, `'${pointer.name}' is assigned twice`, step.span);
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
function linkPropertyDefault(
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

/** A part of a link's value before its link properties are bound: the value (wrapped in the
 * if/else conditions it sits under) and its `@p := x` elements. */
interface RawPart {
  readonly value: IrExpr;
  readonly props: readonly ql.ShapeElement[];
  /** The subject the value selects by name (`select Card ...`, `select U2 ...` of a `with`
   * alias), as a key of `Scope.pathAliases`: inside its `@p := ...`, that name is the element
   * itself, as it is inside any shape on it (Gel's path factoring). */
  readonly root: string | null;
  /** The link properties written on the value's own shapes (see ValuePart.carried), by name. */
  readonly carried?: ReadonlySet<string>;
}

/** `Card`, `select Card ...`, `Card { ... }` (also `detached Card`) → the type name written as
 * the subject. */
function subjectTypeName(node: ql.Expr): ql.ObjectRef | null {
  if (node.kind === 'SelectQuery' || node.kind === 'Detached')
    return subjectTypeName(node.kind === 'Detached' ? node.expr : node.result);
  if (node.kind === 'Shape') return node.subject ? subjectTypeName(node.subject) : null;
  if (node.kind === 'ObjectRef') return node;
  if (node.kind === 'Path' && node.steps.length === 0 && node.subject)
    return subjectTypeName(node.subject);
  return null;
}

/**
 * A link's value written with link properties → its parts (Gel's rule: each element of a set
 * literal, union or if/else branch carries the link properties written on it), each with its
 * link properties bound against one of its elements, and the whole value (their union).
 */
function bindValueParts(
  ctx: BindContext,
  scope: Scope,
  pointer: PointerInfo,
  node: ql.Expr,
): { value: IrExpr; linkProperties: PointerInfo[]; parts: ValuePart[] } {
  const { parts: raw, card } = rawParts(ctx, scope, pointer, node);
  const linkProperties: PointerInfo[] = [];
  for (const part of raw) {
    for (const name of part.carried ?? []) {
      const property = pointer.properties.get(name) as PointerInfo;
      if (!linkProperties.includes(property)) linkProperties.push(property);
    }
    const seen = new Set<string>();
    for (const prop of part.props) {
      const name = (prop.path[0] as ql.Ptr).name;
      const property = pointer.properties.get(name);
      if (!property) return unknownLinkProperty(pointer, name, prop.span);
      if (property.computed)
        return fail(QueryError, `cannot assign to computed link property '@${name}'`, prop.span);
      if (seen.has(name)) return fail(QueryError, `'@${name}' is assigned twice`, prop.span);
      seen.add(name);
      if (!linkProperties.includes(property)) linkProperties.push(property);
    }
  }
  const parts: ValuePart[] = raw.map((part) => {
    const value = withPathId(ctx, scope, part.value);
    if (part.carried) {
      const carried = part.carried;
      return {
        value,
        pathId: pathIdOf(value) as string,
        props: linkProperties.map((p) => linkPropertyDefault(ctx, pointer, p, node.span)),
        carried: linkProperties.map((p) => (carried.has(p.name) ? `@${p.name}` : null)),
      };
    }
    const subjectScoped = subjectScope(scope, value, null);
    const targetScope: Scope =
      part.root === null
        ? subjectScoped
        : {
            ...subjectScoped,
            pathAliases: new Map([
              ...subjectScoped.pathAliases,
              [part.root, subjectScoped.subject as IrExpr],
            ]),
          };
    const props = linkProperties.map((property) => {
      const prop = part.props.find((p) => (p.path[0] as ql.Ptr).name === property.name);
      if (!prop) return linkPropertyDefault(ctx, pointer, property, node.span);
      const propScope = elementScope(ctx, targetScope, property, prop.compExpr as ql.Expr, pointer);
      return conform(
        ctx,
        property,
        emptyArrayOf(prop.compExpr as ql.Expr, property.target) ??
          bindExpr(ctx, propScope, prop.compExpr as ql.Expr),
        `${pointer.name}@${property.name}`,
        prop.span,
      );
    });
    return { value, pathId: pathIdOf(value) as string, props };
  });
  const values = parts.map((p) => p.value);
  let value = values[0] as IrExpr;
  if (values.length > 1) {
    let irType: IrType = value.type;
    for (const v of values.slice(1)) irType = unifyTypes(ctx, irType, v.type, node.span);
    value = { kind: 'SetLiteral', type: irType, card, elements: values };
  }
  return { value, linkProperties, parts };
}

/** The parts of a link's value: set literal elements and union operands, flattened; each branch
 * of an if/else, kept to the rows where its condition holds; anything else is one part. Link
 * properties under any other form (a `for` body, a function's argument) make a carried part. */
function rawParts(
  ctx: BindContext,
  scope: Scope,
  pointer: PointerInfo,
  node: ql.Expr,
): { parts: RawPart[]; card: Card } {
  const union = (of: readonly ql.Expr[]) => {
    const each = of.map((e) => rawParts(ctx, scope, pointer, e));
    return {
      parts: each.flatMap((e) => e.parts),
      card: each.map((e) => e.card).reduce<Card>((a, b) => cardUnion(a, b), EMPTY),
    };
  };
  if (node.kind === 'SetLiteral') return union(node.elements);
  if (node.kind === 'BinOp' && node.op === 'union') return union([node.left, node.right]);
  if (node.kind === 'IfElse') {
    const condition = bindExpr(ctx, scope, node.condition);
    if (!(condition.type.kind === 'scalar' && condition.type.name === 'std::bool')) {
      return fail(
        InvalidTypeError,
        `expected a bool, got '${printIrType(condition.type)}'`,
        node.condition.span,
      );
    }
    if (condition.card.max === 'many') {
      // Each branch's rows are kept where the condition holds: one condition per written object.
      return fail(
        QueryCardinalityError,
        `cannot write link property ${nestedLinkProperty(node)} of '${pointer.name}' under an if/else whose condition may be more than one boolean`,
        node.condition.span,
        ITEM_20_HINT,
      );
    }
    const branch = (part: RawPart, then: boolean): RawPart => {
      const empty: IrExpr = {
        kind: 'SetLiteral',
        type: part.value.type,
        card: EMPTY,
        elements: [],
      };
      const card: Card = { min: 0, max: part.value.card.max };
      return {
        value: {
          kind: 'IfElse',
          type: part.value.type,
          card,
          condition,
          then: then ? part.value : empty,
          else: then ? empty : part.value,
        },
        props: part.props,
        root: null,
      };
    };
    const guarded = (when: boolean): Scope => ({
      ...scope,
      guards: [...(scope.guards ?? []), { expr: condition, when }],
    });
    const then = rawParts(ctx, guarded(true), pointer, node.ifExpr);
    const otherwise = rawParts(ctx, guarded(false), pointer, node.elseExpr);
    return {
      parts: [
        ...then.parts.map((p) => branch(p, true)),
        ...otherwise.parts.map((p) => branch(p, false)),
      ],
      card: cardProduct(condition.card, cardEither(then.card, otherwise.card)),
    };
  }
  const { expr, props } = splitLinkProperties(node);
  if (nestedLinkProperty(expr) !== null) return carriedPart(ctx, scope, pointer, node);
  const bound = bindExpr(ctx, scope, expr);
  const value = props.length > 0 && bound.kind === 'Shape' ? bound.subject : bound;
  const named = props.length > 0 ? subjectTypeName(expr) : null;
  const subject =
    named && value.type.kind === 'object'
      ? bindExpr(ctx, { ...scope, inserting: undefined }, named)
      : null;
  // A type is aliased by its name (as `bindName` looks it up), a `with` alias by its path id.
  const root =
    subject === null || subject.type.kind !== 'object'
      ? null
      : subject.kind === 'TypeRoot'
        ? subject.objectType
        : rootKeyOf(pathIdOf(subject) as string);
  return { parts: [{ value, props, root }], card: bound.card };
}

/**
 * A value whose link properties are written inside it (a `for` body, a function's argument, a
 * nested insert's shape): bound whole, each shape's `@p := x` an element of the shape (bound by
 * `linkPropertyWriter`), so the link properties go with each element wherever the value takes it
 * (Gel's rule: they belong to the value's shape, not to a place in the syntax).
 */
function carriedPart(
  ctx: BindContext,
  scope: Scope,
  pointer: PointerInfo,
  node: ql.Expr,
): { parts: RawPart[]; card: Card } {
  const names = new Set<string>();
  const value = bindExpr(
    ctx,
    { ...scope, linkWrite: linkPropertyWriter(ctx, pointer, names) },
    node,
  );
  return { parts: [{ value, props: [], root: null, carried: names }], card: value.card };
}

/** Binds `@p := x` as a write of `pointer`'s link property `p` (its type, its `__default__`),
 * recording the name in `names`. */
function linkPropertyWriter(
  ctx: BindContext,
  pointer: PointerInfo,
  names: Set<string>,
): NonNullable<Scope['linkWrite']> {
  return (el, scope) => {
    const name = (el.path[0] as ql.Ptr).name;
    const property = pointer.properties.get(name);
    if (!property) return unknownLinkProperty(pointer, name, el.span);
    if (property.computed)
      return fail(QueryError, `cannot assign to computed link property '@${name}'`, el.span);
    names.add(name);
    const node = el.compExpr as ql.Expr;
    const valueScope = elementScope(ctx, scope, property, node, pointer);
    return conform(
      ctx,
      property,
      emptyArrayOf(node, property.target) ?? bindExpr(ctx, valueScope, node),
      `${pointer.name}@${name}`,
      el.span,
    );
  };
}

function unknownLinkProperty(pointer: PointerInfo, name: string, span: ql.Span): never {
  return fail(
    InvalidReferenceError,
    `link '${pointer.name}' of object type '${pointer.declaredIn}' has no property '${name}'`,
    span,
  );
}

/** True when the value assigns a link property anywhere (`@p := x` in a shape). */
function hasLinkProperties(node: ql.Expr): boolean {
  return nestedLinkProperty(node) !== null;
}

/** The first `@p := x` in the syntax tree (as `'@p'`), or null. */
function nestedLinkProperty(node: unknown): string | null {
  if (node === null || typeof node !== 'object') return null;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = nestedLinkProperty(item);
      if (found !== null) return found;
    }
    return null;
  }
  const record = node as Record<string, unknown>;
  // A nested insert or update writes its own links: its shape is not this value's, but for the
  // `@p := x` elements of an insert's shape, which go with the link to the new object.
  if (record.kind === 'InsertQuery') {
    const own = (record.shape as ql.ShapeElement[]).find(isLinkPropertyAssignment);
    return own ? `'@${(own.path[0] as ql.Ptr).name}'` : null;
  }
  if (record.kind === 'UpdateQuery') return null;
  if (record.kind === 'Shape' && Array.isArray(record.elements)) {
    for (const el of record.elements as ql.ShapeElement[]) {
      if (isLinkPropertyAssignment(el)) return `'@${(el.path[0] as ql.Ptr).name}'`;
    }
  }
  for (const [key, value] of Object.entries(record)) {
    if (key === 'span') continue;
    const found = nestedLinkProperty(value);
    if (found !== null) return found;
  }
  return null;
}

function isLinkPropertyAssignment(el: ql.ShapeElement): boolean {
  const [head] = el.path;
  return el.path.length === 1 && head?.kind === 'Ptr' && head.via === '@' && el.compExpr !== null;
}

function element(
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
function conform(
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
      ITEM_20_HINT,
    );
  }
  return out;
}

/** `T { @p := x, ... }` (also as a select's result, or an insert's shape) → the expression without
 * the `@` elements, and those elements. */
function splitLinkProperties(node: ql.Expr): { expr: ql.Expr; props: ql.ShapeElement[] } {
  if (node.kind === 'InsertQuery') {
    // `(insert T { name := ..., @p := ... })`: the new object, linked with `@p`.
    const props = node.shape.filter(isLinkPropertyAssignment);
    if (props.length === 0) return { expr: node, props };
    return {
      expr: { ...node, shape: node.shape.filter((el) => !isLinkPropertyAssignment(el)) },
      props,
    };
  }
  if (node.kind === 'SelectQuery') {
    const inner = splitLinkProperties(node.result);
    return { expr: { ...node, result: inner.expr }, props: inner.props };
  }
  if (node.kind !== 'Shape' || node.subject === null) return { expr: node, props: [] };
  const isProp = isLinkPropertyAssignment;
  const props = node.elements.filter(isProp);
  if (props.length === 0) return { expr: node, props };
  const rest = node.elements.filter((el) => !isProp(el));
  return { expr: rest.length === 0 ? node.subject : { ...node, elements: rest }, props };
}

// ---------------------------------------------------------------------------------------------
// Helpers

function writableType(
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

function isStored(pointer: PointerInfo): boolean {
  return (
    pointer.model !== null &&
    pointer.computed === null &&
    pointer.name !== 'id' &&
    pointer.name !== '__type__'
  );
}

/** True when the concrete type's table has a column default for the pointer (so an insert that
 * leaves the column out gets it from PostgreSQL). */
function databaseAppliesDefault(ctx: BindContext, type: string, pointer: string): boolean {
  const table = storageLayout(ctx.index.schema).tables.find((t) => t.type === type);
  const column = table?.columns.find((c) => c.pointer === pointer);
  return column !== undefined && column.column.default !== null && !column.queryDefault;
}

function sameTypeRef(a: unknown, b: TypeRef): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
