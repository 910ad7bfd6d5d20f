/**
 * bind/paths: path steps. `source.name` (a stored or computed pointer, with its cardinality the
 * product of the source's and the pointer's), `source[is T]`, tuple elements (`t.0`, `t.name`),
 * enum members (`Color.red`), the pointers of free objects and groups. Backlinks and link
 * properties are bind/links.
 * A step's path id is its source's id and the step (`default::User.friends`).
 */
import type * as ql from '../../syntax';
import { EdgeQLSyntaxError, InvalidReferenceError, InvalidTypeError } from '../../errors';
import {
  AT_MOST_ONE,
  MANY,
  ONE,
  cardOptional,
  cardProduct,
  type Card,
  type IrExpr,
  type IrType,
  type PointerStep,
  pathIdOf,
} from '../ir';
import type { PointerInfo } from '../schema-index';
import { type BindContext, fail, unknownName, type Scope } from './context';
import { isObjectType, lookupSchemaName, printIrType, resolveTypeExpr } from './types';
import { viewStep } from './views';
import { bindCast, literalType } from './calls';
import { checkIntersectionPointer } from './union-check';
import { bindExpr } from './dispatch';
import {
  BASE_OBJECT_POINTERS,
  backlinkCard,
  bindBacklink,
  bindLinkProperty,
  isBareBacklink,
} from './links';
import { inScope, rootScopeLike, subjectScope, transparentRef, withPathId } from './names';
import { closest } from './context';

export function bindPath(ctx: BindContext, scope: Scope, path: ql.Path): IrExpr {
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
  if (step.via === '@') {
    const link = withPathId(ctx, scope, source);
    // A link property computed by the shape the link's targets carry (bind/shape's views).
    const linkId = pathIdOf(link);
    const computed =
      linkId !== null && isObjectType(source.type)
        ? (viewStep(ctx, link, linkId, source.type.name, `@${step.name}`) ??
          (shaped !== source
            ? viewStep(ctx, shaped, linkId, source.type.name, `@${step.name}`)
            : null))
        : null;
    return computed ?? bindLinkProperty(ctx, scope, link, step);
  }
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
  if (view) return enclosingComputed(scope, view, sourceId);
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
  const bound = enclosingComputed(
    scope,
    pointerStep(ctx, scope, source_, sourceId, source.type.name, pointer),
    sourceId,
  );
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
 * A computed pointer read again inside a shape on it (`C { owners: { t := C.owners.name } }`,
 * `X { o := .z.0 { c := X.z.1 } }`): each use of a computed is a set of its own, but where the
 * same pointer of the same source is the subject of an enclosing shape, the path is that one
 * element, as a stored link's path is (Gel binds the shape's subject path in its scope).
 */
function enclosingComputed(scope: Scope, step: PointerStep, sourceId: string): PointerStep {
  if (!step.computed) return step;
  const base = `${sourceId}.${step.pointer.name}~`;
  for (const id of scope.singletons) {
    if (id.startsWith(base) && /^\d+$/.test(id.slice(base.length))) return { ...step, pathId: id };
  }
  return step;
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
    // Each use of a computed pointer is a set of its own (Gel does not factor computables),
    // except where a shape or statement has it as its subject (bind/factoring
    // `subjectComputedSteps`).
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
    case 'GroupElements': {
      // The elements of a group of groups (`group (group X by .a) using ... by ...`) are groups.
      const outer = groupOf(expr.group);
      return outer ? groupOf(outer.elements) : null;
    }
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
        // One (or no) value per group: as many as the groups `source` holds.
        expr: {
          kind: 'GroupKey',
          type: k.expr.type,
          card: cardProduct(source.card, AT_MOST_ONE),
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
