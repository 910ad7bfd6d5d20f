/**
 * `authConfig.webauthn` (see `AuthConfig`): `{origin, rpId, rpName, requireResidentKey?}`.
 * Checked at construction (TypeError naming the key): `origin` an origin (`https://`, or `http://`
 * for localhost and loopback, which browsers treat as secure contexts), `rpId` the origin's host
 * or a parent domain of it (WebAuthn §5.1.3: the RP ID must be a registrable suffix of the
 * origin's effective domain), `rpName` 1 to 100 characters.
 */
import { isIP } from 'node:net';

export interface WebAuthnConfig {
  /** The page origin every ceremony must come from, e.g. `https://app.example.com`. */
  readonly origin: string;
  /** The relying party id: the origin's host or a parent domain of it, e.g. `example.com`. */
  readonly rpId: string;
  /** Shown by the authenticator, e.g. the app's name. */
  readonly rpName: string;
  /** Demand a discoverable credential (resident key). @default false */
  readonly requireResidentKey?: boolean;
}

export type ResolvedWebAuthnConfig = Readonly<Required<WebAuthnConfig>>;

const KEYS = new Set(['origin', 'rpId', 'rpName', 'requireResidentKey']);

export function resolveWebAuthnConfig(value: unknown): ResolvedWebAuthnConfig | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new TypeError(
      'auth config: webauthn must be an object {origin, rpId, rpName, requireResidentKey?}',
    );
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v))
    if (!KEYS.has(key))
      throw new TypeError(
        `auth config: unknown key webauthn.${key} (known: ${[...KEYS].join(', ')})`,
      );
  if (typeof v.origin !== 'string')
    throw new TypeError('auth config: webauthn.origin must be a string');
  let url: URL;
  try {
    url = new URL(v.origin);
  } catch {
    throw new TypeError(`auth config: webauthn.origin ${JSON.stringify(v.origin)} is not a URL`);
  }
  if (url.origin !== v.origin)
    throw new TypeError(
      `auth config: webauthn.origin must be an origin (scheme://host[:port], no path or trailing slash); got ${JSON.stringify(v.origin)}`,
    );
  const host = url.hostname;
  const loopback =
    host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new TypeError(
      'auth config: webauthn.origin must use https:// (http:// only for localhost)',
    );
  if (typeof v.rpId !== 'string' || v.rpId.length === 0)
    throw new TypeError('auth config: webauthn.rpId must be a non-empty string');
  const rpId = v.rpId;
  if (rpId !== rpId.toLowerCase() || isIP(rpId) || /[^a-z0-9.-]/.test(rpId))
    throw new TypeError('auth config: webauthn.rpId must be a lower-case domain name');
  if (host !== rpId && !host.endsWith(`.${rpId}`))
    throw new TypeError(
      `auth config: webauthn.rpId ${JSON.stringify(rpId)} must be the origin's host or a parent domain of it (${host})`,
    );
  if (
    typeof v.rpName !== 'string' ||
    v.rpName.length === 0 ||
    v.rpName.length > 100 ||
    /[\u0000-\u001f\u007f]/.test(v.rpName)
  )
    throw new TypeError(
      'auth config: webauthn.rpName must be 1 to 100 characters without control characters',
    );
  if (v.requireResidentKey !== undefined && typeof v.requireResidentKey !== 'boolean')
    throw new TypeError('auth config: webauthn.requireResidentKey must be true or false');
  return Object.freeze({
    origin: v.origin,
    rpId,
    rpName: v.rpName,
    requireResidentKey: v.requireResidentKey ?? false,
  });
}
