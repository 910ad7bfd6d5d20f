/**
 * The caller's own sessions (issue 12): list the live ones, revoke one, revoke all but the
 * current. Each takes the caller's access token, checked like every protected operation (a
 * revoked or timed-out session answers SESSION_EXPIRED), and touches only that user's sessions:
 * another user's session id answers NOT_FOUND, as an unknown one does (no probing of ids).
 */
import { commonError } from '@svc/core';
import { isUuid } from '../account';
import type { OperationContext } from '../context';
import type { SessionInfo } from '../types';
import { describeDevice } from './device';
import { checkAccess } from './operations';

/** `auth.listSessions`: the caller's live sessions, most recently active first. */
export async function listSessions(
  ctx: OperationContext,
  accessToken: string,
): Promise<SessionInfo[]> {
  const { claims, sessionId } = await checkAccess(ctx, accessToken);
  return liveSessions(ctx, claims.sub, sessionId);
}

/**
 * A user's live sessions (unrevoked, unexpired, active within `sessionTimeout`), most recently
 * active first, as `SessionInfo`; `current` marks `currentId` (none for the admin's view).
 */
export async function liveSessions(
  ctx: OperationContext,
  userId: string,
  currentId?: string,
): Promise<SessionInfo[]> {
  const activeSince = new Date(ctx.now() - ctx.config.sessionTimeout * 1000);
  const rows = await ctx.store.listLiveSessions(userId, activeSince);
  return rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastActivityAt: s.lastActivityAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    ip: s.ip,
    userAgent: s.userAgent,
    device: describeDevice(s.userAgent),
    current: s.id === currentId,
  }));
}

/**
 * `auth.revokeSession`: ends one of the caller's sessions (the current one too, like logout);
 * resolves with whether it was the current one. NOT_FOUND when the caller has no such unrevoked
 * session; VALIDATION_ERROR when `sessionId` is not a UUID.
 */
export async function revokeSession(
  ctx: OperationContext,
  accessToken: string,
  sessionId: string,
): Promise<{ current: boolean }> {
  const { claims, sessionId: currentId } = await checkAccess(ctx, accessToken);
  if (typeof sessionId !== 'string' || !isUuid(sessionId))
    throw commonError('VALIDATION_ERROR', 'sessionId must be a UUID');
  const id = sessionId.toLowerCase();
  if (!(await ctx.store.revokeUserSession(claims.sub, id)))
    throw commonError('NOT_FOUND', 'no such session');
  return { current: id === currentId };
}

/** `auth.revokeOtherSessions`: ends every session of the caller but the current one; how many. */
export async function revokeOtherSessions(
  ctx: OperationContext,
  accessToken: string,
): Promise<number> {
  const { claims, sessionId } = await checkAccess(ctx, accessToken);
  return ctx.store.revokeOtherSessions(claims.sub, sessionId);
}
