/**
 * @svc/auth: authentication for svc and for any Node app. `createAuth(config, {database})` gives
 * every operation as a plain async function and `auth.handler`, a Fetch-standard handler of the
 * `/auth/*` routes; `@svc/auth/express` mounts it in Express or node:http and `@svc/auth/hono`
 * in Hono, each passing the client's address. See README.md.
 */
export { createAuth, createAuthAdmin, type CreateAuthInternals } from './create-auth';
export { DEFAULT_USER_PAGE, MAX_USER_PAGE } from './admin/operations';
export { createHandler, type AuthHandler, type HandlerOptions } from './http/handler';
export type {
  AssignRoleOptions,
  AssignRoleResult,
  Auth,
  AuthAdmin,
  AuthAdminConfig,
  AuthConfig,
  AuthEvent,
  AuthEventListener,
  AuthEventType,
  AuthResult,
  Branding,
  CreateAuthOptions,
  EmailTemplates,
  LoginInput,
  MfaChallenge,
  RecoveryCodes,
  RegisterInput,
  RenderedEmail,
  RequestInfo,
  Role,
  Session,
  SignInResult,
  TemplateContext,
  TotpEnrollment,
  User,
  UserFactors,
  UserList,
  WebhookSubscription,
} from './types';
export { authError, type AuthErrorCode } from './errors';
export {
  AUTH_COOKIE,
  extractToken,
  parseBearer,
  readCookie,
  type ExtractedToken,
  type TokenSource,
} from './token/extract';
export { checkCookieRequestOrigin, originOf, parseOrigin, type CookieRequest } from './csrf';
export {
  JWT_SECRET_MIN_LENGTH,
  authContextFromClaims,
  createTokenVerifier,
  type AccessTokenClaims,
  type AuthAssuranceLevel,
  type AuthContext,
  type TokenVerifier,
  type TokenVerifierConfig,
} from './token/verify';
export {
  AUTH_ROUTES,
  CAPTCHA_GATED_ROUTES,
  matchAuthRoute,
  type AuthRoute,
  type AuthRouteAccess,
  type AuthRouteMatch,
  type HttpMethod,
} from './routes/table';
export {
  AUTH_CONFIG_DEFAULTS,
  AUTH_CONFIG_KEYS,
  AUTH_SETTINGS_SHOWN,
  describeAuthSettings,
  resolveAuthConfig,
  type ResolvedAuthConfig,
} from './config';
export {
  AUTH_FIELDS,
  SMTP_FIELDS,
  type AuthFieldSpec,
  type AuthFieldType,
} from './config-fields';
export { authConfigProblems } from './config-check';
export { createEventBus, AUTH_EVENT_TYPES, isAuthEventType, type EventBus } from './events';
export { signWebhookBody, verifyWebhookSignature } from './webhooks';
export {
  validateBranding,
  validateMagicLinkUrlTemplate,
  magicLinkFor,
  type ResolvedBranding,
} from './branding';
export {
  installEmailListener,
  DevMailbox,
  DEV_MAILBOX_CAPACITY,
  linksIn as linksInText,
  type DevMailMessage,
} from './email';
export { createPostgresStore, type AuthTables } from './store/postgres';
export { createMemoryStore } from './store/memory';
export {
  AUTH_SCHEMA,
  AUTH_MIGRATIONS,
  AUTH_MIGRATION_LOCK,
  migrateAuthSchema,
} from './store/migrations';
export {
  RATE_LIMIT_DEFAULTS,
  RATE_LIMIT_RULES,
  clientAddressKey,
  createRateLimiter,
  resolveRateLimits,
  type RateLimiter,
  type RateLimiterOptions,
  type RateLimitKey,
  type RateLimitOutcome,
  type RateLimitRule,
  type RateLimitRuleName,
  type RateLimitsConfig,
  type RateLimitSubject,
  type ResolvedRateLimits,
} from './rate-limit';
export type { AuthStore, UserRecord, SessionRecord, SessionState, RoleRecord } from './store/types';
export type { MagicCodeOutcome, MagicLinkRedemption } from './store/types';
export {
  MAGIC_CODE_MAX_ATTEMPTS,
  MAGIC_CODE_TTL_SECONDS,
  MAGIC_LINK_TTL_SECONDS,
} from './passwordless/operations';
// --- guests, sessions, captcha (issue 12) -------------------------------------------------------
export type { SessionInfo, TokenCheck, UpgradeInput } from './types';
export { ANONYMOUS_EMAIL_DOMAIN, isAnonymousEmail } from './guest/operations';
export { describeDevice } from './session/device';
export { REFRESH_REUSE_GRACE_SECONDS } from './session/operations';
export {
  CAPTCHA_GATES,
  CAPTCHA_PROVIDERS,
  resolveCaptchaConfig,
  verifyCaptcha,
  type CaptchaConfig,
  type CaptchaGate,
  type CaptchaProvider,
  type ResolvedCaptchaConfig,
} from './captcha';
export type {
  NewWebAuthnChallenge,
  NewWebAuthnCredential,
  WebAuthnCeremony,
  WebAuthnChallengeRecord,
  WebAuthnCredentialRecord,
} from './store/types';
export { AUDIT_EVENT_TYPES } from './events';
export {
  resolveWebAuthnConfig,
  type ResolvedWebAuthnConfig,
  type WebAuthnConfig,
} from './webauthn/config';
export {
  WEBAUTHN_CHALLENGE_TTL_MS,
  type PublicKeyCredentialDescriptorJSON,
  type WebAuthnBegin,
  type WebAuthnCredentialInfo,
  type WebAuthnLoginFinishInput,
  type WebAuthnLoginOptions,
  type WebAuthnRegisteredCredential,
  type WebAuthnRegisterFinishInput,
  type WebAuthnRegistrationOptions,
} from './webauthn/operations';
export {
  decodeCbor,
  decodeCborPrefix,
  encodeCbor,
  CborError,
  type CborValue,
} from './webauthn/cbor';
export { WebAuthnError } from './webauthn/verify';
// MFA (src/mfa): the primitives, for hosts and tests (RFC 6238 codes, recovery-code format).
export {
  MFA_CHALLENGE_MAX_ATTEMPTS,
  MFA_CHALLENGE_TTL_SECONDS,
  RECOVERY_CODE_ALPHABET,
  base32Decode,
  base32Encode,
  hotp,
  normaliseRecoveryCode,
  totp,
} from './mfa';
export type { MfaProof, MfaState, TotpFactorRecord } from './store/types';
// OAuth / OIDC (oauth/)
export {
  apple,
  discord,
  github,
  gitlab,
  google,
  microsoft,
  oidc,
  type AppleOptions,
  type ClientCredentials,
  type GitlabOptions,
  type MicrosoftOptions,
  type OAuthProfile,
  type OAuthProvider,
  type OAuthProviderType,
  type OidcOptions,
} from './oauth/providers';
export type { OAuthConfig } from './oauth/config';
export type {
  OAuthAuthorizeInput,
  OAuthCallbackInput,
  OAuthCallbackResult,
  OAuthOperations,
  OAuthTokenInput,
} from './oauth/operations';
export { parseEmailVerified } from './oauth/claims';
export { s256Challenge } from './oauth/pkce';
// OpenAPI (openapi/): the /auth/* routes as an OpenAPI 3.1 fragment the server merges into its document.
export {
  AUTH_OPERATION_DOCS,
  AUTH_SCHEMAS,
  authOpenApi,
  authOpenApiDocument,
  authOpenApiOptions,
  type AuthOpenApiFragment,
  type AuthOpenApiOptions,
  type JsonSchema,
  type OpenApiTag,
  type OperationDoc,
} from './openapi';
export { SECRET_SHOWN, showSetting, type SettingShow } from './settings-shown';
