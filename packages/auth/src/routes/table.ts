/**
 * Every `/auth/*` route of the spec and DECISIONS.md, classified once (Authentication item 6):
 * `public` routes are the bootstrap routes; every other route needs a valid token at the router;
 * a path not in this table answers 404. `oauth` routes exist only when OAuth is configured.
 */
export type AuthRouteAccess = 'public' | 'auth';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AuthRoute {
  readonly method: HttpMethod;
  /** Path under `/auth`, with `:param` segments. */
  readonly path: string;
  readonly access: AuthRouteAccess;
  /** The feature the route belongs to, for enabling routes by configuration. */
  readonly feature:
    | 'account'
    | 'mfa'
    | 'magic-link'
    | 'magic-code'
    | 'webauthn'
    | 'guest'
    | 'session'
    | 'oauth';
  /**
   * A GET that spends a one-time secret (a verification link, an OAuth state): HEAD is not
   * answered as GET there (405), so a link checker's HEAD cannot use up the user's link.
   */
  readonly spends?: true;
}

const route = (
  method: HttpMethod,
  path: string,
  access: AuthRouteAccess,
  feature: AuthRoute['feature'],
  spends = false,
): AuthRoute => Object.freeze({ method, path, access, feature, ...(spends ? { spends } : {}) });

export const AUTH_ROUTES: readonly AuthRoute[] = Object.freeze([
  route('POST', '/register', 'public', 'account'),
  route('POST', '/login', 'public', 'account'),
  route('POST', '/refresh', 'public', 'account'),
  route('POST', '/logout', 'auth', 'account'),
  route('GET', '/profile', 'auth', 'account'),
  route('PUT', '/password', 'auth', 'account'),
  route('POST', '/reset', 'public', 'account'),
  route('POST', '/reset/confirm', 'public', 'account'),
  route('GET', '/verify', 'public', 'account', true),
  route('POST', '/verify/resend', 'public', 'account'),
  route('POST', '/mfa/totp/enroll', 'auth', 'mfa'),
  route('POST', '/mfa/totp/confirm', 'auth', 'mfa'),
  route('POST', '/mfa/totp/disable', 'auth', 'mfa'),
  route('POST', '/mfa/totp/login', 'public', 'mfa'),
  route('POST', '/mfa/recovery-codes/generate', 'auth', 'mfa'),
  route('POST', '/mfa/recovery-codes/login', 'public', 'mfa'),
  route('POST', '/magic-link/request', 'public', 'magic-link'),
  route('POST', '/magic-link/consume', 'public', 'magic-link'),
  route('POST', '/magic-code/request', 'public', 'magic-code'),
  route('POST', '/magic-code/verify', 'public', 'magic-code'),
  route('POST', '/webauthn/register/begin', 'auth', 'webauthn'),
  route('POST', '/webauthn/register/finish', 'auth', 'webauthn'),
  route('POST', '/webauthn/login/begin', 'public', 'webauthn'),
  route('POST', '/webauthn/login/finish', 'public', 'webauthn'),
  route('GET', '/webauthn/credentials', 'auth', 'webauthn'),
  route('POST', '/webauthn/credentials/delete', 'auth', 'webauthn'),
  route('POST', '/anonymous', 'public', 'guest'),
  route('POST', '/upgrade', 'auth', 'guest'),
  route('GET', '/sessions', 'auth', 'session'),
  route('DELETE', '/sessions/:id', 'auth', 'session'),
  route('POST', '/sessions/revoke-others', 'auth', 'session'),
  route('GET', '/oauth/:provider/authorize', 'public', 'oauth'),
  route('GET', '/oauth/:provider/callback', 'public', 'oauth', true),
  // Providers answering with response_mode=form_post (Apple, when it is asked for name or email).
  route('POST', '/oauth/:provider/callback', 'public', 'oauth'),
  route('POST', '/oauth/token', 'public', 'oauth'),
]);

export type AuthRouteMatch =
  | {
      readonly kind: 'route';
      readonly route: AuthRoute;
      readonly params: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly HttpMethod[] }
  | { readonly kind: 'not-found' };

/**
 * Classifies a request path (relative to `/auth`) against the table. Trailing slashes are not
 * folded: `/login/` is not `/login`.
 */
export function matchAuthRoute(
  method: string,
  path: string,
  routes: readonly AuthRoute[] = AUTH_ROUTES,
): AuthRouteMatch {
  const allow: HttpMethod[] = [];
  for (const r of routes) {
    const params = matchPath(r.path, path);
    if (!params) continue;
    if (r.method === method || (method === 'HEAD' && r.method === 'GET' && !r.spends)) {
      return { kind: 'route', route: r, params };
    }
    allow.push(r.method);
  }
  return allow.length ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
}

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith(':')) {
      if (!g) return null;
      params[w.slice(1)] = g;
    } else if (w !== g) {
      return null;
    }
  }
  return params;
}
