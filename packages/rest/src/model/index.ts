/**
 * model: the REST view of a schema, the one source both the request planner (EdgeQL text) and
 * the OpenAPI document read, so what is served and what is described cannot drift apart.
 *
 * Input: @svc/core's `Schema`. Output: a `RestModel`: every non-abstract object type under its
 * route name, the fields a client may read (the default shape; docs/http.md, REST) and
 * write, each with its JSON value kind.
 *
 * Rules (docs/http.md, REST):
 * - `rest::hidden` fields are absent everywhere: not read, not written, not filtered, not
 *   ordered (a client naming one gets the 400 of an unknown field).
 * - Properties and computeds are read; links read as the target's id (a multi link as an array
 *   of ids, `[]` when empty); a link annotated `rest::expand` is inlined with the target's
 *   default shape, recursively, except when the target is already being expanded on the way
 *   down (the cycle guard): then it reads as ids again.
 * - Written: stored (non-computed) fields other than `id`; readonly ones too, which the compiler
 *   then refuses on update. A link to a union of types (`A | B`) takes the
 *   id of an object of any of them (the planner casts it to the union, `<A | B><uuid>$v`).
 * - Filters (`filterOperators`): a single property of a scalar type takes `=` and `__in`, and
 *   `__contains` when it is text (`str`, a custom str scalar, an enum); a single link takes `=`
 *   and `__in` by the target's id (`?author=<uuid>`); multi fields, `json` and collection-typed
 *   properties are not filters. `order_by` (`orderable`) takes single scalar properties,
 *   computeds included.
 * - A linked collection (`linkedShape`) answers the target's default shape; a link to a union
 *   of types answers `{ id }` objects. A single expanded link is answered as the object (or
 *   null), a multi one as an array of objects.
 * - A type in module `default` is routed by its short name (`/api/User`); any other module's
 *   type by its qualified name (`/api/blog::Post`).
 */
import {
  scalarValueKind,
  type Constraint,
  type ObjectType,
  type ParamKind,
  type Pointer,
  type Schema,
  type TypeRef,
} from '@svc/core';
import type { FilterOperator } from '../request/api-request';

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
  /** For links to one object type: that type (null for a union target; `type` has its members). */
  readonly target: string | null;
  /** `rest::expand` on a link to one object type. */
  readonly expand: boolean;
  /** The pointer's own constraints (its scalar type's are the type's). */
  readonly constraints: readonly Constraint[];
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
    constraints: p.constraints,
  };
}

/** The list-route filter operators `field` takes (none: it is not a filter). See the header. */
export function filterOperators(field: RestField, schema: Schema): readonly FilterOperator[] {
  if (field.many) return [];
  if (field.kind === 'link') return ['eq', 'in'];
  const type = field.type;
  if (type.kind !== 'scalar') return [];
  const kind = scalarValueKind(schema, type.name);
  if (kind === null || kind.kind === 'any') return [];
  const custom = schema.scalarTypes.find((s) => s.name === type.name);
  const std = custom ? custom.stdBase : type.name;
  return std === 'std::str' ? ['eq', 'in', 'contains'] : ['eq', 'in'];
}

/** Whether `order_by` takes `field`: a single property of a scalar type. */
export function orderable(field: RestField): boolean {
  return field.kind === 'property' && !field.many && field.type.kind === 'scalar';
}

/** The shape a linked collection answers: the target's default shape, `{ id }` for a union. */
export function linkedShape(model: RestModel, link: RestField): Shape {
  const target = link.target === null ? undefined : model.types.find((t) => t.name === link.target);
  if (target) return target.shape;
  let shape = idShapes.get(link);
  if (!shape) {
    const type = link.type.kind === 'union' ? link.type.members.join(' | ') : 'std::BaseObject';
    shape = { type, fields: [ID_FIELD] };
    idShapes.set(link, shape);
  }
  return shape;
}

const idShapes = new WeakMap<RestField, Shape>();
const ID_FIELD: RestField = {
  name: 'id',
  kind: 'property',
  many: false,
  required: true,
  computed: false,
  readonly: true,
  hasDefault: true,
  type: { kind: 'scalar', name: 'std::uuid' },
  target: null,
  expand: false,
  constraints: [],
};

/** What a scalar's values are: the JSON kind, the std base they are stored as, enum labels. */
export interface ScalarFacts {
  readonly kind: ParamKind;
  /** The std scalar the values are stored as (`std::str` for enums). */
  readonly std: string;
  readonly enumValues: readonly string[] | null;
}

/**
 * The facts of scalar `name` (std, custom or enum), or null for a name the schema does not know:
 * what the planner converts filter text by and the OpenAPI document describes values with. The
 * kind is core's `scalarValueKind`, the table the binder checks.
 */
export function scalarFacts(schema: Schema, name: string): ScalarFacts | null {
  const kind = scalarValueKind(schema, name);
  if (kind === null) return null;
  const custom = schema.scalarTypes.find((s) => s.name === name);
  return {
    kind,
    std: custom ? custom.stdBase : name,
    enumValues: custom ? custom.enumValues : null,
  };
}
