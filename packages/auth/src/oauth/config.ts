/**
 * `authConfig.oauth`: `{providers, redirectUris, baseUrl?}`, checked at construction (TypeError
 * naming the key).
 *
 * - `providers`: an object of name → provider made by a factory (`google()`, `github()`, ...,
 *   `oidc()`); the name is the `:provider` segment of the routes (`[a-z0-9][a-z0-9_-]*`, at most
 *   40 characters).
 * - `redirectUris`: the allow-list of the app addresses svc may send the user back to (see
 *   `redirect-uris.ts`: exact, or `https://*.example.com/...` for one subdomain label).
 * - `baseUrl`: the public URL the auth routes are mounted at (`https://api.example.com/auth`);
 *   svc's callback, registered at each provider, is `<baseUrl>/oauth/<name>/callback`. Default:
 *   the origin and mount path the request arrived at.
 */
import { isObject } from './http';
import { isAcceptableEndpoint, isOAuthProvider, type OAuthProvider } from './providers';
import { parseRedirectPattern, type RedirectPattern } from './redirect-uris';

export interface OAuthConfig {
  readonly providers: Readonly<Record<string, OAuthProvider>>;
  readonly redirectUris: readonly string[];
  readonly baseUrl?: string;
}

export interface ResolvedOAuthConfig {
  readonly providers: ReadonlyMap<string, OAuthProvider>;
  readonly redirectPatterns: readonly RedirectPattern[];
  readonly baseUrl: string | undefined;
}

export const PROVIDER_NAME_RE = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const KEYS = new Set(['providers', 'redirectUris', 'baseUrl']);

export function resolveOAuthConfig(value: unknown): ResolvedOAuthConfig {
  if (!isObject(value))
    throw new TypeError('auth config: oauth must be an object {providers, redirectUris}');
  for (const key of Object.keys(value))
    if (!KEYS.has(key))
      throw new TypeError(
        `auth config: oauth.${key} is not a known key (providers, redirectUris, baseUrl)`,
      );
  if (!isObject(value.providers) || Object.keys(value.providers).length === 0)
    throw new TypeError('auth config: oauth.providers must name at least one provider');
  const providers = new Map<string, OAuthProvider>();
  for (const [name, provider] of Object.entries(value.providers)) {
    if (!PROVIDER_NAME_RE.test(name))
      throw new TypeError(
        `auth config: oauth.providers: ${JSON.stringify(name)} is not a provider name ([a-z0-9][a-z0-9_-]*, at most 40 characters)`,
      );
    if (!isOAuthProvider(provider))
      throw new TypeError(
        `auth config: oauth.providers.${name} must be made by a provider factory (google, github, apple, microsoft, discord, gitlab, oidc)`,
      );
    providers.set(name, provider);
  }
  if (!Array.isArray(value.redirectUris) || value.redirectUris.length === 0)
    throw new TypeError('auth config: oauth.redirectUris must be a non-empty array of URLs');
  const redirectPatterns = value.redirectUris.map((entry, i) =>
    parseRedirectPattern(entry, `auth config: oauth.redirectUris[${i}]`),
  );
  let baseUrl: string | undefined;
  if (value.baseUrl !== undefined) {
    if (!isAcceptableEndpoint(value.baseUrl) || new URL(value.baseUrl as string).search)
      throw new TypeError(
        'auth config: oauth.baseUrl must be the https URL of the auth routes, without query (http only for localhost)',
      );
    baseUrl = (value.baseUrl as string).replace(/\/+$/, '');
  }
  return Object.freeze({ providers, redirectPatterns, baseUrl });
}
