/**
 * std/operators: every EdgeQL operator the std table resolves (the set operators `union`,
 * `except`, `intersect`, `distinct`, `exists`, `??` and `if/else` are the compiler's: they
 * work on sets, not values).
 *
 * Input: nothing. Output: `STD_OPERATORS`, overloads by operator name as written in EdgeQL
 * (`+`, `//`, `?=`, `like`, `not in`, `[]` for indexing, `[:]` for slicing; a prefix operator has
 * one parameter: `-`, `+`, `not`).
 * Semantics (Gel's, where PostgreSQL's differ):
 * - `/` of integers is float64; `//` floors; `%` takes the divisor's sign; `^` is power
 *   (int64 ^ int64 is float64, bigint ^ bigint decimal); overflow is an error;
 * - `<`, `>`, ... on str compare code points (`COLLATE "C"`); on enums the declaration order;
 * - `datetime - datetime` is a duration in hours (not folded into days); arithmetic with
 *   calendar units (relative_duration) on a datetime is done in UTC;
 * - indexing past either end of a str, bytes, array or JSON array, a missing JSON key or the wrong
 *   JSON kind raise InvalidValueError (22000); a key holding JSON null is empty;
 *   slices clamp their bounds;
 * - `in` receives its right side as an SQL array of the set (see `CallKind`).
 */
import { pgType, sql, type SqlExpr } from '../sql/ast';
import { def, infix, strict, table } from './define';
import type { Overload, SqlArgs, SqlForm } from './model';
import { isJsonbArray, itemValue, setItem } from './jsonb-arrays';
import { rangeOperators } from './multiranges';
import { inRange, pgTypeFor, raise, type BoundedTemporal } from './scalars';

const INTS = ['int16', 'int32', 'int64'] as const;
const FLOATS = ['float32', 'float64'] as const;
const EXACT = ['bigint', 'decimal'] as const;
const REALS = [...INTS, ...FLOATS, ...EXACT] as const;

const num = (n: number): SqlExpr => sql.num(n);
const cast = (e: SqlExpr, name: string): SqlExpr => sql.cast(e, pgType(name));
const paren = (e: SqlExpr): SqlExpr => ({ kind: 'Paren', expr: e });
const caseWhen = (whens: [SqlExpr, SqlExpr][], otherwise: SqlExpr | null): SqlExpr => ({
  kind: 'Case',
  whens: whens.map(([when, then]) => ({ when, then })),
  else: otherwise,
});
/** `svc_meta.raise(...)` (std/scalars): re-exported for the std tables and the compiler. */
export { raise } from './scalars';

// ---------------------------------------------------------------------------------------------
// Arithmetic

function arithmetic(): Overload[] {
  const out: Overload[] = [];
  for (const t of REALS) {
    out.push(def('std::+', `${t}, ${t}`, t, infix('+')));
    out.push(def('std::-', `${t}, ${t}`, t, infix('-')));
    out.push(def('std::*', `${t}, ${t}`, t, infix('*')));
    out.push(def('std::-', t, t, (a) => ({ kind: 'UnaryOp', op: '-', operand: a.at(0) })));
    out.push(def('std::+', t, t, (a) => a.at(0)));
  }
  // `/`: int64 divides as float64 (as Gel, only int64 among the integers: int16 reaches float32
  // first, so `<int16>1 / <int16>2` is a float32); the others keep their type (bigint → decimal).
  out.push(
    def('std::/', 'int64, int64', 'float64', (a) =>
      sql.bin('/', cast(a.at(0), 'double precision'), cast(a.at(1), 'double precision')),
    ),
  );
  for (const t of [...FLOATS, 'decimal'] as const)
    out.push(def('std::/', `${t}, ${t}`, t, infix('/')));
  out.push(
    def('std::/', 'bigint, bigint', 'decimal', (a) =>
      sql.bin('/', cast(a.at(0), 'numeric'), cast(a.at(1), 'numeric')),
    ),
  );
  // `//`: floor division.
  for (const t of INTS) {
    out.push(
      def('std:://', `${t}, ${t}`, t, (a) =>
        sql.cast(
          sql.func('floor', [sql.bin('/', cast(a.at(0), 'numeric'), cast(a.at(1), 'numeric'))]),
          pgTypeFor({ kind: 'scalar', name: `std::${t}` }),
        ),
      ),
    );
  }
  for (const t of [...FLOATS, ...EXACT] as const) {
    out.push(
      def('std:://', `${t}, ${t}`, t, (a) => sql.func('floor', [sql.bin('/', a.at(0), a.at(1))])),
    );
  }
  // `%`: the result has the divisor's sign. For fixed-width integers the divisor is added only
  // when the remainder's sign differs from it, so no intermediate sum can overflow.
  for (const t of INTS) {
    out.push(
      def('std::%', `${t}, ${t}`, t, (a) => {
        const rem = paren(sql.bin('%', a.at(0), a.at(1)));
        const signsDiffer = sql.bin('<>', sql.bin('<', rem, num(0)), sql.bin('<', a.at(1), num(0)));
        return caseWhen(
          [[sql.and(sql.bin('<>', rem, num(0)), signsDiffer), sql.bin('+', rem, a.at(1))]],
          rem,
        );
      }),
    );
  }
  for (const t of EXACT) {
    out.push(
      def('std::%', `${t}, ${t}`, t, (a) =>
        sql.bin('%', sql.bin('+', sql.bin('%', a.at(0), a.at(1)), a.at(1)), a.at(1)),
      ),
    );
  }
  for (const t of FLOATS) {
    out.push(
      def('std::%', `${t}, ${t}`, t, (a) =>
        sql.bin(
          '-',
          a.at(0),
          sql.bin('*', sql.func('floor', [sql.bin('/', a.at(0), a.at(1))]), a.at(1)),
        ),
      ),
    );
  }
  // `^`: power (int64 ^ int64 is float64, bigint ^ bigint decimal).
  const f8 = (e: SqlExpr) => cast(e, 'double precision');
  out.push(
    def('std::^', 'int64, int64', 'float64', (a) => sql.func('power', [f8(a.at(0)), f8(a.at(1))])),
  );
  out.push(
    def('std::^', 'float64, float64', 'float64', (a) => sql.func('power', [a.at(0), a.at(1)])),
  );
  out.push(
    def('std::^', 'float32, float32', 'float32', (a) =>
      cast(sql.func('power', [f8(a.at(0)), f8(a.at(1))]), 'real'),
    ),
  );
  out.push(
    def('std::^', 'decimal, decimal', 'decimal', (a) => sql.func('power', [a.at(0), a.at(1)])),
  );
  out.push(
    def('std::^', 'bigint, bigint', 'decimal', (a) =>
      sql.func('power', [cast(a.at(0), 'numeric'), cast(a.at(1), 'numeric')]),
    ),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dates, times and durations

/** `timestamptz ± interval` in UTC, so calendar units never depend on the session's TimeZone. */
const utc = (op: '+' | '-') => (a: SqlArgs) =>
  sql.func('timezone', [
    sql.text('UTC'),
    sql.bin(op, sql.func('timezone', [sql.text('UTC'), a.at(0)]), a.at(1)),
  ]);

/** A form whose date or time result is checked against Gel's range (scalars `inRange`). */
const checked =
  (type: BoundedTemporal, form: (a: SqlArgs) => SqlExpr) =>
  (a: SqlArgs): SqlExpr =>
    inRange(type, form(a));

function temporal(): Overload[] {
  // PostgreSQL's timestamptz difference has a days field; fold it into hours, exactly.
  const spanOf = (e: SqlExpr) =>
    sql.bin(
      '+',
      e,
      sql.bin(
        '*',
        sql.func('date_part', [sql.text('day'), e]),
        cast(sql.text('-1 day +24:00:00'), 'interval'),
      ),
    );
  const defs: Overload[] = [
    def('std::+', 'datetime, duration', 'datetime', checked('std::datetime', infix('+'))),
    def('std::+', 'duration, datetime', 'datetime', checked('std::datetime', infix('+'))),
    def('std::-', 'datetime, duration', 'datetime', checked('std::datetime', infix('-'))),
    def('std::-', 'datetime, datetime', 'duration', (a) =>
      spanOf(paren(sql.bin('-', a.at(0), a.at(1)))),
    ),
    def('std::+', 'duration, duration', 'duration', infix('+')),
    def('std::-', 'duration, duration', 'duration', infix('-')),
    def('std::-', 'duration', 'duration', (a) => ({ kind: 'UnaryOp', op: '-', operand: a.at(0) })),
    def(
      'std::+',
      'datetime, cal::relative_duration',
      'datetime',
      checked('std::datetime', utc('+')),
    ),
    def('std::+', 'cal::relative_duration, datetime', 'datetime', (a) =>
      inRange(
        'std::datetime',
        sql.func('timezone', [
          sql.text('UTC'),
          sql.bin('+', sql.func('timezone', [sql.text('UTC'), a.at(1)]), a.at(0)),
        ]),
      ),
    ),
    def(
      'std::-',
      'datetime, cal::relative_duration',
      'datetime',
      checked('std::datetime', utc('-')),
    ),
  ];
  // A local datetime, or a local date with a duration that may hold hours (a local datetime),
  // plus or minus a duration or relative duration.
  for (const left of ['cal::local_datetime', 'cal::local_date']) {
    for (const dur of ['cal::relative_duration', 'duration']) {
      const plus = checked('cal::local_datetime', infix('+'));
      defs.push(
        def('std::+', `${left}, ${dur}`, 'cal::local_datetime', plus),
        def('std::+', `${dur}, ${left}`, 'cal::local_datetime', plus),
        def(
          'std::-',
          `${left}, ${dur}`,
          'cal::local_datetime',
          checked('cal::local_datetime', infix('-')),
        ),
      );
    }
  }
  defs.push(
    def('std::-', 'cal::local_datetime, cal::local_datetime', 'cal::relative_duration', infix('-')),
    def('std::+', 'cal::local_date, cal::date_duration', 'cal::local_date', (a) =>
      inRange('cal::local_date', cast(sql.bin('+', a.at(0), a.at(1)), 'date')),
    ),
    def('std::+', 'cal::date_duration, cal::local_date', 'cal::local_date', (a) =>
      inRange('cal::local_date', cast(sql.bin('+', a.at(1), a.at(0)), 'date')),
    ),
    def('std::-', 'cal::local_date, cal::date_duration', 'cal::local_date', (a) =>
      inRange('cal::local_date', cast(sql.bin('-', a.at(0), a.at(1)), 'date')),
    ),
    // local_date - local_date is a date_duration (whole days).
    def('std::-', 'cal::local_date, cal::local_date', 'cal::date_duration', (a) =>
      sql.bin('*', paren(sql.bin('-', a.at(0), a.at(1))), cast(sql.text('1 day'), 'interval')),
    ),
    // A duration with a relative duration is a relative duration (Gel).
    def('std::+', 'duration, cal::relative_duration', 'cal::relative_duration', infix('+')),
    def('std::+', 'cal::relative_duration, duration', 'cal::relative_duration', infix('+')),
    def('std::-', 'duration, cal::relative_duration', 'cal::relative_duration', infix('-')),
    def('std::-', 'cal::relative_duration, duration', 'cal::relative_duration', infix('-')),
    def('std::+', 'cal::local_time, cal::relative_duration', 'cal::local_time', infix('+')),
    def('std::+', 'cal::relative_duration, cal::local_time', 'cal::local_time', infix('+')),
    def('std::-', 'cal::local_time, cal::relative_duration', 'cal::local_time', infix('-')),
    def('std::+', 'cal::local_time, duration', 'cal::local_time', infix('+')),
    def('std::+', 'duration, cal::local_time', 'cal::local_time', infix('+')),
    def('std::-', 'cal::local_time, duration', 'cal::local_time', infix('-')),
    def('std::-', 'cal::local_time, cal::local_time', 'cal::relative_duration', infix('-')),
    def(
      'std::+',
      'cal::relative_duration, cal::relative_duration',
      'cal::relative_duration',
      infix('+'),
    ),
    def(
      'std::-',
      'cal::relative_duration, cal::relative_duration',
      'cal::relative_duration',
      infix('-'),
    ),
    def('std::-', 'cal::relative_duration', 'cal::relative_duration', (a) => ({
      kind: 'UnaryOp',
      op: '-',
      operand: a.at(0),
    })),
    def('std::+', 'cal::date_duration, cal::date_duration', 'cal::date_duration', infix('+')),
    def('std::-', 'cal::date_duration, cal::date_duration', 'cal::date_duration', infix('-')),
    def('std::-', 'cal::date_duration', 'cal::date_duration', (a) => ({
      kind: 'UnaryOp',
      op: '-',
      operand: a.at(0),
    })),
  );
  return defs;
}

// ---------------------------------------------------------------------------------------------
// Comparison

const ORDERED = [
  ...REALS,
  'str',
  'bool',
  'uuid',
  'bytes',
  'json',
  'datetime',
  'duration',
  'cal::local_datetime',
  'cal::local_date',
  'cal::local_time',
  'cal::relative_duration',
  'cal::date_duration',
];

const SQL_COMPARE: Readonly<Record<string, string>> = {
  '=': '=',
  '!=': '<>',
  '<': '<',
  '>': '>',
  '<=': '<=',
  '>=': '>=',
};

/** Strings compare by code point, whatever the database collation. */
const collateC = (e: SqlExpr): SqlExpr => ({ kind: 'Collate', expr: e, collation: 'C' });

/** An enum value's position in its declaration order. */
function enumOrder(a: SqlArgs, i: number): SqlExpr {
  const t = a.type(i);
  const values = t?.kind === 'scalar' ? (a.env.enumValues(t.name) ?? []) : [];
  return sql.func('array_position', [
    { kind: 'ArrayExpr', elements: values.map((v) => sql.text(v)), type: null },
    cast(a.at(i), 'text'),
  ]);
}

function comparison(): Overload[] {
  const out: Overload[] = [];
  for (const [op, pgOp] of Object.entries(SQL_COMPARE)) {
    const ordering = op !== '=' && op !== '!=';
    for (const t of ORDERED) {
      const form =
        t === 'str' && ordering
          ? (a: SqlArgs) => sql.bin(pgOp, collateC(a.at(0)), a.at(1))
          : infix(pgOp);
      out.push(def(`std::${op}`, `${t}, ${t}`, 'bool', form));
    }
    out.push(
      def(
        `std::${op}`,
        'anyenum, anyenum',
        'bool',
        ordering ? (a) => sql.bin(pgOp, enumOrder(a, 0), enumOrder(a, 1)) : infix(pgOp),
      ),
    );
    out.push(def(`std::${op}`, 'array<anytype>, array<anytype>', 'bool', infix(pgOp)));
    out.push(def(`std::${op}`, 'anytuple, anytuple', 'bool', infix(pgOp)));
    // PostgreSQL orders ranges as Gel does: by lower bound (unbounded first), then upper.
    out.push(def(`std::${op}`, 'range<anypoint>, range<anypoint>', 'bool', infix(pgOp)));
  }
  for (const [op, pgOp] of [
    ['?=', 'is not distinct from'],
    ['?!=', 'is distinct from'],
  ] as const) {
    for (const t of [...ORDERED, 'anyenum', 'array<anytype>', 'anytuple', 'range<anypoint>']) {
      out.push(def(`std::${op}`, `optional ${t}, optional ${t}`, 'bool', infix(pgOp)));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Logic, strings, membership

/** `a and b` with EdgeQL's element-wise meaning: empty in, empty out (SQL's `false and null`
 * is false; EdgeQL's `false and {}` is `{}`). */
const logical =
  (op: 'and' | 'or') =>
  (a: SqlArgs): SqlExpr => {
    const plain = sql.bin(op, a.at(0), a.at(1));
    if (!a.nullable(0) && !a.nullable(1)) return plain;
    return caseWhen(
      [[sql.or(sql.isNull(a.at(0)), sql.isNull(a.at(1))), sql.cast(sql.null(), pgType('boolean'))]],
      plain,
    );
  };

/** The left side of `in` as an item of the right side's SQL array. */
function memberItem(a: SqlArgs): SqlExpr {
  const t = a.type(0);
  return t ? setItem(t, a.at(0), a.env) : a.at(0);
}

function logicAndText(): Overload[] {
  return [
    def('std::and', 'bool, bool', 'bool', logical('and')),
    def('std::or', 'bool, bool', 'bool', logical('or')),
    def('std::not', 'bool', 'bool', (a) => sql.not(a.at(0))),
    def('std::like', 'str, str', 'bool', infix('like')),
    def('std::not like', 'str, str', 'bool', infix('not like')),
    def('std::ilike', 'str, str', 'bool', infix('ilike')),
    def('std::not ilike', 'str, str', 'bool', infix('not ilike')),
    def('std::++', 'str, str', 'str', infix('||')),
    def('std::++', 'bytes, bytes', 'bytes', infix('||')),
    def('std::++', 'array<anytype>, array<anytype>', 'array<anytype>', strict([0, 1], infix('||'))),
    def('std::++', 'json, json', 'json', (a) =>
      sql.func('json_concat', [a.at(0), a.at(1)], 'svc_meta'),
    ),
    // The right side arrives as an SQL array of the whole set (CallKind 'element').
    // An array-typed element is compared as its stored JSON (std/jsonb-arrays `setItem`).
    def('std::in', 'anytype, set of anytype', 'bool', membership(false)),
    def('std::not in', 'anytype, set of anytype', 'bool', membership(true)),
  ];
}

/**
 * `x in set`: `x = any(array)`. An empty `x` is an empty result, but `NULL = any('{}')` is
 * false: unless the array is a literal with elements, the form says so itself.
 */
function membership(negate: boolean): SqlForm {
  const test: SqlForm = (a) => {
    const any: SqlExpr = { kind: 'AnyOp', left: memberItem(a), op: '=', array: a.at(1) };
    return negate ? sql.not(paren(any)) : any;
  };
  const guarded = strict([0], test);
  return (a) => {
    const right = a.at(1);
    return right.kind === 'ArrayExpr' && right.elements.length > 0 ? test(a) : guarded(a);
  };
}

// ---------------------------------------------------------------------------------------------
// Indexing and slicing (past either end, a missing key or the wrong JSON kind: InvalidValueError)

/** A 0-based EdgeQL index (negative from the end) as a 1-based SQL position, or an error. */
function position(index: SqlExpr, length: SqlExpr, onError: SqlExpr): SqlExpr {
  return caseWhen(
    [
      [
        sql.or(
          sql.bin('>=', index, length),
          sql.bin('<', index, paren({ kind: 'UnaryOp', op: '-', operand: length })),
        ),
        onError,
      ],
      [sql.bin('<', index, num(0)), sql.bin('+', sql.bin('+', length, index), num(1))],
    ],
    sql.bin('+', index, num(1)),
  );
}

const outOfBounds = (what: string, index: SqlExpr, length: SqlExpr): SqlExpr =>
  raise(
    length,
    pgType('bigint'),
    sql.bin(
      '||',
      sql.bin('||', sql.text(`${what} index `), cast(index, 'text')),
      sql.text(' is out of bounds'),
    ),
  );

/** Clamped slice bounds → [1-based start, length] over a value of `length` elements. */
function sliceBounds(a: SqlArgs, length: SqlExpr): { from: SqlExpr; count: SqlExpr } {
  const bound = (i: number, fallback: SqlExpr): SqlExpr => {
    const v = a.opt(i);
    if (v === null) return fallback;
    return caseWhen(
      [
        [sql.isNull(v), fallback],
        [sql.bin('<', v, num(0)), sql.func('greatest', [sql.bin('+', length, v), num(0)])],
      ],
      sql.func('least', [v, length]),
    );
  };
  const start = bound(1, num(0));
  const stop = bound(2, length);
  return {
    from: cast(sql.bin('+', start, num(1)), 'integer'),
    count: cast(sql.func('greatest', [sql.bin('-', stop, start), num(0)]), 'integer'),
  };
}

/** True when parameter `i` is an array stored as one jsonb array (std/jsonb-arrays). */
export const jsonbArray = isJsonbArray;

/** Elements `from` (1-based) for `count` of a jsonb array, as a jsonb array. */
function jsonbSlice(j: SqlExpr, from: SqlExpr, count: SqlExpr): SqlExpr {
  const items = sql.items(sql.func('jsonb_array_elements', [j]), 'e');
  return sql.scalar(
    sql.select({
      targets: [
        sql.target(
          sql.func('coalesce', [
            sql.agg('jsonb_agg', [sql.col('value', 'e')], {
              orderBy: [sql.order(sql.col('ord', 'e'))],
            }),
            cast(sql.text('[]'), 'jsonb'),
          ]),
        ),
      ],
      from: [items],
      where: sql.and(
        sql.bin('>=', sql.col('ord', 'e'), from),
        sql.bin('<', sql.col('ord', 'e'), sql.bin('+', from, count)),
      ),
    }),
  );
}

function indexing(): Overload[] {
  const len = (e: SqlExpr) => sql.func('char_length', [e]);
  const octets = (e: SqlExpr) => sql.func('octet_length', [e]);
  const cardinality = (e: SqlExpr) => sql.func('cardinality', [e]);
  const jsonLength = (e: SqlExpr) => sql.func('jsonb_array_length', [e]);
  return [
    def('std::[]', 'str, int64', 'str', (a) =>
      sql.func('substr', [
        a.at(0),
        cast(
          position(a.at(1), len(a.at(0)), outOfBounds('string', a.at(1), len(a.at(0)))),
          'integer',
        ),
        num(1),
      ]),
    ),
    def('std::[]', 'bytes, int64', 'bytes', (a) =>
      sql.func('substr', [
        a.at(0),
        cast(
          position(a.at(1), octets(a.at(0)), outOfBounds('byte string', a.at(1), octets(a.at(0)))),
          'integer',
        ),
        num(1),
      ]),
    ),
    def('std::[]', 'array<anytype>, int64', 'anytype', (a) => {
      if (jsonbArray(a, 0)) {
        const n = jsonLength(a.at(0));
        const at = position(a.at(1), n, outOfBounds('array', a.at(1), n));
        return itemValue(a, 0, sql.bin('->', a.at(0), cast(sql.bin('-', at, num(1)), 'integer')));
      }
      return {
        kind: 'Subscript',
        expr: paren(a.at(0)),
        index: position(
          a.at(1),
          cardinality(a.at(0)),
          outOfBounds('array', a.at(1), cardinality(a.at(0))),
        ),
      };
    }),
    // svc_meta.json_index / json_key (std/bootstrap): the index and key checks in one call.
    // An element or key holding JSON null reads as empty (spec item 7): the result is optional.
    // Inside a chain (`j['a'][0]`) the inner steps keep a JSON null, which the next step then
    // refuses to index (Gel: "cannot index JSON null").
    def('std::[]', 'json, int64', 'optional json', (a) =>
      sql.func('json_index', [jsonStep(a.at(0)), a.at(1)], 'svc_meta'),
    ),
    def('std::[]', 'json, str', 'optional json', (a) =>
      sql.func('json_key', [jsonStep(a.at(0)), a.at(1)], 'svc_meta'),
    ),
    def(
      'std::[:]',
      'str, named only start: optional int64 = {}, named only stop: optional int64 = {}',
      'str',
      // A bound that is given and empty makes the slice empty (only a bound left out is open).
      strict([1, 2], (a) => {
        const { from, count } = sliceBounds(a, len(a.at(0)));
        return sql.func('substr', [a.at(0), from, count]);
      }),
    ),
    def(
      'std::[:]',
      'bytes, named only start: optional int64 = {}, named only stop: optional int64 = {}',
      'bytes',
      // A bound that is given and empty makes the slice empty (only a bound left out is open).
      strict([1, 2], (a) => {
        const { from, count } = sliceBounds(a, octets(a.at(0)));
        return sql.func('substr', [a.at(0), from, count]);
      }),
    ),
    def(
      'std::[:]',
      'array<anytype>, named only start: optional int64 = {}, named only stop: optional int64 = {}',
      'array<anytype>',
      // A bound that is given and empty makes the slice empty (only a bound left out is open);
      // so does an empty array (the clamped bounds below would make it `[]`).
      strict([0, 1, 2], (a) => {
        if (jsonbArray(a, 0)) {
          const b = sliceBounds(a, jsonLength(a.at(0)));
          return jsonbSlice(a.at(0), b.from, b.count);
        }
        const { from, count } = sliceBounds(a, cardinality(a.at(0)));
        return caseWhen(
          [
            [
              sql.bin('=', count, num(0)),
              sql.cast(
                { kind: 'ArrayExpr', elements: [], type: null },
                pgTypeFor(
                  a.result ?? { kind: 'array', element: { kind: 'scalar', name: 'std::str' } },
                ),
              ),
            ],
          ],
          {
            kind: 'Slice',
            expr: paren(a.at(0)),
            lower: from,
            upper: sql.bin('-', sql.bin('+', from, count), num(1)),
          },
        );
      }),
    ),
    def(
      'std::[:]',
      'json, named only start: optional int64 = {}, named only stop: optional int64 = {}',
      'json',
      // svc_meta.json_slice (schema/bootstrap): one immutable function, so an index or a
      // CHECK can slice JSON too; another kind of JSON value raises 22023.
      strict([1, 2], (a) =>
        sql.func(
          'json_slice',
          [a.at(0), a.opt(1) ?? cast(sql.null(), 'bigint'), a.opt(2) ?? cast(sql.null(), 'bigint')],
          'svc_meta',
        ),
      ),
    ),
  ];
}

/** An accessor's operand that is itself an accessor: its `_step` form, which keeps JSON null. */
function jsonStep(operand: SqlExpr): SqlExpr {
  if (
    operand.kind === 'FuncCall' &&
    operand.schema === 'svc_meta' &&
    (operand.name === 'json_index' || operand.name === 'json_key')
  ) {
    return { ...operand, name: `${operand.name}_step` };
  }
  return operand;
}

export const STD_OPERATORS: ReadonlyMap<string, readonly Overload[]> = new Map(
  [
    ...table([
      ...arithmetic(),
      ...temporal(),
      ...comparison(),
      ...logicAndText(),
      ...indexing(),
      ...rangeOperators(),
    ]),
  ].map(([name, overloads]) => [name.slice('std::'.length), overloads]),
);
