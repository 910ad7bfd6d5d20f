/**
 * bind/shape-writes: Gel's rule that a shape's computed element does not write. An element's
 * value is evaluated per object of the shape's subject, while a mutation runs once per
 * statement; Gel refuses `select T { x := (insert U {...}) }` and asks for the mutation to be
 * bound in `with`. The one exception is a free object written as the query's output (`select
 * { obj := (insert U {...}) }`): it has one element, so its values run once; bound in `with` or
 * given a shape of its own, it is a view like any other and refused.
 *
 * Input: a bound element value (or a `with` binding's value). Output: nothing, or a QueryError
 * at `span`. Pure.
 */
import type * as ql from '../../syntax';
import { QueryError } from '../../errors';
import type { IrExpr } from '../ir';
import { isMutation } from '../ir';
import { fail } from './context';
import { children } from '../ir';

const MESSAGE = "mutations are invalid in a shape's computed expression";
const HINT = 'factor the mutation out into a with binding';

/** Refuses a computed element whose value writes (not through a `with` binding it reads, nor
 * the shape's `subject`, which the element reads as `.`). */
export function refuseWritingElement(
  value: IrExpr,
  subject: IrExpr | null,
  span: ql.Span | null,
): void {
  const read = new Set<string>();
  if (subject) collectMutations(subject, read);
  if (writes(value, read)) fail(QueryError, MESSAGE, span, HINT);
}

/** Refuses a `with` binding that is a free object whose elements write. */
export function refuseWritingFreeObjectBinding(value: IrExpr, span: ql.Span | null): void {
  if (value.kind !== 'FreeObject') return;
  for (const e of value.elements) refuseWritingElement(e.expr, null, span);
}

/** True when `expr` writes itself: a `with` binding it reads writes once, before the query; a
 * mutation whose path id is in `read` is the shape's subject, read, not written here. */
function writes(expr: IrExpr, read: ReadonlySet<string>): boolean {
  const seen = new Set<IrExpr>();
  const visit = (e: IrExpr): boolean => {
    if (seen.has(e)) return false;
    seen.add(e);
    if (isMutation(e)) return !read.has(e.pathId);
    if (e.kind === 'BindingRef') return e.binding.transparent === true && visit(e.binding.expr);
    return children(e).some(visit);
  };
  return visit(expr);
}

/** The path ids of the mutations in `expr` (the binder copies nodes but keeps their ids). */
function collectMutations(expr: IrExpr, out: Set<string>): void {
  const seen = new Set<IrExpr>();
  const visit = (e: IrExpr): void => {
    if (seen.has(e)) return;
    seen.add(e);
    if (isMutation(e)) out.add(e.pathId);
    if (e.kind === 'BindingRef') visit(e.binding.expr);
    for (const c of children(e)) visit(c);
  };
  visit(expr);
}
