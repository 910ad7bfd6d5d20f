/**
 * std/__tests__/datetime.rows: datetime, duration and cal functions. Failing inputs: text that is not
 * the type's ISO form or does not match `fmt`, a format for a datetime without a zone, an unknown
 * time zone, an impossible date or time, a result outside years 1-9999 (Gel's range), an
 * argument past int32 (the SQL forms' `::integer`), an element or unit the type does not have.
 */
import { f, fails, ok, type Row } from './harness';

const NOW = 'takes no input';
const NORMALIZE = 'moves units between fields: total';
const dt = `<datetime>'2024-02-03T04:05:06Z'`;
const ldt = `<cal::local_datetime>'2024-02-03T04:05:06'`;
const ld = `<cal::local_date>'2024-02-03'`;
const lt = `<cal::local_time>'04:05:06'`;
const dur = `<duration>'PT1H30M'`;
const BIG = '9223372036854775807';

export const DATETIME_ROWS: readonly Row[] = [
  ok(f('std::to_datetime', `'2024-02-03T04:05:06+01:00'`), ['2024-02-03T03:05:06+00:00']),
  fails(f('std::to_datetime', `'2024-02-03'`), 'InvalidValueError'),
  ok(f('std::to_datetime', `'2024-02-03 +02'`, `'YYYY-MM-DD TZH'`), ['2024-02-02T22:00:00+00:00']),
  fails(f('std::to_datetime', `'2024-02-03'`, `'YYYY-MM-DD'`), 'InvalidValueError'),
  ok(f('std::to_datetime', ldt, `'Europe/Paris'`), ['2024-02-03T03:05:06+00:00']),
  fails(f('std::to_datetime', ldt, `'Nowhere/Zone'`), 'InvalidValueError'),
  ok(f('std::to_datetime', '2024', '2', '3', '4', '5', '6.5', `'UTC'`), [
    '2024-02-03T04:05:06.5+00:00',
  ]),
  fails(f('std::to_datetime', '2024', '13', '3', '4', '5', '6.5', `'UTC'`), 'InvalidValueError'),
  ok(f('std::to_datetime', '<float64>1.5'), ['1970-01-01T00:00:01.5+00:00']),
  fails(f('std::to_datetime', '<float64>999999999999'), 'InvalidValueError'),
  ok(f('std::to_datetime', '<int64>86400'), ['1970-01-02T00:00:00+00:00']),
  fails(f('std::to_datetime', '<int64>999999999999'), 'InvalidValueError'),
  ok(f('std::to_datetime', '<decimal>0.5'), ['1970-01-01T00:00:00.5+00:00']),
  fails(f('std::to_datetime', '<decimal>999999999999'), 'InvalidValueError'),
  ok(f('std::to_duration', 'hours := 1', 'minutes := 30'), ['PT1H30M']),
  fails(f('std::to_duration', `hours := ${BIG}`), 'InvalidValueError'),
  ok(f('cal::to_local_datetime', `'2024-02-03T04:05:06'`), ['2024-02-03T04:05:06']),
  fails(f('cal::to_local_datetime', `'2024-02-03T04:05:06Z'`), 'InvalidValueError'),
  ok(f('cal::to_local_datetime', `'03/02/2024'`, `'DD/MM/YYYY'`), ['2024-02-03T00:00:00']),
  fails(f('cal::to_local_datetime', `'x'`, `'DD/MM/YYYY'`), 'InvalidValueError'),
  ok(f('cal::to_local_datetime', dt, `'Europe/Paris'`), ['2024-02-03T05:05:06']),
  fails(f('cal::to_local_datetime', dt, `'Nowhere/Zone'`), 'InvalidValueError'),
  ok(f('cal::to_local_datetime', '2024', '2', '3', '4', '5', '6.0'), ['2024-02-03T04:05:06']),
  fails(f('cal::to_local_datetime', '2024', '2', '30', '4', '5', '6.0'), 'InvalidValueError'),
  ok(f('cal::to_local_date', `'2024-02-03'`), ['2024-02-03']),
  fails(f('cal::to_local_date', `'2024-02-30'`), 'InvalidValueError'),
  ok(f('cal::to_local_date', `'03/02/2024'`, `'DD/MM/YYYY'`), ['2024-02-03']),
  fails(f('cal::to_local_date', `'x'`, `'DD/MM/YYYY'`), 'InvalidValueError'),
  ok(f('cal::to_local_date', dt, `'Asia/Tokyo'`), ['2024-02-03']),
  fails(f('cal::to_local_date', dt, `'Nowhere/Zone'`), 'InvalidValueError'),
  ok(f('cal::to_local_date', '2024', '2', '3'), ['2024-02-03']),
  fails(f('cal::to_local_date', '2024', '2', '30'), 'InvalidValueError'),
  ok(f('cal::to_local_time', `'04:05:06'`), ['04:05:06']),
  fails(f('cal::to_local_time', `'25:00'`), 'InvalidValueError'),
  ok(f('cal::to_local_time', `'4 pm'`, `'HH AM'`), ['16:00:00']),
  fails(f('cal::to_local_time', `'x'`, `'HH AM'`), 'InvalidValueError'),
  ok(f('cal::to_local_time', dt, `'Europe/Paris'`), ['05:05:06']),
  fails(f('cal::to_local_time', dt, `'Nowhere/Zone'`), 'InvalidValueError'),
  ok(f('cal::to_local_time', '4', '5', '6.5'), ['04:05:06.5']),
  fails(f('cal::to_local_time', '25', '5', '6.5'), 'InvalidValueError'),
  ok(f('cal::to_relative_duration', 'years := 1', 'days := 2'), ['P1Y2D']),
  fails(f('cal::to_relative_duration', `years := ${BIG}`), 'InvalidValueError'),
  ok(f('cal::to_date_duration', 'months := 1', 'days := 2'), ['P1M2D']),
  fails(f('cal::to_date_duration', `days := ${BIG}`), 'InvalidValueError'),
  ok(f('std::datetime_current'), ['<datetime>'], { never: NOW }),
  ok(f('std::datetime_of_statement'), ['<datetime>'], { never: NOW }),
  ok(f('std::datetime_of_transaction'), ['<datetime>'], { never: NOW }),
  ok(f('std::datetime_get', dt, `'month'`), [2]),
  fails(f('std::datetime_get', dt, `'fortnight'`), 'InvalidValueError'),
  ok(f('std::datetime_truncate', dt, `'days'`), ['2024-02-03T00:00:00+00:00']),
  fails(f('std::datetime_truncate', dt, `'fortnight'`), 'InvalidValueError'),
  ok(f('std::duration_to_seconds', dur), [5400], {
    never: 'every duration has a length in seconds',
  }),
  ok(f('std::duration_get', dur, `'minutes'`), [30]),
  fails(f('std::duration_get', dur, `'fortnight'`), 'InvalidValueError'),
  ok(f('std::duration_truncate', dur, `'hours'`), ['PT1H']),
  fails(f('std::duration_truncate', dur, `'days'`), 'InvalidValueError'),
  // Gel's documented and tested values (datetime.rst, test_edgeql_functions duration_get /
  // duration_truncate / datetime_get); a unit the type does not have: InvalidValueError.
  ok(
    f('std::datetime_get', `<cal::local_datetime>'2018-05-07T15:01:22.306916'`, `'epochseconds'`),
    [1525705282.306916],
  ),
  ok(f('std::datetime_get', `<cal::local_datetime>'2018-05-07T15:01:22.306916'`, `'doy'`), [127]),
  fails(f('std::datetime_get', ldt, `'timezone_hour'`), 'InvalidValueError'),
  ok(f('std::duration_get', `<cal::relative_duration>'400 months'`, `'year'`), [33]),
  ok(
    f('std::duration_get', `<cal::relative_duration>'1 month 20 days 30 hours'`, `'totalseconds'`),
    [4428000],
  ),
  fails(f('std::duration_get', `<cal::relative_duration>'PT1H'`, `'epoch'`), 'InvalidValueError'),
  ok(f('std::duration_get', `<cal::date_duration>'400 months'`, `'month'`), [4]),
  ok(f('std::duration_get', `<cal::date_duration>'13 months 12 days'`, `'day'`), [12]),
  ok(f('std::duration_get', `<cal::date_duration>'2 days'`, `'totalseconds'`), [172800]),
  fails(f('std::duration_get', `<cal::date_duration>'2 days'`, `'hour'`), 'InvalidValueError'),
  ok(f('std::duration_truncate', `<cal::relative_duration>'400 months'`, `'years'`), ['P33Y']),
  ok(f('std::duration_truncate', `<cal::relative_duration>'400 months'`, `'decades'`), ['P30Y']),
  ok(f('std::duration_truncate', `<cal::relative_duration>'15:01:22.306916'`, `'minutes'`), [
    'PT15H1M',
  ]),
  fails(
    f('std::duration_truncate', `<cal::relative_duration>'P1312Y'`, `'fortnight'`),
    'InvalidValueError',
  ),
  ok(f('std::duration_truncate', `<cal::date_duration>'P1312Y'`, `'centuries'`), ['P1300Y']),
  fails(
    f('std::duration_truncate', `<cal::date_duration>'P1312Y'`, `'hours'`),
    'InvalidValueError',
  ),
  ok(f('cal::time_get', lt, `'minutes'`), [5]),
  fails(f('cal::time_get', lt, `'year'`), 'InvalidValueError'),
  ok(f('cal::date_get', ld, `'day'`), [3]),
  fails(f('cal::date_get', ld, `'hour'`), 'InvalidValueError'),
  ok(f('cal::duration_normalize_hours', `<cal::relative_duration>'PT25H'`), ['P1DT1H'], {
    never: NORMALIZE,
  }),
  ok(f('cal::duration_normalize_days', `<cal::relative_duration>'P32D'`), ['P1M2D'], {
    never: NORMALIZE,
  }),
  ok(f('cal::duration_normalize_days', `<cal::date_duration>'P32D'`), ['P1M2D'], {
    never: NORMALIZE,
  }),
  // Gel's test-mode buckets: [lo, hi) pairs by a granularity in PostgreSQL's interval text.
  ok(
    f(
      'std::_datetime_range_buckets',
      `<datetime>'2024-01-01T00:00:00Z'`,
      `<datetime>'2024-03-01T00:00:00Z'`,
      `'1 month'`,
    ),
    [
      ['2024-01-01T00:00:00+00:00', '2024-02-01T00:00:00+00:00'],
      ['2024-02-01T00:00:00+00:00', '2024-03-01T00:00:00+00:00'],
    ],
  ),
  fails(f('std::_datetime_range_buckets', dt, dt, `'every other day'`), 'InvalidValueError'),
];
