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
import type * as ql from '../../syntax';
import { InvalidReferenceError, InvalidTypeError, QueryError } from '../../errors';
import type { IrExpr, PointerStep, ShapeElement } from '../ir';
import type { PointerInfo } from '../schema-index';
import { fail, type BindContext, type Scope } from './context';
import { bindExpr, bindStep, pathIdOf, pointerStep, subjectScope, withPathId } from './expr';
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
  if (!isObjectType(inner.type)) {
    return fail(InvalidTypeError, `a shape applies to objects, not '${printIrType(inner.type)}'`, span);
  }
  const subj = withPathId(ctx, scope, inner);
  const elementScope = subjectScope(scope, subj, linkOf(subj));
  const out: ShapeElement[] = [];
  const put = (el: ShapeElement): void => {
    const at = out.findIndex((e) => e.name === el.name && e.onlyFor === el.onlyFor);
    if (at >= 0) out[at] = el;
    else out.push(el);
  };
  for (const el of elements) {
    const one = elementScope.subject as IrExpr;
    for (const bound of bindElement(ctx, elementScope, one, inner.type.name, el)) put(bound);
  }
  return { kind: 'Shape', type: subj.type, card: subj.card, subject: subj, elements: out };
}

/** The link step whose properties `@x` reads, when the subject is one. */
export function linkOf(subject: IrExpr): PointerStep | null {
  const step =
    subject.kind === 'BindingRef' && subject.binding.expr.kind === 'PointerStep'
      ? subject.binding.expr
      : subject;
  return step.kind === 'PointerStep' && step.pointer.kind === 'link' ? step : null;
}

function bindElement(
  ctx: BindContext,
  scope: Scope,
  subject: IrExpr,
  typeName: string,
  el: ql.ShapeElement,
): ShapeElement[] {
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
  if (step.kind === 'Splat') return splat(ctx, scope, source, onlyFor ?? typeName, onlyFor, step);
  // `friends[is Admin]: {...}`: the link's targets of one type.
  const narrowing = rest.length === 1 && rest[0]?.kind === 'TypeIntersection' && !el.compExpr ? rest[0] : null;
  if (step.kind !== 'Ptr' || (rest.length && !narrowing)) {
    return fail(QueryError, 'a shape element is a name, `@name`, `[is T].name` or `name := expr`', el.span);
  }
  if (el.operation !== null && el.operation !== ':=') {
    return fail(QueryError, `'${el.operation}' is only allowed in an update's shape`, el.span);
  }
  let expr: IrExpr;
  if (el.compExpr) {
    if (step.via !== '.' && step.via !== '@') {
      return fail(QueryError, 'a computed element needs a plain name', step.span);
    }
    expr = bindExpr(ctx, source === subject ? scope : subjectScope(scope, source, scope.link), el.compExpr);
  } else if (step.via === '@') {
    expr = bindStep(ctx, scope, scope.link ?? subject, step);
  } else if (step.via === '.<') {
    return fail(QueryError, `a backlink element needs a name: write name := .<${step.name}`, step.span);
  } else {
    expr = bindStep(ctx, scope, source, step);
    if (narrowing) expr = bindStep(ctx, scope, expr, narrowing);
  }
  if (el.elements !== null) expr = bindShape(ctx, scope, expr, el.elements, el.span);
  if (el.filter || el.orderBy.length || el.offset || el.limit) {
    expr = selectOver(ctx, scope, expr, el, el.span);
  }
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
): ShapeElement[] {
  let owner = typeName;
  if (step.type) {
    const t = resolveTypeExpr(ctx.index, scope, step.type);
    if (t.kind !== 'object') return fail(InvalidTypeError, 'T.* needs an object type', step.span);
    owner = t.name;
  }
  if (step.intersection) {
    const t = resolveTypeExpr(ctx.index, scope, step.intersection.type);
    if (t.kind !== 'object') return fail(InvalidTypeError, '[is T].* needs an object type', step.span);
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
    if (pointer.name === '__type__') continue;
    if (pointer.kind === 'link' && step.depth === 1) continue;
    let expr: IrExpr = pointerStep(ctx, scope, src, sourceId, owner, pointer);
    if (pointer.kind === 'link') expr = withTargetProperties(ctx, scope, expr, pointer);
    out.push({ name: pointer.name, expr, onlyFor });
  }
  const link = scope.link;
  if (link && source === scope.subject) {
    for (const property of link.pointer.properties.values()) {
      out.push({ name: `@${property.name}`, expr: linkProperty(link, property), onlyFor });
    }
  }
  return out;
}

/** `**`: a link shown with its target's properties (and its own link properties). */
function withTargetProperties(ctx: BindContext, scope: Scope, step: IrExpr, pointer: PointerInfo): IrExpr {
  if (pointer.target.kind !== 'object') return step;
  const target = ctx.index.objectType(pointer.target.name);
  if (!target) return step;
  const linkScope = subjectScope(scope, step, step as PointerStep);
  const elements: ShapeElement[] = [];
  const stepId = pathIdOf(step) as string;
  for (const p of target.pointers.values()) {
    if (p.kind === 'link') continue;
    const one = linkScope.subject as IrExpr;
    elements.push({ name: p.name, expr: pointerStep(ctx, linkScope, one, stepId, target.name, p), onlyFor: null });
  }
  for (const property of pointer.properties.values()) {
    elements.push({ name: `@${property.name}`, expr: linkProperty(step as PointerStep, property), onlyFor: null });
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
