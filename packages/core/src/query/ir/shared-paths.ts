/**
 * query/ir/shared-paths: which paths a call with optional arguments evaluates once per element around
 * itself (Gel's path factoring for `??`, `?=`, `?!=` and functions with `optional` parameters).
 *
 * Gel binds an optional argument's set in the scope of the call (not in a fence of its own), so
 * a path that two arguments both reach is one element shared by them: `Issue.time_estimate ??
 * -Issue.number` is evaluated once per `Issue`, while `Issue.time_estimate ?= 60` (no shared
 * path) once per time estimate, and once with `{}` when there is none. A path inside a fence
 * (a subquery, a set-of argument such as `count(x)` or the right side of `??`) is shared with
 * an occurrence outside a fence in another argument, never with another fenced one.
 *
 * Input: a bound IR node. Output: the shared paths each written path is bound at (its longest
 * shared prefix; a shared prefix only ever reached through a longer shared path is bound inside
 * that one), one node each, prefixes first.
 * Pure; used by the binder (what a statement's clauses see as one element, bind/factoring) and
 * the planner (what it binds around the call, optionally: an empty shared path is one iteration
 * with `{}`).
 */
import type { IrExpr } from './types';
import { children } from './walk';

/** The arguments of `expr` when it is a call taking some argument optionally; else null. */
export function optionalCallArgs(expr: IrExpr): readonly IrExpr[] | null {
  if (expr.kind === 'Coalesce') return [expr.left, expr.right];
  if (expr.kind === 'Call' && expr.callKind === 'element' && expr.modes.includes('optional'))
    return expr.args;
  return null;
}

/** One path as written: its nodes from the path itself down to its root (the longest first). */
type Chain = readonly { readonly id: string; readonly node: IrExpr }[];

interface ArgPaths {
  readonly open: Chain[];
  readonly ids: { readonly open: Set<string>; readonly fenced: Set<string> };
}

/**
 * The paths several of `args` reach (see the module comment), prefixes first. A path is shared
 * when it occurs outside a fence in one argument and anywhere in another; each path written
 * outside a fence is bound at its longest shared prefix (`Issue.time_estimate ?= Issue.
 * time_estimate * 2`: the time estimate; `(Issue.name, Issue.time_estimate) ?? (Issue.name, -1)`:
 * the issue, and its name).
 */
export function sharedPaths(args: readonly IrExpr[]): IrExpr[] {
  const perArg: ArgPaths[] = args.map((arg) => {
    const paths: ArgPaths = { open: [], ids: { open: new Set(), fenced: new Set() } };
    visit(arg, false, paths);
    return paths;
  });
  const shared = (id: string, i: number): boolean =>
    perArg.some((b, j) => j !== i && (b.ids.open.has(id) || b.ids.fenced.has(id)));
  const hoisted = new Map<string, { node: IrExpr; depth: number }>();
  perArg.forEach((a, i) => {
    for (const chain of a.open) {
      const at = chain.findIndex((p) => p.id !== '' && shared(p.id, i));
      const found = chain[at];
      if (found && !hoisted.has(found.id))
        hoisted.set(found.id, { node: found.node, depth: chain.length - at });
    }
  });
  return [...hoisted.values()].sort((a, b) => a.depth - b.depth).map((h) => h.node);
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

function visit(expr: IrExpr, fenced: boolean, paths: ArgPaths): void {
  const path = pathOf(expr);
  if (path) {
    const chain: { id: string; node: IrExpr }[] = [];
    let root: IrExpr | null = null;
    for (let e: IrExpr | null = expr; e !== null; ) {
      const p = pathOf(e);
      if (p === null) {
        root = e;
        break;
      }
      chain.push({ id: p.id, node: e });
      e = p.source;
    }
    for (const p of chain) if (p.id) (fenced ? paths.ids.fenced : paths.ids.open).add(p.id);
    if (!fenced) paths.open.push(chain);
    if (root) visit(root, fenced, paths);
    return;
  }
  switch (expr.kind) {
    case 'BindingRef':
      visit(expr.binding.expr, fenced, paths);
      return;
    case 'Call':
      expr.args.forEach((a, i) => {
        const mode = expr.modes[i] ?? 'element';
        visit(a, fenced || mode === 'set' || expr.callKind !== 'element', paths);
      });
      return;
    case 'Coalesce':
      visit(expr.left, fenced, paths);
      visit(expr.right, true, paths);
      return;
    case 'IfElse':
      visit(expr.condition, fenced, paths);
      visit(expr.then, true, paths);
      visit(expr.else, true, paths);
      return;
    case 'Cast':
    case 'TypeCheck':
    case 'ObjectJson':
      visit(expr.expr, fenced, paths);
      return;
    case 'TupleLiteral':
    case 'ArrayLiteral':
      for (const e of expr.elements) visit(e, fenced, paths);
      return;
    case 'TupleElement':
      visit(expr.tuple, fenced, paths);
      return;
    case 'LinkProperty':
      visit(expr.link, fenced, paths);
      return;
    case 'Shape':
      visit(expr.subject, fenced, paths);
      for (const e of expr.elements) visit(e.expr, true, paths);
      return;
    default:
      for (const c of children(expr)) visit(c, true, paths);
  }
}
