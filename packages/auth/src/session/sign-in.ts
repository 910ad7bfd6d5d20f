/**
 * The one way every sign-in ends: password, magic link, magic code, OAuth, passkey, the second
 * factor of an MFA challenge. Whatever proved who the user is, `completeSignIn` decides what the
 * caller gets — an Auth result (a new session, and `IdentityAuthenticated`), or an MFA challenge
 * when the user's second factor is still owed (docs/http.md, MFA). No route issues a
 * session any other way, so no route can skip the challenge (the bypass class of bug Better
 * Auth's reports describe: a second login path that forgot MFA).
 */
import type { OperationContext } from '../context';
import { challengeFor } from '../mfa/challenge';
import type { UserRecord } from '../store/types';
import type { AuthAssuranceLevel } from '../token/verify';
import type { AuthResult, RequestInfo, SignInResult } from '../types';
import { issueSession } from './operations';

/**
 * How the user proved the first factor. `passkey` with user verification and `mfa` (the second
 * factor itself) already count as two factors; every other method owes the challenge when the
 * user has a confirmed second factor.
 */
export type SignInMethod =
  | 'password'
  | 'magic-link'
  | 'magic-code'
  | 'oauth'
  | 'passkey'
  // A passkey assertion without the user-verified flag: one factor only (the MFA challenge applies).
  | 'passkey-unverified'
  | 'mfa'
  | 'anonymous'
  | 'upgrade';

/** Issues the session of a completed sign-in and emits `IdentityAuthenticated`. */
export async function issueSignedIn(
  ctx: OperationContext,
  user: UserRecord,
  info: RequestInfo | undefined,
  aal: AuthAssuranceLevel,
): Promise<AuthResult> {
  const result = await issueSession(ctx, user, info, aal);
  ctx.bus.emit({ eventType: 'IdentityAuthenticated', userId: user.id, email: user.email });
  return result;
}

/**
 * Methods that are already two factors (a user-verified passkey; the MFA step itself) or that
 * cannot have a second factor behind them (a new guest): they never owe the challenge.
 */
const SECOND_FACTOR_DONE: ReadonlySet<SignInMethod> = new Set(['passkey', 'mfa', 'anonymous']);

/**
 * Methods whose session is `aal2` (docs/http.md, MFA): a completed MFA challenge, a
 * user-verified passkey. Every other session is `aal1`, including one of a user without a second
 * factor (nothing more was proven) and a new guest's.
 */
const TWO_FACTORS: ReadonlySet<SignInMethod> = new Set(['passkey', 'mfa']);

/**
 * The end of a sign-in by `method` for `user` (already checked: active, verified as the config
 * requires): an MFA challenge when the user has confirmed TOTP and `method` is a single factor
 * (everything but `passkey`, `mfa`, `anonymous`), else a session, `aal2` for `passkey` and `mfa`.
 */
export async function completeSignIn(
  ctx: OperationContext,
  user: UserRecord,
  info: RequestInfo | undefined,
  method: SignInMethod,
): Promise<SignInResult> {
  if (!SECOND_FACTOR_DONE.has(method)) {
    const challenge = await challengeFor(ctx, user);
    if (challenge) return challenge;
  }
  return issueSignedIn(ctx, user, info, TWO_FACTORS.has(method) ? 'aal2' : 'aal1');
}

/** An Auth result, not an MFA challenge. */
export function isAuthResult(result: SignInResult): result is AuthResult {
  return !('mfaRequired' in result);
}
