/**
 * std/casts/implicit: the implicit and assignment cast graph: distances between types, their
 * common type. Part of std/casts.ts, which resolves casts.
 */
import { isRangeElement, printTypeRef, type TypeRef } from '../../schema/model';
import type { TypeEnv } from '../model';
import { isStdScalarName } from '../scalars';

export const IMPLICIT: Readonly<Record<string, readonly string[]>> = {
  'std::int16': ['std::int32', 'std::float32'],
  'std::int32': ['std::int64'],
  'std::int64': ['std::float64', 'std::bigint', 'std::decimal'],
  'std::bigint': ['std::decimal'],
  'std::float32': ['std::float64'],
  'cal::local_date': ['cal::local_datetime'],
  'cal::date_duration': ['cal::relative_duration'],
};

/** Assignment casts (beyond the implicit ones): narrowing numbers, str into an enum. */
export const ASSIGNMENT: Readonly<Record<string, readonly string[]>> = {
  'std::int64': ['std::int32', 'std::int16', 'std::float32'],
  'std::float64': ['std::float32'],
};

export const NUMERIC = new Set([
  'std::int16',
  'std::int32',
  'std::int64',
  'std::float32',
  'std::float64',
  'std::bigint',
  'std::decimal',
]);

/**
 * The std scalar a scalar behaves as in overload resolution: itself for std scalars,
 * `std::int64` for `std::sequence`, the base of a custom scalar, null for enums and unknowns.
 */
export function resolutionBase(name: string, env: TypeEnv): string | null {
  if (name === 'std::sequence') return 'std::int64';
  if (isStdScalarName(name)) return name;
  if (env.enumValues(name)) return null;
  const base = env.stdBase(name);
  return base === 'std::sequence' ? 'std::int64' : base;
}

/**
 * The least std scalar both `a` and `b` convert to implicitly (Gel's type of `{a, b}`: int16 and
 * float32 join at float32, int64 and float32 at float64, local_date and local_datetime at
 * local_datetime), or null when they never meet (decimal and float64).
 */
export function implicitJoin(a: string, b: string): string | null {
  const fromB = new Set(implicitlyReachable(b));
  const common = implicitlyReachable(a).filter((t) => fromB.has(t));
  return common.find((t) => common.every((u) => implicitlyReachable(t).includes(u))) ?? null;
}

export const reachableCache = new Map<string, readonly string[]>();

/** Every std scalar `from` converts to implicitly, itself included. */
export function implicitlyReachable(from: string): readonly string[] {
  let found = reachableCache.get(from);
  if (!found) {
    const seen = new Set([from]);
    const queue = [from];
    for (let t = queue.shift(); t !== undefined; t = queue.shift()) {
      for (const u of IMPLICIT[t] ?? []) {
        if (!seen.has(u)) {
          seen.add(u);
          queue.push(u);
        }
      }
    }
    found = [...seen];
    reachableCache.set(from, found);
  }
  return found;
}

export const distanceCache = new Map<string, number | null>();

/** Shortest chain of implicit casts between two std scalars (0 when equal). */
export function scalarDistance(from: string, to: string): number | null {
  if (from === to) return 0;
  const key = `${from}>${to}`;
  const cached = distanceCache.get(key);
  if (cached !== undefined) return cached;
  let frontier = [from];
  const seen = new Set(frontier);
  let found: number | null = null;
  for (let depth = 1; frontier.length > 0 && found === null; depth++) {
    const next: string[] = [];
    for (const t of frontier) {
      for (const u of IMPLICIT[t] ?? []) {
        if (u === to) found = depth;
        if (!seen.has(u)) {
          seen.add(u);
          next.push(u);
        }
      }
    }
    frontier = next;
  }
  distanceCache.set(key, found);
  return found;
}

/** Implicit-cast distance between two types (arrays and tuples element-wise), or null. */
export function implicitDistance(from: TypeRef, to: TypeRef, env: TypeEnv): number | null {
  if (from.kind === 'scalar' && to.kind === 'scalar') {
    if (from.name === to.name) return 0;
    if (env.enumValues(from.name) || env.enumValues(to.name)) return null;
    const a = resolutionBase(from.name, env);
    if (a === null) return null;
    // Into a custom scalar only from itself; out of one, as its base.
    if (!isStdScalarName(to.name)) return null;
    return scalarDistance(a, to.name === 'std::sequence' ? 'std::int64' : to.name);
  }
  if (from.kind === 'array' && to.kind === 'array')
    return implicitDistance(from.element, to.element, env);
  // Ranges and multiranges follow their element types (range<int32> → range<float64>, Gel's
  // implicit range casts); a range is also a one-range multirange, one cast further.
  if (
    (from.kind === 'range' || from.kind === 'multirange') &&
    (to.kind === 'range' || to.kind === 'multirange')
  ) {
    if (from.kind === 'multirange' && to.kind === 'range') return null;
    if (to.element.kind !== 'scalar' || !isRangeElement(to.element.name)) return null;
    const d = implicitDistance(from.element, to.element, env);
    return d === null ? null : d + (from.kind === to.kind ? 0 : 1);
  }
  if (from.kind === 'tuple' && to.kind === 'tuple') {
    if (from.elements.length !== to.elements.length) return null;
    let total = 0;
    for (let i = 0; i < from.elements.length; i++) {
      const a = from.elements[i] as (typeof from.elements)[number];
      const b = to.elements[i] as (typeof to.elements)[number];
      if (b.name !== null && a.name !== null && a.name !== b.name) return null;
      const d = implicitDistance(a.type, b.type, env);
      if (d === null) return null;
      total += d;
    }
    return total;
  }
  if (from.kind === 'object' && to.kind === 'object') {
    if (from.name === to.name) return 0;
    return env.commonObject?.(from.name, to.name) === to.name ? 1 : null;
  }
  return null;
}

/**
 * The type every one of `types` converts to implicitly with the least total distance (Gel's
 * common type of a set literal, an `if/else`, a polymorphic parameter), or null when none does.
 * A custom scalar met with its own kind stays itself; mixed with others it becomes its base.
 */
export function commonType(types: readonly TypeRef[], env: TypeEnv): TypeRef | null {
  const [first, ...rest] = types;
  if (!first) return null;
  if (rest.every((t) => printTypeRef(t) === printTypeRef(first))) return first;
  const candidates: TypeRef[] = [];
  const addCandidates = (t: TypeRef) => {
    candidates.push(t);
    if (t.kind === 'scalar') {
      const base = resolutionBase(t.name, env);
      if (base) {
        candidates.push({ kind: 'scalar', name: base });
        for (const other of Object.keys(IMPLICIT).concat(Object.values(IMPLICIT).flat()))
          if (scalarDistance(base, other) !== null)
            candidates.push({ kind: 'scalar', name: other });
      }
    }
  };
  if (types.every((t) => t.kind === 'object')) {
    let name: string | null = first.kind === 'object' ? first.name : null;
    for (const t of rest)
      name = name && t.kind === 'object' ? (env.commonObject?.(name, t.name) ?? null) : null;
    return name === null ? null : { kind: 'object', name };
  }
  for (const t of types) addCandidates(t);
  if (types.every((t) => t.kind === 'array')) {
    const element = commonType(
      types.map((t) => (t as { element: TypeRef }).element),
      env,
    );
    return element ? { kind: 'array', element } : null;
  }
  if (types.every((t) => t.kind === 'range' || t.kind === 'multirange')) {
    // Ranges meet at the range of their elements' common type; with a multirange among them,
    // at the multirange of it.
    const element = commonType(
      types.map((t) => (t as { element: TypeRef }).element),
      env,
    );
    if (!element || element.kind !== 'scalar' || !isRangeElement(element.name)) return null;
    return { kind: types.some((t) => t.kind === 'multirange') ? 'multirange' : 'range', element };
  }
  if (types.every((t) => t.kind === 'tuple')) {
    const tuples = types as readonly Extract<TypeRef, { kind: 'tuple' }>[];
    const width = tuples[0]?.elements.length ?? 0;
    if (tuples.some((t) => t.elements.length !== width)) return null;
    const elements: { name: string | null; type: TypeRef }[] = [];
    for (let i = 0; i < width; i++) {
      const names = new Set(tuples.map((t) => t.elements[i]?.name ?? null));
      const type = commonType(
        tuples.map((t) => (t.elements[i] as { type: TypeRef }).type),
        env,
      );
      if (!type) return null;
      elements.push({ name: names.size === 1 ? ([...names][0] ?? null) : null, type });
    }
    return { kind: 'tuple', elements };
  }
  let best: TypeRef | null = null;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    let cost = 0;
    for (const t of types) {
      const d = implicitDistance(t, candidate, env);
      if (d === null) {
        cost = Number.POSITIVE_INFINITY;
        break;
      }
      cost += d;
    }
    if (cost < bestCost) {
      best = candidate;
      bestCost = cost;
    }
  }
  return best;
}
