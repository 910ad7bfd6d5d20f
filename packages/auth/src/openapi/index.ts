/**
 * The OpenAPI 3.1 description of the `/auth/*` routes, as a fragment the server merges into the
 * one document it serves (`GET /api/openapi.json`): @svc/rest describes the data routes and
 * cannot see @svc/auth, so @svc/auth describes its own.
 *
 * Input: the switches of the running configuration (`authOpenApiOptions(auth.config)` reads
 * them). Output: `paths`, component `schemas`, `tags` and `securitySchemes`. The operations are
 * generated from the route declarations (`../routes`), one per route, in their order: what a
 * route takes and answers is written in its `defineRoute`, beside what it does, and a test drives
 * every documented answer through `auth.handler` and validates it against this fragment.
 */
import type { CaptchaGate } from '../captcha';
import { AUTH_ROUTE_DECLARATIONS } from '../routes';
import type { AuthFeature, AuthRouteAccess } from '../routes/define';
import type { AuthConfig } from '../types';
import { type OperationDoc, type Parameter, operationDocOf } from './operations';
import { AUTH_SCHEMAS, type JsonSchema, ref } from './schemas';

export { AUTH_OPERATION_DOCS, type OperationDoc } from './operations';
export { AUTH_SCHEMAS, ERROR_SCHEMA, type JsonSchema } from './schemas';

export interface AuthOpenApiOptions {
  /**
   * OAuth is configured: the `/auth/oauth/*` routes exist (without it they answer 404 and are
   * left out). `{providers}` names the configured providers, which then enumerate `{provider}`.
   * @default false
   */
  readonly oauth?: boolean | { readonly providers: readonly string[] };
  /**
   * WebAuthn is configured. Without it the passkey routes still exist but answer 400
   * INVALID_OPERATION, and say so. @default false
   */
  readonly webauthn?: boolean;
  /** The handler sets the `auth_token` cookie (`authConfig.cookie`). @default false */
  readonly cookie?: boolean;
  /** The gates of `authConfig.captcha.gate`: their routes require `captchaToken`. @default [] */
  readonly captchaGates?: readonly CaptchaGate[];
  /** Where the routes are mounted. @default '/auth' */
  readonly basePath?: string;
}

export interface OpenApiTag {
  readonly name: string;
  readonly description: string;
}

export interface AuthOpenApiFragment {
  /** OpenAPI Path Item Objects by path (`/auth/sessions/{id}`). */
  readonly paths: Record<string, Record<string, unknown>>;
  /** JSON Schema 2020-12 component schemas (`Error` and `Auth...`). */
  readonly schemas: Record<string, JsonSchema>;
  readonly tags: readonly OpenApiTag[];
  /** `bearerAuth` (and `cookieAuth` when the cookie is on). */
  readonly securitySchemes: Record<string, Record<string, unknown>>;
}

/** The switches `authOpenApi` needs, read from an auth configuration (`auth.config`). */
export function authOpenApiOptions(
  config: Pick<AuthConfig, 'oauth' | 'webauthn' | 'cookie' | 'captcha'>,
  basePath?: string,
): AuthOpenApiOptions {
  return {
    oauth: config.oauth ? { providers: Object.keys(config.oauth.providers) } : false,
    webauthn: config.webauthn !== undefined,
    cookie: config.cookie === true,
    captchaGates: config.captcha?.gate ?? [],
    ...(basePath !== undefined ? { basePath } : {}),
  };
}

const TAGS: Readonly<Record<AuthFeature, OpenApiTag>> = {
  account: {
    name: 'Auth: accounts',
    description: 'Registration, password sign-in, tokens, password reset and email verification.',
  },
  mfa: {
    name: 'Auth: MFA',
    description: 'TOTP and recovery codes; the MFA challenge of a sign-in.',
  },
  'magic-link': { name: 'Auth: magic links', description: 'Sign-in links sent by email.' },
  'magic-code': {
    name: 'Auth: magic codes',
    description: 'Six-digit sign-in codes sent by email.',
  },
  webauthn: { name: 'Auth: passkeys', description: 'WebAuthn registration and sign-in.' },
  guest: { name: 'Auth: guests', description: 'Anonymous accounts and their upgrade.' },
  session: { name: 'Auth: sessions', description: "The caller's sessions." },
  oauth: {
    name: 'Auth: OAuth',
    description: 'Sign-in with an OAuth 2.0 / OpenID Connect provider.',
  },
  // Never emitted: the hosted pages answer HTML and are not operations of the API.
  pages: {
    name: 'Auth: hosted pages',
    description: 'HTML pages for the links of the emails (docs/http.md, "Hosted pages").',
  },
};

/** What a protected route answers before its operation runs (the token check, `requireToken`). */
const TOKEN_ERRORS = {
  401: ['UNAUTHORIZED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'SESSION_EXPIRED'],
  403: ['USER_INACTIVE'],
};
/** What reading a JSON body answers (`readJsonObject`). */
const BODY_ERRORS = {
  400: ['VALIDATION_ERROR'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
};
const CAPTCHA_TOKEN: JsonSchema = {
  type: 'object',
  properties: {
    captchaToken: {
      type: 'string',
      minLength: 1,
      maxLength: 8192,
      description: "The captcha provider's token (this route is captcha-gated).",
    },
  },
  required: ['captchaToken'],
};

/** The `/auth/*` routes as an OpenAPI 3.1 fragment. */
export function authOpenApi(options: AuthOpenApiOptions = {}): AuthOpenApiFragment {
  const basePath = (options.basePath ?? '/auth').replace(/\/+$/, '');
  const gates = new Set<string>(options.captchaGates ?? []);
  const providers = typeof options.oauth === 'object' ? options.oauth.providers : undefined;
  const security = [{ bearerAuth: [] }, ...(options.cookie ? [{ cookieAuth: [] }] : [])];
  const paths: Record<string, Record<string, unknown>> = {};
  const features = new Set<AuthFeature>();

  for (const route of AUTH_ROUTE_DECLARATIONS) {
    if (route.feature === 'oauth' && !options.oauth) continue;
    const doc = operationDocOf(route);
    features.add(route.feature);
    const gated = route.captcha !== undefined && gates.has(route.captcha);
    const webauthnOff = route.feature === 'webauthn' && !options.webauthn;
    const path = basePath + route.path.replace(/:(\w+)/g, '{$1}');

    const errors: Record<number, string[]> = {};
    const add = (table: Readonly<Record<number, readonly string[]>>) => {
      for (const [status, codes] of Object.entries(table)) {
        const list = errors[Number(status)] ?? [];
        for (const code of codes) if (!list.includes(code)) list.push(code);
        errors[Number(status)] = list;
      }
    };
    if (doc.body || doc.form || gated) add(BODY_ERRORS);
    if (gated) add({ 400: ['CAPTCHA_FAILED'], 503: ['SERVICE_UNAVAILABLE'] });
    if (route.access === 'auth') {
      add(TOKEN_ERRORS);
      if (route.method !== 'GET') add({ 403: ['ACCESS_DENIED'] });
    }
    if (webauthnOff) add({ 400: ['INVALID_OPERATION'] });
    add(doc.errors ?? {});
    if (doc.rateLimited) add({ 429: ['RATE_LIMITED'] });
    add({ 500: ['INTERNAL_ERROR'] });

    const parameters = (doc.parameters ?? []).map((p) =>
      p.name === 'provider' && providers ? withProviders(p, providers) : p,
    );
    const description = [
      doc.description,
      gated ? 'Captcha-gated: the body carries `captchaToken`.' : undefined,
      webauthnOff
        ? 'WebAuthn is not configured on this server: answers 400 INVALID_OPERATION.'
        : undefined,
    ]
      .filter(Boolean)
      .join(' ');

    const operation: Record<string, unknown> = {
      operationId: doc.operationId,
      summary: doc.summary,
      ...(description ? { description } : {}),
      tags: [TAGS[route.feature].name],
      security: route.access === 'auth' ? security : [],
      ...(parameters.length ? { parameters } : {}),
      ...requestBodyOf(doc, gated),
      responses: {
        ...successResponse(doc, options.cookie === true),
        ...Object.fromEntries(
          Object.entries(errors)
            .sort(([a], [b]) => Number(a) - Number(b))
            .map(([status, codes]) => [status, errorResponse(Number(status), codes, route.access)]),
        ),
      },
    };
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }

  return {
    paths,
    schemas: referencedSchemas(paths),
    tags: [...features].map((f) => TAGS[f]),
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'The access token of an auth result.',
      },
      ...(options.cookie
        ? {
            cookieAuth: {
              type: 'apiKey',
              in: 'cookie',
              name: 'auth_token',
              description: 'The cookie the auth routes set (HttpOnly, SameSite=Lax).',
            },
          }
        : {}),
    },
  };
}

/**
 * The fragment as a whole OpenAPI 3.1.0 document, for tools that want one (a linter, a client
 * generator, the tests' validator). The server serves the fragment merged into its own.
 */
export function authOpenApiDocument(
  options: AuthOpenApiOptions = {},
  info: { readonly title?: string; readonly version?: string } = {},
): Record<string, unknown> {
  const fragment = authOpenApi(options);
  return {
    openapi: '3.1.0',
    info: { title: info.title ?? 'svc auth', version: info.version ?? '0.0.0' },
    servers: [{ url: '/' }],
    tags: fragment.tags,
    paths: fragment.paths,
    components: { schemas: fragment.schemas, securitySchemes: fragment.securitySchemes },
  };
}

function withProviders(p: Parameter, providers: readonly string[]): Parameter {
  return { ...p, schema: { type: 'string', enum: [...providers] } };
}

function requestBodyOf(doc: OperationDoc, gated: boolean): Record<string, unknown> {
  const gate = (schema: JsonSchema): JsonSchema =>
    gated ? { allOf: [schema, CAPTCHA_TOKEN] } : schema;
  if (doc.form) {
    const schema = ref(doc.form);
    return {
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': { schema },
          'application/json': { schema },
        },
      },
    };
  }
  if (doc.body) {
    return {
      requestBody: {
        // A gated route needs the body for its token, even where the operation needs none.
        required: doc.body.required || gated,
        content: { 'application/json': { schema: gate(ref(doc.body.schema)) } },
      },
    };
  }
  if (gated) {
    return {
      requestBody: { required: true, content: { 'application/json': { schema: CAPTCHA_TOKEN } } },
    };
  }
  return {};
}

const NO_STORE = {
  'Cache-Control': { description: 'no-store', schema: { type: 'string' } },
};

function successResponse(doc: OperationDoc, cookie: boolean): Record<string, unknown> {
  const s = doc.success;
  if (!('schema' in s)) {
    return {
      [s.status]: {
        description: s.description,
        headers: {
          Location: {
            required: true,
            description: 'Where the browser goes.',
            schema: { type: 'string' },
          },
          ...NO_STORE,
        },
      },
    };
  }
  const setsCookie = cookie && s.session !== undefined;
  return {
    [s.status]: {
      description: s.description,
      headers: {
        ...NO_STORE,
        ...(setsCookie
          ? {
              'Set-Cookie': {
                description:
                  s.session === 'clear'
                    ? '`auth_token=; Max-Age=0` (the cookie is cleared).'
                    : '`auth_token=<token>` (HttpOnly, SameSite=Lax, Path=/), on a session (not on an MFA challenge).',
                schema: { type: 'string' },
              },
            }
          : {}),
      },
      content: { 'application/json': { schema: ref(s.schema) } },
    },
  };
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Unexpected error',
  503: 'Service unavailable',
};

function errorResponse(
  status: number,
  codes: readonly string[],
  access: AuthRouteAccess,
): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  if (status === 429)
    headers['Retry-After'] = {
      required: true,
      description: 'Seconds until the rate limit lets this client in again.',
      schema: { type: 'integer', minimum: 1 },
    };
  if (status === 401 && access === 'auth')
    headers['WWW-Authenticate'] = {
      description:
        'The RFC 6750 challenge (`Bearer realm="svc"`) when the token was missing or refused.',
      schema: { type: 'string' },
    };
  return {
    description: `${REASONS[status] ?? 'Error'}: ${codes.join(', ')}.`,
    ...(Object.keys(headers).length ? { headers } : {}),
    content: {
      'application/json': {
        schema: {
          type: 'object',
          allOf: [ref('Error')],
          properties: { code: { type: 'string', enum: [...codes] } },
          required: ['code'],
        },
      },
    },
  };
}

/**
 * The component schemas the paths use, followed through their own references: a feature that is
 * off (OAuth without providers) leaves none of its schemas behind.
 */
function referencedSchemas(paths: unknown): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const prefix = '#/components/schemas/';
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(prefix)) {
        const name = value.slice(prefix.length);
        const schema = AUTH_SCHEMAS[name];
        if (schema !== undefined && !(name in out)) {
          out[name] = schema;
          visit(schema);
        }
      } else {
        visit(value);
      }
    }
  };
  visit(paths);
  // In the table's order, so the document reads the same from one release to the next.
  return Object.fromEntries(Object.entries(AUTH_SCHEMAS).filter(([name]) => name in out));
}
