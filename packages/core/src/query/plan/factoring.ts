/**
 * plan/factoring: the common prefixes Gel's path factoring binds once (the planner lifts them
 * before the paths that extend them).
 *
 * In `Issue.owner.name ++ Issue.watchers.name` both paths start at `Issue`, so `Issue` is one
 * element and each issue's owner is paired with that watchers (not every owner with
 * every watcher). The same holds when the other use is inside a fence of the same statement
 * (`Issue.owner.name ++ <str>count(Issue.watchers)`: one count per issue) or in the statement's
 * clauses (`select Issue.owner filter Issue.number = '1'`). A path read alone keeps its set
 * semantics (`Issue.owner` alone: each owner once).
 *
 * Input: the paths a set reads element-wise (the planner's prebind list) and every expression
 * of the scope (the set itself and its statement's clauses). Output: the prefixes to bind
 * first, shortest first.
 */
import { children } from '../ir';
import type { IrExpr } from '../ir';

type PathNode = Extract<IrExpr, { kind: 'TypeRoot' | 'PointerStep' | 'Backlink' | 'Intersection' }>;

/** `expr`'s path ids from its root down to itself (following sources that have ids). */
function chainOf(expr: IrExpr): string[] {
  const ids: string[] = [];
  let current: IrExpr | null = expr;
  while (current) {
    if (current.kind === 'TypeRoot') {
      ids.push(current.pathId);
      break;
    }
    if (
      current.kind === 'PointerStep' ||
      current.kind === 'Backlink' ||
      current.kind === 'Intersection'
    ) {
      ids.push(current.pathId);
      if (isComputedStep(current)) break;
      current = current.source;
      continue;
    }
    if (current.kind === 'BindingRef') {
      ids.push(current.pathId);
      if (current.binding.transparent) {
        ids.pop();
        current = current.binding.expr;
        continue;
      }
    }
    break;
  }
  return ids.reverse();
}

/** The ancestors of `expr` with path ids, keyed by id (`Issue` for `Issue.owner`). */
function ancestorsOf(expr: IrExpr): Map<string, IrExpr> {
  const out = new Map<string, IrExpr>();
  let current: IrExpr = expr;
  for (;;) {
    let next: IrExpr | null = null;
    if (isComputedStep(current)) return out;
    if (
      current.kind === 'PointerStep' ||
      current.kind === 'Backlink' ||
      current.kind === 'Intersection'
    )
      next = current.source;
    else if (current.kind === 'BindingRef' && current.binding.transparent)
      next = current.binding.expr;
    if (next === null) return out;
    if (next.kind !== 'BindingRef' || !next.binding.transparent) {
      const id = idOf(next);
      if (id !== null) out.set(id, next);
    }
    current = next;
  }
}

/**
 * A computed pointer's values are a set of their own for each use (Gel does not factor
 * computables), and so is the path before it: a chain starts again after a computed step.
 */
function isComputedStep(expr: IrExpr): boolean {
  return expr.kind === 'PointerStep' && expr.computed !== null;
}

function idOf(expr: IrExpr): string | null {
  switch (expr.kind) {
    case 'TypeRoot':
    case 'PointerStep':
    case 'Backlink':
    case 'Intersection':
    case 'BindingRef':
      return (expr as PathNode | Extract<IrExpr, { kind: 'BindingRef' }>).pathId;
    default:
      return null;
  }
}

/**
 * Every path chain in `expr` (its sub-expressions too, fences included); a path's own prefixes
 * are part of its chain, not chains of their own.
 */
function allChains(expr: IrExpr, out: string[][], seen: Set<IrExpr>): void {
  if (seen.has(expr)) return;
  seen.add(expr);
  switch (expr.kind) {
    case 'TypeRoot':
    case 'PointerStep':
    case 'Backlink':
    case 'Intersection': {
      out.push(chainOf(expr));
      // The root of the chain may be a set without an id of its own (a transparent binding).
      let root: IrExpr = expr;
      while (
        root.kind === 'PointerStep' ||
        root.kind === 'Backlink' ||
        root.kind === 'Intersection'
      )
        root = root.source;
      if (root.kind === 'BindingRef' && root.binding.transparent)
        allChains(root.binding.expr, out, seen);
      return;
    }
    case 'BindingRef':
      if (expr.binding.transparent) allChains(expr.binding.expr, out, seen);
      else out.push([expr.pathId]);
      return;
    default:
      for (const child of children(expr)) allChains(child, out, seen);
  }
}

/**
 * The prefixes of `paths` that another path of the scope also goes through by a different
 * step (or reads itself): bound once, before the paths that extend them.
 */
export function sharedPrefixes(paths: readonly IrExpr[], scope: readonly IrExpr[]): IrExpr[] {
  const chains: string[][] = [];
  const seen = new Set<IrExpr>();
  for (const e of scope) allChains(e, chains, seen);
  const shared = new Map<string, { expr: IrExpr; depth: number }>();
  for (const path of paths) {
    const chain = chainOf(path);
    const ancestors = ancestorsOf(path);
    for (let i = 0; i < chain.length - 1; i++) {
      const id = chain[i] as string;
      const next = chain[i + 1];
      const expr = ancestors.get(id);
      if (!expr || shared.has(id)) continue;
      const branches = chains.some((c) => c[i] === id && (c.length === i + 1 || c[i + 1] !== next));
      if (branches) shared.set(id, { expr, depth: i });
    }
  }
  return [...shared.values()].sort((a, b) => a.depth - b.depth).map((s) => s.expr);
}
