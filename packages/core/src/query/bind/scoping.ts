/**
 * bind/scoping: Gel's simple scoping (the only scoping of Gel 7; its test suite runs with
 * `simple_scoping := true`). Each occurrence of a path root (`User`, a schema alias, a `with`
 * name) is a set of its own, so sibling uses are not factored: `User.first_name ++
 * User.last_name` pairs every first name with every last name, `(X, X + 1)` of `X := {1, 2}`
 * has four elements, `count((EarthOrFireCard.name, EarthOrFireCard.name))` is 16. A root is
 * one element only where an enclosing shape or statement has it as (the root of) its subject:
 * inside `User { ... }` and in the `filter`/`order by` of `select User.deck`, `User` is that
 * element (`Scope.roots`). `for` variables are always their iteration.
 *
 * Path ids: an occurrence is `<key>~s<n>`; its key (type name or binding id plus the scope's
 * namespace, so `detached` never meets an enclosing root) is what `roots` is looked up by.
 * Pure helpers over the binder's Scope; the planner needs nothing new (distinct path ids are
 * distinct sets, an id bound in an enclosing Rel is that element).
 */
import type { Binding, IrExpr } from '../ir';
import type { BindContext, Scope } from './context';
import { children, OCCURRENCE } from '../ir';

/** The path id of one occurrence of the root known by `key` in `scope`. */
export function occurrenceId(ctx: BindContext, scope: Scope, key: string): string {
  return scope.roots?.get(key) ?? `${key}~s${ctx.freshId()}`;
}

/** Whether `key` names a root bound to one element in `scope`. */
export function isBoundRoot(scope: Scope, key: string): boolean {
  return scope.roots?.has(key) === true;
}

/** The root occurrence a subject's path starts from (`User` for `User.deck[is Card] { x }`). */
function rootOf(subject: IrExpr): IrExpr | null {
  let e: IrExpr = subject;
  for (;;) {
    switch (e.kind) {
      case 'Shape':
        e = e.subject;
        continue;
      case 'PointerStep':
      case 'Backlink':
      case 'Intersection':
        e = e.source;
        continue;
      case 'TupleElement':
        e = e.tuple;
        continue;
      case 'LinkProperty':
        e = e.link;
        continue;
      case 'BindingRef':
        if (e.binding.transparent && !OCCURRENCE.test(e.pathId)) {
          e = e.binding.expr;
          continue;
        }
        return e;
      case 'TypeRoot':
        return e;
      default:
        return null;
    }
  }
}

/** `scope` with the root of `subject` bound to one element (the subject of a shape or statement). */
export function withSubjectRoot(scope: Scope, subject: IrExpr): Scope {
  const root = rootOf(subject);
  if (root === null || (root.kind !== 'TypeRoot' && root.kind !== 'BindingRef')) return scope;
  const id = root.pathId;
  if (!OCCURRENCE.test(id)) return scope;
  const key = id.replace(OCCURRENCE, '');
  if (scope.roots?.get(key) === id) return scope;
  return { ...scope, roots: new Map([...(scope.roots ?? []), [key, id]]) };
}

const materialized = new WeakMap<Binding, boolean>();

/**
 * Whether a `with` binding is computed once for all its uses (Gel materialises it): its
 * expression calls a volatile function (`random()`, `uuid_generate_v4()`) or writes, so
 * `with name := <str>random() insert Person { name := name, tag := name }` stores one value
 * twice. Such a binding is the same set at every use.
 */
export function isMaterialized(binding: Binding): boolean {
  const known = materialized.get(binding);
  if (known !== undefined) return known;
  materialized.set(binding, false);
  const result = volatile(binding.expr, new Set());
  materialized.set(binding, result);
  return result;
}

/** Whether `expr` calls a volatile function or writes anywhere in it. */
export function isVolatile(expr: IrExpr): boolean {
  return volatile(expr, new Set());
}

/** Whether `expr` calls a volatile function (writes aside: Gel's volatility with DML excluded). */
export function callsVolatile(expr: IrExpr): boolean {
  return volatile(expr, new Set(), false);
}

function volatile(expr: IrExpr, seen: Set<IrExpr>, dml = true): boolean {
  if (seen.has(expr)) return false;
  seen.add(expr);
  switch (expr.kind) {
    case 'Insert':
    case 'Update':
    case 'Delete':
      if (dml) return true;
      break;
    case 'Call':
    case 'Cast':
      if ((expr.overload as { volatility?: string } | null)?.volatility === 'Volatile') return true;
      break;
    case 'BindingRef':
      if (dml) return !expr.binding.iteration && isMaterialized(expr.binding);
      return !expr.binding.iteration && volatile(expr.binding.expr, seen, dml);
    default:
      break;
  }
  return children(expr).some((c) => volatile(c, seen, dml));
}
