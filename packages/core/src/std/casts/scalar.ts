/**
 * std/casts/scalar: the SQL of a cast between two scalars (numbers, strings, dates and times,
 * enums, custom scalars). Part of std/casts.ts, which resolves casts.
 */
import { pgType, sql, type SqlExpr } from '../../sql/ast';
import type { Volatility } from '../model';
import { raise } from '../operators';
import { STD_SCALARS_INFO } from '../scalars';
import { NUMERIC } from './implicit';
import { identity } from './json';

/** `case when ok then v else raise end`: a narrowing cast that may fail at run time. */
export function checked(v: SqlExpr, ok: SqlExpr, type: string): SqlExpr {
  return {
    kind: 'Case',
    whens: [
      { when: sql.isNull(v), then: sql.null() },
      { when: ok, then: v },
    ],
    else: raise(v, pgType('interval'), sql.text(`the value does not fit in ${type}`)),
  };
}

export const FLOATS = new Set(['std::float32', 'std::float64']);
export const EXACT = new Set(['std::bigint', 'std::decimal']);

/**
 * Between numeric types (Gel's casts): into bigint a float or a decimal is rounded; into bigint
 * or decimal, NaN and the infinities are InvalidValueError (22P02); the rest is PostgreSQL's cast
 * (out of range: 22003).
 */
export function numericCast(a: string, b: string): (value: SqlExpr) => SqlExpr {
  const from = STD_SCALARS_INFO[a as keyof typeof STD_SCALARS_INFO].pg;
  const to = STD_SCALARS_INFO[b as keyof typeof STD_SCALARS_INFO].pg;
  const rounded = (v: SqlExpr) => (b === 'std::bigint' ? sql.func('round', [v]) : v);
  if (FLOATS.has(a) && EXACT.has(b)) {
    return (v) => {
      const value = rounded(v);
      return sql.cast(
        {
          kind: 'Case',
          whens: [
            {
              when: {
                kind: 'AnyOp',
                left: value,
                op: '=',
                array: {
                  kind: 'ArrayExpr',
                  elements: ['NaN', 'Infinity', '-Infinity'].map((t) => sql.text(t)),
                  type: { ...from, arrayDims: 1 },
                },
              },
              then: raise(
                value,
                from,
                sql.bin(
                  '||',
                  sql.text(`invalid value for ${b}: `),
                  sql.func('quote_literal', [sql.cast(value, pgType('text'))]),
                ),
                '22P02',
              ),
            },
          ],
          else: value,
        },
        to,
      );
    };
  }
  if (a === 'std::decimal' && b === 'std::bigint') return (v) => sql.cast(rounded(v), to);
  return (v) => sql.cast(v, to);
}

export const DURATIONS = new Set(['std::duration', 'cal::relative_duration', 'cal::date_duration']);
export const LOCAL = new Set(['cal::local_datetime', 'cal::local_date', 'cal::local_time']);

/** Casts between std scalars (both already their resolution bases). */
export function scalarCast(
  a: string,
  b: string,
): { sql: (value: SqlExpr) => SqlExpr; volatility: Volatility } | null {
  const immutable = (f: (value: SqlExpr) => SqlExpr) => ({
    sql: f,
    volatility: 'Immutable' as const,
  });
  if (a === b) return immutable(identity);
  const from = STD_SCALARS_INFO[a as keyof typeof STD_SCALARS_INFO];
  const to = STD_SCALARS_INFO[b as keyof typeof STD_SCALARS_INFO];
  if (!from || !to) return null;
  if (b === 'std::str') {
    if (a === 'std::bytes') return null;
    return immutable(from.toText);
  }
  if (a === 'std::str') {
    if (b === 'std::bytes') return null; // a compile error, as in Gel; use base64_decode or b'...'
    return immutable(to.fromText);
  }
  if (NUMERIC.has(a) && NUMERIC.has(b)) return immutable(numericCast(a, b));
  if (DURATIONS.has(a) && DURATIONS.has(b)) {
    // Same storage (interval); narrowing checks the units the target cannot hold (an error, not
    // a silent loss).
    if (b === 'cal::date_duration') {
      return immutable((v) =>
        checked(v, sql.bin('=', v, sql.func('date_trunc', [sql.text('day'), v])), b),
      );
    }
    if (b === 'std::duration' && a !== 'std::duration') {
      return immutable((v) =>
        checked(
          v,
          sql.and(
            ...['year', 'month', 'day'].map((f) =>
              sql.bin('=', sql.func('date_part', [sql.text(f), v]), sql.num(0)),
            ),
          ),
          b,
        ),
      );
    }
    return immutable(identity);
  }
  if (LOCAL.has(a) && LOCAL.has(b)) {
    if (a === 'cal::local_time') return null;
    if (a === 'cal::local_date' && b === 'cal::local_time') return null;
    return immutable((v) => sql.cast(v, to.pg));
  }
  return null;
}
