/**
 * std/functions: the std, math, cal, enc and sys functions, one overload per row (std/define
 * notation, signatures in Gel's spelling).
 *
 * Input: nothing. Output: `STD_FUNCTIONS`, overloads by qualified name (`std::len`, `math::abs`),
 * assembled here, in one fixed order, from the families under ./functions/.
 * Invariants:
 * - aggregates (`kind: 'aggregate'`) give one row for an empty set too: `count`/`sum` 0, `all`
 *   true, `any` false, `array_agg` `[]`, `min`/`max`/`avg` empty;
 * - dates are computed and formatted in UTC; a format-string parse that could fall back on the
 *   session's TimeZone (`to_datetime(s, fmt)` without a zone in `fmt`) raises instead;
 * - `assert_exists`, `assert_distinct`, `enumerate`'s numbering order, `sequence_next/reset` and the
 *   object-level functions are the compiler's: they need the shape of the query around them.
 */
import { pgType, sql } from '../sql/ast';
import { table } from './define';
import type { Overload } from './model';
import { caseWhen } from './functions/common';
import { datetimes } from './functions/datetimes';
import { arrays, json } from './functions/json-arrays';
import { misc, numbers, sys } from './functions/numbers';
import { ranges } from './functions/ranges';
import { sets, wholeSets } from './functions/sets';
import { conversions, generic, intBytes, strings } from './functions/strings';
import { multirangeFunctions } from './multiranges';
import { raise } from './operators';

export const STD_FUNCTIONS: ReadonlyMap<string, readonly Overload[]> = table(
  [
    ...sets(),
    ...wholeSets(),
    ...generic(),
    ...strings(),
    ...conversions(),
    ...intBytes(),
    ...datetimes(),
    ...json(),
    ...arrays(),
    ...numbers(),
    ...misc(),
    ...ranges(),
    ...multirangeFunctions(),
    ...sys(),
  ].map(nonEmptyFmt),
);

/**
 * A `fmt` argument that is given must be a non-empty string (Gel's rule for every function
 * taking one): `''` raises InvalidValueError (22023) before the row's form sees it.
 */
function nonEmptyFmt(o: Overload): Overload {
  const i = o.params.findIndex((p) => p.name === 'fmt');
  if (i < 0) return o;
  const short = o.name.slice(o.name.indexOf('::') + 2);
  return {
    ...o,
    sql: (a) => {
      const fmt = a.opt(i);
      if (fmt === null) return o.sql(a);
      const checked = caseWhen(
        [
          [
            sql.bin('=', fmt, sql.text('')),
            raise(
              fmt,
              pgType('text'),
              sql.text(`${short}(): "fmt" argument must be a non-empty string`),
              '22023',
            ),
          ],
        ],
        fmt,
      );
      const pick = (j: number) => (j === i ? checked : null);
      return o.sql({ ...a, at: (j) => pick(j) ?? a.at(j), opt: (j) => pick(j) ?? a.opt(j) });
    },
  };
}
