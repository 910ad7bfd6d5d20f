/**
 * std/functions/json-arrays: JSON and arrays; rows of the one std function table (std/functions.ts
 * assembles it).
 */
import { pgType, sql, type SqlExpr } from '../../sql/ast';
import { def, strict } from '../define';
import type { Overload, SqlArgs } from '../model';
import { itemValue, jsonbFill, jsonbGet, jsonbReplace, jsonbSplice } from '../jsonb-arrays';
import { jsonbArray, raise } from '../operators';
import { pgTypeFor, storedJson } from '../scalars';
import { jsonbArrayOf } from '../../schema/storage/types';
import { cast, int4, num, fn, paren, caseWhen, or, AGG, SRF } from './common';

// ---------------------------------------------------------------------------------------------
// JSON

export function json(): Overload[] {
  const pathArray = (a: SqlArgs): SqlExpr => ({
    kind: 'ArrayExpr',
    elements: a.rest,
    type: pgType('text', 1),
  });
  return [
    def('std::json_typeof', 'json', 'str', (a) => fn('jsonb_typeof', a.at(0))),
    def(
      'std::json_get',
      'json, variadic path: str, named only default: optional json = {}',
      'optional json',
      strict([0], (a) =>
        fn('coalesce', sql.bin('#>', a.at(0), pathArray(a)), or(a, 2, cast(sql.null(), 'jsonb'))),
      ),
    ),
    def(
      'std::json_set',
      'target: json, variadic path: str, named only value: optional json = {}, named only create_if_missing: bool = true, named only empty_treatment: JsonEmpty = {}',
      'optional json',
      // An empty `value` is handled as `empty_treatment` says (Gel; ReturnEmpty by default).
      (a) => {
        const value = a.opt(2) ?? cast(sql.null(), 'jsonb');
        const treatment = or(a, 4, sql.text('ReturnEmpty'));
        const empty = (name: string) =>
          sql.and(sql.isNull(value), sql.bin('=', treatment, sql.text(name)));
        const createIfMissing = or(a, 3, sql.bool(true));
        return {
          kind: 'Case',
          whens: [
            { when: empty('ReturnEmpty'), then: sql.null() },
            { when: empty('ReturnTarget'), then: a.at(0) },
            {
              when: empty('Error'),
              then: raise(a.at(0), pgType('jsonb'), sql.text('invalid empty JSON value'), '22023'),
            },
            {
              when: empty('UseNull'),
              then: fn(
                'jsonb_set',
                a.at(0),
                pathArray(a),
                cast(sql.text('null'), 'jsonb'),
                createIfMissing,
              ),
            },
            { when: empty('DeleteKey'), then: sql.bin('#-', a.at(0), pathArray(a)) },
          ],
          else: fn('jsonb_set', a.at(0), pathArray(a), value, createIfMissing),
        };
      },
    ),
    def(
      'std::json_array_unpack',
      'json',
      'set of json',
      (a) => fn('jsonb_array_elements', a.at(0)),
      SRF,
    ),
    // Tuples are jsonb arrays: each (key, value) pair becomes `["key", value]`.
    def(
      'std::json_object_unpack',
      'json',
      'set of tuple<str, json>',
      (a) => {
        const pairs = sql.fromFunction(fn('jsonb_each', a.at(0)), 'p', {
          columns: [
            { name: 'key', type: null },
            { name: 'value', type: null },
          ],
        });
        return fn(
          'jsonb_array_elements',
          fn(
            'coalesce',
            sql.scalar(
              sql.select({
                targets: [
                  sql.target(
                    sql.agg(
                      'jsonb_agg',
                      [fn('jsonb_build_array', sql.col('key', 'p'), sql.col('value', 'p'))],
                      {
                        orderBy: [sql.order(sql.col('key', 'p'))],
                      },
                    ),
                  ),
                ],
                from: [pairs],
              }),
            ),
            cast(sql.text('[]'), 'jsonb'),
          ),
        );
      },
      SRF,
    ),
    def(
      'std::json_object_pack',
      'pairs: set of tuple<str, json>',
      'json',
      (a) =>
        fn(
          'coalesce',
          fn('jsonb_object_agg', sql.bin('->>', a.at(0), num(0)), sql.bin('->', a.at(0), num(1))),
          cast(sql.text('{}'), 'jsonb'),
        ),
      AGG,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Arrays

/**
 * `array[:p] ++ [val] ++ array[p + 1 - inserting:]` with p the 0-based position of idx (negative
 * counts from the end); p must be in 0..len-1 to set, 0..len to insert.
 */
function splice(a: SqlArgs, inserting: 0 | 1): SqlExpr {
  const array = a.at(0);
  const n = fn('cardinality', array);
  const p = caseWhen([[sql.bin('<', a.at(1), num(0)), sql.bin('+', n, a.at(1))]], a.at(1));
  const slice = (lower: SqlExpr, upper: SqlExpr): SqlExpr => ({
    kind: 'Slice',
    expr: paren(array),
    lower,
    upper,
  });
  const head = slice(num(1), int4(p));
  const tail = slice(int4(sql.bin('+', p, num(2 - inserting))), int4(n));
  const outside = sql.or(
    sql.bin('<', p, num(0)),
    sql.bin('>', p, sql.bin('-', n, num(1 - inserting))),
  );
  return caseWhen(
    [
      [
        outside,
        raise(
          array,
          pgTypeFor(a.result ?? { kind: 'array', element: { kind: 'scalar', name: 'std::str' } }),
          sql.bin(
            '||',
            sql.bin('||', sql.text('array index '), cast(a.at(1), 'text')),
            sql.text(' is out of bounds'),
          ),
          '22023',
        ),
      ],
    ],
    sql.bin(
      '||',
      sql.bin('||', head, { kind: 'ArrayExpr', elements: [a.at(2)], type: null }),
      tail,
    ),
  );
}

export function arrays(): Overload[] {
  return [
    def(
      'std::array_unpack',
      'array: array<anytype>',
      'set of anytype',
      (a) => (jsonbArray(a, 0) ? fn('jsonb_array_elements', a.at(0)) : fn('unnest', a.at(0))),
      // The rows of a jsonb array are its items: read each as a value of the element type.
      { ...SRF, rows: (item, a) => (jsonbArray(a, 0) ? itemValue(a, 0, item) : item) },
    ),
    // Past either end: empty (or the default), not an error.
    def(
      'std::array_get',
      'array: array<anytype>, idx: int64, named only default: optional anytype = {}',
      'optional anytype',
      strict([0, 1], (a) => {
        if (jsonbArray(a, 0)) {
          const item = jsonbGet(a);
          const fallback = a.opt(2);
          return fallback === null ? item : fn('coalesce', item, fallback);
        }
        const position = caseWhen(
          [
            [
              sql.bin('<', a.at(1), num(0)),
              sql.bin('+', sql.bin('+', fn('cardinality', a.at(0)), a.at(1)), num(1)),
            ],
          ],
          sql.bin('+', a.at(1), num(1)),
        );
        const item: SqlExpr = {
          kind: 'Subscript',
          expr: paren(a.at(0)),
          index: caseWhen([[sql.bin('<', position, num(1)), sql.null()]], position),
        };
        const fallback = a.opt(2);
        return fallback === null ? item : fn('coalesce', item, fallback);
      }),
    ),
    def(
      'std::array_fill',
      'val: anytype, n: int64',
      'array<anytype>',
      strict([0], (a) => {
        // Past int4, n is PostgreSQL's largest, so the size limit raises (as Gel does).
        const n = int4(fn('least', a.at(1), num(2147483647)));
        const element = a.type(0);
        if (element && jsonbArrayOf(element))
          return jsonbFill(storedJson(element, a.at(0), a.env), n);
        return fn('array_fill', a.at(0), { kind: 'ArrayExpr', elements: [n], type: null });
      }),
    ),
    def(
      'std::array_replace',
      'array: array<anytype>, old: anytype, new: anytype',
      'array<anytype>',
      strict([1, 2], (a) => {
        if (!jsonbArray(a, 0)) return fn('array_replace', a.at(0), a.at(1), a.at(2));
        if (a.type(1)?.kind === 'array') return jsonbReplace(a);
        // An array of tuples is one jsonb array: rebuild it, element by element.
        const items = sql.items(fn('jsonb_array_elements', a.at(0)), 'e');
        const value = caseWhen(
          [[sql.bin('=', sql.col('value', 'e'), a.at(1)), a.at(2)]],
          sql.col('value', 'e'),
        );
        return fn(
          'coalesce',
          sql.scalar(
            sql.select({
              targets: [
                sql.target(
                  sql.agg('jsonb_agg', [value], { orderBy: [sql.order(sql.col('ord', 'e'))] }),
                ),
              ],
              from: [items],
            }),
          ),
          cast(sql.text('[]'), 'jsonb'),
        );
      }),
    ),
    // Replace the element at idx (negative from the end); outside the array is an error (22023).
    def(
      'std::array_set',
      'array: array<anytype>, idx: int64, val: anytype',
      'array<anytype>',
      // Element-wise: an empty argument is an empty result (the concatenation would not be).
      strict([0, 1, 2], (a) => (jsonbArray(a, 0) ? jsonbSplice(a, 0) : splice(a, 0))),
    ),
    // Insert before idx (len(array) appends); outside 0..len is an error (22023).
    def(
      'std::array_insert',
      'array: array<anytype>, idx: int64, val: anytype',
      'array<anytype>',
      // Element-wise: an empty argument is an empty result (the concatenation would not be).
      strict([0, 1, 2], (a) => (jsonbArray(a, 0) ? jsonbSplice(a, 1) : splice(a, 1))),
    ),
  ];
}
