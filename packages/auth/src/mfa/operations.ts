/**
 * MFA operations (`auth.mfa.*`): TOTP enrolment, confirmation and removal, recovery codes, and
 * the two ways of answering the MFA challenge a sign-in returns (docs/http.md, "Auth
 * routes": MFA).
 *
 * - Enroll stores a NEW secret each time, pending (a confirmed factor goes back to pending;
 *   the previous secret stops working at once).
 * - Managing a confirmed factor needs the factor (docs/http.md, MFA; issue 26): for a
 *   user with confirmed TOTP, enrolling again, disabling TOTP and generating recovery codes (and,
 *   in webauthn/, registering or deleting a passkey) run only from an `aal2` session or with a
 *   current TOTP code or an unused recovery code as `code` (spent as at sign-in); otherwise 403
 *   MFA_REQUIRED before anything changes (`requireSecondFactor`). Without it, any session opened
 *   before TOTP was confirmed, or a stolen one-factor token, could put the factor back to pending
 *   or mint recovery codes, and the next password sign-in would skip or answer the challenge.
 * - A TOTP code is accepted once: the step it matched is recorded and a later code must match a
 *   higher step (one conditional UPDATE, so several processes agree).
 * - Every check of a code passes the `mfaVerify` rate limit first (per account and per address),
 *   and at the challenge each try is also counted against the challenge (5 tries, then it dies).
 * - Errors: a wrong code at confirm or at the challenge is 401 INVALID_CREDENTIALS (a wrong or
 *   missing second factor for managing one from an `aal1` session is 403 MFA_REQUIRED, a wrong
 *   one from an `aal2` session 401 INVALID_CREDENTIALS); a challenge that is unknown,
 *   used, expired or out of tries 401 INVALID_TOKEN; malformed input 400 VALIDATION_ERROR;
 *   confirming without a pending enrolment, or disabling without a confirmed one, 400
 *   INVALID_OPERATION.
 * - Guest (anonymous) accounts cannot enroll or hold recovery codes: INVALID_OPERATION.
 * - Disabling TOTP leaves the recovery codes in place (they gate nothing without TOTP, and work
 *   again if the user enrolls anew); generating a batch replaces them.
 */
import { commonError } from '@svc/core';
import { validateBranding } from '../branding';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import { checkAccess } from '../session/operations';
import { completeSignIn, isAuthResult } from '../session/sign-in';
import { isTokenShape, sha256Hex } from '../session/tokens';
import type { MfaProof, UserRecord } from '../store/types';
import type { AuthAssuranceLevel } from '../token/verify';
import type { AuthResult, RecoveryCodes, RequestInfo, TotpEnrollment } from '../types';
import { MFA_CHALLENGE_MAX_ATTEMPTS } from './challenge';
import {
  generateRecoveryCodes as newRecoveryCodes,
  hashRecoveryCode,
  normaliseRecoveryCode,
} from './recovery-codes';
import { secretBoxFor } from './secret-box';
import { TOTP_SECRET_BYTES, base32Encode, matchTotp, normaliseTotpCode, otpauthUri } from './totp';

/** Longest code text looked at (a recovery code with generous spacing); longer is malformed. */
const MAX_CODE_INPUT = 64;

const WRONG_CODE = 'the code is wrong or has expired';
const DEAD_CHALLENGE = 'the MFA challenge is invalid, used or expired';
const SECOND_FACTOR_NEEDED =
  'this session has not proven the second factor: send a current TOTP code or an unused recovery code as "code", or sign in again with it';

function box(ctx: OperationContext) {
  const secret = ctx.config.jwtSecret;
  if (typeof secret !== 'string') throw new Error('@svc/auth: MFA needs a jwtSecret');
  return secretBoxFor(secret);
}

/** The user of a live session, refused when it is a guest, and the session's level. */
async function accountOf(
  ctx: OperationContext,
  accessToken: string,
): Promise<{ user: UserRecord; aal: AuthAssuranceLevel; sessionId: string }> {
  const { claims, aal, sessionId } = await checkAccess(ctx, accessToken);
  const user = await ctx.store.findUserById(claims.sub);
  if (!user) throw authError('SESSION_EXPIRED', 'the session has ended');
  if (user.isAnonymous)
    throw commonError(
      'INVALID_OPERATION',
      'a guest account cannot use multi-factor authentication',
    );
  return { user, aal, sessionId };
}

function codeInput(code: unknown): string {
  if (typeof code !== 'string' || code.length === 0 || code.length > MAX_CODE_INPUT) {
    throw commonError(
      'VALIDATION_ERROR',
      `"code" is required and must be a string of at most ${MAX_CODE_INPUT} characters`,
    );
  }
  return code;
}

function totpCodeInput(code: unknown): string {
  const text = codeInput(code);
  const clean = normaliseTotpCode(text);
  if (!clean) throw commonError('VALIDATION_ERROR', '"code" must be the 6-digit TOTP code');
  return clean;
}

function challengeInput(challengeToken: unknown): string {
  if (typeof challengeToken !== 'string' || challengeToken.length === 0) {
    throw commonError('VALIDATION_ERROR', '"challengeToken" is required and must be a string');
  }
  if (!isTokenShape(challengeToken)) throw authError('INVALID_TOKEN', DEAD_CHALLENGE);
  return challengeToken;
}

function failed(
  ctx: OperationContext,
  reason: string,
  userId: string,
  info: RequestInfo | undefined,
  code: 'INVALID_CREDENTIALS' | 'MFA_REQUIRED' = 'INVALID_CREDENTIALS',
): never {
  ctx.logger?.warn({ reason, userId, ip: info?.ip ?? null }, 'mfa verification failed');
  throw authError(code, WRONG_CODE);
}

/** The step a TOTP code matches for a confirmed or pending factor, or null. */
async function totpStep(
  ctx: OperationContext,
  user: UserRecord,
  code: string,
  factor: { secretCiphertext: string; lastUsedStep: number | null },
): Promise<number | null> {
  const key = box(ctx).open(factor.secretCiphertext, user.id);
  if (!key) {
    // Sealed under another server secret (jwtSecret changed): the factor cannot be used.
    ctx.logger?.warn({ userId: user.id }, 'a TOTP secret could not be opened (jwtSecret changed?)');
    return null;
  }
  return matchTotp(key, code, ctx.now(), factor.lastUsedStep);
}

/**
 * The guard of every operation that manages a confirmed second factor (see the header): passes
 * when the user has no confirmed TOTP, or the session is `aal2` and sent no `code`; otherwise
 * `code` must be a current TOTP code (its step is used up) or an unused recovery code (burned),
 * checked after the `mfaVerify` rate limit like every other code. A `code` that is sent is always
 * checked, never ignored: a wrong one from an `aal2` session is 401 INVALID_CREDENTIALS (the
 * session is good, the code is not; what `disable {code}` answered before assurance levels), and
 * from any other session, like a missing one, 403 MFA_REQUIRED. Not a string of at most 64
 * characters: 400 VALIDATION_ERROR. Resolves true when the second factor was proven (by the
 * session or the code), false when the user has none to prove.
 */
export async function requireSecondFactor(
  ctx: OperationContext,
  user: UserRecord,
  aal: AuthAssuranceLevel,
  code: unknown,
  info: RequestInfo | undefined,
): Promise<boolean> {
  const sent = code !== undefined && code !== null && code !== '';
  if (aal === 'aal2' && !sent) return true;
  const factor = await ctx.store.totpFactor(user.id);
  if (!factor?.confirmedAt) return aal === 'aal2';
  if (!sent) throw authError('MFA_REQUIRED', SECOND_FACTOR_NEEDED);
  const text = codeInput(code);
  await ctx.limiter.check('mfaVerify', { email: user.email, ip: info?.ip });
  if (await spendCode(ctx, user, text, factor)) return true;
  failed(ctx, 'step-up', user.id, info, aal === 'aal2' ? 'INVALID_CREDENTIALS' : 'MFA_REQUIRED');
}

/**
 * Spends `text` as the user's second factor: a current TOTP code of the confirmed factor (its
 * step recorded, so it cannot serve twice) or an unused recovery code (burned). False: neither.
 */
async function spendCode(
  ctx: OperationContext,
  user: UserRecord,
  text: string,
  factor: { secretCiphertext: string; lastUsedStep: number | null },
): Promise<boolean> {
  const totpCode = normaliseTotpCode(text);
  if (totpCode) {
    const step = await totpStep(ctx, user, totpCode, factor);
    return step !== null && (await ctx.store.useTotpStep(user.id, step));
  }
  const recovery = normaliseRecoveryCode(text);
  return (
    recovery !== null &&
    (await ctx.store.consumeRecoveryCode(user.id, hashRecoveryCode(user.id, recovery)))
  );
}

/**
 * `auth.mfa.enrollTotp`: a new secret, pending until confirmed; the previous one dies. With
 * confirmed TOTP, an `aal2` session or `code` (see `requireSecondFactor`).
 */
export async function enrollTotp(
  ctx: OperationContext,
  accessToken: string,
  code?: string,
  info?: RequestInfo,
): Promise<TotpEnrollment> {
  const { user, aal } = await accountOf(ctx, accessToken);
  await requireSecondFactor(ctx, user, aal, code, info);
  const key = ctx.random(TOTP_SECRET_BYTES);
  await ctx.store.putTotpSecret(user.id, box(ctx).seal(key, user.id));
  const secret = base32Encode(key);
  const issuer = validateBranding(ctx.config.branding).appName;
  return { secret, otpauthUri: otpauthUri(issuer, user.email, secret) };
}

/** `auth.mfa.confirmTotp`: a code of the pending secret confirms it (and is used up). */
export async function confirmTotp(
  ctx: OperationContext,
  accessToken: string,
  code: string,
  info?: RequestInfo,
): Promise<void> {
  const { user, sessionId } = await accountOf(ctx, accessToken);
  const clean = totpCodeInput(code);
  await ctx.limiter.check('mfaVerify', { email: user.email, ip: info?.ip });
  const factor = await ctx.store.totpFactor(user.id);
  if (!factor) throw commonError('INVALID_OPERATION', 'no TOTP enrolment to confirm: enroll first');
  if (factor.confirmedAt) throw commonError('INVALID_OPERATION', 'TOTP is already confirmed');
  const step = await totpStep(ctx, user, clean, factor);
  if (step === null) failed(ctx, 'totp-confirm', user.id, info);
  // Refused when a concurrent enroll replaced the secret or a concurrent confirm won.
  if (!(await ctx.store.confirmTotp(user.id, factor.secretCiphertext, step)))
    failed(ctx, 'totp-confirm-raced', user.id, info);
  // The confirming session has just proven the factor with a current code: it is aal2 from now
  // on (as GoTrue's enrolment verify), so the user can go on to generate recovery codes.
  await ctx.store.raiseSessionAssurance(sessionId);
}

/**
 * `auth.mfa.disableTotp`: removes the confirmed enrolment, given a current TOTP code (used up)
 * or an unused recovery code (burned) as `code`, from any session (the code is the proof).
 */
export async function disableTotp(
  ctx: OperationContext,
  accessToken: string,
  code?: string,
  info?: RequestInfo,
): Promise<void> {
  const { user, aal } = await accountOf(ctx, accessToken);
  const factor = await ctx.store.totpFactor(user.id);
  if (!factor?.confirmedAt) throw commonError('INVALID_OPERATION', 'TOTP is not enabled');
  // Disabling always takes `{code}` (the route's contract, docs/http.md), from an aal2 session too: 400 without
  // one there; from any other session the assurance rule answers first (403 MFA_REQUIRED).
  if (aal === 'aal2') codeInput(code);
  await requireSecondFactor(ctx, user, aal, code, info);
  await ctx.store.deleteTotp(user.id);
}

/**
 * `auth.mfa.generateRecoveryCodes`: 8 new codes, shown this once; every earlier code dies. With
 * confirmed TOTP, an `aal2` session or `code` (see `requireSecondFactor`).
 */
export async function generateRecoveryCodes(
  ctx: OperationContext,
  accessToken: string,
  code?: string,
  info?: RequestInfo,
): Promise<RecoveryCodes> {
  const { user, aal } = await accountOf(ctx, accessToken);
  await requireSecondFactor(ctx, user, aal, code, info);
  const codes = newRecoveryCodes(ctx.random);
  await ctx.store.replaceRecoveryCodes(
    user.id,
    codes.map((c) => hashRecoveryCode(user.id, normaliseRecoveryCode(c) as string)),
  );
  return { codes };
}

/**
 * Answers a challenge: counts the try, checks the user and the rate limit, asks `prove` for the
 * proof, then consumes the challenge and spends the proof together and finishes the sign-in.
 */
async function answerChallenge(
  ctx: OperationContext,
  challengeToken: string,
  info: RequestInfo | undefined,
  prove: (user: UserRecord) => Promise<MfaProof | null>,
): Promise<AuthResult> {
  const hash = sha256Hex(challengeToken);
  const userId = await ctx.store.attemptMfaChallenge(hash, MFA_CHALLENGE_MAX_ATTEMPTS);
  if (!userId) throw authError('INVALID_TOKEN', DEAD_CHALLENGE);
  const user = await ctx.store.findUserById(userId);
  if (!user) throw authError('INVALID_TOKEN', DEAD_CHALLENGE);
  if (!user.active) throw authError('USER_INACTIVE', 'the account is deactivated');
  await ctx.limiter.check('mfaVerify', { email: user.email, ip: info?.ip });
  const proof = await prove(user);
  if (!proof) failed(ctx, 'mfa-challenge', user.id, info);
  const outcome = await ctx.store.completeMfaChallenge(hash, proof);
  if (outcome === 'challenge-dead') throw authError('INVALID_TOKEN', DEAD_CHALLENGE);
  if (outcome === 'proof-refused') failed(ctx, 'mfa-challenge-replay', user.id, info);
  const result = await completeSignIn(ctx, user, info, 'mfa');
  // 'mfa' never owes a challenge (sign-in.ts); a challenge here would be a bug, not a session.
  if (!isAuthResult(result)) throw new Error('an MFA sign-in returned a challenge');
  return result;
}

/** `auth.mfa.totpLogin`: the challenge token and a current TOTP code → Auth result. */
export async function totpLogin(
  ctx: OperationContext,
  challengeToken: string,
  code: string,
  info?: RequestInfo,
): Promise<AuthResult> {
  const token = challengeInput(challengeToken);
  const clean = totpCodeInput(code);
  return answerChallenge(ctx, token, info, async (user) => {
    const factor = await ctx.store.totpFactor(user.id);
    if (!factor?.confirmedAt) return null;
    const step = await totpStep(ctx, user, clean, factor);
    return step === null ? null : { kind: 'totp', step };
  });
}

/** `auth.mfa.recoveryCodeLogin`: the challenge token and an unused recovery code (burned) → Auth result. */
export async function recoveryCodeLogin(
  ctx: OperationContext,
  challengeToken: string,
  code: string,
  info?: RequestInfo,
): Promise<AuthResult> {
  const token = challengeInput(challengeToken);
  const text = codeInput(code);
  return answerChallenge(ctx, token, info, async (user) => {
    const clean = normaliseRecoveryCode(text);
    return clean === null
      ? null
      : { kind: 'recovery-code', codeHash: hashRecoveryCode(user.id, clean) };
  });
}
