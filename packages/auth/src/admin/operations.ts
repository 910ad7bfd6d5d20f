/**
 * Administrative operations (the CLI's `svc admin`, a host program): users named by email or id,
 * passwords set without the old one, sessions revoked, accounts (de)activated, users listed, and
 * the first superuser. None signs or verifies a token, so `createAuthAdmin` offers them without a
 * `jwtSecret`. Deactivation revokes every session of the user; reactivating does not bring them
 * back.
 */
import { commonError } from '@svc/core';
import { isUuid, normalizeEmail, toPublicUser } from '../account';
import { findUserByEmailOrId, userOrThrow } from '../account/lookup';
import type { OperationContext } from '../context';
import { checkPassword } from '../password';
import { hashNewPassword } from '../password/operations';
import { SUPERUSER_ROLE } from '../roles';
import { liveSessions } from '../session/list';
import type { SessionInfo, User, UserList } from '../types';

/** `listUsers` pages: 100 users unless asked, at most 1000. */
export const DEFAULT_USER_PAGE = 100;
export const MAX_USER_PAGE = 1000;

/** `auth.setPassword`: a new password (the policy applies); every session of the user ends. */
export async function setPassword(
  ctx: OperationContext,
  emailOrId: string,
  password: string,
): Promise<void> {
  checkPassword(password, ctx.policy);
  const user = await userOrThrow(ctx, emailOrId);
  await ctx.store.replacePassword(user.id, await ctx.passwords.hash(password));
}

/** `auth.revokeAllSessions`: resolves with how many live sessions there were. */
export async function revokeAllSessions(ctx: OperationContext, emailOrId: string): Promise<number> {
  const user = await userOrThrow(ctx, emailOrId);
  return ctx.store.revokeUserSessions(user.id);
}

/**
 * `auth.listUserSessions`: a user's live sessions (unrevoked, unexpired, active within
 * `sessionTimeout`), most recently active first; `current` is always false (no caller here).
 */
export async function listUserSessions(
  ctx: OperationContext,
  emailOrId: string,
): Promise<SessionInfo[]> {
  const user = await userOrThrow(ctx, emailOrId);
  return liveSessions(ctx, user.id);
}

/**
 * `auth.revokeUserSession`: ends one session of the user (its tokens answer SESSION_EXPIRED);
 * NOT_FOUND when the user has no such unrevoked session, VALIDATION_ERROR for an id that is no UUID.
 */
export async function revokeUserSession(
  ctx: OperationContext,
  emailOrId: string,
  sessionId: string,
): Promise<void> {
  if (typeof sessionId !== 'string' || !isUuid(sessionId))
    throw commonError('VALIDATION_ERROR', 'sessionId must be a UUID');
  const user = await userOrThrow(ctx, emailOrId);
  if (!(await ctx.store.revokeUserSession(user.id, sessionId.toLowerCase())))
    throw commonError('NOT_FOUND', 'no such session');
}

export async function setActive(
  ctx: OperationContext,
  emailOrId: string,
  active: boolean,
): Promise<void> {
  if (typeof active !== 'boolean')
    throw commonError('VALIDATION_ERROR', 'active must be true or false');
  const user = await userOrThrow(ctx, emailOrId);
  await ctx.store.setActive(user.id, active);
}

export async function findUser(ctx: OperationContext, emailOrId: string): Promise<User | null> {
  if (typeof emailOrId !== 'string' || emailOrId.length === 0) return null;
  const user = await findUserByEmailOrId(ctx, emailOrId);
  return user ? toPublicUser(user) : null;
}

export async function listUsers(
  ctx: OperationContext,
  page: { limit?: number; offset?: number } = {},
): Promise<UserList> {
  if (typeof page !== 'object' || page === null)
    throw commonError('VALIDATION_ERROR', 'listUsers takes {limit, offset}');
  const limit = page.limit ?? DEFAULT_USER_PAGE;
  const offset = page.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_USER_PAGE) {
    throw commonError('VALIDATION_ERROR', `limit must be an integer from 1 to ${MAX_USER_PAGE}`);
  }
  if (!Number.isInteger(offset) || offset < 0)
    throw commonError('VALIDATION_ERROR', 'offset must be an integer of 0 or more');
  const { users, total } = await ctx.store.listUsers({ limit, offset });
  return {
    users: users.map((u) => ({ ...toPublicUser(u), roles: u.roles })),
    total,
    limit,
    offset,
  };
}

/** `auth.createSuperuser`: a verified, active user holding the `superuser` role (created if missing). */
export async function createSuperuser(
  ctx: OperationContext,
  email: string,
  password: string,
): Promise<User> {
  const { store } = ctx;
  const normalized = normalizeEmail(email);
  const passwordHash = await hashNewPassword(ctx, password);
  const user = await store.createUser({
    email: normalized,
    passwordHash,
    emailVerified: true,
    active: true,
  });
  await store.ensureRole(SUPERUSER_ROLE, 'Full access');
  await store.assignRole(user.id, SUPERUSER_ROLE);
  ctx.bus.emit({ eventType: 'IdentityCreated', userId: user.id, email: user.email });
  return toPublicUser(user);
}
