/**
 * ID-token validation (OpenID Connect Core 3.1.3.7) with node:crypto only: the JWS signature
 * against the provider's JWKS (RS256/384/512, PS256/384/512, ES256/384/512, EdDSA; never `none`
 * nor an HMAC algorithm), then `iss`, `aud` (and `azp` when several audiences), `exp` (60 s of
 * leeway), `iat` present, and `nonce` (compared in constant time).
 */
import {
  createPublicKey,
  type JsonWebKey,
  type KeyObject,
  verify as cryptoVerify,
} from 'node:crypto';
import { secretsEqual } from '../session/tokens';
import { isObject } from './http';

export const CLOCK_LEEWAY_SECONDS = 60;

type Alg = { hash: string | null; kty: string; pss?: boolean; ecdsa?: boolean };
const ALGORITHMS: Readonly<Record<string, Alg>> = {
  RS256: { hash: 'sha256', kty: 'RSA' },
  RS384: { hash: 'sha384', kty: 'RSA' },
  RS512: { hash: 'sha512', kty: 'RSA' },
  PS256: { hash: 'sha256', kty: 'RSA', pss: true },
  PS384: { hash: 'sha384', kty: 'RSA', pss: true },
  PS512: { hash: 'sha512', kty: 'RSA', pss: true },
  ES256: { hash: 'sha256', kty: 'EC', ecdsa: true },
  ES384: { hash: 'sha384', kty: 'EC', ecdsa: true },
  ES512: { hash: 'sha512', kty: 'EC', ecdsa: true },
  EdDSA: { hash: null, kty: 'OKP' },
};

/** Why an ID token was refused (the message names the check, never the token). */
export class IdTokenError extends Error {
  override readonly name = 'IdTokenError';
}

export interface DecodedJwt {
  readonly header: Record<string, unknown>;
  readonly claims: Record<string, unknown>;
  readonly signingInput: Buffer;
  readonly signature: Buffer;
}

export function decodeJwt(token: unknown): DecodedJwt {
  if (typeof token !== 'string' || token.length > 16384)
    throw new IdTokenError('the ID token is not a string');
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)))
    throw new IdTokenError('the ID token is not a compact JWS');
  const [h, c, s] = parts as [string, string, string];
  let header: unknown;
  let claims: unknown;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(c, 'base64url').toString('utf8'));
  } catch {
    throw new IdTokenError('the ID token is not JSON');
  }
  if (!isObject(header) || !isObject(claims)) throw new IdTokenError('the ID token is not JSON');
  return {
    header,
    claims,
    signingInput: Buffer.from(`${h}.${c}`, 'ascii'),
    signature: Buffer.from(s, 'base64url'),
  };
}

/** The key of the set the header names (by `kid`; without one, the only key fit for `alg`). */
export function selectKey(jwks: unknown, header: Record<string, unknown>): KeyObject | undefined {
  const alg = ALGORITHMS[String(header.alg)];
  if (!alg || !isObject(jwks) || !Array.isArray(jwks.keys)) return undefined;
  const fit = (jwks.keys as unknown[]).filter(
    (k): k is Record<string, unknown> =>
      isObject(k) &&
      k.kty === alg.kty &&
      (k.use === undefined || k.use === 'sig') &&
      (k.alg === undefined || k.alg === header.alg),
  );
  const kid = header.kid;
  const chosen =
    typeof kid === 'string' ? fit.filter((k) => k.kid === kid) : fit.length === 1 ? fit : [];
  if (chosen.length !== 1) return undefined;
  try {
    return createPublicKey({ key: chosen[0] as JsonWebKey, format: 'jwk' });
  } catch {
    return undefined;
  }
}

/** Whether the signature of `jwt` verifies with `key` under the header's algorithm. */
export function signatureValid(jwt: DecodedJwt, key: KeyObject): boolean {
  const alg = ALGORITHMS[String(jwt.header.alg)];
  if (!alg) return false;
  try {
    if (alg.ecdsa)
      return cryptoVerify(
        alg.hash,
        jwt.signingInput,
        { key, dsaEncoding: 'ieee-p1363' },
        jwt.signature,
      );
    if (alg.pss)
      return cryptoVerify(
        alg.hash,
        jwt.signingInput,
        { key, padding: 6 /* RSA_PKCS1_PSS_PADDING */, saltLength: -1 /* digest length */ },
        jwt.signature,
      );
    return cryptoVerify(alg.hash, jwt.signingInput, key, jwt.signature);
  } catch {
    return false;
  }
}

export interface ClaimExpectations {
  /** Whether `iss` is the provider's issuer (a function for multi-tenant issuers). */
  readonly issuer: (iss: string, claims: Record<string, unknown>) => boolean;
  readonly clientId: string;
  /** Unix seconds. */
  readonly now: number;
  /** The nonce sent with the authorization request; undefined when none was sent. */
  readonly nonce: string | undefined;
}

/** The claim checks of OIDC Core 3.1.3.7 (signature aside). */
export function checkIdTokenClaims(claims: Record<string, unknown>, want: ClaimExpectations): void {
  if (typeof claims.iss !== 'string' || !want.issuer(claims.iss, claims))
    throw new IdTokenError('the ID token was issued by another issuer');
  const aud = claims.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.includes(want.clientId))
    throw new IdTokenError('the ID token is meant for another client');
  if (audiences.length > 1 && claims.azp !== want.clientId)
    throw new IdTokenError('the ID token is meant for another party (azp)');
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_LEEWAY_SECONDS <= want.now)
    throw new IdTokenError('the ID token has expired');
  if (typeof claims.iat !== 'number') throw new IdTokenError('the ID token has no iat');
  if (typeof claims.sub !== 'string' || claims.sub.length === 0)
    throw new IdTokenError('the ID token has no subject');
  if (want.nonce !== undefined) {
    if (typeof claims.nonce !== 'string' || !secretsEqual(claims.nonce, want.nonce))
      throw new IdTokenError('the ID token nonce does not match');
  }
}
