/**
 * The route declarations are the one source: each `/auth` route is declared once, and the
 * router, the lockdown table, the captcha gates and the OpenAPI fragment all describe the same
 * set of routes.
 */
import { CAPTCHA_GATES } from '../captcha';
import { servedRoutes } from '../http/handler';
import { AUTH_OPERATION_DOCS, authOpenApi } from '../openapi';
import { AUTH_ROUTE_DECLARATIONS, routeKey } from './index';
import { PAGE_ROUTE_ROWS } from '../pages';
import { AUTH_ROUTES, CAPTCHA_GATED_ROUTES, matchAuthRoute } from './table';

const keys = (routes: readonly { method: string; path: string }[]) => routes.map(routeKey).sort();
/** `METHOD /path` of every operation of an OpenAPI fragment's paths. */
const documented = (paths: Record<string, Record<string, unknown>>) =>
  Object.entries(paths)
    .flatMap(([path, item]) =>
      Object.keys(item).map(
        (m) => `${m.toUpperCase()} ${path.replace(/^\/auth/, '').replace(/\{(\w+)\}/g, ':$1')}`,
      ),
    )
    .sort();
const withoutOAuth = (list: string[]) => list.filter((k) => !k.includes(' /oauth/'));

describe('route declarations', () => {
  test('each route is declared once (method and path), with its own operationId', () => {
    const all = AUTH_ROUTE_DECLARATIONS.map(routeKey);
    expect(new Set(all).size).toBe(all.length);
    const ids = AUTH_ROUTE_DECLARATIONS.map((r) => r.doc.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.length).toBeGreaterThan(0);
  });

  test('the router, the lockdown table and the OpenAPI fragment are the same set of routes', () => {
    const declared = keys(AUTH_ROUTE_DECLARATIONS);
    const router = keys(servedRoutes({ oauth: { providers: {}, redirectUris: [] } as never }));
    // The lockdown table also classifies the hosted pages (HTML, not API operations).
    const lockdown = keys(AUTH_ROUTES.filter((r) => r.feature !== 'pages'));
    const openapi = documented(authOpenApi({ oauth: { providers: ['idp'] } }).paths);
    expect(router).toEqual(declared);
    expect(lockdown).toEqual(declared);
    expect(openapi).toEqual(declared);
    expect(Object.keys(AUTH_OPERATION_DOCS).sort()).toEqual(declared);
    // Without OAuth, the router and the fragment both leave out the same routes.
    expect(keys(servedRoutes({}))).toEqual(withoutOAuth(declared));
    expect(documented(authOpenApi({}).paths)).toEqual(withoutOAuth(declared));
  });

  test('the lockdown table keeps each declaration in order, with its access and feature', () => {
    expect(AUTH_ROUTES).toHaveLength(AUTH_ROUTE_DECLARATIONS.length + PAGE_ROUTE_ROWS.length);
    expect(AUTH_ROUTES.slice(AUTH_ROUTE_DECLARATIONS.length)).toEqual(PAGE_ROUTE_ROWS);
    AUTH_ROUTE_DECLARATIONS.forEach((r, i) => {
      const row = AUTH_ROUTES[i];
      expect(row).toEqual({
        method: r.method,
        path: r.path,
        access: r.access,
        feature: r.feature,
        ...(r.spends ? { spends: true } : {}),
      });
      const concrete = r.path.replace(/:(\w+)/g, 'x');
      expect(matchAuthRoute(r.method, concrete)).toMatchObject({ kind: 'route', route: row });
    });
  });

  test('every captcha gate names exactly one route; the gated-route view matches', () => {
    const named = AUTH_ROUTE_DECLARATIONS.flatMap((r) => (r.captcha ? [r.captcha] : []));
    expect([...named].sort()).toEqual([...CAPTCHA_GATES].sort());
    for (const r of AUTH_ROUTE_DECLARATIONS)
      expect(CAPTCHA_GATED_ROUTES[routeKey(r)]).toBe(r.captcha);
    expect(Object.keys(CAPTCHA_GATED_ROUTES)).toHaveLength(CAPTCHA_GATES.length);
  });

  test('path parameters are documented as path parameters, and only those', () => {
    for (const r of AUTH_ROUTE_DECLARATIONS) {
      const inPath = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const documentedParams = (r.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect([routeKey(r), documentedParams]).toEqual([routeKey(r), inPath]);
    }
  });
});
