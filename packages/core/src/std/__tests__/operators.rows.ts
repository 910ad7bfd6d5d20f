/**
 * std/__tests__/operators.rows: result rows for every std operator overload (comparisons generated
 * over samples.ts, arithmetic per numeric type, the temporal arithmetic, indexing, slicing,
 * concatenation, logic, pattern matching and membership).
 */
import { fails, ok, op, type Row } from './harness';
import { POLY_SAMPLES, SCALAR_SAMPLES } from './samples';

const TOTAL_COMPARISON = 'a comparison of two values of one type is total';

function comparisons(): Row[] {
  const rows: Row[] = [];
  for (const { lo, hi } of [...SCALAR_SAMPLES, ...POLY_SAMPLES]) {
    const never = { never: TOTAL_COMPARISON };
    rows.push(
      ok(op('=', lo, lo), [true], never),
      ok(op('=', lo, hi), [false]),
      ok(op('!=', lo, hi), [true], never),
      ok(op('<', lo, hi), [true], never),
      ok(op('<', hi, lo), [false]),
      ok(op('<=', lo, lo), [true], never),
      ok(op('>', lo, hi), [false], never),
      ok(op('>', hi, lo), [true]),
      ok(op('>=', hi, lo), [true], never),
      ok(op('?=', lo, lo), [true], never),
      ok(op('?=', lo, hi), [false]),
      ok(op('?!=', lo, hi), [true], never),
    );
  }
  // `?=` / `?!=` take empty operands: {} equals {} and nothing else.
  rows.push(
    ok(op('?=', '<str>{}', '<str>{}'), [true]),
    ok(op('?=', `'a'`, '<str>{}'), [false]),
    ok(op('?!=', '<int64>{}', '1'), [true]),
    ok(op('?!=', '<int64>{}', '<int64>{}'), [false]),
  );
  return rows;
}

interface Numeric {
  readonly type: string;
  /** `v(7)`: the EdgeQL literal of that number in this type. */
  readonly v: (n: number) => string;
  readonly int: boolean;
  /** An operation that leaves the type's range, per operator; null: none does. */
  readonly overflow: {
    add: [string, string];
    sub: [string, string];
    mul: [string, string];
    neg: string;
  } | null;
}

const NUMERICS: readonly Numeric[] = [
  {
    type: 'int16',
    v: (n) => `<int16>${n}`,
    int: true,
    overflow: {
      add: ['<int16>32767', '<int16>1'],
      sub: ['<int16>-32768', '<int16>1'],
      mul: ['<int16>200', '<int16>200'],
      neg: '<int16>-32768',
    },
  },
  {
    type: 'int32',
    v: (n) => `<int32>${n}`,
    int: true,
    overflow: {
      add: ['<int32>2147483647', '<int32>1'],
      sub: ['<int32>-2147483648', '<int32>1'],
      mul: ['<int32>65536', '<int32>65536'],
      neg: '<int32>-2147483648',
    },
  },
  {
    type: 'int64',
    v: (n) => `<int64>${n}`,
    int: true,
    overflow: {
      add: ['9223372036854775807', '1'],
      sub: ['(-9223372036854775807 - 1)', '1'],
      mul: ['4294967296', '4294967296'],
      neg: '(-9223372036854775807 - 1)',
    },
  },
  {
    type: 'float32',
    v: (n) => `<float32>${n}`,
    int: false,
    overflow: {
      add: ['<float32>3e38', '<float32>3e38'],
      sub: ['<float32>-3e38', '<float32>3e38'],
      mul: ['<float32>3e38', '<float32>10'],
      neg: '',
    },
  },
  {
    type: 'float64',
    v: (n) => `<float64>${n}`,
    int: false,
    overflow: {
      add: ['1.7e308', '1.7e308'],
      sub: ['-1.7e308', '1.7e308'],
      mul: ['1e308', '10.0'],
      neg: '',
    },
  },
  { type: 'bigint', v: (n) => `<bigint>${n}`, int: true, overflow: null },
  { type: 'decimal', v: (n) => `<decimal>${n}`, int: false, overflow: null },
];

const EXACT = 'arbitrary precision: no result of two finite operands is out of range';
const SIGN = 'a sign change never leaves the type (floats are symmetric)';

function arithmetic(): Row[] {
  const rows: Row[] = [];
  for (const n of NUMERICS) {
    const [a, b] = [n.v(7), n.v(2)];
    const o = n.overflow;
    for (const [name, result, key] of [
      ['+', 9, 'add'],
      ['-', 5, 'sub'],
      ['*', 14, 'mul'],
    ] as const) {
      if (o)
        rows.push(
          ok(op(name, a, b), [result]),
          fails(op(name, ...o[key]), 'NumericOutOfRangeError'),
        );
      else rows.push(ok(op(name, a, b), [result], { never: EXACT }));
    }
    if (o?.neg) rows.push(ok(op('-', a), [-7]), fails(op('-', o.neg), 'NumericOutOfRangeError'));
    else rows.push(ok(op('-', a), [-7], { never: SIGN }));
    rows.push(ok(op('+', a), [7], { never: 'the identity' }));
    // Division by zero is the one failure of `/`, `//` and `%` (floats too: Gel raises).
    rows.push(
      ok(op('/', a, b), [3.5]),
      fails(op('/', a, n.v(0)), 'DivisionByZeroError'),
      ok(op('//', a, b), [3]),
      ok(op('//', n.v(-7), b), [-4]),
      fails(op('//', a, n.v(0)), 'DivisionByZeroError'),
      ok(op('%', a, b), [1]),
      ok(op('%', n.v(-7), b), [1]),
      fails(op('%', a, n.v(0)), 'DivisionByZeroError'),
    );
  }
  // `^`: int64 and float64 give float64, bigint decimal; 0 to a negative power is undefined.
  rows.push(
    ok(op('^', '2', '3'), [8]),
    fails(op('^', '0', '-1'), 'InvalidValueError'),
    ok(op('^', '2.0', '0.5'), [Math.SQRT2]),
    fails(op('^', '(-8.0)', '0.5'), 'InvalidValueError'),
    ok(op('^', '<float32>2', '<float32>3'), [8]),
    fails(op('^', '(<float32>-8)', '<float32>0.5'), 'InvalidValueError'),
    ok(op('^', '2n', '10n'), [1024]),
    fails(op('^', '0n', '-1n'), 'InvalidValueError'),
    ok(op('^', '1.5n', '2.0n'), [2.25]),
    fails(op('^', '0.0n', '-1.0n'), 'InvalidValueError'),
  );
  return rows;
}

const dt = (s: string) => `<datetime>'${s}'`;
const dur = (s: string) => `<duration>'${s}'`;
const ldt = (s: string) => `<cal::local_datetime>'${s}'`;
const ld = (s: string) => `<cal::local_date>'${s}'`;
const lt = (s: string) => `<cal::local_time>'${s}'`;
const rd = (s: string) => `<cal::relative_duration>'${s}'`;
const dd = (s: string) => `<cal::date_duration>'${s}'`;

/** Temporal arithmetic: a result past year 9999 (Gel's datetime range) is an error. */
function temporal(): Row[] {
  const TIME_WRAPS = 'local_time arithmetic wraps around midnight';
  // Durations are PostgreSQL intervals: a sum past an int64 of microseconds (or an int32 of
  // months) is out of range (22008, InvalidValueError), as in Gel (the same interval arithmetic).
  const MAX_H = 'PT2562047788H';
  const MAX_Y = 'P178956970Y';
  const MIN_H = 'PT-2562047788H';
  const MIN_Y = 'P-178956970Y';
  return [
    ok(op('+', dt('2024-01-01T00:00:00Z'), dur('PT1H')), ['2024-01-01T01:00:00+00:00']),
    fails(op('+', dt('9999-12-31T23:00:00Z'), dur('PT2H')), 'InvalidValueError'),
    ok(op('+', dur('PT1H'), dt('2024-01-01T00:00:00Z')), ['2024-01-01T01:00:00+00:00']),
    fails(op('+', dur('PT2H'), dt('9999-12-31T23:00:00Z')), 'InvalidValueError'),
    ok(op('+', dur('PT1H'), dur('PT30M')), ['PT1H30M']),
    fails(op('+', dur(MAX_H), dur(MAX_H)), 'InvalidValueError'),
    ok(op('+', dt('2024-01-31T00:00:00Z'), rd('P1M')), ['2024-02-29T00:00:00+00:00']),
    fails(op('+', dt('9999-12-31T00:00:00Z'), rd('P1M')), 'InvalidValueError'),
    ok(op('+', rd('P1D'), dt('2024-01-01T00:00:00Z')), ['2024-01-02T00:00:00+00:00']),
    fails(op('+', rd('P1M'), dt('9999-12-31T00:00:00Z')), 'InvalidValueError'),
    ok(op('+', ldt('2024-01-01T00:00:00'), rd('P1DT1H')), ['2024-01-02T01:00:00']),
    fails(op('+', ldt('9999-12-31T00:00:00'), rd('P1M')), 'InvalidValueError'),
    ok(op('+', rd('P1Y'), ldt('2024-01-01T00:00:00')), ['2025-01-01T00:00:00']),
    fails(op('+', rd('P1Y'), ldt('9999-12-31T00:00:00')), 'InvalidValueError'),
    ok(op('+', ldt('2024-01-01T00:00:00'), dur('PT25H')), ['2024-01-02T01:00:00']),
    fails(op('+', ldt('9999-12-31T00:00:00'), dur('PT25H')), 'InvalidValueError'),
    ok(op('+', dur('PT1H'), ldt('2024-01-01T00:00:00')), ['2024-01-01T01:00:00']),
    fails(op('+', dur('PT25H'), ldt('9999-12-31T00:00:00')), 'InvalidValueError'),
    ok(op('+', ld('2024-01-31'), dd('P1D')), ['2024-02-01']),
    fails(op('+', ld('9999-12-31'), dd('P1D')), 'InvalidValueError'),
    ok(op('+', dd('P2D'), ld('2024-01-01')), ['2024-01-03']),
    fails(op('+', dd('P1D'), ld('9999-12-31')), 'InvalidValueError'),
    ok(op('+', lt('23:00:00'), rd('PT2H')), ['01:00:00'], { never: TIME_WRAPS }),
    ok(op('+', rd('PT1H'), lt('10:00:00')), ['11:00:00'], { never: TIME_WRAPS }),
    ok(op('+', lt('10:00:00'), dur('PT30M')), ['10:30:00'], { never: TIME_WRAPS }),
    ok(op('+', dur('PT30M'), lt('10:00:00')), ['10:30:00'], { never: TIME_WRAPS }),
    ok(op('+', rd('P1M'), rd('P1D')), ['P1M1D']),
    fails(op('+', rd(MAX_Y), rd(MAX_Y)), 'InvalidValueError'),
    ok(op('+', dd('P1D'), dd('P2D')), ['P3D']),
    fails(op('+', dd(MAX_Y), dd(MAX_Y)), 'InvalidValueError'),
    ok(op('-', dt('2024-01-01T01:00:00Z'), dur('PT1H')), ['2024-01-01T00:00:00+00:00']),
    fails(op('-', dt('0001-01-01T00:00:00Z'), dur('PT1H')), 'InvalidValueError'),
    ok(op('-', dt('2024-01-02T00:00:00Z'), dt('2024-01-01T00:00:00Z')), ['PT24H'], {
      never: 'the difference of two datetimes in range fits a duration',
    }),
    ok(op('-', dur('PT2H'), dur('PT30M')), ['PT1H30M']),
    fails(op('-', dur(MIN_H), dur(MAX_H)), 'InvalidValueError'),
    ok(op('-', dur('PT2H')), ['PT-2H']),
    // The least interval has no negation (int64 microseconds, int32 months are asymmetric).
    fails(op('-', dur('PT-2562047788H-54.775808S')), 'InvalidValueError'),
    ok(op('-', dt('2024-03-31T00:00:00Z'), rd('P1M')), ['2024-02-29T00:00:00+00:00']),
    fails(op('-', dt('0001-01-01T00:00:00Z'), rd('P1M')), 'InvalidValueError'),
    ok(op('-', ldt('2024-01-02T00:00:00'), rd('P1D')), ['2024-01-01T00:00:00']),
    fails(op('-', ldt('0001-01-01T00:00:00'), rd('P1M')), 'InvalidValueError'),
    ok(op('-', ldt('2024-01-02T00:00:00'), dur('PT1H')), ['2024-01-01T23:00:00']),
    fails(op('-', ldt('0001-01-01T00:00:00'), dur('PT1H')), 'InvalidValueError'),
    ok(op('-', ldt('2024-01-02T01:00:00'), ldt('2024-01-01T00:00:00')), ['P1DT1H'], {
      never: 'the difference of two local_datetimes in range fits a relative_duration',
    }),
    ok(op('-', ld('2024-03-01'), dd('P1D')), ['2024-02-29']),
    fails(op('-', ld('0001-01-01'), dd('P1D')), 'InvalidValueError'),
    ok(op('-', ld('2024-03-01'), ld('2024-02-01')), ['P29D'], {
      never: 'the difference of two local_dates in range fits a date_duration',
    }),
    ok(op('-', lt('01:00:00'), rd('PT2H')), ['23:00:00'], { never: TIME_WRAPS }),
    ok(op('-', lt('10:30:00'), dur('PT30M')), ['10:00:00'], { never: TIME_WRAPS }),
    ok(op('-', lt('10:30:00'), lt('10:00:00')), ['PT30M'], { never: TIME_WRAPS }),
    ok(op('-', rd('P1M'), rd('P1D')), ['P1M-1D']),
    fails(op('-', rd(MIN_Y), rd(MAX_Y)), 'InvalidValueError'),
    ok(op('-', rd('P1M')), ['P-1M']),
    fails(op('-', rd('P-178956970Y-8M')), 'InvalidValueError'),
    ok(op('-', dd('P3D'), dd('P1D')), ['P2D']),
    fails(op('-', dd(MIN_Y), dd(MAX_Y)), 'InvalidValueError'),
    ok(op('-', dd('P3D')), ['P-3D']),
    fails(op('-', dd('P-178956970Y-8M')), 'InvalidValueError'),
    // local_date with a duration or relative_duration is a local_datetime (Gel's cal.edgeql).
    ok(op('+', ld('2024-01-31'), rd('P1M')), ['2024-02-29T00:00:00']),
    ok(op('+', ld('2024-01-31'), rd('P1DT2H')), ['2024-02-01T02:00:00']),
    fails(op('+', ld('9999-12-31'), rd('P1D')), 'InvalidValueError'),
    ok(op('+', rd('PT2H'), ld('2024-01-31')), ['2024-01-31T02:00:00']),
    fails(op('+', rd('P1D'), ld('9999-12-31')), 'InvalidValueError'),
    ok(op('+', ld('2024-01-31'), dur('PT25H')), ['2024-02-01T01:00:00']),
    fails(op('+', ld('9999-12-31'), dur('PT24H')), 'InvalidValueError'),
    ok(op('+', dur('PT1H'), ld('2024-01-31')), ['2024-01-31T01:00:00']),
    fails(op('+', dur('PT24H'), ld('9999-12-31')), 'InvalidValueError'),
    ok(op('-', ld('2024-03-31'), rd('P1M')), ['2024-02-29T00:00:00']),
    fails(op('-', ld('0001-01-01'), rd('P1D')), 'InvalidValueError'),
    ok(op('-', ld('2024-03-01'), dur('PT1H')), ['2024-02-29T23:00:00']),
    fails(op('-', ld('0001-01-01'), dur('PT1H')), 'InvalidValueError'),
    // duration with relative_duration is a relative_duration (out of range as above).
    ok(op('+', dur('PT1H'), rd('P1M')), ['P1MT1H']),
    fails(op('+', dur(MAX_H), rd(MAX_H)), 'InvalidValueError'),
    ok(op('+', rd('P1M'), dur('PT1H')), ['P1MT1H']),
    fails(op('+', rd(MAX_H), dur(MAX_H)), 'InvalidValueError'),
    ok(op('-', dur('PT1H'), rd('P1M')), ['P-1MT1H']),
    fails(op('-', dur(MIN_H), rd(MAX_H)), 'InvalidValueError'),
    ok(op('-', rd('P1M'), dur('PT1H')), ['P1MT-1H']),
    fails(op('-', rd(MIN_H), dur(MAX_H)), 'InvalidValueError'),
  ];
}

/** Indexing past either end or a missing key raises (items 7, 13); slices clamp. */
function indexing(): Row[] {
  const CLAMPS = 'slice bounds clamp to the value';
  return [
    ok(op('[]', `'abc'`, '1'), ['b']),
    ok(op('[]', `'abc'`, '-1'), ['c']),
    fails(op('[]', `'abc'`, '3'), 'InvalidValueError'),
    ok(op('[]', `b'abc'`, '1'), ['Yg==']),
    fails(op('[]', `b'abc'`, '-4'), 'InvalidValueError'),
    ok(op('[]', '[1, 2, 3]', '1'), [2]),
    fails(op('[]', '[1, 2, 3]', '5'), 'InvalidValueError'),
    ok(op('[]', `to_json('[1, "a"]')`, '1'), ['a']),
    fails(op('[]', `to_json('[1]')`, '1'), 'InvalidValueError'),
    ok(op('[]', `to_json('{"a": [1]}')`, `'a'`), [[1]]),
    fails(op('[]', `to_json('{"a": 1}')`, `'b'`), 'InvalidValueError'),
    ok(op('[:]', `'abcd'`, '1', '3'), ['bc'], { never: CLAMPS }),
    ok(op('[:]', `'abcd'`, '-2'), ['cd']),
    ok(op('[:]', `b'abcd'`, '_', '2'), ['YWI=']),
    ok(op('[:]', `b'abcd'`, '-10', '10'), ['YWJjZA=='], { never: CLAMPS }),
    ok(op('[:]', '[1, 2, 3]', '1'), [[2, 3]], { never: CLAMPS }),
    ok(op('[:]', '[1, 2, 3]', '5'), [[]]),
    ok(op('[:]', `to_json('[1, 2, 3]')`, '_', '-1'), [[1, 2]]),
    ok(op('[:]', `to_json('"abcd"')`, '1', '3'), ['bc']),
    fails(op('[:]', `to_json('{"a": 1}')`, '0', '1'), 'InvalidValueError'),
  ];
}

function others(): Row[] {
  const LOGIC = 'boolean logic is total';
  const PATTERN = 'every str is a valid pattern (`\\` escapes, a trailing one is literal)';
  const MEMBER = 'membership compares values of one type: total';
  return [
    ok(op('++', `'ab'`, `'c'`), ['abc'], { never: 'concatenation of two str' }),
    ok(op('++', `b'a'`, `b'b'`), ['YWI='], { never: 'concatenation of two bytes' }),
    ok(op('++', '[1]', '[2, 3]'), [[1, 2, 3]], { never: 'concatenation of two arrays' }),
    ok(op('++', `to_json('[1]')`, `to_json('[2]')`), [[1, 2]]),
    ok(op('++', `to_json('{"a": 1}')`, `to_json('{"b": 2}')`), [{ a: 1, b: 2 }]),
    ok(op('++', `to_json('"a"')`, `to_json('"b"')`), ['ab']),
    fails(op('++', `to_json('1')`, `to_json('{"a": 1}')`), 'InvalidValueError'),
    ok(op('and', 'true', 'false'), [false], { never: LOGIC }),
    ok(op('or', 'true', 'false'), [true], { never: LOGIC }),
    ok(op('not', 'true'), [false], { never: LOGIC }),
    ok(op('like', `'abc'`, `'a%'`), [true], { never: PATTERN }),
    ok(op('like', `'a%c'`, `'a\\\\%c'`), [true]),
    ok(op('ilike', `'ABC'`, `'a_c'`), [true], { never: PATTERN }),
    ok(op('not like', `'abc'`, `'b%'`), [true], { never: PATTERN }),
    ok(op('not ilike', `'ABC'`, `'a%'`), [false], { never: PATTERN }),
    ok(op('in', '2', '{1, 2}'), [true], { never: MEMBER }),
    ok(op('in', '3', '<int64>{}'), [false]),
    ok(op('not in', '3', '{1, 2}'), [true], { never: MEMBER }),
    ok(op('not in', '3', '<int64>{}'), [true]),
  ];
}

export const OPERATOR_ROWS: readonly Row[] = [
  ...comparisons(),
  ...arithmetic(),
  ...temporal(),
  ...indexing(),
  ...others(),
];
