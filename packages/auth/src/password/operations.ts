/**
 * Passwords: setting a new one (policy, then bcrypt of the NFKC form), changing it with the old
 * one, and the reset flow (a one-time token by email or webhook, then a new password). Every
 * password change ends every session of the user and kills the user's reset tokens, in the
 * store's `replacePassword` transaction.
 */
import { userForEmailRequest } from '../account/lookup';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import { checkAccess } from '../session/operations';
import { isTokenShape, randomToken, sha256Hex } from '../session/tokens';
import type { RequestInfo } from '../types';
import { checkPassword, requirePassword } from './index';

/** Reset tokens die after one hour. */
export const RESET_TOKEN_TTL_SECONDS = 3600;

/** The bcrypt hash of a new password the policy accepts (VALIDATION_ERROR / PASSWORD_TOO_WEAK naming `field`). */
export async function hashNewPassword(
  ctx: OperationContext,
  password: unknown,
  field = 'password',
): Promise<string> {
  checkPassword(password, ctx.policy, field);
  return ctx.passwords.hash(password);
}

/** `auth.changePassword`: the current password, then the new one; every session ends. */
export async function changePassword(
  ctx: OperationContext,
  accessToken: string,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  const { claims } = await checkAccess(ctx, accessToken);
  requirePassword(oldPassword, 'old_password');
  checkPassword(newPassword, ctx.policy, 'new_password');
  const user = await ctx.store.findUserById(claims.sub);
  if (!user) throw authError('SESSION_EXPIRED', 'the session has ended');
  if (!(await ctx.passwords.verify(oldPassword, user.passwordHash))) {
    throw authError('INVALID_CREDENTIALS', 'the current password is wrong');
  }
  await ctx.store.replacePassword(user.id, await ctx.passwords.hash(newPassword));
}

/**
 * `auth.requestReset`: resolves for known and unknown emails alike (no enumeration, no error for
 * a malformed address either); a known active user gets a reset token (earlier ones die) in a
 * PasswordResetRequested event.
 */
export async function requestReset(
  ctx: OperationContext,
  email: string,
  info?: RequestInfo,
): Promise<void> {
  const user = await userForEmailRequest(ctx, 'passwordReset', email, info);
  if (!user || !user.active) return;
  const token = randomToken(ctx.random);
  await ctx.store.issueResetToken(
    user.id,
    sha256Hex(token),
    new Date(ctx.now() + RESET_TOKEN_TTL_SECONDS * 1000),
  );
  ctx.bus.emit({
    eventType: 'PasswordResetRequested',
    userId: user.id,
    email: user.email,
    resetToken: token,
  });
}

/** `auth.confirmReset`: the new password, then the one-time token; every session ends. */
export async function confirmReset(
  ctx: OperationContext,
  resetToken: string,
  newPassword: string,
): Promise<void> {
  checkPassword(newPassword, ctx.policy, 'new_password');
  if (!isTokenShape(resetToken))
    throw authError('INVALID_TOKEN', 'the reset token is invalid, used or expired');
  const userId = await ctx.store.consumeResetToken(sha256Hex(resetToken));
  if (!userId) throw authError('INVALID_TOKEN', 'the reset token is invalid, used or expired');
  await ctx.store.replacePassword(userId, await ctx.passwords.hash(newPassword));
}
