import { commonError } from '@svc/core';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import type { UserRecord } from '../store/types';
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
