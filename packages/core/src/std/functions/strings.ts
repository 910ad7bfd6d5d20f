/**
 * std/functions/strings: the generic functions (len, contains, find, assert), strings and regular
 * expressions, conversions; rows of the one std function table (std/functions.ts assembles it).
 */
import { pgType, sql, type SqlExpr } from '../../sql/ast';
import { call, def, strict } from '../define';
import type { Overload, SqlArgs } from '../model';
import { jsonbContains, jsonbFind } from '../jsonb-arrays';
import { jsonbArray, raise } from '../operators';
import { inRange, STD_SCALARS_INFO } from '../scalars';
import { cast, int8, int4, f8, num, fn, meta, paren, caseWhen, or, SRF } from './common';

// ---------------------------------------------------------------------------------------------
// Generic: len, contains, find, assert

export function generic(): Overload[] {
  // pg_catalog.position(haystack, needle) is `position(needle in haystack)` (bytea has no strpos).
  const found = (h: SqlExpr, n: SqlExpr) => sql.func('position', [h, n], 'pg_catalog');
  return [
    // PostgreSQL's lengths and positions are int4: cast to the int8 an int64 is, since a
    // polymorphic operator does not widen them (`int8range @> integer` does not exist).
    def('std::len', 'str', 'int64', (a) => int8(fn('char_length', a.at(0)))),
    def('std::len', 'bytes', 'int64', (a) => int8(fn('octet_length', a.at(0)))),
    def('std::len', 'array<anytype>', 'int64', (a) =>
      int8(jsonbArray(a, 0) ? fn('jsonb_array_length', a.at(0)) : fn('cardinality', a.at(0))),
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
      int8(sql.bin('-', fn('strpos', a.at(0), a.at(1)), num(1))),
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

export function strings(): Overload[] {
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

export function conversions(): Overload[] {
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
    // Without a format a duration is its ISO 8601 text (as Gel's JSON form); with one, PostgreSQL's
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
export function intBytes(): Overload[] {
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
