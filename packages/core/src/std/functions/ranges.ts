/**
 * std/functions/ranges: ranges (`range<T>` is PostgreSQL's range type of T, std/scalars
 * `rangeValue`); rows of the one std function table (std/functions.ts assembles it).
 */
import { sql, type FromItem, type SqlExpr } from '../../sql/ast';
import { def, strict } from '../define';
import type { Overload, SqlArgs } from '../model';
import { raise } from '../operators';
import { pgTypeFor, rangeBound, rangeValue } from '../scalars';
import type { TypeRef } from '../../schema/model';
import { cast, num, fn, caseWhen, or, SRF } from './common';

// ---------------------------------------------------------------------------------------------
// Ranges (`range<T>` is PostgreSQL's range type of T, std/scalars `rangeValue`)

/** The element type of the range parameter `i`. */
function rangeElement(a: SqlArgs, i: number): TypeRef {
  const t = a.type(i);
  if (t?.kind !== 'range') throw new Error('std: a range parameter is bound to a range type');
  return t.element;
}

/** A point as the range's PostgreSQL element type (floats are numeric in a numrange). */
function asRangePoint(a: SqlArgs, range: number, point: SqlExpr): SqlExpr {
  const pg = pgTypeFor({ kind: 'range', element: rangeElement(a, range) });
  return pg.name === 'numrange' ? cast(point, 'numeric') : point;
}

/**
 * `unnest(array(select v from generate_series(from, to, step) as g(v) where r @> v order by v))`
 * with `from`/`to` the range's bounds: the points of `r` from its lower bound by `step` (an
 * unbounded or empty range gives no rows: generate_series is strict).
 */
/**
 * `(select <r, checked> as r) as b`: the range once, for the unpacking query to read as `b.r`;
 * InvalidValueError (22023) when it has no lower or no upper bound (Gel).
 */
function boundedRange(r: SqlExpr, element: TypeRef): FromItem {
  const pg = pgTypeFor({ kind: 'range', element });
  const checked = caseWhen(
    [
      [
        sql.or(fn('lower_inf', r), fn('upper_inf', r)),
        raise(r, pg, sql.text('cannot unpack an unbounded range'), '22023'),
      ],
    ],
    r,
  );
  return sql.subquery(sql.select({ targets: [sql.target(checked, 'r')] }), 'b');
}

function steppedPoints(a: SqlArgs, element: TypeRef, step: SqlExpr): SqlExpr {
  const checked = boundedRange(a.at(0), element);
  const r = sql.col('r', 'b');
  const isDate = element.kind === 'scalar' && element.name === 'cal::local_date';
  const bound = (which: 'lower' | 'upper') => {
    const b = fn(which, r);
    return isDate ? cast(b, 'timestamp') : b;
  };
  const numeric = pgTypeFor({ kind: 'range', element }).name === 'numrange';
  const by = numeric ? cast(step, 'numeric') : step;
  const series = sql.fromFunction(fn('generate_series', bound('lower'), bound('upper'), by), 'g', {
    columns: [{ name: 'v', type: null }],
  });
  const v = sql.col('v', 'g');
  const point = isDate ? cast(v, 'date') : v;
  const value = numeric ? sql.cast(point, pgTypeFor(element)) : point;
  return fn(
    'unnest',
    sql.array(
      sql.select({
        targets: [sql.target(value)],
        from: [checked, series],
        where: sql.bin('@>', r, point),
        orderBy: [sql.order(v)],
      }),
    ),
  );
}

export function ranges(): Overload[] {
  const STEPS: readonly [string, string][] = [
    ['int32', 'int32'],
    ['int64', 'int64'],
    ['float32', 'float32'],
    ['float64', 'float64'],
    ['decimal', 'decimal'],
    ['datetime', 'duration'],
    ['cal::local_datetime', 'cal::relative_duration'],
    ['cal::local_date', 'cal::date_duration'],
  ];
  return [
    def(
      'std::range',
      'lower: optional anypoint = {}, upper: optional anypoint = {}, named only inc_lower: bool = true, named only inc_upper: bool = false, named only empty: bool = false',
      'range<anypoint>',
      strict([2, 3, 4], (a) => {
        const result = a.result;
        if (result?.kind !== 'range') throw new Error('std: range() returns a range');
        return rangeValue(
          result.element,
          a.opt(0) ?? sql.null(),
          a.opt(1) ?? sql.null(),
          or(a, 2, sql.bool(true)),
          or(a, 3, sql.bool(false)),
          a.opt(4),
        );
      }),
    ),
    // A discrete range is `[lower, upper)` once PostgreSQL normalises it: lower + 0, 1, ...
    def(
      'std::range_unpack',
      'val: range<anydiscrete>',
      'set of anydiscrete',
      (a) => {
        const checked = boundedRange(a.at(0), rangeElement(a, 0));
        const r = sql.col('r', 'b');
        const offsets = sql.fromFunction(
          fn(
            'generate_series',
            num(0),
            sql.bin('-', sql.bin('-', fn('upper', r), fn('lower', r)), num(1)),
          ),
          'g',
          { columns: [{ name: 'i', type: null }] },
        );
        return fn(
          'unnest',
          sql.array(
            sql.select({
              targets: [sql.target(sql.bin('+', fn('lower', r), sql.col('i', 'g')))],
              from: [checked, offsets],
              orderBy: [sql.order(sql.col('i', 'g'))],
            }),
          ),
        );
      },
      SRF,
    ),
    ...STEPS.map(([point, step]) =>
      def(
        'std::range_unpack',
        `val: range<${point}>, step: ${step}`,
        `set of ${point}`,
        (a) => steppedPoints(a, rangeElement(a, 0), a.at(1)),
        SRF,
      ),
    ),
    def('std::range_get_lower', 'r: range<anypoint>', 'optional anypoint', (a) =>
      rangeBound(rangeElement(a, 0), 'lower', a.at(0)),
    ),
    def('std::range_get_upper', 'r: range<anypoint>', 'optional anypoint', (a) =>
      rangeBound(rangeElement(a, 0), 'upper', a.at(0)),
    ),
    def('std::range_is_inclusive_lower', 'r: range<anypoint>', 'bool', (a) =>
      fn('lower_inc', a.at(0)),
    ),
    def('std::range_is_inclusive_upper', 'r: range<anypoint>', 'bool', (a) =>
      fn('upper_inc', a.at(0)),
    ),
    def('std::range_is_empty', 'val: range<anypoint>', 'bool', (a) => fn('isempty', a.at(0))),
    def('std::contains', 'haystack: range<anypoint>, needle: range<anypoint>', 'bool', (a) =>
      sql.bin('@>', a.at(0), a.at(1)),
    ),
    def(
      'std::contains',
      'haystack: range<anypoint>, needle: anypoint',
      'bool',
      strict([1], (a) => sql.bin('@>', a.at(0), asRangePoint(a, 0, a.at(1)))),
    ),
    def('std::overlaps', 'l: range<anypoint>, r: range<anypoint>', 'bool', (a) =>
      sql.bin('&&', a.at(0), a.at(1)),
    ),
  ];
}
