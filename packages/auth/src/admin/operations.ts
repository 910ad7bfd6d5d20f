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
import type { SessionInfo, User, UserFactors, UserList } from '../types';
import { credentialInfo } from '../webauthn/operations';

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

/**
 * `auth.createUser`: an active user with this email and password (the policy applies), made by an
 * administrator whatever `allowRegistration` says; `emailVerified` marks the address as proven
 * (default false). No session is issued and no email sent: `requestReset` sends the user a link
 * to choose their own password. USER_ALREADY_EXISTS when the email is taken.
 */
export async function createUser(
  ctx: OperationContext,
  input: { readonly email: string; readonly password: string; readonly emailVerified?: boolean },
): Promise<User> {
  if (typeof input !== 'object' || input === null)
    throw commonError('VALIDATION_ERROR', 'createUser takes {email, password, emailVerified?}');
  if (input.emailVerified !== undefined && typeof input.emailVerified !== 'boolean')
    throw commonError('VALIDATION_ERROR', 'emailVerified must be true or false');
  const email = normalizeEmail(input.email);
  const passwordHash = await hashNewPassword(ctx, input.password);
  const user = await ctx.store.createUser({
    email,
    passwordHash,
    emailVerified: input.emailVerified === true,
    active: true,
  });
  ctx.bus.emit({ eventType: 'IdentityCreated', userId: user.id, email: user.email });
  return toPublicUser(user);
}

/** `auth.createSuperuser`: a verified, active user holding the `superuser` role (created if missing). */
export async function createSuperuser(
  ctx: OperationContext,
  email: string,
  password: string,
): Promise<User> {
  const user = await createUser(ctx, { email, password, emailVerified: true });
  await ctx.store.ensureRole(SUPERUSER_ROLE, 'Full access');
  await ctx.store.assignRole(user.id, SUPERUSER_ROLE);
  return user;
}

/**
 * `auth.userFactors`: the second factors and passkeys a user holds, nothing secret: whether TOTP
 * is enrolled (`confirmed`), begun and never confirmed (`pending`) or absent, how many recovery
 * codes are unused, and each passkey's name, creation and last use.
 */
export async function userFactors(ctx: OperationContext, emailOrId: string): Promise<UserFactors> {
  const user = await userOrThrow(ctx, emailOrId);
  const [factor, state, passkeys] = await Promise.all([
    ctx.store.totpFactor(user.id),
    ctx.store.mfaState(user.id),
    ctx.store.listWebAuthnCredentials(user.id),
  ]);
  return {
    totp: factor === null ? 'none' : factor.confirmedAt ? 'confirmed' : 'pending',
    recoveryCodesLeft: state.unusedRecoveryCodes,
    passkeys: passkeys.map(credentialInfo),
  };
}

/**
 * `auth.resetMfa`: removes the user's TOTP enrolment (confirmed or pending) and every recovery
 * code, for a user who lost their authenticator: their next sign-in owes no second factor. Their
 * sessions and passkeys stay. Says what there was.
 */
export async function resetMfa(
  ctx: OperationContext,
  emailOrId: string,
): Promise<{ totp: boolean; recoveryCodes: number }> {
  const user = await userOrThrow(ctx, emailOrId);
  const { unusedRecoveryCodes } = await ctx.store.mfaState(user.id);
  const totp = await ctx.store.deleteTotp(user.id);
  await ctx.store.replaceRecoveryCodes(user.id, []);
  return { totp, recoveryCodes: unusedRecoveryCodes };
}

/** `auth.deleteUserPasskey`: removes one passkey of the user; NOT_FOUND when they hold no such one. */
export async function deleteUserPasskey(
  ctx: OperationContext,
  emailOrId: string,
  credentialId: string,
): Promise<void> {
  if (typeof credentialId !== 'string' || credentialId.length === 0)
    throw commonError('VALIDATION_ERROR', 'credentialId must be a non-empty string');
  const user = await userOrThrow(ctx, emailOrId);
  if (!(await ctx.store.deleteWebAuthnCredential(user.id, credentialId)))
    throw commonError('NOT_FOUND', 'the user has no passkey with that credentialId');
}
