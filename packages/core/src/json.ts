/**
 * json: the one bound on how deeply a caller's JSON may nest, and a serialiser that writes JSON
 * of any depth.
 *
 * `JSON.parse` reads any depth (V8 parses with an explicit stack), but recursive walkers after it
 * do not: V8's `JSON.stringify` throws `RangeError` a few thousand levels down, and so would any
 * recursive walk of ours. So every JSON value a caller sends (a `/query` variable or global, a
 * REST body field, an auth `metadata`, a `svc query --json-var`) is measured where it is
 * interpreted, by `jsonDepthProblem`, and refused past `MAX_JSON_DEPTH` with a 400 naming it.
 * JSON the database builds is not bounded by that (a stored value parsed from a string may be
 * deeper): what re-serialises such JSON uses `stringifyJson`.
 *
 * Invariant: both functions are iterative (explicit stacks), so no input can overflow them.
 */

/**
 * How many arrays and objects deep a JSON value from a caller may nest (`[[1]]` is 2). Far
 * beyond what data needs, and well inside what every consumer takes: V8's `JSON.stringify`
 * (about 4,000 levels), PGlite's `jsonb` parser (about 5,000), PostgreSQL's (about 10,000 at the
 * default `max_stack_depth`). Jackson's default is the same 1,000.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Why `value` cannot be taken as a caller's JSON (`'nested deeper than 1000 levels'`), or
 * undefined. The caller names the value: `variable $x is ...`, `"field": ...`. Scalars cost
 * nothing; containers are walked once, stopping at the first level past the limit.
 *
 * @example
 * jsonDepthProblem(JSON.parse('[[1]]')); // undefined
 * jsonDepthProblem(JSON.parse('['.repeat(5000) + ']'.repeat(5000))); // 'nested deeper than 1000 levels'
 */
export function jsonDepthProblem(value: unknown): string | undefined {
  return exceedsDepth(value, MAX_JSON_DEPTH)
    ? `nested deeper than ${MAX_JSON_DEPTH} levels`
    : undefined;
}

function exceedsDepth(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  // Depth first (the last child pushed is walked next), so a cycle, infinitely deep, is met at
  // the limit rather than after the whole graph. Indexed and `for in` loops, no arrays of
  // entries: a third of the time of `Object.values` on a body of many small objects.
  while (pending.length > 0) {
    const item = pending.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const child: unknown = item[i];
        if (typeof child !== 'object' || child === null) continue;
        if (depth >= limit) return true;
        pending.push(child);
        depths.push(depth + 1);
      }
    } else {
      for (const key in item) {
        const child = item[key];
        if (typeof child !== 'object' || child === null) continue;
        if (depth >= limit) return true;
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * `JSON.stringify(value)`, for JSON data of any depth: the native serialiser, and where it runs
 * out of stack, the same text written with an explicit stack (`toJSON` honoured, entries that
 * JSON cannot hold dropped from objects and `null` in arrays, as the native one does).
 *
 * @example
 * stringifyJson(JSON.parse('['.repeat(100000) + ']'.repeat(100000))).length; // 200000
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return stringifyDeep(value);
  }
}

interface Frame {
  readonly container: object;
  /** Object keys; null for an array. */
  readonly keys: readonly string[] | null;
  next: number;
  wrote: boolean;
}

function stringifyDeep(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<object>();

  /** Writes a value, or opens it (its frame on the stack); false when JSON has no form for it. */
  const write = (raw: unknown, key: string): boolean => {
    const value =
      typeof raw === 'object' &&
      raw !== null &&
      typeof (raw as { toJSON?: unknown }).toJSON === 'function'
        ? (raw as { toJSON: (key: string) => unknown }).toJSON(key)
        : raw;
    if (typeof value !== 'object' || value === null) {
      const text = JSON.stringify(value);
      if (text === undefined) return false;
      out.push(text);
      return true;
    }
    if (open.has(value)) throw new TypeError('Converting circular structure to JSON');
    open.add(value);
    const keys = Array.isArray(value) ? null : Object.keys(value);
    out.push(keys === null ? '[' : '{');
    stack.push({ container: value, keys, next: 0, wrote: false });
    return true;
  };

  // The root is a container (nothing else overflows the native serialiser).
  write(root, '');
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const { container, keys } = frame;
    if (keys === null) {
      const items = container as readonly unknown[];
      if (frame.next === items.length) {
        out.push(']');
        stack.pop();
        open.delete(container);
        continue;
      }
      const i = frame.next++;
      if (i > 0) out.push(',');
      if (!write(items[i], String(i))) out.push('null');
      continue;
    }
    if (frame.next === keys.length) {
      out.push('}');
      stack.pop();
      open.delete(container);
      continue;
    }
    const key = keys[frame.next++] as string;
    const mark = out.length;
    out.push(frame.wrote ? ',' : '', JSON.stringify(key), ':');
    if (write((container as Record<string, unknown>)[key], key)) frame.wrote = true;
    else out.length = mark;
  }
  return out.join('');
}
