/**
 * The fragment's shape: one operation per route of the table (and nothing else), generated from
 * it; every schema compiles under Ajv 2020-12 in strict mode; the switches (OAuth, WebAuthn,
 * cookie, captcha) change what they must; and the whole document matches its golden file
 * (`UPDATE_GOLDEN=1` rewrites it after a deliberate change). `openapi.drive.test.ts` drives
 * every route through the handler and validates the answers. No database is opened here: the
 * engine adds nothing, so the suite runs in the PostgreSQL pass only (jest.preset.js).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_ENVELOPE_SCHEMA } from '@svc/core';
import { AUTH_ROUTES as ALL_ROUTES } from '../routes/table';

/** The API operations: the hosted pages (HTML) are classified in the table but not documented. */
const AUTH_ROUTES = ALL_ROUTES.filter((r) => r.feature !== 'pages');
import { AUTH_OPERATION_DOCS, authOpenApi, authOpenApiDocument, authOpenApiOptions } from './index';
import { openApiValidator } from '@svc/test-support';

// biome-ignore lint/suspicious/noExplicitAny: a JSON document, read loosely in assertions
type Json = Record<string, any>;
/** One operation of a fragment's paths. */
const op = (paths: Record<string, Record<string, unknown>>, path: string, method: string): Json =>
  (paths[path] as Record<string, Json>)[method] as Json;
const ALL = { oauth: { providers: ['google', 'idp'] }, webauthn: true } as const;
const routeKeys = (routes = AUTH_ROUTES) => routes.map((r) => `${r.method} ${r.path}`).sort();
const documented = (paths: Json) =>
  Object.entries(paths)
    .flatMap(([path, item]) =>
      Object.keys(item).map(
        (m) => `${m.toUpperCase()} ${path.replace(/^\/auth/, '').replace(/\{(\w+)\}/g, ':$1')}`,
      ),
    )
    .sort();

describe('authOpenApi', () => {
  test('describes exactly the routes of the table, one operation each', () => {
    expect(Object.keys(AUTH_OPERATION_DOCS).sort()).toEqual(routeKeys());
    expect(documented(authOpenApi(ALL).paths)).toEqual(routeKeys());
  });

  test('without OAuth the /auth/oauth routes are left out (they answer 404)', () => {
    const keys = documented(authOpenApi({ webauthn: true }).paths);
    expect(keys).toEqual(routeKeys(AUTH_ROUTES.filter((r) => r.feature !== 'oauth')));
    expect(authOpenApi({}).tags.map((t) => t.name)).not.toContain('Auth: OAuth');
  });

  test('operationIds are unique; security is bearerAuth on protected routes, none on public ones', () => {
    const fragment = authOpenApi(ALL);
    const ids: string[] = [];
    for (const route of AUTH_ROUTES) {
      const op = fragment.paths[`/auth${route.path.replace(/:(\w+)/g, '{$1}')}`]?.[
        route.method.toLowerCase()
      ] as Json;
      ids.push(op.operationId);
      expect(op.security).toEqual(route.access === 'auth' ? [{ bearerAuth: [] }] : []);
      expect(op.tags).toHaveLength(1);
      expect(fragment.tags.map((t) => t.name)).toContain(op.tags[0]);
      if (route.access === 'auth') expect(op.responses['401']).toBeDefined();
      expect(op.responses['500']).toBeDefined();
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(fragment.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  test("Error is core's one envelope schema (DECISIONS), shared with the REST document", () => {
    expect(authOpenApi().schemas.Error).toBe(ERROR_ENVELOPE_SCHEMA);
    for (const name of Object.keys(authOpenApi().schemas))
      expect(name === 'Error' || name.startsWith('Auth')).toBe(true);
  });

  test('every schema, request body and response compiles under Ajv 2020-12 (strict)', () => {
    for (const options of [
      {},
      ALL,
      { ...ALL, cookie: true, captchaGates: ['login', 'anonymous'] as const },
    ])
      openApiValidator(authOpenApiDocument(options)).compileAll();
  });

  test('paths use {param}; the provider enumerates the configured providers', () => {
    const { paths } = authOpenApi(ALL);
    const revoke = op(paths, '/auth/sessions/{id}', 'delete');
    expect(revoke.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ]);
    const authorize = op(paths, '/auth/oauth/{provider}/authorize', 'get');
    expect(authorize.parameters[0]).toMatchObject({
      name: 'provider',
      schema: { enum: ['google', 'idp'] },
    });
    expect(authorize.responses['302'].headers.Location.required).toBe(true);
    expect(Object.keys(paths).every((p) => p.startsWith('/auth/') && !p.includes(':'))).toBe(true);
    expect(Object.keys(authOpenApi({ basePath: '/login-api/' }).paths)[0]).toMatch(
      /^\/login-api\//,
    );
  });

  test('rate-limited routes document 429 with Retry-After', () => {
    const login = op(authOpenApi().paths, '/auth/login', 'post');
    expect(login.responses['429'].headers['Retry-After'].required).toBe(true);
    expect(login.responses['429'].content['application/json'].schema.properties.code.enum).toEqual([
      'RATE_LIMITED',
    ]);
  });

  test('captcha gates require captchaToken and add CAPTCHA_FAILED and 503 on exactly the gated routes', () => {
    const { paths } = authOpenApi({ captchaGates: ['login', 'anonymous'] });
    const codes400 = (o: Json) =>
      o.responses['400'].content['application/json'].schema.properties.code.enum;
    const login = op(paths, '/auth/login', 'post');
    expect(login.requestBody.content['application/json'].schema.allOf[1].required).toEqual([
      'captchaToken',
    ]);
    expect(codes400(login)).toContain('CAPTCHA_FAILED');
    const anonymous = op(paths, '/auth/anonymous', 'post');
    expect(anonymous.requestBody.required).toBe(true);
    expect(anonymous.responses['503']).toBeDefined();
    expect(op(authOpenApi().paths, '/auth/anonymous', 'post').responses['503']).toBeUndefined();
    expect(codes400(op(paths, '/auth/register', 'post'))).not.toContain('CAPTCHA_FAILED');
    expect(op(authOpenApi().paths, '/auth/anonymous', 'post').requestBody.required).toBe(false);
  });

  test('the routes that run bcrypt, and only they, document 503 SERVICE_UNAVAILABLE (the hashing queue full)', () => {
    const { paths } = authOpenApi();
    const with503 = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Json>)
        .filter(([, o]) => o.responses?.['503'] !== undefined)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(with503.sort()).toEqual(
      [
        'POST /auth/register',
        'POST /auth/login',
        'PUT /auth/password',
        'POST /auth/reset/confirm',
        'POST /auth/upgrade',
      ].sort(),
    );
  });

  test('the cookie switch documents Set-Cookie on session answers and cookieAuth', () => {
    const off = authOpenApi();
    expect(
      op(off.paths, '/auth/login', 'post').responses['200'].headers['Set-Cookie'],
    ).toBeUndefined();
    const on = authOpenApi({ cookie: true });
    expect(
      op(on.paths, '/auth/login', 'post').responses['200'].headers['Set-Cookie'],
    ).toBeDefined();
    expect(
      op(on.paths, '/auth/logout', 'post').responses['200'].headers['Set-Cookie'],
    ).toBeDefined();
    expect(
      op(on.paths, '/auth/profile', 'get').responses['200'].headers['Set-Cookie'],
    ).toBeUndefined();
    expect(on.securitySchemes.cookieAuth).toMatchObject({ in: 'cookie', name: 'auth_token' });
    expect(op(on.paths, '/auth/profile', 'get').security).toEqual([
      { bearerAuth: [] },
      { cookieAuth: [] },
    ]);
  });

  test('without WebAuthn configured the passkey routes say they answer INVALID_OPERATION', () => {
    const begin = op(authOpenApi().paths, '/auth/webauthn/login/begin', 'post');
    expect(begin.description).toMatch(/not configured/);
    expect(
      begin.responses['400'].content['application/json'].schema.properties.code.enum,
    ).toContain('INVALID_OPERATION');
    const on = op(authOpenApi({ webauthn: true }).paths, '/auth/webauthn/login/begin', 'post');
    expect(
      on.responses['400'].content['application/json'].schema.properties.code.enum,
    ).not.toContain('INVALID_OPERATION');
  });

  test('authOpenApiOptions reads the switches from an auth configuration', () => {
    expect(authOpenApiOptions({})).toEqual({
      oauth: false,
      webauthn: false,
      cookie: false,
      captchaGates: [],
    });
    expect(
      authOpenApiOptions(
        {
          cookie: true,
          webauthn: { origin: 'https://a.example', rpId: 'a.example', rpName: 'A' },
          captcha: { provider: 'turnstile', secret: 's', gate: ['login'] },
          oauth: { providers: { google: {} as never }, redirectUris: [] },
        },
        '/auth',
      ),
    ).toEqual({
      oauth: { providers: ['google'] },
      webauthn: true,
      cookie: true,
      captchaGates: ['login'],
      basePath: '/auth',
    });
  });

  test('the document matches its golden file', () => {
    const file = join(__dirname, '__golden__', 'auth-openapi.json');
    const text = `${JSON.stringify(authOpenApiDocument({ ...ALL, cookie: true, captchaGates: ['login'] }), null, 2)}\n`;
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });

  test('the validator the driving suite uses refuses what the document does not describe', () => {
    const v = openApiValidator(authOpenApiDocument(ALL));
    const json = { 'content-type': 'application/json' };
    /** Checks an answer of `status` with `body` (as JSON text) and `headers`. */
    const check =
      (method: string, path: string) =>
      (status: number, body: unknown, headers: Record<string, string> = json) =>
      () =>
        v.check({
          method,
          path,
          status,
          headers: new Headers(headers),
          body: JSON.stringify(body),
        });
    const profile = check('GET', '/auth/profile');
    const login = check('POST', '/auth/login');
    const user = {
      id: '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f',
      email: 'a@example.com',
      emailVerified: false,
      active: true,
      metadata: {},
      createdAt: '2030-01-01T12:00:00.000Z',
      updatedAt: '2030-01-01T12:00:00.000Z',
    };
    expect(profile(200, user)).not.toThrow();
    expect(profile(200, { ...user, passwordHash: 'x' })).toThrow(
      /GET \/auth\/profile → 200: the body does not match the documented schema:[\s\S]*additional properties[\s\S]*passwordHash/,
    );
    expect(profile(418, {})).toThrow(/status 418 is not documented/);
    const err = (code: string) => ({ code, error: `${code}: no` });
    expect(profile(401, err('UNAUTHORIZED'))).not.toThrow();
    expect(profile(401, err('INVALID_CREDENTIALS'))).toThrow(/allowed values/);
    expect(login(429, err('RATE_LIMITED'))).toThrow(/the documented header Retry-After is missing/);
    expect(login(429, err('RATE_LIMITED'), { ...json, 'retry-after': '60' })).not.toThrow();
    expect(profile(200, user, { ...json, 'set-cookie': 'a=b' })).toThrow(
      /a Set-Cookie the document does not mention/,
    );
    expect(profile(200, user, { 'content-type': 'text/plain' })).toThrow(
      /content type "text\/plain" is not documented/,
    );
    expect(() => v.checkRequest('POST', '/auth/login', { password: 'x' })).toThrow(
      /refuses a body/,
    );
    expect(() =>
      v.checkRequest('POST', '/auth/login', { username: 'ada', password: 'x' }),
    ).not.toThrow();
    const authorize = '/auth/oauth/{provider}/authorize';
    const good = { provider: 'idp', redirectUri: 'https://a.example/' };
    expect(() => v.checkParameters('GET', authorize, good)).not.toThrow();
    expect(() => v.checkParameters('GET', authorize, { ...good, provider: 'nope' })).toThrow(
      /provider/,
    );
    expect(() => v.checkParameters('GET', authorize, { provider: 'idp' })).toThrow(
      /redirectUri is missing/,
    );
    expect(() => v.checkParameters('GET', authorize, { ...good, other: '1' })).toThrow(
      /other is not documented/,
    );
  });

  test("Redocly's recommended rules find no error in the document (scripts/lint-openapi.mjs)", () => {
    const file = join(__dirname, '__golden__', 'auth-openapi.json');
    const script = join(__dirname, '../../../../scripts/lint-openapi.mjs');
    let out: string;
    try {
      out = execFileSync(process.execPath, [script, file], {
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 60_000,
      });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(`openapi lint failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
    expect(out).toMatch(/^openapi lint: OK, 0 errors, \d+ warnings/m);
    expect(out).not.toMatch(/\berror\b/);
  }, 90_000);
});

test('only the schemas the paths use: OAuth off leaves none of its schemas behind', () => {
  const off = authOpenApi({ oauth: false });
  const on = authOpenApi({ oauth: { providers: ['github'] } });
  expect(Object.keys(off.schemas).filter((n) => n.startsWith('AuthOAuth'))).toEqual([]);
  expect(Object.keys(on.schemas).filter((n) => n.startsWith('AuthOAuth')).length).toBeGreaterThan(
    0,
  );
  expect(off.schemas.Error).toBeDefined();
});
