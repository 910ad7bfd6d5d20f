/**
 * bind/dml-correlation: Gel's factoring fence around writes. The elements of a tuple (or array)
 * are evaluated per combination of the paths they share (`(Person, Person.name)` pairs each
 * person with its name). A path read by a mutation — the set it updates or deletes, the type it
 * inserts — or by the iterator of a `for` whose body writes cannot be shared that way: the write
 * runs once per statement, not once per element of an enclosing expression. Gel refuses such a
 * query (`select (Person, (insert Person {...}))`, `select (Person, (for x in Person union
 * (insert Note {...})))`) with "cannot reference correlated set"; so does svc, at bind time.
 *
 * Input: the bound elements of one tuple or array literal. Output: nothing, or an
 * InvalidReferenceError naming the shared path. Pure.
 */
import type * as ql from '../../syntax';
import { InvalidReferenceError } from '../../errors';
import type { IrExpr } from '../ir';
import { isMutation } from '../ir';
import { fail } from './context';
import { visitVisiblePaths } from './factoring';
import { children } from '../ir';

/** Refuses `elements` when one reads, fenced by a write, a path another reads openly. */
export function refuseCorrelatedWrites(elements: readonly IrExpr[], span: ql.Span | null): void {
  if (elements.length < 2) return;
  const fenced = elements.map((e) => new Set([...fencedPaths(e)].map(unfreshened)));
  if (fenced.every((f) => f.size === 0)) return;
  elements.forEach((element, i) => {
    const open = new Map<string, string>();
    collectOpen(element, open);
    for (const [id, name] of open) {
      if (fenced.some((f, j) => j !== i && f.has(unfreshened(id)))) {
        fail(InvalidReferenceError, `cannot reference correlated set '${name}' here`, span);
      }
    }
  });
}

/** The path ids read inside `expr` behind a write's fence (see the module comment). */
function fencedPaths(expr: IrExpr): Set<string> {
  const out = new Set<string>();
  const seen = new Set<IrExpr>();
  const visit = (e: IrExpr): void => {
    if (seen.has(e)) return;
    seen.add(e);
    if (e.kind === 'Insert') {
      // `insert T` names the set T (Gel's path of the inserted type) in the insert's namespace.
      out.add(e.objectType + insertNamespace(e.pathId));
    } else if (e.kind === 'Update' || e.kind === 'Delete') {
      collectOpen(e.subject, out);
    } else if (e.kind === 'For' && writes(e.body)) {
      const iterator = new Set<string>();
      collectOpen(e.iterator, iterator);
      for (const id of iterator) out.add(unfreshened(id));
    }
    if (e.kind === 'BindingRef' && e.binding.transparent) visit(e.binding.expr);
    for (const c of children(e)) visit(c);
  };
  visit(expr);
  return out;
}

/** A path id without the fresh names a `for` iterator gives its sets (bind/statement's
 * `bindFor`: `~f<n>` in the alias namespace), as the enclosing expression would name them, and
 * without the occurrence marks of simple scoping (bind/scoping: `~s<n>`): the fence is about
 * the same set, however many occurrences name it. */
function unfreshened(id: string): string {
  return id.replace(/~[fs]\d+/g, '');
}

/** The namespace suffix of an insert's path id (`insert~<n><namespace>`, bind/mutation). */
function insertNamespace(pathId: string): string {
  return pathId.replace(/^insert~\d+/, '');
}

function writes(expr: IrExpr): boolean {
  const seen = new Set<IrExpr>();
  const visit = (e: IrExpr): boolean => {
    if (seen.has(e)) return false;
    seen.add(e);
    if (isMutation(e)) return true;
    if (e.kind === 'BindingRef' && e.binding.transparent && visit(e.binding.expr)) return true;
    return children(e).some(visit);
  };
  return visit(expr);
}

/**
 * The object paths `expr` reads one element at a time outside any fence (bind/factoring's
 * visible paths, with names to report), without `for` variables (Gel allows correlating with
 * an enclosing iterator).
 */
function collectOpen(expr: IrExpr, out: Map<string, string> | Set<string>): void {
  const add = (id: string, name: string) => {
    if (out instanceof Map) out.set(id, name);
    else out.add(id);
  };
  visitVisiblePaths(expr, (path) => {
    if (path.kind === 'BindingRef') {
      if (!path.binding.iteration) add(path.pathId, path.binding.name);
    } else if (path.kind === 'TypeRoot') {
      add(path.pathId, shortName(path.objectType));
    } else if (path.type.kind === 'object') {
      add(path.pathId, path.pathId.replace(/^\w+::/, ''));
    }
  });
}

function shortName(name: string): string {
  return name.slice(name.lastIndexOf('::') + 2);
}
