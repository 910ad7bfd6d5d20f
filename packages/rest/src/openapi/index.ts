/**
 * openapi: the OpenAPI 3.1.0 document of the REST API (docs/http.md, REST).
 *
 * Input: the REST model (the one view of the schema the planner reads too, so the document
 * describes what is served), the schema (scalar types), the svc and schema versions, whether
 * `requireAuth` is on, and `extra`: another package's paths and component schemas (the server
 * passes @svc/auth's `/auth/*` fragment; @svc/rest does not depend on @svc/auth).
 * Output: the document as a plain JSON value, deterministic for equal inputs (the server
 * serialises it once per schema version).
 * - Every non-abstract type: its routes (openapi/paths), its shape and body schemas
 *   (openapi/schemas), one tag per type; the `Error` envelope and the error responses.
 * - `requireAuth`: a `bearerAuth` scheme (HTTP bearer: an access token, or the service key),
 *   or, as the gate also reads them, `cookieAuth` (`auth_token`) or `tokenQuery` (`?token=`),
 *   required by every data operation; otherwise none is declared for them (a token still
 *   narrows or widens what access policies let through, and `extra` may declare the scheme).
 */
import type { Schema } from '@svc/core';
import type { RestModel } from '../model';
import { PARAMETERS, RESPONSES, dataPaths } from './paths';
import { ERROR_SCHEMA, ERROR_SCHEMA_NAME, componentNames, typeSchemas } from './schemas';

export type { JsonSchema } from './json-schema';

export interface OpenApiTag {
  readonly name: string;
  readonly description?: string;
}

/** Paths and components another package contributes (the auth routes). */
export interface OpenApiFragment {
  readonly paths: Readonly<Record<string, unknown>>;
  readonly schemas: Readonly<Record<string, unknown>>;
  readonly tags?: readonly OpenApiTag[];
  readonly securitySchemes?: Readonly<Record<string, unknown>>;
}

export interface OpenApiOptions {
  /** The svc version (`info.version`). */
  readonly version: string;
  /** The schema version the model was built from. */
  readonly schemaVersion: string;
  readonly requireAuth: boolean;
  readonly extra?: OpenApiFragment;
}

/** An OpenAPI 3.1.0 document as plain JSON. */
export type OpenApiDocument = { readonly openapi: '3.1.0' } & Readonly<Record<string, unknown>>;

export const OPENAPI_PATH = '/api/openapi.json';
const DOCUMENT_TAG = 'API description';
const BEARER = 'bearerAuth';
const COOKIE = 'cookieAuth';
const QUERY = 'tokenQuery';

/**
 * The OpenAPI 3.1.0 document of the REST API over `model`.
 *
 * @example
 * const doc = openApiDocument(restModel(schema), schema, {
 *   version: '0.1.0', schemaVersion: 'v3', requireAuth: false,
 * });
 * doc.paths['/api/User'].get.operationId; // 'User.list'
 */
export function openApiDocument(
  model: RestModel,
  schema: Schema,
  options: OpenApiOptions,
): OpenApiDocument {
  const extra = options.extra;
  const extraSchemas = extra?.schemas ?? {};
  const names = componentNames(model, new Set([ERROR_SCHEMA_NAME, ...Object.keys(extraSchemas)]));
  // The gate reads the token from the Authorization header, else the `auth_token` cookie, else
  // the `token` query parameter: any one of them satisfies requireAuth.
  const security = options.requireAuth
    ? [{ [BEARER]: [] }, { [COOKIE]: [] }, { [QUERY]: [] }]
    : undefined;
  const securitySchemes: Record<string, unknown> = options.requireAuth
    ? {
        [COOKIE]: {
          type: 'apiKey',
          in: 'cookie',
          name: 'auth_token',
          description: 'The cookie the auth routes set (when enabled).',
        },
        [QUERY]: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description: 'An access token in the query string (for clients that cannot set headers).',
        },
        ...extra?.securitySchemes,
        [BEARER]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from /auth (or the service key).',
        },
      }
    : { ...extra?.securitySchemes };

  const tags: OpenApiTag[] = [
    ...model.types.map((t) => ({ name: t.route, description: `The ${t.name} objects.` })),
    { name: DOCUMENT_TAG, description: 'This document.' },
    ...(extra?.tags ?? []),
  ];
  const paths: Record<string, unknown> = {
    ...dataPaths(model, schema, names, { security }),
    [OPENAPI_PATH]: {
      get: {
        tags: [DOCUMENT_TAG],
        summary: 'This OpenAPI 3.1.0 document',
        description: 'Built from the current schema; it changes when the schema migrates.',
        operationId: 'openapi',
        ...(security ? { security } : {}),
        responses: {
          '200': {
            description: 'The OpenAPI document.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          '400': { $ref: '#/components/responses/BadRequest' },
          '401': { $ref: '#/components/responses/Unauthorized' },
          '408': { $ref: '#/components/responses/RequestTimeout' },
          '500': { $ref: '#/components/responses/InternalError' },
          '503': { $ref: '#/components/responses/ServiceUnavailable' },
        },
      },
    },
    ...extra?.paths,
  };
  const schemas: Record<string, unknown> = {
    ...extraSchemas,
    // Ours wins: the fragment's is defined identically (one error envelope everywhere).
    [ERROR_SCHEMA_NAME]: ERROR_SCHEMA,
    ...typeSchemas(model, schema, names),
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'svc REST API',
      version: options.version,
      description: `The REST API of the schema version ${options.schemaVersion}: five routes per object type and one per link, in the default shape (rest::hidden fields omitted, rest::expand links inlined). Errors answer the one envelope \`Error\`.`,
      'x-schema-version': options.schemaVersion,
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas,
      responses: RESPONSES,
      parameters: PARAMETERS,
      ...(Object.keys(securitySchemes).length > 0 ? { securitySchemes } : {}),
    },
  };
}
