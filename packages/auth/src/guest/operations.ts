/**
 * Guests (docs/http.md, "Auth routes"): `POST /auth/anonymous` makes a user with a
 * synthetic email `<uuid>@anonymous.invalid` (a reserved domain, RFC 2606: no mail can reach it)
 * and no password, and signs it in; `POST /auth/upgrade` turns that guest into a regular account
 * under the SAME user id.
 *
 * - A guest cannot log in by password (it has none), request a reset or a verification mail
 *   (`userForEmailRequest` finds no guest), or be upgraded twice: upgrade of a non-guest answers
 *   400 INVALID_OPERATION (the error table's code for an operation the account's state does not
 *   allow; the input itself may be valid, so not VALIDATION_ERROR).
 * - Guest creation is a registration: refused with REGISTRATION_DISABLED when `allowRegistration`
 *   is false, and counted against the `anonymous` rate limit per client IP before any write.
 * - Upgrade: email normalised and unique (USER_ALREADY_EXISTS), password policy applied; then one
 *   conditional UPDATE (only while the user is still a guest) replaces email and password, clears
 *   `is_anonymous` and `emailVerified`, and revokes every session of the user; a new session is
 *   issued through `completeSignIn(..., 'upgrade')`. With `requireEmailVerification` the new
 *   address gets a verification token, as at registration.
 * - Events: IdentityCreated when the guest is made; IdentityAuthenticated with each session.
 * - Retention: a guest inactive for `guestRetention` is deleted (see retention.ts).
 */
import { randomUUID } from 'node:crypto';
import { commonError } from '@svc/core';
import { normalizeEmail } from '../account';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import { hashNewPassword } from '../password/operations';
import { checkAccess } from '../session/operations';
import { completeSignIn, isAuthResult } from '../session/sign-in';
import type { AuthResult, RequestInfo, SignInResult, UpgradeInput } from '../types';
import { issueVerification } from '../verification/operations';

/** The reserved domain of guests' synthetic emails. */
export const ANONYMOUS_EMAIL_DOMAIN = 'anonymous.invalid';

/** Whether an email is a guest's synthetic address. */
export function isAnonymousEmail(email: string): boolean {
  return email.toLowerCase().endsWith(`@${ANONYMOUS_EMAIL_DOMAIN}`);
}

/** `auth.signInAnonymously`: a new guest user and its first session. */
export async function signInAnonymously(
  ctx: OperationContext,
  info?: RequestInfo,
): Promise<AuthResult> {
  if (!ctx.config.allowRegistration)
    throw authError('REGISTRATION_DISABLED', 'registration is disabled');
  await ctx.limiter.check('anonymous', { ip: info?.ip });
  // The traffic that makes guests also clears the abandoned ones (a sweep when due, not awaited).
  ctx.guests.poke();
  const user = await ctx.store.createUser({
    email: `${randomUUID()}@${ANONYMOUS_EMAIL_DOMAIN}`,
    passwordHash: null,
    isAnonymous: true,
  });
  ctx.bus.emit({ eventType: 'IdentityCreated', userId: user.id, email: user.email });
  const result = await completeSignIn(ctx, user, info, 'anonymous');
  // A user made a moment ago has no second factor to owe.
  if (!isAuthResult(result)) throw new Error('a new guest cannot owe a second factor');
  return result;
}

/** `auth.upgrade`: the caller's guest account becomes a regular one (same id). */
export async function upgrade(
  ctx: OperationContext,
  accessToken: string,
  input: UpgradeInput,
  info?: RequestInfo,
): Promise<SignInResult> {
  const { claims } = await checkAccess(ctx, accessToken);
  const guest = await ctx.store.findUserById(claims.sub);
  if (!guest) throw authError('SESSION_EXPIRED', 'the session has ended');
  if (!guest.isAnonymous)
    throw commonError('INVALID_OPERATION', 'only a guest account can be upgraded');
  if (typeof input !== 'object' || input === null)
    throw commonError('VALIDATION_ERROR', 'an upgrade body {email, password} is required');
  const email = normalizeEmail(input.email);
  if (isAnonymousEmail(email))
    throw commonError('VALIDATION_ERROR', `email must not be under ${ANONYMOUS_EMAIL_DOMAIN}`);
  const passwordHash = await hashNewPassword(ctx, input.password);
  const user = await ctx.store.upgradeAnonymousUser(guest.id, email, passwordHash);
  if (!user) throw commonError('INVALID_OPERATION', 'only a guest account can be upgraded');
  if (ctx.config.requireEmailVerification) await issueVerification(ctx, user);
  return completeSignIn(ctx, user, info, 'upgrade');
}
