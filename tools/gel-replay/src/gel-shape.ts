/**
 * gel-replay/gel-shape: Gel's result comparison (edb/common/assert_data_shape.py, JSON path),
 * re-stated over the extractor's JSON, plus the normalisation for svc's deliberate differences.
 *
 * Gel's rules: an expected object lists the keys that must be present (extra keys are fine);
 * a list is compared in order, `...` repeating the previous element's shape; a set is compared
 * after sorting both sides; a bag is unordered; `str`/`int`/`uuid.UUID` accept any such value;
 * floats match within a relative 1e-4 (absolute 1e-15); other scalars by Python's `!=`, so a
 * bool equals the int 0 or 1. `sort=` sorts the actual value first.
 *
 * Normalisation (ENGINE-COMMON.md result conventions, where the spec differs from Gel):
 * 1. A single link selected with a sub-shape is `[obj]` in svc, `obj` in Gel: where Gel expects
 *    an object and svc answered an array of exactly one object, that object is compared.
 * 2. A link selected without a sub-shape is the id string in svc, `{"id": ...}` in Gel: where Gel
 *    expects an object and svc answered a UUID string, `{"id": <that string>}` is compared.
 * 3. A bare insert/update/delete answers the whole stored rows in svc, `{"id"}` objects in Gel:
 *    covered by rule "extra keys are fine", nothing to do.
 * Input: actual JSON, expected tagged JSON. Output: `null` or where they differ. Pure.
 */

export type Sort =
  | true
  | { $key: (string | number)[] }
  | { $keys: (string | number)[][] }
  | { [field: string]: Sort };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Tagged = Record<string, unknown>;
const isObject = (v: unknown): v is Tagged =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const tag = (v: unknown, name: string): boolean => isObject(v) && name in v;

export function assertShape(data: unknown, shape: unknown, path = '$'): string | null {
  if (tag(shape, '$bag')) return bagShape(data, (shape as Tagged).$bag as unknown[], path);
  if (tag(shape, '$set')) return setShape(data, (shape as Tagged).$set as unknown[], path);
  if (tag(shape, '$type')) return typeShape(data, (shape as Tagged).$type as string, path);
  if (tag(shape, '$float')) return floatShape(data, (shape as Tagged).$float as number, path);
  if (Array.isArray(shape)) return listShape(data, shape, path);
  if (isObject(shape)) return dictShape(data, shape, path);
  if (shape === null) return data === null ? null : `${path}: expected null, got ${show(data)}`;
  if (typeof shape === 'number' && typeof data === 'number')
    return close(data, shape) ? null : `${path}: expected ${shape}, got ${data}`;
  // Gel's harness compares with Python's `!=`, where a bool is the int 0 or 1 (False == 0).
  if (
    (typeof shape === 'boolean' && typeof data === 'number') ||
    (typeof shape === 'number' && typeof data === 'boolean')
  )
    return Number(shape) === Number(data)
      ? null
      : `${path}: expected ${show(shape)}, got ${show(data)}`;
  return data === shape ? null : `${path}: expected ${show(shape)}, got ${show(data)}`;
}

function dictShape(data: unknown, shape: Tagged, path: string): string | null {
  let value = data;
  // Normalisation 1 and 2 (see the module comment).
  if (Array.isArray(value) && value.length === 1 && isObject(value[0])) value = value[0];
  if (typeof value === 'string' && UUID.test(value)) value = { id: value };
  if (!isObject(value)) return `${path}: expected an object, got ${show(data)}`;
  for (const [key, sub] of Object.entries(shape)) {
    if (!(key in value)) return `${path}: key ${key} is missing in ${show(value)}`;
    const found = assertShape(value[key], sub, `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

function* expand(shape: readonly unknown[]): Generator<unknown> {
  let last: unknown;
  for (const item of shape) {
    if (tag(item, '$ellipsis')) {
      for (;;) yield last;
    }
    last = item;
    yield item;
  }
}

function listShape(data: unknown, shape: readonly unknown[], path: string): string | null {
  if (!Array.isArray(data)) return `${path}: expected a list, got ${show(data)}`;
  if (data.length === 0 && shape.length > 0) return `${path}: expected a non-empty list, got []`;
  const shapes = expand(shape);
  for (let i = 0; i < data.length; i++) {
    const next = shapes.next();
    if (next.done) return `${path}: unexpected trailing elements in ${show(data)}`;
    const found = assertShape(data[i], next.value, `${path}[${i}]`);
    if (found) return found;
  }
  const after = shape[data.length];
  if (shape.length > data.length && !tag(after, '$ellipsis'))
    return `${path}: expected more elements than ${data.length}: ${show(data)}`;
  return null;
}

function setShape(data: unknown, shape: readonly unknown[], path: string): string | null {
  if (!Array.isArray(data)) return `${path}: expected a set, got ${show(data)}`;
  const plain = shape.filter((s) => !tag(s, '$ellipsis'));
  return listShape(
    [...data].sort(order),
    [...plain].sort(order).concat(plain.length < shape.length ? [{ $ellipsis: true }] : []),
    path,
  );
}

function bagShape(data: unknown, shape: readonly unknown[], path: string): string | null {
  if (!Array.isArray(data)) return `${path}: expected a bag, got ${show(data)}`;
  if (data.length > shape.length)
    return `${path}: too many elements (${data.length} > ${shape.length})`;
  const left = [...data];
  for (const element of shape) {
    const at = left.findIndex((d) => assertShape(d, element) === null);
    if (at < 0) return `${path}: missing element ${show(element)} in ${show(data)}`;
    left.splice(at, 1);
  }
  return null;
}

function typeShape(data: unknown, type: string, path: string): string | null {
  const ok =
    type === 'str'
      ? typeof data === 'string'
      : type === 'int'
        ? Number.isInteger(data)
        : type === 'float'
          ? typeof data === 'number'
          : type === 'bool'
            ? typeof data === 'boolean'
            : type === 'uuid'
              ? typeof data === 'string' && UUID.test(data)
              : false;
  return ok ? null : `${path}: expected a ${type}, got ${show(data)}`;
}

function floatShape(data: unknown, expected: number, path: string): string | null {
  if (Number.isNaN(expected)) return Number.isNaN(data) ? null : `${path}: expected NaN`;
  if (typeof data !== 'number') return `${path}: expected ${expected}, got ${show(data)}`;
  return close(data, expected, 1e-4, 1e-15) ? null : `${path}: not isclose(${data}, ${expected})`;
}

function close(a: number, b: number, rel = 0, abs = 0): boolean {
  return a === b || Math.abs(a - b) <= Math.max(rel * Math.max(Math.abs(a), Math.abs(b)), abs);
}

/** A total order on JSON values (numbers, then strings, then the rest by their text). */
/** A number, or an expected float (`{"$float": x}`): Python sorts ints and floats together. */
const numeric = (v: unknown): number | null =>
  typeof v === 'number'
    ? v
    : tag(v, '$float') && typeof (v as Tagged).$float === 'number'
      ? ((v as Tagged).$float as number)
      : null;

function order(a: unknown, b: unknown): number {
  const m = numeric(a);
  const n = numeric(b);
  if (m !== null && n !== null) return m - n;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const rank = (v: unknown) => (numeric(v) !== null ? 0 : typeof v === 'string' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `order` for sort keys: an element missing the key path sorts first (Gel's tests write such
 * keys as `x[0] if x else ''`, whose default is the least value). */
function keyOrder(a: unknown, b: unknown): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return order(a, b);
}

function keyAt(value: unknown, keys: readonly (string | number)[]): unknown {
  let current = value;
  for (const key of keys) {
    if (Array.isArray(current) && current.length === 1 && typeof key === 'string')
      current = current[0];
    current = (current as Record<string | number, unknown> | null)?.[key];
  }
  return current;
}

/** Gel's `sort_results`: sorts `data` in place as `sort=` says. */
export function sortResults(data: unknown, sort: Sort): void {
  if (!data) return;
  if (sort === true) {
    if (Array.isArray(data)) data.sort(order);
    return;
  }
  if ('$key' in sort && Array.isArray((sort as { $key: unknown }).$key)) {
    const keys = (sort as { $key: (string | number)[] }).$key;
    if (Array.isArray(data)) data.sort((a, b) => keyOrder(keyAt(a, keys), keyAt(b, keys)));
    return;
  }
  // A key of several paths (`lambda x: (x[0], x[1])`): compared path by path, as Python
  // compares tuples.
  if ('$keys' in sort && Array.isArray((sort as { $keys: unknown }).$keys)) {
    const paths = (sort as { $keys: (string | number)[][] }).$keys;
    if (Array.isArray(data))
      data.sort((a, b) => {
        for (const keys of paths) {
          const c = keyOrder(keyAt(a, keys), keyAt(b, keys));
          if (c !== 0) return c;
        }
        return 0;
      });
    return;
  }
  for (const [key, sub] of Object.entries(sort as Record<string, Sort>)) {
    if (key === '.') sortResults(data, sub);
    else if (Array.isArray(data)) for (const row of data) sortResults(fieldOf(row, key), sub);
    else sortResults(fieldOf(data, key), sub);
  }
}

function fieldOf(row: unknown, key: string): unknown {
  const value = Array.isArray(row) && row.length === 1 ? row[0] : row;
  return (value as Record<string, unknown> | null)?.[key];
}

/** Gel's implicit limit, applied to the answer: every array cut to `limit` elements. */
export function applyImplicitLimit(data: unknown, limit: number): unknown {
  if (Array.isArray(data)) return data.slice(0, limit).map((d) => applyImplicitLimit(d, limit));
  if (isObject(data))
    return Object.fromEntries(
      Object.entries(data).map(([k, v]) => [k, applyImplicitLimit(v, limit)]),
    );
  return data;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
