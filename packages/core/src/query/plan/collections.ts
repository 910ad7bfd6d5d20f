/**
 * plan/collections: the result form of collection values that hold objects.
 *
 * A tuple or array value holds its objects as ids (tuples are jsonb: the id as a JSON string;
 * arrays of objects are uuid[]). In a result an object is always a JSON object: with the shape
 * it carried when it was put into the collection (the planner materialises that where it can),
 * else just `{"id": ...}`, as Gel writes an object without a shape. `resultJson` renders a value
 * of any type in that form; a type without objects is std's JSON form (std/scalars `jsonOf`).
 */
import { pgType, sql, type SqlExpr } from '../../sql';
import type { TypeRef } from '../../schema/model';
import { jsonbArrayOf } from '../../schema/storage/types';
import type { TypeEnv } from '../../std/model';
import { decodeParam, jsonOf, tupleJson } from '../../std/scalars';

/** Whether values of `type` hold objects. */
export function holdsObjects(type: TypeRef): boolean {
  switch (type.kind) {
    case 'object':
    case 'union':
      return true;
    case 'tuple':
      return type.elements.some((e) => holdsObjects(e.type));
    case 'array':
      return holdsObjects(type.element);
    default:
      return false;
  }
}

const nullIfNull = (probe: SqlExpr, value: SqlExpr): SqlExpr => ({
  kind: 'Case',
  whens: [{ when: sql.isNull(probe), then: sql.cast(sql.null(), pgType('json')) }],
  else: value,
});

/** The result JSON of one value of `type` (objects as `{"id": ...}`). */
export function resultJson(type: TypeRef, value: SqlExpr, env: TypeEnv): SqlExpr {
  if (!holdsObjects(type)) return jsonOf(type, value, env);
  switch (type.kind) {
    case 'object':
    case 'union':
      return nullIfNull(value, sql.func('json_build_object', [sql.text('id'), value]));
    case 'tuple':
      return tupleJson(type, value, env, (t, v) => resultJson(t, v, env));
    case 'array': {
      const stored = jsonbArrayOf(type.element);
      const items = sql.items(sql.func(stored ? 'jsonb_array_elements' : 'unnest', [value]), 'e');
      const item = stored
        ? decodeParam(type.element, sql.col('value', 'e'), env)
        : sql.col('value', 'e');
      const agg = sql.agg('json_agg', [resultJson(type.element, item, env)], {
        orderBy: [sql.order(sql.col('ord', 'e'))],
      });
      const empty = sql.cast(sql.text('[]'), pgType('json'));
      return nullIfNull(
        value,
        sql.scalar(
          sql.select({ targets: [sql.target(sql.func('coalesce', [agg, empty]))], from: [items] }),
        ),
      );
    }
    default:
      return jsonOf(type, value, env);
  }
}
