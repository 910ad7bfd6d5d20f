/**
 * std/__tests__/math.rows: numbers (round, abs, ceil, floor, sqrt, ln, lg, log, exp, trigonometry),
 * bitwise functions, the generators (random, math::pi, math::e, uuid_generate_*) and sequences
 * (sequence_next / sequence_reset), and Gel's test-mode `_gen_series`.
 * Failing inputs: outside the function's domain (sqrt / ln / lg of negatives, log base 1, asin
 * past ±1, trigonometry of infinity), a result out of range (abs of the least int, exp of a
 * large number), a negative shift, a sequence reset below its minimum or advanced past its
 * maximum: InvalidValueError or its subclasses.
 */
import { f, fails, ok, type Row } from './harness';

const TOTAL = 'defined for every value of its argument types';
const GENERATOR = 'takes no input';

function abs(name: string): Row[] {
  return [
    ok(f(name, '<int16>-3'), [3]),
    fails(f(name, '<int16>-32768'), 'NumericOutOfRangeError'),
    ok(f(name, '<int32>-3'), [3]),
    fails(f(name, '<int32>-2147483648'), 'NumericOutOfRangeError'),
    ok(f(name, '<int64>-3'), [3]),
    fails(f(name, '(-9223372036854775807 - 1)'), 'NumericOutOfRangeError'),
    ok(f(name, '<float32>-1.5'), [1.5], { never: TOTAL }),
    ok(f(name, '<float64>-1.5'), [1.5], { never: TOTAL }),
    ok(f(name, '<bigint>-3'), [3], { never: TOTAL }),
    ok(f(name, '<decimal>-1.5'), [1.5], { never: TOTAL }),
  ];
}

function unaryReal(
  name: string,
  int64: unknown,
  float64: unknown,
  decimal: unknown,
  arg: number,
): Row[] {
  return [
    ok(f(name, `<int64>${arg}`), [int64]),
    ok(f(name, `<float64>${arg}`), [float64]),
    ok(f(name, `<decimal>${arg}`), [decimal]),
  ];
}

export const MATH_ROWS: readonly Row[] = [
  ok(f('std::round', '<int64>7'), [7], { never: 'the identity on integers' }),
  ok(f('std::round', '<float64>2.5'), [2], { never: TOTAL }),
  ok(f('std::round', '<bigint>7'), [7], { never: 'the identity on integers' }),
  ok(f('std::round', '<decimal>2.5'), [3], { never: TOTAL }),
  ok(f('std::round', '<decimal>1.2345', '2'), [1.23]),
  fails(f('std::round', '<decimal>1.5', '9223372036854775807'), 'NumericOutOfRangeError'),
  ...abs('math::abs'),
  ...abs('std::abs'),
  ok(f('math::ceil', '<int64>2'), [2], { never: TOTAL }),
  ok(f('math::ceil', '<float64>2.1'), [3], { never: TOTAL }),
  ok(f('math::ceil', '<bigint>2'), [2], { never: TOTAL }),
  ok(f('math::ceil', '<decimal>2.1'), [3], { never: TOTAL }),
  ok(f('math::floor', '<int64>2'), [2], { never: TOTAL }),
  ok(f('math::floor', '<float64>-2.1'), [-3], { never: TOTAL }),
  ok(f('math::floor', '<bigint>2'), [2], { never: TOTAL }),
  ok(f('math::floor', '<decimal>-2.1'), [-3], { never: TOTAL }),
  ...unaryReal('math::sqrt', 3, 3, 3, 9),
  fails(f('math::sqrt', '<int64>-1'), 'InvalidValueError'),
  fails(f('math::sqrt', '<float64>-1'), 'InvalidValueError'),
  fails(f('math::sqrt', '<decimal>-1'), 'InvalidValueError'),
  ...unaryReal('math::ln', 0, 0, 0, 1),
  fails(f('math::ln', '<int64>0'), 'InvalidValueError'),
  fails(f('math::ln', '<float64>-1'), 'InvalidValueError'),
  fails(f('math::ln', '<decimal>0'), 'InvalidValueError'),
  ...unaryReal('math::lg', 2, 2, 2, 100),
  fails(f('math::lg', '<int64>0'), 'InvalidValueError'),
  fails(f('math::lg', '<float64>-1'), 'InvalidValueError'),
  fails(f('math::lg', '<decimal>0'), 'InvalidValueError'),
  ...unaryReal('math::exp', 1, 1, 1, 0),
  fails(f('math::exp', '<int64>1000'), 'NumericOutOfRangeError'),
  fails(f('math::exp', '<float64>1000'), 'NumericOutOfRangeError'),
  fails(f('math::exp', '<decimal>1000000'), 'NumericOutOfRangeError'),
  ok(f('math::log', '<decimal>8', 'base := <decimal>2'), [3]),
  fails(f('math::log', '<decimal>8', 'base := <decimal>1'), 'DivisionByZeroError'),
  ok(f('math::sin', '0.0'), [0]),
  fails(f('math::sin', `<float64>'inf'`), 'InvalidValueError'),
  ok(f('math::cos', '0.0'), [1]),
  fails(f('math::cos', `<float64>'inf'`), 'InvalidValueError'),
  ok(f('math::tan', '0.0'), [0]),
  fails(f('math::tan', `<float64>'inf'`), 'InvalidValueError'),
  ok(f('math::cot', '1.0'), [1 / Math.tan(1)]),
  fails(f('math::cot', `<float64>'inf'`), 'InvalidValueError'),
  ok(f('math::asin', '1.0'), [Math.PI / 2]),
  fails(f('math::asin', '2.0'), 'InvalidValueError'),
  ok(f('math::acos', '1.0'), [0]),
  fails(f('math::acos', '2.0'), 'InvalidValueError'),
  ok(f('math::atan', '1.0'), [Math.PI / 4], { never: TOTAL }),
  ok(f('math::atan2', '1.0', '1.0'), [Math.PI / 4], { never: TOTAL }),
  // _gen_series: Gel's test-mode series; a step of zero is refused.
  ok(f('std::_gen_series', '1', '4'), [1, 2, 3, 4], { never: 'an empty series when start > stop' }),
  ok(f('std::_gen_series', '1', '6', '2'), [1, 3, 5]),
  fails(f('std::_gen_series', '1', '6', '0'), 'InvalidValueError'),
  ok(f('std::_gen_series', '1n', '3n'), [1, 2, 3], { never: 'an empty series when start > stop' }),
  ok(f('std::_gen_series', '3n', '1n', '-1n'), [3, 2, 1]),
  fails(f('std::_gen_series', '1n', '6n', '0n'), 'InvalidValueError'),
  ok(f('math::pi'), [Math.PI], { never: GENERATOR }),
  ok(f('math::e'), [Math.E], { never: GENERATOR }),
  ok(f('std::random'), ['<any>'], { never: GENERATOR }),
  ok(f('std::uuid_generate_v4'), ['<uuid>'], { never: GENERATOR }),
  ok(f('std::uuid_generate_v1mc'), ['<uuid>'], { never: GENERATOR }),
  ok(f('std::uuid_generate_v7'), ['<uuid>'], { never: GENERATOR }),
  // Sequences (harness STD_TEST_SDL), one per row whose result depends on its state: the ok rows
  // run in one batch before the failing ones, so Spent is at int64's maximum when
  // `sequence_next(introspect Spent)` runs. Counter: resets (Gel's sequence.rst: reset gives the
  // start, 1; a value below the sequence's minimum, 1, is out of range); Ticket: next, fresh.
  ok(f('std::sequence_next', 'introspect Ticket'), [1]),
  ok(f('std::sequence_reset', 'introspect Counter'), [1], {
    never: "resets to the sequence's own start value, always within its bounds",
  }),
  ok(f('std::sequence_reset', 'introspect Counter', '22'), [22]),
  fails(f('std::sequence_reset', 'introspect Counter', '0'), 'NumericOutOfRangeError'),
  // int64's maximum, as the JSON result parses (a double).
  ok(f('std::sequence_reset', 'introspect Spent', '9223372036854775807'), [2 ** 63]),
  fails(f('std::sequence_next', 'introspect Spent'), 'InvalidValueError'),
  ...(['int16', 'int32', 'int64'] as const).flatMap((t): Row[] => {
    const v = (n: number) => `<${t}>${n}`;
    return [
      ok(f('std::bit_and', v(12), v(10)), [8], { never: TOTAL }),
      ok(f('std::bit_or', v(12), v(10)), [14], { never: TOTAL }),
      ok(f('std::bit_xor', v(12), v(10)), [6], { never: TOTAL }),
      ok(f('std::bit_not', v(0)), [-1], { never: TOTAL }),
      ok(f('std::bit_lshift', v(1), '3'), [8]),
      fails(f('std::bit_lshift', v(1), '-1'), 'InvalidValueError'),
      ok(f('std::bit_rshift', v(8), '3'), [1]),
      fails(f('std::bit_rshift', v(8), '-1'), 'InvalidValueError'),
      ok(f('std::bit_count', v(7)), [3], { never: TOTAL }),
    ];
  }),
];
