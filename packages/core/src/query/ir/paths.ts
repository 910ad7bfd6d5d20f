/**
 * query/ir/paths: the path ids of IR nodes. A path id names the elements of a set: two
 * occurrences with the same id in one scope are the same element (the planner binds an id once
 * per row and reads it wherever the id recurs).
 *
 * Root occurrences: under simple scoping each occurrence of a path root (`User`, a `with` name)
 * is a set of its own, with the id `<key>~s<n>`; its key (the type name or binding id plus the
 * scope's namespace) is what an enclosing shape or statement binds the root by.
 */
import type { IrExpr } from './types';

/** The suffix of a root occurrence's path id (`~s<n>`). */
export const OCCURRENCE = /~s\d+$/;

/** The key of the root occurrence `id` (itself when it is not an occurrence). */
export function rootKeyOf(id: string): string {
  return id.replace(OCCURRENCE, '');
}

/** The path id a node carries itself (a path, a group, a mutation, an object cast), or null. */
export function ownPathId(expr: IrExpr): string | null {
  switch (expr.kind) {
    case 'TypeRoot':
    case 'BindingRef':
    case 'PointerStep':
    case 'Backlink':
    case 'Intersection':
    case 'ObjectCast':
    case 'Group':
    case 'Insert':
    case 'Update':
    case 'Delete':
      return expr.pathId;
    default:
      return null;
  }
}

/** The path id an expression's elements are known by (a shape's are its subject's), or null. */
export function pathIdOf(expr: IrExpr): string | null {
  return expr.kind === 'Shape' ? pathIdOf(expr.subject) : ownPathId(expr);
}
