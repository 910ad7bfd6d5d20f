/**
 * std/__tests__/ranges.rows: the range and multirange constructors and functions, and `+`, `-`, `*`
 * on ranges and multiranges (their comparisons are operators.rows' over samples.ts). Expected
 * values are Gel's documented ones (docs/reference/stdlib/range.rst). Failing inputs: bounds in
 * the wrong order or conflicting with `empty := true`, unpacking an unbounded range, a union or
 * difference of two ranges that is not one range: InvalidValueError.
 */
import { f, fails, ok, op, type Row } from './harness';

const TOTAL = 'defined for every range';
const MULTI = 'ranges normalise to a multirange: total';
const range = (lower: unknown, upper: unknown, incLower = true, incUpper = false) => ({
  lower,
  upper,
  inc_lower: incLower,
  inc_upper: incUpper,
});

const mr = (...ranges: string[]) => `multirange([${ranges.join(', ')}])`;
const EMPTY_MR = 'multirange(<array<range<int64>>>[])';

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
  ...multiranges(),
  ...predicates(),
  ...setOperators(),
];

function multiranges(): Row[] {
  return [
    ok(
      f('std::multirange', '[range(8, 10), range(1, 4), range(2, 5)]'),
      [[range(1, 5), range(8, 10)]],
      { never: MULTI },
    ),
    ok(f('std::multirange', '<array<range<int64>>>[]'), [[]]),
    ok(
      f('std::multirange_unpack', mr('range(1, 4)', 'range(7)', 'range(3, 5)')),
      [range(1, 5), range(7, null)],
      { never: TOTAL },
    ),
    ok(f('std::multirange_unpack', EMPTY_MR), []),
    ok(f('std::range_get_lower', mr('range(5, 10)', 'range(2, 3)')), [2], { never: TOTAL }),
    ok(f('std::range_get_upper', mr('range(5, 10)', 'range(2, 3)')), [10], { never: TOTAL }),
    ok(f('std::range_get_lower', mr('range(1.5, 7.5)')), [1.5]),
    ok(f('std::range_is_inclusive_lower', mr('range(2, 3)', 'range(5, 10)')), [true], {
      never: TOTAL,
    }),
    ok(
      f(
        'std::range_is_inclusive_upper',
        mr('range(2.0, 3.0)', 'range(5.0, 10.0, inc_upper := true)'),
      ),
      [true],
      { never: TOTAL },
    ),
    ok(f('std::range_is_empty', EMPTY_MR), [true], { never: TOTAL }),
    ok(f('std::range_is_empty', mr('range(1, 10)')), [false]),
    ok(
      f('std::overlaps', mr('range(1, 4)', 'range(7)'), mr('range(-1, 2)', 'range(8, 10)')),
      [true],
      { never: TOTAL },
    ),
    ok(f('std::overlaps', mr('range(1, 4)', 'range(7)'), mr('range(-1, 1)', 'range(5, 6)')), [
      false,
    ]),
    ok(
      f('std::contains', mr('range(1, 4)', 'range(7)'), mr('range(1, 2)', 'range(8, 10)')),
      [true],
      { never: TOTAL },
    ),
    ok(f('std::contains', mr('range(1, 4)', 'range(7)'), 'range(2, 3)'), [true], {
      never: TOTAL,
    }),
    ok(f('std::contains', mr('range(1, 4)', 'range(7)'), '8'), [true], { never: TOTAL }),
    ok(f('std::contains', mr('range(1, 4)', 'range(7)'), '5'), [false]),
    ok(f('std::contains', mr('range(1.0, 4.0)'), '2.0'), [true]),
    // Gel's example: an empty multirange orders before any other.
    ok(op('<', EMPTY_MR, mr('range(7, 10)', 'range(20)')), [true]),
    ok(op('>', mr('range(2, 4)', 'range(5, 7)'), mr('range(7, 10)', 'range(20)')), [false]),
    ok(op('=', mr('range(2, 4)', 'range(5, 7)'), mr('range(5, 7)', 'range(2, 4)')), [true]),
  ];
}

/** strictly_above / below, bounded_above / below, adjacent: Gel's documented examples. */
function predicates(): Row[] {
  const never = { never: TOTAL };
  return [
    ok(f('std::strictly_above', 'range(7)', 'range(1, 5)'), [true], never),
    ok(f('std::strictly_above', 'range(3, 7)', 'range(1, 5)'), [false]),
    ok(
      f(
        'std::strictly_above',
        mr('range(2, 4)', 'range(5, 7)'),
        mr('range(-5, -2)', 'range(-1, 1)'),
      ),
      [true],
      never,
    ),
    ok(f('std::strictly_below', 'range(1, 3)', 'range(7)'), [true], never),
    ok(f('std::strictly_below', 'range(1, 7)', 'range(3)'), [false]),
    ok(
      f('std::strictly_below', mr('range(-1, 0)', 'range(-5, -3)'), mr('range(1, 4)', 'range(7)')),
      [true],
      never,
    ),
    ok(f('std::bounded_above', 'range(1, 7)', 'range(3, 7)'), [true], never),
    ok(f('std::bounded_above', 'range(1, 7)', 'range(3, 6)'), [false]),
    ok(
      f('std::bounded_above', mr('range(-1, 0)', 'range(5, 7)'), mr('range(1, 2)', 'range(3, 7)')),
      [true],
      never,
    ),
    ok(f('std::bounded_below', 'range(1, 7)', 'range(0, 6)'), [true], never),
    ok(f('std::bounded_below', 'range(1, 7)', 'range(3, 6)'), [false]),
    ok(
      f('std::bounded_below', mr('range(-1, 0)', 'range(5, 7)'), mr('range(1, 2)', 'range(3, 7)')),
      [false],
      never,
    ),
    ok(f('std::adjacent', 'range(1, 3)', 'range(3, 4)'), [true], never),
    ok(f('std::adjacent', 'range(1.0, 3.0, inc_upper := true)', 'range(3.0, 4.0)'), [false]),
    ok(
      f('std::adjacent', mr('range(2, 4)', 'range(5, 7)'), mr('range(7, 10)', 'range(20)')),
      [true],
      never,
    ),
    // A range converts to a multirange implicitly.
    ok(f('std::adjacent', 'range(7)', mr('range(1, 2)', 'range(3, 7)')), [true]),
  ];
}

/** Union, difference, intersection: of two ranges only when the result is one range. */
function setOperators(): Row[] {
  return [
    ok(op('+', 'range(1, 10)', 'range(5, 15)'), [range(1, 15)]),
    ok(op('+', 'range(1, 10)', 'range(5)'), [range(1, null)]),
    fails(op('+', 'range(1, 3)', 'range(5, 7)'), 'InvalidValueError'),
    ok(op('-', 'range(1, 10)', 'range(5, 15)'), [range(1, 5)]),
    ok(op('-', 'range(1, 10)', 'range(<int64>{}, 5)'), [range(5, 10)]),
    ok(op('-', 'range(1, 10)', 'range(0, 15)'), [{ empty: true }]),
    fails(op('-', 'range(1, 10)', 'range(4, 6)'), 'InvalidValueError'),
    ok(op('*', 'range(1, 10)', 'range(5, 15)'), [range(5, 10)], {
      never: 'the intersection of two ranges is a range (maybe empty)',
    }),
    ok(op('*', 'range(10)', 'range(<int64>{}, 1)'), [{ empty: true }]),
    ok(
      op('+', mr('range(2, 4)', 'range(5, 8)'), mr('range(6, 10)', 'range(20)')),
      [[range(2, 4), range(5, 10), range(20, null)]],
      { never: 'the union of two multiranges is a multirange' },
    ),
    ok(op('+', 'range(1, 3)', mr('range(7, 10)', 'range(20)')), [
      [range(1, 3), range(7, 10), range(20, null)],
    ]),
    ok(
      op('-', mr('range(1, 10)'), mr('range(2, 3)', 'range(5, 6)', 'range(9)')),
      [[range(1, 2), range(3, 5), range(6, 9)]],
      { never: 'the difference of two multiranges is a multirange' },
    ),
    ok(op('-', mr('range(1, 10)'), 'range(4, 6)'), [[range(1, 4), range(6, 10)]]),
    ok(
      op('*', mr('range(1, 10)'), mr('range(0, 3)', 'range(5, 6)', 'range(9)')),
      [[range(1, 3), range(5, 6), range(9, 10)]],
      { never: 'the intersection of two multiranges is a multirange' },
    ),
    ok(
      op('*', mr('range(2, 3)', 'range(5, 6)', 'range(9, 10)'), mr('range(-10, 0)', 'range(4, 8)')),
      [[range(5, 6)]],
    ),
  ];
}
