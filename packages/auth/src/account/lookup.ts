import { commonError } from '@svc/core';
import type { OperationContext } from '../context';
import type { RateLimitRuleName } from '../rate-limit';
import { authError } from '../errors';
import type { UserRecord } from '../store/types';
import type { RequestInfo } from '../types';
import { emailForLookup, isUuid } from './index';

/** A user named by id or by email in any spelling; null when there is none (or it cannot be an email). */
export async function findUserByEmailOrId(
  ctx: OperationContext,
  emailOrId: string,
): Promise<UserRecord | null> {
  if (isUuid(emailOrId)) return ctx.store.findUserById(emailOrId);
  const email = emailForLookup(emailOrId);
  return email === null ? null : ctx.store.findUserByEmail(email);
}

/** The user an administrative operation names: VALIDATION_ERROR without a name, USER_NOT_FOUND without a user. */
export async function userOrThrow(ctx: OperationContext, emailOrId: unknown): Promise<UserRecord> {
  if (typeof emailOrId !== 'string' || emailOrId.length === 0) {
    throw commonError('VALIDATION_ERROR', 'a user email or id is required');
  }
  const user = await findUserByEmailOrId(ctx, emailOrId);
  if (!user) throw authError('USER_NOT_FOUND', 'no such user');
  return user;
}

/**
 * The account a public "send me an email" request names (reset, verification resend; later the
 * magic link and code): the email in any spelling, counted against `rule` before the lookup, so
 * known and unknown emails cost alike and a 429 tells nothing about the account. Null for a
 * malformed email or no account: the caller answers as if it sent (no enumeration).
 */
export async function userForEmailRequest(
  ctx: OperationContext,
  rule: RateLimitRuleName,
  email: string,
  info?: RequestInfo,
): Promise<UserRecord | null> {
  const normalized = emailForLookup(email);
  if (normalized === null) return null;
  await ctx.limiter.check(rule, { email: normalized, ip: info?.ip });
  const user = await ctx.store.findUserByEmail(normalized);
  // A guest's synthetic address reaches no one: no mail is ever sent for it.
  return user?.isAnonymous ? null : user;
}
