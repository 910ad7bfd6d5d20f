/**
 * std/functions: the std, math, cal, enc and sys functions, one overload per row (std/define
 * notation, signatures in Gel's spelling).
 *
 * Input: nothing. Output: `STD_FUNCTIONS`, overloads by qualified name (`std::len`, `math::abs`).
 * Invariants:
 * - aggregates (`kind: 'aggregate'`) give one row for an empty set too: `count`/`sum` 0, `all`
 *   true, `any` false, `array_agg` `[]`, `min`/`max`/`avg` empty;
 * - dates are computed and formatted in UTC; a format-string parse that could fall back on the
 *   session's TimeZone (`to_datetime(s, fmt)` without a zone in `fmt`) raises instead;
 * - `assert_exists`, `assert_distinct`, `enumerate`'s numbering order, `sequence_next/reset` and the
 *   object-level functions are the compiler's: they need the shape of the query around them.
 */
import { pgType, sql, type FromItem, type SqlExpr } from '../sql/ast';
import { call, def, strict, table } from './define';
import type { Card, Overload, SqlArgs } from './model';
import {
  itemValue,
  jsonbContains,
  jsonbFill,
  jsonbFind,
  jsonbGet,
  jsonbReplace,
  jsonbSplice,
  setArrayType,
  setItemValue,
} from './jsonb-arrays';
import { multirangeFunctions } from './multiranges';
import { jsonbArray, raise } from './operators';
import {
  base64,
  inRange,
  pgTypeFor,
  rangeBound,
  rangeValue,
  STD_SCALARS_INFO,
  storedJson,
} from './scalars';
import type { TypeRef } from '../model/schema';
import { jsonbArrayOf } from '../storage/types';
import { SERVER_VERSION, versionString, versionTupleJson } from './version';

const cast = (e: SqlExpr, name: string): SqlExpr => sql.cast(e, pgType(name));
const int8 = (e: SqlExpr): SqlExpr => cast(e, 'bigint');
const int4 = (e: SqlExpr): SqlExpr => cast(e, 'integer');
const f8 = (e: SqlExpr): SqlExpr => cast(e, 'double precision');
const num = (n: number): SqlExpr => sql.num(n);
const fn = (name: string, ...args: SqlExpr[]): SqlExpr => sql.func(name, args);
const meta = (name: string, ...args: SqlExpr[]): SqlExpr => sql.func(name, args, 'svc_meta');
const paren = (e: SqlExpr): SqlExpr => ({ kind: 'Paren', expr: e });
const caseWhen = (whens: [SqlExpr, SqlExpr][], otherwise: SqlExpr | null): SqlExpr => ({
  kind: 'Case',
  whens: whens.map(([when, then]) => ({ when, then })),
  else: otherwise,
});
/** Parameter `i`, or `fallback` when it was left out. */
const or = (a: SqlArgs, i: number, fallback: SqlExpr): SqlExpr => a.opt(i) ?? fallback;

const INTS = ['int16', 'int32', 'int64'] as const;
const REALS = ['int16', 'int32', 'int64', 'float32', 'float64', 'bigint', 'decimal'] as const;
const AGG = { kind: 'aggregate' } as const;
const SRF = { kind: 'set-returning' } as const;

// ---------------------------------------------------------------------------------------------
// Sets (aggregates)

/** Types PostgreSQL's own min/max order as EdgeQL does (strings need `COLLATE "C"`). */
const NATIVE_MINMAX = new Set([
  ...REALS.map((t) => `std::${t}`),
  'std::str',
  'std::datetime',
  'std::duration',
  'cal::local_datetime',
  'cal::local_date',
  'cal::local_time',
  'cal::relative_duration',
  'cal::date_duration',
]);

function minMax(which: 'min' | 'max') {
  return (a: SqlArgs): SqlExpr => {
    const x = a.at(0);
    const t = a.type(0);
    const name = t?.kind === 'scalar' ? t.name : null;
    const enumValues = name ? a.env.enumValues(name) : null;
    const base = name ? (a.env.stdBase(name) ?? name) : null;
    if (base === 'std::str' && !enumValues)
      return fn(which, { kind: 'Collate', expr: x, collation: 'C' });
    if (base && NATIVE_MINMAX.has(base) && !enumValues) return fn(which, x);
    if (base === 'std::bool') return fn(which === 'min' ? 'bool_and' : 'bool_or', x);
    // Arrays compare element by element in PostgreSQL too (array_agg of arrays would nest them).
    if (t?.kind === 'array' && !jsonbArrayOf(t.element)) return fn(which, x);
    // Any other type: the first element in EdgeQL's order.
    const key: SqlExpr = enumValues
      ? fn(
          'array_position',
          {
            kind: 'ArrayExpr',
            elements: enumValues.map((v) => sql.text(v)),
            type: pgType('text', 1),
          },
          cast(x, 'text'),
        )
      : x;
    // Tuples and arrays of them or of arrays are jsonb: the first of a jsonb_agg.
    const asJsonb = t?.kind === 'tuple' || t?.kind === 'array';
    const agg = sql.agg(asJsonb ? 'jsonb_agg' : 'array_agg', [x], {
      orderBy: [sql.order(key, which === 'min' ? 'asc' : 'desc')],
    });
    return asJsonb
      ? sql.bin('->', agg, num(0))
      : { kind: 'Subscript', expr: paren(agg), index: num(1) };
  };
}

function sets(): Overload[] {
  const out: Overload[] = [
    def('std::count', 'set of anytype', 'int64', (a) => fn('count', a.at(0)), AGG),
    def('std::min', 'set of anytype', 'optional anytype', minMax('min'), AGG),
    def('std::max', 'set of anytype', 'optional anytype', minMax('max'), AGG),
    def(
      'std::all',
      'set of bool',
      'bool',
      (a) => fn('coalesce', fn('bool_and', a.at(0)), sql.bool(true)),
      AGG,
    ),
    def(
      'std::any',
      'set of bool',
      'bool',
      (a) => fn('coalesce', fn('bool_or', a.at(0)), sql.bool(false)),
      AGG,
    ),
    def(
      'std::array_agg',
      'set of anytype',
      'array<anytype>',
      (a) => {
        const t = a.type(0);
        // Tuples and arrays: one jsonb array of their stored JSON (std/jsonb-arrays).
        if (t && jsonbArrayOf(t))
          return fn(
            'coalesce',
            fn('jsonb_agg', storedJson(t, a.at(0), a.env)),
            cast(sql.text('[]'), 'jsonb'),
          );
        const arrayType = pgTypeFor({
          kind: 'array',
          element: t ?? { kind: 'scalar', name: 'std::str' },
        });
        return fn('coalesce', fn('array_agg', a.at(0)), sql.cast(sql.text('{}'), arrayType));
      },
      AGG,
    ),
    // `assert_single` as an aggregate: the set's one element, or empty, or the error (21000).
    def(
      'std::assert_single',
      'set of anytype, named only message: optional str = {}',
      'optional anytype',
      (a) => {
        const first =
          a.type(0)?.kind === 'tuple'
            ? sql.bin('->', fn('jsonb_agg', a.at(0)), num(0))
            : ({
                kind: 'Subscript',
                expr: paren(fn('array_agg', a.at(0))),
                index: num(1),
              } as SqlExpr);
        return caseWhen(
          [
            [
              sql.bin('>', fn('count', a.at(0)), num(1)),
              raise(
                first,
                pgTypeFor(a.result ?? { kind: 'scalar', name: 'std::str' }),
                fn(
                  'coalesce',
                  or(a, 1, sql.null()),
                  sql.text(
                    'assert_single violation: more than one element returned by an expression',
                  ),
                ),
                '21000',
              ),
            ],
          ],
          first,
        );
      },
      {
        ...AGG,
        card: (args: readonly Card[]) => ({
          min: args[0]?.min ?? 0,
          max: args[0]?.max === 0 ? 0 : 1,
        }),
      },
    ),
  ];
  // sum: integers add up as int64 (bigint stays), floats keep their width; empty is 0.
  for (const t of INTS) {
    out.push(
      def(
        'std::sum',
        `set of ${t}`,
        'int64',
        (a) => int8(fn('coalesce', fn('sum', a.at(0)), num(0))),
        AGG,
      ),
    );
  }
  out.push(
    def(
      'std::sum',
      'set of float32',
      'float32',
      (a) => fn('coalesce', fn('sum', a.at(0)), cast(num(0), 'real')),
      AGG,
    ),
  );
  out.push(
    def(
      'std::sum',
      'set of float64',
      'float64',
      (a) => fn('coalesce', fn('sum', a.at(0)), f8(num(0))),
      AGG,
    ),
  );
  out.push(
    def(
      'std::sum',
      'set of bigint',
      'bigint',
      (a) => fn('coalesce', fn('sum', a.at(0)), num(0)),
      AGG,
    ),
  );
  out.push(
    def(
      'std::sum',
      'set of decimal',
      'decimal',
      (a) => fn('coalesce', fn('sum', a.at(0)), num(0)),
      AGG,
    ),
  );
  for (const t of ['duration', 'cal::relative_duration', 'cal::date_duration'] as const) {
    out.push(
      def(
        'std::sum',
        `set of ${t}`,
        t,
        (a) => fn('coalesce', fn('sum', a.at(0)), cast(sql.text('0'), 'interval')),
        AGG,
      ),
    );
  }
  for (const t of ['int64', 'float64'] as const) {
    out.push(
      def('std::avg', `set of ${t}`, 'optional float64', (a) => f8(fn('avg', a.at(0))), AGG),
    );
  }
  out.push(def('std::avg', 'set of decimal', 'optional decimal', (a) => fn('avg', a.at(0)), AGG));
  // Gel's statistics: integers give float64, decimal stays decimal; a set too small for the
  // statistic (empty; one element for the sample ones) is an InvalidValueError, never empty.
  for (const [name, pg] of [
    ['mean', 'avg'],
    ['stddev', 'stddev_samp'],
    ['stddev_pop', 'stddev_pop'],
    ['var', 'var_samp'],
    ['var_pop', 'var_pop'],
  ] as const) {
    for (const [t, result, pgResult] of [
      ['int64', 'float64', 'double precision'],
      ['float64', 'float64', 'double precision'],
      ['decimal', 'decimal', 'numeric'],
    ] as const) {
      out.push(
        def(
          `math::${name}`,
          `set of ${t}`,
          result,
          (a) => statistic(fn(pg, a.at(0)), pgResult, name),
          AGG,
        ),
      );
    }
  }
  return out;
}

/** `value`, or InvalidValueError when the statistic is undefined for the set (SQL NULL). */
function statistic(aggregate: SqlExpr, pg: string, name: string): SqlExpr {
  const value = cast(aggregate, pg);
  return fn(
    'coalesce',
    value,
    raise(
      value,
      pgType(pg),
      sql.text(`invalid input to ${name}(): not enough elements in input set`),
      '22023',
    ),
  );
}
/** The rows of a set-of argument's SQL array unnested again (std/jsonb-arrays `setItem`). */
const setRows: Overload['rows'] = (row, a) => setItemValue(a.type(0), row, a.env);

/**
 * Functions over a whole set that give a set back: the set arrives as an SQL array (in order) and
 * the form unnests it again (`CallKind` 'set-returning').
 */
function wholeSets(): Overload[] {
  const items = (array: SqlExpr) => sql.items(fn('unnest', array), 'e');
  const sameCard = (args: readonly Card[]): Card => args[0] ?? { min: 0, max: 'many' };
  const message = (a: SqlArgs, fallback: string) =>
    fn('coalesce', or(a, 1, sql.null()), sql.text(fallback));
  return [
    // Tuples are jsonb arrays: (index, value) is `[index, value's stored JSON]`.
    def(
      'std::enumerate',
      'set of anytype',
      'set of tuple<int64, anytype>',
      (a) => {
        const element = a.type(0) ?? { kind: 'scalar' as const, name: 'std::str' };
        const pairs = sql.scalar(
          sql.select({
            targets: [
              sql.target(
                sql.agg(
                  'jsonb_agg',
                  [
                    fn(
                      'jsonb_build_array',
                      sql.bin('-', sql.col('ord', 'e'), num(1)),
                      storedJson(
                        element,
                        setItemValue(element, sql.col('value', 'e'), a.env),
                        a.env,
                      ),
                    ),
                  ],
                  { orderBy: [sql.order(sql.col('ord', 'e'))] },
                ),
              ),
            ],
            from: [items(a.at(0))],
          }),
        );
        return fn('jsonb_array_elements', fn('coalesce', pairs, cast(sql.text('[]'), 'jsonb')));
      },
      { ...SRF, card: sameCard },
    ),
    def(
      'std::assert_exists',
      'set of anytype, named only message: optional str = {}',
      'set of anytype',
      (a) =>
        fn(
          'unnest',
          caseWhen(
            [
              [
                sql.bin('=', fn('cardinality', a.at(0)), num(0)),
                raise(
                  a.at(0),
                  setArrayType(a.type(0)),
                  message(a, 'assert_exists violation: expression returned an empty set'),
                  '21000',
                ),
              ],
            ],
            a.at(0),
          ),
        ),
      {
        ...SRF,
        card: (args) => ({ min: 1, max: args[0]?.max === 0 ? 1 : (args[0]?.max ?? 'many') }),
        rows: setRows,
      },
    ),
    def(
      'std::assert_distinct',
      'set of anytype, named only message: optional str = {}',
      'set of anytype',
      (a) => {
        const distinct = sql.scalar(
          sql.select({
            targets: [sql.target(sql.agg('count', [sql.col('value', 'e')], { distinct: true }))],
            from: [items(a.at(0))],
          }),
        );
        return fn(
          'unnest',
          caseWhen(
            [
              [
                sql.bin('<>', fn('cardinality', a.at(0)), distinct),
                raise(
                  a.at(0),
                  setArrayType(a.type(0)),
                  message(
                    a,
                    'assert_distinct violation: expression returned a set with duplicate elements',
                  ),
                  // Gel's ConstraintViolationError (23514, no constraint named).
                  '23514',
                ),
              ],
            ],
            a.at(0),
          ),
        );
      },
      { ...SRF, card: sameCard, rows: setRows },
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Generic: len, contains, find, assert

function generic(): Overload[] {
  // pg_catalog.position(haystack, needle) is `position(needle in haystack)` (bytea has no strpos).
  const found = (h: SqlExpr, n: SqlExpr) => sql.func('position', [h, n], 'pg_catalog');
  return [
    // PostgreSQL's lengths are int4; they widen to int8 wherever they meet one.
    def('std::len', 'str', 'int64', (a) => fn('char_length', a.at(0))),
    def('std::len', 'bytes', 'int64', (a) => fn('octet_length', a.at(0))),
    def('std::len', 'array<anytype>', 'int64', (a) =>
      jsonbArray(a, 0) ? fn('jsonb_array_length', a.at(0)) : fn('cardinality', a.at(0)),
    ),
    def('std::contains', 'str, str', 'bool', (a) =>
      sql.bin('>', fn('strpos', a.at(0), a.at(1)), num(0)),
    ),
    def('std::contains', 'bytes, bytes', 'bool', (a) =>
      sql.bin('>', found(a.at(0), a.at(1)), num(0)),
    ),
    def(
      'std::contains',
      'array<anytype>, anytype',
      'bool',
      strict([1], (a) =>
        jsonbArray(a, 0)
          ? jsonbContains(a)
          : sql.bin('@>', a.at(0), { kind: 'ArrayExpr', elements: [a.at(1)], type: null }),
      ),
    ),
    def('std::contains', 'json, json', 'bool', (a) => sql.bin('@>', a.at(0), a.at(1))),
    def('std::find', 'str, str', 'int64', (a) =>
      sql.bin('-', fn('strpos', a.at(0), a.at(1)), num(1)),
    ),
    def('std::find', 'bytes, bytes', 'int64', (a) =>
      int8(sql.bin('-', found(a.at(0), a.at(1)), num(1))),
    ),
    def(
      'std::find',
      'array<anytype>, anytype, from_pos: int64 = 0',
      'int64',
      strict([0, 1, 2], (a) =>
        jsonbArray(a, 0)
          ? jsonbFind(a, or(a, 2, num(0)))
          : int8(
              fn(
                'coalesce',
                sql.bin(
                  '-',
                  fn(
                    'array_position',
                    a.at(0),
                    a.at(1),
                    int4(sql.bin('+', or(a, 2, num(0)), num(1))),
                  ),
                  num(1),
                ),
                num(-1),
              ),
            ),
      ),
    ),
    def('std::assert', 'bool, named only message: optional str = {}', 'bool', (a) =>
      caseWhen(
        [
          [sql.isNull(a.at(0)), sql.cast(sql.null(), pgType('boolean'))],
          [a.at(0), sql.bool(true)],
        ],
        raise(
          a.at(0),
          pgType('boolean'),
          fn('coalesce', or(a, 1, sql.null()), sql.text('assertion failed')),
          'P0004',
        ),
      ),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Strings and regular expressions

function strings(): Overload[] {
  return [
    def('std::str_lower', 'str', 'str', (a) => fn('lower', a.at(0))),
    def('std::str_upper', 'str', 'str', (a) => fn('upper', a.at(0))),
    def('std::str_title', 'str', 'str', (a) => fn('initcap', a.at(0))),
    def('std::str_reverse', 'str', 'str', (a) => fn('reverse', a.at(0))),
    def('std::str_repeat', 'str, n: int64', 'str', (a) => fn('repeat', a.at(0), int4(a.at(1)))),
    def('std::str_replace', 'str, old: str, new: str', 'str', (a) =>
      fn('replace', a.at(0), a.at(1), a.at(2)),
    ),
    // The defaults (' ') are PostgreSQL's own: a left-out argument is left out.
    def('std::str_trim', 'str, tr: str = " "', 'str', call('btrim')),
    def('std::str_trim_start', 'str, tr: str = " "', 'str', call('ltrim')),
    def('std::str_trim_end', 'str, tr: str = " "', 'str', call('rtrim')),
    def('std::str_pad_start', 'str, n: int64, fill: str = " "', 'str', (a) =>
      sql.func('lpad', [a.at(0), int4(a.at(1)), ...(a.opt(2) ? [a.at(2)] : [])]),
    ),
    def('std::str_pad_end', 'str, n: int64, fill: str = " "', 'str', (a) =>
      sql.func('rpad', [a.at(0), int4(a.at(1)), ...(a.opt(2) ? [a.at(2)] : [])]),
    ),
    // Gel's deprecated spellings of the four above, kept as Gel keeps them.
    def('std::str_ltrim', 'str, tr: str = " "', 'str', call('ltrim')),
    def('std::str_rtrim', 'str, tr: str = " "', 'str', call('rtrim')),
    def('std::str_lpad', 'str, n: int64, fill: str = " "', 'str', (a) =>
      sql.func('lpad', [a.at(0), int4(a.at(1)), ...(a.opt(2) ? [a.at(2)] : [])]),
    ),
    def('std::str_rpad', 'str, n: int64, fill: str = " "', 'str', (a) =>
      sql.func('rpad', [a.at(0), int4(a.at(1)), ...(a.opt(2) ? [a.at(2)] : [])]),
    ),
    // An empty delimiter splits into characters (PostgreSQL's null delimiter).
    def('std::str_split', 's: str, delimiter: str', 'array<str>', (a) =>
      fn('string_to_array', a.at(0), fn('nullif', a.at(1), sql.text(''))),
    ),
    def('std::array_join', 'array: array<str>, delimiter: str', 'str', (a) =>
      fn('array_to_string', a.at(0), a.at(1)),
    ),
    // bytea has no array_to_string: the elements joined in order, `b''` for an empty array.
    def(
      'std::array_join',
      'array: array<bytes>, delimiter: bytes',
      'bytes',
      strict([0, 1], (a) => {
        const items = sql.items(fn('unnest', a.at(0)), 'e');
        const joined = sql.agg('string_agg', [sql.col('value', 'e'), a.at(1)], {
          orderBy: [sql.order(sql.col('ord', 'e'))],
        });
        return fn(
          'coalesce',
          sql.scalar(sql.select({ targets: [sql.target(joined)], from: [items] })),
          sql.cast(sql.text(''), pgType('bytea')),
        );
      }),
    ),
    def('std::re_test', 'pattern: str, str: str', 'bool', (a) => sql.bin('~', a.at(1), a.at(0))),
    // A group that took part in no match is '' (as Gel), not NULL.
    def('std::re_match', 'pattern: str, str: str', 'optional array<str>', (a) =>
      fn(
        'array_replace',
        fn('regexp_match', a.at(1), a.at(0)),
        cast(sql.null(), 'text'),
        sql.text(''),
      ),
    ),
    def(
      'std::re_match_all',
      'pattern: str, str: str',
      'set of array<str>',
      (a) => meta('re_match_all', a.at(1), a.at(0)),
      SRF,
    ),
    def(
      'std::re_replace',
      'pattern: str, sub: str, str: str, named only flags: str = ""',
      'str',
      (a) => fn('regexp_replace', a.at(2), a.at(0), a.at(1), or(a, 3, sql.text(''))),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Conversions

/**
 * `to_int64('12')`: the text cast; with a format, `to_number(s, fmt)` as the type. A format
 * PostgreSQL reads as nothing is an InvalidValueError (22023), as in Gel (an empty one is refused
 * for every function by `nonEmptyFmt`).
 */
const fromTextWithFormat = (name: string, target: string) =>
  strict([0], (a: SqlArgs) => {
    const info = STD_SCALARS_INFO[target as keyof typeof STD_SCALARS_INFO];
    const fmt = a.opt(1);
    if (fmt === null) return info.fromText(a.at(0));
    const value = sql.cast(fn('to_number', a.at(0), fmt), info.pg);
    const checked = fn(
      'coalesce',
      value,
      raise(
        value,
        info.pg,
        sql.bin(
          '||',
          sql.text(`${name}(): format '`),
          sql.bin('||', fmt, sql.text(`' is invalid`)),
        ),
        '22023',
      ),
    );
    // An optional format given as an empty set is no format.
    return a.nullable(1) ? caseWhen([[sql.isNull(fmt), info.fromText(a.at(0))]], checked) : checked;
  });

/**
 * A function of a value and an optional format (parameter 1): `plain` without a format, else
 * `withFormat(fmt)`; an empty optional format at run time is no format (an empty string is
 * refused for every function by `nonEmptyFmt`).
 */
function formatted(a: SqlArgs, plain: SqlExpr, withFormat: (fmt: SqlExpr) => SqlExpr): SqlExpr {
  const fmt = a.opt(1);
  if (fmt === null) return plain;
  // An empty optional format (`{}` at run time) is no format.
  return a.nullable(1) ? caseWhen([[sql.isNull(fmt), plain]], withFormat(fmt)) : withFormat(fmt);
}

function conversions(): Overload[] {
  const info = STD_SCALARS_INFO;
  const out: Overload[] = [
    def('std::to_json', 'str', 'json', (a) => cast(a.at(0), 'jsonb')),
    def('std::to_bytes', 'str', 'bytes', (a) => fn('convert_to', a.at(0), sql.text('UTF8'))),
    // A json value's text (to_str), as UTF-8.
    def('std::to_bytes', 'json', 'bytes', (a) =>
      fn('convert_to', cast(a.at(0), 'text'), sql.text('UTF8')),
    ),
    // A UUID's 16 bytes, and back (exactly 16 bytes, else InvalidValueError).
    def('std::to_bytes', 'uuid', 'bytes', (a) =>
      fn(
        'decode',
        fn('replace', cast(a.at(0), 'text'), sql.text('-'), sql.text('')),
        sql.text('hex'),
      ),
    ),
    def('std::to_uuid', 'bytes', 'uuid', (a) =>
      caseWhen(
        [
          [
            sql.bin('<>', fn('octet_length', a.at(0)), num(16)),
            raise(
              a.at(0),
              pgType('uuid'),
              sql.text('to_uuid(): the argument must be exactly 16 bytes long'),
            ),
          ],
        ],
        cast(fn('encode', a.at(0), sql.text('hex')), 'uuid'),
      ),
    ),
    def('std::to_str', 'bytes', 'str', (a) => fn('convert_from', a.at(0), sql.text('UTF8'))),
    def('std::to_str', 'str', 'str', (a) => a.at(0)),
    // The one JSON format is 'pretty'; any other raises InvalidValueError (22023), as Gel's.
    def('std::to_str', 'json, fmt: optional str = {}', 'str', (a) => {
      const fmt = a.opt(1);
      if (fmt === null) return cast(a.at(0), 'text');
      return caseWhen(
        [[sql.bin('=', fmt, sql.text('pretty')), fn('jsonb_pretty', a.at(0))]],
        raise(
          fmt,
          pgType('text'),
          sql.bin(
            '||',
            sql.bin('||', sql.text("to_str(): format '"), fmt),
            sql.text("' is invalid for JSON"),
          ),
          '22023',
        ),
      );
    }),
    def('std::to_str', 'array<str>, delimiter: str', 'str', (a) =>
      fn('array_to_string', a.at(0), a.at(1)),
    ),
    def('std::to_str', 'datetime, fmt: optional str = {}', 'str', (a) =>
      formatted(a, info['std::datetime'].toText(a.at(0)), (fmt) =>
        fn('to_char', fn('timezone', sql.text('UTC'), a.at(0)), fmt),
      ),
    ),
    def('std::to_str', 'cal::local_datetime, fmt: optional str = {}', 'str', (a) =>
      formatted(a, info['cal::local_datetime'].toText(a.at(0)), (fmt) =>
        fn('to_char', a.at(0), fmt),
      ),
    ),
    def('std::to_str', 'cal::local_date, fmt: optional str = {}', 'str', (a) =>
      formatted(a, info['cal::local_date'].toText(a.at(0)), (fmt) => fn('to_char', a.at(0), fmt)),
    ),
    def('std::to_str', 'cal::local_time, fmt: optional str = {}', 'str', (a) =>
      formatted(a, info['cal::local_time'].toText(a.at(0)), (fmt) =>
        fn('to_char', sql.bin('+', cast(sql.text('2000-01-01'), 'date'), a.at(0)), fmt),
      ),
    ),
    // Without a format a duration is its ISO 8601 text (item 27); with one, PostgreSQL's
    // to_char of the interval's fields (`'YYYY"y"HH24"h"'`), as Gel.
    ...(['duration', 'cal::relative_duration', 'cal::date_duration'] as const).map((t) =>
      def('std::to_str', `${t}, fmt: optional str = {}`, 'str', (a) =>
        formatted(a, info[t === 'duration' ? 'std::duration' : t].toText(a.at(0)), (fmt) =>
          fn('to_char', a.at(0), fmt),
        ),
      ),
    ),
  ];
  for (const t of ['int64', 'float64', 'bigint', 'decimal'] as const) {
    out.push(
      def('std::to_str', `${t}, fmt: optional str = {}`, 'str', (a) =>
        formatted(a, info[`std::${t}`].toText(a.at(0)), (fmt) => fn('to_char', a.at(0), fmt)),
      ),
    );
  }
  for (const [name, target] of [
    ['to_int16', 'std::int16'],
    ['to_int32', 'std::int32'],
    ['to_int64', 'std::int64'],
    ['to_float32', 'std::float32'],
    ['to_float64', 'std::float64'],
    ['to_decimal', 'std::decimal'],
    ['to_bigint', 'std::bigint'],
  ] as const) {
    out.push(
      def(
        `std::${name}`,
        's: str, fmt: optional str = {}',
        target.slice(5),
        fromTextWithFormat(name, target),
      ),
    );
  }
  // Dates and times: every value computed here is checked against Gel's range (`inRange`).
  const utc = (e: SqlExpr) => fn('timezone', sql.text('UTC'), e);
  /** `to_timestamp(s, fmt)` with Gel's time zone rule (std/bootstrap `to_timestamp_checked`). */
  const parsed = (a: SqlArgs, fmt: SqlExpr, zoned: boolean) =>
    meta('to_timestamp_checked', a.at(0), fmt, sql.bool(zoned));
  const localParsed = (a: SqlArgs, fmt: SqlExpr) => utc(parsed(a, fmt, false));
  out.push(
    def(
      'std::to_datetime',
      's: str, fmt: optional str = {}',
      'datetime',
      (a) =>
        formatted(a, info['std::datetime'].fromText(a.at(0)), (fmt) =>
          inRange('std::datetime', parsed(a, fmt, true)),
        ),
      { volatility: 'Volatile' },
    ),
    def('std::to_datetime', 'local: cal::local_datetime, zone: str', 'datetime', (a) =>
      inRange('std::datetime', fn('timezone', a.at(1), a.at(0))),
    ),
    def(
      'std::to_datetime',
      'year: int64, month: int64, day: int64, hour: int64, min: int64, sec: float64, timezone: str',
      'datetime',
      (a) =>
        inRange(
          'std::datetime',
          fn(
            'make_timestamptz',
            int4(a.at(0)),
            int4(a.at(1)),
            int4(a.at(2)),
            int4(a.at(3)),
            int4(a.at(4)),
            a.at(5),
            a.at(6),
          ),
        ),
    ),
    ...(['float64', 'int64', 'decimal'] as const).map((t) =>
      def('std::to_datetime', `epochseconds: ${t}`, 'datetime', (a) =>
        inRange('std::datetime', fn('to_timestamp', t === 'float64' ? a.at(0) : f8(a.at(0)))),
      ),
    ),
    def(
      'std::to_duration',
      'named only hours: int64 = 0, named only minutes: int64 = 0, named only seconds: float64 = 0, named only microseconds: int64 = 0',
      'duration',
      (a) =>
        fn(
          'make_interval',
          num(0),
          num(0),
          num(0),
          num(0),
          int4(or(a, 0, num(0))),
          int4(or(a, 1, num(0))),
          sql.bin('+', f8(or(a, 2, num(0))), sql.bin('/', f8(or(a, 3, num(0))), num(1000000))),
        ),
    ),
    def(
      'cal::to_local_datetime',
      's: str, fmt: optional str = {}',
      'cal::local_datetime',
      (a) =>
        formatted(a, info['cal::local_datetime'].fromText(a.at(0)), (fmt) =>
          inRange('cal::local_datetime', localParsed(a, fmt)),
        ),
      { volatility: 'Volatile' },
    ),
    def('cal::to_local_datetime', 'dt: datetime, zone: str', 'cal::local_datetime', (a) =>
      inRange('cal::local_datetime', fn('timezone', a.at(1), a.at(0))),
    ),
    def(
      'cal::to_local_datetime',
      'year: int64, month: int64, day: int64, hour: int64, min: int64, sec: float64',
      'cal::local_datetime',
      (a) =>
        inRange(
          'cal::local_datetime',
          fn(
            'make_timestamp',
            int4(a.at(0)),
            int4(a.at(1)),
            int4(a.at(2)),
            int4(a.at(3)),
            int4(a.at(4)),
            a.at(5),
          ),
        ),
    ),
    def(
      'cal::to_local_date',
      's: str, fmt: optional str = {}',
      'cal::local_date',
      (a) =>
        formatted(a, info['cal::local_date'].fromText(a.at(0)), (fmt) =>
          inRange('cal::local_date', cast(localParsed(a, fmt), 'date')),
        ),
      { volatility: 'Volatile' },
    ),
    def('cal::to_local_date', 'dt: datetime, zone: str', 'cal::local_date', (a) =>
      inRange('cal::local_date', cast(fn('timezone', a.at(1), a.at(0)), 'date')),
    ),
    def('cal::to_local_date', 'year: int64, month: int64, day: int64', 'cal::local_date', (a) =>
      inRange('cal::local_date', fn('make_date', int4(a.at(0)), int4(a.at(1)), int4(a.at(2)))),
    ),
    def(
      'cal::to_local_time',
      's: str, fmt: optional str = {}',
      'cal::local_time',
      (a) =>
        formatted(a, info['cal::local_time'].fromText(a.at(0)), (fmt) =>
          cast(localParsed(a, fmt), 'time'),
        ),
      { volatility: 'Volatile' },
    ),
    def('cal::to_local_time', 'dt: datetime, zone: str', 'cal::local_time', (a) =>
      cast(fn('timezone', a.at(1), a.at(0)), 'time'),
    ),
    def('cal::to_local_time', 'hour: int64, min: int64, sec: float64', 'cal::local_time', (a) =>
      inRange('cal::local_time', fn('make_time', int4(a.at(0)), int4(a.at(1)), a.at(2))),
    ),
    def(
      'cal::to_relative_duration',
      'named only years: int64 = 0, named only months: int64 = 0, named only days: int64 = 0, named only hours: int64 = 0, named only minutes: int64 = 0, named only seconds: float64 = 0, named only microseconds: int64 = 0',
      'cal::relative_duration',
      (a) =>
        fn(
          'make_interval',
          int4(or(a, 0, num(0))),
          int4(or(a, 1, num(0))),
          num(0),
          int4(or(a, 2, num(0))),
          int4(or(a, 3, num(0))),
          int4(or(a, 4, num(0))),
          sql.bin('+', f8(or(a, 5, num(0))), sql.bin('/', f8(or(a, 6, num(0))), num(1000000))),
        ),
    ),
    def(
      'cal::to_date_duration',
      'named only years: int64 = 0, named only months: int64 = 0, named only days: int64 = 0',
      'cal::date_duration',
      (a) =>
        fn(
          'make_interval',
          int4(or(a, 0, num(0))),
          int4(or(a, 1, num(0))),
          num(0),
          int4(or(a, 2, num(0))),
        ),
    ),
  );
  return out;
}

/**
 * Integers to and from their bytes (Gel's `to_bytes(int, Endian)`, `to_int16(bytes, Endian)`):
 * PostgreSQL's `int2send`/`int4send`/`int8send` give the big-endian bytes; little-endian is their
 * reverse. Bytes of the wrong length are an InvalidValueError (22023).
 */
function intBytes(): Overload[] {
  const out: Overload[] = [];
  const little = (a: SqlArgs) => sql.bin('=', a.at(1), sql.text('Little'));
  for (const [t, width, pg] of [
    ['int16', 2, 'smallint'],
    ['int32', 4, 'integer'],
    ['int64', 8, 'bigint'],
  ] as const) {
    const bits = width * 8;
    out.push(
      def('std::to_bytes', `val: ${t}, endian: Endian`, 'bytes', (a) => {
        const big = fn(`int${width}send`, a.at(0));
        return caseWhen([[little(a), meta('bytes_reverse', big)]], big);
      }),
    );
    out.push(
      def(`std::to_${t}`, `val: bytes, endian: Endian`, t, (a) => {
        const ordered = caseWhen([[little(a), meta('bytes_reverse', a.at(0))]], a.at(0));
        const asBits = cast(
          sql.bin('||', sql.text('x'), fn('encode', ordered, sql.text('hex'))),
          `bit(${bits})`,
        );
        // bit(16) reads as an unsigned integer: shift it to the top and back to extend the sign.
        const value =
          width === 2
            ? cast(paren(sql.bin('>>', paren(sql.bin('<<', int4(asBits), num(16))), num(16))), pg)
            : cast(asBits, pg);
        return caseWhen(
          [
            [
              sql.bin('<>', fn('length', a.at(0)), num(width)),
              raise(
                a.at(0),
                pgType(pg),
                sql.text(`to_${t}(): the argument must be exactly ${width} bytes long`),
                '22023',
              ),
            ],
          ],
          value,
        );
      }),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dates and times: current time, parts, truncation

/**
 * Gel's unit names for each date/time function, each with the PostgreSQL field `date_part` or
 * `date_trunc` reads it as (Gel's names are mostly PostgreSQL's; a few are renamed). A unit not
 * listed is an InvalidValueError (22007) naming the function, as in Gel.
 */
const same = (...units: string[]): [string, string][] => units.map((u) => [u, u]);
const DATE_PARTS = same('century', 'day', 'decade', 'dow', 'doy', 'isodow', 'isoyear');
const DATE_UNITS = {
  datetimeGet: [
    ...DATE_PARTS,
    ...same('hour', 'microseconds', 'millennium', 'milliseconds', 'minutes', 'month'),
    ...same('quarter', 'seconds', 'week', 'year'),
    ['epochseconds', 'epoch'],
  ],
  datetimeTruncate: [
    ...same('microseconds', 'milliseconds', 'seconds', 'minutes', 'hours', 'days', 'weeks'),
    ...same('months', 'years', 'decades', 'centuries'),
    ['quarters', 'quarter'],
  ],
  durationGet: [
    ...same('hour', 'minutes', 'seconds', 'milliseconds', 'microseconds'),
    ['totalseconds', 'epoch'],
  ],
  dateDurationGet: [
    ...same('millennium', 'century', 'decade', 'year', 'quarter', 'month', 'day'),
    ['totalseconds', 'epoch'],
  ],
  relativeDurationGet: [
    ...same('millennium', 'century', 'decade', 'year', 'quarter', 'month', 'day', 'hour'),
    ...same('minutes', 'seconds', 'milliseconds', 'microseconds'),
    ['totalseconds', 'epoch'],
  ],
  durationTruncate: same('microseconds', 'milliseconds', 'seconds', 'minutes', 'hours'),
  dateDurationTruncate: [
    ...same('days', 'weeks', 'months', 'years', 'decades', 'centuries'),
    ['quarters', 'quarter'],
  ],
  relativeDurationTruncate: [
    ...same('microseconds', 'milliseconds', 'seconds', 'minutes', 'hours', 'days', 'weeks'),
    ...same('months', 'years', 'decades', 'centuries'),
    ['quarters', 'quarter'],
  ],
  timeGet: [
    ...same('hour', 'microseconds', 'milliseconds', 'minutes', 'seconds'),
    ['midnightseconds', 'epoch'],
  ],
  dateGet: [...DATE_PARTS, ...same('millennium', 'month', 'quarter', 'week', 'year')],
} as const satisfies Record<string, readonly (readonly [string, string])[]>;

/**
 * `case unit when 'minutes' then 'minutes' ... else raise end`: the unit as PostgreSQL names it,
 * or InvalidValueError (`invalid unit for std::datetime_get: 'x'`) listing the supported units.
 */
function pgUnit(
  name: string,
  units: readonly (readonly [string, string])[],
  unit: SqlExpr,
): SqlExpr {
  const supported = units.map(([gel]) => gel).join(', ');
  const message = sql.bin(
    '||',
    sql.bin('||', sql.text(`invalid unit for ${name}: `), fn('quote_literal', unit)),
    sql.text(` (supported units: ${supported})`),
  );
  return caseWhen(
    units.map(([gel, pg]) => [sql.bin('=', unit, sql.text(gel)), sql.text(pg)]),
    raise(unit, pgType('text'), message, '22007'),
  );
}

function datetimes(): Overload[] {
  const utc = (e: SqlExpr) => fn('timezone', sql.text('UTC'), e);
  // An empty unit is an empty result, not an invalid unit (`strict`).
  const get = (name: string, units: keyof typeof DATE_UNITS, value: (a: SqlArgs) => SqlExpr) =>
    strict([1], (a) => fn('date_part', pgUnit(name, DATE_UNITS[units], a.at(1)), value(a)));
  const truncate = (units: keyof typeof DATE_UNITS) =>
    strict([1], (a) =>
      fn('date_trunc', pgUnit('std::duration_truncate', DATE_UNITS[units], a.at(1)), a.at(0)),
    );
  return [
    def('std::datetime_current', '', 'datetime', () => fn('clock_timestamp'), {
      volatility: 'Volatile',
    }),
    def('std::datetime_of_statement', '', 'datetime', () => fn('statement_timestamp'), {
      volatility: 'Stable',
    }),
    def('std::datetime_of_transaction', '', 'datetime', () => fn('transaction_timestamp'), {
      volatility: 'Stable',
    }),
    def(
      'std::datetime_get',
      'dt: datetime, el: str',
      'float64',
      get('std::datetime_get', 'datetimeGet', (a) => utc(a.at(0))),
    ),
    def(
      'std::datetime_get',
      'dt: cal::local_datetime, el: str',
      'float64',
      get('std::datetime_get', 'datetimeGet', (a) => a.at(0)),
    ),
    def(
      'std::datetime_truncate',
      'dt: datetime, unit: str',
      'datetime',
      strict([1], (a) =>
        fn(
          'date_trunc',
          pgUnit('std::datetime_truncate', DATE_UNITS.datetimeTruncate, a.at(1)),
          a.at(0),
          sql.text('UTC'),
        ),
      ),
    ),
    // pg_catalog.extract (PostgreSQL 14+) is exact (numeric); date_part is a float.
    def('std::duration_to_seconds', 'dur: duration', 'decimal', (a) =>
      sql.func('extract', [sql.text('epoch'), a.at(0)], 'pg_catalog'),
    ),
    def(
      'std::duration_get',
      'dt: duration, el: str',
      'float64',
      get('std::duration_get', 'durationGet', (a) => a.at(0)),
    ),
    def(
      'std::duration_get',
      'dt: cal::relative_duration, el: str',
      'float64',
      get('std::duration_get', 'relativeDurationGet', (a) => a.at(0)),
    ),
    def(
      'std::duration_get',
      'dt: cal::date_duration, el: str',
      'float64',
      get('std::duration_get', 'dateDurationGet', (a) => a.at(0)),
    ),
    def(
      'std::duration_truncate',
      'dt: duration, unit: str',
      'duration',
      truncate('durationTruncate'),
    ),
    def(
      'std::duration_truncate',
      'dt: cal::relative_duration, unit: str',
      'cal::relative_duration',
      truncate('relativeDurationTruncate'),
    ),
    def(
      'std::duration_truncate',
      'dt: cal::date_duration, unit: str',
      'cal::date_duration',
      truncate('dateDurationTruncate'),
    ),
    def(
      'cal::time_get',
      'dt: cal::local_time, el: str',
      'float64',
      get('cal::time_get', 'timeGet', (a) => a.at(0)),
    ),
    def(
      'cal::date_get',
      'dt: cal::local_date, el: str',
      'float64',
      get('cal::date_get', 'dateGet', (a) => cast(a.at(0), 'timestamp')),
    ),
    def(
      'cal::duration_normalize_hours',
      'dur: cal::relative_duration',
      'cal::relative_duration',
      (a) => fn('justify_hours', a.at(0)),
    ),
    def(
      'cal::duration_normalize_days',
      'dur: cal::relative_duration',
      'cal::relative_duration',
      (a) => fn('justify_days', a.at(0)),
    ),
    def('cal::duration_normalize_days', 'dur: cal::date_duration', 'cal::date_duration', (a) =>
      fn('justify_days', a.at(0)),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// JSON

function json(): Overload[] {
  const pathArray = (a: SqlArgs): SqlExpr => ({
    kind: 'ArrayExpr',
    elements: a.rest,
    type: pgType('text', 1),
  });
  return [
    def('std::json_typeof', 'json', 'str', (a) => fn('jsonb_typeof', a.at(0))),
    def(
      'std::json_get',
      'json, variadic path: str, named only default: optional json = {}',
      'optional json',
      strict([0], (a) =>
        fn('coalesce', sql.bin('#>', a.at(0), pathArray(a)), or(a, 2, cast(sql.null(), 'jsonb'))),
      ),
    ),
    def(
      'std::json_set',
      'target: json, variadic path: str, named only value: optional json = {}, named only create_if_missing: bool = true, named only empty_treatment: JsonEmpty = {}',
      'optional json',
      // An empty `value` is handled as `empty_treatment` says (Gel; ReturnEmpty by default).
      (a) => {
        const value = a.opt(2) ?? cast(sql.null(), 'jsonb');
        const treatment = or(a, 4, sql.text('ReturnEmpty'));
        const empty = (name: string) =>
          sql.and(sql.isNull(value), sql.bin('=', treatment, sql.text(name)));
        const createIfMissing = or(a, 3, sql.bool(true));
        return {
          kind: 'Case',
          whens: [
            { when: empty('ReturnEmpty'), then: sql.null() },
            { when: empty('ReturnTarget'), then: a.at(0) },
            {
              when: empty('Error'),
              then: raise(a.at(0), pgType('jsonb'), sql.text('invalid empty JSON value'), '22023'),
            },
            {
              when: empty('UseNull'),
              then: fn(
                'jsonb_set',
                a.at(0),
                pathArray(a),
                cast(sql.text('null'), 'jsonb'),
                createIfMissing,
              ),
            },
            { when: empty('DeleteKey'), then: sql.bin('#-', a.at(0), pathArray(a)) },
          ],
          else: fn('jsonb_set', a.at(0), pathArray(a), value, createIfMissing),
        };
      },
    ),
    def(
      'std::json_array_unpack',
      'json',
      'set of json',
      (a) => fn('jsonb_array_elements', a.at(0)),
      SRF,
    ),
    // Tuples are jsonb arrays: each (key, value) pair becomes `["key", value]`.
    def(
      'std::json_object_unpack',
      'json',
      'set of tuple<str, json>',
      (a) => {
        const pairs = sql.fromFunction(fn('jsonb_each', a.at(0)), 'p', {
          columns: [
            { name: 'key', type: null },
            { name: 'value', type: null },
          ],
        });
        return fn(
          'jsonb_array_elements',
          fn(
            'coalesce',
            sql.scalar(
              sql.select({
                targets: [
                  sql.target(
                    sql.agg(
                      'jsonb_agg',
                      [fn('jsonb_build_array', sql.col('key', 'p'), sql.col('value', 'p'))],
                      {
                        orderBy: [sql.order(sql.col('key', 'p'))],
                      },
                    ),
                  ),
                ],
                from: [pairs],
              }),
            ),
            cast(sql.text('[]'), 'jsonb'),
          ),
        );
      },
      SRF,
    ),
    def(
      'std::json_object_pack',
      'pairs: set of tuple<str, json>',
      'json',
      (a) =>
        fn(
          'coalesce',
          fn('jsonb_object_agg', sql.bin('->>', a.at(0), num(0)), sql.bin('->', a.at(0), num(1))),
          cast(sql.text('{}'), 'jsonb'),
        ),
      AGG,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Arrays

/**
 * `array[:p] ++ [val] ++ array[p + 1 - inserting:]` with p the 0-based position of idx (negative
 * counts from the end); p must be in 0..len-1 to set, 0..len to insert.
 */
function splice(a: SqlArgs, inserting: 0 | 1): SqlExpr {
  const array = a.at(0);
  const n = fn('cardinality', array);
  const p = caseWhen([[sql.bin('<', a.at(1), num(0)), sql.bin('+', n, a.at(1))]], a.at(1));
  const slice = (lower: SqlExpr, upper: SqlExpr): SqlExpr => ({
    kind: 'Slice',
    expr: paren(array),
    lower,
    upper,
  });
  const head = slice(num(1), int4(p));
  const tail = slice(int4(sql.bin('+', p, num(2 - inserting))), int4(n));
  const outside = sql.or(
    sql.bin('<', p, num(0)),
    sql.bin('>', p, sql.bin('-', n, num(1 - inserting))),
  );
  return caseWhen(
    [
      [
        outside,
        raise(
          array,
          pgTypeFor(a.result ?? { kind: 'array', element: { kind: 'scalar', name: 'std::str' } }),
          sql.bin(
            '||',
            sql.bin('||', sql.text('array index '), cast(a.at(1), 'text')),
            sql.text(' is out of bounds'),
          ),
          '22023',
        ),
      ],
    ],
    sql.bin(
      '||',
      sql.bin('||', head, { kind: 'ArrayExpr', elements: [a.at(2)], type: null }),
      tail,
    ),
  );
}

function arrays(): Overload[] {
  return [
    def(
      'std::array_unpack',
      'array: array<anytype>',
      'set of anytype',
      (a) => (jsonbArray(a, 0) ? fn('jsonb_array_elements', a.at(0)) : fn('unnest', a.at(0))),
      // The rows of a jsonb array are its items: read each as a value of the element type.
      { ...SRF, rows: (item, a) => (jsonbArray(a, 0) ? itemValue(a, 0, item) : item) },
    ),
    // Past either end: empty (or the default), not an error (item 13).
    def(
      'std::array_get',
      'array: array<anytype>, idx: int64, named only default: optional anytype = {}',
      'optional anytype',
      strict([0, 1], (a) => {
        if (jsonbArray(a, 0)) {
          const item = jsonbGet(a);
          const fallback = a.opt(2);
          return fallback === null ? item : fn('coalesce', item, fallback);
        }
        const position = caseWhen(
          [
            [
              sql.bin('<', a.at(1), num(0)),
              sql.bin('+', sql.bin('+', fn('cardinality', a.at(0)), a.at(1)), num(1)),
            ],
          ],
          sql.bin('+', a.at(1), num(1)),
        );
        const item: SqlExpr = {
          kind: 'Subscript',
          expr: paren(a.at(0)),
          index: caseWhen([[sql.bin('<', position, num(1)), sql.null()]], position),
        };
        const fallback = a.opt(2);
        return fallback === null ? item : fn('coalesce', item, fallback);
      }),
    ),
    def(
      'std::array_fill',
      'val: anytype, n: int64',
      'array<anytype>',
      strict([0], (a) => {
        // Past int4, n is PostgreSQL's largest, so the size limit raises (as Gel does).
        const n = int4(fn('least', a.at(1), num(2147483647)));
        const element = a.type(0);
        if (element && jsonbArrayOf(element))
          return jsonbFill(storedJson(element, a.at(0), a.env), n);
        return fn('array_fill', a.at(0), { kind: 'ArrayExpr', elements: [n], type: null });
      }),
    ),
    def(
      'std::array_replace',
      'array: array<anytype>, old: anytype, new: anytype',
      'array<anytype>',
      strict([1, 2], (a) => {
        if (!jsonbArray(a, 0)) return fn('array_replace', a.at(0), a.at(1), a.at(2));
        if (a.type(1)?.kind === 'array') return jsonbReplace(a);
        // An array of tuples is one jsonb array: rebuild it, element by element.
        const items = sql.items(fn('jsonb_array_elements', a.at(0)), 'e');
        const value = caseWhen(
          [[sql.bin('=', sql.col('value', 'e'), a.at(1)), a.at(2)]],
          sql.col('value', 'e'),
        );
        return fn(
          'coalesce',
          sql.scalar(
            sql.select({
              targets: [
                sql.target(
                  sql.agg('jsonb_agg', [value], { orderBy: [sql.order(sql.col('ord', 'e'))] }),
                ),
              ],
              from: [items],
            }),
          ),
          cast(sql.text('[]'), 'jsonb'),
        );
      }),
    ),
    // Replace the element at idx (negative from the end); outside the array is an error (22023).
    def(
      'std::array_set',
      'array: array<anytype>, idx: int64, val: anytype',
      'array<anytype>',
      // Element-wise: an empty argument is an empty result (the concatenation would not be).
      strict([0, 1, 2], (a) => (jsonbArray(a, 0) ? jsonbSplice(a, 0) : splice(a, 0))),
    ),
    // Insert before idx (len(array) appends); outside 0..len is an error (22023).
    def(
      'std::array_insert',
      'array: array<anytype>, idx: int64, val: anytype',
      'array<anytype>',
      // Element-wise: an empty argument is an empty result (the concatenation would not be).
      strict([0, 1, 2], (a) => (jsonbArray(a, 0) ? jsonbSplice(a, 1) : splice(a, 1))),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Numbers: math, rounding, random, bits

function numbers(): Overload[] {
  const out: Overload[] = [
    def('std::random', '', 'float64', () => fn('random'), { volatility: 'Volatile' }),
    def('math::pi', '', 'float64', () => fn('pi')),
    def('math::e', '', 'float64', () => fn('exp', f8(num(1)))),
    def('std::round', 'int64', 'int64', (a) => a.at(0)),
    def('std::round', 'float64', 'float64', (a) => fn('round', a.at(0))),
    def('std::round', 'bigint', 'bigint', (a) => a.at(0)),
    def('std::round', 'decimal', 'decimal', (a) => fn('round', a.at(0))),
    def('std::round', 'decimal, d: int64', 'decimal', (a) => fn('round', a.at(0), int4(a.at(1)))),
    def('math::sqrt', 'int64', 'float64', (a) => fn('sqrt', f8(a.at(0)))),
    def('math::sqrt', 'float64', 'float64', (a) => fn('sqrt', a.at(0))),
    def('math::sqrt', 'decimal', 'decimal', (a) => fn('sqrt', a.at(0))),
    def('math::log', 'decimal, named only base: decimal', 'decimal', (a) =>
      fn('log', a.at(1), a.at(0)),
    ),
    def('math::atan2', 'y: float64, x: float64', 'float64', (a) => fn('atan2', a.at(0), a.at(1))),
    def('std::bytes_get_bit', 'bytes: bytes, num: int64', 'int64', (a) =>
      int8(fn('get_bit', a.at(0), a.at(1))),
    ),
  ];
  for (const t of ['int16', 'int32', 'int64', 'float32', 'float64', 'bigint', 'decimal'] as const) {
    out.push(def('math::abs', t, t, (a) => fn('abs', a.at(0))));
    // svc's schemas have accepted `abs()` unqualified since before this table; Gel spells it math::abs.
    out.push(def('std::abs', t, t, (a) => fn('abs', a.at(0))));
  }
  // Integers are already whole: ceil and floor give them back (Gel: int64 → int64).
  for (const name of ['ceil', 'floor'] as const) {
    out.push(def(`math::${name}`, 'int64', 'int64', (a) => a.at(0)));
    out.push(def(`math::${name}`, 'float64', 'float64', (a) => fn(name, a.at(0))));
    out.push(def(`math::${name}`, 'bigint', 'bigint', (a) => fn(name, a.at(0))));
    out.push(def(`math::${name}`, 'decimal', 'decimal', (a) => fn(name, a.at(0))));
  }
  for (const [name, pg] of [
    ['ln', 'ln'],
    ['lg', 'log'],
    ['exp', 'exp'],
  ] as const) {
    out.push(def(`math::${name}`, 'int64', 'float64', (a) => fn(pg, f8(a.at(0)))));
    out.push(def(`math::${name}`, 'float64', 'float64', (a) => fn(pg, a.at(0))));
    out.push(def(`math::${name}`, 'decimal', 'decimal', (a) => fn(pg, a.at(0))));
  }
  for (const name of ['sin', 'cos', 'tan', 'cot', 'asin', 'acos', 'atan'] as const) {
    out.push(def(`math::${name}`, 'x: float64', 'float64', (a) => fn(name, a.at(0))));
  }
  // PostgreSQL 14+ counts the set bits of a bytea itself.
  out.push(def('std::bit_count', 'bytes: bytes', 'int64', (a) => fn('bit_count', a.at(0))));
  for (const t of INTS) {
    out.push(def('std::bit_and', `l: ${t}, r: ${t}`, t, (a) => sql.bin('&', a.at(0), a.at(1))));
    out.push(def('std::bit_or', `l: ${t}, r: ${t}`, t, (a) => sql.bin('|', a.at(0), a.at(1))));
    out.push(def('std::bit_xor', `l: ${t}, r: ${t}`, t, (a) => sql.bin('#', a.at(0), a.at(1))));
    out.push(
      def('std::bit_not', `r: ${t}`, t, (a) => ({ kind: 'UnaryOp', op: '~', operand: a.at(0) })),
    );
    // Shifting by the width or more gives 0 (-1 right-shifting a negative); a negative amount is an error.
    // The result keeps the type's width (a bare `0` branch would make an int16 CASE an integer).
    const width = t === 'int64' ? 63 : 31;
    const pgT = pgTypeFor({ kind: 'scalar', name: `std::${t}` });
    const shift = (name: string, op: string, beyond: (v: SqlExpr) => SqlExpr) => (a: SqlArgs) =>
      sql.cast(
        caseWhen(
          [
            [
              sql.bin('<', a.at(1), num(0)),
              raise(
                a.at(1),
                pgTypeFor({ kind: 'scalar', name: `std::${t}` }),
                sql.text(`${name}(): cannot shift by negative amount`),
                '22023',
              ),
            ],
            [sql.bin('>', a.at(1), num(width)), beyond(a.at(0))],
          ],
          sql.bin(op, a.at(0), int4(a.at(1))),
        ),
        pgT,
      );
    out.push(
      def(
        'std::bit_lshift',
        `val: ${t}, n: int64`,
        t,
        shift('bit_lshift', '<<', () => num(0)),
      ),
    );
    out.push(
      def(
        'std::bit_rshift',
        `val: ${t}, n: int64`,
        t,
        shift('bit_rshift', '>>', (v) => caseWhen([[sql.bin('<', v, num(0)), num(-1)]], num(0))),
      ),
    );
    out.push(
      // The bits of the type's own width (a negative int16 has 16 bits, not 64, set at most).
      def('std::bit_count', `val: ${t}`, 'int64', (a) =>
        int8(
          fn(
            'length',
            fn(
              'replace',
              cast(cast(t === 'int64' ? a.at(0) : int4(a.at(0)), `bit(${t.slice(3)})`), 'text'),
              sql.text('0'),
              sql.text(''),
            ),
          ),
        ),
      ),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// UUIDs, encodings, and what the server provides

function misc(): Overload[] {
  const volatile = { volatility: 'Volatile' } as const;
  const b64encode = (a: SqlArgs) => base64(a.at(0));
  const b64decode = (a: SqlArgs) => fn('decode', a.at(0), sql.text('base64'));
  return [
    // A sequence scalar's PostgreSQL sequence, named by the compiler from `introspect T`
    // (query/bind/sequence.ts; a caller's own str never reaches these rows).
    def(
      'std::sequence_next',
      'seq: str',
      'int64',
      (a) => fn('nextval', cast(a.at(0), 'regclass')),
      volatile,
    ),
    def(
      'std::sequence_reset',
      'seq: str',
      'int64',
      (a) =>
        fn(
          'setval',
          cast(a.at(0), 'regclass'),
          sql.scalar(
            sql.select({
              targets: [sql.target(sql.col('seqstart'))],
              from: [sql.table('pg_catalog', 'pg_sequence')],
              where: sql.bin('=', sql.col('seqrelid'), cast(a.at(0), 'regclass')),
            }),
          ),
          sql.bool(false),
        ),
      volatile,
    ),
    def(
      'std::sequence_reset',
      'seq: str, value: int64',
      'int64',
      (a) => fn('setval', cast(a.at(0), 'regclass'), a.at(1), sql.bool(true)),
      volatile,
    ),
    def('std::uuid_generate_v4', '', 'uuid', () => fn('gen_random_uuid'), volatile),
    // v1mc is time-ordered in Gel; UUIDv7 is the time-ordered UUID we can make without extensions.
    def('std::uuid_generate_v1mc', '', 'uuid', () => meta('uuid_generate_v7'), volatile),
    def('std::uuid_generate_v7', '', 'uuid', () => meta('uuid_generate_v7'), volatile),
    def('std::enc::base64_encode', 'data: bytes', 'str', b64encode),
    def('std::enc::base64_decode', 'data: str', 'bytes', b64decode),
    // The neutral names (spec items 4 and 32).
    def('std::base64_encode', 'data: bytes', 'str', b64encode),
    def('std::base64_decode', 'data: str', 'bytes', b64decode),
    // A document for `index fts::index` (schema/fts.ts reads the call's arguments and builds the
    // GIN index from them); as a value it is its text.
    def(
      'fts::with_options',
      'text: str, named only language: anytype, named only weight_category: optional anyscalar = {}',
      'str',
      (a) => a.at(0),
    ),
    // DECISIONS: the caller's roles arrive as the auth parameter `roles`; the compiler passes it
    // as the named argument `roles` (schema inference leaves it out).
    def(
      'std::has_role',
      'role: str, named only roles: optional array<str> = {}',
      'bool',
      // An empty role is empty (element-wise); no roles at all is false.
      strict([0], (a) =>
        fn(
          'coalesce',
          { kind: 'AnyOp', left: a.at(0), op: '=', array: or(a, 1, sql.null()) },
          sql.bool(false),
        ),
      ),
      { volatility: 'Stable' },
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Ranges (`range<T>` is PostgreSQL's range type of T, std/scalars `rangeValue`)

/** The element type of the range parameter `i`. */
function rangeElement(a: SqlArgs, i: number): TypeRef {
  const t = a.type(i);
  if (t?.kind !== 'range') throw new Error('std: a range parameter is bound to a range type');
  return t.element;
}

/** A point as the range's PostgreSQL element type (floats are numeric in a numrange). */
function asRangePoint(a: SqlArgs, range: number, point: SqlExpr): SqlExpr {
  const pg = pgTypeFor({ kind: 'range', element: rangeElement(a, range) });
  return pg.name === 'numrange' ? cast(point, 'numeric') : point;
}

/**
 * `unnest(array(select v from generate_series(from, to, step) as g(v) where r @> v order by v))`
 * with `from`/`to` the range's bounds: the points of `r` from its lower bound by `step` (an
 * unbounded or empty range gives no rows: generate_series is strict).
 */
/**
 * `(select <r, checked> as r) as b`: the range once, for the unpacking query to read as `b.r`;
 * InvalidValueError (22023) when it has no lower or no upper bound (Gel).
 */
function boundedRange(r: SqlExpr, element: TypeRef): FromItem {
  const pg = pgTypeFor({ kind: 'range', element });
  const checked = caseWhen(
    [
      [
        sql.or(fn('lower_inf', r), fn('upper_inf', r)),
        raise(r, pg, sql.text('cannot unpack an unbounded range'), '22023'),
      ],
    ],
    r,
  );
  return sql.subquery(sql.select({ targets: [sql.target(checked, 'r')] }), 'b');
}

function steppedPoints(a: SqlArgs, element: TypeRef, step: SqlExpr): SqlExpr {
  const checked = boundedRange(a.at(0), element);
  const r = sql.col('r', 'b');
  const isDate = element.kind === 'scalar' && element.name === 'cal::local_date';
  const bound = (which: 'lower' | 'upper') => {
    const b = fn(which, r);
    return isDate ? cast(b, 'timestamp') : b;
  };
  const numeric = pgTypeFor({ kind: 'range', element }).name === 'numrange';
  const by = numeric ? cast(step, 'numeric') : step;
  const series = sql.fromFunction(fn('generate_series', bound('lower'), bound('upper'), by), 'g', {
    columns: [{ name: 'v', type: null }],
  });
  const v = sql.col('v', 'g');
  const point = isDate ? cast(v, 'date') : v;
  const value = numeric ? sql.cast(point, pgTypeFor(element)) : point;
  return fn(
    'unnest',
    sql.array(
      sql.select({
        targets: [sql.target(value)],
        from: [checked, series],
        where: sql.bin('@>', r, point),
        orderBy: [sql.order(v)],
      }),
    ),
  );
}

function ranges(): Overload[] {
  const STEPS: readonly [string, string][] = [
    ['int32', 'int32'],
    ['int64', 'int64'],
    ['float32', 'float32'],
    ['float64', 'float64'],
    ['decimal', 'decimal'],
    ['datetime', 'duration'],
    ['cal::local_datetime', 'cal::relative_duration'],
    ['cal::local_date', 'cal::date_duration'],
  ];
  return [
    def(
      'std::range',
      'lower: optional anypoint = {}, upper: optional anypoint = {}, named only inc_lower: bool = true, named only inc_upper: bool = false, named only empty: bool = false',
      'range<anypoint>',
      strict([2, 3, 4], (a) => {
        const result = a.result;
        if (result?.kind !== 'range') throw new Error('std: range() returns a range');
        return rangeValue(
          result.element,
          a.opt(0) ?? sql.null(),
          a.opt(1) ?? sql.null(),
          or(a, 2, sql.bool(true)),
          or(a, 3, sql.bool(false)),
          a.opt(4),
        );
      }),
    ),
    // A discrete range is `[lower, upper)` once PostgreSQL normalises it: lower + 0, 1, ...
    def(
      'std::range_unpack',
      'val: range<anydiscrete>',
      'set of anydiscrete',
      (a) => {
        const checked = boundedRange(a.at(0), rangeElement(a, 0));
        const r = sql.col('r', 'b');
        const offsets = sql.fromFunction(
          fn(
            'generate_series',
            num(0),
            sql.bin('-', sql.bin('-', fn('upper', r), fn('lower', r)), num(1)),
          ),
          'g',
          { columns: [{ name: 'i', type: null }] },
        );
        return fn(
          'unnest',
          sql.array(
            sql.select({
              targets: [sql.target(sql.bin('+', fn('lower', r), sql.col('i', 'g')))],
              from: [checked, offsets],
              orderBy: [sql.order(sql.col('i', 'g'))],
            }),
          ),
        );
      },
      SRF,
    ),
    ...STEPS.map(([point, step]) =>
      def(
        'std::range_unpack',
        `val: range<${point}>, step: ${step}`,
        `set of ${point}`,
        (a) => steppedPoints(a, rangeElement(a, 0), a.at(1)),
        SRF,
      ),
    ),
    def('std::range_get_lower', 'r: range<anypoint>', 'optional anypoint', (a) =>
      rangeBound(rangeElement(a, 0), 'lower', a.at(0)),
    ),
    def('std::range_get_upper', 'r: range<anypoint>', 'optional anypoint', (a) =>
      rangeBound(rangeElement(a, 0), 'upper', a.at(0)),
    ),
    def('std::range_is_inclusive_lower', 'r: range<anypoint>', 'bool', (a) =>
      fn('lower_inc', a.at(0)),
    ),
    def('std::range_is_inclusive_upper', 'r: range<anypoint>', 'bool', (a) =>
      fn('upper_inc', a.at(0)),
    ),
    def('std::range_is_empty', 'val: range<anypoint>', 'bool', (a) => fn('isempty', a.at(0))),
    def('std::contains', 'haystack: range<anypoint>, needle: range<anypoint>', 'bool', (a) =>
      sql.bin('@>', a.at(0), a.at(1)),
    ),
    def(
      'std::contains',
      'haystack: range<anypoint>, needle: anypoint',
      'bool',
      strict([1], (a) => sql.bin('@>', a.at(0), asRangePoint(a, 0, a.at(1)))),
    ),
    def('std::overlaps', 'l: range<anypoint>, r: range<anypoint>', 'bool', (a) =>
      sql.bin('&&', a.at(0), a.at(1)),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// sys

/**
 * svc's own version (std/version: @svc/core's package.json, read once at start-up), as constants
 * the forms emit. The tuple is stored as tuples are, a jsonb array in element order:
 * `[major, minor, "stage", stage_no, [local...]]`. Stable, as Gel marks them (Gel reads a setting).
 */
function sys(): Overload[] {
  const v = SERVER_VERSION;
  const stable = { volatility: 'Stable' } as const;
  return [
    def(
      'sys::get_version',
      '',
      'tuple<major: int64, minor: int64, stage: sys::VersionStage, stage_no: int64, local: array<str>>',
      () => cast(sql.text(versionTupleJson(v)), 'jsonb'),
      stable,
    ),
    def(
      'sys::get_version_as_str',
      '',
      'str',
      () => cast(sql.text(versionString(v)), 'text'),
      stable,
    ),
  ];
}

export const STD_FUNCTIONS: ReadonlyMap<string, readonly Overload[]> = table(
  [
    ...sets(),
    ...wholeSets(),
    ...generic(),
    ...strings(),
    ...conversions(),
    ...intBytes(),
    ...datetimes(),
    ...json(),
    ...arrays(),
    ...numbers(),
    ...misc(),
    ...ranges(),
    ...multirangeFunctions(),
    ...sys(),
  ].map(nonEmptyFmt),
);

/**
 * A `fmt` argument that is given must be a non-empty string (Gel's rule for every function
 * taking one): `''` raises InvalidValueError (22023) before the row's form sees it.
 */
function nonEmptyFmt(o: Overload): Overload {
  const i = o.params.findIndex((p) => p.name === 'fmt');
  if (i < 0) return o;
  const short = o.name.slice(o.name.indexOf('::') + 2);
  return {
    ...o,
    sql: (a) => {
      const fmt = a.opt(i);
      if (fmt === null) return o.sql(a);
      const checked = caseWhen(
        [
          [
            sql.bin('=', fmt, sql.text('')),
            raise(
              fmt,
              pgType('text'),
              sql.text(`${short}(): "fmt" argument must be a non-empty string`),
              '22023',
            ),
          ],
        ],
        fmt,
      );
      const pick = (j: number) => (j === i ? checked : null);
      return o.sql({ ...a, at: (j) => pick(j) ?? a.at(j), opt: (j) => pick(j) ?? a.opt(j) });
    },
  };
}
