/**
 * Provider factories: `google`, `github`, `apple`, `microsoft`, `discord`, `gitlab` and the
 * generic `oidc`. Each knows its provider's endpoints, how the client authenticates at the token
 * endpoint, whether it speaks OpenID Connect (then a nonce is sent and an ID token validated), and
 * how to map what it says about the user to `{subject, email, emailVerified, name}`:
 *
 * - OIDC providers (Google, Microsoft, GitLab, Apple, generic): the validated ID token's claims,
 *   completed by the userinfo endpoint when there is one (whose `sub` must equal the token's).
 * - GitHub: `GET /user` (`id`, `login`, `name`, `email`) and `GET /user/emails` (`email`,
 *   `primary`, `verified`): the primary address and its `verified` flag.
 * - Discord: `GET /users/@me` (`id`, `username`, `global_name`, `email`, `verified`).
 *
 * Arguments are checked at construction (TypeError naming the factory and the key).
 */
import { createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { parseEmailVerified, stringClaim, subjectClaim } from './claims';
import { fetchJson, type FetchLike, isObject, OAuthProviderError } from './http';
import { IdTokenError } from './id-token';

export type OAuthProviderType =
  | 'google'
  | 'github'
  | 'apple'
  | 'microsoft'
  | 'discord'
  | 'gitlab'
  | 'oidc';

/** What svc keeps of a provider's account. */
export interface OAuthProfile {
  readonly subject: string;
  readonly email?: string;
  readonly emailVerified?: boolean;
  readonly name?: string;
}

/** The endpoints and rules of a provider, once known (the generic factory discovers them). */
export interface ProviderMetadata {
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly userinfoEndpoint?: string;
  readonly jwksUri?: string;
  /** Whether an ID token's `iss` is this provider's. */
  readonly issuerMatches?: (iss: string, claims: Record<string, unknown>) => boolean;
  /** How the client authenticates at the token endpoint. */
  readonly tokenAuth: 'client_secret_basic' | 'client_secret_post';
}

export interface ProfileInput {
  /** The validated ID token's claims (OIDC providers). */
  readonly idClaims?: Record<string, unknown>;
  readonly accessToken: string;
  readonly metadata: ProviderMetadata;
  readonly fetch: FetchLike;
}

/** @internal What the operations use; apps only pass providers into `oauth.providers`. */
export interface ProviderImpl {
  /** OpenID Connect: send a nonce and expect an ID token. */
  readonly openid: boolean;
  /** Extra authorization parameters (Apple: `response_mode=form_post`). */
  readonly authorizeParams: Readonly<Record<string, string>>;
  metadata(fetch: FetchLike): Promise<ProviderMetadata>;
  /** The client secret to send now (Apple's is a short-lived JWT). */
  clientSecret(nowMs: number): string;
  profile(input: ProfileInput): Promise<OAuthProfile>;
}

const IMPL: unique symbol = Symbol('svc.oauth.provider');

/** A configured provider: made by a factory, placed under a name in `oauth.providers`. */
export interface OAuthProvider {
  readonly type: OAuthProviderType;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly [IMPL]: ProviderImpl;
}

export function isOAuthProvider(value: unknown): value is OAuthProvider {
  return typeof value === 'object' && value !== null && IMPL in value;
}

export function providerImpl(p: OAuthProvider): ProviderImpl {
  return p[IMPL];
}

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Replaces the default scopes. */
  readonly scopes?: readonly string[];
}

// --- argument checks -------------------------------------------------------------------------

function checkObject(factory: string, options: unknown): Record<string, unknown> {
  if (!isObject(options)) throw new TypeError(`${factory}(): options must be an object`);
  return options;
}

function checkString(factory: string, options: Record<string, unknown>, key: string): string {
  const v = options[key];
  if (typeof v !== 'string' || v.trim().length === 0 || v.length > 4096)
    throw new TypeError(`${factory}(): ${key} must be a non-empty string`);
  return v;
}

function checkScopes(
  factory: string,
  options: Record<string, unknown>,
  defaults: readonly string[],
): readonly string[] {
  const v = options.scopes;
  if (v === undefined) return Object.freeze([...defaults]);
  if (
    !Array.isArray(v) ||
    v.some((s) => typeof s !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))
  )
    throw new TypeError(
      `${factory}(): scopes must be an array of scope tokens (printable ASCII, no spaces or quotes)`,
    );
  return Object.freeze([...(v as string[])]);
}

/** https, or http to a loopback host (local development and tests). */
export function isAcceptableEndpoint(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return (
    url.protocol === 'http:' &&
    (url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]')
  );
}

function make(
  type: OAuthProviderType,
  clientId: string,
  scopes: readonly string[],
  impl: ProviderImpl,
): OAuthProvider {
  return Object.freeze({ type, clientId, scopes, [IMPL]: impl });
}

// --- shared mapping ----------------------------------------------------------------------------

/** The standard claims (OIDC Core 5.1) of an ID token and/or userinfo response. */
export function mapOidcClaims(claims: Record<string, unknown>): OAuthProfile {
  const subject = subjectClaim(claims.sub);
  if (!subject) throw new OAuthProviderError('the provider gave no subject');
  const email = stringClaim(claims.email);
  const emailVerified = parseEmailVerified(claims.email_verified);
  const name = stringClaim(claims.name) ?? stringClaim(claims.preferred_username);
  return {
    subject,
    ...(email ? { email } : {}),
    ...(emailVerified !== undefined ? { emailVerified } : {}),
    ...(name ? { name } : {}),
  };
}

/**
 * ID-token claims completed by userinfo (when the provider has the endpoint). The userinfo `sub`
 * must be the token's (OIDC Core 5.3.2); userinfo's values win for email and name, since it is
 * where most providers put them.
 */
async function oidcProfile(input: ProfileInput): Promise<OAuthProfile> {
  const fromToken = input.idClaims ? mapOidcClaims(input.idClaims) : undefined;
  if (!input.metadata.userinfoEndpoint) {
    if (!fromToken) throw new OAuthProviderError('the provider gave no ID token');
    return fromToken;
  }
  const info = await fetchJson(input.fetch, input.metadata.userinfoEndpoint, {
    headers: { Authorization: `Bearer ${input.accessToken}` },
  });
  if (!isObject(info)) throw new OAuthProviderError('the userinfo response is not an object');
  const fromInfo = mapOidcClaims(info);
  if (fromToken && fromToken.subject !== fromInfo.subject)
    throw new IdTokenError('the userinfo subject differs from the ID token subject');
  if (!fromToken) return fromInfo;
  // Email and its verification travel together: never one source's address with the other's flag.
  const emailSource = fromInfo.email ? fromInfo : fromToken;
  const name = fromInfo.name ?? fromToken.name;
  return {
    subject: fromToken.subject,
    ...(emailSource.email ? { email: emailSource.email } : {}),
    ...(emailSource.emailVerified !== undefined
      ? { emailVerified: emailSource.emailVerified }
      : {}),
    ...(name ? { name } : {}),
  };
}

const DEFAULT_OIDC_SCOPES = ['openid', 'email', 'profile'] as const;

// --- well-known providers ----------------------------------------------------------------------

const GOOGLE = {
  authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
  token: 'https://oauth2.googleapis.com/token',
  userinfo: 'https://openidconnect.googleapis.com/v1/userinfo',
  jwks: 'https://www.googleapis.com/oauth2/v3/certs',
  issuers: ['https://accounts.google.com', 'accounts.google.com'],
};

/** Google (OpenID Connect). Default scopes `openid email profile`. */
export function google(options: ClientCredentials): OAuthProvider {
  const o = checkObject('google', options);
  const clientId = checkString('google', o, 'clientId');
  const secret = checkString('google', o, 'clientSecret');
  const metadata: ProviderMetadata = {
    authorizationEndpoint: GOOGLE.authorization,
    tokenEndpoint: GOOGLE.token,
    userinfoEndpoint: GOOGLE.userinfo,
    jwksUri: GOOGLE.jwks,
    issuerMatches: (iss) => GOOGLE.issuers.includes(iss),
    tokenAuth: 'client_secret_post',
  };
  return make('google', clientId, checkScopes('google', o, DEFAULT_OIDC_SCOPES), {
    openid: true,
    authorizeParams: {},
    metadata: async () => metadata,
    clientSecret: () => secret,
    profile: oidcProfile,
  });
}

/** The user of GitHub's `GET /user` and the list of `GET /user/emails`, mapped. */
export function mapGithubUser(user: unknown, emails: unknown): OAuthProfile {
  if (!isObject(user)) throw new OAuthProviderError('the GitHub user is not an object');
  const subject = subjectClaim(user.id);
  if (!subject) throw new OAuthProviderError('the GitHub user has no id');
  const name = stringClaim(user.name) ?? stringClaim(user.login);
  const primary = Array.isArray(emails)
    ? (emails as unknown[]).find((e) => isObject(e) && e.primary === true)
    : undefined;
  let email: string | undefined;
  let emailVerified: boolean | undefined;
  if (isObject(primary) && stringClaim(primary.email)) {
    email = stringClaim(primary.email);
    emailVerified = parseEmailVerified(primary.verified);
  } else {
    // The public profile address, with no word on its verification.
    email = stringClaim(user.email);
  }
  return {
    subject,
    ...(email ? { email } : {}),
    ...(emailVerified !== undefined ? { emailVerified } : {}),
    ...(name ? { name } : {}),
  };
}

const GITHUB = {
  authorization: 'https://github.com/login/oauth/authorize',
  token: 'https://github.com/login/oauth/access_token',
  api: 'https://api.github.com',
};

/** GitHub (OAuth 2.0, not OIDC). Default scopes `read:user user:email`. */
export function github(options: ClientCredentials): OAuthProvider {
  const o = checkObject('github', options);
  const clientId = checkString('github', o, 'clientId');
  const secret = checkString('github', o, 'clientSecret');
  const metadata: ProviderMetadata = {
    authorizationEndpoint: GITHUB.authorization,
    tokenEndpoint: GITHUB.token,
    tokenAuth: 'client_secret_post',
  };
  return make('github', clientId, checkScopes('github', o, ['read:user', 'user:email']), {
    openid: false,
    authorizeParams: {},
    metadata: async () => metadata,
    clientSecret: () => secret,
    async profile({ accessToken, fetch }) {
      const headers = {
        Authorization: `Bearer ${accessToken}`,
        Accept: 'application/vnd.github+json',
        'User-Agent': 'svc-auth',
      };
      const user = await fetchJson(fetch, `${GITHUB.api}/user`, { headers });
      // Without the user:email scope this fails: the public address stays, unverified.
      const emails = await fetchJson(fetch, `${GITHUB.api}/user/emails`, { headers }).catch(
        () => undefined,
      );
      return mapGithubUser(user, emails);
    },
  });
}

/** Discord's `GET /users/@me`, mapped (`verified` is the email's verification). */
export function mapDiscordUser(user: unknown): OAuthProfile {
  if (!isObject(user)) throw new OAuthProviderError('the Discord user is not an object');
  const subject = subjectClaim(user.id);
  if (!subject) throw new OAuthProviderError('the Discord user has no id');
  const email = stringClaim(user.email);
  const emailVerified = email ? parseEmailVerified(user.verified) : undefined;
  const name = stringClaim(user.global_name) ?? stringClaim(user.username);
  return {
    subject,
    ...(email ? { email } : {}),
    ...(emailVerified !== undefined ? { emailVerified } : {}),
    ...(name ? { name } : {}),
  };
}

const DISCORD = {
  authorization: 'https://discord.com/oauth2/authorize',
  token: 'https://discord.com/api/oauth2/token',
  me: 'https://discord.com/api/users/@me',
};

/** Discord (OAuth 2.0). Default scopes `identify email`. */
export function discord(options: ClientCredentials): OAuthProvider {
  const o = checkObject('discord', options);
  const clientId = checkString('discord', o, 'clientId');
  const secret = checkString('discord', o, 'clientSecret');
  const metadata: ProviderMetadata = {
    authorizationEndpoint: DISCORD.authorization,
    tokenEndpoint: DISCORD.token,
    tokenAuth: 'client_secret_post',
  };
  return make('discord', clientId, checkScopes('discord', o, ['identify', 'email']), {
    openid: false,
    authorizeParams: {},
    metadata: async () => metadata,
    clientSecret: () => secret,
    async profile({ accessToken, fetch }) {
      return mapDiscordUser(
        await fetchJson(fetch, DISCORD.me, { headers: { Authorization: `Bearer ${accessToken}` } }),
      );
    },
  });
}

export interface GitlabOptions extends ClientCredentials {
  /** A self-managed instance. @default the public GitLab service */
  readonly baseUrl?: string;
}

/** GitLab (OpenID Connect; `/oauth/userinfo` carries `email` and `email_verified`). */
export function gitlab(options: GitlabOptions): OAuthProvider {
  const o = checkObject('gitlab', options);
  const clientId = checkString('gitlab', o, 'clientId');
  const secret = checkString('gitlab', o, 'clientSecret');
  const base = o.baseUrl === undefined ? 'https://gitlab.com' : o.baseUrl;
  if (!isAcceptableEndpoint(base)) throw new TypeError('gitlab(): baseUrl must be an https URL');
  const root = (base as string).replace(/\/+$/, '');
  const metadata: ProviderMetadata = {
    authorizationEndpoint: `${root}/oauth/authorize`,
    tokenEndpoint: `${root}/oauth/token`,
    userinfoEndpoint: `${root}/oauth/userinfo`,
    jwksUri: `${root}/oauth/discovery/keys`,
    issuerMatches: (iss) => iss === root,
    tokenAuth: 'client_secret_post',
  };
  return make('gitlab', clientId, checkScopes('gitlab', o, DEFAULT_OIDC_SCOPES), {
    openid: true,
    authorizeParams: {},
    metadata: async () => metadata,
    clientSecret: () => secret,
    profile: oidcProfile,
  });
}

export interface MicrosoftOptions extends ClientCredentials {
  /** `common`, `organizations`, `consumers` or a tenant id. @default 'common' */
  readonly tenant?: string;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Microsoft identity platform v2 (OpenID Connect). The ID token's issuer names the user's tenant
 * (`tid`); with `tenant` a tenant id, only that tenant is accepted. Microsoft sends no
 * `email_verified`, so its addresses count as unverified (never linked to an existing account).
 */
export function microsoft(options: MicrosoftOptions): OAuthProvider {
  const o = checkObject('microsoft', options);
  const clientId = checkString('microsoft', o, 'clientId');
  const secret = checkString('microsoft', o, 'clientSecret');
  const tenant = o.tenant === undefined ? 'common' : o.tenant;
  if (typeof tenant !== 'string' || !/^[A-Za-z0-9.-]{1,100}$/.test(tenant))
    throw new TypeError(
      'microsoft(): tenant must be common, organizations, consumers or a tenant id',
    );
  const login = `https://login.microsoftonline.com/${tenant}`;
  const metadata: ProviderMetadata = {
    authorizationEndpoint: `${login}/oauth2/v2.0/authorize`,
    tokenEndpoint: `${login}/oauth2/v2.0/token`,
    userinfoEndpoint: 'https://graph.microsoft.com/oidc/userinfo',
    jwksUri: `${login}/discovery/v2.0/keys`,
    issuerMatches: (iss, claims) => {
      const tid = claims.tid;
      if (typeof tid !== 'string' || !UUID_RE.test(tid)) return false;
      if (UUID_RE.test(tenant) && tid.toLowerCase() !== tenant.toLowerCase()) return false;
      return iss === `https://login.microsoftonline.com/${tid}/v2.0`;
    },
    tokenAuth: 'client_secret_post',
  };
  return make('microsoft', clientId, checkScopes('microsoft', o, DEFAULT_OIDC_SCOPES), {
    openid: true,
    authorizeParams: {},
    metadata: async () => metadata,
    clientSecret: () => secret,
    profile: oidcProfile,
  });
}

export interface AppleOptions {
  /** The Services ID. */
  readonly clientId: string;
  readonly teamId: string;
  /** The id of the Sign in with Apple private key. */
  readonly keyId: string;
  /** That key, PKCS#8 PEM (the .p8 file). */
  readonly privateKey: string;
  /** @default ['name', 'email'] */
  readonly scopes?: readonly string[];
}

const APPLE = {
  issuer: 'https://appleid.apple.com',
  authorization: 'https://appleid.apple.com/auth/authorize',
  token: 'https://appleid.apple.com/auth/token',
  jwks: 'https://appleid.apple.com/auth/keys',
};

/**
 * Sign in with Apple (OpenID Connect without a userinfo endpoint: everything comes from the ID
 * token, whose `email_verified` may be the string "true"). The client secret is an ES256 JWT
 * signed with the team's key, made afresh (5 minutes) for each exchange. With scopes, Apple
 * answers by POSTing the callback as a form (`response_mode=form_post`).
 */
export function apple(options: AppleOptions): OAuthProvider {
  const o = checkObject('apple', options);
  const clientId = checkString('apple', o, 'clientId');
  const teamId = checkString('apple', o, 'teamId');
  const keyId = checkString('apple', o, 'keyId');
  let key: KeyObject;
  try {
    key = createPrivateKey(checkString('apple', o, 'privateKey'));
  } catch (err) {
    if (err instanceof TypeError && err.message.startsWith('apple()')) throw err;
    throw new TypeError('apple(): privateKey must be the PKCS#8 PEM of the P-256 key');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new TypeError('apple(): privateKey must be a P-256 (ES256) key');
  const scopes = checkScopes('apple', o, ['name', 'email']);
  const metadata: ProviderMetadata = {
    authorizationEndpoint: APPLE.authorization,
    tokenEndpoint: APPLE.token,
    jwksUri: APPLE.jwks,
    issuerMatches: (iss) => iss === APPLE.issuer,
    tokenAuth: 'client_secret_post',
  };
  return make('apple', clientId, scopes, {
    openid: true,
    authorizeParams: scopes.length ? { response_mode: 'form_post' } : {},
    metadata: async () => metadata,
    clientSecret: (nowMs) => {
      const iat = Math.floor(nowMs / 1000);
      const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const input = `${enc({ alg: 'ES256', kid: keyId })}.${enc({
        iss: teamId,
        iat,
        exp: iat + 300,
        aud: APPLE.issuer,
        sub: clientId,
      })}`;
      const sig = cryptoSign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
      return `${input}.${sig.toString('base64url')}`;
    },
    profile: oidcProfile,
  });
}

// --- generic OpenID Connect ----------------------------------------------------------------------

export interface OidcOptions extends ClientCredentials {
  /** The issuer; discovery is read from `<issuer>/.well-known/openid-configuration`. */
  readonly issuer?: string;
  /** The discovery document's URL, when it is not under the issuer. */
  readonly discoveryUrl?: string;
}

const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/**
 * Checks an OpenID Provider Metadata document (OIDC Discovery 1.0 §3): `issuer` (equal to the
 * expected one when known), `authorization_endpoint`, `token_endpoint`, `userinfo_endpoint` and
 * `jwks_uri` present, each https (http only on loopback); the token endpoint's client
 * authentication: client_secret_basic (the default) or client_secret_post.
 */
export function validateDiscovery(doc: unknown, expectedIssuer?: string): ProviderMetadata {
  if (!isObject(doc)) throw new OAuthProviderError('the discovery document is not a JSON object');
  const issuer = doc.issuer;
  if (!isAcceptableEndpoint(issuer))
    throw new OAuthProviderError('the discovery document has no valid issuer');
  if (expectedIssuer !== undefined && issuer !== expectedIssuer)
    throw new OAuthProviderError(
      `the discovery document names issuer ${JSON.stringify(issuer)}, not ${JSON.stringify(expectedIssuer)}`,
    );
  for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri']) {
    if (!isAcceptableEndpoint(doc[key]))
      throw new OAuthProviderError(`the discovery document has no valid ${key}`);
  }
  const methods = doc.token_endpoint_auth_methods_supported;
  let tokenAuth: ProviderMetadata['tokenAuth'] = 'client_secret_basic';
  if (methods !== undefined) {
    if (!Array.isArray(methods))
      throw new OAuthProviderError('token_endpoint_auth_methods_supported is not an array');
    if (methods.includes('client_secret_basic')) tokenAuth = 'client_secret_basic';
    else if (methods.includes('client_secret_post')) tokenAuth = 'client_secret_post';
    else
      throw new OAuthProviderError(
        'the provider supports neither client_secret_basic nor client_secret_post',
      );
  }
  return {
    authorizationEndpoint: doc.authorization_endpoint as string,
    tokenEndpoint: doc.token_endpoint as string,
    userinfoEndpoint: doc.userinfo_endpoint as string,
    jwksUri: doc.jwks_uri as string,
    issuerMatches: (iss) => iss === issuer,
    tokenAuth,
  };
}

/**
 * Any OpenID Connect provider, by discovery (fetched on first use, validated, kept an hour; a
 * failed fetch is retried on the next use). Default scopes `openid email profile`.
 */
export function oidc(options: OidcOptions): OAuthProvider {
  const o = checkObject('oidc', options);
  const clientId = checkString('oidc', o, 'clientId');
  const secret = checkString('oidc', o, 'clientSecret');
  if (o.issuer === undefined && o.discoveryUrl === undefined)
    throw new TypeError('oidc(): issuer or discoveryUrl is required');
  if (o.issuer !== undefined && !isAcceptableEndpoint(o.issuer))
    throw new TypeError('oidc(): issuer must be an https URL (http only for localhost)');
  if (o.discoveryUrl !== undefined && !isAcceptableEndpoint(o.discoveryUrl))
    throw new TypeError('oidc(): discoveryUrl must be an https URL (http only for localhost)');
  const issuer = o.issuer as string | undefined;
  const discoveryUrl =
    (o.discoveryUrl as string | undefined) ??
    `${(issuer as string).replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const scopes = checkScopes('oidc', o, DEFAULT_OIDC_SCOPES);
  let cached: { at: number; value: Promise<ProviderMetadata> } | undefined;
  return make('oidc', clientId, scopes, {
    openid: scopes.includes('openid'),
    authorizeParams: {},
    metadata(fetch) {
      const now = Date.now();
      if (!cached || now - cached.at > DISCOVERY_TTL_MS) {
        const value = fetchJson(fetch, discoveryUrl).then((doc) => validateDiscovery(doc, issuer));
        cached = { at: now, value };
        value.catch(() => {
          if (cached?.value === value) cached = undefined;
        });
      }
      return cached.value;
    },
    clientSecret: () => secret,
    profile: oidcProfile,
  });
}
