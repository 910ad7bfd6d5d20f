/**
 * The auth settings as data: every key of `AuthConfig` once, with its type and bounds, and the
 * keys of the tables it holds (`smtp`, `webauthn`, ...). `resolveSettings` reads the integer and
 * boolean bounds from here; the server checks a config file's `[auth]` and `[auth.*]` tables
 * against it at load (types, bounds, unknown keys with "did you mean"), before anything opens.
 * What a type cannot say (an origin's form, a template's placeholder) stays with the resolvers.
 */

import type { SettingShow } from './settings-shown';

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
  /** `false` is a value too (a `table` that `false` turns off: `rateLimits = false`). */
  readonly orFalse?: boolean;
  /**
   * How an administrator sees it (settings-shown) when its type says too little: by default a
   * `secret` shows only as set, `code` as `(function)`, `pem` as set, a table by its `fields`,
   * anything else as it is.
   */
  readonly shown?: SettingShow;
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
  { key: 'tls', type: 'table', fields: [{ key: 'ca', type: 'pem' }], shown: 'names' },
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
  { key: 'emailTemplates', type: 'code', shown: 'names' },
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
      // A webhook URL may carry a token in its path: only its origin is shown.
      { key: 'url', type: 'string', shown: 'origin' },
      { key: 'events', type: 'strings' },
      { key: 'secret', type: 'secret' },
    ],
  },
  // Rule names and providers are the resolvers' to check: their keys are open here.
  { key: 'rateLimits', type: 'table', orFalse: true, shown: 'value' },
  {
    key: 'oauth',
    type: 'table',
    // Client secrets are never shown: only these keys are.
    shown: {
      fields: {
        providers: { each: { fields: { type: 'value', clientId: 'value', scopes: 'value' } } },
        redirectUris: 'value',
        baseUrl: 'value',
      },
    },
  },
  { key: 'claims', type: 'code' },
  { key: 'redirectAllowList', type: 'strings' },
];

/** How each setting of `fields` shows to an administrator (`AuthFieldSpec.shown`). */
export function shownOf(fields: readonly AuthFieldSpec[]): Record<string, SettingShow> {
  const out: Record<string, SettingShow> = {};
  for (const f of fields) out[f.key] = f.shown ?? shownByType(f);
  return out;
}

function shownByType(f: AuthFieldSpec): SettingShow {
  switch (f.type) {
    case 'secret':
    case 'pem':
      return 'secret';
    case 'code':
      return 'function';
    case 'table':
      return f.fields ? { fields: shownOf(f.fields) } : 'secret';
    case 'tables':
      return { each: f.fields ? { fields: shownOf(f.fields) } : 'secret' };
    default:
      return 'value';
  }
}
