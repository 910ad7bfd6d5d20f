/**
 * The operational routes every caller may read, made visible (issue 26, 9): with auth on and
 * `requireAuth` off (the default), the gate of docs/http.md leaves `/metrics`, `/stats`,
 * `/schema*` and `GET /migrations` (and REST's OpenAPI document, which describes the same schema)
 * open to anonymous callers. That default stays; the server names those routes in one warning at
 * start, beside the open-types one. The data routes (`/query`, `/api/*`) are not in the list:
 * access policies decide what each caller reads there.
 */
import type { ResolvedConfig } from '../config';
import type { Logger } from './logger';

/** The settings that decide which operational routes are open. */
export type RouteExposure = Pick<ResolvedConfig, 'requireAuth' | 'metricsToken' | 'enableRest'>;

/** The read-only operational routes a caller without a token may call, as `GET /path`. */
export function openOperationalRoutes(config: RouteExposure): string[] {
  if (config.requireAuth) return [];
  return [
    ...(config.metricsToken === undefined ? ['GET /metrics', 'GET /stats'] : []),
    'GET /schema',
    'GET /schema/types',
    'GET /migrations',
    ...(config.enableRest ? ['GET /api/openapi.json'] : []),
  ];
}

/** Logs the warning naming the open operational routes, when there are any. Call it once. */
export function warnOpenOperationalRoutes(logger: Logger, config: RouteExposure): void {
  const routes = openOperationalRoutes(config);
  if (routes.length === 0) return;
  const figures =
    config.metricsToken === undefined
      ? ', or metrics_token to close /metrics and /stats alone'
      : '';
  logger.warn(
    { openRoutes: routes },
    `${routes.length} operational routes answer anonymous callers (require_auth is off): ${routes.join(', ')}; set require_auth = true to close them${figures}`,
  );
}
