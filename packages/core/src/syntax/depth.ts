/**
 * syntax/depth: the bound on how deeply EdgeQL and SDL may nest, so that no stage (parser,
 * printer, schema inference, DDL and query compilers, all recursive over the tree) runs out of
 * stack on hostile or generated input: a 3,000-deep `((((...))))`, `[[[...]]]`, `-(-(...))`,
 * `1 + 1 + ... + 1` or nested shapes is a syntax error at the first node past the limit, never
 * a `RangeError`.
 *
 * Input: a tree of AST nodes (anything with a string `kind`). Output: nothing, or the error.
 * Invariant: iterative (an explicit stack), so measuring a tree of any depth cannot overflow.
 */
import type { QueryErrorClass } from '../errors';

/**
 * How many AST nodes deep a query, expression, type or schema may nest (and how many nested
 * constructs the parser descends into). Far above what people write; low enough that every
 * recursive stage keeps well inside Node's default stack.
 */
export const MAX_NESTING_DEPTH = 256;

export function nestingError(
  errorClass: QueryErrorClass,
  at: { line: number; column: number } | null,
): Error {
  return new errorClass(`expression nested too deeply: the limit is ${MAX_NESTING_DEPTH} levels`, {
    ...(at ? { position: { line: at.line, column: at.column } } : {}),
    hint: 'split it with `with` bindings, or build the value in several steps',
  });
}

interface NodeLike {
  readonly kind: string;
  readonly span?: { readonly start: { line: number; column: number } } | null;
}

function isNode(value: unknown): value is NodeLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string'
  );
}

/** Throws `errorClass` when `root` holds a node more than MAX_NESTING_DEPTH nodes deep. */
export function checkNestingDepth(root: unknown, errorClass: QueryErrorClass): void {
  // Two parallel stacks (no tuple per entry): this runs on every parse, so it stays lean.
  const values: unknown[] = [root];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth);
        }
      }
      continue;
    }
    if (typeof value !== 'object' || value === null || value instanceof Uint8Array) continue;
    const node = isNode(value);
    const here = node ? depth + 1 : depth;
    if (node && here > MAX_NESTING_DEPTH) throw nestingError(errorClass, value.span?.start ?? null);
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const child = record[key];
      if (key !== 'span' && typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(here);
      }
    }
  }
}
