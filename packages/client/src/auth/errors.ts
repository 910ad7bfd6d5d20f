/**
 * client/auth/errors: failures of the auth helpers that happen in the client, not the server
 * (the server's refusals arrive as `ServerError` with the envelope's code, INVALID_CREDENTIALS
 * and the like). `code` says which:
 *
 * - `NOT_SIGNED_IN`: the operation needs a session and the client has none;
 * - `PASSKEYS_UNSUPPORTED`: no `navigator.credentials` here (not a browser, or not a secure context);
 * - `PASSKEY_CANCELLED`: the browser or the person declined (`NotAllowedError`);
 * - `PASSKEY_FAILED`: the browser refused otherwise (the DOMException is the `cause`).
 */
import { SvcError } from '../errors';

export class AuthError extends SvcError {}
// Its name for good, past minifiers (as errors.ts does for the others).
Object.defineProperty(AuthError, 'name', { value: 'AuthError' });
