import { createSecretKey, type KeyObject } from 'node:crypto';
import type * as Jwt from 'jsonwebtoken';
import { authError } from '../errors';

/**
 * How much a session's sign-in proved (NIST SP 800-63B's authenticator assurance levels, as
 * GoTrue names them): `aal1` after one factor, `aal2` after a completed MFA challenge or a
 * user-verified passkey. Stored with the session and written into its access tokens as `aal`.
 */
export type AuthAssuranceLevel = 'aal1' | 'aal2';

/** Claims of an svc access token (docs/http.md, "Callers and credentials"). */
export interface AccessTokenClaims {
  readonly aud: string;
  readonly iss: string;
  readonly sub: string;
  readonly email: string;
  readonly username?: string;
  readonly iat: number;
  readonly exp: number;
  readonly jti: string;
  readonly roles: readonly string[];
  readonly permissions?: readonly string[];
  /** `true` in a guest session's tokens (as Supabase writes it); absent otherwise. */
  readonly is_anonymous?: boolean;
  /** The session's assurance level; absent in tokens issued before it existed (read as `aal1`). */
  readonly aal?: AuthAssuranceLevel;
}

/** What query handling learns of the caller: the caller's globals of docs/http.md come from it. */
export interface AuthContext {
  readonly userId?: string;
  readonly roles: readonly string[];
  readonly permissions: readonly string[];
  /** A guest's session: the verified token's `is_anonymous` claim is `true`. */
  readonly isAnonymous: boolean;
  /** The session's assurance level: the token's `aal` claim (`aal1` when it has none). */
  readonly aal: AuthAssuranceLevel;
  readonly jwtClaims?: {
    readonly sub: string;
    readonly email: string;
    readonly aud?: string;
    readonly iss?: string;
    readonly username?: string;
  };
}

export interface TokenVerifierConfig {
  readonly jwtSecret: string;
  /** @default 'svc-api' */
  readonly jwtAudience?: string;
  /** @default 'svc' */
  readonly jwtIssuer?: string;
  /** Clock, for tests. @default Date.now */
  readonly now?: () => number;
}

export interface TokenVerifier {
  /** Verified claims, or an `INVALID_TOKEN` / `TOKEN_EXPIRED` error. */
  verify(token: string): AccessTokenClaims;
  /** Signs claims (HS256) with the same key; `iat`/`exp` in Unix seconds. */
  sign(claims: Omit<AccessTokenClaims, 'aud' | 'iss'>): string;
}

export const JWT_SECRET_MIN_LENGTH = 32;

/** Verified access tokens a verifier keeps (about 0.5 KiB each). */
const VERIFIED_TOKENS_KEPT = 4096;

let jsonwebtoken: typeof Jwt | undefined;
/** jsonwebtoken and what it requires (about 75 modules) load with the first token, not at start. */
function jwt(): typeof Jwt {
  jsonwebtoken ??= require('jsonwebtoken') as typeof Jwt;
  return jsonwebtoken;
}

/**
 * HS256 access tokens. The secret becomes a `KeyObject` once, so a verification does not re-read
 * the key (with a string secret jsonwebtoken re-parses it on every call, about 40× slower).
 * Only HS256 is accepted: `alg: none` and every other algorithm are refused.
 */
export function createTokenVerifier(config: TokenVerifierConfig): TokenVerifier {
  if (typeof config.jwtSecret !== 'string' || config.jwtSecret.length < JWT_SECRET_MIN_LENGTH) {
    throw new TypeError(`jwtSecret must be at least ${JWT_SECRET_MIN_LENGTH} characters`);
  }
  const key: KeyObject = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
  const audience = config.jwtAudience ?? 'svc-api';
  const issuer = config.jwtIssuer ?? 'svc';
  const now = config.now ?? Date.now;
  // Tokens whose signature, audience and issuer were verified, by their text: a client sends the
  // same token with every request until it refreshes, so only its expiry is checked again.
  const verified = new Map<string, AccessTokenClaims>();

  return {
    verify(token) {
      const known = verified.get(token);
      if (known) {
        if (Math.floor(now() / 1000) >= known.exp) {
          verified.delete(token);
          throw authError('TOKEN_EXPIRED', 'the access token has expired');
        }
        return known;
      }
      let payload: string | Jwt.JwtPayload;
      try {
        payload = jwt().verify(token, key, {
          algorithms: ['HS256'],
          audience,
          issuer,
          clockTimestamp: Math.floor(now() / 1000),
        });
      } catch (err) {
        if (err instanceof jwt().TokenExpiredError) {
          throw authError('TOKEN_EXPIRED', 'the access token has expired');
        }
        throw authError('INVALID_TOKEN', 'the access token is malformed or its signature is wrong');
      }
      if (typeof payload === 'string' || !isAccessClaims(payload)) {
        throw authError('INVALID_TOKEN', 'the access token lacks required claims');
      }
      // Kept only when nothing but the expiry can change its verdict (no `nbf`); the oldest entry
      // goes first past the bound.
      if (payload.nbf === undefined) {
        if (verified.size >= VERIFIED_TOKENS_KEPT) {
          verified.delete(verified.keys().next().value as string);
        }
        verified.set(token, Object.freeze(payload));
      }
      return payload;
    },
    sign(claims) {
      return jwt().sign({ ...claims, aud: audience, iss: issuer }, key, { algorithm: 'HS256' });
    },
  };
}

function isAccessClaims(p: Jwt.JwtPayload): p is Jwt.JwtPayload & AccessTokenClaims {
  return (
    typeof p.sub === 'string' &&
    typeof p.exp === 'number' &&
    typeof p.iat === 'number' &&
    typeof p.jti === 'string' &&
    typeof p.email === 'string' &&
    Array.isArray(p.roles) &&
    p.roles.every((r: unknown) => typeof r === 'string')
  );
}

/**
 * The auth context of verified claims (`userId` from `sub`, permissions from the claim;
 * `isAnonymous` from the `is_anonymous` claim, true only when it is exactly `true`; `aal` from
 * the `aal` claim, `aal2` only when it says exactly that).
 */
export function authContextFromClaims(claims: AccessTokenClaims): AuthContext {
  return {
    userId: claims.sub,
    roles: [...claims.roles],
    permissions: Array.isArray(claims.permissions) ? [...claims.permissions] : [],
    isAnonymous: claims.is_anonymous === true,
    aal: claims.aal === 'aal2' ? 'aal2' : 'aal1',
    jwtClaims: {
      sub: claims.sub,
      email: claims.email,
      aud: claims.aud,
      iss: claims.iss,
      ...(claims.username ? { username: claims.username } : {}),
    },
  };
}
