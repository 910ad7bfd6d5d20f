/**
 * What several route declarations answer alike: the `{success: true}` body, and the documented
 * answers and error lists that more than one feature's routes share.
 */
import type { Success } from '../openapi/operations';

/** The body of a route that only succeeds. */
export const OK = { success: true } as const;

/** A 200 `AuthSuccess`; `clear` when the answer ends the caller's session (the cookie goes). */
export const succeeded = (description: string, session?: 'clear'): Success => ({
  status: 200,
  schema: 'AuthSuccess',
  description,
  ...(session ? { session } : {}),
});

/** A sign-in: a session, or the MFA challenge when the user owes a second factor. */
export const SIGN_IN: Success = {
  status: 200,
  schema: 'AuthSignInResult',
  description: 'Signed in, or an MFA challenge when the user owes a second factor.',
  session: 'issue',
};

/** A session, never a challenge. */
export const sessionOnly = (description: string, status: 200 | 201 = 200): Success => ({
  status,
  schema: 'AuthResult',
  description,
  session: 'issue',
});

/** A new password that the password rules refuse. */
export const PASSWORD_ERRORS = ['VALIDATION_ERROR', 'PASSWORD_TOO_WEAK'];

/** A route that runs bcrypt, refused when the hashing pool's queue is full (password/pool.ts). */
export const PASSWORDS_BUSY = { 503: ['SERVICE_UNAVAILABLE'] };

/** A sign-in that has found its user: it may still be refused. */
export const SIGN_IN_REFUSED = ['USER_INACTIVE', 'EMAIL_NOT_VERIFIED'];

/**
 * Managing a confirmed second factor: an `aal1` session without a good `code` is 403
 * MFA_REQUIRED; a `code` that is sent is always checked, after the `mfaVerify` limit (429), and a
 * wrong one from an `aal2` session is 401 INVALID_CREDENTIALS (docs/http.md, "Auth routes").
 */
export const SECOND_FACTOR_NOTE =
  'For a user with confirmed TOTP: an `aal2` session, or `code` (a current TOTP code or an unused recovery code, spent); otherwise 403 MFA_REQUIRED and nothing changes. A `code` sent is always checked (wrong from an `aal2` session: 401 INVALID_CREDENTIALS).';
export const SECOND_FACTOR_ERRORS = { 401: ['INVALID_CREDENTIALS'], 403: ['MFA_REQUIRED'] };
