/**
 * JSON Schemas (2020-12, as svc's OpenAPI 3.1 document writes them) as readable trees, and an
 * example value of a schema for the "Try it" body. `$ref`s to component schemas show as links to
 * the component (never expanded in place, so a cycle cannot loop); everything else is drawn
 * from the keywords: type (`[T, "null"]` is a nullable T), format, enum, bounds, pattern,
 * readOnly, properties with their required marks, items, prefixItems, anyOf/oneOf/allOf.
 */
import { type Child, add, h } from '@svc/dom';
import { prose } from './prose';

export type Json = { readonly [key: string]: unknown };

const REF_PREFIX = '#/components/schemas/';

/** The component name a `$ref` points to, or undefined. */
export function refName(schema: Json): string | undefined {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(REF_PREFIX)
    ? decodeURIComponent(ref.slice(REF_PREFIX.length).replaceAll('~1', '/').replaceAll('~0', '~'))
    : undefined;
}

/** The id of a component schema's block on the page, for links to it. */
export function schemaAnchor(name: string): string {
  return `schema-${name}`;
}

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The constraint keywords shown beside a type, as `keyword: value` text. */
const FACETS: readonly [string, string][] = [
  ['format', 'format'],
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['minimum', '≥'],
  ['exclusiveMinimum', '>'],
  ['maximum', '≤'],
  ['exclusiveMaximum', '<'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
  ['minProperties', 'min properties'],
  ['pattern', 'pattern'],
  ['contentEncoding', 'encoding'],
  ['default', 'default'],
];

/** A one-line summary of a schema's type: `string`, `integer | null`, `array of Book`, `Book`. */
export function typeLabel(schema: unknown): string {
  if (schema === true || schema === undefined) return 'any';
  if (schema === false) return 'nothing';
  if (!isObject(schema)) return 'any';
  const ref = refName(schema);
  if (ref !== undefined) return ref;
  const type = schema.type;
  const types = Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
  const labels = types.map((t) => (t === 'array' ? arrayLabel(schema) : t));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) labels.push(...options.map(typeLabel));
  }
  return labels.length > 0 ? labels.join(' | ') : 'any';
}

function arrayLabel(schema: Json): string {
  if (Array.isArray(schema.prefixItems)) return `[${schema.prefixItems.map(typeLabel).join(', ')}]`;
  return schema.items === undefined ? 'array' : `array of ${typeLabel(schema.items)}`;
}

/** The facets of `schema` (format, bounds, pattern, enum, readOnly) as small labels. */
function facets(schema: Json): Child[] {
  const out: Child[] = [];
  for (const [key, label] of FACETS) {
    if (schema[key] === undefined) continue;
    const value = typeof schema[key] === 'string' ? schema[key] : JSON.stringify(schema[key]);
    out.push(h('span', { class: 'facet', 'data-keyword': key }, `${label} ${value}`));
  }
  if (Array.isArray(schema.enum)) {
    out.push(
      h(
        'span',
        { class: 'facet', 'data-keyword': 'enum' },
        `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`,
      ),
    );
  }
  if (schema.readOnly === true)
    out.push(h('span', { class: 'facet', 'data-keyword': 'readOnly' }, 'read-only'));
  return out;
}

/** The type of `schema`: a link for a component, else its label and facets. */
export function typeView(schema: unknown): Child {
  if (isObject(schema)) {
    const ref = refName(schema);
    if (ref !== undefined) return h('a', { class: 'type ref', href: `#${schemaAnchor(ref)}` }, ref);
    const items = isObject(schema.items) ? refName(schema.items) : undefined;
    const many = items !== undefined && typeLabel(schema) === `array of ${items}`;
    return h(
      'span',
      { class: 'type' },
      many
        ? ['array of ', h('a', { class: 'ref', href: `#${schemaAnchor(items)}` }, items)]
        : typeLabel(schema),
      ' ',
      facets(schema),
    );
  }
  return h('span', { class: 'type' }, typeLabel(schema));
}

/**
 * A schema as a tree: its type line, its description, then its properties (each a row with the
 * name, a required mark, the type and its own nested properties), its items' and its options'.
 * `depth` bounds the nesting of inline (non-`$ref`) schemas.
 */
export function schemaView(schema: unknown, depth = 0): HTMLElement {
  const box = h('div', { class: 'schema' });
  if (!isObject(schema) || refName(schema) !== undefined || depth > 8) {
    add(box, typeView(schema));
    return box;
  }
  add(box, typeView(schema));
  const description = prose(schema.description);
  if (description) add(box, description as Node);
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  if (properties) {
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    add(
      box,
      h(
        'ul',
        { class: 'properties' },
        Object.entries(properties).map(([name, value]) =>
          h(
            'li',
            { class: 'property', 'data-property': name },
            h('span', { class: 'name' }, name),
            required.has(name) ? h('span', { class: 'required', title: 'required' }, '*') : null,
            ' ',
            nested(value, depth),
          ),
        ),
      ),
    );
    if (schema.additionalProperties === false)
      add(box, h('p', { class: 'note' }, 'No other properties.'));
  }
  if (isObject(schema.items) && refName(schema.items) === undefined && hasInside(schema.items)) {
    add(box, h('div', { class: 'items' }, 'Each item: ', schemaView(schema.items, depth + 1)));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (!Array.isArray(options) || options.every((o) => !hasInside(o))) continue;
    add(
      box,
      h(
        'div',
        { class: 'options' },
        key === 'allOf' ? 'All of:' : 'One of:',
        options.map((o) => schemaView(o, depth + 1)),
      ),
    );
  }
  return box;
}

/** A property's schema: inline when it has structure of its own, else its type line. */
function nested(schema: unknown, depth: number): Child {
  if (isObject(schema) && refName(schema) === undefined && hasInside(schema))
    return schemaView(schema, depth + 1);
  return [typeView(schema), isObject(schema) ? prose(schema.description) : null];
}

/** Whether a schema has more than a type line to show (properties, inline items, options). */
function hasInside(schema: unknown): boolean {
  if (!isObject(schema) || refName(schema) !== undefined) return false;
  if (isObject(schema.properties)) return true;
  if (isObject(schema.items) && hasInside(schema.items)) return true;
  return ['anyOf', 'oneOf', 'allOf'].some(
    (k) => Array.isArray(schema[k]) && (schema[k] as unknown[]).some(hasInside),
  );
}

/**
 * An example value of `schema` for the "Try it" body: required properties only (what a valid
 * body needs), read-only ones left out, values that meet the schema's own bounds. `$ref`s are
 * followed through `components`, at most `depth` deep.
 */
export function exampleOf(schema: unknown, components: Json, depth = 0): unknown {
  if (!isObject(schema) || depth > 6) return null;
  const ref = refName(schema);
  if (ref !== undefined) return exampleOf(components[ref], components, depth + 1);
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const first = options.find((o) => !(isObject(o) && o.type === 'null'));
      return exampleOf(first, components, depth + 1);
    }
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null');
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
      for (const name of required) {
        const property = properties[name];
        if (isObject(property) && property.readOnly === true) continue;
        out[name] = exampleOf(property, components, depth + 1);
      }
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      if (min !== undefined && min > 0) return min;
      if (max !== undefined && max < 0) return max;
      return 0;
    }
    case 'boolean':
      return false;
    case 'string': {
      if (schema.format === 'uuid') return '00000000-0000-0000-0000-000000000000';
      if (schema.format === 'date-time') return new Date(0).toISOString();
      if (schema.format === 'date') return '1970-01-01';
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : 6;
      return 'string'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(6, max)));
    }
    default:
      return null;
  }
}
