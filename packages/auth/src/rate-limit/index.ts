/**
 * The one rate limiter of @svc/auth (docs/http.md, "Auth routes": rate limits). Input: a rule name and who is
 * asking (the client address, and the email where the request names one). Output: nothing when
 * the request may go on; a `RATE_LIMITED` error (429, `Retry-After` in seconds) otherwise. Call
 * it before the work it protects (bcrypt, mail), so a refused request costs neither.
 *
 * Counting is the store's `hitRateLimit` verb: a sliding log per key, checked and counted
 * atomically (in PostgreSQL one row lock per key, so several svc processes share one count). A
 * request is charged against every key of its rule, or none when any key is full. Emails and
 * addresses are hashed into the keys: the counter table holds neither in clear. IPv6 clients are
 * counted per /64 (one host usually owns the whole prefix), IPv4-mapped IPv6 as IPv4.
 */
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { commonError } from '@svc/core';
import type { AuthStore } from '../store/types';
import type { RateLimitKey } from './window';

export {
  decideRateLimit,
  checkRateLimitKeys,
  type RateLimitKey,
  type RateLimitOutcome,
} from './window';

/** Every rate-limited operation, named as in `authConfig.rateLimits` (TOML: snake_case). */
export const RATE_LIMIT_RULES = [
  'login',
  'passwordReset',
  'verificationResend',
  'magicLinkRequest',
  'magicCodeRequest',
  'magicLinkConsume',
  'magicCodeVerify',
  'webauthnLoginBegin',
  'webauthnLoginFinish',
  'anonymous',
  'mfaVerify',
  'oauth',
] as const;
export type RateLimitRuleName = (typeof RATE_LIMIT_RULES)[number];

/** One rule: how many requests per client address and per email within a sliding window. 0 = no limit on that key. */
export interface RateLimitRule {
  readonly windowSeconds: number;
  readonly perIp: number;
  readonly perEmail: number;
}

export type ResolvedRateLimits = Readonly<
  { enabled: boolean } & Record<RateLimitRuleName, RateLimitRule>
>;

/** The configuration form: every part optional; `false` turns every limit off. */
export type RateLimitsConfig =
  | false
  | ({ readonly enabled?: boolean } & {
      readonly [K in RateLimitRuleName]?: Partial<RateLimitRule>;
    });

const rule = (windowSeconds: number, perEmail: number, perIp: number): RateLimitRule =>
  Object.freeze({ windowSeconds, perEmail, perIp });

/**
 * The contract: per client IP and per email where one is given, sliding one minute: magic-link
 * and magic-code request 5, magic-link consume and magic-code verify 10, WebAuthn login
 * begin/finish 20 each, login 10 per email and 100 per IP; sliding 15 minutes: password-reset
 * request and verification resend 5 per email.
 */
export const RATE_LIMIT_DEFAULTS: Readonly<Record<RateLimitRuleName, RateLimitRule>> =
  Object.freeze({
    login: rule(60, 10, 100),
    passwordReset: rule(900, 5, 0),
    verificationResend: rule(900, 5, 0),
    magicLinkRequest: rule(60, 5, 5),
    magicCodeRequest: rule(60, 5, 5),
    magicLinkConsume: rule(60, 10, 10),
    magicCodeVerify: rule(60, 10, 10),
    webauthnLoginBegin: rule(60, 20, 20),
    webauthnLoginFinish: rule(60, 20, 20),
    /** Guest creation (`POST /auth/anonymous`): 30 a minute per client address. */
    anonymous: rule(60, 0, 30),
    // Beyond the contract above (which names none for MFA): every check of a TOTP or recovery code (confirm,
    // disable, the two challenge logins), per account and per address, against code guessing.
    mfaVerify: rule(60, 10, 100),
    // Beyond it too: OAuth's authorize (each writes a state row) and token exchange,
    // one counter per client address for both (a sign-in spends two).
    oauth: rule(60, 0, 60),
  });

// A key's counter holds one timestamp per hit in its window (a sliding log), so the largest limit
// bounds the row a request rewrites: 10000 hits, about 80 KB.
const RULE_FIELDS = {
  windowSeconds: { min: 1, max: 24 * 3600 },
  perIp: { min: 0, max: 10_000 },
  perEmail: { min: 0, max: 10_000 },
} as const;

/** Fills in the defaults and refuses unknown rules, unknown fields and bad numbers with a TypeError naming them. */
export function resolveRateLimits(value: unknown): ResolvedRateLimits {
  if (value === undefined || value === null)
    return Object.freeze({ enabled: true, ...RATE_LIMIT_DEFAULTS });
  if (value === false) return Object.freeze({ enabled: false, ...RATE_LIMIT_DEFAULTS });
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(
      'auth config: rateLimits must be an object of rules (or false to turn every limit off)',
    );
  }
  const out: Record<string, unknown> = { enabled: true };
  for (const [key, given] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'enabled') {
      if (typeof given !== 'boolean')
        throw new TypeError(
          `auth config: rateLimits.enabled must be true or false (got ${JSON.stringify(given)})`,
        );
      out.enabled = given;
    } else if (!(RATE_LIMIT_RULES as readonly string[]).includes(key)) {
      throw new TypeError(
        `auth config: unknown rate limit rateLimits.${key} (known: enabled, ${RATE_LIMIT_RULES.join(', ')})`,
      );
    } else if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw new TypeError(
        `auth config: rateLimits.${key} must be an object {windowSeconds?, perIp?, perEmail?}`,
      );
    }
  }
  for (const name of RATE_LIMIT_RULES) {
    const given = ((value as Record<string, unknown>)[name] ?? {}) as Record<string, unknown>;
    const merged: Record<string, number> = { ...RATE_LIMIT_DEFAULTS[name] };
    for (const [field, raw] of Object.entries(given)) {
      const range = RULE_FIELDS[field as keyof typeof RULE_FIELDS];
      if (!range)
        throw new TypeError(
          `auth config: unknown field rateLimits.${name}.${field} (known: ${Object.keys(RULE_FIELDS).join(', ')})`,
        );
      const v = typeof raw === 'bigint' ? Number(raw) : raw;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < range.min || v > range.max) {
        throw new TypeError(
          `auth config: rateLimits.${name}.${field} must be an integer from ${range.min} to ${range.max} (got ${JSON.stringify(typeof raw === 'bigint' ? String(raw) : raw)})`,
        );
      }
      merged[field] = v;
    }
    out[name] = Object.freeze(merged);
  }
  return Object.freeze(out) as ResolvedRateLimits;
}

/** Who a request comes from. */
export interface RateLimitSubject {
  /** The email (or login name) the request names, when it names one. */
  readonly email?: string | undefined;
  /** The client address as the transport saw it (the server decides whether proxies are trusted). */
  readonly ip?: string | undefined;
}

export interface RateLimiter {
  /** Counts one request under `rule`; throws `RATE_LIMITED` (429, `Retry-After`) when a key is full. */
  check(rule: RateLimitRuleName, subject: RateLimitSubject): Promise<void>;
}

export interface RateLimiterOptions {
  readonly store: Pick<AuthStore, 'hitRateLimit' | 'pruneRateLimits'>;
  readonly limits: ResolvedRateLimits;
  /** Clock. @default Date.now */
  readonly now?: () => number;
  /** How often this process deletes expired counters (shared table: any process's sweep serves all). @default 60000 */
  readonly pruneEveryMs?: number;
  readonly logger?: { warn(obj: unknown, msg?: string): void };
}

export const RATE_LIMIT_PRUNE_EVERY_MS = 60_000;

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { store, limits } = options;
  const now = options.now ?? Date.now;
  const pruneEveryMs = options.pruneEveryMs ?? RATE_LIMIT_PRUNE_EVERY_MS;
  let lastPrune = Number.NEGATIVE_INFINITY;

  // Expired counters go in a sweep at most once per interval per process, so the table holds only
  // keys seen within the longest window (plus one interval): bounded by traffic, not by history.
  const maybePrune = async () => {
    const t = now();
    if (t - lastPrune < pruneEveryMs) return;
    lastPrune = t;
    try {
      await store.pruneRateLimits();
    } catch (err) {
      options.logger?.warn({ err }, 'could not delete expired rate-limit counters');
    }
  };

  return {
    async check(name, subject) {
      if (!limits.enabled) return;
      const r = limits[name];
      const windowMs = r.windowSeconds * 1000;
      const keys: RateLimitKey[] = [];
      if (r.perEmail > 0 && typeof subject.email === 'string' && subject.email.length > 0) {
        keys.push({
          key: `${name}:email:${digest(subject.email.trim().toLowerCase())}`,
          limit: r.perEmail,
          windowMs,
        });
      }
      if (r.perIp > 0 && typeof subject.ip === 'string' && subject.ip.length > 0) {
        keys.push({
          key: `${name}:ip:${digest(clientAddressKey(subject.ip))}`,
          limit: r.perIp,
          windowMs,
        });
      }
      if (keys.length === 0) return;
      await maybePrune();
      const outcome = await store.hitRateLimit(keys);
      if (!outcome.allowed) {
        const seconds = Math.max(1, Math.ceil(outcome.retryAfterMs / 1000));
        throw commonError('RATE_LIMITED', `too many requests; retry in ${seconds} s`, {
          headers: { 'Retry-After': String(seconds) },
        });
      }
    },
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The part of a client address a limit counts: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its
 * /64 prefix, anything else as given (at most 100 characters).
 */
export function clientAddressKey(ip: string): string {
  let a = ip.trim().toLowerCase();
  if (a.startsWith('::ffff:') && isIPv4(a.slice(7))) return a.slice(7);
  if (isIPv4(a)) return a;
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  if (isIPv6(a)) return `${ipv6Groups(a).slice(0, 4).join(':')}::/64`;
  return a.slice(0, 100);
}

/** The eight groups of a valid IPv6 address, without leading zeros. */
function ipv6Groups(a: string): string[] {
  const split = (s: string) =>
    s === ''
      ? []
      : s.split(':').flatMap((g) => {
          if (!g.includes('.')) return [g];
          const [b0, b1, b2, b3] = g.split('.').map(Number) as [number, number, number, number];
          return [((b0 << 8) | b1).toString(16), ((b2 << 8) | b3).toString(16)];
        });
  const at = a.indexOf('::');
  const groups =
    at < 0
      ? split(a)
      : (() => {
          const head = split(a.slice(0, at));
          const tail = split(a.slice(at + 2));
          return [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
        })();
  return groups.map((g) => parseInt(g, 16).toString(16));
}
