/**
 * OAuth / OIDC sign-in (docs/http.md, "Auth routes"):
 *
 *   GET  /auth/oauth/:provider/authorize?redirectUri=...[&codeChallenge=...]  → 302 to the provider
 *   GET  /auth/oauth/:provider/callback?state=...&code=...                     → 302 to redirectUri?code=...
 *   POST /auth/oauth/token {code, codeVerifier?}                               → Auth result or MFA challenge
 *
 * - authorize: `redirectUri` must be on the allow-list (else 400 VALIDATION_ERROR: svc never
 *   redirects to an address it does not know). svc makes a `state`, an OIDC `nonce` and a PKCE
 *   S256 verifier; they live in PostgreSQL for 10 minutes (the state by its SHA-256, the nonce by
 *   its SHA-256, the verifier sealed under a key derived from the state) and are used once.
 * - callback: the state is consumed by ONE conditional UPDATE (unknown, used or expired: 401
 *   INVALID_TOKEN); the stored `redirectUri` is checked against the allow-list again (400
 *   VALIDATION_ERROR when it has left it). From there every failure is a 302 to the redirectUri
 *   with `error=<CODE>&error_description=<message>`. The code is exchanged with the verifier; an
 *   ID token is validated (JWKS signature, iss, aud/azp, exp, nonce) and userinfo read.
 * - Who the user is (identities are keyed by the configured provider name and the provider's
 *   subject; a user may have several):
 *   1. a linked identity → its user;
 *   2. else, an account with the same email exists → linked ONLY when the provider says the email
 *      is verified (`email_verified` true). The link is a proof of the address (`proveAddress`,
 *      as a magic link or code is): if that account's own address was not verified yet, it
 *      becomes verified and its password, passkeys, other provider links and sessions are
 *      dropped, in the transaction that links: whoever registered it never proved the address
 *      (the pre-account-takeover defence). Without the provider's word: 409
 *      USER_ALREADY_EXISTS, nothing linked;
 *   3. else a new user (REGISTRATION_DISABLED when registration is off; `emailVerified` is the
 *      provider's claim; no password) and `IdentityCreated`. A provider that gives no email
 *      cannot create an account (INVALID_OPERATION).
 *   Then USER_INACTIVE / EMAIL_NOT_VERIFIED as for a password login.
 * - The one-time code handed to the app: 2 minutes, single use, SHA-256 at rest.
 * - token: the code is consumed (one conditional UPDATE); when authorize was given a
 *   `codeChallenge` (S256, the app's own PKCE), `codeVerifier` must match it (else 401
 *   INVALID_TOKEN; the code is spent either way). Apps should send one: it binds the code to the
 *   browser session that started the flow, so a code lured from another flow is useless. The
 *   sign-in ends in `completeSignIn(…, 'oauth')`: an Auth result, or an MFA challenge.
 */
import { commonError, SvcError } from '@svc/core';
import { normalizeEmail } from '../account';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import { completeSignIn } from '../session/sign-in';
import { proveAddress } from '../verification/operations';
import { isTokenShape, randomToken, secretsEqual, sha256Hex } from '../session/tokens';
import type { UserRecord } from '../store/types';
import type { RequestInfo, SignInResult } from '../types';
import type { ResolvedOAuthConfig } from './config';
import { fetchJson, type FetchLike, isObject, OAuthProviderError } from './http';
import { checkIdTokenClaims, decodeJwt, IdTokenError, selectKey, signatureValid } from './id-token';
import { createCodeVerifier, isCodeVerifier, isS256Challenge, s256Challenge } from './pkce';
import {
  isAcceptableEndpoint,
  type OAuthProfile,
  type OAuthProvider,
  type ProviderMetadata,
  providerImpl,
} from './providers';
import { redirectUriAllowed } from './redirect-uris';
import { openVerifier, sealVerifier } from './seal';

/** An authorization request lives 10 minutes. */
export const OAUTH_STATE_TTL_SECONDS = 600;
/** The code handed to the app lives 2 minutes. */
export const OAUTH_CODE_TTL_SECONDS = 120;
const JWKS_TTL_MS = 10 * 60 * 1000;

export interface OAuthAuthorizeInput {
  readonly redirectUri: string;
  /** The app's S256 challenge; `POST /auth/oauth/token` then requires its verifier. */
  readonly codeChallenge?: string;
  /** Only `S256`. */
  readonly codeChallengeMethod?: string;
  /**
   * svc's callback URL to register at the provider; required unless `oauth.baseUrl` is set
   * (the HTTP handler passes the request's own).
   */
  readonly callbackUrl?: string;
}

export interface OAuthCallbackInput {
  readonly state?: string | null;
  readonly code?: string | null;
  /** The provider's `error` parameter (the user declined...). */
  readonly error?: string | null;
}

/** Where to send the browser, and, when it carries an error, which. */
export interface OAuthCallbackResult {
  readonly location: string;
  readonly error?: { readonly code: string; readonly message: string };
}

export interface OAuthTokenInput {
  readonly code: string;
  readonly codeVerifier?: string;
}

export interface OAuthOperations {
  /** Over the `oauth` rate limit (per `info.ip`, shared with `token`): RATE_LIMITED. */
  authorize(
    provider: string,
    input: OAuthAuthorizeInput,
    info?: RequestInfo,
  ): Promise<{ url: string }>;
  callback(
    provider: string,
    input: OAuthCallbackInput,
    info?: RequestInfo,
  ): Promise<OAuthCallbackResult>;
  token(input: OAuthTokenInput, info?: RequestInfo): Promise<SignInResult>;
  /** The provider accounts linked to a user (by email or id). */
  identities(
    emailOrId: string,
  ): Promise<{ provider: string; subject: string; email: string | null; createdAt: string }[]>;
}

/** The OAuth operations over `ctx`; without `oauth` config each fails with INVALID_OPERATION. */
export function createOAuthOperations(
  ctx: OperationContext,
  oauth: ResolvedOAuthConfig | undefined,
  fetchImpl: FetchLike = (input, init) => fetch(input, init),
): OAuthOperations {
  const jwksCache = new Map<string, { at: number; jwks: unknown }>();

  const configured = (): ResolvedOAuthConfig => {
    if (!oauth) throw commonError('INVALID_OPERATION', 'OAuth is not configured');
    return oauth;
  };
  const providerNamed = (cfg: ResolvedOAuthConfig, name: string): OAuthProvider => {
    const p = typeof name === 'string' ? cfg.providers.get(name) : undefined;
    if (!p) throw commonError('NOT_FOUND', `no OAuth provider ${JSON.stringify(name)}`);
    return p;
  };
  const metadataOf = async (name: string, p: OAuthProvider): Promise<ProviderMetadata> => {
    try {
      return await providerImpl(p).metadata(fetchImpl);
    } catch (err) {
      throw unavailable(ctx, name, err);
    }
  };

  async function jwksFor(name: string, uri: string, refresh: boolean): Promise<unknown> {
    const hit = jwksCache.get(name);
    if (hit && !refresh && Date.now() - hit.at < JWKS_TTL_MS) return hit.jwks;
    let jwks: unknown;
    try {
      jwks = await fetchJson(fetchImpl, uri);
    } catch (err) {
      throw unavailable(ctx, name, err);
    }
    jwksCache.set(name, { at: Date.now(), jwks });
    return jwks;
  }

  async function validateIdToken(
    name: string,
    p: OAuthProvider,
    meta: ProviderMetadata,
    idToken: unknown,
    nonce: string | undefined,
  ): Promise<Record<string, unknown>> {
    const jwt = decodeJwt(idToken);
    if (!meta.jwksUri || !meta.issuerMatches)
      throw new IdTokenError('the provider has no key set to check ID tokens with');
    let key = selectKey(await jwksFor(name, meta.jwksUri, false), jwt.header);
    // A key the cached set does not hold: the provider may have rotated; read the set once more.
    if (!key) key = selectKey(await jwksFor(name, meta.jwksUri, true), jwt.header);
    if (!key) throw new IdTokenError('no key of the provider matches the ID token');
    if (!signatureValid(jwt, key)) throw new IdTokenError('the ID token signature is invalid');
    checkIdTokenClaims(jwt.claims, {
      issuer: meta.issuerMatches,
      clientId: p.clientId,
      now: Math.floor(ctx.now() / 1000),
      nonce,
    });
    return jwt.claims;
  }

  /** The authorization code for tokens at the provider's token endpoint. */
  async function exchange(
    name: string,
    p: OAuthProvider,
    meta: ProviderMetadata,
    code: string,
    callbackUrl: string,
    verifier: string,
  ): Promise<Record<string, unknown>> {
    const impl = providerImpl(p);
    const secret = impl.clientSecret(ctx.now());
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callbackUrl,
      code_verifier: verifier,
    });
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
    };
    if (meta.tokenAuth === 'client_secret_basic') {
      // RFC 6749 §2.3.1: each part form-urlencoded before Basic encoding.
      const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
      headers.Authorization = `Basic ${Buffer.from(`${enc(p.clientId)}:${enc(secret)}`).toString('base64')}`;
    } else {
      form.set('client_id', p.clientId);
      form.set('client_secret', secret);
    }
    let body: unknown;
    try {
      body = await fetchJson(fetchImpl, meta.tokenEndpoint, {
        method: 'POST',
        headers,
        body: form.toString(),
      });
    } catch (err) {
      // 400: the code (invalid_grant: expired, used, not ours). 401 and the rest: svc's client
      // credentials or the provider itself are at fault, which the operator must hear about.
      if (err instanceof OAuthProviderError && err.status === 400) {
        ctx.logger?.warn({ provider: name, status: 400 }, 'oauth provider refused a code');
        throw authError('INVALID_CREDENTIALS', 'the provider refused the authorization code');
      }
      throw unavailable(ctx, name, err);
    }
    // Some providers (GitHub) answer a refused code with 200 and an `error` member.
    if (!isObject(body) || body.error !== undefined) {
      ctx.logger?.warn(
        {
          provider: name,
          error: isObject(body) ? String(body.error).slice(0, 64) : 'not an object',
        },
        'oauth provider refused a code',
      );
      throw authError('INVALID_CREDENTIALS', 'the provider refused the authorization code');
    }
    if (typeof body.access_token !== 'string' || body.access_token.length === 0)
      throw authError('INVALID_CREDENTIALS', 'the provider answered no access token');
    return body;
  }

  /** The user a provider profile signs in (linking or creating; see the file comment). */
  async function userFor(name: string, profile: OAuthProfile): Promise<UserRecord> {
    const { store, config } = ctx;
    const linked = await store.findUserByIdentity(name, profile.subject);
    if (linked) return linked;
    if (!profile.email)
      throw commonError(
        'INVALID_OPERATION',
        'the provider gave no email address, so no account can be made for it',
      );
    const email = normalizeEmail(profile.email);
    const identity = { provider: name, subject: profile.subject, email };
    const existing = await store.findUserByEmail(email);
    if (existing) {
      if (profile.emailVerified !== true)
        throw authError(
          'USER_ALREADY_EXISTS',
          'an account with this email exists and the provider does not say the address is verified, so it was not linked',
        );
      const user = await proveAddress(ctx, existing, identity);
      if (!user) throw authError('USER_NOT_FOUND', 'the account was deleted meanwhile');
      return user;
    }
    if (!config.allowRegistration)
      throw authError('REGISTRATION_DISABLED', 'registration is disabled');
    try {
      const user = await store.createUserWithIdentity(
        {
          email,
          passwordHash: null,
          emailVerified: profile.emailVerified === true,
          metadata: profile.name ? { name: profile.name } : {},
        },
        identity,
      );
      ctx.bus.emit({ eventType: 'IdentityCreated', userId: user.id, email: user.email });
      return user;
    } catch (err) {
      // A concurrent callback for the same provider account created it first: sign that one in.
      if (err instanceof SvcError && err.code === 'USER_ALREADY_EXISTS') {
        const raced = await store.findUserByIdentity(name, profile.subject);
        if (raced) return raced;
      }
      throw err;
    }
  }

  function checkUserMaySignIn(user: UserRecord): void {
    if (!user.active) throw authError('USER_INACTIVE', 'the account is deactivated');
    if (ctx.config.requireEmailVerification && !user.emailVerified)
      throw authError('EMAIL_NOT_VERIFIED', 'the email address is not verified yet');
  }

  return {
    async authorize(name, input, info) {
      const cfg = configured();
      const p = providerNamed(cfg, name);
      // Each authorize writes a state row: counted per client address before anything else.
      await ctx.limiter.check('oauth', { ip: info?.ip });
      if (!isObject(input)) throw commonError('VALIDATION_ERROR', 'redirectUri is required');
      const { redirectUri, codeChallenge, codeChallengeMethod } = input;
      if (typeof redirectUri !== 'string' || redirectUri.length === 0)
        throw commonError('VALIDATION_ERROR', 'redirectUri is required');
      if (!redirectUriAllowed(redirectUri, cfg.redirectPatterns))
        throw commonError('VALIDATION_ERROR', 'redirectUri is not in the allowed list');
      if (codeChallengeMethod !== undefined && codeChallengeMethod !== 'S256')
        throw commonError('VALIDATION_ERROR', 'codeChallengeMethod must be S256');
      if (codeChallenge !== undefined && !isS256Challenge(codeChallenge))
        throw commonError(
          'VALIDATION_ERROR',
          'codeChallenge must be an S256 challenge: 43 base64url characters without padding',
        );
      const callbackUrl = cfg.baseUrl ? `${cfg.baseUrl}/oauth/${name}/callback` : input.callbackUrl;
      if (!isAcceptableEndpoint(callbackUrl))
        throw commonError(
          'VALIDATION_ERROR',
          'callbackUrl (svc’s own callback address) is required when oauth.baseUrl is not set',
        );
      const impl = providerImpl(p);
      const meta = await metadataOf(name, p);

      const state = randomToken(ctx.random);
      const verifier = createCodeVerifier(ctx.random);
      const nonce = impl.openid ? randomToken(ctx.random) : undefined;
      await ctx.store.createOAuthState({
        stateHash: sha256Hex(state),
        provider: name,
        redirectUri: new URL(redirectUri).href,
        callbackUrl,
        nonceHash: nonce === undefined ? null : sha256Hex(nonce),
        verifierSealed: sealVerifier(verifier, state),
        codeChallenge: codeChallenge ?? null,
        expiresAt: new Date(ctx.now() + OAUTH_STATE_TTL_SECONDS * 1000),
      });

      const url = new URL(meta.authorizationEndpoint);
      const params: Record<string, string> = {
        response_type: 'code',
        client_id: p.clientId,
        redirect_uri: callbackUrl,
        state,
        code_challenge: s256Challenge(verifier),
        code_challenge_method: 'S256',
        ...(p.scopes.length ? { scope: p.scopes.join(' ') } : {}),
        ...(nonce !== undefined ? { nonce } : {}),
        ...impl.authorizeParams,
      };
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      return { url: url.href };
    },

    async callback(name, input, info) {
      const cfg = configured();
      const p = providerNamed(cfg, name);
      const state = isObject(input) ? input.state : undefined;
      if (!isTokenShape(state))
        throw authError('INVALID_TOKEN', 'the OAuth state is missing or malformed');
      const record = await ctx.store.consumeOAuthState(sha256Hex(state), name);
      if (!record)
        throw authError('INVALID_TOKEN', 'the OAuth state is unknown, expired or already used');
      // The allow-list may have changed since authorize (or another process has another one).
      if (!redirectUriAllowed(record.redirectUri, cfg.redirectPatterns))
        throw commonError('VALIDATION_ERROR', 'redirectUri is not in the allowed list');
      const back = new URL(record.redirectUri);

      try {
        if (typeof input.error === 'string' && input.error.length > 0)
          throw commonError(
            'ACCESS_DENIED',
            `the provider did not authorize the sign-in (${input.error.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 64)})`,
          );
        if (typeof input.code !== 'string' || input.code.length === 0 || input.code.length > 4096)
          throw commonError('VALIDATION_ERROR', 'the provider sent no authorization code');
        const verifier = openVerifier(record.verifierSealed, state);
        if (!verifier) throw authError('INVALID_TOKEN', 'the OAuth state does not match');
        const meta = await metadataOf(name, p);
        const tokens = await exchange(name, p, meta, input.code, record.callbackUrl, verifier);
        const impl = providerImpl(p);
        let idClaims: Record<string, unknown> | undefined;
        if (impl.openid || tokens.id_token !== undefined) {
          if (tokens.id_token === undefined)
            throw authError('INVALID_TOKEN', 'the provider sent no ID token');
          idClaims = await validateIdToken(name, p, meta, tokens.id_token, undefined);
          // The nonce, compared by its hash: the raw nonce is not kept.
          if (record.nonceHash !== null) {
            const sent = typeof idClaims.nonce === 'string' ? sha256Hex(idClaims.nonce) : '';
            if (!secretsEqual(sent, record.nonceHash))
              throw new IdTokenError('the ID token nonce does not match');
          }
        }
        let profile: OAuthProfile;
        try {
          profile = await impl.profile({
            ...(idClaims ? { idClaims } : {}),
            accessToken: tokens.access_token as string,
            metadata: meta,
            fetch: fetchImpl,
          });
        } catch (err) {
          throw unavailable(ctx, name, err);
        }
        const user = await userFor(name, profile);
        checkUserMaySignIn(user);
        const code = randomToken(ctx.random);
        await ctx.store.issueOAuthCode({
          codeHash: sha256Hex(code),
          userId: user.id,
          provider: name,
          codeChallenge: record.codeChallenge,
          expiresAt: new Date(ctx.now() + OAUTH_CODE_TTL_SECONDS * 1000),
        });
        back.searchParams.set('code', code);
        return { location: back.href };
      } catch (err) {
        const failure = describeFailure(ctx, name, err, info);
        back.searchParams.set('error', failure.code);
        back.searchParams.set('error_description', failure.message);
        return { location: back.href, error: failure };
      }
    },

    async token(input, info) {
      configured();
      await ctx.limiter.check('oauth', { ip: info?.ip });
      if (!isObject(input)) throw commonError('VALIDATION_ERROR', 'code is required');
      const { code, codeVerifier } = input;
      if (typeof code !== 'string' || code.length === 0)
        throw commonError('VALIDATION_ERROR', 'code is required');
      if (codeVerifier !== undefined && codeVerifier !== null && !isCodeVerifier(codeVerifier))
        throw commonError(
          'VALIDATION_ERROR',
          'codeVerifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~',
        );
      if (!isTokenShape(code)) throw authError('INVALID_TOKEN', 'the code is invalid');
      const record = await ctx.store.consumeOAuthCode(sha256Hex(code));
      if (!record) throw authError('INVALID_TOKEN', 'the code is unknown, expired or already used');
      if (record.codeChallenge !== null) {
        if (
          typeof codeVerifier !== 'string' ||
          !secretsEqual(s256Challenge(codeVerifier), record.codeChallenge)
        )
          throw authError('INVALID_TOKEN', 'the codeVerifier does not match the codeChallenge');
      }
      const user = await ctx.store.findUserById(record.userId);
      if (!user) throw authError('INVALID_TOKEN', 'the code is unknown, expired or already used');
      checkUserMaySignIn(user);
      return completeSignIn(ctx, user, info, 'oauth');
    },

    async identities(emailOrId) {
      const user =
        typeof emailOrId === 'string'
          ? /^[0-9a-f-]{36}$/i.test(emailOrId)
            ? await ctx.store.findUserById(emailOrId)
            : await ctx.store.findUserByEmail(emailOrId)
          : null;
      if (!user) throw authError('USER_NOT_FOUND', 'no such user');
      const rows = await ctx.store.listIdentities(user.id);
      return rows.map((r) => ({
        provider: r.provider,
        subject: r.subject,
        email: r.email,
        createdAt: r.createdAt.toISOString(),
      }));
    },
  };
}

/** A provider that cannot be reached or answers nonsense: 503, logged without its body. */
function unavailable(ctx: OperationContext, name: string, err: unknown): Error {
  if (err instanceof SvcError) return err;
  if (err instanceof IdTokenError) return err;
  ctx.logger?.warn(
    { provider: name, reason: err instanceof Error ? err.message : String(err) },
    'oauth provider failed',
  );
  return commonError('SERVICE_UNAVAILABLE', 'the identity provider could not complete the sign-in');
}

/** The `error` and `error_description` of a failed callback (no internals). */
function describeFailure(
  ctx: OperationContext,
  name: string,
  err: unknown,
  info: RequestInfo | undefined,
): { code: string; message: string } {
  if (err instanceof IdTokenError) {
    ctx.logger?.warn(
      { provider: name, reason: err.message, ip: info?.ip ?? null },
      'oauth id token refused',
    );
    return { code: 'INVALID_TOKEN', message: err.message };
  }
  if (err instanceof SvcError) return { code: err.code, message: err.message };
  ctx.logger?.error({ err, provider: name }, 'unexpected error in the oauth callback');
  return { code: 'INTERNAL_ERROR', message: 'the sign-in failed' };
}
