/**
 * std/functions/datetimes: dates and times: current time, parts, truncation; rows of the one std
 * function table (std/functions.ts assembles it).
 */
import { pgType, sql, type SqlExpr } from '../../sql/ast';
import { def, strict } from '../define';
import type { Overload, SqlArgs } from '../model';
import { raise } from '../operators';
import { storedJson } from '../scalars';
import { cast, fn, caseWhen } from './common';

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

export function datetimes(): Overload[] {
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
    // Gel's test-mode `_datetime_range_buckets`: consecutive [lo, hi) pairs stepping from low
    // to high by the granularity (PostgreSQL interval text), stepped in UTC as every datetime
    // computation here is; tuples are jsonb arrays, so each pair is one.
    def(
      'std::_datetime_range_buckets',
      'low: datetime, high: datetime, granularity: str',
      'set of tuple<datetime, datetime>',
      (a) => {
        const datetime = { kind: 'scalar', name: 'std::datetime' } as const;
        const point = sql.col('s', 'g');
        const series = sql.fromFunction(
          fn('generate_series', utc(a.at(0)), utc(a.at(1)), cast(a.at(2), 'interval')),
          'g',
          { columns: [{ name: 's', type: null }] },
        );
        const steps = sql.select({
          targets: [
            sql.target(point, 's'),
            sql.target(
              sql.agg('lead', [point], { over: { partitionBy: [], orderBy: [sql.order(point)] } }),
              'next',
            ),
          ],
          from: [series],
        });
        const pair = fn(
          'jsonb_build_array',
          storedJson(datetime, utc(sql.col('s', 'q')), a.env),
          storedJson(datetime, utc(sql.col('next', 'q')), a.env),
        );
        const pairs = sql.scalar(
          sql.select({
            targets: [
              sql.target(sql.agg('jsonb_agg', [pair], { orderBy: [sql.order(sql.col('s', 'q'))] })),
            ],
            from: [sql.subquery(steps, 'q')],
            where: sql.isNull(sql.col('next', 'q'), true),
          }),
        );
        return fn('jsonb_array_elements', fn('coalesce', pairs, cast(sql.text('[]'), 'jsonb')));
      },
      { kind: 'set-returning', volatility: 'Stable' },
    ),
  ];
}
