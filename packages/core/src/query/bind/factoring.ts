/**
 * bind/factoring: which paths a call with optional arguments evaluates once per element around
 * itself (Gel's path factoring for `??`, `?=`, `?!=` and functions with `optional` parameters).
 *
 * Gel binds an optional argument's set in the scope of the call (not in a fence of its own), so
 * a path that two arguments both reach is one element shared by them: `Issue.time_estimate ??
 * -Issue.number` is evaluated once per `Issue`, while `Issue.time_estimate ?= 60` (no shared
 * path) once per time estimate, and once with `{}` when there is none. A path inside a fence
 * (a subquery, a set-of argument such as `count(x)` or the right side of `??`) is shared with
 * an occurrence outside a fence in another argument, never with another fenced one.
 *
 * Input: a bound IR node. Output: the longest such shared paths (a prefix of another shared
 * path is not listed: it is bound inside it), one node each, in order of first occurrence.
 * Pure; used by the binder (what a statement's clauses see as one element) and the planner (what
 * it binds around the call, optionally: an empty shared path is one iteration with `{}`).
 */
import type { IrExpr } from '../ir';
import { children } from './statement';

/** The arguments of `expr` when it is a call taking some argument optionally; else null. */
export function optionalCallArgs(expr: IrExpr): readonly IrExpr[] | null {
  if (expr.kind === 'Coalesce') return [expr.left, expr.right];
  if (expr.kind === 'Call' && expr.callKind === 'element' && expr.modes.includes('optional'))
    return expr.args;
  return null;
}

interface Occurrence {
  readonly node: IrExpr;
  /** Path ids of the node's prefixes (the sources it was reached from). */
  readonly prefixes: readonly string[];
}

/** The paths several of `args` reach (see the module comment), longest first-occurring. */
export function sharedPaths(args: readonly IrExpr[]): IrExpr[] {
  const perArg = args.map((arg) => {
    const open = new Map<string, Occurrence>();
    const fenced = new Map<string, Occurrence>();
    visit(arg, false, open, fenced);
    return { open, fenced };
  });
  const shared = new Map<string, Occurrence>();
  perArg.forEach((a, i) => {
    for (const [id, occurrence] of a.open) {
      if (shared.has(id)) continue;
      const elsewhere = perArg.some((b, j) => j !== i && (b.open.has(id) || b.fenced.has(id)));
      if (elsewhere) shared.set(id, occurrence);
    }
  });
  const prefixesOfShared = new Set([...shared.values()].flatMap((o) => o.prefixes));
  return [...shared]
    .filter(([id]) => !prefixesOfShared.has(id))
    .map(([, occurrence]) => occurrence.node);
}

function pathOf(expr: IrExpr): { id: string; source: IrExpr | null } | null {
  switch (expr.kind) {
    case 'TypeRoot':
      return { id: expr.pathId, source: null };
    case 'BindingRef':
      return expr.binding.transparent ? null : { id: expr.pathId, source: null };
    case 'PointerStep':
      // A computed pointer is a set of its own at each use: its source is what may be shared.
      return expr.computed
        ? { id: '', source: expr.source }
        : { id: expr.pathId, source: expr.source };
    case 'Backlink':
    case 'Intersection':
      return { id: expr.pathId, source: expr.source };
    default:
      return null;
  }
}

function visit(
  expr: IrExpr,
  fenced: boolean,
  open: Map<string, Occurrence>,
  closed: Map<string, Occurrence>,
): void {
  const path = pathOf(expr);
  if (path) {
    const prefixes: string[] = [];
    for (let s = path.source; s !== null; s = pathOf(s)?.source ?? null) {
      const p = pathOf(s);
      if (p === null) break;
      if (p.id) prefixes.push(p.id);
    }
    const into = fenced ? closed : open;
    if (path.id && !into.has(path.id)) into.set(path.id, { node: expr, prefixes });
    if (path.source) visit(path.source, fenced, open, closed);
    return;
  }
  switch (expr.kind) {
    case 'BindingRef':
      visit(expr.binding.expr, fenced, open, closed);
      return;
    case 'Call':
      expr.args.forEach((a, i) => {
        const mode = expr.modes[i] ?? 'element';
        visit(a, fenced || mode === 'set' || expr.callKind !== 'element', open, closed);
      });
      return;
    case 'Coalesce':
      visit(expr.left, fenced, open, closed);
      visit(expr.right, true, open, closed);
      return;
    case 'IfElse':
      visit(expr.condition, fenced, open, closed);
      visit(expr.then, true, open, closed);
      visit(expr.else, true, open, closed);
      return;
    case 'Cast':
    case 'TypeCheck':
      visit(expr.expr, fenced, open, closed);
      return;
    case 'TupleLiteral':
    case 'ArrayLiteral':
      for (const e of expr.elements) visit(e, fenced, open, closed);
      return;
    case 'TupleElement':
      visit(expr.tuple, fenced, open, closed);
      return;
    case 'LinkProperty':
      visit(expr.link, fenced, open, closed);
      return;
    case 'Shape':
      visit(expr.subject, fenced, open, closed);
      for (const e of expr.elements) visit(e.expr, true, open, closed);
      return;
    default:
      for (const c of children(expr)) visit(c, true, open, closed);
  }
}
