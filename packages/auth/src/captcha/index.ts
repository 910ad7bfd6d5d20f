/**
 * The captcha gate (docs/http.md, "Auth routes"). With `captcha`
 * configured, the HTTP handler requires a `captchaToken` body field on every route whose gate
 * operation is named in `captcha.gate`, and verifies it with the provider BEFORE the route does
 * anything else (no token check, no database work, no bcrypt, no mail).
 *
 * - Providers: `hcaptcha`, `recaptcha`, `turnstile`. All three take the same siteverify request —
 *   an `application/x-www-form-urlencoded` POST of `secret`, `response` (the token) and `remoteip`
 *   (the client address, when known) — and answer JSON `{success: boolean, "error-codes"?:
 *   string[], ...}`. `verifyUrl` replaces the provider's endpoint (tests, self-hosted verifiers).
 * - Gate operations (the values `captcha.gate` may hold, `CAPTCHA_GATES`) and the routes they
 *   cover, each named by its route's declaration (`captcha` in `defineRoute`): `register`
 *   POST /register, `login` POST /login, `anonymous` POST /anonymous, `upgrade` POST /upgrade,
 *   `passwordReset` POST /reset, `verificationResend` POST /verify/resend, `magicLink`
 *   POST /magic-link/request, `magicCode` POST /magic-code/request, `webauthnLogin`
 *   POST /webauthn/login/begin. An unknown name fails at construction.
 * - Answers: token missing or not a string, or refused by the provider: 400 `CAPTCHA_FAILED`
 *   (the error envelope of docs/http.md). Provider unreachable, timed out (`timeoutMs`, default 5 s),
 *   answering non-2xx or not JSON, or refusing this server's own secret: 503
 *   `SERVICE_UNAVAILABLE` (the request is not the client's fault; the cause is logged, never the
 *   secret or the token).
 */
import { commonError } from '@svc/core';

/** The providers' siteverify endpoints. */
export const CAPTCHA_PROVIDERS = Object.freeze({
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
});
export type CaptchaProvider = keyof typeof CAPTCHA_PROVIDERS;

/**
 * The gate operations `captcha.gate` may name. Each gates one route, which names it in its
 * declaration (`captcha` in `defineRoute`); `CAPTCHA_GATED_ROUTES` is derived from those.
 */
const GATES = [
  'register',
  'login',
  'anonymous',
  'upgrade',
  'passwordReset',
  'verificationResend',
  'magicLink',
  'magicCode',
  'webauthnLogin',
] as const;
export type CaptchaGate = (typeof GATES)[number];
export const CAPTCHA_GATES: readonly CaptchaGate[] = Object.freeze([...GATES]);

export interface CaptchaConfig {
  /** The operations that require a captcha token (see `CAPTCHA_GATES`). */
  readonly gate: readonly CaptchaGate[];
  readonly provider: CaptchaProvider;
  /** The provider's secret key. */
  readonly secret: string;
  /** Replaces the provider's siteverify endpoint (`http(s)://`). */
  readonly verifyUrl?: string;
  /** How long to wait for the provider, in milliseconds. @default 5000 */
  readonly timeoutMs?: number;
}

export interface ResolvedCaptchaConfig {
  readonly gate: readonly CaptchaGate[];
  readonly provider: CaptchaProvider;
  readonly secret: string;
  readonly verifyUrl: string;
  readonly timeoutMs: number;
}

export const CAPTCHA_TIMEOUT_MS = 5000;
/** Longer tokens are refused unsent (the providers' tokens are a few KB at most). */
export const CAPTCHA_TOKEN_MAX_LENGTH = 8192;
/** Provider error codes that blame this server's configuration, not the client's token. */
const SERVER_SIDE_ERRORS = new Set([
  'missing-input-secret',
  'invalid-input-secret',
  'sitekey-secret-mismatch',
]);

const KEYS = ['gate', 'provider', 'secret', 'verifyUrl', 'timeoutMs'];

/** Validates `captcha` (TypeError naming the key) and fills in the endpoint and timeout. */
export function resolveCaptchaConfig(value: unknown): ResolvedCaptchaConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TypeError('auth config: captcha must be an object {gate, provider, secret}');
  const c = value as Record<string, unknown>;
  for (const key of Object.keys(c)) {
    if (!KEYS.includes(key))
      throw new TypeError(`auth config: unknown key captcha.${key} (known: ${KEYS.join(', ')})`);
  }
  if (typeof c.provider !== 'string' || !Object.hasOwn(CAPTCHA_PROVIDERS, c.provider)) {
    throw new TypeError(
      `auth config: captcha.provider must be one of ${Object.keys(CAPTCHA_PROVIDERS).join(', ')} (got ${JSON.stringify(c.provider)})`,
    );
  }
  if (typeof c.secret !== 'string' || c.secret.length === 0 || /[\r\n\0]/.test(c.secret))
    throw new TypeError('auth config: captcha.secret must be a non-empty string');
  if (!Array.isArray(c.gate))
    throw new TypeError(
      `auth config: captcha.gate must be an array of operation names (${CAPTCHA_GATES.join(', ')})`,
    );
  for (const g of c.gate) {
    if (typeof g !== 'string' || !(CAPTCHA_GATES as readonly string[]).includes(g)) {
      throw new TypeError(
        `auth config: unknown captcha.gate operation ${JSON.stringify(g)} (known: ${CAPTCHA_GATES.join(', ')})`,
      );
    }
  }
  let verifyUrl: string = CAPTCHA_PROVIDERS[c.provider as CaptchaProvider];
  if (c.verifyUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = typeof c.verifyUrl === 'string' ? new URL(c.verifyUrl) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username) {
      throw new TypeError('auth config: captcha.verifyUrl must be an http:// or https:// URL');
    }
    verifyUrl = url.href;
  }
  const timeoutMs = c.timeoutMs ?? CAPTCHA_TIMEOUT_MS;
  if (
    typeof timeoutMs !== 'number' ||
    !Number.isInteger(timeoutMs) ||
    timeoutMs < 100 ||
    timeoutMs > 60_000
  ) {
    throw new TypeError('auth config: captcha.timeoutMs must be an integer from 100 to 60000');
  }
  return Object.freeze({
    gate: Object.freeze([...new Set(c.gate as CaptchaGate[])]),
    provider: c.provider as CaptchaProvider,
    secret: c.secret,
    verifyUrl,
    timeoutMs,
  });
}

/** Whether a route of this gate operation is gated by `captcha` as configured. */
export function isCaptchaGated(
  config: { readonly gate: readonly string[] } | undefined,
  gate: CaptchaGate | undefined,
): boolean {
  return config !== undefined && gate !== undefined && config.gate.includes(gate);
}

export interface CaptchaVerifyOptions {
  /** The client address, sent as `remoteip`. */
  readonly ip?: string | undefined;
  readonly logger?: { warn(obj: unknown, msg?: string): void } | undefined;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

const unavailable = () =>
  commonError('SERVICE_UNAVAILABLE', 'the captcha provider could not be reached; try again');

/**
 * Verifies a captcha token with the configured provider: resolves when it accepts the token;
 * throws 400 CAPTCHA_FAILED when the token is missing or refused, 503 SERVICE_UNAVAILABLE when
 * the provider cannot answer.
 */
export async function verifyCaptcha(
  config: ResolvedCaptchaConfig,
  token: unknown,
  options: CaptchaVerifyOptions = {},
): Promise<void> {
  if (typeof token !== 'string' || token.length === 0)
    throw commonError('CAPTCHA_FAILED', 'a captchaToken is required');
  if (token.length > CAPTCHA_TOKEN_MAX_LENGTH)
    throw commonError('CAPTCHA_FAILED', 'the captcha check failed');
  const form = new URLSearchParams({ secret: config.secret, response: token });
  if (options.ip) form.set('remoteip', options.ip);
  const log = (reason: string, extra: Record<string, unknown> = {}) =>
    options.logger?.warn(
      { provider: config.provider, reason, ...extra },
      'captcha verification failed',
    );
  let body: unknown;
  try {
    const res = await (options.fetch ?? fetch)(config.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => {});
      log('provider answered an HTTP error', { status: res.status });
      throw unavailable();
    }
    body = JSON.parse(await res.text());
  } catch (err) {
    if ((err as { code?: unknown })?.code === 'SERVICE_UNAVAILABLE') throw err;
    log('provider unreachable or answered no JSON', {
      error: (err as Error)?.name ?? 'Error',
    });
    throw unavailable();
  }
  if (typeof body !== 'object' || body === null) {
    log('provider answered no JSON object');
    throw unavailable();
  }
  const { success } = body as { success?: unknown };
  const codes = (body as { 'error-codes'?: unknown })['error-codes'];
  const errorCodes = Array.isArray(codes)
    ? codes.filter((c): c is string => typeof c === 'string').slice(0, 10)
    : [];
  if (success === true) return;
  if (errorCodes.some((c) => SERVER_SIDE_ERRORS.has(c))) {
    log('provider refused the configured secret', { errorCodes });
    throw unavailable();
  }
  throw commonError('CAPTCHA_FAILED', 'the captcha check failed');
}
