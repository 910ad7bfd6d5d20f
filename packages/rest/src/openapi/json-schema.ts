/**
 * openapi/json-schema: the JSON Schema (2020-12) of a value of an EdgeQL type, as REST reads it
 * (`read`: the result JSON conventions, docs/http.md) or as a body or filter may give it
 * (`write`: what the binder accepts).
 *
 * The JSON kind comes from the model's `scalarFacts` (core's `scalarValueKind`, the table the
 * binder checks; exact numbers' text forms are core's `EXACT_TEXT`), so the
 * document cannot promise a kind the server refuses; `FORMATS` adds, per std scalar, what the
 * kind alone does not say (a uuid, a date, int32 bounds, base64). Custom scalars are their std
 * base, enums their labels. Constraints of custom scalars (and of the scalars they extend) add
 * their JSON Schema keywords (`constraints.ts`).
 */
import { EXACT_TEXT, type Constraint, type ParamKind, type Schema, type TypeRef } from '@svc/core';
import { scalarFacts } from '../model';
import { withConstraints } from './constraints';

/** A JSON Schema object (2020-12); OpenAPI 3.1 component schemas are exactly these. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export type Direction = 'read' | 'write';

/** ISO 8601 forms the engine writes for the local types and durations (std/bootstrap). */
const LOCAL_DATETIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?$';
const LOCAL_TIME = '^\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?$';
/** Each field may carry its own sign and seconds a fraction (`PT-1H30M`, `PT0.5S`, `P1Y-2M`). */
const DURATION =
  '^P(?!$)(-?\\d+Y)?(-?\\d+M)?(-?\\d+W)?(-?\\d+D)?(T(?=-?\\d)(-?\\d+H)?(-?\\d+M)?(-?\\d+(\\.\\d+)?S)?)?$';

/**
 * Per std scalar: what the JSON kind does not say. `pattern`s describe the form the engine
 * writes, so they apply to `read` only: a body may give any form the database parses.
 */
const FORMATS: Readonly<
  Record<string, { readonly both?: JsonSchema; readonly read?: JsonSchema }>
> = {
  'std::uuid': { both: { format: 'uuid' } },
  'std::int32': { both: { format: 'int32' } },
  'std::int64': { both: { format: 'int64' } },
  'std::sequence': { both: { format: 'int64' } },
  'std::float32': { both: { format: 'float' } },
  'std::float64': { both: { format: 'double' } },
  'std::bytes': { both: { contentEncoding: 'base64' } },
  'std::datetime': { both: { format: 'date-time' } },
  'cal::local_date': { both: { format: 'date' } },
  'cal::local_datetime': {
    both: { description: 'ISO 8601 local date and time (2024-05-01T12:30:00)' },
    read: { pattern: LOCAL_DATETIME },
  },
  'cal::local_time': {
    both: { description: 'ISO 8601 local time (12:30:00)' },
    read: { pattern: LOCAL_TIME },
  },
  'std::duration': {
    both: { description: 'ISO 8601 duration (PT1H30M)' },
    read: { pattern: DURATION },
  },
  'cal::relative_duration': {
    both: { description: 'ISO 8601 duration (P1Y2M3DT4H)' },
    read: { pattern: DURATION },
  },
  'cal::date_duration': {
    both: { description: 'ISO 8601 duration in days (P1Y2M3D)' },
    read: { pattern: DURATION },
  },
};

/**
 * The JSON Schema of a value of `type`.
 *
 * @example
 * typeSchema(schema, { kind: 'scalar', name: 'std::uuid' }, 'read'); // {type: 'string', format: 'uuid'}
 */
export function typeSchema(schema: Schema, type: TypeRef, direction: Direction): JsonSchema {
  switch (type.kind) {
    case 'scalar':
      return scalarSchema(schema, type.name, direction);
    case 'array':
      return { type: 'array', items: typeSchema(schema, type.element, direction) };
    case 'tuple': {
      if (type.elements.every((e) => e.name !== null)) {
        const properties: Record<string, JsonSchema> = {};
        for (const e of type.elements)
          properties[e.name as string] = typeSchema(schema, e.type, direction);
        return {
          type: 'object',
          properties,
          required: type.elements.map((e) => e.name as string),
          additionalProperties: false,
        };
      }
      return {
        type: 'array',
        prefixItems: type.elements.map((e) => typeSchema(schema, e.type, direction)),
        items: false,
        minItems: type.elements.length,
      };
    }
    case 'range':
      return rangeSchema(schema, type.element, direction);
    case 'multirange':
      return { type: 'array', items: rangeSchema(schema, type.element, direction) };
    case 'object':
    case 'union':
      // Not a property's type (links are read as ids or shapes by the caller).
      return {};
  }
}

/** Gel's range object: `{"lower", "upper", "inc_lower", "inc_upper"}`, or `{"empty": true}`. */
function rangeSchema(schema: Schema, element: TypeRef, direction: Direction): JsonSchema {
  const bound = nullable(typeSchema(schema, element, direction));
  return {
    type: 'object',
    properties: {
      lower: bound,
      upper: bound,
      inc_lower: { type: 'boolean' },
      inc_upper: { type: 'boolean' },
      empty: { type: 'boolean' },
    },
    additionalProperties: false,
  };
}

function scalarSchema(schema: Schema, name: string, direction: Direction): JsonSchema {
  const facts = scalarFacts(schema, name);
  if (facts?.enumValues) return { type: 'string', enum: [...facts.enumValues] };
  const formats = FORMATS[facts?.std ?? name];
  return withConstraints(
    {
      ...kindSchema(facts?.kind ?? null, direction),
      ...formats?.both,
      ...(direction === 'read' ? formats?.read : undefined),
    },
    scalarConstraints(schema, name),
  );
}

/** The constraints of a custom scalar and of the custom scalars it extends (all hold). */
function scalarConstraints(schema: Schema, name: string): readonly Constraint[] {
  const out: Constraint[] = [];
  const seen = new Set<string>();
  for (let at: string | undefined = name; at !== undefined && !seen.has(at); ) {
    seen.add(at);
    const custom = schema.scalarTypes.find((s) => s.name === at);
    if (!custom) break;
    out.push(...custom.constraints);
    at = custom.base;
  }
  return out;
}

/** What the binder accepts (`write`) or the engine writes (`read`) for one JSON kind. */
function kindSchema(kind: ParamKind | null, direction: Direction): JsonSchema {
  switch (kind?.kind) {
    case 'string':
      return { type: 'string' };
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
      // The binder's int64 bounds are JSON's exact integers; a stored int64 may be larger.
      if (direction === 'read' && kind.max >= Number.MAX_SAFE_INTEGER) return { type: 'integer' };
      return { type: 'integer', minimum: kind.min, maximum: kind.max };
    case 'number':
      return { type: 'number' };
    case 'exact':
      // Answers are JSON numbers; a body may send a string of digits to keep every digit.
      if (direction === 'read') return { type: kind.integer ? 'integer' : 'number' };
      return {
        type: [kind.integer ? 'integer' : 'number', 'string'],
        pattern: (kind.integer ? EXACT_TEXT.integer : EXACT_TEXT.decimal).source,
      };
    case 'any':
    case undefined:
      return {};
  }
}

/** `schema`, or null: `type: [T, "null"]` where a type is named, else `anyOf` with null. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  const type = schema.type;
  if (typeof type === 'string' || Array.isArray(type)) {
    const types = Array.isArray(type) ? type : [type];
    const out: Record<string, unknown> = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  return { anyOf: [schema, { type: 'null' }] };
}
