/**
 * std/casts: which scalar converts to which, implicitly (to match an overload), on assignment
 * (storing an int64 literal into an int16 property) or only when written (`<T>x`), and the SQL
 * that does it.
 *
 * Input: EdgeQL TypeRefs and a TypeEnv. Output: `implicitDistance(from, to)` (the length of the
 * shortest chain of implicit casts, or null), `commonType(types)`, `resolveCast(from, to)`.
 * Invariants:
 * - the implicit graph is Gel's: int16 → int32 → int64 → {float64, bigint, decimal},
 *   int16 → float32 → float64, bigint → decimal, local_date → local_datetime,
 *   date_duration → relative_duration; decimal/bigint and floats never meet implicitly;
 * - a custom scalar is its std base for resolution (distance 0), an enum only matches `anyenum`,
 *   `anyscalar`, `anytype` or itself;
 * - casts that Gel refuses (`<bytes>'x'`, item 4) throw `InvalidTypeError` naming both types.
 */
import { InvalidTypeError, type SourcePosition } from '../errors';
import { isRangeElement, printTypeRef, type TypeRef } from '../model/schema';
import { jsonbArrayOf, scalarPgType } from '../storage/types';
import { pgType, sql, type SqlExpr } from '../sql/ast';
import type { TypeEnv, Volatility } from './model';
import { raise } from './operators';
import { rangeCast, rangeFromJson } from './range-casts';
import {
  STD_SCALARS_INFO,
  decodeParam,
  isStdScalarName,
  jsonOf,
  jsonText,
  pgTypeFor,
  scalarInfo,
  storedJson,
} from './scalars';

const IMPLICIT: Readonly<Record<string, readonly string[]>> = {
  'std::int16': ['std::int32', 'std::float32'],
  'std::int32': ['std::int64'],
  'std::int64': ['std::float64', 'std::bigint', 'std::decimal'],
  'std::bigint': ['std::decimal'],
  'std::float32': ['std::float64'],
  'cal::local_date': ['cal::local_datetime'],
  'cal::date_duration': ['cal::relative_duration'],
};

/** Assignment casts (beyond the implicit ones): narrowing numbers, str into an enum. */
const ASSIGNMENT: Readonly<Record<string, readonly string[]>> = {
  'std::int64': ['std::int32', 'std::int16', 'std::float32'],
  'std::float64': ['std::float32'],
};

const NUMERIC = new Set([
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

const reachableCache = new Map<string, readonly string[]>();

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

const distanceCache = new Map<string, number | null>();

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

export interface Cast {
  readonly from: TypeRef;
  readonly to: TypeRef;
  readonly implicit: boolean;
  /** Allowed silently when storing into a pointer of type `to`. */
  readonly assignment: boolean;
  readonly volatility: Volatility;
  /** The cast may turn a value into no value (Gel: JSON null cast from json is empty). */
  readonly mayBeEmpty: boolean;
  readonly sql: (value: SqlExpr) => SqlExpr;
}

const cannotCast = (from: TypeRef, to: TypeRef, position?: SourcePosition): never => {
  throw new InvalidTypeError(`cannot cast '${printTypeRef(from)}' to '${printTypeRef(to)}'`, {
    position,
  });
};

const identity = (value: SqlExpr): SqlExpr => value;

/** The JSON kind a json value must have to be cast to a std scalar (Gel refuses the others). */
function jsonKind(std: string): 'string' | 'number' | 'boolean' {
  if (NUMERIC.has(std) || std === 'std::sequence') return 'number';
  if (std === 'std::bool') return 'boolean';
  return 'string';
}

/**
 * `<T>json`: JSON null → empty (NULL), the wrong JSON kind → InvalidValueError (22000), its
 * message prefixed by `context` (Gel's "while casting ..., in array elements, ").
 */
function fromJson(to: TypeRef, env: TypeEnv, context = ''): (value: SqlExpr) => SqlExpr {
  return (j) => {
    const pg = pgTypeFor(to);
    if (to.kind === 'array' && to.element.kind === 'tuple') {
      return tuplesFromJson(to, checkJsonCollection(to, j, env), env);
    }
    if (to.kind === 'array' && to.element.kind === 'scalar' && !isJson(to.element, env)) {
      return scalarsFromJson(to, checkJsonCollection(to, j, env), env);
    }
    if (to.kind !== 'scalar') return decodeParam(to, checkJsonCollection(to, j, env), env);
    const info = scalarInfo(to.name, env);
    if (!info) return cannotCast({ kind: 'scalar', name: 'std::json' }, to);
    const kind = env.enumValues(to.name) ? 'string' : jsonKind(info.name);
    // A JSON string or number converts from its text (Gel: `<int64>to_json('1.5')` is invalid
    // input, not rounded); bytes travel in JSON as base64 (item 30): their JSON form is decoded.
    const converted =
      kind !== 'boolean' && info.name !== 'std::bytes'
        ? info.fromText(jsonText(j))
        : info.decode(j);
    const labels = env.enumValues(to.name);
    const typed = isStdScalarName(to.name)
      ? converted
      : sql.cast(labels ? enumLabel(converted, to.name, labels) : converted, pg);
    return {
      kind: 'Case',
      whens: [
        { when: sql.isNull(j), then: sql.null() },
        { when: sql.bin('=', sql.func('jsonb_typeof', [j]), sql.text(kind)), then: typed },
        { when: sql.bin('=', sql.func('jsonb_typeof', [j]), sql.text('null')), then: sql.null() },
      ],
      else: raise(
        j,
        pg,
        sql.bin(
          '||',
          sql.text(`${context}expected JSON ${kind} or null; got JSON `),
          sql.func('jsonb_typeof', [j]),
        ),
      ),
    };
  };
}

/** Gel's context for an error inside a collection cast: `while casting 'A' to 'B', `. */
const castContext = (from: TypeRef, to: TypeRef): SqlExpr =>
  sql.text(`while casting '${printTypeRef(from)}' to '${printTypeRef(to)}', `);

/**
 * The JSON value a collection cast from json decodes, checked as Gel checks it (std/bootstrap's
 * svc_meta.json_expect, json_array_elements_not_null): an array needs a JSON array (without JSON
 * null elements unless they become json); JSON null stays an empty set. (Ranges: std/range-casts
 * `rangeFromJson`.)
 */
function checkJsonCollection(to: TypeRef, j: SqlExpr, env: TypeEnv): SqlExpr {
  const from: TypeRef = { kind: 'scalar', name: 'std::json' };
  const meta = (name: string, args: SqlExpr[]) => sql.func(name, args, 'svc_meta');
  if (to.kind !== 'array') return j;
  const array = meta('json_expect', [j, sql.text('array'), sql.text('')]);
  return isJson(to.element, env)
    ? array
    : meta('json_array_elements_not_null', [array, castContext(from, to)]);
}

/** `<array<T>>` of an `array<json>`: a JSON null element cannot become a T (Gel). */
function notNullElement(
  from: TypeRef,
  to: TypeRef,
  element: (value: SqlExpr) => SqlExpr,
): (value: SqlExpr) => SqlExpr {
  return (e) => ({
    kind: 'Case',
    whens: [
      {
        when: sql.bin('=', sql.func('jsonb_typeof', [e]), sql.text('null')),
        then: raise(
          e,
          pgTypeFor((to as Extract<TypeRef, { kind: 'array' }>).element),
          sql.bin(
            '||',
            castContext(from, to),
            sql.text('in array elements, invalid null value in cast'),
          ),
        ),
      },
    ],
    else: element(e),
  });
}

/** `<array<T>>json` for a scalar T: each element cast as `<T>json` is (its JSON kind checked). */
function scalarsFromJson(
  to: Extract<TypeRef, { kind: 'array' }>,
  j: SqlExpr,
  env: TypeEnv,
): SqlExpr {
  const json: TypeRef = { kind: 'scalar', name: 'std::json' };
  const element = fromJson(
    to.element,
    env,
    `while casting '${printTypeRef(json)}' to '${printTypeRef(to)}', in array elements, `,
  );
  const items = sql.items(sql.func('jsonb_array_elements', [j]), 'e');
  const converted = sql.array(
    sql.select({
      targets: [sql.target(element(sql.col('value', 'e')))],
      from: [items],
      orderBy: [sql.order(sql.col('ord', 'e'))],
    }),
  );
  return {
    kind: 'Case',
    whens: [
      {
        when: sql.or(sql.isNull(j), sql.bin('=', sql.func('jsonb_typeof', [j]), sql.text('null'))),
        then: sql.null(),
      },
    ],
    else: sql.cast(converted, pgTypeFor(to)),
  };
}

/**
 * `<array<tuple<...>>>json`: each element cast from json as a tuple (checked as Gel checks it),
 * kept as the one jsonb array an array of tuples is.
 */
function tuplesFromJson(
  to: Extract<TypeRef, { kind: 'array' }>,
  j: SqlExpr,
  env: TypeEnv,
): SqlExpr {
  const json: TypeRef = { kind: 'scalar', name: 'std::json' };
  const element = findCast(json, to.element, env);
  if (!element) return cannotCast(json, to);
  const items = sql.items(sql.func('jsonb_array_elements', [j]), 'e');
  const agg = sql.agg(
    'jsonb_agg',
    [storedJson(to.element, element.sql(sql.col('value', 'e')), env)],
    { orderBy: [sql.order(sql.col('ord', 'e'))] },
  );
  return {
    kind: 'Case',
    whens: [
      {
        when: sql.or(sql.isNull(j), sql.bin('=', sql.func('jsonb_typeof', [j]), sql.text('null'))),
        then: sql.null(),
      },
    ],
    else: sql.func('coalesce', [
      sql.scalar(sql.select({ targets: [sql.target(agg)], from: [items] })),
      sql.cast(sql.text('[]'), pgType('jsonb')),
    ]),
  };
}

/** Element i of a tuple value (a jsonb array) as a value of its type. */
const tupleElement = (type: TypeRef, value: SqlExpr, i: number, env: TypeEnv): SqlExpr =>
  decodeParam(type, sql.bin('->', value, sql.num(i)), env);

/** `<tuple<...>>tuple`: element-wise casts; the widths must agree (names follow the target). */
function tupleCast(
  from: Extract<TypeRef, { kind: 'tuple' }>,
  to: Extract<TypeRef, { kind: 'tuple' }>,
  env: TypeEnv,
): { sql: (value: SqlExpr) => SqlExpr; volatility: Volatility } | null {
  if (from.elements.length !== to.elements.length) return null;
  const parts = from.elements.map((e, i) =>
    findCast(e.type, (to.elements[i] as { type: TypeRef }).type, env),
  );
  if (parts.some((p) => p === null)) return null;
  return {
    volatility: parts.some((p) => p?.volatility !== 'Immutable') ? 'Stable' : 'Immutable',
    sql: (v) => ({
      kind: 'Case',
      whens: [{ when: sql.isNull(v), then: sql.null() }],
      else: sql.jsonBuild(
        'jsonb_build_array',
        to.elements.map((e, i) =>
          storedJson(
            e.type,
            (parts[i] as { sql: (x: SqlExpr) => SqlExpr }).sql(
              tupleElement((from.elements[i] as { type: TypeRef }).type, v, i, env),
            ),
            env,
          ),
        ),
      ),
    }),
  };
}

/** `<tuple<...>>json`: a JSON array by position, or for a named tuple a JSON object by name. */
function tupleFromJson(
  to: Extract<TypeRef, { kind: 'tuple' }>,
  env: TypeEnv,
): (j: SqlExpr) => SqlExpr {
  const json: TypeRef = { kind: 'scalar', name: 'std::json' };
  return (j) => {
    // Each element must be there and, unless it is a json, not JSON null (Gel), unlike the
    // tuple itself (std/bootstrap `json_element`).
    const element = (key: SqlExpr, type: TypeRef, name: string): SqlExpr => {
      const cast = findCast(json, type, env);
      if (!cast) return cannotCast(json, type);
      const present = sql.func(
        'json_element',
        [
          sql.bin('->', j, key),
          sql.text(
            `while casting '${printTypeRef(json)}' to '${printTypeRef(to)}', at tuple element '${name}', `,
          ),
          sql.bool(isJson(type, env)),
        ],
        'svc_meta',
      );
      return storedJson(type, cast.sql(present), env);
    };
    const byPosition = sql.jsonBuild(
      'jsonb_build_array',
      to.elements.map((e, i) => element(sql.num(i), e.type, e.name ?? String(i))),
    );
    const named = to.elements.every((e) => e.name !== null);
    const type = sql.func('jsonb_typeof', [j]);
    // A named tuple reads its elements by name, from an object; in an array they are missing
    // (Gel's cast; a parameter may send a named tuple by position: std/params).
    const byName = () =>
      sql.jsonBuild(
        'jsonb_build_array',
        to.elements.map((e) => element(sql.text(e.name as string), e.type, e.name as string)),
      );
    return {
      kind: 'Case',
      whens: [
        { when: sql.or(sql.isNull(j), sql.bin('=', type, sql.text('null'))), then: sql.null() },
        { when: sql.bin('=', type, sql.text('array')), then: named ? byName() : byPosition },
        ...(named ? [{ when: sql.bin('=', type, sql.text('object')), then: byName() }] : []),
      ],
      else: raise(
        j,
        pgType('jsonb'),
        sql.bin(
          '||',
          sql.text(`expected JSON ${named ? 'object or array' : 'array'}; got JSON `),
          type,
        ),
      ),
    };
  };
}

/**
 * `<to>value` for a value of type `from`. Throws InvalidTypeError for a cast Gel does not allow.
 * Object casts (`<User>uuid`, item 12) are the compiler's: they need a table.
 */
export function resolveCast(
  from: TypeRef,
  to: TypeRef,
  env: TypeEnv,
  position?: SourcePosition,
): Cast {
  const found = findCast(from, to, env);
  if (!found) return cannotCast(from, to, position);
  const distance = implicitDistance(from, to, env);
  const assignment =
    distance !== null ||
    (from.kind === 'scalar' &&
      to.kind === 'scalar' &&
      ((ASSIGNMENT[resolutionBase(from.name, env) ?? ''] ?? []).includes(to.name) ||
        (resolutionBase(from.name, env) === 'std::str' && env.enumValues(to.name) !== null) ||
        assignableToCustomScalar(from, to.name, env))) ||
    assignableByElement(from, to, env);
  return {
    from,
    to,
    implicit: distance !== null,
    assignment,
    volatility: found.volatility,
    mayBeEmpty: isJson(from, env) && !isJson(to, env),
    sql: found.sql,
  };
}

const isJson = (t: TypeRef, env: TypeEnv): boolean =>
  t.kind === 'scalar' && resolutionBase(t.name, env) === 'std::json';

/** Arrays and tuples are assignable element by element (Gel: `[3, 1234.5]` into an
 * `array<float32>`). */
function assignableByElement(from: TypeRef, to: TypeRef, env: TypeEnv): boolean {
  const assignable = (a: TypeRef, b: TypeRef): boolean => {
    try {
      return resolveCast(a, b, env).assignment;
    } catch (error) {
      if (error instanceof InvalidTypeError) return false;
      throw error;
    }
  };
  if (from.kind === 'array' && to.kind === 'array') return assignable(from.element, to.element);
  if (from.kind === 'tuple' && to.kind === 'tuple') {
    return (
      from.elements.length === to.elements.length &&
      from.elements.every((e, i) => {
        const target = to.elements[i] as { name: string | null; type: TypeRef };
        // Named elements match by name: `(b := 1, a := 2)` is not a `tuple<a: ..., b: ...>`.
        if (e.name !== null && target.name !== null && e.name !== target.name) return false;
        return assignable(e.type, target.type);
      })
    );
  }
  return false;
}

/**
 * A value is assignable to a custom scalar when it is assignable to the std scalar the custom one
 * extends (Gel: `number := '1'` for `scalar type issue_num_t extending str`); the cast to the
 * custom scalar's DOMAIN then checks its constraints (item 24).
 */
function assignableToCustomScalar(from: TypeRef, to: string, env: TypeEnv): boolean {
  if (isStdScalarName(to) || env.enumValues(to) !== null) return false;
  const base = env.stdBase(to);
  if (!base || base === to) return false;
  const baseType: TypeRef = { kind: 'scalar', name: base };
  return findCast(from, baseType, env) !== null && resolveCast(from, baseType, env).assignment;
}

function findCast(
  from: TypeRef,
  to: TypeRef,
  env: TypeEnv,
): { sql: (value: SqlExpr) => SqlExpr; volatility: Volatility } | null {
  const immutable = (f: (value: SqlExpr) => SqlExpr) => ({
    sql: f,
    volatility: 'Immutable' as const,
  });
  if (printTypeRef(from) === printTypeRef(to)) return immutable(identity);
  if (to.kind === 'scalar' && resolutionBase(to.name, env) === 'std::json') {
    // `<json>x`: the value's JSON result form as jsonb (item 28: `<json>'a'` is a JSON string).
    return immutable((v) => sql.cast(jsonOf(from, v, env), pgType('jsonb')));
  }
  if (from.kind === 'scalar' && resolutionBase(from.name, env) === 'std::json') {
    if (to.kind === 'range' || to.kind === 'multirange')
      return immutable(rangeFromJson(to, fromJson(to.element, env)));
    return immutable(to.kind === 'tuple' ? tupleFromJson(to, env) : fromJson(to, env));
  }
  if (from.kind === 'tuple' && to.kind === 'tuple') return tupleCast(from, to, env);
  const ranges = rangeCast(from, to, (a, b) => findCast(a, b, env));
  if (ranges) return ranges;
  if (from.kind === 'array' && to.kind === 'array') {
    if (jsonbArrayOf(from.element) || jsonbArrayOf(to.element)) {
      // Arrays of tuples or arrays are one jsonb array: convert element by element in order.
      const element = findCast(from.element, to.element, env);
      if (!element) return null;
      return {
        volatility: element.volatility,
        sql: (v) => {
          const items = sql.items(sql.func('jsonb_array_elements', [v]), 'e');
          const converted = storedJson(
            to.element,
            element.sql(decodeParam(from.element, sql.col('value', 'e'), env)),
            env,
          );
          const agg = sql.agg('jsonb_agg', [converted], {
            orderBy: [sql.order(sql.col('ord', 'e'))],
          });
          return {
            kind: 'Case',
            whens: [{ when: sql.isNull(v), then: sql.null() }],
            else: sql.scalar(
              sql.select({
                targets: [
                  sql.target(
                    sql.func('coalesce', [agg, sql.cast(sql.text('[]'), pgType('jsonb'))]),
                  ),
                ],
                from: [items],
              }),
            ),
          };
        },
      };
    }
    const found = findCast(from.element, to.element, env);
    if (!found) return null;
    const element =
      isJson(from.element, env) && !isJson(to.element, env)
        ? { ...found, sql: notNullElement(from, to, found.sql) }
        : found;
    return {
      volatility: element.volatility,
      sql: (v) => {
        const items = sql.items(sql.func('unnest', [v]), 'e');
        const converted = sql.array(
          sql.select({
            targets: [sql.target(element.sql(sql.col('value', 'e')))],
            from: [items],
            orderBy: [sql.order(sql.col('ord', 'e'))],
          }),
        );
        return {
          kind: 'Case',
          whens: [{ when: sql.isNull(v), then: sql.null() }],
          else: sql.cast(converted, pgTypeFor(to)),
        };
      },
    };
  }
  if (from.kind !== 'scalar' || to.kind !== 'scalar') return null;
  const fromEnum = env.enumValues(from.name);
  const toEnum = env.enumValues(to.name);
  const a = fromEnum ? 'std::str' : resolutionBase(from.name, env);
  const b = toEnum ? 'std::str' : resolutionBase(to.name, env);
  if (a === null || b === null) return null;
  if (fromEnum && toEnum) return null;
  // Into a custom scalar (a DOMAIN) or enum: convert to its base, then the domain checks (item 24).
  const toDomain = !isStdScalarName(to.name)
    ? (v: SqlExpr) => sql.cast(toEnum ? enumLabel(v, to.name, toEnum) : v, scalarPgType(to.name))
    : identity;
  const base = scalarCast(a, b);
  if (!base) return null;
  return { volatility: base.volatility, sql: (v) => toDomain(base.sql(v)) };
}

/** The value of a text constant (`'x'`, `'x'::text`), or null. */
function constantText(v: SqlExpr): string | null {
  if (v.kind === 'Cast' && v.type.name === 'text' && v.type.arrayDims === 0)
    return constantText(v.expr);
  return v.kind === 'Literal' && v.type === 'text' && typeof v.value === 'string' ? v.value : null;
}

/**
 * A text that must be one of an enum's labels (std/bootstrap's svc_meta.enum_in); a constant
 * label (`Color.Red`, checked when bound) needs no check at run time.
 */
const enumLabel = (v: SqlExpr, name: string, labels: readonly string[]): SqlExpr => {
  const constant = constantText(v);
  if (constant !== null && labels.includes(constant)) return v;
  return sql.func(
    'enum_in',
    [
      v,
      { kind: 'ArrayExpr', elements: labels.map((l) => sql.text(l)), type: pgType('text', 1) },
      sql.text(name),
    ],
    'svc_meta',
  );
};

/** `case when ok then v else raise end`: a narrowing cast that may fail at run time. */
function checked(v: SqlExpr, ok: SqlExpr, type: string): SqlExpr {
  return {
    kind: 'Case',
    whens: [
      { when: sql.isNull(v), then: sql.null() },
      { when: ok, then: v },
    ],
    else: raise(v, pgType('interval'), sql.text(`the value does not fit in ${type}`)),
  };
}

const FLOATS = new Set(['std::float32', 'std::float64']);
const EXACT = new Set(['std::bigint', 'std::decimal']);

/**
 * Between numeric types (Gel's casts): into bigint a float or a decimal is rounded; into bigint
 * or decimal, NaN and the infinities are InvalidValueError (22P02); the rest is PostgreSQL's cast
 * (out of range: 22003).
 */
function numericCast(a: string, b: string): (value: SqlExpr) => SqlExpr {
  const from = STD_SCALARS_INFO[a as keyof typeof STD_SCALARS_INFO].pg;
  const to = STD_SCALARS_INFO[b as keyof typeof STD_SCALARS_INFO].pg;
  const rounded = (v: SqlExpr) => (b === 'std::bigint' ? sql.func('round', [v]) : v);
  if (FLOATS.has(a) && EXACT.has(b)) {
    return (v) => {
      const value = rounded(v);
      return sql.cast(
        {
          kind: 'Case',
          whens: [
            {
              when: {
                kind: 'AnyOp',
                left: value,
                op: '=',
                array: {
                  kind: 'ArrayExpr',
                  elements: ['NaN', 'Infinity', '-Infinity'].map((t) => sql.text(t)),
                  type: { ...from, arrayDims: 1 },
                },
              },
              then: raise(
                value,
                from,
                sql.bin(
                  '||',
                  sql.text(`invalid value for ${b}: `),
                  sql.func('quote_literal', [sql.cast(value, pgType('text'))]),
                ),
                '22P02',
              ),
            },
          ],
          else: value,
        },
        to,
      );
    };
  }
  if (a === 'std::decimal' && b === 'std::bigint') return (v) => sql.cast(rounded(v), to);
  return (v) => sql.cast(v, to);
}

const DURATIONS = new Set(['std::duration', 'cal::relative_duration', 'cal::date_duration']);
const LOCAL = new Set(['cal::local_datetime', 'cal::local_date', 'cal::local_time']);

/** Casts between std scalars (both already their resolution bases). */
function scalarCast(
  a: string,
  b: string,
): { sql: (value: SqlExpr) => SqlExpr; volatility: Volatility } | null {
  const immutable = (f: (value: SqlExpr) => SqlExpr) => ({
    sql: f,
    volatility: 'Immutable' as const,
  });
  if (a === b) return immutable(identity);
  const from = STD_SCALARS_INFO[a as keyof typeof STD_SCALARS_INFO];
  const to = STD_SCALARS_INFO[b as keyof typeof STD_SCALARS_INFO];
  if (!from || !to) return null;
  if (b === 'std::str') {
    if (a === 'std::bytes') return null;
    return immutable(from.toText);
  }
  if (a === 'std::str') {
    if (b === 'std::bytes') return null; // item 4: a compile error; use base64_decode or b'...'
    return immutable(to.fromText);
  }
  if (NUMERIC.has(a) && NUMERIC.has(b)) return immutable(numericCast(a, b));
  if (DURATIONS.has(a) && DURATIONS.has(b)) {
    // Same storage (interval); narrowing checks the units the target cannot hold (item 3).
    if (b === 'cal::date_duration') {
      return immutable((v) =>
        checked(v, sql.bin('=', v, sql.func('date_trunc', [sql.text('day'), v])), b),
      );
    }
    if (b === 'std::duration' && a !== 'std::duration') {
      return immutable((v) =>
        checked(
          v,
          sql.and(
            ...['year', 'month', 'day'].map((f) =>
              sql.bin('=', sql.func('date_part', [sql.text(f), v]), sql.num(0)),
            ),
          ),
          b,
        ),
      );
    }
    return immutable(identity);
  }
  if (LOCAL.has(a) && LOCAL.has(b)) {
    if (a === 'cal::local_time') return null;
    if (a === 'cal::local_date' && b === 'cal::local_time') return null;
    return immutable((v) => sql.cast(v, to.pg));
  }
  return null;
}
