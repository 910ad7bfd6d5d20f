import type { Request, RequestHandler, Response } from 'express';
import type { CorsConfig } from '../../config';
import { middleware } from '../../http/step';

/**
 * CORS (docs/http.md, "Conventions"), first in the chain after the request context so it reaches every
 * route, /auth/* included, and every error. Installed only when `cors` is configured.
 *
 * - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered here,
 *   204, whatever the path. From a listed origin it carries the `Access-Control-Allow-*` headers;
 *   from any other origin none, so the browser stops there without learning anything.
 * - Any other request from a listed origin gets `Access-Control-Allow-Origin` (the origin
 *   itself, or `*` when origins is `['*']`), `-Allow-Credentials` when configured and
 *   `-Expose-Headers`; from other origins, no CORS headers. An `OPTIONS` that is not a preflight
 *   goes on to the routes (405 with `Allow`, as without CORS).
 * - `Vary: Origin` on every response unless origins is `['*']`: answers differ by origin, and a
 *   shared cache must not hand one origin's answer to another.
 *
 * The methods offered are a fixed list (the route then answers 405 to one it does not take) and
 * the headers are those asked for, kept to an allow-list.
 */
export function cors(config: CorsConfig): RequestHandler {
  return middleware(corsStep(config));
}

/**
 * `cors` as a plain step (http/step), for the hot lane and the middleware alike: `true` when it
 * answered a preflight.
 */
export function corsStep(config: CorsConfig) {
  const anyOrigin = config.origins.length === 1 && config.origins[0] === '*';
  const listed = new Set(config.origins);
  const credentials = config.credentials === true;

  return (req: Request, res: Response): boolean => {
    const origin = req.headers.origin;
    const allowed = origin !== undefined && (anyOrigin || listed.has(origin));
    if (!anyOrigin) res.vary('Origin');
    if (allowed) {
      res.setHeader('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
      if (credentials) res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    const preflight =
      req.method === 'OPTIONS' &&
      origin !== undefined &&
      req.headers['access-control-request-method'] !== undefined;
    if (!preflight) {
      if (allowed) res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return false;
    }
    res.locals.route = 'preflight';
    res.vary('Access-Control-Request-Method');
    res.vary('Access-Control-Request-Headers');
    if (allowed) {
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      const headers = allowedRequestHeaders(req.headers['access-control-request-headers']);
      if (headers) res.setHeader('Access-Control-Allow-Headers', headers);
      res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
    }
    res.statusCode = 204;
    res.end();
    return true;
  };
}

/** Every method a route of svc takes; a route answers 405 to one it does not. */
export const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/** Request headers a page may send beyond the CORS-safelisted ones. */
export const ALLOWED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-language',
  'authorization',
  'content-language',
  'content-type',
  'x-request-id',
  'x-svc-read',
  'x-svc-transaction',
]);

/** Response headers a page may read beyond the safelisted ones (the request id, 429's and 503's wait, 401's challenge). */
export const EXPOSED_HEADERS =
  'X-Request-Id, Retry-After, WWW-Authenticate, X-Svc-Schema-Version, X-Svc-Served-By';

/** Two hours: the most Chromium honours. */
const MAX_AGE_SECONDS = '7200';

/** The requested headers that are allowed, in the order asked; others are left out (the browser then refuses). */
function allowedRequestHeaders(requested: string | undefined): string {
  if (!requested) return '';
  const names = requested.split(',').map((h) => h.trim().toLowerCase());
  return [...new Set(names.filter((h) => ALLOWED_REQUEST_HEADERS.has(h)))].join(', ');
}
