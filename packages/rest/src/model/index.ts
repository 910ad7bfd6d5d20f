/**
 * model: the REST view of a schema, the one source both the request planner (EdgeQL text) and
 * the OpenAPI document read, so what is served and what is described cannot drift apart.
 *
 * Input: @svc/core's `Schema`. Output: a `RestModel`: every non-abstract object type under its
 * route name, the fields a client may read (the default shape, spec "REST default shape") and
 * write, each with its JSON value kind.
 *
 * Rules (spec "REST default shape", DECISIONS "REST"):
 * - `rest::hidden` fields are absent everywhere: not read, not written, not filtered, not
 *   ordered (a client naming one gets the 400 of an unknown field).
 * - Properties and computeds are read; links read as the target's id (a multi link as an array
 *   of ids, `[]` when empty); a link annotated `rest::expand` is inlined with the target's
 *   default shape, recursively, except when the target is already being expanded on the way
 *   down (the cycle guard): then it reads as ids again.
 * - Written: stored (non-computed) fields other than `id`; readonly ones too, which the compiler
 *   then refuses on update (spec "Write bodies").
 * - A type in module `default` is routed by its short name (`/api/User`); any other module's
 *   type by its qualified name (`/api/blog::Post`).
 */
import type { ObjectType, Pointer, Schema, TypeRef } from '@svc/core';

export const HIDDEN = 'rest::hidden';
export const EXPAND = 'rest::expand';

/** One field of a type as REST reads or writes it. */
export interface RestField {
  readonly name: string;
  readonly kind: 'property' | 'link';
  /** `multi`: read as a JSON array (`[]` when empty), written as one. */
  readonly many: boolean;
  /** Declared `required` (so a single one is never null when read). */
  readonly required: boolean;
  readonly computed: boolean;
  readonly readonly: boolean;
  /** Has a default (so an insert may leave it out even when required). */
  readonly hasDefault: boolean;
  /** The property's type, or the link's target (an object type or a union of them). */
  readonly type: TypeRef;
  /** For links: the object type written ids must belong to (null for a union target). */
  readonly target: string | null;
  /** `rest::expand` on a link to one object type. */
  readonly expand: boolean;
}

/** A field as the default shape reads it: an expanded link carries the target's shape. */
export interface ShapeField extends RestField {
  /** Set when the link is inlined (expand, and not a cycle); unset means ids. */
  readonly expanded?: Shape;
}

/** The default shape of a type: what GET, POST and PATCH answer for one object. */
export interface Shape {
  /** The qualified type name (`default::User`). */
  readonly type: string;
  /** `id` first, then the fields in schema order. */
  readonly fields: readonly ShapeField[];
}

export interface RestType {
  /** The qualified name (`default::User`), as EdgeQL text names it. */
  readonly name: string;
  /** The route segment (`User`, or `blog::Post` outside `default`). */
  readonly route: string;
  /** Every visible (non-hidden) field by name, `id` included. */
  readonly fields: ReadonlyMap<string, RestField>;
  /** The fields a body may name: stored, visible, not `id`. */
  readonly writable: readonly RestField[];
  /** The default shape, expansions resolved. */
  readonly shape: Shape;
}

export interface RestModel {
  /** Every non-abstract object type, sorted by route. */
  readonly types: readonly RestType[];
  /** A type by its route segment. */
  readonly byRoute: ReadonlyMap<string, RestType>;
}

/** Builds the REST view of `schema`. Pure; callers cache it per schema version. */
export function restModel(schema: Schema): RestModel {
  const objects = new Map(schema.objectTypes.map((t) => [t.name, t]));
  const fieldsOf = new Map<string, ReadonlyMap<string, RestField>>();
  for (const t of schema.objectTypes) fieldsOf.set(t.name, visibleFields(t));

  const shapeOf = (type: string, path: readonly string[]): Shape => {
    const fields = fieldsOf.get(type) ?? new Map<string, RestField>();
    const out: ShapeField[] = [];
    for (const field of fields.values()) {
      if (
        field.expand &&
        field.target &&
        !path.includes(field.target) &&
        objects.has(field.target)
      ) {
        out.push({ ...field, expanded: shapeOf(field.target, [...path, field.target]) });
      } else {
        out.push(field);
      }
    }
    return { type, fields: out };
  };

  const types: RestType[] = schema.objectTypes
    .filter((t) => !t.abstract)
    .map((t) => {
      const fields = fieldsOf.get(t.name) as ReadonlyMap<string, RestField>;
      return {
        name: t.name,
        route: routeName(t.name),
        fields,
        writable: [...fields.values()].filter((f) => !f.computed && f.name !== 'id'),
        shape: shapeOf(t.name, [t.name]),
      };
    })
    .sort((a, b) => (a.route < b.route ? -1 : a.route > b.route ? 1 : 0));
  return { types, byRoute: new Map(types.map((t) => [t.route, t])) };
}

/** `default::User` → `User`; `blog::Post` → `blog::Post`. */
export function routeName(qualified: string): string {
  return qualified.startsWith('default::') ? qualified.slice('default::'.length) : qualified;
}

/** Whether an annotation's value turns it on (`'true'`; `'false'` turns it off). */
function annotated(p: Pointer, name: string): boolean {
  const value = p.annotations[name];
  return value !== undefined && value.trim().toLowerCase() !== 'false';
}

function visibleFields(t: ObjectType): ReadonlyMap<string, RestField> {
  const out = new Map<string, RestField>();
  const id = t.pointers.find((p) => p.name === 'id');
  if (id && !annotated(id, HIDDEN)) out.set('id', field(id));
  for (const p of t.pointers) {
    if (p.name === 'id' || p.name === '__type__' || annotated(p, HIDDEN)) continue;
    out.set(p.name, field(p));
  }
  return out;
}

function field(p: Pointer): RestField {
  const target = p.kind === 'link' && p.target.kind === 'object' ? p.target.name : null;
  return {
    name: p.name,
    kind: p.kind,
    many: p.cardinality === 'many',
    required: p.required,
    computed: p.computed !== null,
    readonly: p.readonly,
    hasDefault: p.default !== null,
    type: p.target,
    target,
    expand: p.kind === 'link' && target !== null && annotated(p, EXPAND),
  };
}
