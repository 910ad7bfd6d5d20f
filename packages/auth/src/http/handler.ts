import { SvcError, commonError, noteErrorCode, renderError } from '@svc/core';
import { AUTH_ROUTE_DECLARATIONS, type AuthRouteDeclaration } from '../routes';
import type { RouteCall } from '../routes/define';
import { matchAuthRoute } from '../routes/table';
import { AUTH_COOKIE, extractToken } from '../token/extract';
import { checkCookieRequestOrigin, parseOrigin } from '../csrf';
import { isAuthResult } from '../session/sign-in';
import { isCaptchaGated } from '../captcha';
import { consoleLogger } from '../events';
import type { Auth, AuthResult, RequestInfo } from '../types';
import { DEFAULT_BODY_LIMIT, readJsonObject } from './body';
import type { AuthRequest } from './request';
import { createPages, wantsHtml, type PageRoute } from '../pages';

export interface HandlerOptions {
  /** Where the routes are mounted. @default '/auth' */
  readonly basePath?: string;
  /** Set the `auth_token` cookie on auth results and clear it on logout. @default false */
  readonly cookie?: boolean;
  /** @default 1 MiB */
  readonly bodyLimit?: number;
  /**
   * Logs unexpected errors (their internals never reach the response), and once, at `warn`, a
   * request that came without the client's address (the console's when this logger has no `warn`).
   */
  readonly logger?: {
    error(obj: unknown, msg?: string): void;
    warn?(obj: unknown, msg?: string): void;
  };
  /**
   * Origins besides the request's own whose pages may send state-changing requests authenticated
   * by the `auth_token` cookie (others get 403 ACCESS_DENIED). @default none
   */
  readonly trustedOrigins?: readonly string[];
}

/**
 * The Fetch-standard handler. `info` carries what a Request cannot: the client's address, which
 * per-IP rate limits count and sessions record. Pass it (`{ ip }`), or serve the handler through
 * an adapter that does (`@svc/auth/hono`, `@svc/auth/express`); without it the handler logs one
 * warning. The user agent is read from the request's header when `info` has none.
 */
export type AuthHandler = (request: Request, info?: RequestInfo) => Promise<Response>;

/**
 * What the handler answers before it is a Fetch `Response`: a JSON answer as its status, headers
 * and text (null for HEAD), with the envelope's code on an error; or a `Response` made already (a
 * page, a redirect). The Node adapter (http/node) writes a JSON answer to the socket as it is:
 * Node 20 spends about 40 µs making a `Response` with a body (undici builds a ReadableStream for
 * it) and 30 more reading it back, more than the rest of a signed-in `/auth/profile` in Node.
 */
export type Answer =
  | {
      readonly status: number;
      readonly headers: Headers;
      readonly text: string | null;
      readonly code?: string;
    }
  | { readonly response: Response };

type Answerer = (request: AuthRequest, info?: RequestInfo) => Promise<Answer>;

/** Each handler `createHandler` made, with the answerer under it (for http/node). */
const answerers = new WeakMap<AuthHandler, Answerer>();

/**
 * The answerer under a handler this package made, so an adapter can skip the `Response`; undefined
 * for any other function (a wrapper, a test's handler), which is then called as it is.
 */
export function answererOf(handler: AuthHandler): Answerer | undefined {
  return answerers.get(handler);
}

/** The Fetch `Response` of an answer. */
function responseOf(answer: Answer): Response {
  if ('response' in answer) return answer.response;
  const response = new Response(answer.text, { status: answer.status, headers: answer.headers });
  if (answer.code !== undefined) noteErrorCode(response, answer.code);
  return response;
}

/** Logged once per handler, on the first request that comes without the client's address. */
export const NO_CLIENT_ADDRESS_WARNING =
  "auth.handler: a request came without the client's address (info.ip), so sessions record no IP " +
  'and per-IP rate limits are off (login, magic links and codes, passkeys, guests). Serve it ' +
  "through an adapter that passes the address (@svc/auth/hono's authHandler, " +
  "@svc/auth/express's authRouter or toNodeListener), or call auth.handler(request, { ip }) " +
  'with the address your runtime gives. Logged once.';

/**
 * The routes a handler serves: every declared route (`../routes`), the `oauth` ones only when
 * OAuth is configured (without it they answer 404).
 */
export function servedRoutes(
  config: Pick<Auth['config'], 'oauth'>,
): readonly AuthRouteDeclaration[] {
  return AUTH_ROUTE_DECLARATIONS.filter((r) => r.feature !== 'oauth' || config.oauth !== undefined);
}

const CHALLENGE = 'Bearer realm="svc"';
/** JSON, never cached, never sniffed as another type. */
const RESPONSE_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

/**
 * Every `/auth/*` route as one `(Request) => Promise<Response>`: it classifies the path against
 * the declared routes (404 for a path none declares, 405 with `Allow` for another method), checks
 * the captcha on a gated route, demands a valid token on the routes that are not public, runs the
 * route's `run` and renders any error in the one envelope (docs/http.md, "Auth routes" and
 * "The error envelope").
 */
export function createHandler(
  auth: Omit<Auth, 'handler'>,
  options: HandlerOptions = {},
): AuthHandler {
  const basePath = (options.basePath ?? '/auth').replace(/\/+$/, '');
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const trustedOrigins = new Set(
    (options.trustedOrigins ?? []).map((text) => {
      const origin = typeof text === 'string' ? parseOrigin(text) : undefined;
      if (!origin)
        throw new TypeError(
          `trustedOrigins: ${JSON.stringify(text)} is not an origin (scheme://host[:port])`,
        );
      return origin;
    }),
  );

  const pages =
    auth.config.hostedPages === false
      ? undefined
      : createPages(auth, {
          basePath,
          trustedOrigins,
          ...(options.cookie
            ? { cookieFor: (result, url) => cookieFor(result, url, auth.config.tokenExpiry) }
            : {}),
        });
  const routes: readonly (AuthRouteDeclaration | PageRoute)[] = [
    ...servedRoutes(auth.config),
    ...(pages?.routes ?? []),
  ];

  let warnedNoAddress = false;
  const answer: Answerer = async (request, given = {}) => {
    if (!given.ip && !warnedNoAddress) {
      warnedNoAddress = true;
      const log = options.logger?.warn ? options.logger : consoleLogger;
      log.warn?.({ basePath }, NO_CLIENT_ADDRESS_WARNING);
    }
    const agent = given.userAgent ?? request.headers.get('user-agent');
    // Not `{ ...given, userAgent }`: see http/node.ts (a per-request hidden class).
    const info: RequestInfo = agent
      ? { ip: given.ip, userAgent: agent, method: given.method }
      : given;
    const url = new URL(request.url);
    // A method a Request cannot carry (TRACE...) arrives in `info` (see RequestInfo.method).
    const method = info.method ?? request.method;
    try {
      if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
        throw commonError('NOT_FOUND', `no auth route ${method} ${url.pathname}`);
      }
      const path = url.pathname.slice(basePath.length) || '/';
      const match = matchAuthRoute(method, path, routes);
      if (match.kind === 'not-found')
        throw commonError('NOT_FOUND', `no auth route ${method} ${url.pathname}`);
      if (match.kind === 'method-not-allowed') {
        throw commonError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}`, {
          headers: { Allow: match.allow.join(', ') },
        });
      }
      const route = match.route;
      if ('serve' in route) return { response: await route.serve({ request, url, info }) };
      if (pages && route.path === '/verify' && method === 'GET' && wantsHtml(request))
        return { response: await pages.verify({ request, url, info }) };
      let parsed: Promise<Record<string, unknown>> | undefined;
      const body = () => (parsed ??= readJsonObject(request, limit));
      // Captcha: on a gated route, before anything else (the token check included) touches data.
      if (isCaptchaGated(auth.config.captcha, route.captcha)) {
        // No body at all: the token is missing (CAPTCHA_FAILED), not the JSON.
        const given = request.body === null ? undefined : (await body()).captchaToken;
        await auth.verifyCaptcha(given, info);
      }
      let token: string | undefined;
      if (route.access === 'auth') {
        token = presentedToken(request, url, trustedOrigins);
        // A route that judges the session in its own read skips the handler's (AuthRoute
        // judgesSession); the verdict, and its challenge, are the same.
        if (!route.judgesSession) await withChallenge(auth.verifyToken(token));
      }
      const call: RouteCall = { request, url, info, token, body, params: match.params, basePath };
      const outcome = await (route.judgesSession
        ? withChallenge(route.run(auth, call))
        : route.run(auth, call));
      if (outcome.redirect !== undefined) {
        return {
          response: new Response(null, {
            status: outcome.status,
            headers: {
              Location: outcome.redirect,
              'Cache-Control': 'no-store',
              'Referrer-Policy': 'no-referrer',
            },
          }),
        };
      }
      const headers = new Headers(RESPONSE_HEADERS);
      if (
        options.cookie &&
        outcome.session &&
        (outcome.session === 'clear' || isAuthResult(outcome.session))
      )
        headers.append('Set-Cookie', cookieFor(outcome.session, url, auth.config.tokenExpiry));
      return {
        status: outcome.status,
        headers,
        text: request.method === 'HEAD' ? null : JSON.stringify(outcome.body),
      };
    } catch (err) {
      const rendered = renderError(err);
      if (rendered.unexpected)
        options.logger?.error({ err }, 'unexpected error in the auth handler');
      return {
        status: rendered.status,
        headers: new Headers({ ...rendered.headers, ...RESPONSE_HEADERS }),
        text: JSON.stringify(rendered.body),
        code: rendered.body.code,
      };
    }
  };
  const handler: AuthHandler = async (request, info) => responseOf(await answer(request, info));
  answerers.set(handler, answer);
  return handler;
}

/**
 * A protected route's token: present, else 401 (with the RFC 6750 challenge). A token from the
 * cookie on a state-changing request must also come from a trusted page (403). Its verdict
 * (signature, expiry, live session) comes next, through `withChallenge`.
 */
function presentedToken(
  request: AuthRequest,
  url: URL,
  trustedOrigins: ReadonlySet<string>,
): string {
  const found = extractToken({
    authorization: request.headers.get('authorization') ?? undefined,
    cookie: request.headers.get('cookie') ?? undefined,
    queryToken: url.searchParams.get('token') ?? undefined,
  });
  if (!found) {
    throw commonError('UNAUTHORIZED', 'a bearer token is required', {
      headers: { 'WWW-Authenticate': CHALLENGE },
    });
  }
  // Before the token is verified: a forged request costs no database work.
  checkCookieRequestOrigin({
    method: request.method,
    tokenSource: found.source,
    origin: request.headers.get('origin'),
    secFetchSite: request.headers.get('sec-fetch-site'),
    ownOrigin: originOfUrl(url),
    trustedOrigins,
  });
  return found.token;
}

/** A rejected token answers with a challenge naming the error (RFC 6750 §3). */
async function withChallenge<T>(verdict: Promise<T>): Promise<T> {
  try {
    return await verdict;
  } catch (err) {
    if (err instanceof SvcError && err.status === 401) {
      throw new SvcError(err.code, err.status, err.message, {
        headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` },
      });
    }
    throw err;
  }
}

/** The request's own origin: what the adapter (or the Fetch runtime) saw as scheme and Host. */
function originOfUrl(url: URL): string | undefined {
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

/**
 * The `auth_token` cookie: HttpOnly (no script reads it), SameSite=Lax, Path=/, Secure when the
 * request came over TLS; its Max-Age is the access token's lifetime (docs/http.md, "Callers
 * and credentials").
 */
function cookieFor(session: AuthResult | 'clear', url: URL, maxAge: number): string {
  const secure = url.protocol === 'https:' ? '; Secure' : '';
  if (session === 'clear')
    return `${AUTH_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`;
  return `${AUTH_COOKIE}=${encodeURIComponent(session.token)}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}
