/**
 * Sessions: issuing one (an access token whose `jti` names a session row, and a refresh token
 * stored as its SHA-256), checking an access token against its live session, rotating with a
 * refresh token, and logging out.
 *
 * - `checkAccess` verifies the JWT, then the session (not revoked, `lastActivityAt +
 *   sessionTimeout > now`) and the user (active) in one indexed query; it moves `lastActivityAt`
 *   forward at most once per min(60 s, sessionTimeout/10).
 * - Refresh: one conditional UPDATE revokes the old session and the new one is inserted in the
 *   same transaction, so of concurrent refreshes with one token exactly one succeeds. A refresh
 *   token works while it lives (`refreshTokenExpiry`) and its session is live: a session idle past
 *   `sessionTimeout` answers SESSION_EXPIRED (a timed-out session answers 401
 *   SESSION_EXPIRED to any request using it: docs/http.md), a deactivated user USER_INACTIVE.
 * - Roles are copied into the access token when it is issued; a role assigned later shows after
 *   the next login or refresh. So is the guest flag: a guest's tokens carry `is_anonymous: true`,
 *   those issued after its upgrade do not.
 * - Assurance level (docs/http.md, MFA): a session is `aal1` or `aal2`, fixed by the
 *   sign-in that made it (`sign-in.ts`), stored with it and written into its tokens as the `aal`
 *   claim; a refresh keeps it. Nothing raises a session's level in place: a stronger proof is a
 *   new sign-in. The level is read from the session record (`checkAccess`), not trusted from a
 *   token.
 * - Reuse detection (`refreshTokenReuseDetection`, on by default): every session carries the
 *   family of the sign-in it descends from. A refresh token presented after a refresh retired it
 *   (a stolen copy, or the thief's, whichever comes second) revokes every live session of the
 *   family and answers INVALID_REFRESH_TOKEN. Within `REFRESH_REUSE_GRACE_SECONDS` of the rotation
 *   the token only answers INVALID_REFRESH_TOKEN: that is the loser of a race of concurrent
 *   refreshes (two tabs, a retry after a lost response), not a replay worth ending the user's
 *   sign-in for. A session ended any other way (logout, password change) is no reuse.
 */
import { randomUUID } from 'node:crypto';
import { toPublicUser } from '../account';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import type { UserRecord } from '../store/types';
import {
  authContextFromClaims,
  type AccessTokenClaims,
  type AuthAssuranceLevel,
  type AuthContext,
  type TokenVerifier,
} from '../token/verify';
import type { AuthResult, RequestInfo, TokenCheck } from '../types';
import type { SessionState } from './store';
import { isTokenShape, randomToken, sha256Hex } from './tokens';

/** `lastActivityAt` is written at most this often (and at most every sessionTimeout/10). */
export const SESSION_TOUCH_INTERVAL_SECONDS = 60;

/**
 * A retired refresh token presented within this many seconds of its rotation is refused without
 * revoking its family: the loser of concurrent refreshes, not a replay.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** Without a secret (`createAuthAdmin`) nothing may sign or verify: no admin operation does. */
function tokensOf(ctx: OperationContext): TokenVerifier {
  if (!ctx.tokens)
    throw new Error(
      '@svc/auth: this instance was made without a jwtSecret and cannot sign or verify tokens',
    );
  return ctx.tokens;
}

/**
 * A signed access token for `user` (roles and `claims(user)` copied in; `is_anonymous: true` for a
 * guest, which the `claims` hook can neither set nor remove; `aal`, which it cannot change) and a
 * fresh refresh token.
 */
async function mintTokens(ctx: OperationContext, user: UserRecord, aal: AuthAssuranceLevel) {
  const { config } = ctx;
  const roles = await ctx.store.userRoles(user.id);
  const { is_anonymous: _fromHook, ...extra } = config.claims
    ? await config.claims(toPublicUser(user))
    : {};
  const iat = Math.floor(ctx.now() / 1000);
  const jti = randomUUID();
  const claims: Omit<AccessTokenClaims, 'aud' | 'iss'> = {
    ...(extra as object),
    sub: user.id,
    email: user.email,
    ...(user.username ? { username: user.username } : {}),
    iat,
    exp: iat + config.tokenExpiry,
    jti,
    roles,
    ...(user.isAnonymous ? { is_anonymous: true } : {}),
    aal,
  };
  const token = tokensOf(ctx).sign(claims);
  return { claims, jti, refreshToken: randomToken(ctx.random), token };
}

/** The Auth result of the sign-in routes (docs/http.md). */
function authResult(
  user: UserRecord,
  token: string,
  refreshToken: string,
  session: { id: string; userId: string; createdAt: Date; expiresAt: Date },
): AuthResult {
  return {
    token,
    refreshToken,
    session: {
      id: session.id,
      userId: session.userId,
      token,
      refreshToken,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
    },
    user: toPublicUser(user),
  };
}

/**
 * Signs an access token and stores its session at assurance level `aal`: what register and login
 * answer.
 */
export async function issueSession(
  ctx: OperationContext,
  user: UserRecord,
  info: RequestInfo | undefined,
  aal: AuthAssuranceLevel = 'aal1',
): Promise<AuthResult> {
  const { jti, refreshToken, token } = await mintTokens(ctx, user, aal);
  const session = await ctx.store.createSession({
    userId: user.id,
    accessJti: jti,
    refreshHash: sha256Hex(refreshToken),
    expiresAt: new Date(ctx.now() + ctx.config.refreshTokenExpiry * 1000),
    ip: info?.ip ?? null,
    userAgent: info?.userAgent ?? null,
    aal,
  });
  return authResult(user, token, refreshToken, session);
}

/** The JWT, then the session and user: the verified claims, the session id and its level. */
export async function checkAccess(
  ctx: OperationContext,
  accessToken: unknown,
): Promise<{ claims: AccessTokenClaims; sessionId: string; aal: AuthAssuranceLevel }> {
  const claims = verifiedClaims(ctx, accessToken);
  return acceptSession(ctx, claims, await ctx.store.sessionState(claims.jti));
}

/** `checkAccess` with the user's whole record, read with the session in one statement. */
export async function checkAccessWithUser(
  ctx: OperationContext,
  accessToken: unknown,
): Promise<{ claims: AccessTokenClaims; sessionId: string; user: UserRecord }> {
  const claims = verifiedClaims(ctx, accessToken);
  const found = await ctx.store.sessionUser(claims.jti);
  const { sessionId } = await acceptSession(ctx, claims, found?.state ?? null);
  // acceptSession refused a missing row: `found` is there.
  return { claims, sessionId, user: (found as { user: UserRecord }).user };
}

/** The access token's signature, expiry, audience and issuer: its claims, or INVALID_TOKEN. */
function verifiedClaims(ctx: OperationContext, accessToken: unknown): AccessTokenClaims {
  if (typeof accessToken !== 'string' || accessToken.length === 0) {
    throw authError('INVALID_TOKEN', 'an access token is required');
  }
  const claims = tokensOf(ctx).verify(accessToken);
  // Authenticated traffic is what keeps guest retention going (a sweep when due, not awaited).
  ctx.guests.poke();
  return claims;
}

/**
 * The session a verified token names, as the store read it: live (not revoked, active within
 * `sessionTimeout`) and of an active user, or 401. Moves its last activity forward when due.
 */
async function acceptSession(
  ctx: OperationContext,
  claims: AccessTokenClaims,
  state: SessionState | null,
): Promise<{ claims: AccessTokenClaims; sessionId: string; aal: AuthAssuranceLevel }> {
  if (!state || state.userId !== claims.sub)
    throw authError('SESSION_EXPIRED', 'the session has ended');
  // Deactivation revokes the sessions too; the more useful answer comes first.
  if (!state.userActive) throw authError('USER_INACTIVE', 'the account is deactivated');
  const t = ctx.now();
  if (state.revoked || state.lastActivityAt.getTime() + ctx.config.sessionTimeout * 1000 <= t) {
    throw authError('SESSION_EXPIRED', 'the session has ended');
  }
  const touchEveryMs =
    Math.min(SESSION_TOUCH_INTERVAL_SECONDS, ctx.config.sessionTimeout / 10) * 1000;
  if (t - state.lastActivityAt.getTime() >= touchEveryMs)
    await ctx.store.touchSession(state.sessionId);
  return { claims, sessionId: state.sessionId, aal: state.aal };
}

/**
 * `auth.checkToken`: the JWT verified now, the session read later. `confirm()` reads it alone;
 * `probe`, on a store in PostgreSQL or PGlite, is the same read as SQL for a caller that runs it in
 * its own statement (the server's `/query` and REST reads: @svc/core `RunOptions.probe`), so a
 * signed-in read costs one round trip. The caller must confirm or settle the probe before it
 * answers anything.
 */
export function checkToken(ctx: OperationContext, accessToken: string): TokenCheck {
  const claims = verifiedClaims(ctx, accessToken);
  const settle = async (state: SessionState | null) => {
    await acceptSession(ctx, claims, state);
  };
  const confirm = async () => settle(await ctx.store.sessionState(claims.jti));
  const read = ctx.store.sessionStateSql;
  return {
    context: authContextFromClaims(claims),
    confirm,
    probe: read && {
      select: read.select,
      value: claims.jti,
      settle: async (text) => settle(text === null ? null : read.parse(text)),
      confirm,
    },
  };
}

/** `auth.verifyToken`: signature, expiry, audience, issuer, then a live session: the caller's context. */
export async function verifyToken(
  ctx: OperationContext,
  accessToken: string,
): Promise<AuthContext> {
  return authContextFromClaims((await checkAccess(ctx, accessToken)).claims);
}

/** `auth.refresh`: rotates the session; the old refresh token and session die. */
export async function refresh(
  ctx: OperationContext,
  refreshToken: string,
  info?: RequestInfo,
): Promise<AuthResult> {
  const { store } = ctx;
  if (!isTokenShape(refreshToken))
    throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
  const hash = sha256Hex(refreshToken);
  // The session and user are read first, for the answer and the new token's claims; the
  // rotation itself (one conditional UPDATE with the same conditions) decides who wins.
  const state = await store.refreshState(hash);
  const t = ctx.now();
  // Reuse first: a retired token is a replay however long ago it expired, while its family may
  // live on through later refreshes.
  if (
    state?.revoked &&
    state.rotatedAt &&
    ctx.config.refreshTokenReuseDetection &&
    t - state.rotatedAt.getTime() > REFRESH_REUSE_GRACE_SECONDS * 1000
  ) {
    const revoked = await store.revokeSessionFamily(state.familyId);
    ctx.logger?.warn(
      { userId: state.userId, familyId: state.familyId, revoked, ip: info?.ip ?? null },
      'refresh token reuse: the session family is revoked',
    );
    throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
  }
  if (!state || state.expiresAt.getTime() <= t)
    throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
  if (!state.userActive) throw authError('USER_INACTIVE', 'the account is deactivated');
  if (state.revoked)
    throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
  const activeSince = new Date(t - ctx.config.sessionTimeout * 1000);
  if (state.lastActivityAt.getTime() <= activeSince.getTime())
    throw authError('SESSION_EXPIRED', 'the session has ended');
  const current = await store.findUserById(state.userId);
  if (!current) throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
  // The new session keeps the old one's level (rotateSession copies it from the same row).
  const minted = await mintTokens(ctx, current, state.aal);
  const rotated = await store.rotateSession(
    hash,
    {
      accessJti: minted.jti,
      refreshHash: sha256Hex(minted.refreshToken),
      expiresAt: new Date(ctx.now() + ctx.config.refreshTokenExpiry * 1000),
      ip: info?.ip ?? null,
      userAgent: info?.userAgent ?? null,
    },
    activeSince,
  );
  if (!rotated || rotated.next.userId !== current.id) {
    throw authError('INVALID_REFRESH_TOKEN', 'the refresh token is invalid or used');
  }
  ctx.bus.emit({ eventType: 'IdentityAuthenticated', userId: current.id, email: current.email });
  return authResult(current, minted.token, minted.refreshToken, rotated.next);
}

/** `auth.logout`: revokes the token's session. */
export async function logout(ctx: OperationContext, accessToken: string): Promise<void> {
  const { sessionId } = await checkAccess(ctx, accessToken);
  await ctx.store.revokeSession(sessionId);
}
