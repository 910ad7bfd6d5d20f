/**
 * std/__tests__/sets.rows: aggregates and the set functions (count, sum, min, max, all, any,
 * array_agg, avg, math's mean / stddev / var, enumerate, assert_single / exists / distinct).
 * Empty input gives the identity (`empty:`), or for Gel's `error_on_null_result` aggregates
 * (math::mean, stddev, stddev_pop, var, var_pop) an InvalidValueError (`emptyError:`).
 */
import { f, fails, ok, type Row } from './harness';

const ANY_SET = 'defined for every set of its type';
const EXACT_SUM = 'arbitrary precision: no sum is out of range';
const WIDE_SUM = 'summed as int64: out of range only past 2^47 elements of the widest value';
const DURATION_SUM = 'durations sum as intervals: out of range only past 2^31 months';

export const SET_ROWS: readonly Row[] = [
  ok(f('std::count', '{1, 2, 2}'), [3], { never: ANY_SET, empty: [0] }),
  ok(f('std::min', `{'b', 'a', 'B'}`), ['B'], { never: ANY_SET }),
  ok(f('std::max', '{3, 1, 2}'), [3], { never: ANY_SET }),
  ok(f('std::all', '{true, false}'), [false], { never: ANY_SET, empty: [true] }),
  ok(f('std::any', '{true, false}'), [true], { never: ANY_SET, empty: [false] }),
  ok(f('std::array_agg', `{'a', 'b'}`), [['a', 'b']], { never: ANY_SET, empty: [[]] }),
  ok(f('std::sum', '{<int16>1, <int16>2}'), [3], { never: WIDE_SUM, empty: [0] }),
  ok(f('std::sum', '{<int32>1, <int32>2}'), [3], { never: WIDE_SUM, empty: [0] }),
  ok(f('std::sum', '{1, 2}'), [3], { empty: [0] }),
  fails(f('std::sum', '{9223372036854775807, 1}'), 'NumericOutOfRangeError'),
  ok(f('std::sum', '{<float32>1.5, <float32>2}'), [3.5], { empty: [0] }),
  fails(f('std::sum', '{<float32>3e38, <float32>3e38}'), 'NumericOutOfRangeError'),
  ok(f('std::sum', '{1.5, 2.0}'), [3.5], { empty: [0] }),
  fails(f('std::sum', '{1.7e308, 1.7e308}'), 'NumericOutOfRangeError'),
  ok(f('std::sum', '{1n, 2n}'), [3], { never: EXACT_SUM, empty: [0] }),
  ok(f('std::sum', '{1.5n, 2n}'), [3.5], { never: EXACT_SUM, empty: [0] }),
  ok(f('std::sum', `{<duration>'PT1H', <duration>'PT30M'}`), ['PT1H30M'], {
    never: DURATION_SUM,
    empty: ['PT0S'],
  }),
  ok(f('std::sum', `{<cal::relative_duration>'P1M', <cal::relative_duration>'P1D'}`), ['P1M1D'], {
    never: DURATION_SUM,
    empty: ['PT0S'],
  }),
  ok(f('std::sum', `{<cal::date_duration>'P1M', <cal::date_duration>'P1D'}`), ['P1M1D'], {
    never: DURATION_SUM,
    empty: ['P0D'],
  }),
  ok(f('std::avg', '{1, 2}'), [1.5], { never: ANY_SET }),
  ok(f('std::avg', '{1.0, 2.0}'), [1.5], { never: ANY_SET }),
  ok(f('std::avg', '{1n, 2.0n}'), [1.5], { never: ANY_SET }),
  ...(['int64', 'float64', 'decimal'] as const).flatMap((t): Row[] => {
    const set = (...xs: number[]) => `{${xs.map((x) => `<${t}>${x}`).join(', ')}}`;
    const emptyError = 'InvalidValueError' as const;
    return [
      ok(f('math::mean', set(1, 2, 3, 6)), [3], { emptyError }),
      ok(f('math::stddev', set(2, 4)), [Math.SQRT2], { emptyError }),
      fails(f('math::stddev', set(2)), 'InvalidValueError'),
      ok(f('math::stddev_pop', set(2, 4)), [1], { emptyError }),
      ok(f('math::var', set(2, 4)), [2], { emptyError }),
      fails(f('math::var', set(2)), 'InvalidValueError'),
      ok(f('math::var_pop', set(2, 4)), [1], { emptyError }),
    ];
  }),
  ok(
    f('std::enumerate', `{'a', 'b'}`),
    [
      [0, 'a'],
      [1, 'b'],
    ],
    { never: ANY_SET },
  ),
  ok(f('std::assert', 'true'), [true]),
  ok(f('std::assert', `1 < 2`, `message := 'no'`), [true]),
  fails(f('std::assert', 'false'), 'InvalidValueError'),
  ok(f('std::assert_single', '{1}'), [1]),
  fails(f('std::assert_single', '{1, 2}'), 'CardinalityViolationError'),
  ok(f('std::assert_exists', '{1, 2}'), [1, 2], { emptyError: 'CardinalityViolationError' }),
  fails(f('std::assert_exists', '<int64>{}'), 'CardinalityViolationError'),
  ok(f('std::assert_distinct', '{1, 2}'), [1, 2]),
  fails(f('std::assert_distinct', '{1, 1}'), 'ConstraintViolationError'),
];
