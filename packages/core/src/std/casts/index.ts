/**
 * std/casts: which scalar converts to which, implicitly (to match an overload), on assignment
 * (storing an int64 literal into an int16 property) or only when written (`<T>x`), and the SQL
 * that does it.
 *
 * Input: EdgeQL TypeRefs and a TypeEnv. Output: `implicitDistance(from, to)` (the length of the
 * shortest chain of implicit casts, or null), `commonType(types)`, `resolveCast(from, to)`.
 * Parts: casts/implicit (the graph), casts/json (`<T>json`), casts/scalar (scalar to scalar);
 * which cast applies is decided here (`findCast`).
 * Invariants:
 * - the implicit graph is Gel's: int16 → int32 → int64 → {float64, bigint, decimal},
 *   int16 → float32 → float64, bigint → decimal, local_date → local_datetime,
 *   date_duration → relative_duration; decimal/bigint and floats never meet implicitly;
 * - a custom scalar is its std base for resolution (distance 0), an enum only matches `anyenum`,
 *   `anyscalar`, `anytype` or itself;
 * - casts that Gel refuses (`<bytes>'x'`, as in Gel) throw `InvalidTypeError` naming both types.
 */
import { InvalidTypeError, type SourcePosition } from '../../errors';
import { printTypeRef, type TypeRef } from '../../model/schema';
import { jsonbArrayOf, scalarPgType } from '../../storage/types';
import { pgType, sql, type SqlExpr } from '../../sql/ast';
import type { TypeEnv, Volatility } from '../model';
import { rangeCast, rangeFromJson } from '../range-casts';
import { isStdScalarName, jsonOf, pgTypeFor, storedJson, storedValue } from '../scalars';
import { ASSIGNMENT, resolutionBase, implicitDistance } from './implicit';
import {
  cannotCast,
  identity,
  fromJson,
  notNullElement,
  tupleCast,
  tupleFromJson,
  isJson,
} from './json';
import { enumLabel } from '../scalars';
import { scalarCast } from './scalar';

export {
  commonType,
  implicitDistance,
  implicitJoin,
  implicitlyReachable,
  resolutionBase,
  scalarDistance,
} from './implicit';

export interface Cast {
  readonly from: TypeRef;
  readonly to: TypeRef;
  readonly implicit: boolean;
  /** Allowed silently when storing into a pointer of type `to`. */
  readonly assignment: boolean;
  readonly volatility: Volatility;
  /** The cast may turn a value into no value (Gel: JSON null cast from json is empty). */
  readonly mayBeEmpty: boolean;
  readonly sql: (value: SqlExpr) => SqlExpr;
}

/**
 * `<to>value` for a value of type `from`. Throws InvalidTypeError for a cast Gel does not allow.
 * Object casts (`<User>uuid`: the object with that id, or a cardinality error) are the
 * compiler's: they need a table.
 */
export function resolveCast(
  from: TypeRef,
  to: TypeRef,
  env: TypeEnv,
  position?: SourcePosition,
): Cast {
  const found = findCast(from, to, env);
  if (!found) return cannotCast(from, to, position);
  const distance = implicitDistance(from, to, env);
  const assignment =
    distance !== null ||
    (from.kind === 'scalar' &&
      to.kind === 'scalar' &&
      ((ASSIGNMENT[resolutionBase(from.name, env) ?? ''] ?? []).includes(to.name) ||
        (resolutionBase(from.name, env) === 'std::str' && env.enumValues(to.name) !== null) ||
        assignableToCustomScalar(from, to.name, env))) ||
    assignableByElement(from, to, env);
  return {
    from,
    to,
    implicit: distance !== null,
    assignment,
    volatility: found.volatility,
    mayBeEmpty: isJson(from, env) && !isJson(to, env),
    sql: found.sql,
  };
}

/** Arrays and tuples are assignable element by element (Gel: `[3, 1234.5]` into an
 * `array<float32>`). */
function assignableByElement(from: TypeRef, to: TypeRef, env: TypeEnv): boolean {
  const assignable = (a: TypeRef, b: TypeRef): boolean => {
    try {
      return resolveCast(a, b, env).assignment;
    } catch (error) {
      if (error instanceof InvalidTypeError) return false;
      throw error;
    }
  };
  if (from.kind === 'array' && to.kind === 'array') return assignable(from.element, to.element);
  if (from.kind === 'tuple' && to.kind === 'tuple') {
    return (
      from.elements.length === to.elements.length &&
      from.elements.every((e, i) => {
        const target = to.elements[i] as { name: string | null; type: TypeRef };
        // Named elements match by name: `(b := 1, a := 2)` is not a `tuple<a: ..., b: ...>`.
        if (e.name !== null && target.name !== null && e.name !== target.name) return false;
        return assignable(e.type, target.type);
      })
    );
  }
  return false;
}

/**
 * A value is assignable to a custom scalar when it is assignable to the std scalar the custom one
 * extends (Gel: `number := '1'` for `scalar type issue_num_t extending str`); the cast to the
 * custom scalar's DOMAIN then checks its constraints (a violation is a ConstraintViolationError).
 */
function assignableToCustomScalar(from: TypeRef, to: string, env: TypeEnv): boolean {
  if (isStdScalarName(to) || env.enumValues(to) !== null) return false;
  const base = env.stdBase(to);
  if (!base || base === to) return false;
  const baseType: TypeRef = { kind: 'scalar', name: base };
  return findCast(from, baseType, env) !== null && resolveCast(from, baseType, env).assignment;
}

export function findCast(
  from: TypeRef,
  to: TypeRef,
  env: TypeEnv,
): { sql: (value: SqlExpr) => SqlExpr; volatility: Volatility } | null {
  const immutable = (f: (value: SqlExpr) => SqlExpr) => ({
    sql: f,
    volatility: 'Immutable' as const,
  });
  if (printTypeRef(from) === printTypeRef(to)) return immutable(identity);
  if (to.kind === 'scalar' && resolutionBase(to.name, env) === 'std::json') {
    // `<json>x`: the value's JSON result form as jsonb (`<json>'a'` is a JSON string, not parsed).
    return immutable((v) => sql.cast(jsonOf(from, v, env), pgType('jsonb')));
  }
  if (from.kind === 'scalar' && resolutionBase(from.name, env) === 'std::json') {
    if (to.kind === 'range' || to.kind === 'multirange')
      return immutable(rangeFromJson(to, fromJson(to.element, env)));
    return immutable(to.kind === 'tuple' ? tupleFromJson(to, env) : fromJson(to, env));
  }
  if (from.kind === 'tuple' && to.kind === 'tuple') return tupleCast(from, to, env);
  const ranges = rangeCast(from, to, (a, b) => findCast(a, b, env));
  if (ranges) return ranges;
  if (from.kind === 'array' && to.kind === 'array') {
    if (jsonbArrayOf(from.element) || jsonbArrayOf(to.element)) {
      // Arrays of tuples or arrays are one jsonb array: convert element by element in order.
      const element = findCast(from.element, to.element, env);
      if (!element) return null;
      return {
        volatility: element.volatility,
        sql: (v) => {
          const items = sql.items(sql.func('jsonb_array_elements', [v]), 'e');
          const converted = storedJson(
            to.element,
            element.sql(storedValue(from.element, sql.col('value', 'e'), env)),
            env,
          );
          const agg = sql.agg('jsonb_agg', [converted], {
            orderBy: [sql.order(sql.col('ord', 'e'))],
          });
          return {
            kind: 'Case',
            whens: [{ when: sql.isNull(v), then: sql.null() }],
            else: sql.scalar(
              sql.select({
                targets: [
                  sql.target(
                    sql.func('coalesce', [agg, sql.cast(sql.text('[]'), pgType('jsonb'))]),
                  ),
                ],
                from: [items],
              }),
            ),
          };
        },
      };
    }
    const found = findCast(from.element, to.element, env);
    if (!found) return null;
    const element =
      isJson(from.element, env) && !isJson(to.element, env)
        ? { ...found, sql: notNullElement(from, to, found.sql) }
        : found;
    return {
      volatility: element.volatility,
      sql: (v) => {
        const items = sql.items(sql.func('unnest', [v]), 'e');
        const converted = sql.array(
          sql.select({
            targets: [sql.target(element.sql(sql.col('value', 'e')))],
            from: [items],
            orderBy: [sql.order(sql.col('ord', 'e'))],
          }),
        );
        return {
          kind: 'Case',
          whens: [{ when: sql.isNull(v), then: sql.null() }],
          else: sql.cast(converted, pgTypeFor(to)),
        };
      },
    };
  }
  if (from.kind !== 'scalar' || to.kind !== 'scalar') return null;
  const fromEnum = env.enumValues(from.name);
  const toEnum = env.enumValues(to.name);
  const a = fromEnum ? 'std::str' : resolutionBase(from.name, env);
  const b = toEnum ? 'std::str' : resolutionBase(to.name, env);
  if (a === null || b === null) return null;
  if (fromEnum && toEnum) return null;
  // Into a custom scalar (a DOMAIN) or enum: convert to its base, then the domain checks.
  const toDomain = !isStdScalarName(to.name)
    ? (v: SqlExpr) => sql.cast(toEnum ? enumLabel(v, to.name, toEnum) : v, scalarPgType(to.name))
    : identity;
  const base = scalarCast(a, b);
  if (!base) return null;
  return { volatility: base.volatility, sql: (v) => toDomain(base.sql(v)) };
}
