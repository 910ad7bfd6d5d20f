/**
 * The lockdown table: every `/auth/*` route with who may call it, derived from the route
 * declarations (`./index.ts`). `public` routes are the bootstrap routes (sign-up, sign-in, guest
 * sign-in, refresh, password reset, email verification, magic links and codes, the MFA and
 * passkey sign-in legs, OAuth); every other route needs a valid token at the router; a path not
 * in this table answers 404 and a known path with another method 405 (docs/http.md, "Auth
 * routes"). `oauth` routes exist only when OAuth is configured.
 */
import type { CaptchaGate } from '../captcha';
import { PAGE_ROUTE_ROWS } from '../pages';
import { AUTH_ROUTE_DECLARATIONS } from './index';
import { type AuthRoute, type AuthRouteDeclaration, type HttpMethod, routeKey } from './define';

export type { AuthFeature, AuthRoute, AuthRouteAccess, HttpMethod } from './define';

/** The lockdown fields of a declaration. */
const lockdownOf = (r: AuthRouteDeclaration): AuthRoute =>
  Object.freeze({
    method: r.method,
    path: r.path,
    access: r.access,
    feature: r.feature,
    ...(r.spends ? { spends: r.spends } : {}),
  });

export const AUTH_ROUTES: readonly AuthRoute[] = Object.freeze([
  ...AUTH_ROUTE_DECLARATIONS.map(lockdownOf),
  // The hosted pages (HTML for the links of svc's emails): public, served unless `hostedPages` is false.
  ...PAGE_ROUTE_ROWS,
]);

/** The `captcha.gate` name of each gated route, by `METHOD path` (a view of the declarations). */
export const CAPTCHA_GATED_ROUTES: Readonly<Record<string, CaptchaGate>> = Object.freeze(
  Object.fromEntries(
    AUTH_ROUTE_DECLARATIONS.flatMap((r) => (r.captcha ? [[routeKey(r), r.captcha]] : [])),
  ),
);

export type AuthRouteMatch<R extends AuthRoute = AuthRoute> =
  | {
      readonly kind: 'route';
      readonly route: R;
      readonly params: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly HttpMethod[] }
  | { readonly kind: 'not-found' };

/**
 * Classifies a request path (relative to `/auth`) against the table, or against `routes` (the
 * handler passes the declarations it serves). Trailing slashes are not folded: `/login/` is not
 * `/login`.
 */
export function matchAuthRoute(method: string, path: string): AuthRouteMatch;
export function matchAuthRoute<R extends AuthRoute>(
  method: string,
  path: string,
  routes: readonly R[],
): AuthRouteMatch<R>;
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
