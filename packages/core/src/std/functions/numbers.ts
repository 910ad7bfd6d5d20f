/**
 * std/functions/numbers: numbers (math, rounding, random, bits), UUIDs, encodings, and what the
 * server provides (sys); rows of the one std function table (std/functions.ts assembles it).
 */
import { sql, type SqlExpr } from '../../sql/ast';
import { def, strict } from '../define';
import type { Overload, SqlArgs } from '../model';
import { raise } from '../operators';
import { base64, pgTypeFor } from '../scalars';
import { SERVER_VERSION, versionString, versionTupleJson } from '../version';
import { cast, int8, int4, f8, num, fn, meta, caseWhen, or, INTS, SRF } from './common';

// ---------------------------------------------------------------------------------------------
// Numbers: math, rounding, random, bits

export function numbers(): Overload[] {
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
  // `_gen_series(start, stop[, step])`: the integers from start to stop, PostgreSQL's
  // generate_series (Gel defines it in its test-mode std, and its std tests call it).
  for (const t of ['int64', 'bigint'] as const) {
    // bigint's series is numeric's: each row is cast back to the bigint domain.
    const pgT = pgTypeFor({ kind: 'scalar', name: `std::${t}` });
    const rows = t === 'bigint' ? { ...SRF, rows: (item: SqlExpr) => sql.cast(item, pgT) } : SRF;
    out.push(
      def(
        'std::_gen_series',
        `start: ${t}, stop: ${t}`,
        `set of ${t}`,
        (a) => fn('generate_series', a.at(0), a.at(1)),
        rows,
      ),
      def(
        'std::_gen_series',
        `start: ${t}, stop: ${t}, step: ${t}`,
        `set of ${t}`,
        (a) => fn('generate_series', a.at(0), a.at(1), a.at(2)),
        rows,
      ),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// UUIDs, encodings, and what the server provides

export function misc(): Overload[] {
  const volatile = { volatility: 'Volatile' } as const;
  // Gel's std::enc: the `standard` or `urlsafe` alphabet (`-_` for `+/`), with or without the
  // `=` padding; a value written without padding is padded again before decoding.
  const urlsafe = (a: SqlArgs) => sql.bin('=', or(a, 1, sql.text('standard')), sql.text('urlsafe'));
  const b64encode = (a: SqlArgs) => {
    const text = base64(a.at(0));
    const padded = a.opt(2) ? caseWhen([[a.at(2), text]], fn('rtrim', text, sql.text('='))) : text;
    return a.opt(1)
      ? caseWhen([[urlsafe(a), fn('translate', padded, sql.text('+/'), sql.text('-_'))]], padded)
      : padded;
  };
  const b64decode = (a: SqlArgs) => {
    const standard = a.opt(1)
      ? caseWhen([[urlsafe(a), fn('translate', a.at(0), sql.text('-_'), sql.text('+/'))]], a.at(0))
      : a.at(0);
    const padding = fn(
      'repeat',
      sql.text('='),
      sql.bin('%', sql.bin('-', num(4), sql.bin('%', fn('length', standard), num(4))), num(4)),
    );
    const text = a.opt(2)
      ? caseWhen([[a.at(2), standard]], sql.bin('||', standard, padding))
      : standard;
    return fn('decode', text, sql.text('base64'));
  };
  const b64 = 'named only alphabet: std::enc::Base64Alphabet = {}, named only padding: bool = {}';
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
    def('std::enc::base64_encode', `data: bytes, ${b64}`, 'str', b64encode),
    def('std::enc::base64_decode', `data: str, ${b64}`, 'bytes', b64decode),
    // The same functions under neutral names, outside `enc::` (docs/gel-differences.md).
    def('std::base64_encode', `data: bytes, ${b64}`, 'str', b64encode),
    def('std::base64_decode', `data: str, ${b64}`, 'bytes', b64decode),
    // A document for `index fts::index` (schema/fts.ts reads the call's arguments and builds the
    // GIN index from them); as a value it is its text.
    def(
      'fts::with_options',
      'text: str, named only language: anytype, named only weight_category: optional anyscalar = {}',
      'str',
      (a) => a.at(0),
    ),
    // The caller's roles arrive as the auth parameter `roles` (from the verified token); the compiler passes it
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
// sys

/**
 * svc's own version (std/version: @svc/core's package.json, read once at start-up), as constants
 * the forms emit. The tuple is stored as tuples are, a jsonb array in element order:
 * `[major, minor, "stage", stage_no, [local...]]`. Stable, as Gel marks them (Gel reads a setting).
 */
export function sys(): Overload[] {
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
