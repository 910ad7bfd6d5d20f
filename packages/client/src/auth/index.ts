/** client/auth: `client.auth` (auth.ts), its session storages, passkey helpers and errors. */
export type {
  AuthChangeEvent,
  AuthChangeListener,
  AuthClient,
  AuthOptions,
  MfaMethods,
  Passkey,
  SignInInput,
  SignUpInput,
} from './auth';
export { fromBase64url, toBase64url } from './base64url';
export { AuthError } from './errors';
export type { AuthUser, MfaChallenge, Session, SignInResult } from './session';
export {
  browserStorage,
  cookieStorage,
  memoryStorage,
  type AuthStorage,
  type CookieMethods,
  type CookieOptions,
} from './storage';
