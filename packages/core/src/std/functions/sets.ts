/**
 * std/functions/sets: aggregates and the functions over a whole set; rows of the one std function
 * table (std/functions.ts assembles it).
 */
import { pgType, sql, type SqlExpr } from '../../sql/ast';
import { def } from '../define';
import type { Card, Overload, SqlArgs } from '../model';
import { setArrayType, setItemValue } from '../jsonb-arrays';
import { raise } from '../operators';
import { pgTypeFor, storedJson } from '../scalars';
import { jsonbArrayOf } from '../../schema/storage/types';
import { cast, int8, f8, num, fn, paren, caseWhen, or, INTS, REALS, AGG, SRF } from './common';

// ---------------------------------------------------------------------------------------------
// Sets (aggregates)

/** Types PostgreSQL's own min/max order as EdgeQL does (strings need `COLLATE "C"`). */
const NATIVE_MINMAX = new Set([
  ...REALS.map((t) => `std::${t}`),
  'std::str',
  'std::datetime',
  'std::duration',
  'cal::local_datetime',
  'cal::local_date',
  'cal::local_time',
  'cal::relative_duration',
  'cal::date_duration',
]);

function minMax(which: 'min' | 'max') {
  return (a: SqlArgs): SqlExpr => {
    const x = a.at(0);
    const t = a.type(0);
    const name = t?.kind === 'scalar' ? t.name : null;
    const enumValues = name ? a.env.enumValues(name) : null;
    const base = name ? (a.env.stdBase(name) ?? name) : null;
    if (base === 'std::str' && !enumValues)
      return fn(which, { kind: 'Collate', expr: x, collation: 'C' });
    if (base && NATIVE_MINMAX.has(base) && !enumValues) return fn(which, x);
    if (base === 'std::bool') return fn(which === 'min' ? 'bool_and' : 'bool_or', x);
    // Arrays compare element by element in PostgreSQL too (array_agg of arrays would nest them).
    if (t?.kind === 'array' && !jsonbArrayOf(t.element)) return fn(which, x);
    // Any other type: the first element in EdgeQL's order.
    const key: SqlExpr = enumValues
      ? fn(
          'array_position',
          {
            kind: 'ArrayExpr',
            elements: enumValues.map((v) => sql.text(v)),
            type: pgType('text', 1),
          },
          cast(x, 'text'),
        )
      : x;
    // Tuples and arrays of them or of arrays are jsonb: the first of a jsonb_agg.
    const asJsonb = t?.kind === 'tuple' || t?.kind === 'array';
    const agg = sql.agg(asJsonb ? 'jsonb_agg' : 'array_agg', [x], {
      orderBy: [sql.order(key, which === 'min' ? 'asc' : 'desc')],
    });
    return asJsonb
      ? sql.bin('->', agg, num(0))
      : { kind: 'Subscript', expr: paren(agg), index: num(1) };
  };
}

export function sets(): Overload[] {
  const out: Overload[] = [
    def('std::count', 'set of anytype', 'int64', (a) => fn('count', a.at(0)), AGG),
    def('std::min', 'set of anytype', 'optional anytype', minMax('min'), AGG),
    def('std::max', 'set of anytype', 'optional anytype', minMax('max'), AGG),
    def(
      'std::all',
      'set of bool',
      'bool',
      (a) => fn('coalesce', fn('bool_and', a.at(0)), sql.bool(true)),
      AGG,
    ),
    def(
      'std::any',
      'set of bool',
      'bool',
      (a) => fn('coalesce', fn('bool_or', a.at(0)), sql.bool(false)),
      AGG,
    ),
    def(
      'std::array_agg',
      'set of anytype',
      'array<anytype>',
      (a) => {
        const t = a.type(0);
        // Tuples and arrays: one jsonb array of their stored JSON (std/jsonb-arrays).
        if (t && jsonbArrayOf(t))
          return fn(
            'coalesce',
            fn('jsonb_agg', storedJson(t, a.at(0), a.env)),
            cast(sql.text('[]'), 'jsonb'),
          );
        const arrayType = pgTypeFor({
          kind: 'array',
          element: t ?? { kind: 'scalar', name: 'std::str' },
        });
        return fn('coalesce', fn('array_agg', a.at(0)), sql.cast(sql.text('{}'), arrayType));
      },
      AGG,
    ),
    // `assert_single` as an aggregate: the set's one element, or empty, or the error (21000).
    def(
      'std::assert_single',
      'set of anytype, named only message: optional str = {}',
      'optional anytype',
      (a) => {
        const first =
          a.type(0)?.kind === 'tuple'
            ? sql.bin('->', fn('jsonb_agg', a.at(0)), num(0))
            : ({
                kind: 'Subscript',
                expr: paren(fn('array_agg', a.at(0))),
                index: num(1),
              } as SqlExpr);
        return caseWhen(
          [
            [
              sql.bin('>', fn('count', a.at(0)), num(1)),
              raise(
                first,
                pgTypeFor(a.result ?? { kind: 'scalar', name: 'std::str' }),
                fn(
                  'coalesce',
                  or(a, 1, sql.null()),
                  sql.text(
                    'assert_single violation: more than one element returned by an expression',
                  ),
                ),
                '21000',
              ),
            ],
          ],
          first,
        );
      },
      {
        ...AGG,
        card: (args: readonly Card[]) => ({
          min: args[0]?.min ?? 0,
          max: args[0]?.max === 0 ? 0 : 1,
        }),
      },
    ),
  ];
  // sum: integers add up as int64 (bigint stays), floats keep their width; empty is 0.
  for (const t of INTS) {
    out.push(
      def(
        'std::sum',
        `set of ${t}`,
        'int64',
        (a) => int8(fn('coalesce', fn('sum', a.at(0)), num(0))),
        AGG,
      ),
    );
  }
  out.push(
    def(
      'std::sum',
      'set of float32',
      'float32',
      (a) => fn('coalesce', fn('sum', a.at(0)), cast(num(0), 'real')),
      AGG,
    ),
  );
  out.push(
    def(
      'std::sum',
      'set of float64',
      'float64',
      (a) => fn('coalesce', fn('sum', a.at(0)), f8(num(0))),
      AGG,
    ),
  );
  out.push(
    def(
      'std::sum',
      'set of bigint',
      'bigint',
      (a) => fn('coalesce', fn('sum', a.at(0)), num(0)),
      AGG,
    ),
  );
  out.push(
    def(
      'std::sum',
      'set of decimal',
      'decimal',
      (a) => fn('coalesce', fn('sum', a.at(0)), num(0)),
      AGG,
    ),
  );
  for (const t of ['duration', 'cal::relative_duration', 'cal::date_duration'] as const) {
    out.push(
      def(
        'std::sum',
        `set of ${t}`,
        t,
        (a) => fn('coalesce', fn('sum', a.at(0)), cast(sql.text('0'), 'interval')),
        AGG,
      ),
    );
  }
  for (const t of ['int64', 'float64'] as const) {
    out.push(
      def('std::avg', `set of ${t}`, 'optional float64', (a) => f8(fn('avg', a.at(0))), AGG),
    );
  }
  out.push(def('std::avg', 'set of decimal', 'optional decimal', (a) => fn('avg', a.at(0)), AGG));
  // Gel's statistics: integers give float64, decimal stays decimal; a set too small for the
  // statistic (empty; one element for the sample ones) is an InvalidValueError, never empty.
  for (const [name, pg] of [
    ['mean', 'avg'],
    ['stddev', 'stddev_samp'],
    ['stddev_pop', 'stddev_pop'],
    ['var', 'var_samp'],
    ['var_pop', 'var_pop'],
  ] as const) {
    for (const [t, result, pgResult] of [
      ['int64', 'float64', 'double precision'],
      ['float64', 'float64', 'double precision'],
      ['decimal', 'decimal', 'numeric'],
    ] as const) {
      out.push(
        def(
          `math::${name}`,
          `set of ${t}`,
          result,
          (a) => statistic(fn(pg, a.at(0)), pgResult, name),
          AGG,
        ),
      );
    }
  }
  return out;
}

/** `value`, or InvalidValueError when the statistic is undefined for the set (SQL NULL). */
function statistic(aggregate: SqlExpr, pg: string, name: string): SqlExpr {
  const value = cast(aggregate, pg);
  return fn(
    'coalesce',
    value,
    raise(
      value,
      pgType(pg),
      sql.text(`invalid input to ${name}(): not enough elements in input set`),
      '22023',
    ),
  );
}
/** The rows of a set-of argument's SQL array unnested again (std/jsonb-arrays `setItem`). */
const setRows: Overload['rows'] = (row, a) => setItemValue(a.type(0), row, a.env);

/**
 * Functions over a whole set that give a set back: the set arrives as an SQL array (in order) and
 * the form unnests it again (`CallKind` 'set-returning').
 */
export function wholeSets(): Overload[] {
  const items = (array: SqlExpr) => sql.items(fn('unnest', array), 'e');
  const sameCard = (args: readonly Card[]): Card => args[0] ?? { min: 0, max: 'many' };
  const message = (a: SqlArgs, fallback: string) =>
    fn('coalesce', or(a, 1, sql.null()), sql.text(fallback));
  return [
    // Tuples are jsonb arrays: (index, value) is `[index, value's stored JSON]`.
    def(
      'std::enumerate',
      'set of anytype',
      'set of tuple<int64, anytype>',
      (a) => {
        const element = a.type(0) ?? { kind: 'scalar' as const, name: 'std::str' };
        const pairs = sql.scalar(
          sql.select({
            targets: [
              sql.target(
                sql.agg(
                  'jsonb_agg',
                  [
                    fn(
                      'jsonb_build_array',
                      sql.bin('-', sql.col('ord', 'e'), num(1)),
                      storedJson(
                        element,
                        setItemValue(element, sql.col('value', 'e'), a.env),
                        a.env,
                      ),
                    ),
                  ],
                  { orderBy: [sql.order(sql.col('ord', 'e'))] },
                ),
              ),
            ],
            from: [items(a.at(0))],
          }),
        );
        return fn('jsonb_array_elements', fn('coalesce', pairs, cast(sql.text('[]'), 'jsonb')));
      },
      { ...SRF, card: sameCard },
    ),
    def(
      'std::assert_exists',
      'set of anytype, named only message: optional str = {}',
      'set of anytype',
      (a) =>
        fn(
          'unnest',
          caseWhen(
            [
              [
                sql.bin('=', fn('cardinality', a.at(0)), num(0)),
                raise(
                  a.at(0),
                  setArrayType(a.type(0)),
                  message(a, 'assert_exists violation: expression returned an empty set'),
                  '21000',
                ),
              ],
            ],
            a.at(0),
          ),
        ),
      {
        ...SRF,
        card: (args) => ({ min: 1, max: args[0]?.max === 0 ? 1 : (args[0]?.max ?? 'many') }),
        rows: setRows,
      },
    ),
    def(
      'std::assert_distinct',
      'set of anytype, named only message: optional str = {}',
      'set of anytype',
      (a) => {
        const distinct = sql.scalar(
          sql.select({
            targets: [sql.target(sql.agg('count', [sql.col('value', 'e')], { distinct: true }))],
            from: [items(a.at(0))],
          }),
        );
        return fn(
          'unnest',
          caseWhen(
            [
              [
                sql.bin('<>', fn('cardinality', a.at(0)), distinct),
                raise(
                  a.at(0),
                  setArrayType(a.type(0)),
                  message(
                    a,
                    'assert_distinct violation: expression returned a set with duplicate elements',
                  ),
                  // Gel's ConstraintViolationError (23514, no constraint named).
                  '23514',
                ),
              ],
            ],
            a.at(0),
          ),
        );
      },
      { ...SRF, card: sameCard, rows: setRows },
    ),
  ];
}
