/**
 * std/__tests__/samples: two ordered values of every std scalar and of the polymorphic kinds (enum,
 * array, tuple, range, multirange), as EdgeQL text with their JSON result form: `lo` < `hi`.
 */
export interface Sample {
  /** The type as EdgeQL names it. */
  readonly type: string;
  readonly lo: string;
  readonly hi: string;
  readonly loJson: unknown;
  readonly hiJson: unknown;
}

const s = (type: string, lo: string, hi: string, loJson: unknown, hiJson: unknown): Sample => ({
  type,
  lo,
  hi,
  loJson,
  hiJson,
});

export const SCALAR_SAMPLES: readonly Sample[] = [
  s('std::str', `'a'`, `'b'`, 'a', 'b'),
  s('std::bool', 'false', 'true', false, true),
  s('std::int16', '<int16>1', '<int16>2', 1, 2),
  s('std::int32', '<int32>1', '<int32>2', 1, 2),
  s('std::int64', '1', '2', 1, 2),
  s('std::float32', '<float32>1.5', '<float32>2.5', 1.5, 2.5),
  s('std::float64', '1.5', '2.5', 1.5, 2.5),
  s('std::bigint', '1n', '2n', 1, 2),
  s('std::decimal', '1.5n', '2.5n', 1.5, 2.5),
  s(
    'std::uuid',
    `<uuid>'00000000-0000-0000-0000-000000000001'`,
    `<uuid>'00000000-0000-0000-0000-000000000002'`,
    '00000000-0000-0000-0000-000000000001',
    '00000000-0000-0000-0000-000000000002',
  ),
  s('std::json', `to_json('1')`, `to_json('2')`, 1, 2),
  s('std::bytes', `b'a'`, `b'b'`, 'YQ==', 'Yg=='),
  s(
    'std::datetime',
    `<datetime>'2024-01-01T00:00:00Z'`,
    `<datetime>'2024-01-02T00:00:00Z'`,
    '2024-01-01T00:00:00+00:00',
    '2024-01-02T00:00:00+00:00',
  ),
  s('std::duration', `<duration>'PT1H'`, `<duration>'PT2H'`, 'PT1H', 'PT2H'),
  s(
    'cal::local_datetime',
    `<cal::local_datetime>'2024-01-01T00:00:00'`,
    `<cal::local_datetime>'2024-01-02T00:00:00'`,
    '2024-01-01T00:00:00',
    '2024-01-02T00:00:00',
  ),
  s(
    'cal::local_date',
    `<cal::local_date>'2024-01-01'`,
    `<cal::local_date>'2024-01-02'`,
    '2024-01-01',
    '2024-01-02',
  ),
  s(
    'cal::local_time',
    `<cal::local_time>'10:00:00'`,
    `<cal::local_time>'11:00:00'`,
    '10:00:00',
    '11:00:00',
  ),
  s(
    'cal::relative_duration',
    `<cal::relative_duration>'PT1H'`,
    `<cal::relative_duration>'PT2H'`,
    'PT1H',
    'PT2H',
  ),
  s('cal::date_duration', `<cal::date_duration>'P1D'`, `<cal::date_duration>'P2D'`, 'P1D', 'P2D'),
];

/** The polymorphic kinds the comparison operators take (`anyenum`, arrays, tuples, ranges,
 * multiranges). */
export const POLY_SAMPLES: readonly Sample[] = [
  s('default::Color', `<Color>'Red'`, `<Color>'Green'`, 'Red', 'Green'),
  s('array<std::int64>', '[1, 2]', '[1, 3]', [1, 2], [1, 3]),
  s('tuple<std::int64, std::str>', `(1, 'a')`, `(1, 'b')`, [1, 'a'], [1, 'b']),
  s(
    'range<std::int64>',
    'range(1, 5)',
    'range(2, 5)',
    { lower: 1, upper: 5, inc_lower: true, inc_upper: false },
    { lower: 2, upper: 5, inc_lower: true, inc_upper: false },
  ),
  // Multiranges order range by range (Gel's std/31-rangefuncs, as PostgreSQL's).
  s(
    'multirange<std::int64>',
    'multirange([range(1, 3), range(5, 7)])',
    'multirange([range(1, 3), range(6, 7)])',
    [
      { lower: 1, upper: 3, inc_lower: true, inc_upper: false },
      { lower: 5, upper: 7, inc_lower: true, inc_upper: false },
    ],
    [
      { lower: 1, upper: 3, inc_lower: true, inc_upper: false },
      { lower: 6, upper: 7, inc_lower: true, inc_upper: false },
    ],
  ),
];

export const sample = (type: string): Sample => {
  const found = [...SCALAR_SAMPLES, ...POLY_SAMPLES].find((x) => x.type === type);
  if (!found) throw new Error(`no sample for ${type}`);
  return found;
};
