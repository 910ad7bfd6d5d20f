/**
 * bind/shape: `subject { ... }` → an IR `Shape`: the subject's objects with their elements —
 * pointers (`name`), link properties (`@p` inside a link's sub-shape), computed elements
 * (`name := expr`), polymorphic elements (`[is T].name`, shown only for objects of T), splats
 * (`*`: every property; `**`: every property and every link with its target's properties;
 * `T.*` / `[is T].*`), and per-element sub-shapes with their own filter / order by / offset /
 * limit.
 *
 * Input: the bound subject, the syntax elements and the Scope. Output: a Shape whose subject has
 * a path id; each element's expression is bound with the subject as `.` (and the subject as the
 * link `@x` reads when the subject is a link step). A later element replaces an earlier one of
 * the same name in place (so `{ *, name := upper(.name) }` keeps the splat's order).
 */
import { linkOf } from './links';
import { pathIdOf } from '../ir';
import type * as ql from '../../syntax';
import { InvalidReferenceError, InvalidTypeError, QueryError } from '../../errors';
import type { IrExpr, PointerStep, ShapeElement } from '../ir';
import type { PointerInfo } from '../schema-index';
import { fail, type BindContext, type Scope } from './context';
import { bindExpr } from './dispatch';
import { computedLinkProperty } from './links';
import { subjectScope, withPathId } from './names';
import { bindStep, pointerStep } from './paths';
import { checkComputedElement, checkDuplicate } from './shape-checks';
import { refuseWritingElement } from './shape-writes';
import { selectOver } from './statement';
import { isObjectType, printIrType, resolveTypeExpr } from './types';

export function bindShape(
  ctx: BindContext,
  scope: Scope,
  subject: IrExpr,
  elements: readonly ql.ShapeElement[],
  span: ql.Span,
): IrExpr {
  const inner = subject.kind === 'Shape' ? subject.subject : subject;
  if (inner.type.kind === 'free') return bindFreeShape(ctx, scope, inner, elements);
  if (!isObjectType(inner.type)) {
    return fail(
      InvalidTypeError,
      `a shape applies to objects, not '${printIrType(inner.type)}'`,
      span,
    );
  }
  const subj = withPathId(ctx, scope, inner);
  const elementScope = subjectScope(scope, subj, linkOf(ctx, subj));
  const out: ShapeElement[] = [];
  const put = (el: ShapeElement): void => {
    const at = out.findIndex((e) => e.name === el.name && e.onlyFor === el.onlyFor);
    if (at >= 0) out[at] = el;
    else out.push(el);
  };
  // Splats meeting on one name (Gel's rule): the element of the wider type stands for both; of
  // unrelated types (each narrowed to a type the other does not include), an error.
  const fromSplats = new Set<string>();
  const putSplat = (el: ShapeElement, span: ql.Span): void => {
    const at = out.findIndex((e) => e.name === el.name);
    const other = at >= 0 ? out[at] : undefined;
    if (!other || !fromSplats.has(el.name)) {
      fromSplats.add(el.name);
      return put(el);
    }
    const covers = (a: string | null, b: string | null) =>
      a === null || (b !== null && ctx.index.isSubtype(b, a));
    if (covers(other.onlyFor, el.onlyFor)) return;
    if (covers(el.onlyFor, other.onlyFor)) {
      out[at] = el;
      return;
    }
    fail(
      QueryError,
      `'${el.name}' appears in splats for unrelated types ${other.onlyFor} and ${el.onlyFor}`,
      span,
      `name it once for each: [is ${other.onlyFor}].${el.name}, or read it on a type both extend`,
    );
  };
  const views = new Map<string, { element: ql.ShapeElement; scope: Scope }>();
  // A link property written with the value of a link (`@p := x`, see Scope.linkWrite); the
  // elements' own expressions write nothing.
  const write = scope.linkWrite;
  const elScope = write ? { ...elementScope, linkWrite: undefined } : elementScope;
  for (const el of elements) {
    const one = elementScope.subject as IrExpr;
    const splatted = el.path.some((step) => step.kind === 'Splat');
    const written = write ? linkPropertyWrite(el, elScope, write) : null;
    for (const bound of written ?? bindElement(ctx, elScope, one, inner.type.name, el)) {
      if (splatted) putSplat(bound, el.span);
      else {
        const prior = out.some((e) => e.name === bound.name && e.onlyFor === bound.onlyFor);
        if (prior && !fromSplats.has(bound.name) && !bound.name.startsWith('@')) {
          const pointer = ctx.index.objectType(inner.type.name)?.pointers.get(bound.name);
          const kind = (pointer?.kind ?? (isObjectType(bound.expr.type) ? 'link' : 'property')) as
            | 'link'
            | 'property';
          checkDuplicate(kind, bound.name, inner.type.name, el.span);
        }
        fromSplats.delete(bound.name);
        put(bound);
      }
    }
    const [step] = el.path;
    // A computed element, or a link with its own sub-shape (`deck: { a := ... }`): a path
    // through the shaped set (`U.deck.a`) reads the element as the shape wrote it.
    if (
      (el.compExpr || el.elements !== null) &&
      el.path.length === 1 &&
      step?.kind === 'Ptr' &&
      step.via === '.'
    ) {
      views.set(step.name, { element: el, scope });
    }
    // A link property the shape computes (`my_deck := (select Card { @foo := .name })`): the
    // link it is shown on reads it back (`my_deck: { @foo }`, `.my_deck@foo`).
    if (el.compExpr && el.path.length === 1 && step?.kind === 'Ptr' && step.via === '@')
      views.set(`@${step.name}`, { element: el, scope });
    const narrowed = narrowedView(el);
    if (narrowed) views.set(narrowed.name, { element: narrowed.element, scope });
  }
  // `[is T].*` names each element it adds as `[is T].name` does (`order by .name` reads it).
  for (const el of out) {
    if (el.onlyFor === null || !fromSplats.has(el.name) || views.has(el.name)) continue;
    const from = elements.find((e) => splatNarrowedTo(ctx, scope, e) === el.onlyFor);
    const narrowed = from ? narrowedSplatView(from, el.name) : null;
    if (narrowed) views.set(el.name, { element: narrowed.element, scope });
  }
  const shape: IrExpr = {
    kind: 'Shape',
    type: subj.type,
    card: subj.card,
    subject: subj,
    elements: out,
  };
  if (views.size) ctx.viewElements.set(shape, views);
  return shape;
}

/** `@p := x` bound by `write` (Scope.linkWrite) as the element `@p`; null for other elements. */
function linkPropertyWrite(
  el: ql.ShapeElement,
  scope: Scope,
  write: NonNullable<Scope['linkWrite']>,
): ShapeElement[] | null {
  const [head] = el.path;
  if (el.path.length !== 1 || head?.kind !== 'Ptr' || head.via !== '@' || el.compExpr === null)
    return null;
  return [{ name: `@${head.name}`, expr: write(el, scope), onlyFor: null }];
}

/**
 * `[is T].name` in a shape names an element of the set the shape makes, as a computed one does:
 * `.name` on its objects (in the select's order by, or through an alias) is `.[is T].name`.
 */
function narrowedView(el: ql.ShapeElement): { name: string; element: ql.ShapeElement } | null {
  const [head, step, ...rest] = el.path;
  if (el.compExpr || rest.length || head?.kind !== 'TypeIntersection') return null;
  if (step?.kind !== 'Ptr' || step.via !== '.') return null;
  const compExpr: ql.Path = { kind: 'Path', span: el.span, subject: null, steps: [head, step] };
  return { name: step.name, element: { ...el, path: [step], compExpr } };
}

/** The `[is T]` of a `[is T].*` element (null for any other element). */
function splatIntersection(el: ql.ShapeElement): ql.TypeIntersection | null {
  const [step, ...rest] = el.path;
  if (step?.kind !== 'Splat' || step.type !== null || rest.length) return null;
  return step.intersection;
}

/** The type `[is T].*` narrows to (null for any other element). */
function splatNarrowedTo(ctx: BindContext, scope: Scope, el: ql.ShapeElement): string | null {
  const head = splatIntersection(el);
  if (!head) return null;
  const target = resolveTypeExpr(ctx.index, scope, head.type);
  return target.kind === 'object' ? target.name : null;
}

/** Element `name` of a `[is T].*` splat, as the `[is T].name` element it stands for. */
function narrowedSplatView(
  el: ql.ShapeElement,
  name: string,
): { name: string; element: ql.ShapeElement } | null {
  const head = splatIntersection(el);
  if (!head || name.startsWith('@')) return null;
  const step: ql.Ptr = { kind: 'Ptr', span: el.span, name, via: '.' };
  return narrowedView({ ...el, path: [head, step], elements: null });
}

/** A shape on free objects (group results, `{a := ...}`): named elements and computed ones. */
function bindFreeShape(
  ctx: BindContext,
  scope: Scope,
  subject: IrExpr,
  elements: readonly ql.ShapeElement[],
): IrExpr {
  const subj = withPathId(ctx, scope, subject);
  const inner = subjectScope(scope, subj, null);
  const one = inner.subject as IrExpr;
  const out: ShapeElement[] = [];
  const views = new Map<string, { element: ql.ShapeElement; scope: Scope }>();
  for (const el of elements) {
    const [step, ...rest] = el.path;
    if (
      step?.kind === 'Splat' &&
      step.depth === 1 &&
      step.type === null &&
      step.intersection === null &&
      !rest.length &&
      subj.type.kind === 'free'
    ) {
      // `*`: every element of the free objects.
      for (const e of subj.type.elements) {
        const ptr: ql.Ptr = { kind: 'Ptr', span: el.span, name: e.name, via: '.' };
        const expr = bindStep(ctx, inner, one, ptr);
        const at = out.findIndex((o) => o.name === e.name);
        if (at >= 0) out[at] = { name: e.name, expr, onlyFor: null };
        else out.push({ name: e.name, expr, onlyFor: null });
      }
      continue;
    }
    if (el.compExpr && step?.kind === 'Ptr' && step.via === '.' && !rest.length)
      views.set(step.name, { element: el, scope });
    if (step?.kind !== 'Ptr' || step.via !== '.' || rest.length) {
      return fail(
        QueryError,
        'a shape on free objects holds names and `name := expr` elements',
        el.span,
      );
    }
    refuseMutation(el);
    let expr = el.compExpr ? bindExpr(ctx, inner, el.compExpr) : bindStep(ctx, inner, one, step);
    if (el.elements !== null) expr = bindShape(ctx, inner, expr, el.elements, el.span);
    if (el.filter || el.orderBy.length || el.offset || el.limit)
      expr = selectOver(ctx, inner, expr, el, el.span);
    // `multi x := ...` is a list even when it holds one value (as in an object's shape).
    if (el.cardinality === 'multi' && expr.card.max !== 'many')
      expr = { ...expr, card: { min: expr.card.min, max: 'many' } };
    const at = out.findIndex((e) => e.name === step.name);
    if (at >= 0) out[at] = { name: step.name, expr, onlyFor: null };
    else out.push({ name: step.name, expr, onlyFor: null });
  }
  const shape: IrExpr = {
    kind: 'Shape',
    type: subj.type,
    card: subj.card,
    subject: subj,
    elements: out,
  };
  if (views.size) ctx.viewElements.set(shape, views);
  return shape;
}

function bindElement(
  ctx: BindContext,
  scope: Scope,
  subject: IrExpr,
  typeName: string,
  el: ql.ShapeElement,
): ShapeElement[] {
  refuseMutation(el);
  let path = el.path;
  let onlyFor: string | null = null;
  let source = subject;
  const [head] = path;
  if (head?.kind === 'TypeIntersection') {
    const target = resolveTypeExpr(ctx.index, scope, head.type);
    if (target.kind !== 'object') {
      return fail(InvalidTypeError, '[is T] in a shape needs an object type', head.span);
    }
    onlyFor = target.name;
    source = bindStep(ctx, scope, subject, head);
    path = path.slice(1);
  }
  const [step, ...rest] = path;
  if (!step) return fail(QueryError, 'empty shape element', el.span);
  if (step.kind === 'Splat')
    return splat(ctx, scope, source, onlyFor ?? typeName, onlyFor, step, { subject, typeName });
  // `friends[is Admin]: {...}`: the link's targets of one type.
  const narrowing =
    rest.length === 1 && rest[0]?.kind === 'TypeIntersection' && !el.compExpr ? rest[0] : null;
  if (step.kind !== 'Ptr' || (rest.length && !narrowing)) {
    return fail(
      QueryError,
      'a shape element is a name, `@name`, `[is T].name` or `name := expr`',
      el.span,
    );
  }
  if (el.operation !== null && el.operation !== ':=') {
    return fail(QueryError, `'${el.operation}' is only allowed in an update's shape`, el.span);
  }
  // A polymorphic element is empty on objects of other types: `id` may not be (Gel's rule).
  if (onlyFor !== null && step.via === '.' && step.name === 'id') {
    return fail(QueryError, "cannot access property 'id' on a polymorphic shape element", el.span);
  }
  // An object's identity is not a shape's to define (Gel: `Text { id := <uuid>'...' }`).
  if (el.compExpr && step.via === '.' && step.name === 'id') {
    return fail(QueryError, "cannot assign to property 'id'", el.span);
  }
  let expr: IrExpr;
  if (el.compExpr) {
    if (step.via !== '.' && step.via !== '@') {
      return fail(QueryError, 'a computed element needs a plain name', step.span);
    }
    expr = bindExpr(
      ctx,
      source === subject ? scope : subjectScope(scope, source, scope.link),
      el.compExpr,
    );
    if (step.via === '.') refuseWritingElement(expr, subject, el.compExpr.span);
  } else if (step.via === '@') {
    expr = bindStep(ctx, scope, scope.link ?? subject, step);
  } else if (step.via === '.<') {
    return fail(
      QueryError,
      `a backlink element needs a name: write name := .<${step.name}`,
      step.span,
    );
  } else {
    expr = bindStep(ctx, scope, source, step);
    if (narrowing) expr = bindStep(ctx, scope, expr, narrowing);
  }
  if (el.elements !== null) expr = bindShape(ctx, scope, expr, el.elements, el.span);
  const clauses = el.filter || el.orderBy.length || el.offset || el.limit;
  if (clauses) expr = selectOver(ctx, scope, expr, el, el.span);
  if (step.via === '.' && onlyFor === null && (el.compExpr || clauses)) {
    checkComputedElement(
      ctx.index,
      {
        name: step.name,
        owner: typeName,
        base: ctx.index.objectType(typeName)?.pointers.get(step.name) ?? null,
        computed: el.compExpr !== null,
        required: el.required,
        cardinality: el.cardinality,
        span: el.span,
        exprSpan: el.compExpr?.span ?? el.span,
      },
      expr,
    );
  }
  // `multi x := ...` is a list even when it holds one value.
  if (el.cardinality === 'multi' && expr.card.max !== 'many')
    expr = { ...expr, card: { min: expr.card.min, max: 'many' } };
  // Link properties keep their `@` in the result, as Gel's JSON output writes them.
  return [{ name: step.via === '@' ? `@${step.name}` : step.name, expr, onlyFor }];
}

function splat(
  ctx: BindContext,
  scope: Scope,
  source: IrExpr,
  typeName: string,
  onlyFor: string | null,
  step: ql.Splat,
  whole: { readonly subject: IrExpr; readonly typeName: string },
): ShapeElement[] {
  let owner = typeName;
  if (step.type) {
    const t = resolveTypeExpr(ctx.index, scope, step.type);
    if (t.kind !== 'object') return fail(InvalidTypeError, 'T.* needs an object type', step.span);
    owner = t.name;
  }
  if (step.intersection) {
    const t = resolveTypeExpr(ctx.index, scope, step.intersection.type);
    if (t.kind !== 'object')
      return fail(InvalidTypeError, '[is T].* needs an object type', step.span);
    owner = t.name;
    onlyFor = t.name;
    source = bindStep(ctx, scope, source, step.intersection);
  }
  const type = ctx.index.objectType(owner);
  if (!type) return fail(InvalidReferenceError, `type '${owner}' does not exist`, step.span);
  const sourceId = pathIdOf(withPathId(ctx, scope, source)) as string;
  const src = withPathId(ctx, scope, source);
  const out: ShapeElement[] = [];
  for (const pointer of type.pointers.values()) {
    const listed = splatListing(pointer, step.depth === 1 ? 1 : 2);
    if (listed === 'no') continue;
    if (pointer.name === 'id' && onlyFor !== null) {
      // A narrowed splat's `id` is every object's (Gel: splats never narrow `id`).
      const all = withPathId(ctx, scope, whole.subject);
      const id = ctx.index.objectType(whole.typeName)?.pointers.get('id') ?? pointer;
      out.push({
        name: 'id',
        expr: pointerStep(ctx, scope, all, pathIdOf(all) as string, whole.typeName, id),
        onlyFor: null,
      });
      continue;
    }
    let expr: IrExpr = pointerStep(ctx, scope, src, sourceId, owner, pointer);
    if (listed === 'with-target') expr = withTargetProperties(ctx, scope, expr, pointer);
    out.push({ name: pointer.name, expr, onlyFor });
  }
  const link = scope.link;
  if (link?.kind === 'PointerStep' && source === scope.subject) {
    for (const property of link.pointer.properties.values()) {
      const expr = property.computed
        ? computedLinkProperty(ctx, scope, link, property)
        : linkProperty(link, property);
      out.push({ name: `@${property.name}`, expr, onlyFor });
    }
  }
  return out;
}

/**
 * How a splat of `depth` (1: `*`, 2: `**`) lists a pointer, by its `splatStrategy` (as Gel's):
 * `Explicit` never; a `Default` link only in `**`, with its target's `*`; an `Implicit` link in
 * `*` too (as the link itself), and in `**` with its target's `*`; properties always.
 * `__type__` is never listed.
 */
function splatListing(pointer: PointerInfo, depth: 1 | 2): 'no' | 'plain' | 'with-target' {
  const strategy = pointer.model?.splatStrategy ?? 'Default';
  if (pointer.name === '__type__' || strategy === 'Explicit') return 'no';
  if (pointer.kind !== 'link') return 'plain';
  if (depth === 2) return 'with-target';
  return strategy === 'Implicit' ? 'plain' : 'no';
}

/** `**`: a link shown with its target's `*` (and its own link properties). */
function withTargetProperties(
  ctx: BindContext,
  scope: Scope,
  step: IrExpr,
  pointer: PointerInfo,
): IrExpr {
  if (pointer.target.kind !== 'object') return step;
  const target = ctx.index.objectType(pointer.target.name);
  if (!target) return step;
  const linkScope = subjectScope(scope, step, step as PointerStep);
  const elements: ShapeElement[] = [];
  const stepId = pathIdOf(step) as string;
  for (const p of target.pointers.values()) {
    if (splatListing(p, 1) === 'no') continue;
    const one = linkScope.subject as IrExpr;
    elements.push({
      name: p.name,
      expr: pointerStep(ctx, linkScope, one, stepId, target.name, p),
      onlyFor: null,
    });
  }
  for (const property of pointer.properties.values()) {
    elements.push({
      name: `@${property.name}`,
      expr: property.computed
        ? computedLinkProperty(ctx, linkScope, step, property)
        : linkProperty(step as PointerStep, property),
      onlyFor: null,
    });
  }
  return { kind: 'Shape', type: step.type, card: step.card, subject: step, elements };
}

function linkProperty(link: PointerStep, property: PointerInfo): IrExpr {
  return {
    kind: 'LinkProperty',
    type: property.target,
    card: { min: 0, max: property.many ? 'many' : 1 },
    link,
    property,
  };
}

/** The pairs of sources of two link paths, step by step back (`a.b.c`, `x.y.c`: (a.b, x.y), (a, x)). */
export function linkSources(original: IrExpr, source: IrExpr): [IrExpr, IrExpr][] {
  const out: [IrExpr, IrExpr][] = [];
  let o = original;
  let n = source;
  while (o.kind === 'PointerStep' && !o.computed && n.kind === 'PointerStep') {
    o = o.source;
    n = n.source;
    out.push([o, n]);
  }
  return out;
}

/**
 * A shape's computed element may not write (Gel: it would run once per element of the shape's
 * subject); a mutation bound by `with` and read there is fine.
 */
function refuseMutation(el: ql.ShapeElement): void {
  const found = writeIn(el.compExpr);
  if (found !== null) {
    fail(
      QueryError,
      "mutations are invalid in a shape's computed expression",
      found.span,
      "factor the mutation out into the statement's `with` block",
    );
  }
}

/** The first insert, update or delete in the syntax tree, or null. */
function writeIn(node: unknown): { span: ql.Span } | null {
  if (node === null || typeof node !== 'object') return null;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = writeIn(item);
      if (found !== null) return found;
    }
    return null;
  }
  const record = node as Record<string, unknown>;
  if (
    record.kind === 'InsertQuery' ||
    record.kind === 'UpdateQuery' ||
    record.kind === 'DeleteQuery'
  ) {
    return record as unknown as { span: ql.Span };
  }
  for (const [key, value] of Object.entries(record)) {
    if (key === 'span') continue;
    const found = writeIn(value);
    if (found !== null) return found;
  }
  return null;
}
