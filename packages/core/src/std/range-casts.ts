/**
 * std/range-casts: the casts of ranges and multiranges (Gel's `range<anypoint>` casts).
 *
 * Input: the source and target TypeRefs and the cast of one element to another (std/casts
 * `findCast`, passed in). Output: the SQL of `<range<B>>r`, `<multirange<B>>m`,
 * `<multirange<B>>r` and `<range<T>>json` / `<multirange<T>>json`, or null when Gel has no such
 * cast.
 * Invariants:
 * - a range converts to a range (or multirange) of another element type when the element does
 *   (`range<int64>` → `range<int32>`, `range<cal::local_date>` → `range<cal::local_datetime>`):
 *   the bounds are converted and the range rebuilt, so PostgreSQL re-normalises discrete ranges;
 *   an empty range stays empty;
 * - a multirange never converts to a range;
 * - `<range<T>>json` is Gel's checked form: a JSON object (or null: the empty set) whose only keys
 *   are `lower`, `upper`, `inc_lower`, `inc_upper`, `empty`; `inc_lower` and `inc_upper` are
 *   required unless `empty` is true; the bounds are cast from JSON as `<T>json` casts them.
 */
import { isRangeElement, type TypeRef } from '../model/schema';
import { pgType, sql, type SqlExpr } from '../sql/ast';
import type { Volatility } from './model';
import { multirangeOf, pgTypeFor, raise, rangeBound, rangeValue } from './scalars';

export interface SqlCast {
  readonly sql: (value: SqlExpr) => SqlExpr;
  readonly volatility: Volatility;
}

type ElementCast = (from: TypeRef, to: TypeRef) => SqlCast | null;

const isRangeType = (t: TypeRef): t is Extract<TypeRef, { kind: 'range' | 'multirange' }> =>
  t.kind === 'range' || t.kind === 'multirange';

/** `<to>value` between range and multirange types; null when Gel refuses it. */
export function rangeCast(from: TypeRef, to: TypeRef, elementCast: ElementCast): SqlCast | null {
  if (!isRangeType(from) || !isRangeType(to)) return null;
  if (from.kind === 'multirange' && to.kind === 'range') return null;
  if (to.element.kind !== 'scalar' || !isRangeElement(to.element.name)) return null;
  const element = elementCast(from.element, to.element);
  if (!element) return null;
  const one = (r: SqlExpr): SqlExpr => rebuiltRange(r, from.element, to.element, element);
  const volatility = element.volatility;
  if (from.kind === 'range' && to.kind === 'range') return { volatility, sql: one };
  if (from.kind === 'range') {
    // A range is the multirange of that one range (empty: the empty multirange).
    return { volatility, sql: (r) => sql.func(pgTypeFor(to).name, [one(r)]) };
  }
  return {
    volatility,
    sql: (m) => {
      const items = sql.fromFunction(sql.func('unnest', [m]), 'mr_cast', {
        columns: [{ name: 'value', type: null }],
      });
      return orNull(m, multirangeOf(to.element, one(sql.col('value', 'mr_cast')), [items]));
    },
  };
}

/** A range of `from` rebuilt over `to` with converted bounds (empty stays empty). */
function rebuiltRange(r: SqlExpr, from: TypeRef, to: TypeRef, element: SqlCast): SqlExpr {
  const target = pgTypeFor({ kind: 'range', element: to });
  const built = rangeValue(
    to,
    element.sql(rangeBound(from, 'lower', r)),
    element.sql(rangeBound(from, 'upper', r)),
    sql.func('lower_inc', [r]),
    sql.func('upper_inc', [r]),
    null,
  );
  return {
    kind: 'Case',
    whens: [
      { when: sql.isNull(r), then: sql.null() },
      { when: sql.func('isempty', [r]), then: sql.cast(sql.text('empty'), target) },
    ],
    else: built,
  };
}

function orNull(probe: SqlExpr, value: SqlExpr): SqlExpr {
  return { kind: 'Case', whens: [{ when: sql.isNull(probe), then: sql.null() }], else: value };
}

const RANGE_KEYS = ['lower', 'upper', 'inc_lower', 'inc_upper', 'empty'];
const RANGE_JSON = 'JSON object representing a range';

/**
 * `<range<T>>json` (and, element by element, `<multirange<T>>json`): Gel's checks, then the range.
 * `boundFromJson` is the `<T>json` cast of a bound.
 */
export function rangeFromJson(
  to: TypeRef,
  boundFromJson: (j: SqlExpr) => SqlExpr,
): (j: SqlExpr) => SqlExpr {
  if (to.kind === 'multirange') {
    const range: TypeRef = { kind: 'range', element: to.element };
    const one = rangeFromJson(range, boundFromJson);
    return (j) => {
      const items = sql.fromFunction(sql.func('jsonb_array_elements', [j]), 'mr_json', {
        columns: [{ name: 'value', type: null }],
      });
      const type = sql.func('jsonb_typeof', [j]);
      return {
        kind: 'Case',
        whens: [
          { when: sql.or(sql.isNull(j), sql.bin('=', type, sql.text('null'))), then: sql.null() },
          {
            when: sql.bin('=', type, sql.text('array')),
            then: multirangeOf(to.element, one(sql.col('value', 'mr_json')), [items]),
          },
        ],
        else: raise(
          j,
          pgTypeFor(to),
          sql.bin('||', sql.text('expected JSON array or null; got JSON '), type),
        ),
      };
    };
  }
  if (to.kind !== 'range') throw new Error('std: rangeFromJson takes a range type');
  const pg = pgTypeFor(to);
  const element = to.element;
  // The JSON value once, as `range_json.v`, for the checks and the bounds to read.
  return (value) => {
    const once = sql.subquery(sql.select({ targets: [sql.target(value, 'v')] }), 'range_json');
    return sql.scalar(
      sql.select({ targets: [sql.target(checkedRange(sql.col('v', 'range_json')))], from: [once] }),
    );
  };
  function checkedRange(j: SqlExpr): SqlExpr {
    const type = sql.func('jsonb_typeof', [j]);
    const field = (name: string) => sql.bin('->', j, sql.text(name));
    const flag = (name: string) => sql.cast(sql.bin('->>', j, sql.text(name)), pgType('boolean'));
    const empty = sql.func('coalesce', [flag('empty'), sql.bool(false)]);
    const missing = (name: string) =>
      sql.and(
        sql.not(empty),
        sql.bin('is distinct from', sql.func('jsonb_typeof', [field(name)]), sql.text('boolean')),
      );
    const keys = sql.fromFunction(sql.func('jsonb_object_keys', [j]), 'range_key', {
      columns: [{ name: 'k', type: null }],
    });
    const key = sql.col('k', 'range_key');
    const unexpected = sql.scalar(
      sql.select({
        targets: [
          sql.target(sql.agg('string_agg', [key, sql.text(', ')], { orderBy: [sql.order(key)] })),
        ],
        from: [keys],
        where: sql.and(...RANGE_KEYS.map((k) => sql.bin('<>', key, sql.text(k)))),
      }),
    );
    const fail = (message: SqlExpr) => raise(j, pg, message, '22023');
    const built = rangeValue(
      element,
      boundFromJson(field('lower')),
      boundFromJson(field('upper')),
      sql.func('coalesce', [flag('inc_lower'), sql.bool(false)]),
      sql.func('coalesce', [flag('inc_upper'), sql.bool(false)]),
      empty,
    );
    return {
      kind: 'Case',
      whens: [
        { when: sql.or(sql.isNull(j), sql.bin('=', type, sql.text('null'))), then: sql.null() },
        {
          when: sql.bin('<>', type, sql.text('object')),
          then: raise(
            j,
            pg,
            sql.bin('||', sql.text('expected JSON object or null; got JSON '), type),
          ),
        },
        // A flag given must be a JSON boolean or null (`"empty": 1` is not true).
        ...(['inc_lower', 'inc_upper', 'empty'] as const).map((name) => {
          const kind = sql.func('jsonb_typeof', [field(name)]);
          return {
            when: sql.and(
              sql.isNull(field(name), true),
              sql.bin('<>', kind, sql.text('boolean')),
              sql.bin('<>', kind, sql.text('null')),
            ),
            then: fail(
              sql.bin(
                '||',
                sql.text(`in range parameter '${name}', expected JSON boolean or null; got JSON `),
                kind,
              ),
            ),
          };
        }),
        {
          when: missing('inc_lower'),
          then: fail(sql.text(`${RANGE_JSON} must include an 'inc_lower' boolean property`)),
        },
        {
          when: missing('inc_upper'),
          then: fail(sql.text(`${RANGE_JSON} must include an 'inc_upper' boolean property`)),
        },
        {
          when: sql.isNull(unexpected, true),
          then: fail(
            sql.bin('||', sql.text(`${RANGE_JSON} contains unexpected keys: `), unexpected),
          ),
        },
      ],
      else: built,
    };
  }
}
