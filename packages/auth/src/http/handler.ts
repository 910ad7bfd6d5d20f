import { SvcError, commonError, notInThisRelease, renderError } from '@svc/core';
import { AUTH_ROUTES, matchAuthRoute } from '../routes/table';
import { AUTH_COOKIE, extractToken } from '../token/extract';
import { checkCookieRequestOrigin, parseOrigin } from '../csrf';
import { isAuthResult } from '../session/sign-in';
import { captchaGateOf } from '../captcha';
import { consoleLogger } from '../events';
import type {
  Auth,
  AuthResult,
  LoginInput,
  RegisterInput,
  RequestInfo,
  SignInResult,
} from '../types';
import { DEFAULT_BODY_LIMIT, readJsonObject, requiredString } from './body';
import type { WebAuthnLoginFinishInput, WebAuthnRegisterFinishInput } from '../webauthn/operations';

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

/** Logged once per handler, on the first request that comes without the client's address. */
export const NO_CLIENT_ADDRESS_WARNING =
  "auth.handler: a request came without the client's address (info.ip), so sessions record no IP " +
  'and per-IP rate limits are off (login, magic links and codes, passkeys, guests). Serve it ' +
  "through an adapter that passes the address (@svc/auth/hono's authHandler, " +
  "@svc/auth/express's authRouter or toNodeListener), or call auth.handler(request, { ip }) " +
  'with the address your runtime gives. Logged once.';

interface Call {
  readonly request: Request;
  readonly url: URL;
  readonly info: RequestInfo;
  /** The access token, present on routes that need one (already verified there). */
  readonly token: string | undefined;
  body(): Promise<Record<string, unknown>>;
  /** The route's `:param` segments (a session's `id`, the OAuth routes' `provider`). */
  readonly params: Readonly<Record<string, string>>;
  /** Where the routes are mounted (`/auth`). */
  readonly basePath: string;
}

type Operation = (
  auth: Omit<Auth, 'handler'>,
  call: Call,
) => Promise<{
  status: number;
  body: unknown;
  session?: SignInResult | 'clear';
  /** A 302 to this address, without a body (the OAuth redirects). */
  redirect?: string;
}>;

const SUCCESS = { success: true } as const;

/**
 * The account routes of the spec ("Account endpoints"), keyed by `METHOD path`. Routes of the
 * table that have no operation here belong to features not in this release: they answer 501.
 *
 * Fields go to the operation as they came: each is validated once, by the operation's validator
 * (`account/`, `password/`), over HTTP as through the plain function. The routes check only what
 * HTTP adds: a JSON object body, and the presence of the fields whose operation answers a missing
 * one otherwise (a missing token would be a 401 of the token, a missing reset or resend email a
 * silent 200).
 */
const OPERATIONS: Readonly<Record<string, Operation>> = {
  'POST /register': async (auth, call) => {
    const { email, password, username, metadata } = await call.body();
    const result = await auth.register(
      { email, password, username, metadata } as RegisterInput,
      call.info,
    );
    return { status: 201, body: result, session: result };
  },
  'POST /login': async (auth, call) => {
    const { email, username, password } = await call.body();
    const result = await auth.login({ email, username, password } as LoginInput, call.info);
    return { status: 200, body: result, session: result };
  },
  'POST /refresh': async (auth, call) => {
    const body = await call.body();
    const result = await auth.refresh(requiredString(body, 'refreshToken'), call.info);
    return { status: 200, body: result, session: result };
  },
  'POST /logout': async (auth, call) => {
    await auth.logout(call.token as string);
    return { status: 200, body: SUCCESS, session: 'clear' };
  },
  'GET /profile': async (auth, call) => ({
    status: 200,
    body: await auth.profile(call.token as string),
  }),
  'PUT /password': async (auth, call) => {
    const body = await call.body();
    await auth.changePassword(
      call.token as string,
      body.old_password as string,
      body.new_password as string,
    );
    return { status: 200, body: SUCCESS, session: 'clear' };
  },
  'POST /reset': async (auth, call) => {
    const body = await call.body();
    await auth.requestReset(requiredString(body, 'email'), call.info);
    return {
      status: 200,
      body: {
        message: 'If an account exists for that email, a password reset link has been sent.',
        success: true,
      },
    };
  },
  'POST /reset/confirm': async (auth, call) => {
    const body = await call.body();
    await auth.confirmReset(requiredString(body, 'reset_token'), body.new_password as string);
    return { status: 200, body: SUCCESS };
  },
  'GET /verify': async (auth, call) => {
    const token = call.url.searchParams.get('token');
    if (!token) throw commonError('VALIDATION_ERROR', 'query parameter "token" is required');
    await auth.verifyEmail(token);
    return { status: 200, body: SUCCESS };
  },
  'POST /verify/resend': async (auth, call) => {
    const body = await call.body();
    await auth.resendVerification(requiredString(body, 'email'), call.info);
    return { status: 200, body: SUCCESS };
  },
  // Passwordless (passwordless/): the same answer for every email; the secret never in a response.
  'POST /magic-link/request': async (auth, call) => {
    const body = await call.body();
    await auth.requestMagicLink(requiredString(body, 'email'), call.info);
    return {
      status: 200,
      body: {
        success: true,
        message: 'If that email can sign in, a sign-in link has been sent to it.',
      },
    };
  },
  'POST /magic-link/consume': async (auth, call) => {
    const body = await call.body();
    const result = await auth.consumeMagicLink(requiredString(body, 'token'), call.info);
    return { status: 200, body: result, session: result };
  },
  'POST /magic-code/request': async (auth, call) => {
    const body = await call.body();
    await auth.requestMagicCode(requiredString(body, 'email'), call.info);
    return {
      status: 200,
      body: {
        success: true,
        message: 'If that email can sign in, a sign-in code has been sent to it.',
      },
    };
  },
  'POST /magic-code/verify': async (auth, call) => {
    const body = await call.body();
    const result = await auth.verifyMagicCode(
      requiredString(body, 'email'),
      requiredString(body, 'code'),
      call.info,
    );
    return { status: 200, body: result, session: result };
  },

  // --- guests and sessions (issue 12) -----------------------------------------------------------
  'POST /anonymous': async (auth, call) => {
    // A body is optional here (it may carry only a captchaToken); one that is sent must be JSON.
    if (call.request.body !== null) await call.body();
    const result = await auth.signInAnonymously(call.info);
    return { status: 201, body: result, session: result };
  },
  'POST /upgrade': async (auth, call) => {
    const { email, password } = await call.body();
    const result = await auth.upgrade(
      call.token as string,
      { email, password } as { email: string; password: string },
      call.info,
    );
    return { status: 200, body: result, session: result };
  },
  // --- webauthn (DECISIONS "WebAuthn"): bodies go to the operations, which validate them.
  // A body is optional on register/begin: it carries `code` only when a second factor is owed.
  'POST /webauthn/register/begin': async (auth, call) => {
    const { code } = await call.body();
    return {
      status: 200,
      body: await auth.webauthn.registerBegin(call.token as string, code as string, call.info),
    };
  },
  'POST /webauthn/register/finish': async (auth, call) => {
    const body = await call.body();
    const result = await auth.webauthn.registerFinish(
      call.token as string,
      body as unknown as WebAuthnRegisterFinishInput,
      call.info,
    );
    return { status: 200, body: result };
  },
  'POST /webauthn/login/begin': async (auth, call) => {
    const { email } = await call.body();
    return {
      status: 200,
      body: await auth.webauthn.loginBegin({ email: email as string | undefined }, call.info),
    };
  },
  'POST /webauthn/login/finish': async (auth, call) => {
    const body = await call.body();
    const result = await auth.webauthn.loginFinish(
      body as unknown as WebAuthnLoginFinishInput,
      call.info,
    );
    return { status: 200, body: result, session: result };
  },
  'GET /sessions': async (auth, call) => ({
    status: 200,
    body: { sessions: await auth.listSessions(call.token as string) },
  }),
  'DELETE /sessions/:id': async (auth, call) => {
    const { current } = await auth.revokeSession(call.token as string, call.params.id as string);
    return { status: 200, body: SUCCESS, ...(current ? { session: 'clear' as const } : {}) };
  },
  'POST /sessions/revoke-others': async (auth, call) => ({
    status: 200,
    body: { revoked: await auth.revokeOtherSessions(call.token as string) },
  }),
  'GET /webauthn/credentials': async (auth, call) => ({
    status: 200,
    body: await auth.webauthn.listCredentials(call.token as string),
  }),
  'POST /webauthn/credentials/delete': async (auth, call) => {
    const body = await call.body();
    await auth.webauthn.deleteCredential(
      call.token as string,
      requiredString(body, 'credentialId'),
      body.code as string,
      call.info,
    );
    return { status: 200, body: SUCCESS };
  },
  // MFA (DECISIONS "TOTP"): the operations validate `code` and `challengeToken`. Enroll and
  // generate take an optional body: `code`, when a confirmed factor is managed from an aal1 session.
  'POST /mfa/totp/enroll': async (auth, call) => {
    const { code } = await call.body();
    return {
      status: 200,
      body: await auth.mfa.enrollTotp(call.token as string, code as string, call.info),
    };
  },
  'POST /mfa/totp/confirm': async (auth, call) => {
    const { code } = await call.body();
    await auth.mfa.confirmTotp(call.token as string, code as string, call.info);
    return { status: 200, body: SUCCESS };
  },
  'POST /mfa/totp/disable': async (auth, call) => {
    const { code } = await call.body();
    await auth.mfa.disableTotp(call.token as string, code as string, call.info);
    return { status: 200, body: SUCCESS };
  },
  'POST /mfa/totp/login': async (auth, call) => {
    const { challengeToken, code } = await call.body();
    const result = await auth.mfa.totpLogin(challengeToken as string, code as string, call.info);
    return { status: 200, body: result, session: result };
  },
  'POST /mfa/recovery-codes/generate': async (auth, call) => {
    const { code } = await call.body();
    return {
      status: 200,
      body: await auth.mfa.generateRecoveryCodes(call.token as string, code as string, call.info),
    };
  },
  'POST /mfa/recovery-codes/login': async (auth, call) => {
    const { challengeToken, code } = await call.body();
    const result = await auth.mfa.recoveryCodeLogin(
      challengeToken as string,
      code as string,
      call.info,
    );
    return { status: 200, body: result, session: result };
  },
  // OAuth / OIDC (oauth/operations.ts): the browser legs answer 302s; the token leg JSON.
  'GET /oauth/:provider/authorize': async (auth, call) => {
    const q = call.url.searchParams;
    const provider = call.params.provider as string;
    const { url } = await auth.oauth.authorize(
      provider,
      {
        redirectUri: q.get('redirectUri') as string,
        ...(q.has('codeChallenge') ? { codeChallenge: q.get('codeChallenge') as string } : {}),
        ...(q.has('codeChallengeMethod')
          ? { codeChallengeMethod: q.get('codeChallengeMethod') as string }
          : {}),
        callbackUrl: `${call.url.origin}${call.basePath}/oauth/${provider}/callback`,
      },
      call.info,
    );
    return { status: 302, body: null, redirect: url };
  },
  'GET /oauth/:provider/callback': async (auth, call) => {
    const q = call.url.searchParams;
    const { location } = await auth.oauth.callback(
      call.params.provider as string,
      { state: q.get('state'), code: q.get('code'), error: q.get('error') },
      call.info,
    );
    return { status: 302, body: null, redirect: location };
  },
  'POST /oauth/:provider/callback': async (auth, call) => {
    const form = await readForm(call.request);
    const { location } = await auth.oauth.callback(
      call.params.provider as string,
      { state: form.get('state'), code: form.get('code'), error: form.get('error') },
      call.info,
    );
    // 303: the browser follows a POST's redirect with a GET.
    return { status: 303, body: null, redirect: location };
  },
  'POST /oauth/token': async (auth, call) => {
    const body = await call.body();
    const result = await auth.oauth.token(
      { code: body.code, codeVerifier: body.codeVerifier } as {
        code: string;
        codeVerifier?: string;
      },
      call.info,
    );
    return { status: 200, body: result, session: result };
  },
};

const CHALLENGE = 'Bearer realm="svc"';
/** JSON, never cached, never sniffed as another type. */
const RESPONSE_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

/**
 * Every `/auth/*` route as one `(Request) => Promise<Response>`: it classifies the path (404 for
 * a path not in the table, 405 with `Allow` for another method), demands a valid token on the
 * routes that are not public (spec Authentication 6), validates the body, runs the operation and
 * renders any error in the one envelope.
 */
export function createHandler(
  auth: Omit<Auth, 'handler'>,
  options: HandlerOptions = {},
): AuthHandler {
  const basePath = (options.basePath ?? '/auth').replace(/\/+$/, '');
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const routes = AUTH_ROUTES.filter(
    (r) => r.feature !== 'oauth' || auth.config.oauth !== undefined,
  );
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

  let warnedNoAddress = false;
  return async (request, given = {}) => {
    if (!given.ip && !warnedNoAddress) {
      warnedNoAddress = true;
      const log = options.logger?.warn ? options.logger : consoleLogger;
      log.warn?.({ basePath }, NO_CLIENT_ADDRESS_WARNING);
    }
    const agent = given.userAgent ?? request.headers.get('user-agent');
    const info: RequestInfo = agent ? { ...given, userAgent: agent } : given;
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
      const routeKey = `${match.route.method} ${match.route.path}`;
      let parsed: Promise<Record<string, unknown>> | undefined;
      const body = () => (parsed ??= readJsonObject(request, limit));
      // Captcha (spec Authentication 8): on a gated route, before anything else touches data.
      if (captchaGateOf(auth.config.captcha, routeKey)) {
        // No body at all: the token is missing (CAPTCHA_FAILED), not the JSON.
        const given = request.body === null ? undefined : (await body()).captchaToken;
        await auth.verifyCaptcha(given, info);
      }
      const token =
        match.route.access === 'auth'
          ? await requireToken(auth, request, url, trustedOrigins)
          : undefined;
      const operation = OPERATIONS[routeKey];
      if (!operation) notInThisRelease(`${match.route.method} /auth${match.route.path}`);
      const call: Call = { request, url, info, token, body, params: match.params, basePath };
      const outcome = await operation(auth, call);
      if (outcome.redirect !== undefined) {
        return new Response(null, {
          status: outcome.status,
          headers: {
            Location: outcome.redirect,
            'Cache-Control': 'no-store',
            'Referrer-Policy': 'no-referrer',
          },
        });
      }
      const headers = new Headers(RESPONSE_HEADERS);
      if (
        options.cookie &&
        outcome.session &&
        (outcome.session === 'clear' || isAuthResult(outcome.session))
      )
        headers.append('Set-Cookie', cookieFor(outcome.session, url, auth.config.tokenExpiry));
      return new Response(request.method === 'HEAD' ? null : JSON.stringify(outcome.body), {
        status: outcome.status,
        headers,
      });
    } catch (err) {
      const rendered = renderError(err);
      if (rendered.unexpected)
        options.logger?.error({ err }, 'unexpected error in the auth handler');
      const headers = new Headers({ ...rendered.headers, ...RESPONSE_HEADERS });
      return new Response(JSON.stringify(rendered.body), { status: rendered.status, headers });
    }
  };
}

/**
 * A protected route: a token must be present and live, else 401 (with the RFC 6750 challenge).
 * A token from the cookie on a state-changing request must also come from a trusted page (403).
 */
async function requireToken(
  auth: Omit<Auth, 'handler'>,
  request: Request,
  url: URL,
  trustedOrigins: ReadonlySet<string>,
): Promise<string> {
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
  try {
    await auth.verifyToken(found.token);
  } catch (err) {
    // RFC 6750 §3: a rejected token answers with a challenge naming the error.
    if (err instanceof SvcError && err.status === 401) {
      throw new SvcError(err.code, err.status, err.message, {
        headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` },
      });
    }
    throw err;
  }
  return found.token;
}

/** The request's own origin: what the adapter (or the Fetch runtime) saw as scheme and Host. */
function originOfUrl(url: URL): string | undefined {
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

/**
 * The body of a provider's form_post callback: `application/x-www-form-urlencoded`, at most
 * 64 KiB; or JSON, which is how the Node adapter re-sends a form an earlier body parser
 * (`express.urlencoded()`) already consumed.
 */
async function readForm(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') {
    const body = await readJsonObject(request, 64 * 1024);
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') form.set(k, v);
    return form;
  }
  if (type !== 'application/x-www-form-urlencoded')
    throw commonError(
      'UNSUPPORTED_MEDIA_TYPE',
      'the callback body must be application/x-www-form-urlencoded',
    );
  if (Number(request.headers.get('content-length') ?? 0) > 64 * 1024)
    throw commonError('PAYLOAD_TOO_LARGE', 'the callback body is too large');
  const text = await request.text();
  if (Buffer.byteLength(text) > 64 * 1024)
    throw commonError('PAYLOAD_TOO_LARGE', 'the callback body is too large');
  return new URLSearchParams(text);
}

/** DECISIONS.md: HttpOnly, SameSite=Lax, Path=/, Secure under TLS. */
function cookieFor(session: AuthResult | 'clear', url: URL, maxAge: number): string {
  const secure = url.protocol === 'https:' ? '; Secure' : '';
  if (session === 'clear')
    return `${AUTH_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`;
  return `${AUTH_COOKIE}=${encodeURIComponent(session.token)}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}
