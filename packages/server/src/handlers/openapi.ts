/**
 * `GET /api/openapi.json` (docs/http.md, "REST routes"): the OpenAPI 3.1.0 document of the REST API over
 * the schema queries compile against now, read from the same REST model as the data routes
 * (`restModelSource`, one model per schema version), built and serialised once per schema
 * version: a migration changes it without a restart, a request only compares versions.
 * Registered with the REST routes (absent, so 404, when REST is off) and behind the same gate.
 *
 * `extra` is another package's fragment merged in (the `/auth/*` routes of @svc/auth).
 */
import type { Request, Response } from 'express';
import { openApiDocument, type OpenApiFragment } from '@svc/rest';
import { sendJson } from '../http/respond';
import type { RestModelSource, RestSchema } from './rest';

export interface OpenApiHandlerDeps {
  /** The REST model of the current schema, shared with the data routes. */
  readonly models: RestModelSource;
  /** The svc version (`info.version`). */
  readonly version: string;
  readonly requireAuth: boolean;
  readonly extra?: OpenApiFragment;
  /** The document builder (tests count its calls); @svc/rest's `openApiDocument`. */
  readonly build?: typeof openApiDocument;
}

export function openApiHandler(deps: OpenApiHandlerDeps) {
  const build = deps.build ?? openApiDocument;
  let cached: { readonly source: RestSchema; readonly body: string } | undefined;
  return async (_req: Request, res: Response): Promise<void> => {
    const current = await deps.models.current();
    if (cached?.source !== current) {
      const { model, schema, version } = current;
      const document = build(model, schema, {
        version: deps.version,
        schemaVersion: version,
        requireAuth: deps.requireAuth,
        ...(deps.extra ? { extra: deps.extra } : {}),
      });
      cached = { source: current, body: JSON.stringify(document) };
    }
    sendJson(res, 200, cached.body);
  };
}
