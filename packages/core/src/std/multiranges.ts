/**
 * std/multiranges: the rows of the std table over multiranges, and the range operators and
 * predicates that ranges and multiranges share (Gel's std/31-rangefuncs): `multirange()`,
 * `multirange_unpack()`, the bound accessors on multiranges, `contains`, `overlaps`, `adjacent`,
 * `strictly_above/below`, `bounded_above/below`, the set operators `+` (union), `*`
 * (intersection), `-` (difference) and the comparisons on multiranges.
 *
 * Input: nothing. Output: `multirangeFunctions()`, `rangeOperators()` (rows for std/functions and
 * std/operators).
 * Invariants:
 * - `multirange<T>` is PostgreSQL's multirange of `range<T>`'s type (storage/types); a
 *   range converts to a multirange implicitly (std/casts), so `overlaps(m, r)` and `m + r` pick
 *   the multirange rows;
 * - every form is PostgreSQL's range operator or function of the same meaning, element-wise: a
 *   NULL (empty) argument gives NULL;
 * - `+` and `-` of two ranges whose result is not one range are PostgreSQL's 22000 errors
 *   (InvalidValueError), as in Gel.
 */
import { pgType, sql, type SqlExpr } from '../sql/ast';
import type { TypeRef } from '../model/schema';
import { def, infix, strict } from './define';
import type { Overload, SqlArgs } from './model';
import { multirangeOf, pgTypeFor, rangeBound } from './scalars';

const fn = (name: string, ...args: SqlExpr[]): SqlExpr => sql.func(name, args);

/** The element type of the range or multirange parameter `i`. */
function elementOf(a: SqlArgs, i: number): TypeRef {
  const t = a.type(i);
  if (t?.kind !== 'range' && t?.kind !== 'multirange')
    throw new Error('std: a range parameter is bound to a range or multirange type');
  return t.element;
}

/** A point as the range's PostgreSQL element type (floats are numeric in a numrange). */
function asPoint(a: SqlArgs, range: number, point: SqlExpr): SqlExpr {
  const pg = pgTypeFor({ kind: 'range', element: elementOf(a, range) });
  return pg.name === 'numrange' ? sql.cast(point, pgType('numeric')) : point;
}

/** The predicates Gel defines for both kinds, each PostgreSQL's operator of the same meaning. */
const PREDICATES: readonly [name: string, pgOp: string][] = [
  ['std::strictly_below', '<<'],
  ['std::strictly_above', '>>'],
  ['std::bounded_above', '&<'],
  ['std::bounded_below', '&>'],
  ['std::adjacent', '-|-'],
];

export function multirangeFunctions(): Overload[] {
  const M = 'multirange<anypoint>';
  return [
    def('std::multirange', `ranges: array<range<anypoint>>`, M, (a) => {
      const result = a.result;
      if (result?.kind !== 'multirange') throw new Error('std: multirange() returns a multirange');
      const array = a.at(0);
      const items = sql.fromFunction(fn('unnest', array), 'mr_items', {
        columns: [{ name: 'value', type: null }],
      });
      const built = multirangeOf(result.element, sql.col('value', 'mr_items'), [items]);
      return { kind: 'Case', whens: [{ when: sql.isNull(array), then: sql.null() }], else: built };
    }),
    def(
      'std::multirange_unpack',
      `val: ${M}`,
      'set of range<anypoint>',
      (a) => fn('unnest', a.at(0)),
      { kind: 'set-returning' },
    ),
    def('std::range_is_empty', `val: ${M}`, 'bool', (a) => fn('isempty', a.at(0))),
    def('std::range_get_lower', `r: ${M}`, 'optional anypoint', (a) =>
      rangeBound(elementOf(a, 0), 'lower', a.at(0)),
    ),
    def('std::range_get_upper', `r: ${M}`, 'optional anypoint', (a) =>
      rangeBound(elementOf(a, 0), 'upper', a.at(0)),
    ),
    def('std::range_is_inclusive_lower', `r: ${M}`, 'bool', (a) => fn('lower_inc', a.at(0))),
    def('std::range_is_inclusive_upper', `r: ${M}`, 'bool', (a) => fn('upper_inc', a.at(0))),
    def('std::contains', `haystack: ${M}, needle: ${M}`, 'bool', infix('@>')),
    def('std::contains', `haystack: ${M}, needle: range<anypoint>`, 'bool', infix('@>')),
    def(
      'std::contains',
      `haystack: ${M}, needle: anypoint`,
      'bool',
      strict([1], (a) => sql.bin('@>', a.at(0), asPoint(a, 0, a.at(1)))),
    ),
    def('std::overlaps', `l: ${M}, r: ${M}`, 'bool', infix('&&')),
    ...PREDICATES.flatMap(([name, op]) => [
      def(name, 'l: range<anypoint>, r: range<anypoint>', 'bool', infix(op)),
      def(name, `l: ${M}, r: ${M}`, 'bool', infix(op)),
    ]),
  ];
}

/** `+`, `*`, `-` on ranges and multiranges; the comparisons on multiranges. */
export function rangeOperators(): Overload[] {
  const out: Overload[] = [];
  for (const t of ['range<anypoint>', 'multirange<anypoint>']) {
    for (const op of ['+', '*', '-']) out.push(def(`std::${op}`, `${t}, ${t}`, t, infix(op)));
  }
  const M = 'multirange<anypoint>';
  // PostgreSQL orders multiranges as Gel does: range by range, as ranges are ordered.
  for (const [op, pgOp] of [
    ['=', '='],
    ['!=', '<>'],
    ['<', '<'],
    ['<=', '<='],
    ['>', '>'],
    ['>=', '>='],
  ] as const) {
    out.push(def(`std::${op}`, `${M}, ${M}`, 'bool', infix(pgOp)));
  }
  for (const [op, pgOp] of [
    ['?=', 'is not distinct from'],
    ['?!=', 'is distinct from'],
  ] as const) {
    out.push(def(`std::${op}`, `optional ${M}, optional ${M}`, 'bool', infix(pgOp)));
  }
  return out;
}
