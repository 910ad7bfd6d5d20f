/**
 * bind/links: backlinks (`source.<name`: the objects of every type with a link `name` pointing
 * at the source; of an opaque union until narrowed by `[is T]`) and link properties (`link@prop`,
 * read on a link step, a backlink narrowed to one link, or a computed link's own properties).
 */
import type * as ql from '../../syntax';
import { InvalidReferenceError, QueryError } from '../../errors';
import { AT_MOST_ONE, MANY, cardProduct, pathIdOf, type Card, type IrExpr } from '../ir';
import type { PointerInfo } from '../schema-index';
import { type BindContext, fail, unknownName, type Scope } from './context';
import { bindExpr } from './dispatch';
import { rootScopeLike, subjectScope, withPathId } from './names';
import { groupOf } from './paths';
import { viewStep } from './views';

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
export function backlinkCard(ctx: BindContext, source: IrExpr, target: string): Card | null {
  const inner = source.kind === 'Shape' ? source.subject : source;
  if (inner.kind !== 'Backlink') return null;
  const links = inner.links.filter(
    (l) => ctx.index.isSubtype(l.source, target) || ctx.index.isSubtype(target, l.source),
  );
  return singleSource(links) ? cardProduct(inner.source.card, AT_MOST_ONE) : null;
}

export function bindBacklink(
  ctx: BindContext,
  source: IrExpr,
  sourceId: string,
  step: ql.Ptr,
): IrExpr {
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
export const BASE_OBJECT_POINTERS = new Set(['id', '__type__']);

/**
 * A backlink not narrowed by `[is T]` (through aliases, selects and shapes): its objects are of
 * an opaque union of the links' source types (Gel's), with only `std::BaseObject`'s pointers.
 */
export function isBareBacklink(expr: IrExpr): boolean {
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

export function bindLinkProperty(
  ctx: BindContext,
  scope: Scope,
  source: IrExpr,
  step: ql.Ptr,
): IrExpr {
  const link =
    source.kind === 'BindingRef' && source.binding.expr.kind === 'PointerStep'
      ? source.binding.expr
      : source;
  const pointers = linkPointers(ctx, link);
  // A link property a shape computed on these objects (`@note := ...` in the shape they carry).
  const linkId = pathIdOf(link);
  const viewed =
    link.type.kind === 'object' &&
    linkId !== null &&
    !pointers.some((p) => p.properties.has(step.name))
      ? viewStep(ctx, link, linkId, link.type.name, `@${step.name}`)
      : null;
  if (viewed) return viewed;
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

/**
 * The link whose properties `@x` reads, when the subject is one: a link step, or a backlink
 * narrowed to a type that has the link (`.<deck[is User] { @count }`).
 */
export function linkOf(ctx: BindContext, subject: IrExpr): IrExpr | null {
  const step =
    subject.kind === 'BindingRef' && subject.binding.expr.kind === 'PointerStep'
      ? subject.binding.expr
      : subject;
  if (step.kind === 'PointerStep') return step.pointer.kind === 'link' ? step : null;
  return isLinkForProperties(ctx, subject) ? subject : null;
}
