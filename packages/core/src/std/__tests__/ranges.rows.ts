/**
 * std/__tests__/ranges.rows: the range constructor and functions. Failing inputs: bounds in the wrong
 * order or conflicting with `empty := true`, unpacking an unbounded range: InvalidValueError.
 */
import { f, fails, ok, type Row } from './harness';

const TOTAL = 'defined for every range';
const range = (lower: unknown, upper: unknown, incLower = true, incUpper = false) => ({
  lower,
  upper,
  inc_lower: incLower,
  inc_upper: incUpper,
});

export const RANGE_ROWS: readonly Row[] = [
  ok(f('std::range', '1', '5'), [range(1, 5)]),
  ok(f('std::range', '1', '5', 'inc_upper := true'), [range(1, 6)]),
  fails(f('std::range', '5', '1'), 'InvalidValueError'),
  fails(f('std::range', '1', '5', 'empty := true'), 'InvalidValueError'),
  ok(f('std::range_unpack', 'range(1, 4)'), [1, 2, 3]),
  ok(
    f('std::range_unpack', `range(<cal::local_date>'2024-01-30', <cal::local_date>'2024-02-01')`),
    ['2024-01-30', '2024-01-31'],
  ),
  fails(f('std::range_unpack', 'range(1)'), 'InvalidValueError'),
  ok(f('std::range_unpack', 'range(<int32>1, <int32>6)', '<int32>2'), [1, 3, 5]),
  fails(f('std::range_unpack', 'range(<int32>1)', '<int32>2'), 'InvalidValueError'),
  ok(f('std::range_unpack', 'range(1, 6)', '2'), [1, 3, 5]),
  fails(f('std::range_unpack', 'range(<int64>{}, 6)', '2'), 'InvalidValueError'),
  ok(f('std::range_unpack', 'range(<float32>1, <float32>2)', '<float32>0.5'), [1, 1.5]),
  fails(f('std::range_unpack', 'range(<float32>1)', '<float32>0.5'), 'InvalidValueError'),
  ok(f('std::range_unpack', 'range(1.0, 2.0)', '0.5'), [1, 1.5]),
  fails(f('std::range_unpack', 'range(1.0)', '0.5'), 'InvalidValueError'),
  ok(f('std::range_unpack', 'range(1.0n, 2.0n)', '0.5n'), [1, 1.5]),
  fails(f('std::range_unpack', 'range(1.0n)', '0.5n'), 'InvalidValueError'),
  ok(
    f(
      'std::range_unpack',
      `range(<datetime>'2024-01-01T00:00:00Z', <datetime>'2024-01-01T02:00:00Z')`,
      `<duration>'PT1H'`,
    ),
    ['2024-01-01T00:00:00+00:00', '2024-01-01T01:00:00+00:00'],
  ),
  fails(
    f('std::range_unpack', `range(<datetime>'2024-01-01T00:00:00Z')`, `<duration>'PT1H'`),
    'InvalidValueError',
  ),
  ok(
    f(
      'std::range_unpack',
      `range(<cal::local_datetime>'2024-01-01T00:00:00', <cal::local_datetime>'2024-03-01T00:00:00')`,
      `<cal::relative_duration>'P1M'`,
    ),
    ['2024-01-01T00:00:00', '2024-02-01T00:00:00'],
  ),
  fails(
    f(
      'std::range_unpack',
      `range(<cal::local_datetime>'2024-01-01T00:00:00')`,
      `<cal::relative_duration>'P1M'`,
    ),
    'InvalidValueError',
  ),
  ok(
    f(
      'std::range_unpack',
      `range(<cal::local_date>'2024-01-01', <cal::local_date>'2024-01-05')`,
      `<cal::date_duration>'P2D'`,
    ),
    ['2024-01-01', '2024-01-03'],
  ),
  fails(
    f('std::range_unpack', `range(<cal::local_date>'2024-01-01')`, `<cal::date_duration>'P2D'`),
    'InvalidValueError',
  ),
  ok(f('std::range_get_lower', 'range(1, 5)'), [1], { never: TOTAL }),
  ok(f('std::range_get_lower', 'range(<int64>{}, 5)'), []),
  ok(f('std::range_get_upper', 'range(1, 5)'), [5], { never: TOTAL }),
  ok(f('std::range_is_inclusive_lower', 'range(1, 5)'), [true], { never: TOTAL }),
  ok(f('std::range_is_inclusive_upper', 'range(1, 5)'), [false], { never: TOTAL }),
  ok(f('std::range_is_empty', 'range(1, 1)'), [true], { never: TOTAL }),
  ok(f('std::overlaps', 'range(1, 5)', 'range(4, 8)'), [true], { never: TOTAL }),
  ok(f('std::contains', 'range(1, 5)', 'range(2, 3)'), [true], { never: TOTAL }),
  ok(f('std::contains', 'range(1, 5)', '5'), [false], { never: TOTAL }),
];
