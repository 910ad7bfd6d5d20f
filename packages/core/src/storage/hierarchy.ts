/**
 * storage/hierarchy: which concrete tables hold the rows of a type or a link's target.
 */
import { ROOT_OBJECT_TYPES, targetObjectTypes } from '../model/schema';
import type { ObjectType, Schema, TypeRef } from '../model/schema';
import type { QName } from '../sql/codegen/ddl';
import { tableName } from './names';

/**
 * Concrete types whose tables hold rows of `type` (itself if concrete, and its descendants;
 * every concrete type for the roots `std::BaseObject` and `std::Object`).
 */
export function concreteTablesOf(schema: Schema, type: string): ObjectType[] {
  const root = (ROOT_OBJECT_TYPES as readonly string[]).includes(type);
  return schema.objectTypes.filter(
    (t) => !t.abstract && (root || t.name === type || t.ancestors.includes(type)),
  );
}

/** Concrete types whose tables hold rows a link to `target` may reach (a union: any member's). */
export function targetTablesOf(schema: Schema, target: TypeRef): ObjectType[] {
  const names = new Set(
    targetObjectTypes(target).flatMap((t) => concreteTablesOf(schema, t).map((c) => c.name)),
  );
  return schema.objectTypes.filter((t) => names.has(t.name));
}

/**
 * The one table rows of `type` live in, if there is exactly one (concrete, no subtypes): a
 * link there gets a foreign key; any other target is polymorphic (./integrity's triggers).
 */
export function singleTable(schema: Schema, type: TypeRef): QName | null {
  if (type.kind !== 'object') return null;
  const tables = concreteTablesOf(schema, type.name);
  return tables.length === 1 && tables[0]?.name === type.name ? tableName(type.name) : null;
}
