import { defineErrorCodes } from '@svc/core';

/**
 * The auth error codes with their HTTP statuses (docs/http.md, "Error codes"). Codes every
 * surface shares (VALIDATION_ERROR, UNAUTHORIZED, INVALID_OPERATION, RATE_LIMITED...) are core's `commonError`. A retired code is never reused: leave it here
 * commented out.
 */
export const authError = defineErrorCodes('auth', {
  EMAIL_NOT_VERIFIED: 403,
  INVALID_CREDENTIALS: 401,
  INVALID_REFRESH_TOKEN: 401,
  INVALID_TOKEN: 401,
  /**
   * Managing a confirmed second factor from a session that has not
   * proven it (`aal1`) without a current TOTP or recovery code in the body.
   */
  MFA_REQUIRED: 403,
  PASSWORD_TOO_WEAK: 400,
  REGISTRATION_DISABLED: 403,
  SESSION_EXPIRED: 401,
  TOKEN_EXPIRED: 401,
  USER_ALREADY_EXISTS: 409,
  USER_INACTIVE: 403,
  USER_NOT_FOUND: 404,
});

export type AuthErrorCode = Parameters<typeof authError>[0];
