import { defineErrorCodes } from './svc-error';

/**
 * Codes shared by every HTTP surface (DECISIONS.md, "One error envelope everywhere").
 * A retired code is never reused: leave it here commented out.
 */
export const commonError = defineErrorCodes({
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
