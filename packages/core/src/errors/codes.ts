import { defineErrorCodes } from './svc-error';

/**
 * Codes shared by every HTTP surface (docs/http.md, "Error codes"): the server,
 * auth and REST throw these through `commonError` and declare only codes of their own.
 * A retired code is never reused: leave it here commented out.
 */
export const commonError = defineErrorCodes('common', {
  VALIDATION_ERROR: 400,
  INVALID_OPERATION: 400,
  CAPTCHA_FAILED: 400,
  UNAUTHORIZED: 401,
  ACCESS_DENIED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  READ_ONLY: 503,
  SERVICE_UNAVAILABLE: 503,
});

export type CommonErrorCode = Parameters<typeof commonError>[0];

/**
 * The answer of a route that the route tables already have but whose feature is not in this
 * release (the query compiler, the REST API, auth part two): throws 501 NOT_IMPLEMENTED saying
 * so, and nothing pretends to work. The server and auth's handler both answer through it.
 *
 * @example
 * notInThisRelease('The REST API (/api)');
 * // NOT_IMPLEMENTED: The REST API (/api) is not available in this release of svc yet
 */
export function notInThisRelease(what: string): never {
  throw commonError('NOT_IMPLEMENTED', `${what} is not available in this release of svc yet`);
}
