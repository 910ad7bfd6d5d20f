/**
 * openapi/schemas: the component schemas of the data routes, read from the REST model only.
 *
 * - `<Type>`: the default shape (model `shape`), exactly: every field present (`required`), no
 *   other (`additionalProperties: false`); `id` and computeds `readOnly`; links as uuid strings
 *   (multi: arrays, `[]` when empty), expanded links inline, or as a `$ref` to the target's
 *   component when the expansion is the target's own default shape; unset singles `null`.
 * - `<Type>-insert` / `<Type>-update`: the POST and PATCH bodies, exactly what the planner
 *   accepts: the model's `writable` fields (no `id`, no computeds, nothing hidden), links as
 *   target ids, `null` for fields that are not required; POST requires the required fields
 *   without a default; PATCH leaves out readonly fields (the compiler refuses them) and needs one
 *   field. A link to several types takes the id of an object of any of them.
 * - A property's own constraints add their JSON Schema keywords to its value (each element's,
 *   for a multi property: Gel checks every element), as its scalar type's do (`constraints.ts`).
 * Names: a type's route with `::` as `.` (`blog.Post`); `-` never occurs in a type name, so
 * the body names cannot meet a type's; a type whose name is taken (by `Error` or a schema of
 * `extra`) is `<name>-object`.
 */
import { ERROR_ENVELOPE_SCHEMA, type Schema } from '@svc/core';
import type { RestField, RestModel, RestType, Shape, ShapeField } from '../model';
import { withConstraints } from './constraints';
import { nullable, typeSchema, type JsonSchema } from './json-schema';

export const UUID: JsonSchema = { type: 'string', format: 'uuid' };
export const ERROR_SCHEMA_NAME = 'Error';

/** The one error envelope every route answers with: core's one description of it. */
export const ERROR_SCHEMA: JsonSchema = ERROR_ENVELOPE_SCHEMA;

/** Component names of the types, and where a schema `$ref`s them. */
export interface Names {
  /** The component of a type's default shape, by qualified type name. */
  readonly shape: ReadonlyMap<string, string>;
  /** The component of each top-level shape, by its structure (`shapeKey`). */
  readonly byShape: ReadonlyMap<string, string>;
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Component names for every type of the model, avoiding `taken` ones. */
export function componentNames(model: RestModel, taken: ReadonlySet<string>): Names {
  const shape = new Map<string, string>();
  const byShape = new Map<string, string>();
  for (const t of model.types) {
    const base = t.route.replaceAll('::', '.');
    const name = taken.has(base) ? `${base}-object` : base;
    shape.set(t.name, name);
    byShape.set(shapeKey(t.shape), name);
  }
  return { shape, byShape };
}

/** The component schemas of every type: its shape and its two bodies. */
export function typeSchemas(
  model: RestModel,
  schema: Schema,
  names: Names,
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const t of model.types) {
    const name = names.shape.get(t.name) as string;
    out[name] = shapeSchema(t.shape, schema, names, true);
    out[`${name}-insert`] = bodySchema(t, schema, 'insert');
    out[`${name}-update`] = bodySchema(t, schema, 'update');
  }
  return out;
}

function shapeKey(shape: Shape): string {
  return `${shape.type}{${shape.fields
    .map((f) => (f.expanded ? `${f.name}:${shapeKey(f.expanded)}` : f.name))
    .join(',')}}`;
}

/**
 * The JSON Schema of objects read with `shape`: a `$ref` to the component of a top-level shape
 * with the same structure (an expansion is usually the target's own default shape), else inline.
 */
export function shapeSchema(shape: Shape, schema: Schema, names: Names, isTop = false): JsonSchema {
  if (!isTop) {
    const named = names.byShape.get(shapeKey(shape));
    if (named !== undefined) return ref(named);
  }
  const properties: Record<string, JsonSchema> = {};
  for (const f of shape.fields) properties[f.name] = readSchema(f, schema, names);
  return {
    type: 'object',
    description: `${shape.type}: the default REST shape.`,
    properties,
    required: shape.fields.map((f) => f.name),
    additionalProperties: false,
  };
}

function readSchema(f: ShapeField, schema: Schema, names: Names): JsonSchema {
  let one: JsonSchema;
  if (f.expanded) one = shapeSchema(f.expanded, schema, names);
  else if (f.kind === 'link') one = UUID;
  else one = withConstraints(typeSchema(schema, f.type, 'read'), f.constraints);
  const value = f.many ? { type: 'array', items: one } : f.required ? one : nullable(one);
  const readOnly = f.computed || f.name === 'id';
  return readOnly ? { ...value, readOnly: true } : value;
}

/** The JSON Schema of a field's value in a body (and of a link's id in a filter). */
export function writeSchema(f: RestField, schema: Schema): JsonSchema {
  const one =
    f.kind === 'link' ? UUID : withConstraints(typeSchema(schema, f.type, 'write'), f.constraints);
  return f.many ? { type: 'array', items: one } : one;
}

/** The fields a body may name: the model's `writable`, less readonly ones in a PATCH. */
export function bodyFields(t: RestType, kind: 'insert' | 'update'): readonly RestField[] {
  return kind === 'update' ? t.writable.filter((f) => !f.readonly) : t.writable;
}

function bodySchema(t: RestType, schema: Schema, kind: 'insert' | 'update'): JsonSchema {
  const fields = bodyFields(t, kind);
  const properties: Record<string, JsonSchema> = {};
  for (const f of fields) {
    const value = writeSchema(f, schema);
    properties[f.name] = f.required ? value : nullable(value);
  }
  const required =
    kind === 'insert' ? fields.filter((f) => f.required && !f.hasDefault).map((f) => f.name) : [];
  return {
    type: 'object',
    description:
      kind === 'insert'
        ? `The body of POST /api/${t.route}: the fields of the new ${t.route}; links as the target's id (multi: an array of ids).`
        : `The body of PATCH /api/${t.route}/{id}: the fields to change, at least one; null clears a field that is not required.`,
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(kind === 'update' ? { minProperties: 1 } : {}),
    additionalProperties: false,
  };
}
