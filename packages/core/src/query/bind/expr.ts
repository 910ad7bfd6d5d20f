/**
 * bind/expr: EdgeQL expressions → IR sets with types and cardinality.
 *
 * Input: a syntax node, the BindContext and a Scope. Output: an `IrExpr`.
 * Path ids (Gel's path factoring): a type root is known by its name (`default::User`), a step by
 * its source's id and the step (`default::User.friends`), a binding reference by `@<id>`; the
 * scope's namespace (`detached`) is appended to roots so a detached path is a different set.
 * Every path that yields objects has an id; expressions that yield objects without one are given
 * a binding (see `withPathId`) so shapes and partial paths can refer to their elements.
 * Errors: InvalidReferenceError (unknown names, with positions), InvalidTypeError (types that do
 * not fit), QueryError for what the compiler does not do yet; never anything else.
 */
import * as ql from '../../syntax';
import {
  EdgeQLSyntaxError,
  InvalidDefinitionError,
  InvalidReferenceError,
  InvalidTypeError,
  QueryError,
  QueryArgumentError,
  UnsupportedFeatureError,
} from '../../errors';
import { printTypeRef, type TypeRef } from '../../schema/model';
import { callerGlobal } from '../../std/caller';
import { implicitJoin } from '../../std/casts';
import {
  AT_MOST_ONE,
  EMPTY,
  MANY,
  ONE,
  cardOptional,
  cardProduct,
  cardUnion,
  cardEither,
  type Binding,
  type BindingRef,
  type Card,
  type IrExpr,
  type IrType,
  type PointerStep,
  pathIdOf,
} from '../ir';
import { typeId, type PointerInfo } from '../schema-index';
import { catalogueRows, catalogueTypeName, catalogueTypeOf } from '../schema-index/catalogue';
import { BindContext, fail, unknownName, type Scope } from './context';
import {
  isObjectType,
  lookupSchemaName,
  printIrType,
  registerTypeOfBinder,
  resolveTypeExpr,
  sameType,
} from './types';
import { isMaterialized, occurrenceId, withSubjectRoot } from './scoping';
import { bindShape, viewStep } from './shape';
import { matchesPattern, resolveTypePattern } from './type-pattern';
import { bindStatement } from './statement';
import { bindCall, bindCast, bindOperator, bindOperatorOn, bindSlice, literalType } from './calls';
import { refuseCorrelatedWrites } from './dml-correlation';
import { checkComputedElement } from './shape-checks';
import { checkIntersectionPointer, checkUnionOperands, checkUnionType } from './union-check';

const BOOL: TypeRef = { kind: 'scalar', name: 'std::bool' };

// `typeof e` in a type position (bind/types): e's static type, bound apart (its parameters and
// sets are never evaluated, so a context of its own).
registerTypeOfBinder((index, scope, expr) =>
  asTypeRef(bindExpr(new BindContext(index, 'query'), scope, expr).type, expr.span),
);

export function bindExpr(ctx: BindContext, scope: Scope, node: ql.Expr): IrExpr {
  return ctx.nested(node.span, () => bindNode(ctx, scope, node));
}

function bindNode(ctx: BindContext, scope: Scope, node: ql.Expr): IrExpr {
  switch (node.kind) {
    case 'Constant':
      return { kind: 'Literal', type: literalType(node.scalar), card: ONE, value: node.value };
    case 'BytesConstant':
      return {
        kind: 'Literal',
        type: { kind: 'scalar', name: 'std::bytes' },
        card: ONE,
        value: node.value,
      };
    case 'Parameter':
      return fail(
        ctx.mode === 'ddl' ? InvalidDefinitionError : QueryArgumentError,
        `parameter $${node.name} needs a type: write <type>$${node.name}`,
        node.span,
      );
    case 'TypeCast':
      return bindTypeCast(ctx, scope, node);
    case 'ObjectRef':
      return bindName(ctx, scope, node);
    case 'Path':
      return bindPath(ctx, scope, node);
    case 'Shape': {
      if (node.subject === null) return bindFreeObject(ctx, scope, node.elements);
      const subject = bindExpr(ctx, scope, node.subject);
      return bindShape(ctx, scope, subject, node.elements, node.span);
    }
    case 'BinOp':
      return bindBinOp(ctx, scope, node);
    case 'UnaryOp':
      return bindUnary(ctx, scope, node);
    case 'IsOp':
      return bindIs(ctx, scope, node);
    case 'IfElse': {
      const condition = bindExpr(ctx, scope, node.condition);
      const { then, otherwise } = bindBranches(ctx, scope, condition, node);
      expectBool(condition, node.condition.span);
      const type = unifyTypes(ctx, then.type, otherwise.type, node.span);
      const branches = cardEither(then.card, otherwise.card);
      return {
        kind: 'IfElse',
        type,
        card: cardProduct(condition.card, branches),
        condition,
        then,
        else: otherwise,
      };
    }
    case 'FunctionCall':
      return bindCall(ctx, scope, node);
    case 'Index':
      return bindOperator(ctx, scope, '[]', [node.subject, node.index], node.span);
    case 'Slice':
      return bindSlice(ctx, scope, node);
    case 'SetLiteral':
      return bindSetLiteral(ctx, scope, node);
    case 'ArrayLiteral': {
      const elements = node.elements.map((e) => bindExpr(ctx, scope, e));
      refuseCorrelatedWrites(elements, node.span);
      if (elements.length === 0) {
        return fail(InvalidTypeError, 'an empty array needs a type: write <array<T>>[]', node.span);
      }
      let element: IrType = (elements[0] as IrExpr).type;
      for (const e of elements.slice(1)) element = unifyTypes(ctx, element, e.type, node.span);
      if (element.kind === 'free' || element.kind === 'empty') {
        return fail(InvalidTypeError, 'array elements must have a type', node.span);
      }
      return {
        kind: 'ArrayLiteral',
        type: { kind: 'array', element },
        card: elements.reduce<Card>((c, e) => cardProduct(c, e.card), ONE),
        elements,
      };
    }
    case 'TupleLiteral':
    case 'NamedTupleLiteral': {
      const named = node.kind === 'NamedTupleLiteral';
      const parts = named
        ? node.elements.map((e) => ({ name: e.name as string | null, value: e.value }))
        : node.elements.map((e) => ({ name: null as string | null, value: e }));
      if (named) refuseDuplicateFields(node.elements);
      const elements = parts.map((p) => bindExpr(ctx, scope, p.value));
      refuseCorrelatedWrites(elements, node.span);
      const types = elements.map((e, i) => ({
        name: parts[i]?.name ?? null,
        type: asTypeRef(e.type, node.span),
      }));
      return {
        kind: 'TupleLiteral',
        type: { kind: 'tuple', elements: types },
        card: elements.reduce<Card>((c, e) => cardProduct(c, e.card), ONE),
        elements,
        names: named ? parts.map((p) => p.name as string) : null,
      };
    }
    case 'Detached':
      return bindExpr(
        ctx,
        {
          ...scope,
          namespace: `${scope.namespace}~${ctx.freshId()}`,
          inserting: undefined,
          names: detachedNames(scope.names),
        },
        node.expr,
      );
    case 'GlobalRef':
      return bindGlobal(ctx, scope, node);
    case 'Introspect':
      return bindIntrospect(ctx, scope, node);
    case 'Anchor': {
      if (node.name === '__subject__' && scope.subject) return scope.subject;
      if (node.name === '__source__') {
        // A computed's source: the object it is read from (bound by name where it is not the
        // subject: a link property's computed, schema/build/bound.ts).
        const source = scope.names.get(node.name);
        if (source) return inScope(scope, bindingRef(source));
        if (scope.subject && isObjectType(scope.subject.type)) return scope.subject;
      }
      if (node.name === '__default__' && scope.dunderDefault) return scope.dunderDefault;
      return fail(InvalidReferenceError, `'${node.name}' cannot be used here`, node.span);
    }
    case 'SelectQuery':
    case 'ForQuery':
    case 'GroupQuery':
    case 'InternalGroupQuery':
    case 'InsertQuery':
    case 'UpdateQuery':
    case 'DeleteQuery':
      return bindStatement(ctx, scope, node);
  }
}

// ---------------------------------------------------------------------------------------------
// Names, paths

/** A path bound to one element in this scope (an enclosing subject) has cardinality one. */
export function inScope(scope: Scope, expr: IrExpr): IrExpr {
  const id = pathIdOf(expr);
  const aliased = id !== null && expr.kind !== 'Shape' ? scope.pathAliases.get(id) : undefined;
  if (aliased) return aliased;
  return id !== null && expr.kind !== 'Shape' && scope.singletons.has(id)
    ? { ...expr, card: ONE }
    : expr;
}

/** The scope inside a shape or a statement over `subject`: `.x` starts from one element of it. */
export function subjectScope(scope: Scope, subject: IrExpr, link: IrExpr | null): Scope {
  const id = pathIdOf(subject) as string;
  return {
    ...withSubjectRoot(scope, subject),
    subject: { ...subject, card: ONE } as IrExpr,
    link: link ? ({ ...link, card: ONE } as IrExpr) : null,
    singletons: new Set([
      ...scope.singletons,
      id,
      ...narrowedFrom(subject),
      ...tuplePrefixIds(subject),
    ]),
  };
}

/**
 * The paths a narrowed subject (`Object[is A]`) was narrowed from: the same object, so one
 * element wherever the subject is (`Object[is A] { a := Object is B }`).
 */
function narrowedFrom(subject: IrExpr): string[] {
  const out: string[] = [];
  for (let e = subject; e.kind === 'Intersection'; e = e.source) {
    const id = pathIdOf(e.source);
    if (id !== null) out.push(id);
  }
  return out;
}

/**
 * The tuples an element of `expr` is an element of (`tup` for `tup.1`): one element of `tup.1`
 * comes from one `tup`, so inside a shape on it `tup.0` is a single value too (Gel's prefixes).
 */
function tuplePrefixIds(expr: IrExpr): string[] {
  const e = expr.kind === 'BindingRef' && expr.binding.transparent ? expr.binding.expr : expr;
  if (e.kind !== 'TupleElement') return [];
  const id = pathIdOf(e.tuple);
  return id === null ? [] : [id, ...tuplePrefixIds(e.tuple)];
}

function bindName(ctx: BindContext, scope: Scope, ref: ql.ObjectRef): IrExpr {
  return inScope(scope, bindNameRaw(ctx, scope, ref));
}

function bindNameRaw(ctx: BindContext, scope: Scope, ref: ql.ObjectRef): IrExpr {
  if (ref.module === null) {
    const binding = scope.names.get(ref.name);
    if (binding) {
      const ref_ = bindingRef(binding);
      // A `for` variable is always its iteration; any other name is a set of its own at each
      // use, except where an enclosing shape or statement has it as its subject (bind/scoping).
      if (binding.iteration || scope.singletons.has(ref_.pathId)) return inScope(scope, ref_);
      const key = `${ref_.pathId}${scope.namespace}`;
      if (isMaterialized(binding)) return inScope(scope, { ...ref_, pathId: key });
      const aliased = scope.pathAliases.get(key);
      if (aliased) return aliased;
      return inScope(scope, { ...ref_, pathId: occurrenceId(ctx, scope, key) });
    }
  }
  const found = lookupSchemaName(ctx.index, scope, ref);
  if (found?.kind === 'object') {
    if (ctx.mode === 'ddl') {
      return fail(
        InvalidDefinitionError,
        `a schema default, check or index cannot read object type '${found.name}'`,
        ref.span,
        'PostgreSQL defaults, CHECKs and indexes see only the row',
      );
    }
    const aliased = scope.pathAliases.get(found.name);
    if (aliased) return aliased;
    if (scope.inserting === found.name) {
      return fail(
        QueryError,
        `invalid reference to ${found.name}: self-referencing INSERTs are not allowed`,
        ref.span,
        `use DETACHED if you meant to refer to an uncorrelated ${found.name} set`,
      );
    }
    // An enclosing subject is the same set wherever it is named (`User` inside `User { ... }`);
    // elsewhere each occurrence is a set of its own (bind/scoping).
    const key = found.name + scope.namespace;
    return {
      kind: 'TypeRoot',
      type: { kind: 'object', name: found.name },
      card: MANY,
      objectType: found.name,
      pathId: scope.singletons.has(found.name) ? key : occurrenceId(ctx, scope, key),
    };
  }
  if (found?.kind === 'alias') {
    const alias = ctx.index.alias(found.name);
    if (alias) {
      const module = found.name.slice(0, found.name.lastIndexOf('::'));
      const expr = ctx.aliasExpr(found.name, () =>
        bindExpr(ctx, { ...rootScopeLike(scope), module }, alias.expr),
      );
      const binding: Binding = { id: ctx.freshId(), name: found.name, expr, iteration: false };
      const key = `alias:${found.name}${scope.namespace}`;
      const aliased = scope.pathAliases.get(key);
      if (aliased) return aliased;
      return inScope(scope, { ...bindingRef(binding), pathId: occurrenceId(ctx, scope, key) });
    }
  }
  if (found?.kind === 'scalar') {
    return fail(InvalidReferenceError, `'${found.name}' is a scalar type, not a set`, ref.span);
  }
  const shown = ref.module ? `${ref.module}::${ref.name}` : ref.name;
  const names = [...scope.names.keys()];
  return unknownName(
    'object type or alias',
    shown,
    ref.span,
    names.length ? `in scope: ${names.join(', ')}` : undefined,
  );
}

function rootScopeLike(scope: Scope): Scope {
  return {
    ...scope,
    names: new Map(),
    subject: null,
    link: null,
    moduleAliases: new Map(),
    singletons: new Set(),
    pathAliases: new Map(),
    roots: new Map(),
  };
}

export function bindingRef(binding: Binding): BindingRef {
  // A `for optional` variable is empty in the one iteration over an empty iterator.
  const card = binding.iteration
    ? { min: binding.optional ? (0 as const) : (1 as const), max: 1 as const }
    : binding.expr.card;
  return {
    kind: 'BindingRef',
    type: binding.expr.type,
    card,
    binding,
    pathId: `@${binding.id}`,
  };
}

/** A fresh path id for the same element as `expr` (planned in place: the same row). */
export function transparentRef(ctx: BindContext, expr: IrExpr): BindingRef {
  const binding: Binding = {
    id: ctx.freshId(),
    name: '(source)',
    expr,
    iteration: false,
    transparent: true,
  };
  return { ...bindingRef(binding), card: expr.card };
}

/** `expr` itself when it has a path id; else a reference to a fresh binding of it. */
export function withPathId(ctx: BindContext, _scope: Scope, expr: IrExpr): IrExpr {
  if (pathIdOf(expr) !== null) return expr;
  const binding: Binding = {
    id: ctx.freshId(),
    name: '(subject)',
    expr,
    iteration: false,
    transparent: true,
  };
  return bindingRef(binding);
}

function bindPath(ctx: BindContext, scope: Scope, path: ql.Path): IrExpr {
  const member = bindEnumMember(ctx, scope, path);
  if (member) return member;
  let current: IrExpr;
  const [first] = path.steps;
  if (path.subject !== null) {
    // `@p` reads the link a path step went through: on any other expression (`(select .l)@p`,
    // `[.l]@p`) it is outside of a path (Gel's syntax error). An anchor (`__subject__@p` in a
    // link constraint) stands for the link's target.
    if (
      first?.kind === 'Ptr' &&
      first.via === '@' &&
      path.subject.kind !== 'Path' &&
      path.subject.kind !== 'ObjectRef' &&
      path.subject.kind !== 'Anchor'
    ) {
      return fail(
        EdgeQLSyntaxError,
        `unexpected reference to link property '${first.name}' outside of a path expression`,
        first.span,
      );
    }
    current = bindExpr(ctx, scope, path.subject);
  } else if (first?.kind === 'Ptr' && first.via === '@') {
    if (!scope.link) {
      return fail(
        InvalidReferenceError,
        `@${first.name}: no link in scope to read a property of`,
        first.span,
      );
    }
    current = scope.link;
  } else {
    if (!scope.subject) {
      const what = first?.kind === 'Ptr' ? `.${first.name}` : 'a partial path';
      return fail(
        InvalidReferenceError,
        `${what}: no subject in scope for a partial path`,
        path.span,
      );
    }
    current = scope.subject;
  }
  path.steps.forEach((step, i) => {
    if (step.kind === 'Ptr' && step.via === '.<')
      checkComputedBacklinks(ctx, scope, current, step, path.steps.slice(i + 1));
    current = inScope(scope, bindStep(ctx, scope, current, step));
  });
  return current;
}

/**
 * `x.<l[is A][is B]`: a computed link named `l` may not be followed back (Gel's rule). It is
 * left out only when the intersections after the step leave its source out (and a stored link
 * of the name remains); otherwise following the backlink is an InvalidReferenceError.
 */
function checkComputedBacklinks(
  ctx: BindContext,
  scope: Scope,
  source: IrExpr,
  step: ql.Ptr,
  after: readonly ql.PathStep[],
): void {
  if (!isObjectType(source.type)) return;
  const upcoming: string[] = [];
  for (const next of after) {
    if (next.kind !== 'TypeIntersection') break;
    const t = resolveTypeExpr(ctx.index, scope, next.type);
    if (t.kind === 'object') upcoming.push(t.name);
  }
  const named = ctx.index.backlinks(step.name, source.type.name);
  const stored = named.some((l) => l.pointer.computed === null);
  for (const link of named) {
    if (link.pointer.computed === null) continue;
    const picked = upcoming.every((t) => ctx.index.isSubtype(link.source, t));
    if (picked || !stored) {
      fail(
        InvalidReferenceError,
        `cannot follow backlink '${step.name}' because link '${step.name}' of object type '${link.source}' is computed`,
        step.span,
      );
    }
  }
}

/**
 * `Color.Red`, `default::Color.Red`: a member of an enum — the str cast to the enum (std's cast
 * checks membership too); an unknown member is an InvalidReferenceError listing the members.
 */
function bindEnumMember(ctx: BindContext, scope: Scope, path: ql.Path): IrExpr | null {
  const [step, ...rest] = path.steps;
  const ref = path.subject;
  if (ref?.kind !== 'ObjectRef' || step?.kind !== 'Ptr' || step.via !== '.') return null;
  if (ref.module === null && scope.names.has(ref.name)) return null;
  const found = lookupSchemaName(ctx.index, scope, ref);
  const values = found?.kind === 'scalar' ? ctx.index.scalar(found.name)?.enumValues : null;
  if (!found || !values) return null;
  if (!values.includes(step.name)) {
    return fail(
      InvalidReferenceError,
      `'${found.name}' enum has no member called '${step.name}'`,
      step.span,
      `its values are ${values.join(', ')}`,
    );
  }
  const text: IrExpr = { kind: 'Literal', type: literalType('str'), card: ONE, value: step.name };
  let current = bindCast(ctx, text, { kind: 'scalar', name: found.name }, path.span);
  for (const next of rest) current = inScope(scope, bindStep(ctx, scope, current, next));
  return current;
}

export function bindStep(
  ctx: BindContext,
  scope: Scope,
  source: IrExpr,
  step: ql.PathStep,
): IrExpr {
  const shaped = source;
  if (source.kind === 'Shape') source = source.subject;
  if (step.kind === 'TypeIntersection') return bindIntersection(ctx, scope, source, step);
  if (step.via === '@') return bindLinkProperty(ctx, scope, withPathId(ctx, scope, source), step);
  if (source.type.kind === 'tuple') return bindTupleElement(source, step);
  if (source.type.kind === 'free') {
    const id = pathIdOf(source);
    const carrier = id === null ? undefined : scope.views.get(id);
    const view = carrier
      ? viewStep(
          ctx,
          withPathId(ctx, scope, source),
          id as string,
          'std::FreeObject',
          step.name,
          carrier,
        )
      : null;
    // Or a computed element of the shape the free objects carry (`with g := groups { m := ... }
    // select g { m }`).
    const carried =
      view ??
      (step.via === '.' && id !== null
        ? (viewStep(ctx, source, id, 'std::FreeObject', step.name) ??
          (shaped !== source ? viewStep(ctx, shaped, id, 'std::FreeObject', step.name) : null))
        : null);
    return carried ?? bindFreeStep(ctx, scope, source, step);
  }
  if (!isObjectType(source.type)) {
    return fail(
      InvalidTypeError,
      `'${printIrType(source.type)}' is not an object type: it has no '${step.name}'`,
      step.span,
    );
  }
  const source_ = withPathId(ctx, scope, source);
  const sourceId = pathIdOf(source_) as string;
  if (step.via === '.<') return bindBacklink(ctx, source_, sourceId, step);
  const carrier = scope.views.get(sourceId);
  const view =
    (carrier ? viewStep(ctx, source_, sourceId, source.type.name, step.name, carrier) : null) ??
    viewStep(ctx, source_, sourceId, source.type.name, step.name) ??
    (shaped !== source ? viewStep(ctx, shaped, sourceId, source.type.name, step.name) : null);
  if (view) return view;
  const type = ctx.index.objectType(source.type.name);
  const pointer = type?.pointers.get(step.name);
  if (pointer && isBareBacklink(source) && !BASE_OBJECT_POINTERS.has(step.name)) {
    return unknownName(
      'link or property',
      step.name,
      step.span,
      `a backlink's objects are of any type with the link: narrow them first: .<link[is T].${step.name}`,
    );
  }
  if (!pointer) {
    const names = type ? [...type.pointers.keys()] : [];
    const members = ctx.index.membersOf(source.type.name);
    const inSome = members.filter((m) => ctx.index.objectType(m)?.pointers.has(step.name));
    const hint =
      members.length > 1 && inSome.length > 0
        ? `a union has only the pointers all its members share; narrow it first: [is ${inSome[0]}].${step.name}`
        : closest(step.name, names)
          ? `did you mean '${closest(step.name, names)}'?`
          : undefined;
    return type
      ? fail(
          InvalidReferenceError,
          `object type '${source.type.name}' has no link or property '${step.name}'`,
          step.span,
          hint,
        )
      : unknownName('link or property', step.name, step.span, hint);
  }
  checkIntersectionPointer(ctx.index, source.type.name, step.name, step.span);
  const bound = pointerStep(ctx, scope, source_, sourceId, source.type.name, pointer);
  // `.?>link`: the link read as optional, a target the caller may not see being no target (a
  // required `.link` to one is an error under access policies: plan/planner).
  if (step.via !== '.?>' || pointer.kind !== 'link' || bound.computed) return bound;
  return {
    ...bound,
    card: { ...bound.card, min: 0 },
    optional: true,
    pathId: `${bound.pathId}?`,
  };
}

/**
 * The scope a schema computed is bound in: `.x` and `__source__` are the source element, and so
 * is the declaring type named as a root (`lcards := (select Card filter Card.name[0] =
 * User.name[0])` on User: `User` is the user whose cards these are; schema expressions keep
 * Gel's factoring of the source). Any other root is a set of its own (`count(User)` on another
 * type counts every user).
 */
function computedScope(scope: Scope, own: IrExpr, pointer: PointerInfo, module: string): Scope {
  const inner = subjectScope(scope, own, null);
  const one = { ...own, card: ONE } as IrExpr;
  return {
    ...inner,
    module,
    pathAliases: new Map([...inner.pathAliases, [pointer.declaredIn, one]]),
    // The source's own path (`User` of `select User { foo }`) is not a root of the computed.
    roots: new Map(),
  };
}

export function pointerStep(
  ctx: BindContext,
  scope: Scope,
  source: IrExpr,
  sourceId: string,
  sourceType: string,
  pointer: PointerInfo,
): PointerStep {
  let computed: IrExpr | null = null;
  let card: Card = { min: pointer.required ? 1 : 0, max: pointer.many ? 'many' : 1 };
  if (pointer.computed) {
    const module = pointer.declaredIn.slice(0, pointer.declaredIn.lastIndexOf('::'));
    // The computed's own paths are its own: `.deck` in `deck_cost := sum(.deck.cost)` is not
    // the `User.deck` a query reads beside it; only the source element is shared.
    const own = transparentRef(ctx, source);
    computed = ctx.computedExpr(sourceType, pointer.name, () =>
      bindExpr(
        ctx,
        computedScope(rootScopeLike(scope), own, pointer, module),
        pointer.computed as ql.Expr,
      ),
    );
    card = pointer.model ? card : computed.card;
  }
  return {
    kind: 'PointerStep',
    type: pointer.target,
    card: cardProduct(source.card, card),
    source,
    sourceType,
    pointer,
    computed,
    // Each use of a computed pointer is a set of its own (Gel does not factor computables).
    pathId: computed
      ? `${sourceId}.${pointer.name}~${ctx.freshId()}`
      : `${sourceId}.${pointer.name}`,
  };
}

/** The group a set of group results comes from, through aliases and selects. */
export function groupOf(expr: IrExpr): Extract<IrExpr, { kind: 'Group' }> | null {
  switch (expr.kind) {
    case 'Group':
      return expr;
    case 'BindingRef':
      return groupOf(expr.binding.expr);
    case 'Select':
      return groupOf(expr.subject);
    case 'Shape':
      return groupOf(expr.subject);
    default:
      return null;
  }
}

/**
 * Element `name` of the free objects `expr` makes. Objects made in a `for` body read as a value
 * give it inside that `for` (`(for n in {9} union {d := n}).d` is `for n in {9} union n`), so
 * the body's iteration variables stay bound; through a name (`X.d`, a partial path on the
 * objects), the `for` is already iterated where the name's elements are.
 */
function freeElementOf(expr: IrExpr, name: string, direct = true): IrExpr | null {
  switch (expr.kind) {
    case 'FreeObject':
      return expr.elements.find((e) => e.name === name)?.expr ?? null;
    case 'BindingRef':
      return freeElementOf(expr.binding.expr, name, false);
    case 'Shape':
    case 'Select':
      return freeElementOf(expr.subject, name, direct);
    case 'For': {
      const body = freeElementOf(expr.body, name, direct);
      if (!body || !direct) return body;
      const iterations: Card = expr.optional
        ? { min: 1, max: expr.iterator.card.max === 0 ? 1 : expr.iterator.card.max }
        : expr.iterator.card;
      return { ...expr, type: body.type, card: cardProduct(iterations, body.card), body };
    }
    case 'PointerStep':
      return expr.computed ? freeElementOf(expr.computed, name, direct) : null;
    case 'GroupElements': {
      // A group's elements are its subject's.
      const group = groupOf(expr.group);
      return group ? freeElementOf(group.elements, name, false) : null;
    }
    default:
      return null;
  }
}

/**
 * A step on a free object: an element of `{a := ...}`, or on a group result (Gel's shape):
 * `.key` (a free object of the keys), `.grouping` (the key names), `.elements`.
 */
function bindFreeStep(ctx: BindContext, scope: Scope, source: IrExpr, step: ql.Ptr): IrExpr {
  const group = groupOf(source);
  if (group && step.via === '.') {
    const ref = withPathId(ctx, scope, source);
    if (step.name === 'key') {
      const elements = group.keys.map((k, index) => ({
        name: k.name,
        expr: {
          kind: 'GroupKey',
          type: k.expr.type,
          card: AT_MOST_ONE,
          group: ref,
          index,
        } as IrExpr,
        onlyFor: null,
      }));
      return {
        kind: 'FreeObject',
        type: {
          kind: 'free',
          elements: elements.map((e) => ({ name: e.name, type: e.expr.type, card: e.expr.card })),
        },
        card: source.card,
        elements,
      };
    }
    if (step.name === 'grouping') {
      // The names of the keys of each group's grouping set.
      return {
        kind: 'GroupGrouping',
        type: { kind: 'scalar', name: 'std::str' },
        card: cardProduct(source.card, MANY),
        group: ref,
        array: false,
      };
    }
    if (step.name === 'elements') {
      return {
        kind: 'GroupElements',
        type: group.elements.type,
        card: cardProduct(source.card, { min: 1, max: 'many' }),
        group: ref,
      };
    }
  }
  const element = step.via === '.' ? freeElementOf(source, step.name) : null;
  if (element) return element;
  return unknownName('element of a free object', step.name, step.span);
}

/**
 * A backlink's targets have at most one source when it comes through one link with an exclusive
 * constraint (each target is linked from one object at most).
 */
function singleSource(links: readonly { readonly pointer: PointerInfo }[]): boolean {
  const [link] = links;
  return (
    links.length === 1 &&
    link !== undefined &&
    (link.pointer.model?.constraints ?? []).some(
      (c) => c.name === 'std::exclusive' && c.subjectExpr === null && c.except === null,
    )
  );
}

/** `x.<l[is T]`: the backlink's cardinality counting only the links from T (or null). */
function backlinkCard(ctx: BindContext, source: IrExpr, target: string): Card | null {
  const inner = source.kind === 'Shape' ? source.subject : source;
  if (inner.kind !== 'Backlink') return null;
  const links = inner.links.filter(
    (l) => ctx.index.isSubtype(l.source, target) || ctx.index.isSubtype(target, l.source),
  );
  return singleSource(links) ? cardProduct(inner.source.card, AT_MOST_ONE) : null;
}

function bindBacklink(ctx: BindContext, source: IrExpr, sourceId: string, step: ql.Ptr): IrExpr {
  const target = (source.type as { name: string }).name;
  const named = ctx.index.backlinks(step.name, target);
  // Only stored links can be followed back (Gel's rule); a computed one of the name is left out.
  const links = named.filter((l) => l.pointer.computed === null);
  if (links.length === 0 && named.length > 0) {
    const computed = named[0] as (typeof named)[number];
    return fail(
      InvalidReferenceError,
      `cannot follow backlink '${step.name}' because link '${step.name}' of object type '${computed.source}' is computed`,
      step.span,
    );
  }
  if (links.length === 0) {
    return unknownName(
      'link',
      `.<${step.name}`,
      step.span,
      `no link named '${step.name}' points at ${target}`,
    );
  }
  const type = ctx.index.unionOf(links.map((l) => l.source));
  return {
    kind: 'Backlink',
    type: { kind: 'object', name: type },
    card: cardProduct(source.card, singleSource(links) ? AT_MOST_ONE : MANY),
    source,
    links,
    pathId: `${sourceId}.<${step.name}`,
  };
}

/**
 * The link whose row a step's objects came through (a forward link or a backlink), if any.
 * A bare backlink (`.<deck`) has no link properties: its objects are of any type with a link of
 * that name (Gel types them `Object`); `.<deck[is User]` has those of the links `User` has.
 */
function linkPointers(ctx: BindContext, expr: IrExpr): readonly PointerInfo[] {
  switch (expr.kind) {
    case 'PointerStep':
      if (expr.computed) return linkPointers(ctx, expr.computed);
      return expr.pointer.kind === 'link' ? [expr.pointer] : [];
    case 'Backlink':
      return expr.narrowed ? expr.links.map((l) => l.pointer) : [];
    case 'Intersection': {
      const back = backlinkOf(expr.source);
      if (!back) return linkPointers(ctx, expr.source);
      return back.links
        .filter((l) => ctx.index.isSubtype(expr.objectType, l.source))
        .map((l) => narrowedLink(ctx, expr.objectType, l.pointer));
    }
    case 'BindingRef':
      return linkPointers(ctx, expr.binding.expr);
    case 'Select':
      return linkPointers(ctx, expr.subject);
    case 'Shape':
      return linkPointers(ctx, expr.subject);
    case 'GroupElements': {
      // A group of a link's targets keeps each one's link row.
      const group = groupOf(expr.group);
      return group ? linkPointers(ctx, group.elements) : [];
    }
    default:
      return [];
  }
}

/**
 * A link as the objects of `narrowed` have it (`.<owner[is Issue]`): each of its concrete types'
 * own version (an overload may add link properties); the link properties are those every
 * version has alike (Gel's union of the links the narrowing picks).
 */
function narrowedLink(ctx: BindContext, narrowed: string, link: PointerInfo): PointerInfo {
  const concrete = ctx.index.objectType(narrowed)?.concrete ?? [];
  const versions = concrete
    .map((c) => ctx.index.objectType(c)?.pointers.get(link.name))
    .filter((p): p is PointerInfo => p !== undefined);
  const [first, ...rest] = versions;
  if (!first) return link;
  if (rest.every((p) => p === first)) return first;
  const same = (a: PointerInfo, b: PointerInfo | undefined) =>
    b !== undefined && JSON.stringify(a.target) === JSON.stringify(b.target);
  const properties = new Map(
    [...first.properties].filter(([name, p]) => rest.every((o) => same(p, o.properties.get(name)))),
  );
  return { ...first, properties };
}

/** The pointers every object has (`std::BaseObject`'s). */
const BASE_OBJECT_POINTERS = new Set(['id', '__type__']);

/**
 * A backlink not narrowed by `[is T]` (through aliases, selects and shapes): its objects are of
 * an opaque union of the links' source types (Gel's), with only `std::BaseObject`'s pointers.
 */
function isBareBacklink(expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'Backlink':
      return expr.narrowed !== true && expr.typed !== true;
    case 'BindingRef':
      return isBareBacklink(expr.binding.expr);
    case 'Select':
      return isBareBacklink(expr.result);
    case 'Shape':
      return isBareBacklink(expr.subject);
    default:
      return false;
  }
}

/** The backlink step `expr` is (through aliases, selects and shapes), if it is one. */
function backlinkOf(expr: IrExpr): Extract<IrExpr, { kind: 'Backlink' }> | null {
  switch (expr.kind) {
    case 'Backlink':
      return expr;
    case 'Intersection':
      return backlinkOf(expr.source);
    case 'BindingRef':
      return backlinkOf(expr.binding.expr);
    case 'Select':
    case 'Shape':
      return backlinkOf(expr.subject);
    case 'PointerStep':
      return expr.computed ? backlinkOf(expr.computed) : null;
    default:
      return null;
  }
}

/** A link `@x` can read properties of: a link step, or a backlink narrowed to its source type. */
export function isLinkForProperties(ctx: BindContext, expr: IrExpr): boolean {
  return linkPointers(ctx, expr).length > 0;
}

function bindLinkProperty(ctx: BindContext, scope: Scope, source: IrExpr, step: ql.Ptr): IrExpr {
  const link =
    source.kind === 'BindingRef' && source.binding.expr.kind === 'PointerStep'
      ? source.binding.expr
      : source;
  const pointers = linkPointers(ctx, link);
  const back = pointers.length === 0 ? backlinkOf(link) : null;
  if (back) {
    const name = back.links[0]?.pointer.name ?? '';
    return fail(
      InvalidReferenceError,
      `@${step.name}: the backlink .<${name} has no property '${step.name}'`,
      step.span,
      `narrow it to a type with the link first: .<${name}[is ${back.links[0]?.source ?? 'T'}]@${step.name}`,
    );
  }
  if (
    pointers.length === 0 ||
    (link.kind !== 'PointerStep' &&
      link.kind !== 'Backlink' &&
      link.kind !== 'Intersection' &&
      link.kind !== 'BindingRef')
  ) {
    return fail(
      InvalidReferenceError,
      `@${step.name}: link properties are read on a link`,
      step.span,
    );
  }
  const property = pointers.map((p) => p.properties.get(step.name)).find((p) => p !== undefined);
  // Every link has `@source` (the object it leaves) and `@target` (the object it reaches), which
  // Gel allows only in index and constraint definitions (the binder's `ddl` mode).
  if (!property && (step.name === 'source' || step.name === 'target') && ctx.mode === 'query') {
    return fail(
      QueryError,
      `@${step.name} may only be used in index and constraint definitions`,
      step.span,
    );
  }
  if (!property && link.kind === 'PointerStep' && step.name === 'source') return link.source;
  if (!property && link.kind === 'PointerStep' && step.name === 'target') return link;
  if (!property) {
    return unknownName('link property', step.name, step.span);
  }
  if (property.computed) {
    // Its `.` is the link's target: a backlink's objects are the link's sources.
    if (backlinkOf(link)) {
      return fail(
        QueryError,
        `@${step.name}: a computed link property is not readable through a backlink (it has no property '${step.name}')`,
        step.span,
      );
    }
    return computedLinkProperty(ctx, scope, link, property);
  }
  return {
    kind: 'LinkProperty',
    type: property.target,
    card: cardProduct(link.card, { min: 0, max: property.many ? 'many' : 1 }),
    link,
    property,
  };
}

/**
 * A computed link property (`property total_cost := @count * .cost`): its expression bound with
 * the link's target element as `.` and the link itself as the link `@` reads, for each element
 * of the link (the link's own path: the same row the stored link properties come from).
 */
export function computedLinkProperty(
  ctx: BindContext,
  scope: Scope,
  link: IrExpr,
  property: PointerInfo,
): IrExpr {
  const module = property.declaredIn.slice(0, property.declaredIn.lastIndexOf('::'));
  const expr = ctx.computedExpr(`${property.declaredIn} link`, `@${property.name}`, () =>
    bindExpr(
      ctx,
      { ...subjectScope(rootScopeLike(scope), withPathId(ctx, scope, link), link), module },
      property.computed as ql.Expr,
    ),
  );
  return { ...expr, card: cardProduct(link.card, expr.card) } as IrExpr;
}

/** `(a := 1, a := 2)`: a named tuple's fields are distinct (Gel: QueryError). */
function refuseDuplicateFields(elements: readonly ql.TupleElement[]): void {
  const seen = new Set<string>();
  for (const e of elements) {
    if (seen.has(e.name)) fail(QueryError, `named tuple has duplicate field '${e.name}'`, e.span);
    seen.add(e.name);
  }
}

function bindTupleElement(source: IrExpr, step: ql.Ptr): IrExpr {
  const type = source.type as Extract<IrType, { kind: 'tuple' }>;
  const position = /^\d+$/.test(step.name)
    ? Number(step.name)
    : type.elements.findIndex((e) => e.name === step.name);
  const element = type.elements[position];
  if (!element) return unknownName('tuple element', step.name, step.span);
  return { kind: 'TupleElement', type: element.type, card: source.card, tuple: source, position };
}

function bindIntersection(
  ctx: BindContext,
  scope: Scope,
  source: IrExpr,
  step: ql.TypeIntersection,
): IrExpr {
  const target = resolveTypeExpr(ctx.index, scope, step.type);
  if (target.kind !== 'object' || !isObjectType(source.type)) {
    return fail(InvalidTypeError, '[is T] applies to objects and object types', step.span);
  }
  const source_ = withPathId(ctx, scope, source);
  if (ctx.index.isSubtype(source.type.name, target.name)) {
    if (source_.kind !== 'Backlink') return source_;
    return source_.links.some((l) => ctx.index.isSubtype(target.name, l.source))
      ? { ...source_, narrowed: true, typed: true }
      : { ...source_, typed: true };
  }
  // The objects of both: they have the source type's pointers and the target's.
  const both = ctx.index.intersectionOf(source.type.name, target.name);
  return {
    kind: 'Intersection',
    type: { kind: 'object', name: both },
    card: cardOptional(backlinkCard(ctx, source, target.name) ?? source.card),
    source: source_,
    objectType: both,
    pathId: `${pathIdOf(source_)}[is ${target.name}]`,
  };
}

/**
 * A global the caller's credentials provide (`current_user_id`, ...: std/caller): an `auth`
 * parameter the engine fills from the request's auth context, read in queries, computeds,
 * defaults and policies alike. PostgreSQL defaults, checks and indexes cannot read it.
 */
function bindCallerGlobal(ctx: BindContext, node: ql.GlobalRef): IrExpr | null {
  const global = callerGlobal(node.name.module, node.name.name);
  if (global === undefined) return null;
  if (ctx.mode === 'ddl') {
    return fail(
      InvalidDefinitionError,
      `global ${node.name.name} cannot be read here`,
      node.span,
      "the caller's globals are per-request values; PostgreSQL defaults, checks and indexes cannot see them",
    );
  }
  const slot = ctx.param('auth', global.param, global.type, global.required, node.span);
  return {
    kind: 'Param',
    type: global.type,
    card: global.required ? ONE : AT_MOST_ONE,
    index: slot.index,
    source: 'auth',
    name: global.param,
  };
}

function bindGlobal(ctx: BindContext, scope: Scope, node: ql.GlobalRef): IrExpr {
  const candidates = node.name.module
    ? [`${node.name.module}::${node.name.name}`]
    : [`${scope.module}::${node.name.name}`, `default::${node.name.name}`];
  const global = candidates.map((n) => ctx.index.global(n)).find((g) => g !== undefined);
  if (!global) {
    return (
      bindCallerGlobal(ctx, node) ??
      unknownName('global', candidates[0] as string, node.name.span ?? node.span)
    );
  }
  if (global.computed) return bindExpr(ctx, rootScopeLike(scope), global.computed);
  // A schema expression reads a global as a query does (a policy's `global current_user`).
  if (ctx.mode === 'ddl') {
    return fail(
      InvalidDefinitionError,
      `global ${global.name} cannot be read here`,
      node.span,
      'globals are per-request values; PostgreSQL defaults, checks and indexes cannot see them',
    );
  }
  // A global the request leaves out takes its default; one it sets to null is empty, as Gel's
  // `set global x := {}` (the engine refuses null for a required global).
  const slot = ctx.param('global', global.name, global.target, global.required, node.span);
  const fallback = global.default ? bindExpr(ctx, rootScopeLike(scope), global.default) : null;
  return {
    kind: 'Param',
    type: global.target,
    card: { min: global.required && fallback && fallback.card.min === 1 ? 1 : 0, max: 1 },
    index: slot.index,
    source: 'global',
    name: global.name,
    ...(fallback ? { fallback } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Casts and parameters

/** Gel's limit on the tuples and arrays nested in a parameter's type. */
const MAX_PARAM_NESTING = 20;

/** How many tuples and arrays enclose the deepest scalar of `type`. */
function nestingDepth(type: TypeRef): number {
  if (type.kind === 'array') return 1 + nestingDepth(type.element);
  if (type.kind === 'tuple')
    return 1 + Math.max(0, ...type.elements.map((e) => nestingDepth(e.type)));
  return 0;
}

/** Abstract scalars a value cannot be cast into (Gel: only a concrete type extending one). */
const GENERIC_SCALARS: ReadonlySet<string> = new Set(['std::sequence']);

/** `<sequence>x`, `<array<sequence>>x`: Gel's QueryError, casting into a generic type. */
function refuseGenericCast(type: TypeRef, span: ql.Span): void {
  const visit = (t: TypeRef): void => {
    if (t.kind === 'scalar' && GENERIC_SCALARS.has(t.name)) {
      fail(QueryError, `cannot cast into generic scalar type '${t.name}'`, span);
    }
    if (t.kind === 'array' || t.kind === 'range') visit(t.element);
    if (t.kind === 'tuple') for (const e of t.elements) visit(e.type);
  };
  visit(type);
}

function bindTypeCast(ctx: BindContext, scope: Scope, node: ql.TypeCast): IrExpr {
  const type = resolveTypeExpr(ctx.index, scope, node.type);
  refuseGenericCast(type, node.type.span);
  if (node.expr.kind === 'Parameter') {
    if (ctx.mode !== 'query') {
      return fail(
        ctx.mode === 'ddl' ? InvalidDefinitionError : QueryError,
        `query parameters ($${node.expr.name}) cannot be used here`,
        node.expr.span,
      );
    }
    if (nestingDepth(type) > MAX_PARAM_NESTING) {
      return fail(QueryError, 'type of parameter is too deeply nested', node.span);
    }
    const required = node.cardinality !== 'optional';
    if (type.kind === 'object') {
      // `<T>$p` of an object type: the parameter is the id, as `<T><uuid>$p` (Gel; item 12).
      const uuid: TypeRef = { kind: 'scalar', name: 'std::uuid' };
      const slot = ctx.param('variable', node.expr.name, uuid, required, node.expr.span);
      const id: IrExpr = {
        kind: 'Param',
        type: uuid,
        card: required ? ONE : AT_MOST_ONE,
        index: slot.index,
        source: 'variable',
        name: node.expr.name,
      };
      return {
        kind: 'ObjectCast',
        type,
        card: id.card,
        expr: id,
        objectType: type.name,
        pathId: `<${type.name}>#${ctx.freshId()}`,
      };
    }
    const slot = ctx.param('variable', node.expr.name, type, required, node.expr.span);
    return {
      kind: 'Param',
      type,
      card: required ? ONE : AT_MOST_ONE,
      index: slot.index,
      source: 'variable',
      name: node.expr.name,
    };
  }
  // `<array<T>>[]`: the cast gives the empty array its type.
  const empty = emptyArrayOf(node.expr, type);
  if (empty) return empty;
  const expr = bindExpr(ctx, scope, node.expr);
  if (type.kind === 'object') {
    if (expr.type.kind === 'empty') return { ...expr, type };
    if (isObjectType(expr.type)) {
      if (!ctx.index.isSubtype(expr.type.name, type.name)) {
        return fail(
          InvalidTypeError,
          `cannot cast '${expr.type.name}' to '${type.name}'`,
          node.span,
          'use [is T] to keep only the objects of a subtype',
        );
      }
      return expr;
    }
    if (expr.type.kind !== 'scalar' || expr.type.name !== 'std::uuid') {
      return fail(
        InvalidTypeError,
        `cannot cast '${printIrType(expr.type)}' to '${type.name}'`,
        node.span,
      );
    }
    return {
      kind: 'ObjectCast',
      type,
      card: expr.card,
      expr,
      objectType: type.name,
      pathId: `<${type.name}>#${ctx.freshId()}`,
    };
  }
  return castFromJsonMayBeEmpty(bindCast(ctx, expr, type, node.span), expr, node.cardinality);
}

/**
 * Gel: a JSON `null` casts to the empty set, so `<T>json` may be empty (unless written
 * `<required T>`): its minimum cardinality is 0, and `exists` / `??` evaluate it.
 */
function castFromJsonMayBeEmpty(
  cast: IrExpr,
  from: IrExpr,
  mod: 'optional' | 'required' | null,
): IrExpr {
  const json = from.type.kind === 'scalar' && from.type.name === 'std::json';
  if (!json || mod === 'required' || cast.card.min === 0 || cast.kind !== 'Cast') return cast;
  return { ...cast, card: { ...cast.card, min: 0 } };
}

// ---------------------------------------------------------------------------------------------
// Operators

function bindBinOp(ctx: BindContext, scope: Scope, node: ql.BinOp): IrExpr {
  switch (node.op) {
    case 'union':
    case 'except':
    case 'intersect': {
      const [left, right] = bindOperands(ctx, scope, node.left, node.right);
      const type = unifyTypes(ctx, left.type, right.type, node.span);
      if (node.op === 'union') checkUnionOperands(ctx, [left, right], node.span);
      const card =
        node.op === 'union'
          ? cardUnion(left.card, right.card)
          : node.op === 'except'
            ? cardOptional(left.card)
            : {
                min: 0 as const,
                max:
                  left.card.max === 'many' && right.card.max === 'many'
                    ? ('many' as const)
                    : left.card.max === 0 || right.card.max === 0
                      ? (0 as const)
                      : (1 as const),
              };
      return { kind: 'SetOp', type, card, op: node.op, left, right };
    }
    case '??': {
      // The right side is evaluated only where the left is empty (a mutation there is guarded).
      const [left, right] = bindOperands(ctx, scope, node.left, node.right, (l) =>
        guardedScope(
          scope,
          { kind: 'Exists', type: BOOL, card: ONE, expr: l, negated: false },
          false,
        ),
      );
      const type = unifyTypes(ctx, left.type, right.type, node.span);
      const card: Card = {
        min: left.card.min === 1 || right.card.min === 1 ? 1 : 0,
        max: cardEither(left.card, right.card).max,
      };
      return { kind: 'Coalesce', type, card, left, right };
    }
    default:
      if (isEmptyArray(node.left) !== isEmptyArray(node.right)) {
        // `x ++ []`: the empty array takes the other operand's array type.
        const operands = bindOperands(ctx, scope, node.left, node.right);
        return bindOperatorOn(ctx, node.op, operands, node.span);
      }
      return bindOperator(ctx, scope, node.op, [node.left, node.right], node.span);
  }
}

/** The scope of a conditional branch: a mutation bound in it runs only where `condition` is
 * `when` (Gel's conditional DML; see query/ir `Guard`). */
function guardedScope(scope: Scope, condition: IrExpr, when: boolean): Scope {
  return { ...scope, guards: [...(scope.guards ?? []), { expr: condition, when }] };
}

/** `[]` where an array of `type` is expected: an empty array of that type; else null. */
const isEmptyArray = (n: ql.Expr) => n.kind === 'ArrayLiteral' && n.elements.length === 0;

/** The branches of `a if c else b`, each under its condition; an empty array literal takes the
 * other branch's array type (`if c then [10] else []`). */
function bindBranches(
  ctx: BindContext,
  scope: Scope,
  condition: IrExpr,
  node: ql.IfElse,
): { then: IrExpr; otherwise: IrExpr } {
  const bindThen = () => bindExpr(ctx, guardedScope(scope, condition, true), node.ifExpr);
  const bindElse = () => bindExpr(ctx, guardedScope(scope, condition, false), node.elseExpr);
  if (isEmptyArray(node.ifExpr) && !isEmptyArray(node.elseExpr)) {
    const otherwise = bindElse();
    return { then: emptyArrayOf(node.ifExpr, otherwise.type) ?? bindThen(), otherwise };
  }
  const then = bindThen();
  return { then, otherwise: emptyArrayOf(node.elseExpr, then.type) ?? bindElse() };
}

/** `[]` given the array type its context expects (an operand's, a pointer's), or null. */
export function emptyArrayOf(node: ql.Expr, type: IrType): IrExpr | null {
  if (node.kind !== 'ArrayLiteral' || node.elements.length !== 0 || type.kind !== 'array')
    return null;
  return { kind: 'ArrayLiteral', type, card: ONE, elements: [] };
}

/**
 * Two operands of one set (`??`, `union`, ...): an empty array literal takes the array type of
 * the other operand (`x ?? []`), as Gel infers it; anything else is bound on its own (the right
 * one in `rightScope(left)` when given).
 */
function bindOperands(
  ctx: BindContext,
  scope: Scope,
  a: ql.Expr,
  b: ql.Expr,
  rightScope?: (left: IrExpr) => Scope,
): [IrExpr, IrExpr] {
  if (isEmptyArray(a) && !isEmptyArray(b)) {
    const right = bindExpr(ctx, scope, b);
    return [emptyArrayOf(a, right.type) ?? bindExpr(ctx, scope, a), right];
  }
  const left = bindExpr(ctx, scope, a);
  const inRight = rightScope ? rightScope(left) : scope;
  return [left, emptyArrayOf(b, left.type) ?? bindExpr(ctx, inRight, b)];
}

function bindUnary(ctx: BindContext, scope: Scope, node: ql.UnaryOp): IrExpr {
  switch (node.op) {
    case 'exists': {
      const expr = bindExpr(ctx, scope, node.operand);
      return { kind: 'Exists', type: BOOL, card: ONE, expr, negated: false };
    }
    case 'distinct': {
      const expr = bindExpr(ctx, scope, node.operand);
      return { kind: 'Distinct', type: expr.type, card: expr.card, expr };
    }
    default:
      return bindOperator(ctx, scope, node.op, [node.operand], node.span);
  }
}

function bindIs(ctx: BindContext, scope: Scope, node: ql.IsOp): IrExpr {
  const expr = bindExpr(ctx, scope, node.left);
  const pattern = resolveTypePattern(ctx.index, scope, node.type);
  if (isObjectType(expr.type) && pattern.kind === 'type' && pattern.type.kind === 'object') {
    return {
      kind: 'TypeCheck',
      type: BOOL,
      card: expr.card,
      expr,
      objectType: pattern.type.name,
      negated: node.negated,
    };
  }
  // Scalars, collections and pseudo-types (`5 is anyint`): the answer is known statically.
  const same = matchesPattern(ctx.index, expr.type, pattern);
  return {
    kind: 'Literal',
    type: BOOL,
    card: expr.card,
    value: String(same !== node.negated),
  };
}

function bindSetLiteral(ctx: BindContext, scope: Scope, node: ql.SetLiteral): IrExpr {
  const elements = node.elements.map((e) => bindExpr(ctx, scope, e));
  if (elements.length === 0)
    return { kind: 'SetLiteral', type: { kind: 'empty' }, card: EMPTY, elements };
  if (elements.length === 1) return elements[0] as IrExpr;
  let type: IrType = (elements[0] as IrExpr).type;
  let card: Card = (elements[0] as IrExpr).card;
  for (const e of elements.slice(1)) {
    type = unifyTypes(ctx, type, e.type, node.span);
    card = cardUnion(card, e.card);
  }
  checkUnionOperands(ctx, elements, node.span);
  return { kind: 'SetLiteral', type, card, elements };
}

function bindFreeObject(
  ctx: BindContext,
  scope: Scope,
  elements: readonly ql.ShapeElement[],
): IrExpr {
  const bound = elements.map((el) => {
    const [step] = el.path;
    if (el.path.length !== 1 || step?.kind !== 'Ptr' || step.via !== '.' || !el.compExpr) {
      return fail(QueryError, 'a free object holds only `name := expr` elements', el.span);
    }
    let expr = bindExpr(ctx, scope, el.compExpr);
    if (el.elements) expr = bindShape(ctx, scope, expr, el.elements, el.span);
    // `multi x := ...` is a list even when it holds one value or none.
    if (el.cardinality === 'multi' && expr.card.max !== 'many')
      expr = { ...expr, card: { min: expr.card.min, max: 'many' } };
    checkComputedElement(
      ctx.index,
      {
        name: step.name,
        owner: 'std::FreeObject',
        base: null,
        computed: true,
        required: el.required,
        cardinality: el.cardinality,
        span: el.span,
        exprSpan: el.compExpr.span,
      },
      expr,
    );
    return { name: step.name, expr, onlyFor: null };
  });
  return {
    kind: 'FreeObject',
    type: {
      kind: 'free',
      elements: bound.map((b) => ({ name: b.name, type: b.expr.type, card: b.expr.card })),
    },
    card: ONE,
    elements: bound,
  };
}

// ---------------------------------------------------------------------------------------------
// Types of combined sets

/** The type of a set holding values of `a` and of `b` (union, `??`, if/else, set literals). */
export function unifyTypes(ctx: BindContext, a: IrType, b: IrType, span: ql.Span): IrType {
  if (a.kind === 'empty') return b;
  if (b.kind === 'empty') return a;
  if (sameType(a, b)) return a;
  if (a.kind === 'object' && b.kind === 'object') {
    const name = ctx.index.unionOf([a.name, b.name]);
    checkUnionType(ctx.index, name, span);
    return { kind: 'object', name };
  }
  const common = numericCommon(a, b);
  if (common) return common;
  if (a.kind === 'array' && b.kind === 'array') {
    return { kind: 'array', element: asTypeRef(unifyTypes(ctx, a.element, b.element, span), span) };
  }
  if (a.kind === 'tuple' && b.kind === 'tuple' && a.elements.length === b.elements.length) {
    const sameNames = a.elements.every((e, i) => e.name === b.elements[i]?.name);
    return {
      kind: 'tuple',
      elements: a.elements.map((e, i) => ({
        name: sameNames ? e.name : null,
        type: asTypeRef(
          unifyTypes(ctx, e.type, (b.elements[i] as { type: TypeRef }).type, span),
          span,
        ),
      })),
    };
  }
  return fail(
    InvalidTypeError,
    `cannot combine '${printIrType(a)}' and '${printIrType(b)}' in one set`,
    span,
  );
}

/** The implicit-cast join of two std scalars (int64 ∪ float32 is float64), or null. */
function numericCommon(a: IrType, b: IrType): IrType | null {
  if (a.kind !== 'scalar' || b.kind !== 'scalar') return null;
  const joined = implicitJoin(a.name, b.name);
  return joined === null ? null : { kind: 'scalar', name: joined };
}

/**
 * `introspect T` / `introspect typeof e`: the type's row of the schema catalogue (its
 * `schema::ObjectType`, `schema::ScalarType`, `schema::Array`, ... by its stable id). `typeof e`
 * is the static type of `e`, which is bound but never evaluated.
 */
function bindIntrospect(
  ctx: BindContext,
  scope: Scope,
  node: Extract<ql.Expr, { kind: 'Introspect' }>,
): IrExpr {
  const type =
    node.type.kind === 'TypeOf'
      ? asTypeRef(bindExpr(ctx, scope, node.type.expr).type, node.type.span)
      : resolveTypeExpr(ctx.index, scope, node.type);
  const row = catalogueTypeOf(type);
  const id = typeId(catalogueTypeName(type));
  if (
    !catalogueRows(ctx.index, typeId, [])
      .rows.get(row)
      ?.some((r) => r.id === id)
  ) {
    return fail(
      UnsupportedFeatureError,
      `\`introspect\` of ${printTypeRef(type)}: the schema catalogue has only the types the schema uses`,
      node.span,
    );
  }
  const query = ql.parseExpression(`(select ${row} filter .id = <uuid>'${id}' limit 1)`);
  // The catalogue has exactly one row with this id.
  return { ...bindExpr(ctx, rootScopeLike(scope), query), card: ONE };
}

/**
 * The names a `detached` expression sees: not the aliases around it (`with`, `for`, select
 * aliases), so `detached Card` under `with Card := ...` is every Card, as in Gel; an inlined
 * function's parameters stay (they are the function's inputs, not aliases).
 */
function detachedNames(names: ReadonlyMap<string, Binding>): ReadonlyMap<string, Binding> {
  return new Map([...names].filter(([, b]) => b.parameter === true));
}

export function asTypeRef(type: IrType, span: ql.Span): TypeRef {
  if (type.kind === 'free' || type.kind === 'empty') {
    return fail(
      InvalidTypeError,
      `'${printIrType(type)}' cannot be stored in a tuple or array`,
      span,
    );
  }
  return type;
}

function expectBool(expr: IrExpr, span: ql.Span): void {
  if (
    expr.type.kind !== 'empty' &&
    !(expr.type.kind === 'scalar' && expr.type.name === 'std::bool')
  ) {
    fail(InvalidTypeError, `expected a bool, got '${printIrType(expr.type)}'`, span);
  }
}
export { expectBool };

/** The closest name by edit distance (at most 2 edits), for "did you mean" hints. */
export function closest(name: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of names) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] as number;
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = tmp;
    }
  }
  return row[b.length] as number;
}
