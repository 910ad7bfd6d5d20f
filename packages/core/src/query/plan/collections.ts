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
import type { TypeRef } from '../../model/schema';
import { jsonbArrayOf } from '../../storage/types';
import type { TypeEnv } from '../../std/model';
import { jsonArrayOfItems, jsonOf, storedValue, tupleJson } from '../../std/scalars';

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
      const unnesting = sql.func(stored ? 'jsonb_array_elements' : 'unnest', [value]);
      return nullIfNull(
        value,
        jsonArrayOfItems(unnesting, (item) =>
          resultJson(type.element, stored ? storedValue(type.element, item, env) : item, env),
        ),
      );
    }
    default:
      return jsonOf(type, value, env);
  }
}
