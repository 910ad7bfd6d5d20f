/**
 * @svc/auth: authentication for svc and for any Node app.
 *
 * This release has the pieces the server's router needs: the error codes, the classification of
 * every `/auth/*` route, token extraction and HS256 access-token verification. Accounts,
 * sessions and the route handlers arrive in the next release (see README.md).
 */
export { authError, type AuthErrorCode } from './errors';
export {
  AUTH_COOKIE,
  extractToken,
  parseBearer,
  readCookie,
  type ExtractedToken,
  type TokenSource,
} from './token/extract';
export {
  JWT_SECRET_MIN_LENGTH,
  authContextFromClaims,
  createTokenVerifier,
  type AccessTokenClaims,
  type AuthContext,
  type TokenVerifier,
  type TokenVerifierConfig,
} from './token/verify';
export {
  AUTH_ROUTES,
  matchAuthRoute,
  type AuthRoute,
  type AuthRouteAccess,
  type AuthRouteMatch,
  type HttpMethod,
} from './routes/table';
export { AUTH_CONFIG_DEFAULTS, AUTH_CONFIG_KEYS } from './config';
