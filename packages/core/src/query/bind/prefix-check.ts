/**
 * bind/prefix-check: Gel's refusal of a reference that shares its root with a subject reached
 * through a link. Under simple scoping (bind/scoping) the root of a statement's or shape's
 * subject is one element inside it: in `select Issue.owner filter Issue.number > '2'` the filter's
 * `Issue` would be the issue the owner came from, which reads as a different query than Gel's
 * factoring gave; Gel refuses it ("reference to 'Issue.number' changes the interpretation of
 * 'Issue' elsewhere in the query", InvalidReferenceError). Reaching the subject through
 * properties only (`select Issue.id filter Issue.number > '2'`) changes nothing and is allowed,
 * as is reading the subject's own path again (`Issue.owner.name`).
 *
 * Input: a bound query's IR. Output: nothing, or the error. Pure; one walk to find the subjects
 * reached through a link (the root occurrence's id and the path ids of the subject's steps),
 * then a walk of each such statement (its clauses and shape, and what the names used there
 * stand for) to check every use of its root there is the first step of such a subject. A `with`
 * name computed once (bind/scoping `isMaterialized`) is one set at every use: using it beside
 * a statement over `name.link` elsewhere changes nothing.
 */
import { InvalidReferenceError } from '../../errors';
import type { IrExpr } from '../ir';
import { children } from '../ir';

type Step = Extract<IrExpr, { kind: 'PointerStep' | 'Backlink' | 'Intersection' }>;

/** The subject's steps back to its root (a type or a name), and whether one is a link. */
function chainOf(subject: IrExpr): { root: IrExpr | null; steps: Step[]; viaLink: boolean } {
  const steps: Step[] = [];
  let viaLink = false;
  let e = subject;
  for (;;) {
    if (e.kind === 'Shape') e = e.subject;
    else if (e.kind === 'PointerStep' || e.kind === 'Backlink' || e.kind === 'Intersection') {
      if (e.kind === 'Backlink' || (e.kind === 'PointerStep' && e.pointer.kind === 'link'))
        viaLink = true;
      steps.push(e);
      e = e.source;
    } else if (e.kind === 'TypeRoot' || e.kind === 'BindingRef') return { root: e, steps, viaLink };
    else return { root: null, steps, viaLink };
  }
}

function subjectOf(expr: IrExpr): IrExpr | null {
  switch (expr.kind) {
    case 'Select':
    case 'Shape':
    case 'Update':
    case 'Delete':
      return expr.subject;
    default:
      return null;
  }
}

function rootPathId(e: IrExpr): string | null {
  return e.kind === 'TypeRoot' || e.kind === 'BindingRef' ? e.pathId : null;
}

function rootName(e: IrExpr): string {
  if (e.kind === 'TypeRoot') return e.objectType.slice(e.objectType.lastIndexOf('::') + 2);
  if (e.kind === 'BindingRef') return e.binding.name;
  return 'it';
}

function stepName(e: IrExpr): string {
  if (e.kind === 'PointerStep') return `.${e.pointer.name}`;
  if (e.kind === 'Backlink') return '.<...';
  if (e.kind === 'Intersection') return '[is ...]';
  return '';
}

/**
 * The sub-expressions the rule reaches: the walker's children and, behind a name, the named
 * expression (`F.<friends = User` in `filter (with F := ... select F filter F.<friends = User)`
 * is a use of the subject's root as much as one written in place).
 */
function inside(e: IrExpr): IrExpr[] {
  const direct = children(e);
  return e.kind === 'BindingRef' ? [...direct, e.binding.expr] : direct;
}

export function checkSubjectPrefixes(root: IrExpr): void {
  // Statements whose subject is reached through a link, each with its root's path id and the
  // path ids of the subject's steps.
  const statements: { node: IrExpr; root: string }[] = [];
  // Per root, the path ids of the steps of every subject it starts.
  const allowed = new Map<string, Set<string>>();
  // Roots that are themselves a subject (`select Issue { owner: {...} }`): one element there by
  // their own right, whatever links their sub-shapes follow.
  const direct = new Set<string>();
  const seen = new Set<IrExpr>();
  const collect = (e: IrExpr): void => {
    if (seen.has(e)) return;
    seen.add(e);
    const subject = subjectOf(e);
    if (subject) {
      const { root: r, steps, viaLink } = chainOf(subject);
      const id = r ? rootPathId(r) : null;
      if (id !== null && steps.length === 0) direct.add(id);
      if (id !== null && viaLink) {
        statements.push({ node: e, root: id });
        const ids = allowed.get(id) ?? new Set<string>();
        for (const s of steps) ids.add(s.pathId);
        allowed.set(id, ids);
      }
    }
    for (const c of inside(e)) collect(c);
  };
  collect(root);
  // Inside each such statement (its clauses, shape and what they name), the root is read only
  // as the first step of its subject.
  for (const { node, root: id } of statements) {
    const steps = allowed.get(id);
    if (!steps || direct.has(id)) continue;
    // Each (parent, child) edge once: the IR shares nodes between parents.
    const visited = new Map<IrExpr, Set<IrExpr>>();
    const check = (e: IrExpr, parent: IrExpr | null): void => {
      if (parent !== null) {
        const done = visited.get(parent) ?? new Set<IrExpr>();
        if (done.has(e)) return;
        done.add(e);
        visited.set(parent, done);
      }
      if (rootPathId(e) === id) {
        const step =
          parent &&
          (parent.kind === 'PointerStep' ||
            parent.kind === 'Backlink' ||
            parent.kind === 'Intersection') &&
          parent.source === e
            ? parent
            : null;
        if (!step || !steps.has(step.pathId)) {
          const name = rootName(e);
          throw new InvalidReferenceError(
            `reference to '${name}${step ? stepName(step) : ''}' changes the interpretation of '${name}' elsewhere in the query`,
          );
        }
      }
      for (const c of inside(e)) check(c, e);
    };
    check(node, null);
  }
}
