/**
 * copy-on-write: rebuilding an immutable tree node only where something changed. The IR walker
 * (query/ir/walk) and the SQL transformer (sql/transform) both rebuild nodes through these, so an
 * unchanged subtree comes back as the same object and callers can test `next === node`.
 */

/** `node` with `patch` applied, or `node` itself when every patched field is the same object. */
export function patched<T extends object>(node: T, patch: Partial<T>): T {
  for (const key of Object.keys(patch) as (keyof T)[]) {
    if (patch[key] !== node[key]) return { ...node, ...patch };
  }
  return node;
}

/** `list` with each item mapped by `f`, or `list` itself when no item changed. */
export function mapList<T>(list: readonly T[], f: (item: T) => T): readonly T[] {
  let out: T[] | null = null;
  list.forEach((item, i) => {
    const next = f(item);
    if (out === null && next !== item) out = list.slice(0, i);
    if (out !== null) out.push(next);
  });
  return out ?? list;
}
