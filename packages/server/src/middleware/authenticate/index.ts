import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { SvcError, commonError } from '@svc/core';
import { middleware } from '../../http/step';
import { pendingSession } from '../../http/pending-session';
import {
  extractToken,
  type AuthContext,
  type ExtractedToken,
  type TokenCheck,
  type TokenSource,
} from '@svc/auth';

/** Who is calling, as the rest of the server sees it. */
export type Caller =
  | { readonly kind: 'anonymous' }
  /** The server's `serviceKey` (or, later, a superuser): access policies off. */
  | { readonly kind: 'service' }
  | { readonly kind: 'user'; readonly context: AuthContext };

export const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/**
 * The service key or a superuser (docs/http.md, "Callers and credentials"): may migrate, and runs queries without
 * access policies.
 */
export function isAdministrator(caller: Caller | undefined): boolean {
  if (!caller) return false;
  if (caller.kind === 'service') return true;
  return caller.kind === 'user' && caller.context.roles.includes('superuser');
}
const SERVICE: Caller = Object.freeze({ kind: 'service' });

/** RFC 6750 §3: the challenge of a 401 for a missing bearer, and for one read and refused. */
export const BEARER_CHALLENGE = 'Bearer realm="svc"';
export const INVALID_TOKEN_CHALLENGE = `${BEARER_CHALLENGE}, error="invalid_token"`;

export interface AuthenticateOptions {
  /**
   * Present when auth is enabled: checks signature, expiry, audience, issuer and that the
   * session is live, and gives the caller's context (or throws a 401 SvcError).
   */
  readonly verify: ((token: string) => Promise<AuthContext>) | undefined;
  /**
   * With `verify`: the token checked now and its session read later, by the handler
   * (http/pending-session): the data routes, whose statement can carry the read (@svc/auth
   * `checkToken`). Only for a request `deferSession` says yes to.
   */
  readonly check?: (token: string) => TokenCheck;
  readonly deferSession?: (req: Request) => boolean;
  readonly serviceKey: string | undefined;
  /** Refuse requests without a valid token: the `requireAuth` gate of docs/http.md. */
  readonly required: boolean;
  /** Throws 403 for a cookie-authenticated write from a foreign page (middleware/csrf). */
  readonly checkOrigin?: (req: Request, tokenSource: TokenSource) => void;
  /**
   * Where the token is read from. @default the app's rule: `Authorization: Bearer`, then the
   * `auth_token` cookie, then `?token=` (the admin routes read their own cookie instead:
   * handlers/admin-session `adminToken`).
   */
  readonly readToken?: (req: Request) => ExtractedToken | null;
}

/**
 * The app's rule: header > `auth_token` cookie > `?token=` (docs/http.md, "Callers and
 * credentials"). The query string, which Express parses on each access, is read only when neither
 * the header nor the cookie gave a token and the URL has one.
 *
 * Plain values, never a getter over `req`: an object literal with a getter made per request gets
 * a hidden class of its own, made in the old generation, whose getter closure holds the request.
 * Every object the request reaches then survived each young-generation collection until the next
 * full one: on a by-id read that was 6 KB promoted per request and a third of the process's CPU
 * in the scavenger (issue 34; `node --trace-gc-nvp`).
 */
function appToken(req: Request): ExtractedToken | null {
  const { authorization, cookie } = req.headers;
  return (
    extractToken({ authorization, cookie }) ??
    (req.url.includes('?') ? extractToken({ queryToken: req.query.token }) : null)
  );
}

/**
 * Reads the caller's token (header > cookie > `?token`) and sets `res.locals.caller`. A
 * state-changing request authenticated by the cookie must come from a trusted page (403).
 * With `required`: no token is 401 with `WWW-Authenticate`, a bad one is 401 in the envelope,
 * and without an auth middleware every request is 503. Without `required` a request may be
 * anonymous, but a token it does present must be valid.
 */
export function authenticate(options: AuthenticateOptions): RequestHandler {
  return middleware(identifyCaller(options));
}

/**
 * `authenticate` as a plain step (http/step), for the hot lane and the middleware alike: sets
 * `res.locals.caller` or throws the refusal. Only a token to verify now makes it asynchronous.
 */
export function identifyCaller(options: AuthenticateOptions) {
  const { verify, check, deferSession, required, checkOrigin, readToken = appToken } = options;
  const isServiceKey = options.serviceKey ? secretMatcher(options.serviceKey) : undefined;

  return (req: Request, res: Response): Promise<void> | undefined => {
    const found = readToken(req);
    // A token that will be used: a cookie one must come from a trusted page on writes.
    if (found && checkOrigin && (isServiceKey || verify)) checkOrigin(req, found.source);
    if (found && isServiceKey?.(found.token)) {
      res.locals.caller = SERVICE;
      return undefined;
    }
    if (required && !verify) {
      throw commonError(
        'SERVICE_UNAVAILABLE',
        'requireAuth is on but no auth is installed: start the server with auth enabled',
      );
    }
    if (!found || !verify) {
      if (required) {
        throw commonError('UNAUTHORIZED', 'a bearer token is required', {
          headers: { 'WWW-Authenticate': BEARER_CHALLENGE },
        });
      }
      res.locals.caller = ANONYMOUS;
      return undefined;
    }
    let verified: Promise<AuthContext>;
    try {
      if (check && deferSession?.(req)) {
        // Verified now, the session read by the handler (http/pending-session).
        const checked = check(found.token);
        res.locals.caller = { kind: 'user', context: checked.context } satisfies Caller;
        res.locals.pendingSession = pendingSession(checked, withChallenge);
        return undefined;
      }
      verified = verify(found.token);
    } catch (err) {
      throw withChallenge(err);
    }
    return verified.then(
      (context) => {
        res.locals.caller = { kind: 'user', context } satisfies Caller;
      },
      (err: unknown) => {
        throw withChallenge(err);
      },
    );
  };
}

/**
 * Whether a presented credential is `secret`, in constant time: both sides are hashed with
 * SHA-256 first, so neither the time nor the lengths compared tell anything about the secret.
 */
export function secretMatcher(secret: string): (candidate: string) => boolean {
  const expected = digest(secret);
  return (candidate) => timingSafeEqual(digest(candidate), expected);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** RFC 6750 §3: a rejected token also answers with a challenge naming the error. */
function withChallenge(err: unknown): unknown {
  if (!(err instanceof SvcError) || err.status !== 401) return err;
  return new SvcError(err.code, err.status, err.message, {
    headers: { 'WWW-Authenticate': INVALID_TOKEN_CHALLENGE },
  });
}
