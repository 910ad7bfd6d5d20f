/**
 * Roles (`auth.roles.*`): named, with a description; assigned to users by email or id. Roles are
 * copied into access tokens when they are issued. Assigning a role that does not exist fails with
 * VALIDATION_ERROR (a misspelt name is not silently created) unless the caller asks for it to be
 * created (`createIfMissing`, what `svc admin assign-role` passes); creating one that exists is
 * INVALID_OPERATION.
 */
import { commonError } from '@svc/core';
import { userOrThrow } from '../account/lookup';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import type { AssignRoleOptions, AssignRoleResult, Role } from '../types';
import { checkRoleDescription, checkRoleName } from './index';

export async function createRole(
  ctx: OperationContext,
  name: string,
  description?: string,
): Promise<Role> {
  const role = await ctx.store.createRole(checkRoleName(name), checkRoleDescription(description));
  if (!role) throw commonError('INVALID_OPERATION', `role '${name}' already exists`);
  return role;
}

export async function assignRole(
  ctx: OperationContext,
  emailOrId: string,
  role: string,
  options: AssignRoleOptions = {},
): Promise<AssignRoleResult> {
  checkRoleName(role);
  // The user first: an unknown user leaves no role behind.
  const user = await userOrThrow(ctx, emailOrId);
  // createRole inserts unless the name is taken (null then), so two concurrent callers create it once.
  const roleCreated =
    options.createIfMissing === true && (await ctx.store.createRole(role, null)) !== null;
  const result = await ctx.store.assignRole(user.id, role);
  if (result === 'no-such-role')
    throw commonError('VALIDATION_ERROR', `role '${role}' does not exist`);
  if (result === 'no-such-user') throw authError('USER_NOT_FOUND', 'no such user');
  return { roleCreated };
}

export async function revokeRole(
  ctx: OperationContext,
  emailOrId: string,
  role: string,
): Promise<void> {
  checkRoleName(role);
  const user = await userOrThrow(ctx, emailOrId);
  await ctx.store.revokeRole(user.id, role);
}

export function listRoles(ctx: OperationContext): Promise<Role[]> {
  return ctx.store.listRoles();
}

export async function getUserRoles(ctx: OperationContext, emailOrId: string): Promise<string[]> {
  return ctx.store.userRoles((await userOrThrow(ctx, emailOrId)).id);
}

export async function userHasRole(
  ctx: OperationContext,
  emailOrId: string,
  role: string,
): Promise<boolean> {
  checkRoleName(role);
  return (await ctx.store.userRoles((await userOrThrow(ctx, emailOrId)).id)).includes(role);
}

/** How many users hold each role, by name (every role listed, 0 included). */
export function roleMemberCounts(ctx: OperationContext): Promise<Record<string, number>> {
  return ctx.store.roleMemberCounts();
}

/** Deletes the role and every assignment of it. */
export async function deleteRole(ctx: OperationContext, name: string): Promise<void> {
  checkRoleName(name);
  await ctx.store.deleteRole(name);
}
