/**
 * One declaration per `/auth/*` route: `defineRoute({...})` states, in one place, the route's
 * method and path, who may call it (`access`), the feature it belongs to, its captcha gate, what
 * it takes and answers (for the OpenAPI fragment) and `run`, what it does. The declarations sit
 * beside their features (`account/routes.ts`, `mfa/routes.ts`, ...) and are listed once in
 * `./index.ts`; the router (`../http/handler.ts`), the lockdown table (`AUTH_ROUTES`,
 * `./table.ts`) and the OpenAPI fragment (`../openapi`) are all derived from that list. The rules
 * the routes follow are written out in docs/http.md, "Auth routes".
 */
import type { CaptchaGate } from '../captcha';
import type { Parameter, Success } from '../openapi/operations';
import type { AuthSchemaName } from '../openapi/schemas';
import type { Auth, RequestInfo, SignInResult } from '../types';
import type { AuthRequest } from '../http/request';

/**
 * `public`: a bootstrap route, open to anyone (sign-in, registration, a link from an email).
 * `auth`: the router demands a valid access token before the route runs (401 otherwise).
 */
export type AuthRouteAccess = 'public' | 'auth';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** The feature a route belongs to: its OpenAPI tag, and `oauth` routes exist only with OAuth on. */
export type AuthFeature =
  | 'account'
  | 'mfa'
  | 'magic-link'
  | 'magic-code'
  | 'webauthn'
  | 'guest'
  | 'session'
  | 'oauth'
  /** The hosted pages (`../pages`): HTML, not in the OpenAPI document; off with `hostedPages: false`. */
  | 'pages';

/** The names of a path's `:param` segments (`'/sessions/:id'` → `'id'`). */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The auth instance a route runs against (the handler is built from it, so it has none). */
export type AuthOperations = Omit<Auth, 'handler'>;

/** What `run` gets of the request. */
export interface RouteCall<A extends AuthRouteAccess = AuthRouteAccess, P extends string = string> {
  readonly request: AuthRequest;
  readonly url: URL;
  readonly info: RequestInfo;
  /** The access token: on an `auth` route present and already verified; on a public one absent. */
  readonly token: A extends 'auth' ? string : undefined;
  /** The JSON object body (read once, on first call; `{}` when there is none). */
  body(): Promise<Record<string, unknown>>;
  /** The route's `:param` segments (a session's `id`, the OAuth routes' `provider`). */
  readonly params: Readonly<Record<PathParams<P>, string>>;
  /** Where the routes are mounted (`/auth`). */
  readonly basePath: string;
}

/** What `run` answers; the handler renders it. */
export interface RouteOutcome {
  readonly status: number;
  readonly body: unknown;
  /** The answer starts a session (the `auth_token` cookie is set) or ends the caller's. */
  readonly session?: SignInResult | 'clear';
  /** A redirect (302/303) to this address, without a body (the OAuth browser legs). */
  readonly redirect?: string;
}

export type RouteRun<A extends AuthRouteAccess = AuthRouteAccess, P extends string = string> = (
  auth: AuthOperations,
  call: RouteCall<A, P>,
) => Promise<RouteOutcome>;

/** A JSON request body: a component schema of `../openapi/schemas.ts` by name. */
export type RouteBody =
  | AuthSchemaName
  /** The route reads the body when one is sent, but needs none. */
  | { readonly schema: AuthSchemaName; readonly required: false };

export interface RouteSpec<A extends AuthRouteAccess, P extends string> {
  readonly method: HttpMethod;
  /** Path under the mount point (`/auth`), with `:param` segments. */
  readonly path: P;
  readonly access: A;
  readonly feature: AuthFeature;
  /**
   * A GET that spends a one-time secret (a verification link, an OAuth state): HEAD is not
   * answered as GET there (405), so a link checker's HEAD cannot use up the user's link.
   */
  readonly spends?: true;
  /** The `captcha.gate` name of this route: when it is configured, `captchaToken` is required. */
  readonly captcha?: CaptchaGate;
  /** Counted by a rate-limit rule: 429 with Retry-After is documented. */
  readonly rateLimited?: true;
  /**
   * An `auth` route whose `run` reads the session itself, in the same statement as its own data,
   * and judges it as `verifyToken` does (`checkAccessWithUser`): the handler then takes the
   * token from the request, checks a cookie's origin and leaves the verdict to `run` (one read
   * instead of two); a 401 from `run` still carries the challenge. Only for a route that reads
   * no body: a dead session's 401 must come before anything about the request.
   */
  readonly judgesSession?: true;
  /** The OpenAPI operation's id, summary and (optional) description. */
  readonly doc: {
    readonly operationId: string;
    readonly summary: string;
    readonly description?: string;
  };
  /** The JSON request body, when the route reads one. */
  readonly body?: RouteBody;
  /** The `application/x-www-form-urlencoded` (or JSON) body of a provider's form_post callback. */
  readonly form?: AuthSchemaName;
  /** Path and query parameters, as documented. */
  readonly parameters?: readonly Parameter[];
  readonly responses: {
    /** How the route answers when it succeeds. */
    readonly success: Success;
    /**
     * The codes the route's own operation throws, by HTTP status. What every route of a kind
     * answers (token, body, captcha, 429, 500) is added by the OpenAPI generator.
     */
    readonly errors?: Readonly<Record<number, readonly string[]>>;
  };
  readonly run: RouteRun<A, P>;
}

/** A declared route: the lockdown fields of `AuthRoute` plus everything else it states. */
export interface AuthRouteDeclaration {
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: AuthRouteAccess;
  readonly feature: AuthFeature;
  readonly spends?: true;
  readonly captcha?: CaptchaGate;
  readonly rateLimited?: true;
  readonly judgesSession?: true;
  readonly doc: RouteSpec<AuthRouteAccess, string>['doc'];
  readonly body?: RouteBody;
  readonly form?: AuthSchemaName;
  readonly parameters?: readonly Parameter[];
  readonly responses: RouteSpec<AuthRouteAccess, string>['responses'];
  readonly run: RouteRun;
}

/**
 * Declares one route. `A` and `P` are inferred from `access` and `path`, so `run` sees
 * `call.token` as a string on an `auth` route and `call.params` with the path's own names.
 */
export function defineRoute<A extends AuthRouteAccess, P extends string>(
  spec: RouteSpec<A, P>,
): AuthRouteDeclaration {
  // The handler passes a verified token exactly on `auth` routes and the params the path names.
  return Object.freeze({ ...spec }) as unknown as AuthRouteDeclaration;
}

/** `METHOD path`, how a route is named in messages and in the derived lookup tables. */
export const routeKey = (route: { readonly method: string; readonly path: string }): string =>
  `${route.method} ${route.path}`;

/** A row of the lockdown table (`./table.ts`): a route and who may call it. */
export interface AuthRoute {
  readonly method: HttpMethod;
  /** Path under `/auth`, with `:param` segments. */
  readonly path: string;
  readonly access: AuthRouteAccess;
  /** The feature the route belongs to, for enabling routes by configuration. */
  readonly feature: AuthFeature;
  /**
   * A GET that spends a one-time secret (a verification link, an OAuth state): HEAD is not
   * answered as GET there (405), so a link checker's HEAD cannot use up the user's link.
   */
  readonly spends?: true;
}
