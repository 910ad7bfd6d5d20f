/**
 * The MFA challenge (docs/http.md, "Auth routes"): what a sign-in answers instead of a session
 * while the user owes a second factor. The token is 32 random bytes (base64url), stored as its
 * SHA-256 only; it lives 5 minutes, is consumed by the one answer that completes it, and dies
 * after `MFA_CHALLENGE_MAX_ATTEMPTS` tries (right or wrong: each try is counted before the code is
 * looked at, in one conditional UPDATE, so concurrent guesses cannot exceed the bound).
 */
import type { OperationContext } from '../context';
import { randomToken, sha256Hex } from '../session/tokens';
import type { UserRecord } from '../store/types';
import type { MfaChallenge } from '../types';

export const MFA_CHALLENGE_TTL_SECONDS = 5 * 60;
/** Tries per challenge: the 5th wrong code kills it (the user signs in again for a new one). */
export const MFA_CHALLENGE_MAX_ATTEMPTS = 5;

/**
 * The challenge `user` owes, or null when the user has no confirmed TOTP (a pending enrolment
 * does not gate sign-in). One query decides; a second opens the challenge.
 */
export async function challengeFor(
  ctx: OperationContext,
  user: UserRecord,
): Promise<MfaChallenge | null> {
  const state = await ctx.store.mfaState(user.id);
  if (!state.totpConfirmed) return null;
  const challengeToken = randomToken(ctx.random);
  const expiresAt = new Date(ctx.now() + MFA_CHALLENGE_TTL_SECONDS * 1000);
  await ctx.store.createMfaChallenge(sha256Hex(challengeToken), user.id, expiresAt);
  return {
    mfaRequired: true,
    challengeToken,
    methods: state.unusedRecoveryCodes > 0 ? ['totp', 'recovery_code'] : ['totp'],
    expiresAt: expiresAt.toISOString(),
  };
}
