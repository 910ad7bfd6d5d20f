/**
 * std/jsonb-arrays: the forms of array functions over arrays stored as ONE jsonb array.
 *
 * An array whose element is a tuple or an array is a jsonb array (storage/types
 * `jsonbArrayOf`): an SQL array cannot hold arrays (it would be multidimensional: no jagged
 * arrays, `unnest` flattening every level) and tuples are jsonb already. Each item of that jsonb
 * array is its element's stored JSON (std/scalars `storedJson`: a tuple or a jsonb array is its
 * own jsonb; an SQL array its JSON result form) and is read back with `storedValue`. Every array
 * operator and function takes this path when `jsonbArray(args, i)` says so.
 *
 * Input: SqlArgs of an overload whose parameter `i` is such an array. Output: SqlExprs.
 * Invariants: items compare as jsonb (equal values have equal stored JSON: numbers compare by
 * value); order is the jsonb array's; an empty result is `'[]'::jsonb`, never NULL.
 */
import type { TypeRef } from '../model/schema';
import { pgType, sql, type PgType, type SqlExpr } from '../sql/ast';
import type { SqlArgs, TypeArgs, TypeEnv } from './model';
import { jsonbArrayOf } from '../storage/types';
import { pgTypeFor, raise, storedJson, storedValue } from './scalars';

const fn = (name: string, ...args: SqlExpr[]): SqlExpr => sql.func(name, args);
const jsonb = (text: string): SqlExpr => sql.cast(sql.text(text), pgType('jsonb'));
const int4 = (e: SqlExpr): SqlExpr => sql.cast(e, pgType('integer'));
const EMPTY = (): SqlExpr => jsonb('[]');

/**
 * True when parameter `i` is an array stored as one jsonb array (its elements are tuples or
 * arrays): storage's own rule. An `array<json>` is an SQL array of jsonb (`jsonb[]`), not one.
 */
export function isJsonbArray(a: TypeArgs, i: number): boolean {
  const t = a.type(i);
  return t?.kind === 'array' && jsonbArrayOf(t.element);
}

/** The element type of array parameter `i`. */
function elementOf(a: TypeArgs, i: number): TypeRef {
  const t = a.type(i);
  return t?.kind === 'array' ? t.element : { kind: 'scalar', name: 'std::str' };
}

/** An item of jsonb array parameter `i` read as a value of its element type. */
export function itemValue(a: TypeArgs, i: number, item: SqlExpr): SqlExpr {
  return storedValue(elementOf(a, i), item, a.env);
}

/** A value of array parameter `i`'s element type as an item of that jsonb array. */
export function asItem(a: TypeArgs, i: number, value: SqlExpr): SqlExpr {
  return storedJson(elementOf(a, i), value, a.env);
}

/** `jsonb_array_elements(array) with ordinality as e(value, ord)`. */
export function jsonbItems(array: SqlExpr, alias = 'e') {
  return sql.items(fn('jsonb_array_elements', array), alias);
}

/** `coalesce((select jsonb_agg(value order by ord) from ... where ...), '[]')`. */
function rebuild(array: SqlExpr, value: SqlExpr, where: SqlExpr | null = null): SqlExpr {
  return fn(
    'coalesce',
    sql.scalar(
      sql.select({
        targets: [
          sql.target(sql.agg('jsonb_agg', [value], { orderBy: [sql.order(sql.col('ord', 'e'))] })),
        ],
        from: [jsonbItems(array)],
        ...(where ? { where } : {}),
      }),
    ),
    EMPTY(),
  );
}

/** `contains(array, value)`: some item equals the value's stored JSON. */
export function jsonbContains(a: SqlArgs): SqlExpr {
  return sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [jsonbItems(a.at(0))],
      where: sql.bin('=', sql.col('value', 'e'), asItem(a, 0, a.at(1))),
    }),
  );
}

/** `find(array, value, from_pos)`: the 0-based index of the first equal item at or after from_pos, or -1. */
export function jsonbFind(a: SqlArgs, fromPos: SqlExpr): SqlExpr {
  const first = sql.scalar(
    sql.select({
      targets: [sql.target(sql.agg('min', [sql.col('ord', 'e')]))],
      from: [jsonbItems(a.at(0))],
      where: sql.and(
        sql.bin('=', sql.col('value', 'e'), asItem(a, 0, a.at(1))),
        sql.bin('>', sql.col('ord', 'e'), fromPos),
      ),
    }),
  );
  return sql.cast(fn('coalesce', sql.bin('-', first, sql.num(1)), sql.num(-1)), pgType('bigint'));
}

/** `array_replace(array, old, new)`: every item equal to `old` becomes `new`. */
export function jsonbReplace(a: SqlArgs): SqlExpr {
  const value: SqlExpr = {
    kind: 'Case',
    whens: [
      {
        when: sql.bin('=', sql.col('value', 'e'), asItem(a, 0, a.at(1))),
        then: asItem(a, 0, a.at(2)),
      },
    ],
    else: sql.col('value', 'e'),
  };
  return rebuild(a.at(0), value);
}

/** `array_get(array, idx)`: the item at idx (negative from the end), NULL past either end. */
export function jsonbGet(a: SqlArgs): SqlExpr {
  // jsonb's `->` counts from the end for a negative index and is NULL past either end.
  return itemValue(a, 0, sql.bin('->', a.at(0), int4(a.at(1))));
}

/**
 * `array_fill(val, n)` of a tuple or an array: n copies of the item (`n` already checked by the
 * caller to be in range).
 */
export function jsonbFill(item: SqlExpr, n: SqlExpr): SqlExpr {
  const series = sql.fromFunction(fn('generate_series', sql.num(1), n), 'g', {
    columns: [{ name: 'i', type: null }],
  });
  return fn(
    'coalesce',
    sql.scalar(sql.select({ targets: [sql.target(sql.agg('jsonb_agg', [item]))], from: [series] })),
    EMPTY(),
  );
}

/**
 * `array_set` (inserting 0) and `array_insert` (inserting 1) of a jsonb array: the position p of
 * idx (negative from the end) must be in 0..len-1 to set, 0..len to insert (22023 otherwise).
 */
export function jsonbSplice(a: SqlArgs, inserting: 0 | 1): SqlExpr {
  const array = a.at(0);
  const n = fn('jsonb_array_length', array);
  const p: SqlExpr = {
    kind: 'Case',
    whens: [{ when: sql.bin('<', a.at(1), sql.num(0)), then: sql.bin('+', n, a.at(1)) }],
    else: a.at(1),
  };
  const outside = sql.or(
    sql.bin('<', p, sql.num(0)),
    sql.bin('>', p, sql.bin('-', n, sql.num(1 - inserting))),
  );
  const path: SqlExpr = {
    kind: 'ArrayExpr',
    elements: [sql.cast(p, pgType('text'))],
    type: null,
  };
  const item = asItem(a, 0, a.at(2));
  return {
    kind: 'Case',
    whens: [
      {
        when: outside,
        then: raise(
          array,
          pgType('jsonb'),
          sql.bin(
            '||',
            sql.bin('||', sql.text('array index '), sql.cast(a.at(1), pgType('text'))),
            sql.text(' is out of bounds'),
          ),
          '22023',
        ),
      },
    ],
    else: inserting ? fn('jsonb_insert', array, path, item) : fn('jsonb_set', array, path, item),
  };
}

/**
 * A set-of argument of an element-wise or set-returning call (`in`, `enumerate`, `assert_*`)
 * arrives as an SQL array of the whole set (model `CallKind`); an array-typed element is its
 * stored JSON there (an SQL array of arrays would be multidimensional). The planner builds the
 * items with `setItem`; the forms read them with `setItemValue`.
 */
export function setItem(type: TypeRef, value: SqlExpr, env: TypeEnv): SqlExpr {
  return type.kind === 'array' ? storedJson(type, value, env) : value;
}

/** An item of a set-of argument's SQL array as a value of the set's type (see `setItem`). */
export function setItemValue(type: TypeRef | null, item: SqlExpr, env: TypeEnv): SqlExpr {
  return type?.kind === 'array' ? storedValue(type, item, env) : item;
}

/** The SQL type of a set-of argument's SQL array (see `setItem`). */
export function setArrayType(type: TypeRef | null): PgType {
  if (type?.kind === 'array') return pgType('jsonb', 1);
  return pgTypeFor({ kind: 'array', element: type ?? { kind: 'scalar', name: 'std::str' } });
}
