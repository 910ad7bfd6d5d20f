/**
 * The auth configuration keys (`AuthConfig`, listed in packages/auth/README.md),
 * with their defaults, and `resolveAuthConfig`, which fills them in and refuses wrong types. The
 * server uses the key list to refuse unknown keys at start.
 */
import { AUTH_FIELDS, MAX_SECONDS, shownOf } from './config-fields';
import { JWT_SECRET_MIN_LENGTH } from './token/verify';
import { resolveRateLimits, type ResolvedRateLimits } from './rate-limit';
import { resolveCaptchaConfig, type ResolvedCaptchaConfig } from './captcha';
import { resolveWebAuthnConfig, type ResolvedWebAuthnConfig } from './webauthn/config';
import { resolveOAuthConfig } from './oauth/config';
import { resolveRedirectAllowList } from './pages/redirect';
import { type SettingShow, showSetting } from './settings-shown';
import type { Auth, AuthAdminConfig, AuthConfig } from './types';

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
  /** A retired refresh token presented again revokes its whole rotation family (issue 12). */
  refreshTokenReuseDetection: true,
  /** Seconds of inactivity after which a guest is deleted (issue 26); 0 keeps guests. */
  guestRetention: 30 * 24 * 3600,
  /** The hosted pages for the links of svc's emails (/auth/magic, /auth/reset, ...; issue 30). */
  hostedPages: true,
});

/** Every `AuthConfig` key, from the one table of them (config-fields.ts). */
export const AUTH_CONFIG_KEYS: readonly string[] = Object.freeze(AUTH_FIELDS.map((f) => f.key));

/**
 * How each auth setting is shown to an administrator (`describeAuthSettings`, the admin UI's
 * settings page): its value, or only whether a secret is set, never the secret. Read off the one
 * table of the settings (config-fields.ts: a `secret` shows as set or not, a function as
 * `(function)`, a table by its declared keys; `shown` where the type says too little), so a new
 * setting cannot be added without saying how it shows. A nested key not declared is not shown.
 */
export const AUTH_SETTINGS_SHOWN: Readonly<Record<string, SettingShow>> = Object.freeze(
  shownOf(AUTH_FIELDS),
);

/** The settings in force as an administrator may see them: no secret, key or password. */
export function describeAuthSettings(config: Auth['config']): Record<string, unknown> {
  return showSetting(config, { fields: AUTH_SETTINGS_SHOWN }) as Record<string, unknown>;
}

/** The configuration with every default filled in: what `auth.config` and the operations read. */
export type ResolvedAuthConfig = Auth['config'] &
  Required<
    Pick<
      AuthConfig,
      | 'allowRegistration'
      | 'requireEmailVerification'
      | 'allowImplicitSignup'
      | 'passwordMinLength'
      | 'passwordRequireNumbers'
      | 'passwordRequireSpecial'
      | 'passwordRequireUppercase'
      | 'cookie'
      | 'maxMetadataBytes'
      | 'refreshTokenReuseDetection'
      | 'guestRetention'
      | 'hostedPages'
    >
  > & { readonly rateLimits: ResolvedRateLimits } & {
    readonly captcha?: ResolvedCaptchaConfig;
    /** Absent: every WebAuthn operation answers INVALID_OPERATION. */
    readonly webauthn?: ResolvedWebAuthnConfig;
  };

const INTEGER_KEYS = Object.fromEntries(
  AUTH_FIELDS.filter((f) => f.type === 'integer' && f.key !== 'guestRetention').map((f) => [
    f.key,
    { min: f.min as number, max: f.max as number },
  ]),
);
const BOOLEAN_KEYS = AUTH_FIELDS.filter((f) => f.type === 'boolean').map((f) => f.key);

/** Fills in the defaults and refuses wrong types with a TypeError naming the key. */
export function resolveAuthConfig(config: AuthConfig): ResolvedAuthConfig {
  return resolveSettings(config, true);
}

/** `resolveAuthConfig`, where `createAuthAdmin` may leave `jwtSecret` out (a given one is still checked). */
export function resolveSettings(
  config: AuthAdminConfig,
  secretRequired: boolean,
): ResolvedAuthConfig {
  if (typeof config !== 'object' || config === null)
    throw new TypeError('auth config must be an object');
  if (
    (secretRequired || config.jwtSecret !== undefined) &&
    (typeof config.jwtSecret !== 'string' || config.jwtSecret.length < JWT_SECRET_MIN_LENGTH)
  ) {
    throw new TypeError(
      `auth config: jwtSecret must be a string of at least ${JWT_SECRET_MIN_LENGTH} characters`,
    );
  }
  const out: Record<string, unknown> = { ...AUTH_CONFIG_DEFAULTS };
  for (const [key, value] of Object.entries(config)) if (value !== undefined) out[key] = value;
  for (const key of ['jwtAudience', 'jwtIssuer'] as const) {
    if (typeof out[key] !== 'string' || (out[key] as string).length === 0) {
      throw new TypeError(`auth config: ${key} must be a non-empty string`);
    }
  }
  for (const [key, { min, max }] of Object.entries(INTEGER_KEYS)) {
    const v = out[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw new TypeError(
        `auth config: ${key} must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`,
      );
    }
  }
  for (const key of BOOLEAN_KEYS) {
    if (typeof out[key] !== 'boolean') {
      throw new TypeError(
        `auth config: ${key} must be true or false (got ${JSON.stringify(out[key])})`,
      );
    }
  }
  // 0 keeps guests; otherwise an hour at least (activity is recorded once a minute) and no shorter
  // than a session may idle, so a guest is never deleted under a session still alive. Left out, it
  // is 30 days, or sessionTimeout when that is longer (a long sessionTimeout alone stays valid).
  const minRetention = Math.max(3600, out.sessionTimeout as number);
  if (config.guestRetention === undefined)
    out.guestRetention = Math.max(AUTH_CONFIG_DEFAULTS.guestRetention, minRetention);
  const retention = out.guestRetention;
  if (
    typeof retention !== 'number' ||
    !Number.isInteger(retention) ||
    (retention !== 0 && (retention < minRetention || retention > MAX_SECONDS))
  ) {
    throw new TypeError(
      `auth config: guestRetention must be 0 (keep guests) or an integer from ${minRetention} (an hour, and sessionTimeout) to ${MAX_SECONDS} (got ${JSON.stringify(retention)})`,
    );
  }
  if (out.claims !== undefined && typeof out.claims !== 'function') {
    throw new TypeError('auth config: claims must be a function (user) => object');
  }
  out.redirectAllowList = resolveRedirectAllowList(out.redirectAllowList).map((r) =>
    r.path === undefined ? r.origin : `${r.origin}${r.path}`,
  );
  out.rateLimits = resolveRateLimits(out.rateLimits);
  if (out.captcha !== undefined) out.captcha = resolveCaptchaConfig(out.captcha);
  out.webauthn = resolveWebAuthnConfig(out.webauthn);
  if (out.webauthn === undefined) delete out.webauthn;
  // OAuth / OIDC: checked here (TypeError at construction); oauth/ resolves it again for use.
  if (out.oauth !== undefined) resolveOAuthConfig(out.oauth);
  return Object.freeze(out) as unknown as ResolvedAuthConfig;
}
