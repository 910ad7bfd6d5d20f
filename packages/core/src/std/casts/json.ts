/**
 * std/casts/json: casts from json (`<T>json`): kinds checked, JSON null as empty, collections and
 * tuples element by element. Part of std/casts.ts, which resolves casts.
 */
import { InvalidTypeError, type SourcePosition } from '../../errors';
import { printTypeRef, type TypeRef } from '../../model/schema';
import { pgType, sql, type SqlExpr } from '../../sql/ast';
import type { TypeEnv, Volatility } from '../model';
import { raise } from '../operators';
import {
  decodeParam,
  isStdScalarName,
  jsonText,
  pgTypeFor,
  scalarInfo,
  storedJson,
  storedValue,
} from '../scalars';
import { NUMERIC, resolutionBase } from './implicit';
import { findCast } from './index';
import { enumLabel } from '../scalars';

export const cannotCast = (from: TypeRef, to: TypeRef, position?: SourcePosition): never => {
  throw new InvalidTypeError(`cannot cast '${printTypeRef(from)}' to '${printTypeRef(to)}'`, {
    position,
  });
};

export const identity = (value: SqlExpr): SqlExpr => value;

/** The JSON kind a json value must have to be cast to a std scalar (Gel refuses the others). */
export function jsonKind(std: string): 'string' | 'number' | 'boolean' {
  if (NUMERIC.has(std) || std === 'std::sequence') return 'number';
  if (std === 'std::bool') return 'boolean';
  return 'string';
}

/**
 * `<T>json`: JSON null → empty (NULL), the wrong JSON kind → InvalidValueError (22000), its
 * message prefixed by `context` (Gel's "while casting ..., in array elements, ").
 */
export function fromJson(to: TypeRef, env: TypeEnv, context = ''): (value: SqlExpr) => SqlExpr {
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
    // input, not rounded); bytes travel in JSON as base64 (docs/http.md): their JSON form is
    // decoded.
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
export const castContext = (from: TypeRef, to: TypeRef): SqlExpr =>
  sql.text(`while casting '${printTypeRef(from)}' to '${printTypeRef(to)}', `);

/**
 * The JSON value a collection cast from json decodes, checked as Gel checks it (std/bootstrap's
 * svc_meta.json_expect, json_array_elements_not_null): an array needs a JSON array (without JSON
 * null elements unless they become json); JSON null stays an empty set. (Ranges: std/range-casts
 * `rangeFromJson`.)
 */
export function checkJsonCollection(to: TypeRef, j: SqlExpr, env: TypeEnv): SqlExpr {
  const from: TypeRef = { kind: 'scalar', name: 'std::json' };
  const meta = (name: string, args: SqlExpr[]) => sql.func(name, args, 'svc_meta');
  if (to.kind !== 'array') return j;
  const array = meta('json_expect', [j, sql.text('array'), sql.text('')]);
  return isJson(to.element, env)
    ? array
    : meta('json_array_elements_not_null', [array, castContext(from, to)]);
}

/** `<array<T>>` of an `array<json>`: a JSON null element cannot become a T (Gel). */
export function notNullElement(
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
export function scalarsFromJson(
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
export function tuplesFromJson(
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
export const tupleElement = (type: TypeRef, value: SqlExpr, i: number, env: TypeEnv): SqlExpr =>
  storedValue(type, sql.bin('->', value, sql.num(i)), env);

/** `<tuple<...>>tuple`: element-wise casts; the widths must agree (names follow the target). */
export function tupleCast(
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
export function tupleFromJson(
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

export const isJson = (t: TypeRef, env: TypeEnv): boolean =>
  t.kind === 'scalar' && resolutionBase(t.name, env) === 'std::json';
