/**
 * openapi/paths: the operations of the data routes (docs/http.md, REST), per type of the model:
 * list and insert on `/api/T`, get, update and delete on `/api/T/{id}`, a linked collection per
 * link on `/api/T/{id}/<link>`; their parameters and every status each can answer (docs/http.md:
 * the REST statuses, the service's defaults and the one error envelope).
 *
 * Parameters follow what `parseRequest` reads and the planner accepts (the model's
 * `filterOperators` and `orderable`): `prop` (equality; not for a field named like a reserved parameter),
 * `prop__in` (comma-separated: `style: form, explode: false`), `prop__contains`; a field whose
 * name contains `__` cannot be named in a filter (the parser splits there) and has none.
 */
import type { Schema } from '@svc/core';
import {
  filterOperators,
  linkedShape,
  orderable,
  type RestField,
  type RestModel,
  type RestType,
} from '../model';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../request/api-request';
import { withArticle } from './article';
import type { JsonSchema } from './json-schema';
import { UUID, ref, shapeSchema, writeSchema, type Names } from './schemas';

type Json = { readonly [key: string]: unknown };

/** Query parameters `parseRequest` never reads as filters. */
const RESERVED = new Set(['limit', 'offset', 'order_by', 'token']);

/** Shared components: the error responses and the paging and id parameters. */
export const RESPONSES: Readonly<Record<string, Json>> = {
  BadRequest: errorResponse(
    'Malformed request: unknown filter, order or body field, a value that does not convert, malformed UUID, empty PATCH body, or a query error (code QUERY_ERROR with its `type`).',
  ),
  Unauthorized: errorResponse(
    'The bearer token is invalid or expired (or missing, when requireAuth is on).',
  ),
  Forbidden: errorResponse('Denied by an access policy or the cross-origin cookie check.'),
  NotFound: errorResponse('No such type, object or link (NOT_FOUND).'),
  RequestTimeout: errorResponse('The request exceeded requestTimeout (REQUEST_TIMEOUT).'),
  Conflict: errorResponse('A constraint is violated (CONSTRAINT_VIOLATION).'),
  PayloadTooLarge: errorResponse('The body exceeds the body limit (PAYLOAD_TOO_LARGE).'),
  UnsupportedMediaType: errorResponse(
    'The body is not JSON (Content-Type: application/json) (UNSUPPORTED_MEDIA_TYPE).',
  ),
  InternalError: errorResponse('Unexpected error (INTERNAL_ERROR).'),
  ServiceUnavailable: errorResponse(
    'Read-only mode refuses writes (READ_ONLY), or the service is not ready.',
  ),
};

export const PARAMETERS: Readonly<Record<string, Json>> = {
  id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The object id.',
    schema: UUID,
  },
  limit: {
    name: 'limit',
    in: 'query',
    description: `Page size (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`,
    schema: { type: 'integer', minimum: 0, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  },
  offset: {
    name: 'offset',
    in: 'query',
    description: 'Rows to skip.',
    schema: { type: 'integer', minimum: 0, maximum: 999_999_999, default: 0 },
  },
};

function errorResponse(description: string): Json {
  return { description, content: { 'application/json': { schema: ref('Error') } } };
}

const response = (name: string): Json => ({ $ref: `#/components/responses/${name}` });
const parameter = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

type Verb = 'read' | 'write' | 'body';

/** The error statuses of a route: every route reads, writes add 409, bodies 413 and 415. */
function errors(verb: Verb): Record<string, Json> {
  return {
    '400': response('BadRequest'),
    '401': response('Unauthorized'),
    '403': response('Forbidden'),
    '404': response('NotFound'),
    '408': response('RequestTimeout'),
    ...(verb !== 'read' ? { '409': response('Conflict') } : {}),
    ...(verb === 'body'
      ? { '413': response('PayloadTooLarge'), '415': response('UnsupportedMediaType') }
      : {}),
    '500': response('InternalError'),
    '503': response('ServiceUnavailable'),
  };
}

export interface PathOptions {
  /** `security` of every data operation (`undefined`: none declared). */
  readonly security: readonly Json[] | undefined;
}

/** The path items of every type of the model. */
export function dataPaths(
  model: RestModel,
  schema: Schema,
  names: Names,
  options: PathOptions,
): Record<string, Json> {
  const paths: Record<string, Json> = {};
  const op = (t: RestType, id: string, summary: string, rest: Json): Json => ({
    tags: [t.route],
    summary,
    operationId: `${names.shape.get(t.name)}.${id}`,
    ...(options.security ? { security: options.security } : {}),
    ...rest,
  });
  for (const t of model.types) {
    const name = names.shape.get(t.name) as string;
    const base = `/api/${t.route}`;
    paths[base] = {
      get: op(t, 'list', `List ${t.route} objects`, {
        description:
          'Filters AND together; `order_by` takes `prop` (ascending) or `-prop` (descending), comma-separated, and `id` always orders last so pages are stable.',
        parameters: [
          ...filterParameters(t, schema),
          ...orderParameter(t),
          parameter('limit'),
          parameter('offset'),
        ],
        responses: {
          '200': {
            description: `A page of ${t.route} objects.`,
            content: json({ type: 'array', items: ref(name) }),
          },
          ...errors('read'),
        },
      }),
      post: op(t, 'create', `Create ${withArticle(t.route)}`, {
        requestBody: { required: true, content: json(ref(`${name}-insert`)) },
        responses: {
          '201': {
            description: `The new ${t.route} (null when the caller's access policies do not let it read the new object back).`,
            content: json({ anyOf: [ref(name), { type: 'null' }] }),
          },
          ...errors('body'),
        },
      }),
    };
    paths[`${base}/{id}`] = {
      parameters: [parameter('id')],
      get: op(t, 'get', `Get one ${t.route}`, {
        responses: {
          '200': { description: `The ${t.route}.`, content: json(ref(name)) },
          ...errors('read'),
        },
      }),
      patch: op(t, 'update', `Update ${withArticle(t.route)}`, {
        requestBody: { required: true, content: json(ref(`${name}-update`)) },
        responses: {
          '200': { description: `The ${t.route}, updated.`, content: json(ref(name)) },
          ...errors('body'),
        },
      }),
      delete: op(t, 'delete', `Delete ${withArticle(t.route)}`, {
        description: 'Idempotent: 204 whether or not the object existed.',
        responses: { '204': { description: 'Deleted (or not there).' }, ...errors('write') },
      }),
    };
    for (const link of t.fields.values()) {
      if (link.kind !== 'link') continue;
      paths[`${base}/{id}/${link.name}`] = {
        parameters: [parameter('id')],
        get: op(t, `${link.name}.linked`, `List the ${link.name} of ${withArticle(t.route)}`, {
          description: 'Ordered by id; offset and limit only.',
          parameters: [parameter('limit'), parameter('offset')],
          responses: {
            '200': {
              description: `The objects ${link.name} links to.`,
              content: json({ type: 'array', items: linkedItem(model, link, schema, names) }),
            },
            ...errors('read'),
          },
        }),
      };
    }
  }
  return paths;
}

/** A linked object: the model's `linkedShape` (the target's default shape, or `{ id }`). */
function linkedItem(model: RestModel, link: RestField, schema: Schema, names: Names): JsonSchema {
  const shape = linkedShape(model, link);
  const name = names.shape.get(shape.type);
  return name !== undefined ? ref(name) : shapeSchema(shape, schema, names);
}

function filterParameters(t: RestType, schema: Schema): Json[] {
  const out: Json[] = [];
  for (const f of t.fields.values()) {
    const operators = filterOperators(f, schema);
    if (operators.length === 0 || f.name.includes('__')) continue;
    const value = writeSchema(f, schema);
    const what = f.kind === 'link' ? `the id ${f.name} links to` : f.name;
    for (const operator of operators) {
      if (operator === 'eq' && !RESERVED.has(f.name)) {
        out.push({
          name: f.name,
          in: 'query',
          description: `Only objects whose ${what} equals this value.`,
          schema: scalarText(value),
        });
      } else if (operator === 'in') {
        out.push({
          name: `${f.name}__in`,
          in: 'query',
          description: `Only objects whose ${what} is one of these comma-separated values.`,
          style: 'form',
          explode: false,
          schema: { type: 'array', items: scalarText(value) },
        });
      } else if (operator === 'contains') {
        out.push({
          name: `${f.name}__contains`,
          in: 'query',
          description: `Only objects whose ${f.name} contains this text (case-insensitive).`,
          schema: { type: 'string' },
        });
      }
    }
  }
  return out;
}

/** A filter value is text in the query string: exact numbers are digits, never a JSON string. */
function scalarText(value: JsonSchema): JsonSchema {
  if (!Array.isArray(value.type)) return value;
  const { pattern: _pattern, ...rest } = value;
  return { ...rest, type: value.type[0] };
}

function orderParameter(t: RestType): Json[] {
  const names = [...t.fields.values()].filter(orderable).map((f) => f.name);
  if (names.length === 0) return [];
  const term = `-?(${names.join('|')})`;
  return [
    {
      name: 'order_by',
      in: 'query',
      description: `Comma-separated terms, \`prop\` ascending or \`-prop\` descending, of: ${names.join(', ')}.`,
      schema: { type: 'string', pattern: `^${term}(,${term})*$` },
    },
  ];
}
