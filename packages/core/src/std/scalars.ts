/**
 * std/scalars: every std scalar type — the PostgreSQL type that stores it, how a query parameter
 * is decoded into it, how a value of it is rendered into the result JSON — and the same for any
 * TypeRef built from them (arrays, tuples, custom scalars, enums).
 *
 * Input: EdgeQL type names / TypeRefs (and a TypeEnv for custom scalars).
 * Output: `STD_SCALARS_INFO`, `decodeParam(type, jsonb)`, `jsonOf(type, value)`,
 * `jsonTextOf(type, value)` (the same JSON as text, for results built as text: sql `jsonObject`),
 * `pgTypeFor(type)`.
 * Invariants (the JSON forms of scalars: docs/http.md):
 * - ints, floats, bigint, decimal are JSON numbers; bool a JSON bool; str, uuid, enums strings;
 *   json embedded; bytes base64 without line breaks; datetimes ISO 8601 in UTC with `Z`; local
 *   types ISO 8601; durations ISO 8601 built from their fields. Nothing reads session settings.
 * - the JSON form is a `json` value (not jsonb) so that the compiler's objects keep shape order;
 *   decode forms read the parameter as `jsonb` (what the engine binds).
 * - `jsonTextOf(t, v)` is `jsonOf(t, v)::text`, byte for byte, NULL for NULL (std.db.test).
 */
import { STD_ENUMS, type StdScalarName, type TypeRef } from '../model/schema';
import { STD_PG_TYPES, isStdScalar, jsonbArrayOf, pgTypeOf, scalarPgType } from '../storage/types';
import { concatText, pgType, sql, type FromItem, type PgType, type SqlExpr } from '../sql/ast';
import type { TypeEnv } from './model';

const meta = (name: string, args: readonly SqlExpr[]): SqlExpr => sql.func(name, args, 'svc_meta');
/** The text inside a JSON string (or any JSON scalar): `j #>> '{}'`. */
export const jsonText = (j: SqlExpr): SqlExpr => sql.bin('#>>', j, sql.text('{}'));
const toJson = (e: SqlExpr): SqlExpr => sql.func('to_json', [e]);
const cast = (e: SqlExpr, name: string): SqlExpr => sql.cast(e, pgType(name));

export interface ScalarInfo {
  readonly name: StdScalarName;
  /** The PostgreSQL type a value is stored and computed as. */
  readonly pg: PgType;
  /** `jsonb` parameter value → a value of the type. */
  readonly decode: (json: SqlExpr) => SqlExpr;
  /** A value of the type → its `json` result form. */
  readonly json: (value: SqlExpr) => SqlExpr;
  /** `json(value)::text` written directly, where the type has a cheaper way (`jsonTextOf`). */
  readonly jsonText?: (value: SqlExpr) => SqlExpr;
  /** str → the type, as `<T>'...'` reads it (ISO 8601 only for dates and times). */
  readonly fromText: (text: SqlExpr) => SqlExpr;
  /** The type → str, as `<str>x` and `to_str(x)` write it (the JSON form's text for most). */
  readonly toText: (value: SqlExpr) => SqlExpr;
  /** The JSON kind a parameter value of the type must have (checked before anything runs). */
  readonly param: ParamKind;
}

/**
 * The JSON kind of a parameter value: what the engine checks before running, so a wrong kind is
 * a QueryArgumentError naming the variable. What a kind cannot tell (a malformed uuid or
 * datetime string) the decode form rejects in the database.
 */
export type ParamKind =
  | { readonly kind: 'string' }
  | { readonly kind: 'boolean' }
  /**
   * A JSON number that is an integer in [min, max] (int64 within JSON's exact integers);
   * `int64`: also a string of digits in int64's whole range, for values beyond JSON's exact
   * integers (a JSON number there has already lost digits when it is read).
   */
  | { readonly kind: 'integer'; readonly min: number; readonly max: number; readonly int64?: true }
  | { readonly kind: 'number' }
  /** A JSON number, or a string of digits to keep every digit (`integer`: no fraction). */
  | { readonly kind: 'exact'; readonly integer: boolean }
  /** Any JSON value (std::json). */
  | { readonly kind: 'any' };

/**
 * `svc_meta.raise(...)`: an error with SQLSTATE `code`, typed as `type`. `probe` must be an input
 * the surrounding condition depends on: PostgreSQL folds an immutable call whose arguments are all
 * constants while planning, even in a CASE branch not taken, so the typed null is written
 * `case when probe is null then null::type end` (constant only when the condition is too).
 */
export const raise = (probe: SqlExpr, type: PgType, message: SqlExpr, code = '22000'): SqlExpr =>
  sql.func(
    'raise',
    [
      {
        kind: 'Case',
        whens: [{ when: sql.isNull(probe), then: sql.cast(sql.null(), type) }],
        else: null,
      },
      sql.text(code),
      message,
    ],
    'svc_meta',
  );

/** The date and time types whose values Gel bounds (years 1 to 9999; a local time below 24:00). */
export type BoundedTemporal =
  | 'std::datetime'
  | 'cal::local_datetime'
  | 'cal::local_date'
  | 'cal::local_time';

const RANGE_CHECK: Readonly<Record<BoundedTemporal, string>> = {
  'std::datetime': 'datetime_range',
  'cal::local_datetime': 'local_datetime_range',
  'cal::local_date': 'local_date_range',
  'cal::local_time': 'local_time_range',
};

/**
 * `value` checked against its type's range (std/bootstrap): PostgreSQL computes dates to years
 * far beyond Gel's; a result out of Gel's range raises InvalidValueError (22008). Wraps every
 * form that computes a date or time (arithmetic, constructors, conversions) rather than reads one.
 */
export const inRange = (type: BoundedTemporal, value: SqlExpr): SqlExpr =>
  meta(RANGE_CHECK[type], [value]);

/** A JSON value with JSON null read as SQL NULL (an absent optional value). */
const nonNull = (j: SqlExpr): SqlExpr =>
  sql.func('nullif', [j, sql.cast(sql.text('null'), pgType('jsonb'))]);

const INT_KIND = (min: number, max: number): ParamKind => ({ kind: 'integer', min, max });
const EXACT_INT = Number.MAX_SAFE_INTEGER;
const INT64_KIND: ParamKind = { kind: 'integer', min: -EXACT_INT, max: EXACT_INT, int64: true };

/**
 * A number's JSON text: its own text, which is a JSON number, but for NaN and the infinities,
 * which `to_json` writes as strings (`"NaN"`): the same text quoted.
 */
const numberText = (v: SqlExpr): SqlExpr => {
  const text = cast(v, 'text');
  const special = sql.or(
    ...['NaN', 'Infinity', '-Infinity'].map((s) => sql.bin('=', v, sql.text(s))),
  );
  return { kind: 'Case', whens: [{ when: special, then: quoted(text) }], else: text };
};

/** `'"' || text || '"'`: a JSON string of text that needs no escaping. */
const quoted = (text: SqlExpr): SqlExpr => concatText([sql.text('"'), text, sql.text('"')]);

const number = (name: StdScalarName, pg: PgType, param: ParamKind): ScalarInfo => ({
  name,
  pg,
  param,
  decode: (j) => sql.cast(nonNull(j), pg),
  json: toJson,
  jsonText: numberText,
  fromText: (t) => sql.cast(t, pg),
  toText: (v) => sql.cast(v, pgType('text')),
});

/** An integer's text is its JSON number (no NaN, no infinity). */
const integer = (name: StdScalarName, pg: PgType, param: ParamKind): ScalarInfo => ({
  ...number(name, pg, param),
  jsonText: (v) => cast(v, 'text'),
});

/** int64 and sequence: a JSON number or a string of digits, read through their text. */
const int64 = (name: StdScalarName): ScalarInfo => ({
  ...integer(name, STD_PG_TYPES[name], INT64_KIND),
  decode: (j) => sql.cast(jsonText(j), STD_PG_TYPES[name]),
});

const textual = (name: StdScalarName, pg: PgType, isoOut: string, isoIn: string): ScalarInfo => ({
  name,
  pg,
  param: { kind: 'string' },
  decode: (j) => meta(isoIn, [jsonText(j)]),
  json: (v) => toJson(meta(isoOut, [v])),
  fromText: (t) => meta(isoIn, [t]),
  toText: (v) => meta(isoOut, [v]),
});

const INFO: Record<StdScalarName, ScalarInfo> = {
  'std::str': {
    name: 'std::str',
    param: { kind: 'string' },
    pg: STD_PG_TYPES['std::str'],
    decode: jsonText,
    json: toJson,
    fromText: (t) => t,
    toText: (v) => v,
  },
  'std::bool': {
    name: 'std::bool',
    param: { kind: 'boolean' },
    pg: STD_PG_TYPES['std::bool'],
    decode: (j) => cast(nonNull(j), 'boolean'),
    json: toJson,
    // bool's text cast writes `true` / `false`.
    jsonText: (v) => cast(v, 'text'),
    fromText: (t) => meta('bool_in', [t]),
    toText: (v) => cast(v, 'text'),
  },
  'std::int16': integer('std::int16', STD_PG_TYPES['std::int16'], INT_KIND(-32768, 32767)),
  'std::int32': integer(
    'std::int32',
    STD_PG_TYPES['std::int32'],
    INT_KIND(-2147483648, 2147483647),
  ),
  'std::int64': int64('std::int64'),
  'std::sequence': int64('std::sequence'),
  'std::float32': number('std::float32', STD_PG_TYPES['std::float32'], { kind: 'number' }),
  'std::float64': number('std::float64', STD_PG_TYPES['std::float64'], { kind: 'number' }),
  // Exact numbers may arrive as JSON numbers or, to keep every digit, as JSON strings.
  'std::decimal': {
    ...number('std::decimal', STD_PG_TYPES['std::decimal'], { kind: 'exact', integer: false }),
    decode: (j) => cast(jsonText(j), 'numeric'),
    fromText: (t) => meta('decimal_in', [t]),
  },
  'std::bigint': {
    ...number('std::bigint', STD_PG_TYPES['std::bigint'], { kind: 'exact', integer: true }),
    decode: (j) => sql.cast(cast(jsonText(j), 'numeric'), STD_PG_TYPES['std::bigint']),
    fromText: (t) => sql.cast(meta('bigint_in', [t]), STD_PG_TYPES['std::bigint']),
  },
  'std::uuid': {
    name: 'std::uuid',
    param: { kind: 'string' },
    pg: STD_PG_TYPES['std::uuid'],
    decode: (j) => cast(jsonText(j), 'uuid'),
    json: toJson,
    // A uuid's text needs no escaping.
    jsonText: (v) => quoted(cast(v, 'text')),
    fromText: (t) => cast(t, 'uuid'),
    toText: (v) => cast(v, 'text'),
  },
  'std::json': {
    name: 'std::json',
    param: { kind: 'any' },
    pg: STD_PG_TYPES['std::json'],
    decode: (j) => j,
    json: (v) => cast(v, 'json'),
    // `<json>'x'` is a JSON string; parsing is to_json's job.
    fromText: (t) => sql.func('to_jsonb', [cast(t, 'text')]),
    toText: (v) => cast(v, 'text'),
  },
  'std::bytes': {
    name: 'std::bytes',
    param: { kind: 'string' },
    pg: STD_PG_TYPES['std::bytes'],
    decode: (j) => sql.func('decode', [jsonText(j), sql.text('base64')]),
    json: (v) => toJson(base64(v)),
    fromText: (t) => sql.func('convert_to', [t, sql.text('UTF8')]),
    toText: base64,
  },
  'std::datetime': {
    ...textual('std::datetime', STD_PG_TYPES['std::datetime'], 'datetime_iso', 'datetime_in'),
    // datetime_iso's body written in place: a call of an SQL function is not inlined by
    // PostgreSQL (its body is only stable), and per value in a result the call is half the cost.
    json: (v) =>
      toJson(
        sql.bin(
          '||',
          jsonText(toJson(sql.bin('at time zone', v, sql.text('UTC')))),
          sql.text('+00:00'),
        ),
      ),
    // The same string, its closing quote moved past the offset: a datetime's JSON needs no escapes.
    jsonText: (v) =>
      sql.bin(
        '||',
        sql.func('left', [
          cast(toJson(sql.bin('at time zone', v, sql.text('UTC'))), 'text'),
          sql.num(-1),
        ]),
        sql.text('+00:00"'),
      ),
  },
  'std::duration': textual(
    'std::duration',
    STD_PG_TYPES['std::duration'],
    'duration_iso',
    'duration_in',
  ),
  'cal::local_datetime': {
    ...textual(
      'cal::local_datetime',
      STD_PG_TYPES['cal::local_datetime'],
      'local_datetime_iso',
      'local_datetime_in',
    ),
    // JSON's own encoding is the ISO 8601 text local_datetime_iso makes (std/bootstrap).
    json: toJson,
  },
  'cal::local_date': textual(
    'cal::local_date',
    STD_PG_TYPES['cal::local_date'],
    'local_date_iso',
    'local_date_in',
  ),
  'cal::local_time': {
    ...textual(
      'cal::local_time',
      STD_PG_TYPES['cal::local_time'],
      'local_time_iso',
      'local_time_in',
    ),
    // JSON's own encoding is the ISO 8601 text local_time_iso makes (std/bootstrap).
    json: toJson,
  },
  'cal::relative_duration': {
    ...textual(
      'cal::relative_duration',
      STD_PG_TYPES['cal::relative_duration'],
      'relative_duration_iso',
      'duration_in',
    ),
    fromText: (t) => cast(t, 'interval'),
    decode: (j) => cast(jsonText(j), 'interval'),
  },
  'cal::date_duration': textual(
    'cal::date_duration',
    STD_PG_TYPES['cal::date_duration'],
    'date_duration_iso',
    'date_duration_in',
  ),
};

/** base64 as RFC 4648 without the line breaks PostgreSQL's encode() inserts. */
export function base64(bytes: SqlExpr): SqlExpr {
  return sql.func('replace', [
    sql.func('encode', [bytes, sql.text('base64')]),
    sql.func('chr', [sql.num(10)]),
    sql.text(''),
  ]);
}

export const STD_SCALARS_INFO: Readonly<Record<StdScalarName, ScalarInfo>> = INFO;

/** True for the std scalar names (the storage layer's list, storage/types). */
export const isStdScalarName: (name: string) => name is StdScalarName = isStdScalar;

/** A TypeEnv that knows only std scalars (for tests and std-only callers). */
export const STD_ONLY: TypeEnv = {
  stdBase: (name) => (isStdScalarName(name) ? name : null),
  enumValues: (name) => STD_ENUMS[name] ?? null,
};

/** The std scalar info for a scalar (custom scalars: their base; enums: str). */
export function scalarInfo(name: string, env: TypeEnv): ScalarInfo | null {
  if (isStdScalarName(name)) return INFO[name];
  if (env.enumValues(name)) return INFO['std::str'];
  const base = env.stdBase(name);
  return base ? INFO[base] : null;
}

/** Whether a value of `type` holds a named tuple (sent as an object or an array). */
function containsNamedTuple(type: TypeRef): boolean {
  if (type.kind === 'array') return containsNamedTuple(type.element);
  if (type.kind !== 'tuple') return false;
  return type.elements.some((e) => e.name !== null || containsNamedTuple(e.type));
}

/**
 * A tuple parameter in its stored form, a jsonb array by position: a named tuple may be sent as
 * an object (by name) or, as Gel's protocol sends it, an array (by position); nested tuples and
 * arrays of tuples likewise. Other values are left as sent.
 */
function positionalTuples(type: TypeRef, j: SqlExpr): SqlExpr {
  if (!containsNamedTuple(type)) return j;
  const typeOf = sql.func('jsonb_typeof', [j]);
  if (type.kind === 'array') {
    const items = sql.items(sql.func('jsonb_array_elements', [j]), 'e');
    const agg = sql.agg('jsonb_agg', [positionalTuples(type.element, sql.col('value', 'e'))], {
      orderBy: [sql.order(sql.col('ord', 'e'))],
    });
    return {
      kind: 'Case',
      whens: [
        {
          when: sql.bin('=', typeOf, sql.text('array')),
          then: sql.func('coalesce', [
            sql.scalar(sql.select({ targets: [sql.target(agg)], from: [items] })),
            cast(sql.text('[]'), 'jsonb'),
          ]),
        },
      ],
      else: j,
    };
  }
  if (type.kind !== 'tuple') return j;
  const build = (key: (name: string | null, i: number) => SqlExpr) =>
    sql.jsonBuild(
      'jsonb_build_array',
      type.elements.map((e, i) => positionalTuples(e.type, sql.bin('->', j, key(e.name, i)))),
    );
  return {
    kind: 'Case',
    whens: [
      { when: sql.bin('=', typeOf, sql.text('array')), then: build((_, i) => sql.num(i)) },
      {
        when: sql.bin('=', typeOf, sql.text('object')),
        then: build((name, i) => (name === null ? sql.num(i) : sql.text(name))),
      },
    ],
    else: j,
  };
}

/**
 * The PostgreSQL type of a value of `type` in a query: the type it is stored as (one mapping,
 * storage/types; tuples and arrays of tuples as jsonb, objects as their uuid).
 */
export const pgTypeFor: (type: TypeRef) => PgType = pgTypeOf;

/** The value of a text constant (`'x'`, `'x'::text`), or null. */
export function constantText(v: SqlExpr): string | null {
  if (v.kind === 'Cast' && v.type.name === 'text' && v.type.arrayDims === 0)
    return constantText(v.expr);
  return v.kind === 'Literal' && v.type === 'text' && typeof v.value === 'string' ? v.value : null;
}

/**
 * A text that must be one of an enum's labels (std/bootstrap's svc_meta.enum_in); a constant
 * label (`Color.Red`, checked when bound) needs no check at run time.
 */
export const enumLabel = (v: SqlExpr, name: string, labels: readonly string[]): SqlExpr => {
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

/**
 * Decodes a parameter (`$n::jsonb`, already a jsonb SqlExpr) into a value of `type`. Custom
 * scalars are cast to their DOMAIN so their constraints are checked; arrays decode
 * element by element (a parameter array keeps its order).
 */
export function decodeParam(type: TypeRef, json: SqlExpr, env: TypeEnv): SqlExpr {
  switch (type.kind) {
    case 'scalar': {
      const info = scalarInfo(type.name, env);
      if (!info) throw new Error(`std: unknown scalar type ${type.name}`);
      const value = info.decode(json);
      if (isStdScalarName(type.name)) return value;
      // An enum's label is checked as `<E>str` checks it: InvalidValueError naming the enum.
      const labels = env.enumValues(type.name);
      return sql.cast(
        labels ? enumLabel(value, type.name, labels) : value,
        scalarPgType(type.name),
      );
    }
    case 'object':
    case 'union':
      return cast(jsonText(json), 'uuid');
    case 'tuple':
      return positionalTuples(type, json);
    case 'range':
      return decodeRange(type.element, json, env);
    case 'multirange':
      return decodeMultirange(type.element, json, (j) => decodeRange(type.element, j, env));
    case 'array': {
      if (jsonbArrayOf(type.element)) return positionalTuples(type, json);
      const element = type.element;
      // array(select decode(e.value) from jsonb_array_elements(j) with ordinality as e order by ord)
      const items = sql.items(sql.func('jsonb_array_elements', [json]), 'e');
      const decoded = sql.array(
        sql.select({
          targets: [sql.target(decodeParam(element, sql.col('value', 'e'), env))],
          from: [items],
          orderBy: [sql.order(sql.col('ord', 'e'))],
        }),
      );
      // JSON null (or an absent parameter) is an empty set, not an empty array.
      return nullIfNull(nonNull(json), sql.cast(decoded, pgTypeFor(type)));
    }
  }
}

/**
 * A range from its JSON form (`{"lower": 1, "upper": 5, "inc_lower": true, "inc_upper": false}`,
 * or `{"empty": true}`): a missing or null bound is unbounded; a missing inclusivity flag takes
 * `range()`'s default (lower inclusive, upper exclusive).
 */
function decodeRange(element: TypeRef, json: SqlExpr, env: TypeEnv): SqlExpr {
  const field = (name: string) => sql.bin('->', json, sql.text(name));
  const flag = (name: string, fallback: boolean) =>
    sql.func('coalesce', [
      cast(sql.bin('->>', json, sql.text(name)), 'boolean'),
      sql.bool(fallback),
    ]);
  const built = rangeValue(
    element,
    decodeParam(element, field('lower'), env),
    decodeParam(element, field('upper'), env),
    flag('inc_lower', true),
    flag('inc_upper', false),
    flag('empty', false),
  );
  return nullIfNull(nonNull(json), built);
}

/**
 * A multirange from its JSON form, an array of range objects (`[]`: the empty multirange);
 * `decode` reads one range object. JSON null (or an absent parameter) is an empty set.
 */
export function decodeMultirange(
  element: TypeRef,
  json: SqlExpr,
  decode: (range: SqlExpr) => SqlExpr,
): SqlExpr {
  const items = sql.fromFunction(sql.func('jsonb_array_elements', [json]), 'e', {
    columns: [{ name: 'value', type: null }],
  });
  return nullIfNull(nonNull(json), multirangeOf(element, decode(sql.col('value', 'e')), [items]));
}

/**
 * `(select coalesce(range_agg(<range>), '{}'::<multirange>) from <from>)`: the multirange of the
 * ranges `range` yields over the rows of `from` (overlapping and adjacent ones merged, empty
 * ones dropped, as PostgreSQL's multirange constructor does).
 */
export function multirangeOf(element: TypeRef, range: SqlExpr, from: readonly FromItem[]): SqlExpr {
  const pg = pgTypeFor({ kind: 'multirange', element });
  return sql.scalar(
    sql.select({
      targets: [
        sql.target(
          sql.func('coalesce', [sql.agg('range_agg', [range]), sql.cast(sql.text('{}'), pg)]),
        ),
      ],
      from,
    }),
  );
}

/**
 * The SQL of `range(lower, upper, inc_lower := ..., inc_upper := ..., empty := ...)` over a range
 * element type: the bounds as the range's PostgreSQL element type (floats as numeric), the
 * inclusivity as PostgreSQL's `'[)'` text; NULL bounds are unbounded. PostgreSQL normalises
 * discrete ranges to `[lower, upper)` and an empty one to `empty`.
 */
export function rangeValue(
  element: TypeRef,
  lower: SqlExpr,
  upper: SqlExpr,
  incLower: SqlExpr,
  incUpper: SqlExpr,
  empty: SqlExpr | null,
): SqlExpr {
  const pg = pgTypeFor({ kind: 'range', element });
  const boundPg = pg.name === 'numrange' ? pgType('numeric') : pgTypeFor(element);
  const literal = (e: SqlExpr, yes: string, no: string): SqlExpr =>
    e.kind === 'Literal' && e.type === 'bool'
      ? sql.text(e.value === 'true' ? yes : no)
      : { kind: 'Case', whens: [{ when: e, then: sql.text(yes) }], else: sql.text(no) };
  const bounds = sql.bin('||', literal(incLower, '[', '('), literal(incUpper, ']', ')'));
  const low = sql.cast(lower, boundPg);
  const high = sql.cast(upper, boundPg);
  const built = sql.func(pg.name, [low, high, bounds]);
  if (empty === null) return built;
  // Gel: `empty := true` with bounds that describe a non-empty range is an error.
  const conflicting = sql.and(
    empty,
    sql.or(
      sql.bin('is distinct from', low, high),
      sql.and(sql.isNull(low, true), incLower, incUpper),
    ),
  );
  const message =
    'conflicting arguments in range constructor: "empty" is `true` while the specified bounds suggest otherwise';
  return {
    kind: 'Case',
    whens: [
      { when: conflicting, then: raise(empty, pg, sql.text(message), '22023') },
      { when: empty, then: sql.cast(sql.text('empty'), pg) },
    ],
    else: built,
  };
}

/** A bound of a range (`lower(r)` / `upper(r)`) as a value of the element type (NULL: unbounded). */
export function rangeBound(element: TypeRef, which: 'lower' | 'upper', range: SqlExpr): SqlExpr {
  const bound = sql.func(which, [range]);
  return pgTypeFor({ kind: 'range', element }).name === 'numrange'
    ? sql.cast(bound, pgTypeFor(element))
    : bound;
}

/**
 * The JSON form of a tuple, its elements rendered by `each` (`jsonOf`, or the planner's result
 * form where elements hold objects). A tuple value is a jsonb array of its elements
 * (storage/types): each element is read back with its decode form. A named tuple is an
 * object (`sql.jsonObject`, as shapes are), an unnamed one an array; `()` has no names: an empty
 * array, as Gel writes it.
 */
export function tupleJson(
  type: Extract<TypeRef, { kind: 'tuple' }>,
  value: SqlExpr,
  env: TypeEnv,
  each: (type: TypeRef, value: SqlExpr) => SqlExpr,
): SqlExpr {
  const parts = type.elements.map((e, i) =>
    each(e.type, storedValue(e.type, sql.bin('->', value, sql.num(i)), env)),
  );
  const named = type.elements.length > 0 && type.elements.every((e) => e.name !== null);
  const built = named
    ? sql.jsonObject(type.elements.map((e, i) => [e.name as string, parts[i] as SqlExpr]))
    : sql.jsonBuild('json_build_array', parts);
  return nullIfNull(value, built);
}

/** `case when probe is null then null else value end`: keeps an absent value absent. */
function nullIfNull(probe: SqlExpr, value: SqlExpr): SqlExpr {
  return { kind: 'Case', whens: [{ when: sql.isNull(probe), then: sql.null() }], else: value };
}

/** Element types whose JSON form is PostgreSQL's own `to_json` of the value. */
function plainJson(type: TypeRef, env: TypeEnv): boolean {
  if (type.kind === 'object') return true;
  if (type.kind === 'array') return plainJson(type.element, env);
  if (type.kind !== 'scalar') return false;
  const info = scalarInfo(type.name, env);
  return info !== null && info.json === toJson;
}

/**
 * The jsonb a value is kept as inside a tuple (tuples and arrays of tuples are jsonb arrays,
 * storage/types): a tuple or an array of tuples is already that jsonb; any other value is
 * its JSON result form, which `storedValue` reads back. Build tuples from these.
 */
export function storedJson(type: TypeRef, value: SqlExpr, env: TypeEnv): SqlExpr {
  if (type.kind === 'tuple' || (type.kind === 'array' && jsonbArrayOf(type.element))) return value;
  return sql.cast(jsonOf(type, value, env), pgType('jsonb'));
}

/**
 * The inverse of `storedJson`: a value kept inside a tuple or a jsonb array (its stored jsonb)
 * as a value of `type`. A tuple or an array of tuples is that jsonb already, by position, so it
 * is read as it is; anything else is decoded from its JSON form. (`decodeParam` also takes a
 * caller's JSON, where a named tuple may be an object, and normalises tuples: reading a stored
 * value through it would repeat the value in the SQL once more per level of nesting.)
 */
export function storedValue(type: TypeRef, item: SqlExpr, env: TypeEnv): SqlExpr {
  if (type.kind === 'tuple' || (type.kind === 'array' && jsonbArrayOf(type.element))) return item;
  return decodeParam(type, item, env);
}

/**
 * The JSON text of a value of `type`: `jsonOf(type, value)::text`, NULL for NULL, written
 * directly where the type's own text is (or quotes to) its JSON: numbers, bool, uuid, datetime.
 */
export function jsonTextOf(type: TypeRef, value: SqlExpr, env: TypeEnv): SqlExpr {
  const info = type.kind === 'scalar' ? scalarInfo(type.name, env) : null;
  if (info?.jsonText) return info.jsonText(value);
  return cast(jsonOf(type, value, env), 'text');
}

/** The `json` result form of a value of `type` (see the module invariants). */
export function jsonOf(type: TypeRef, value: SqlExpr, env: TypeEnv): SqlExpr {
  switch (type.kind) {
    case 'scalar': {
      const info = scalarInfo(type.name, env);
      if (!info) throw new Error(`std: unknown scalar type ${type.name}`);
      return info.json(value);
    }
    case 'object':
    case 'union':
      return toJson(value);
    case 'range': {
      // Gel's JSON form of a range: `{"empty": true}`, or the bounds (null: unbounded) and flags.
      const bounds = sql.func('json_build_object', [
        sql.text('lower'),
        jsonOf(type.element, rangeBound(type.element, 'lower', value), env),
        sql.text('upper'),
        jsonOf(type.element, rangeBound(type.element, 'upper', value), env),
        sql.text('inc_lower'),
        sql.func('lower_inc', [value]),
        sql.text('inc_upper'),
        sql.func('upper_inc', [value]),
      ]);
      return {
        kind: 'Case',
        whens: [
          { when: sql.isNull(value), then: sql.null() },
          {
            when: sql.func('isempty', [value]),
            then: sql.func('json_build_object', [sql.text('empty'), sql.bool(true)]),
          },
        ],
        else: bounds,
      };
    }
    case 'multirange': {
      // Gel's JSON form of a multirange: an array of its ranges' JSON forms, in order.
      const range: TypeRef = { kind: 'range', element: type.element };
      return nullIfNull(
        value,
        jsonArrayOfItems(sql.func('unnest', [value]), (v) => jsonOf(range, v, env)),
      );
    }
    case 'tuple':
      return tupleJson(type, value, env, (t, v) => jsonOf(t, v, env));
    case 'array': {
      if (jsonbArrayOf(type.element)) {
        // Each item is its element's stored JSON (storedJson), read back with storedValue.
        return nullIfNull(
          value,
          jsonArrayOfItems(sql.func('jsonb_array_elements', [value]), (v) =>
            jsonOf(type.element, storedValue(type.element, v, env), env),
          ),
        );
      }
      if (plainJson(type.element, env)) return toJson(value);
      return nullIfNull(
        value,
        jsonArrayOfItems(sql.func('unnest', [value]), (v) => jsonOf(type.element, v, env)),
      );
    }
  }
}

/**
 * `(select <each(e.value) aggregated in e.ord order, '[]' for none> from <unnesting> ...)`: a
 * JSON array of an array's elements in order, built by `sql.jsonArrayAgg` (`string_agg` of
 * their texts when `each` gives JSON text, else `json_agg`), `unnesting` being `unnest(a)` or
 * `jsonb_array_elements(j)` (sql.items).
 */
export function jsonArrayOfItems(unnesting: SqlExpr, each: (value: SqlExpr) => SqlExpr): SqlExpr {
  const agg = sql.jsonArrayAgg(each(sql.col('value', 'e')), {
    orderBy: [sql.order(sql.col('ord', 'e'))],
    orEmpty: true,
  });
  return sql.scalar(sql.select({ targets: [sql.target(agg)], from: [sql.items(unnesting, 'e')] }));
}
