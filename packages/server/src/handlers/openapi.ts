/**
 * `GET /api/openapi.json` (spec "REST routes"): the OpenAPI 3.1.0 document of the REST API over
 * the schema queries compile against now (`engine.schema()`), built and serialised once per
 * schema version: a migration changes it without a restart, a request only compares versions.
 * Registered with the REST routes (absent, so 404, when REST is off) and behind the same gate.
 *
 * `extra` is another package's fragment merged in (the `/auth/*` routes of @svc/auth).
 */
import type { Request, Response } from 'express';
import type { QueryEngine, Schema } from '@svc/core';
import { openApiDocument, restModel, type OpenApiFragment } from '@svc/rest';
import { sendJson } from '../http/respond';

export interface OpenApiHandlerDeps {
  readonly engine: Pick<QueryEngine, 'schema'>;
  /** The svc version (`info.version`). */
  readonly version: string;
  readonly requireAuth: boolean;
  readonly extra?: OpenApiFragment;
  /** The document builder (tests count its calls); @svc/rest's `openApiDocument`. */
  readonly build?: typeof openApiDocument;
}

export function openApiHandler(deps: OpenApiHandlerDeps) {
  const build = deps.build ?? openApiDocument;
  let cached:
    | { readonly version: string; readonly schema: Schema; readonly body: string }
    | undefined;
  return async (_req: Request, res: Response): Promise<void> => {
    const { version, schema } = await deps.engine.schema();
    if (cached?.version !== version || cached.schema !== schema) {
      const document = build(restModel(schema), schema, {
        version: deps.version,
        schemaVersion: version,
        requireAuth: deps.requireAuth,
        ...(deps.extra ? { extra: deps.extra } : {}),
      });
      cached = { version, schema, body: JSON.stringify(document) };
    }
    sendJson(res, 200, cached.body);
  };
}
