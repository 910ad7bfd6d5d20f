/**
 * plan/paths: questions about IR paths the planner asks before planning them — a path's id, the
 * object paths an expression reads element-wise (for path factoring), which sets need rows,
 * which steps are read through their link rows, and which sets carry shapes or objects.
 * Pure functions of the IR (and of what a Rel has bound).
 */
import { QueryError } from '../../errors';
import type { IrExpr, IrType } from '../ir';
import { children, ownPathId } from '../ir';
import type { Rel } from './rel';

/** Whether values of `expr` hold objects (whose result form is not their value's). */
export function hasObjects(expr: IrExpr): boolean {
  const has = (type: IrType): boolean =>
    type.kind === 'object' ||
    (type.kind === 'tuple' && type.elements.some((e) => has(e.type))) ||
    (type.kind === 'array' && has(type.element));
  return has(expr.type);
}

/** The steps whose link rows a link property reads: never made DISTINCT. */
export function markLinkRows(done: WeakSet<IrExpr>, expr: IrExpr): void {
  done.add(expr);
  switch (expr.kind) {
    case 'Intersection':
      return markLinkRows(done, expr.source);
    case 'BindingRef':
      if (expr.binding.transparent) markLinkRows(done, expr.binding.expr);
      return;
    case 'Select':
    case 'Shape':
      return markLinkRows(done, expr.subject);
    default:
      return;
  }
}

/** True when a shape's elements read link properties of its own subject's link. */
export function readsLinkRowsOf(shape: IrExpr & { kind: 'Shape' }): boolean {
  const subject = ownPathId(shape.subject);
  if (subject === null) return false;
  const reads = (expr: IrExpr): boolean =>
    (expr.kind === 'LinkProperty' && ownPathId(expr.link) === subject) ||
    children(expr).some(reads);
  return shape.elements.some((el) => reads(el.expr));
}

/** The link properties an object set's elements carry (the links they came through). */
export function linkPropertyNames(expr: IrExpr): string[] {
  switch (expr.kind) {
    case 'PointerStep':
      if (expr.computed) return linkPropertyNames(expr.computed);
      return expr.pointer.kind === 'link'
        ? [...expr.pointer.properties.values()].filter((p) => !p.computed).map((p) => p.name)
        : [];
    case 'Backlink': {
      const names = new Set<string>();
      for (const l of expr.links)
        for (const p of l.pointer.properties.values()) if (!p.computed) names.add(p.name);
      return [...names];
    }
    case 'Intersection':
      return linkPropertyNames(expr.source);
    case 'Select':
    case 'Shape':
      return linkPropertyNames(expr.subject);
    case 'BindingRef':
      return linkPropertyNames(expr.binding.expr);
    case 'GroupElements':
      return linkPropertyNames(groupNode(expr.group).elements);
    default:
      return [];
  }
}

/** The Group node behind a reference to group results. */
export function groupNode(expr: IrExpr): Extract<IrExpr, { kind: 'Group' }> {
  if (expr.kind === 'Group') return expr;
  if (expr.kind === 'BindingRef') return groupNode(expr.binding.expr);
  if (expr.kind === 'Select') return groupNode(expr.subject);
  if (expr.kind === 'Shape') return groupNode(expr.subject);
  // An element of a group of groups (`group (group X by .a) by ...`) is a group of the inner one.
  if (expr.kind === 'GroupElements') return groupNode(groupNode(expr.group).elements);
  throw new QueryError('expected group results');
}

/** Object paths read element-wise by `expr` (see plan/rows `prebind`), outermost first. */
export function collectElementPaths(expr: IrExpr, out: IrExpr[], links: IrExpr[] = []): void {
  switch (expr.kind) {
    case 'BindingRef':
      if (expr.binding.transparent) collectElementPaths(expr.binding.expr, out, links);
      else if (!expr.binding.iteration) out.push(expr);
      return;
    case 'TypeRoot':
    case 'PointerStep':
    case 'Backlink':
    case 'Intersection':
      if (expr.type.kind === 'object') out.push(expr);
      else if (expr.kind === 'PointerStep') collectElementPaths(expr.source, out, links);
      return;
    case 'Call':
      if (expr.callKind !== 'element') return;
      expr.args.forEach((a, i) => {
        if (expr.modes[i] === 'element') collectElementPaths(a, out, links);
      });
      return;
    case 'LinkProperty':
      // Read through the link rows: the link's objects are one per link, not distinct.
      links.push(expr.link);
      collectElementPaths(expr.link, out, links);
      return;
    case 'Cast':
    case 'TypeCheck':
    case 'ObjectJson':
      collectElementPaths(expr.expr, out, links);
      return;
    case 'TupleLiteral':
    case 'ArrayLiteral':
      for (const e of expr.elements) collectElementPaths(e, out, links);
      return;
    case 'IfElse':
      // The branches are sets of their own (std::IF takes them as SET OF): only the condition.
      collectElementPaths(expr.condition, out, links);
      return;
    case 'Shape':
      collectElementPaths(expr.subject, out, links);
      return;
    default:
      return;
  }
}

/**
 * Path ids that are prefixes of a path bound in `rel` (or a parent) somewhere in `expr`: a path
 * bound as a whole (`Issue.time_estimate`, around a `??`) needs no binding of its prefix.
 */
export function boundPrefixes(rel: Rel, expr: IrExpr): Set<string> {
  const out = new Set<string>();
  const walk = (e: IrExpr): void => {
    const id = ownPathId(e);
    if (id !== null && rel.lookup(id) !== undefined) {
      for (let s = sourceOf(e); s !== null; s = sourceOf(s)) {
        const sid = ownPathId(s);
        if (sid !== null) out.add(sid);
      }
    }
    for (const c of children(e)) walk(c);
  };
  walk(expr);
  return out;
}

/**
 * Whether lifting `expr` element-wise here may drop the row when it is empty: it reads an
 * `[is T]` not bound yet, or a select or `for` (joined by their result's cardinality).
 */
export function dropsRowWhenEmpty(rel: Rel, expr: IrExpr): boolean {
  const unbound = (e: IrExpr): boolean => {
    const id = ownPathId(e);
    return id === null ? rel.lookupNode(e) === undefined : rel.lookup(id) === undefined;
  };
  const walk = (e: IrExpr): boolean => {
    if (!unbound(e)) return false;
    switch (e.kind) {
      case 'Intersection':
      case 'Select':
      case 'For':
        return true;
      case 'PointerStep':
      case 'Backlink':
        return walk(e.source);
      case 'BindingRef':
        return e.binding.transparent === true && walk(e.binding.expr);
      case 'Call':
        return (
          e.callKind === 'element' && e.args.some((a, i) => e.modes[i] === 'element' && walk(a))
        );
      case 'Cast':
      case 'TypeCheck':
      case 'ObjectJson':
        return walk(e.expr);
      case 'TupleLiteral':
      case 'ArrayLiteral':
        return e.elements.some(walk);
      case 'TupleElement':
        return walk(e.tuple);
      default:
        return false;
    }
  };
  return walk(expr);
}

function sourceOf(expr: IrExpr): IrExpr | null {
  return expr.kind === 'PointerStep' || expr.kind === 'Backlink' || expr.kind === 'Intersection'
    ? expr.source
    : null;
}

/** Sets whose elements are rows to lift (everything `liftNew` does not compute as a value). */
export function needsRows(expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'TypeRoot':
    case 'PointerStep':
    case 'Backlink':
    case 'Intersection':
    case 'ObjectCast':
    case 'BindingRef':
    case 'Shape':
    case 'Select':
    case 'For':
    case 'SetLiteral':
    case 'SetOp':
    case 'Distinct':
    case 'Assert':
    case 'Group':
    case 'GroupElements':
      return true;
    case 'GroupGrouping':
      return !expr.array;
    case 'Coalesce':
      return (
        expr.type.kind === 'object' ||
        expr.left.card.max === 'many' ||
        expr.right.card.max === 'many'
      );
    case 'IfElse':
      return (
        expr.type.kind === 'object' ||
        expr.then.card.max === 'many' ||
        expr.else.card.max === 'many'
      );
    case 'Call':
      return expr.callKind === 'set-returning';
    default:
      return false;
  }
}

/**
 * Whether `expr` (a collection) may carry shapes or free objects in its items: anything it is
 * built from has one (a quick syntactic bound; a collection without is rendered the same way).
 */
export function carriesShape(expr: IrExpr): boolean {
  const seen = new Set<unknown>();
  const visit = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return false;
    seen.add(node);
    const kind = (node as { kind?: unknown }).kind;
    if (kind === 'Shape' || kind === 'FreeObject') return true;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type' || key === 'overload' || key === 'pointer') continue;
      if (Array.isArray(value) ? value.some(visit) : visit(value)) return true;
    }
    return false;
  };
  return visit(expr);
}
