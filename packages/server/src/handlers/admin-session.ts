/**
 * The admin UI's own session (docs/http.md, "The admin UI"): sign-in routes under
 * `/_/api/session/*` that call @svc/auth's operations (password, the MFA step, passkeys, refresh,
 * sign-out) and keep the session in two cookies of the admin UI's own, never the app's
 * `auth_token`:
 *
 * - `svc_admin`: the access token; HttpOnly, SameSite=Strict, `Path=/_/`, Secure over https,
 *   Max-Age `tokenExpiry`. Read only by the admin gate (`adminToken`), so only on `/_/api/*`:
 *   the app's routes (`/api/*`, `/query`, `/auth/*`) read `auth_token` and never this one.
 * - `svc_admin_refresh`: the refresh token; the same flags, `Path=/_/api/session` (the refresh and
 *   sign-out routes, nothing else), Max-Age `refreshTokenExpiry`.
 *
 * Only a superuser (by the role as stored now) gets them: anyone else's sign-in is refused with
 * 403 ACCESS_DENIED and the session it made is revoked at once. Every write here (a sign-in sets
 * the cookies, a refresh or sign-out is authenticated by them) passes the cookie rule's Origin
 * check (middleware/csrf), as any cookie write does.
 *
 * `/_/api/account/*`: the signed-in superuser's own passkeys and TOTP, the same operations as
 * `/auth/webauthn/*` and `/auth/mfa/*`, with the admin cookie as the credential.
 */
import type { Request, RequestHandler, Response } from 'express';
import { SvcError, commonError } from '@svc/core';
import {
  parseBearer,
  readCookie,
  type Auth,
  type AuthResult,
  type ExtractedToken,
  type LoginInput,
  type RequestInfo,
  type SignInResult,
  type TokenSource,
  type WebAuthnLoginFinishInput,
  type WebAuthnRegisterFinishInput,
} from '@svc/auth';
import { sendJson } from '../http/respond';
import { type Caller, authenticate, isAdministrator } from '../middleware/authenticate';
import { jsonObjectBody } from './json-body';

/** The admin UI's access-token cookie. */
export const ADMIN_COOKIE = 'svc_admin';
/** The admin UI's refresh-token cookie. */
export const ADMIN_REFRESH_COOKIE = 'svc_admin_refresh';
/** Where the access-token cookie is sent: the admin UI and its routes. */
export const ADMIN_COOKIE_PATH = '/_/';
/** The sign-in, refresh and sign-out routes; the refresh cookie's path. */
export const ADMIN_SESSION_PATH = '/_/api/session';
/** The signed-in superuser's passkeys and TOTP. */
export const ADMIN_ACCOUNT_PATH = '/_/api/account';
/**
 * The data plane for the admin cookie: `/query`, `/schema`, `/schema/types`, `/migrations`,
 * `/stats` and the REST routes `/api/*`, the same handlers mounted again under this prefix.
 */
export const ADMIN_DATA_PATH = '/_/api/db';

/** The role that opens the admin UI and its routes. */
export const SUPERUSER = 'superuser';

/**
 * The admin routes' token: `Authorization: Bearer`, else the `svc_admin` cookie. Never the
 * app's `auth_token` cookie nor `?token=`.
 */
export function adminToken(req: Request): ExtractedToken | null {
  const bearer = parseBearer(req.headers.authorization);
  if (bearer) return { token: bearer, source: 'header' };
  const cookie = req.headers.cookie ? readCookie(req.headers.cookie, ADMIN_COOKIE) : undefined;
  return cookie ? { token: cookie, source: 'cookie' } : null;
}

/**
 * The caller when a superuser (the token's role, then the role as stored now: a role revoked
 * since sign-in counts at once) or the service key; else 401 (no credential) or 403.
 */
export async function superuserCaller(auth: Auth | undefined, res: Response): Promise<Caller> {
  const caller = res.locals.caller as Caller | undefined;
  if (!caller || caller.kind === 'anonymous') {
    throw commonError('UNAUTHORIZED', 'sign in as a superuser');
  }
  if (!isAdministrator(caller))
    throw commonError('ACCESS_DENIED', 'the admin routes are for superusers');
  if (caller.kind === 'user') {
    const id = caller.context.userId;
    if (!auth || !id || !(await auth.roles.userHasRole(id, SUPERUSER))) {
      throw commonError('ACCESS_DENIED', 'the admin routes are for superusers');
    }
  }
  return caller;
}

export interface AdminGateOptions {
  readonly auth: Auth | undefined;
  readonly serviceKey: string | undefined;
  /** The cookie rule (middleware/csrf): 403 for a cookie write from a foreign page. */
  readonly checkOrigin: (req: Request, tokenSource: TokenSource) => void;
}

/**
 * The gates of `/_/api/*`, reading `adminToken`: `open` lets anonymous callers through (a
 * credential given must be valid), `superuser` lets only a superuser or the service key through.
 */
export function adminGates(options: AdminGateOptions): {
  open: RequestHandler;
  superuser: RequestHandler;
} {
  const { auth } = options;
  const verify = auth ? (token: string) => auth.verifyToken(token) : undefined;
  const base = {
    verify,
    serviceKey: options.serviceKey,
    checkOrigin: options.checkOrigin,
    readToken: adminToken,
  };
  const open = authenticate({ ...base, required: false });
  const superuser: RequestHandler = (req, res, next) => {
    void open(req, res, (err?: unknown) => {
      if (err) return next(err);
      superuserCaller(auth, res).then(() => next(), next);
    });
  };
  return { open, superuser };
}

/** What a sign-in or refresh answers: who, and when the access token expires (ISO 8601). */
export interface AdminSessionAnswer {
  readonly user: { readonly id: string; readonly email: string };
  readonly expiresAt: string;
}

export interface AdminSessionDeps {
  readonly auth: Auth;
  readonly checkOrigin: (req: Request, tokenSource: TokenSource) => void;
}

const LOGIN_FIELDS = new Set(['email', 'username', 'password', 'captchaToken']);
const CHALLENGE_FIELDS = new Set(['challengeToken', 'code']);
const PASSKEY_BEGIN_FIELDS = new Set(['email', 'captchaToken']);
const PASSKEY_FINISH_FIELDS = new Set([
  'challengeId',
  'credentialId',
  'clientDataJSON',
  'authenticatorData',
  'signature',
  'userHandle',
]);
const CODE_FIELDS = new Set(['code']);
const REGISTER_FINISH_FIELDS = new Set([
  'challengeId',
  'credentialId',
  'clientDataJSON',
  'attestationObject',
  'name',
  'code',
]);
const DELETE_FIELDS = new Set(['credentialId', 'code']);

/** The sign-in routes (`/_/api/session/*`) and the account routes (`/_/api/account/*`). */
export function adminSessionHandlers(deps: AdminSessionDeps) {
  const { auth, checkOrigin } = deps;

  /** A sign-in sets cookies: it must come from a page of this server (the cookie rule). */
  function fromOwnPage(req: Request): void {
    checkOrigin(req, 'cookie');
  }

  /** The session's cookies for this request (Secure over https), or cleared. */
  function cookies(req: Request, result: AuthResult | 'clear'): string[] {
    const flags = `HttpOnly; SameSite=Strict${req.protocol === 'https' ? '; Secure' : ''}`;
    if (result === 'clear') {
      return [
        `${ADMIN_COOKIE}=; Max-Age=0; Path=${ADMIN_COOKIE_PATH}; ${flags}`,
        `${ADMIN_REFRESH_COOKIE}=; Max-Age=0; Path=${ADMIN_SESSION_PATH}; ${flags}`,
      ];
    }
    return [
      `${ADMIN_COOKIE}=${encodeURIComponent(result.token)}; Max-Age=${auth.config.tokenExpiry}; Path=${ADMIN_COOKIE_PATH}; ${flags}`,
      `${ADMIN_REFRESH_COOKIE}=${encodeURIComponent(result.refreshToken)}; Max-Age=${auth.config.refreshTokenExpiry}; Path=${ADMIN_SESSION_PATH}; ${flags}`,
    ];
  }

  /**
   * A session for the admin UI: a superuser's gets the cookies; anyone else's is revoked at once
   * and refused (403), leaving nothing behind.
   */
  async function admit(req: Request, res: Response, result: AuthResult): Promise<void> {
    if (!(await auth.roles.userHasRole(result.user.id, SUPERUSER))) {
      await auth.logout(result.token);
      res.setHeader('Set-Cookie', cookies(req, 'clear'));
      throw commonError(
        'ACCESS_DENIED',
        `${result.user.email} is not a superuser: the admin UI is for users with the role "superuser"`,
        { hint: 'svc admin create-superuser, or svc admin assign-role <email> superuser' },
      );
    }
    res.setHeader('Set-Cookie', cookies(req, result));
    const answer: AdminSessionAnswer = {
      user: { id: result.user.id, email: result.user.email },
      expiresAt: accessTokenExpiry(result.token),
    };
    sendJson(res, 200, answer);
  }

  /** A sign-in's outcome: the MFA challenge as @svc/auth answers it, or the admitted session. */
  async function signedIn(req: Request, res: Response, result: SignInResult): Promise<void> {
    if ('mfaRequired' in result) {
      sendJson(res, 200, result);
      return;
    }
    await admit(req, res, result);
  }

  /** The access token the superuser gate accepted (it ran before every account route). */
  function token(req: Request, res: Response): string {
    const found = adminToken(req);
    if (!found) throw commonError('UNAUTHORIZED', 'sign in as a superuser');
    if ((res.locals.caller as Caller | undefined)?.kind !== 'user') {
      throw commonError('INVALID_OPERATION', 'the account routes are for a signed-in superuser');
    }
    return found.token;
  }

  async function captcha(
    gate: 'login' | 'webauthnLogin',
    body: Record<string, unknown>,
    req: Request,
  ) {
    // The same gate as the /auth route the operation stands behind.
    if (auth.config.captcha?.gate.includes(gate))
      await auth.verifyCaptcha(body.captchaToken, infoOf(req));
  }

  return {
    async login(req: Request, res: Response): Promise<void> {
      fromOwnPage(req);
      const body = jsonObjectBody(req.body, LOGIN_FIELDS, 'an email or username and a password');
      await captcha('login', body, req);
      const { email, username, password } = body;
      // As POST /auth/login hands them on: the operation checks them.
      const input = { email, username, password } as unknown as LoginInput;
      await signedIn(req, res, await auth.login(input, infoOf(req)));
    },

    async totp(req: Request, res: Response): Promise<void> {
      fromOwnPage(req);
      const body = jsonObjectBody(req.body, CHALLENGE_FIELDS, 'a challengeToken and a code');
      const result = await auth.mfa.totpLogin(
        body.challengeToken as string,
        body.code as string,
        infoOf(req),
      );
      await admit(req, res, result);
    },

    async recoveryCode(req: Request, res: Response): Promise<void> {
      fromOwnPage(req);
      const body = jsonObjectBody(req.body, CHALLENGE_FIELDS, 'a challengeToken and a code');
      const result = await auth.mfa.recoveryCodeLogin(
        body.challengeToken as string,
        body.code as string,
        infoOf(req),
      );
      await admit(req, res, result);
    },

    async passkeyBegin(req: Request, res: Response): Promise<void> {
      fromOwnPage(req);
      const body = jsonObjectBody(req.body ?? {}, PASSKEY_BEGIN_FIELDS, 'an optional email');
      await captcha('webauthnLogin', body, req);
      const email = body.email as string | undefined;
      sendJson(res, 200, await auth.webauthn.loginBegin({ email }, infoOf(req)));
    },

    async passkeyFinish(req: Request, res: Response): Promise<void> {
      fromOwnPage(req);
      const body = jsonObjectBody(req.body, PASSKEY_FINISH_FIELDS, 'a passkey assertion');
      const result = await auth.webauthn.loginFinish(
        body as unknown as WebAuthnLoginFinishInput,
        infoOf(req),
      );
      await signedIn(req, res, result);
    },

    /** A new access token (and refresh token: they rotate) from the refresh cookie. */
    async refresh(req: Request, res: Response): Promise<void> {
      const refreshToken = readCookie(req.headers.cookie ?? '', ADMIN_REFRESH_COOKIE);
      if (!refreshToken) throw commonError('UNAUTHORIZED', 'no admin session to refresh: sign in');
      fromOwnPage(req);
      // A refused refresh leaves the cookies alone: the page signs in again, and a tab that lost
      // a race to another tab's refresh must not clear the cookies that tab was just given.
      await admit(req, res, await auth.refresh(refreshToken, infoOf(req)));
    },

    /**
     * Ends the session (revoked, not only forgotten) and clears both cookies. With the access
     * token expired, the refresh token proves the session first.
     */
    async logout(req: Request, res: Response): Promise<void> {
      const header = req.headers.cookie ?? '';
      const access = readCookie(header, ADMIN_COOKIE);
      const refreshToken = readCookie(header, ADMIN_REFRESH_COOKIE);
      if (access || refreshToken) fromOwnPage(req);
      let ended = false;
      if (access) ended = await endQuietly(() => auth.logout(access));
      if (!ended && refreshToken) {
        await endQuietly(async () => {
          const fresh = await auth.refresh(refreshToken, infoOf(req));
          await auth.logout(fresh.token);
        });
      }
      res.setHeader('Set-Cookie', cookies(req, 'clear'));
      sendJson(res, 200, { success: true });
    },

    // --- the signed-in superuser's own factors (behind the superuser gate) --------------------

    async passkeys(req: Request, res: Response): Promise<void> {
      sendJson(res, 200, await auth.webauthn.listCredentials(token(req, res)));
    },

    async registerBegin(req: Request, res: Response): Promise<void> {
      const body = jsonObjectBody(req.body ?? {}, CODE_FIELDS, 'an optional code');
      sendJson(
        res,
        200,
        await auth.webauthn.registerBegin(token(req, res), body.code as string, infoOf(req)),
      );
    },

    async registerFinish(req: Request, res: Response): Promise<void> {
      const body = jsonObjectBody(req.body, REGISTER_FINISH_FIELDS, 'a passkey attestation');
      sendJson(
        res,
        200,
        await auth.webauthn.registerFinish(
          token(req, res),
          body as unknown as WebAuthnRegisterFinishInput,
          infoOf(req),
        ),
      );
    },

    async deletePasskey(req: Request, res: Response): Promise<void> {
      const body = jsonObjectBody(req.body, DELETE_FIELDS, 'a credentialId');
      if (typeof body.credentialId !== 'string' || body.credentialId === '') {
        throw commonError('VALIDATION_ERROR', '"credentialId" must be a passkey id');
      }
      await auth.webauthn.deleteCredential(
        token(req, res),
        body.credentialId,
        body.code as string,
        infoOf(req),
      );
      sendJson(res, 200, { success: true });
    },

    async totpEnroll(req: Request, res: Response): Promise<void> {
      const body = jsonObjectBody(req.body ?? {}, CODE_FIELDS, 'an optional code');
      sendJson(
        res,
        200,
        await auth.mfa.enrollTotp(token(req, res), body.code as string, infoOf(req)),
      );
    },

    async totpConfirm(req: Request, res: Response): Promise<void> {
      const body = jsonObjectBody(req.body, CODE_FIELDS, 'a code');
      await auth.mfa.confirmTotp(token(req, res), body.code as string, infoOf(req));
      sendJson(res, 200, { success: true });
    },

    async totpDisable(req: Request, res: Response): Promise<void> {
      const body = jsonObjectBody(req.body ?? {}, CODE_FIELDS, 'an optional code');
      await auth.mfa.disableTotp(token(req, res), body.code as string, infoOf(req));
      sendJson(res, 200, { success: true });
    },

    async recoveryCodes(req: Request, res: Response): Promise<void> {
      const body = jsonObjectBody(req.body ?? {}, CODE_FIELDS, 'an optional code');
      sendJson(
        res,
        200,
        await auth.mfa.generateRecoveryCodes(token(req, res), body.code as string, infoOf(req)),
      );
    },
  };
}

/** The client's address and user agent, which sessions record and per-IP limits count. */
function infoOf(req: Request): RequestInfo {
  const ip = req.ip ?? req.socket.remoteAddress;
  const userAgent = req.headers['user-agent'];
  return { ...(ip ? { ip } : {}), ...(userAgent ? { userAgent } : {}) };
}

/** When an access token expires: its `exp` claim (the token was just issued and checked). */
function accessTokenExpiry(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  return new Date(Number(payload.exp) * 1000).toISOString();
}

/**
 * Runs `fn`; a 401 or 403 (the session is dead already, or its user deactivated) counts as
 * nothing to end rather than an error.
 */
async function endQuietly(fn: () => Promise<void>): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch (err) {
    const status = err instanceof SvcError ? err.status : undefined;
    if (status === 401 || status === 403) return false;
    throw err;
  }
}
