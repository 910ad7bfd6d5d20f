/**
 * The auth configuration keys of the spec ("Auth configuration (all keys)") and DECISIONS.md,
 * with their defaults. `createAuth` (next release) validates values; the server uses the key list
 * to refuse unknown keys at start.
 */
export const AUTH_CONFIG_DEFAULTS = Object.freeze({
  jwtAudience: 'svc-api',
  jwtIssuer: 'svc',
  tokenExpiry: 3600,
  refreshTokenExpiry: 604800,
  sessionTimeout: 3600,
  allowRegistration: true,
  requireEmailVerification: false,
  allowImplicitSignup: false,
  bcryptRounds: 12,
  passwordMinLength: 8,
  passwordRequireNumbers: false,
  passwordRequireSpecial: false,
  passwordRequireUppercase: false,
  cookie: false,
  /** Largest `metadata` of a user, in UTF-8 bytes of its JSON. */
  maxMetadataBytes: 16384,
});

export const AUTH_CONFIG_KEYS: readonly string[] = Object.freeze([
  'jwtSecret',
  ...Object.keys(AUTH_CONFIG_DEFAULTS),
  'branding',
  'emailBaseUrl',
  'emailTemplates',
  'magicLinkUrlTemplate',
  'smtp',
  'webauthn',
  'captcha',
  'webhooks',
  'rateLimits',
  'oauth',
  'claims',
]);
