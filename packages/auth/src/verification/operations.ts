/**
 * Email verification: a one-time token (a day) in an EmailVerificationRequested event at
 * registration (with `requireEmailVerification`) and on request; consuming it marks the email
 * verified. A newer token kills the older ones. `login` refuses an unverified user with
 * EMAIL_NOT_VERIFIED when verification is required.
 *
 * `proveAddress` is the other way an address becomes verified: a sign-in that proves it (a magic
 * link or code sent to it, an OAuth provider vouching for it). Magic links, magic codes and OAuth
 * all end there, so the pre-account rule (docs/http.md, "Passwordless") holds for each alike: the
 * first proof of an unverified address drops what was set before it (the store's `proveEmail`).
 * The verification link is not such a proof: it confirms the registration it was sent for, the
 * password of that registration included, so it clears nothing.
 */
import { userForEmailRequest } from '../account/lookup';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import { isTokenShape, randomToken, sha256Hex } from '../session/tokens';
import type { OAuthIdentity, UserRecord } from '../store/types';
import type { RequestInfo } from '../types';

/** Verification links live a day. */
export const VERIFICATION_TOKEN_TTL_SECONDS = 24 * 3600;

/** Stores a new verification token for `user` (the earlier ones die) and emits it. */
export async function issueVerification(ctx: OperationContext, user: UserRecord): Promise<void> {
  const token = randomToken(ctx.random);
  await ctx.store.issueVerificationToken(
    user.id,
    sha256Hex(token),
    new Date(ctx.now() + VERIFICATION_TOKEN_TTL_SECONDS * 1000),
  );
  ctx.bus.emit({
    eventType: 'EmailVerificationRequested',
    userId: user.id,
    email: user.email,
    verificationToken: token,
  });
}

/** `auth.verifyEmail`: consumes the token and marks the email verified (EmailVerified). */
export async function verifyEmail(ctx: OperationContext, verificationToken: string): Promise<void> {
  if (!isTokenShape(verificationToken))
    throw authError('INVALID_TOKEN', 'the verification token is invalid, used or expired');
  const userId = await ctx.store.consumeVerificationToken(sha256Hex(verificationToken));
  if (!userId)
    throw authError('INVALID_TOKEN', 'the verification token is invalid, used or expired');
  await ctx.store.markEmailVerified(userId);
  const user = await ctx.store.findUserById(userId);
  ctx.bus.emit({ eventType: 'EmailVerified', userId, ...(user ? { email: user.email } : {}) });
}

/** `auth.resendVerification`: resolves for any email; a known unverified one gets a new token. */
export async function resendVerification(
  ctx: OperationContext,
  email: string,
  info?: RequestInfo,
): Promise<void> {
  const user = await userForEmailRequest(ctx, 'verificationResend', email, info);
  if (!user || user.emailVerified) return;
  await issueVerification(ctx, user);
}

/**
 * A sign-in proved `user`'s address (issue 26): the store verifies it and, when it was not
 * verified yet, drops the password, passkeys, earlier provider links, sessions and whatever else
 * was set or held before the proof, in one transaction (`AuthStore.proveEmail`); then
 * EmailVerified. With `link`, the provider account is linked in that transaction too. The user as
 * it is after; null when the account is gone.
 */
export async function proveAddress(
  ctx: OperationContext,
  user: UserRecord,
  link?: OAuthIdentity,
): Promise<UserRecord | null> {
  // A verified address stays verified: without a link to make, there is nothing to write.
  if (user.emailVerified && !link) return user;
  const proof = await ctx.store.proveEmail(user.id, link);
  if (!proof) return null;
  if (proof.proved) {
    ctx.logger?.info?.(
      { userId: user.id },
      'email address proven by a sign-in: the credentials and sessions from before the proof are dropped',
    );
    ctx.bus.emit({ eventType: 'EmailVerified', userId: user.id, email: proof.user.email });
  }
  return proof.user;
}
