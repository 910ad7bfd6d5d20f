/**
 * The auth settings as data: every key of `AuthConfig` once, with its type and bounds, and the
 * keys of the tables it holds (`smtp`, `webauthn`, ...). `resolveSettings` reads the integer and
 * boolean bounds from here; the server checks a config file's `[auth]` and `[auth.*]` tables
 * against it at load (types, bounds, unknown keys with "did you mean"), before anything opens.
 * What a type cannot say (an origin's form, a template's placeholder) stays with the resolvers.
 */

/**
 * `table`: an object, its keys in `fields` (left out: the resolver knows them, e.g. rate limits);
 * `tables`: a list of such objects (`[[auth.webhooks]]`); `strings`: a list of strings;
 * `secret`: a string never echoed in a message; `pem`: PEM text (in code also a Buffer), or a
 * list of them; `code`: a function, given in code only.
 */
export type AuthFieldType =
  | 'boolean'
  | 'integer'
  | 'string'
  | 'secret'
  | 'strings'
  | 'pem'
  | 'table'
  | 'tables'
  | 'code';

export interface AuthFieldSpec {
  /** The key in code (camelCase); in TOML the same in snake_case. */
  readonly key: string;
  readonly type: AuthFieldType;
  /** Bounds of an `integer`. */
  readonly min?: number;
  readonly max?: number;
  /** Values a `string` may take. */
  readonly choices?: readonly string[];
  /** The keys of a `table` or of each of `tables`. */
  readonly fields?: readonly AuthFieldSpec[];
}

/** Ten years: the longest duration any key takes. */
export const MAX_SECONDS = 10 * 365 * 24 * 3600;

/** `[auth.smtp]`: @svc/smtp's `SmtpConfig` as a file can give it (no logger, no transcript). */
export const SMTP_FIELDS: readonly AuthFieldSpec[] = [
  { key: 'host', type: 'string' },
  { key: 'from', type: 'string' },
  { key: 'port', type: 'integer', min: 1, max: 65535 },
  { key: 'secure', type: 'boolean' },
  {
    key: 'auth',
    type: 'table',
    fields: [
      { key: 'user', type: 'string' },
      { key: 'pass', type: 'secret' },
    ],
  },
  { key: 'hostname', type: 'string' },
  { key: 'replyTo', type: 'string' },
  { key: 'timeoutMs', type: 'integer', min: 1, max: 2_147_483_647 },
  { key: 'tlsRejectUnauthorized', type: 'boolean' },
  { key: 'tls', type: 'table', fields: [{ key: 'ca', type: 'pem' }] },
  { key: 'logger', type: 'code' },
  { key: 'transcript', type: 'code' },
];

/** Every `AuthConfig` key. */
export const AUTH_FIELDS: readonly AuthFieldSpec[] = [
  { key: 'jwtSecret', type: 'secret' },
  { key: 'jwtAudience', type: 'string' },
  { key: 'jwtIssuer', type: 'string' },
  { key: 'tokenExpiry', type: 'integer', min: 1, max: MAX_SECONDS },
  { key: 'refreshTokenExpiry', type: 'integer', min: 1, max: MAX_SECONDS },
  { key: 'sessionTimeout', type: 'integer', min: 1, max: MAX_SECONDS },
  { key: 'allowRegistration', type: 'boolean' },
  { key: 'requireEmailVerification', type: 'boolean' },
  { key: 'allowImplicitSignup', type: 'boolean' },
  { key: 'bcryptRounds', type: 'integer', min: 4, max: 31 },
  { key: 'passwordMinLength', type: 'integer', min: 1, max: 72 },
  { key: 'passwordRequireNumbers', type: 'boolean' },
  { key: 'passwordRequireSpecial', type: 'boolean' },
  { key: 'passwordRequireUppercase', type: 'boolean' },
  { key: 'cookie', type: 'boolean' },
  { key: 'maxMetadataBytes', type: 'integer', min: 2, max: 1024 * 1024 },
  { key: 'refreshTokenReuseDetection', type: 'boolean' },
  // 0 keeps guests; the lower bound otherwise depends on sessionTimeout (resolveSettings).
  { key: 'guestRetention', type: 'integer', min: 0, max: MAX_SECONDS },
  { key: 'hostedPages', type: 'boolean' },
  {
    key: 'branding',
    type: 'table',
    fields: [
      { key: 'appName', type: 'string' },
      { key: 'brandColor', type: 'string' },
      { key: 'logoUrl', type: 'string' },
      { key: 'darkLogoUrl', type: 'string' },
    ],
  },
  { key: 'emailBaseUrl', type: 'string' },
  { key: 'emailTemplates', type: 'code' },
  { key: 'magicLinkUrlTemplate', type: 'string' },
  { key: 'smtp', type: 'table', fields: SMTP_FIELDS },
  {
    key: 'webauthn',
    type: 'table',
    fields: [
      { key: 'origin', type: 'string' },
      { key: 'rpId', type: 'string' },
      { key: 'rpName', type: 'string' },
      { key: 'requireResidentKey', type: 'boolean' },
    ],
  },
  {
    key: 'captcha',
    type: 'table',
    fields: [
      { key: 'gate', type: 'strings' },
      { key: 'provider', type: 'string' },
      { key: 'secret', type: 'secret' },
      { key: 'verifyUrl', type: 'string' },
      { key: 'timeoutMs', type: 'integer', min: 1, max: 2_147_483_647 },
    ],
  },
  {
    key: 'webhooks',
    type: 'tables',
    fields: [
      { key: 'url', type: 'string' },
      { key: 'events', type: 'strings' },
      { key: 'secret', type: 'secret' },
    ],
  },
  // Rule names and providers are the resolvers' to check: their keys are open here.
  { key: 'rateLimits', type: 'table' },
  { key: 'oauth', type: 'table' },
  { key: 'claims', type: 'code' },
  { key: 'redirectAllowList', type: 'strings' },
];
