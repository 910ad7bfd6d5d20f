/**
 * bind/views: reading a computed element of a shape through a path. A set whose objects carry a
 * shape (`with u := User { b := .name ++ '!' } select u.b`, `(select User { b := ... }).b`) has
 * the shape's computed elements as pointers: `source.b` is the element's expression bound again
 * with `source` as `.` (a computed pointer step). A shape on a set that already carries one keeps
 * the computed elements of the one beneath it it does not define again.
 */
import { pathIdOf, rootKeyOf } from '../ir';
import type * as ql from '../../syntax';
import type { IrExpr, PointerStep } from '../ir';
import type { PointerInfo } from '../schema-index';
import type { BindContext, Scope } from './context';
import { bindExpr } from './dispatch';
import { computedStepKey } from './factoring';
import { subjectScope } from './names';
import { bindStep, groupOf } from './paths';
import { selectOver } from './statement';
import { bindShape, linkSources } from './shape';

/** The shape a set's objects carry (through aliases, selects and `for`), if any. */
export function shapeOf(expr: IrExpr): IrExpr | null {
  switch (expr.kind) {
    case 'Shape':
      return expr;
    case 'BindingRef':
      return shapeOf(expr.binding.expr);
    case 'Select':
      return shapeOf(expr.result);
    case 'For':
      return shapeOf(expr.body);
    case 'Assert':
    case 'Distinct':
      return shapeOf(expr.expr);
    case 'PointerStep': {
      if (expr.computed) return shapeOf(expr.computed);
      // A link with a sub-shape in its source's shape (`U.deck` with `U := User { deck: {...} }`).
      const source = shapeOf(expr.source);
      const element =
        source?.kind === 'Shape'
          ? source.elements.find((e) => e.name === expr.pointer.name && e.onlyFor === null)
          : undefined;
      return element && element.expr !== expr ? shapeOf(element.expr) : null;
    }
    case 'GroupElements': {
      // A group's elements carry its subject's shape (`group User { b := ... } by .name`).
      const group = groupOf(expr.group);
      return group ? shapeOf(group.elements) : null;
    }
    case 'TupleElement':
      return shapeOf(tupleElementOf(expr.tuple, expr.position) ?? expr.tuple);
    case 'Call': {
      // An element of an array of shaped objects (`array_agg(U { m := 1 })[0].m`).
      const [array] = expr.args;
      if ((expr.name === 'std::[]' || expr.name === 'std::array_get') && array)
        return elementShapeOf(array);
      return null;
    }
    default:
      return null;
  }
}

/** The shape the objects of an array carry: those aggregated, or one shape of every literal
 * element. */
function elementShapeOf(array: IrExpr): IrExpr | null {
  if (array.kind === 'BindingRef') return elementShapeOf(array.binding.expr);
  if (array.kind === 'Call' && array.name === 'std::array_agg' && array.args[0])
    return shapeOf(array.args[0]);
  if (array.kind === 'ArrayLiteral') {
    const shapes = array.elements.map(shapeOf);
    return shapes.every((s) => s !== null && s === shapes[0]) ? (shapes[0] ?? null) : null;
  }
  return null;
}

/** Element `position` of a tuple literal (through aliases), if `tuple` is one. */
function tupleElementOf(tuple: IrExpr, position: number): IrExpr | null {
  if (tuple.kind === 'BindingRef') return tupleElementOf(tuple.binding.expr, position);
  return tuple.kind === 'TupleLiteral' ? (tuple.elements[position] ?? null) : null;
}

/**
 * The shapes a set's objects carry, outermost first: a shape on a set that already carries one
 * (`(select U {name}) {name}`) keeps the computed elements of the one beneath it.
 */
export function shapeChain(first: IrExpr | null): IrExpr[] {
  const out: IrExpr[] = [];
  for (let shape = first; shape !== null && !out.includes(shape); ) {
    out.push(shape);
    shape = shape.kind === 'Shape' ? shapeOf(shape.subject) : null;
  }
  return out;
}

/**
 * `source.name` where `name` is a computed element of the shape `source` carries: the
 * element's expression bound again with `source` as `.`, as a computed pointer step.
 */
export function viewStep(
  ctx: BindContext,
  source: IrExpr,
  sourceId: string,
  sourceType: string,
  name: string,
  carrier: IrExpr | null = null,
): PointerStep | null {
  // A shape on a set that carries a shape (`X { name, b }` with `X := User { b := ... }`) keeps
  // the inner shape's computed elements it does not define again.
  // The first shape that defines `name` and is not already rebinding it (a sub-shape written on
  // an element, `X { b: { c } }`, reads `b` from the shape beneath, `X := User { b := ... }`).
  const shape = shapeChain(carrier ?? shapeOf(source)).find(
    (s) => ctx.viewElements.get(s)?.has(name) && !ctx.rebinding.get(s)?.has(name),
  );
  const view = shape ? ctx.viewElements.get(shape)?.get(name) : undefined;
  if (!view || !shape) return null;
  const active = ctx.rebinding.get(shape) ?? new Set<string>();
  if (active.has(name)) return null;
  ctx.rebinding.set(shape, active);
  active.add(name);
  try {
    return rebindView(ctx, shape, view, source, sourceId, sourceType, name);
  } finally {
    active.delete(name);
  }
}

function rebindView(
  ctx: BindContext,
  shape: IrExpr,
  view: { element: ql.ShapeElement; scope: Scope },
  source: IrExpr,
  sourceId: string,
  sourceType: string,
  name: string,
): PointerStep {
  const { element, scope } = view;
  // Inside the element, the shape's subject (`Card` in `Card { slug := Card.name }`) is `source`.
  const original = (shape as Extract<IrExpr, { kind: 'Shape' }>).subject;
  const subjectId = pathIdOf(original) as string;
  const one = { ...source, card: { min: 1, max: 1 } } as IrExpr;
  // By the occurrence and by its root key (another occurrence of the same name, bind/scoping).
  const keys =
    original.kind === 'TypeRoot'
      ? [subjectId, original.objectType]
      : [subjectId, rootKeyOf(subjectId)];
  const aliases: [string, IrExpr][] = keys.map((k) => [k, one]);
  // A subject that is a computed step (`Card.owners { n := Card.owners.name }`) is named again
  // inside by its source and name (bind/factoring `computedStepKey`).
  const stepKey = computedStepKey(original);
  if (stepKey !== null) aliases.push([stepKey, one]);
  // A link's sub-shape (`User { deck: { n := User.deck@count } }`): its subject's sources are the
  // new source's sources (`U.deck.n`: `User` is `U`'s element).
  for (const [o, n] of linkSources(original, source)) {
    const id = pathIdOf(o);
    const alias = { ...n, card: { min: 1, max: 1 } } as IrExpr;
    if (id !== null) aliases.push([id, alias], [rootKeyOf(id), alias]);
    if (o.kind === 'TypeRoot') aliases.push([o.objectType, alias]);
  }
  // A computed link property (`@c := @count * 2`) reads the link `source` is the targets of.
  const head = element.path[0];
  const link = head?.kind === 'Ptr' && head.via === '@' ? source : null;
  const inner: Scope = {
    ...subjectScope(scope, source, link),
    pathAliases: new Map([...scope.pathAliases, ...aliases]),
    // Each use of a computed element is a set of its own (Gel does not factor computables); a
    // stored link written with a sub-shape (`deck: { n := ... }`) is the link itself.
    aliasNamespace: element.compExpr
      ? `${scope.aliasNamespace}~v${ctx.freshId()}`
      : scope.aliasNamespace,
  };
  let expr = element.compExpr
    ? bindExpr(ctx, inner, element.compExpr)
    : bindStep(ctx, inner, inner.subject as IrExpr, element.path[0] as ql.Ptr);
  if (element.elements !== null) expr = bindShape(ctx, inner, expr, element.elements, element.span);
  if (element.filter || element.orderBy.length || element.offset || element.limit) {
    expr = selectOver(ctx, inner, expr, element, element.span);
  }
  const pointer: PointerInfo = {
    name,
    kind: expr.type.kind === 'object' ? 'link' : 'property',
    required: expr.card.min === 1,
    many: expr.card.max === 'many',
    target:
      expr.type.kind === 'empty' || expr.type.kind === 'free'
        ? { kind: 'scalar', name: 'std::str' }
        : expr.type,
    computed: element.compExpr,
    declaredIn: sourceType,
    properties: new Map(),
    model: null,
  };
  return {
    kind: 'PointerStep',
    type: expr.type,
    card: {
      min: source.card.min === 1 && expr.card.min === 1 ? 1 : 0,
      max:
        source.card.max === 0 || expr.card.max === 0
          ? 0
          : source.card.max === 'many' || expr.card.max === 'many'
            ? 'many'
            : 1,
    },
    source,
    sourceType,
    pointer,
    computed: expr,
    pathId: element.compExpr ? `${sourceId}.${name}~${ctx.freshId()}` : `${sourceId}.${name}`,
  };
}
