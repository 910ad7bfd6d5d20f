/**
 * conformance/compare: does a query's JSON result match a case's expected JSON?
 *
 * Input: the actual value (parsed JSON), the expected value and the order rule of the case.
 * Output: `null` when they match, else one line saying where and how they differ.
 * Rules:
 * - objects have exactly the expected keys (a missing or an extra key is a difference); in
 *   `exact` mode the keys must also come in the written order (spec: shape elements in the order
 *   written);
 * - arrays are compared in order (`ordered`, `exact`) or as multisets at every depth
 *   (`unordered`; each expected element is matched to a distinct actual one);
 * - numbers match when equal or within a relative 1e-9 (floats computed by the database);
 * - placeholder strings, outside `exact` mode: `"<uuid>"` matches any UUID string, `"<datetime>"`
 *   any ISO 8601 date-time with a zone, `"<any>"` any value (ids and timestamps are not
 *   predictable).
 * Invariant: pure.
 */
import type { ResultOrder } from './case-file';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const PLACEHOLDERS: Readonly<Record<string, (value: unknown) => boolean>> = {
  '<uuid>': (v) => typeof v === 'string' && UUID.test(v),
  '<datetime>': (v) => typeof v === 'string' && DATETIME.test(v),
  '<any>': () => true,
};

/** `null` when `actual` matches `expected` under `order`, else what differs and where. */
export function compareResult(
  actual: unknown,
  expected: unknown,
  order: ResultOrder,
): string | null {
  return diff(actual, expected, order, '$');
}

function diff(actual: unknown, expected: unknown, order: ResultOrder, path: string): string | null {
  if (typeof expected === 'string' && order !== 'exact') {
    const placeholder = PLACEHOLDERS[expected];
    if (placeholder) {
      return placeholder(actual) ? null : `${path}: expected ${expected}, got ${show(actual)}`;
    }
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${show(actual)}`;
    if (actual.length !== expected.length)
      return `${path}: expected ${expected.length} element(s), got ${actual.length}: ${show(actual)}`;
    return order === 'unordered'
      ? diffMultiset(actual, expected, path)
      : firstDiff(expected.map((e, i) => () => diff(actual[i], e, order, `${path}[${i}]`)));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return `${path}: expected an object, got ${show(actual)}`;
    const expectedKeys = Object.keys(expected);
    const actualKeys = Object.keys(actual);
    const missing = expectedKeys.filter((k) => !(k in actual));
    if (missing.length) return `${path}: missing key(s) ${missing.join(', ')} in ${show(actual)}`;
    const extra = actualKeys.filter((k) => !(k in expected));
    if (extra.length) return `${path}: unexpected key(s) ${extra.join(', ')} in ${show(actual)}`;
    if (order === 'exact' && actualKeys.join('\0') !== expectedKeys.join('\0'))
      return `${path}: keys in order ${actualKeys.join(', ')}, expected ${expectedKeys.join(', ')}`;
    return firstDiff(
      expectedKeys.map(
        (k) => () =>
          diff(
            (actual as Record<string, unknown>)[k],
            (expected as Record<string, unknown>)[k],
            order,
            `${path}.${k}`,
          ),
      ),
    );
  }
  if (typeof expected === 'number' && typeof actual === 'number') {
    const close =
      actual === expected ||
      Math.abs(actual - expected) <= 1e-9 * Math.max(Math.abs(actual), Math.abs(expected));
    return close ? null : `${path}: expected ${expected}, got ${actual}`;
  }
  return actual === expected ? null : `${path}: expected ${show(expected)}, got ${show(actual)}`;
}

function firstDiff(checks: readonly (() => string | null)[]): string | null {
  for (const check of checks) {
    const found = check();
    if (found) return found;
  }
  return null;
}

/** Matches every expected element to a distinct actual one (backtracking; arrays are small). */
function diffMultiset(
  actual: readonly unknown[],
  expected: readonly unknown[],
  path: string,
): string | null {
  const fits = expected.map((e) =>
    actual.map((a, j) => diff(a, e, 'unordered', `${path}[${j}]`) === null),
  );
  const used = new Array<boolean>(actual.length).fill(false);
  const assign = (i: number): boolean => {
    if (i === expected.length) return true;
    for (let j = 0; j < actual.length; j++) {
      if (used[j] || !fits[i]?.[j]) continue;
      used[j] = true;
      if (assign(i + 1)) return true;
      used[j] = false;
    }
    return false;
  };
  if (assign(0)) return null;
  const unmatched = expected.findIndex((_, i) => !fits[i]?.some(Boolean));
  return unmatched >= 0
    ? `${path}: no element matches expected ${show(expected[unmatched])} in ${show(actual)}`
    : `${path}: elements match only pairwise, not as a whole: ${show(actual)}`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}
