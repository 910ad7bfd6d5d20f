/**
 * build/walk: a generic pre-order walk over AST nodes, for checks that look for a kind of node
 * anywhere in an expression (a default that reads the object, a volatile call in a body).
 *
 * Input: a node and a visitor. Output: the first node the visitor accepts, or null.
 * Invariant: visits children in source order (fields in declaration order), so "first" is the
 * leftmost offending node — the one an error should point at.
 */
import type * as ql from '../../syntax';

function isNode(value: unknown): value is ql.Node {
  return typeof value === 'object' && value !== null && 'kind' in value && 'span' in value;
}

/**
 * The first node (pre-order) for which `test` is true; `test` also gets the field of the parent
 * the node sits in (`func` of a call, `name` of a type), `skip` prunes a subtree.
 */
export function findNode(
  root: ql.Node,
  test: (node: ql.Node, field: string | null) => boolean,
  skip: (node: ql.Node) => boolean = () => false,
  field: string | null = null,
): ql.Node | null {
  if (test(root, field)) return root;
  if (skip(root)) return null;
  for (const [key, value] of Object.entries(root)) {
    const children: unknown[] = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (!isNode(child)) continue;
      const found = findNode(child, test, skip, key);
      if (found) return found;
    }
  }
  return null;
}
