/**
 * Passwordless sign-in (docs/http.md, "Auth routes": passwordless and rate
 * limits): magic links and 6-digit magic codes, sent by email (or a webhook) and
 * redeemed for a sign-in that ends, like every other, in `completeSignIn` (a session, or the MFA
 * challenge when the user owes a second factor).
 *
 * - Requests answer alike for known, unknown, inactive and malformed emails (the route answers
 *   200 `{success, message}`); the secret travels only in the event (email, webhook), never in a
 *   response. An unknown email (implicit signup off) persists nothing, yet makes a token, digests
 *   it and spends one database round trip like a real request, so timing tells little.
 * - Magic links: 32 random bytes, SHA-256 at rest, 15 minutes, single use (`consumed_at` set by
 *   one conditional UPDATE before anything else, so also when a challenge is answered); a newer
 *   link kills the user's earlier ones. With `allowImplicitSignup`, an unknown email gets a
 *   signup token kept apart (its own table) carrying the pending email; redeeming it creates the
 *   user with `emailVerified` true (IdentityCreated) and signs it in. `allowRegistration` false
 *   closes this door too.
 * - Magic codes: 6 uniform digits, an HMAC under a key derived from `jwtSecret` at rest (see
 *   codes.ts), 10 minutes, single use, dead after 5 wrong tries (counted in the same UPDATE that
 *   checks), and a new request kills the old code. Codes sign in existing accounts only.
 * - Redeeming a link or a code proves the address (`proveAddress`, as OAuth does): an unverified
 *   email becomes verified (EmailVerified), so `requireEmailVerification` does not refuse it, and
 *   whatever was set before the proof (password, passkeys, sessions...) is dropped in the same
 *   transaction: whoever set it never proved the address (issue 26, pre-account takeover). An
 *   inactive account is refused with USER_INACTIVE, as login refuses it.
 * - Rate limits (the rules `magicLinkRequest`, `magicLinkConsume`, `magicCodeRequest`,
 *   `magicCodeVerify`) are counted before any lookup: per client IP, and per email where the
 *   request names one.
 */
import { randomUUID } from 'node:crypto';
import { commonError } from '@svc/core';
import { emailForLookup } from '../account';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import { isAnonymousEmail } from '../guest/operations';
import { isTokenShape, randomToken, sha256Hex } from '../session/tokens';
import { completeSignIn, type SignInMethod } from '../session/sign-in';
import { proveAddress } from '../verification/operations';
import type { UserRecord } from '../store/types';
import type { RequestInfo, SignInResult } from '../types';
import { magicCodeDigest, readCode, sixDigitCode } from './codes';

/** Magic links live 15 minutes (docs/http.md). */
export const MAGIC_LINK_TTL_SECONDS = 15 * 60;
/** Magic codes live 10 minutes (docs/http.md). */
export const MAGIC_CODE_TTL_SECONDS = 10 * 60;
/** A magic code dies after this many wrong tries (docs/http.md). */
export const MAGIC_CODE_MAX_ATTEMPTS = 5;

const LINK_REFUSED = 'the magic link is invalid, used or expired';
const CODE_REFUSED = 'the code is invalid, used or expired';

/**
 * Whether an unknown email may sign up by magic link: `allowImplicitSignup`, and registration
 * open (`allowRegistration` false closes implicit signup too, as Supabase's signup switch does).
 */
function implicitSignup(ctx: OperationContext): boolean {
  return ctx.config.allowImplicitSignup && ctx.config.allowRegistration;
}

/**
 * The email of a request: a string is required; any string is then looked up (null: cannot be an
 * address, or a guest's synthetic address, which reaches no one and may not sign up).
 */
function requestedEmail(email: unknown): string | null {
  if (typeof email !== 'string' || email.length === 0)
    throw commonError('VALIDATION_ERROR', '"email" is required and must be a non-empty string');
  const normalized = emailForLookup(email);
  return normalized === null || isAnonymousEmail(normalized) ? null : normalized;
}

/**
 * `auth.requestMagicLink`: resolves for any email. A known active account gets a link
 * (MagicLinkRequested); an unknown email gets a signup link with `allowImplicitSignup`
 * (MagicLinkSignupRequested, `pendingEmail`); otherwise nothing is stored or sent.
 */
export async function requestMagicLink(
  ctx: OperationContext,
  email: string,
  info?: RequestInfo,
): Promise<void> {
  const normalized = requestedEmail(email);
  if (normalized === null) return;
  await ctx.limiter.check('magicLinkRequest', { email: normalized, ip: info?.ip });
  const user = await ctx.store.findUserByEmail(normalized);
  // Made in every case: an unknown email costs the same randomness and hashing as a known one.
  const token = randomToken(ctx.random);
  const hash = sha256Hex(token);
  const expiresAt = new Date(ctx.now() + MAGIC_LINK_TTL_SECONDS * 1000);
  if (user?.active) {
    await ctx.store.issueMagicLinkToken(user.id, hash, expiresAt);
    ctx.bus.emit({
      eventType: 'MagicLinkRequested',
      userId: user.id,
      email: user.email,
      magicLinkToken: token,
    });
    return;
  }
  if (!user && implicitSignup(ctx)) {
    await ctx.store.issueMagicLinkSignupToken(normalized, hash, expiresAt);
    ctx.bus.emit({
      eventType: 'MagicLinkSignupRequested',
      pendingEmail: normalized,
      magicLinkToken: token,
    });
    return;
  }
  // Nothing persisted: the token's digest is new, so this conditional UPDATE matches no row. It
  // stands in for the write a real request makes (one round trip, the same tables).
  await ctx.store.redeemMagicLink(hash);
}

/**
 * `auth.consumeMagicLink`: redeems a link (single use, even when the answer is an MFA challenge)
 * and signs its user in; a signup link creates the account first. INVALID_TOKEN for a link that
 * is unknown, used, expired or superseded.
 */
export async function consumeMagicLink(
  ctx: OperationContext,
  token: string,
  info?: RequestInfo,
): Promise<SignInResult> {
  if (typeof token !== 'string' || token.length === 0)
    throw commonError('VALIDATION_ERROR', '"token" is required and must be a non-empty string');
  await ctx.limiter.check('magicLinkConsume', { ip: info?.ip });
  if (!isTokenShape(token)) throw authError('INVALID_TOKEN', LINK_REFUSED);
  const redeemed = await ctx.store.redeemMagicLink(sha256Hex(token));
  if (!redeemed) throw authError('INVALID_TOKEN', LINK_REFUSED);
  if (redeemed.kind === 'signup') return signUpByLink(ctx, redeemed.email, info);
  const user = await ctx.store.findUserById(redeemed.userId);
  if (!user) throw authError('INVALID_TOKEN', LINK_REFUSED);
  return signInProven(ctx, user, info, 'magic-link');
}

/**
 * `auth.requestMagicCode`: resolves for any email; a known active account gets a new code (the
 * earlier one dies) in a MagicCodeRequested event.
 */
export async function requestMagicCode(
  ctx: OperationContext,
  email: string,
  info?: RequestInfo,
): Promise<void> {
  const normalized = requestedEmail(email);
  if (normalized === null) return;
  await ctx.limiter.check('magicCodeRequest', { email: normalized, ip: info?.ip });
  const user = await ctx.store.findUserByEmail(normalized);
  const code = sixDigitCode(ctx.random);
  const digest = magicCodeDigest(ctx, user?.id ?? normalized, code);
  if (user?.active) {
    await ctx.store.issueMagicCode(
      user.id,
      digest,
      new Date(ctx.now() + MAGIC_CODE_TTL_SECONDS * 1000),
    );
    ctx.bus.emit({
      eventType: 'MagicCodeRequested',
      userId: user.id,
      email: user.email,
      magicCode: code,
    });
    return;
  }
  // Nothing persisted: a check for an account that does not exist matches no row.
  await ctx.store.verifyMagicCode(randomUUID(), digest, MAGIC_CODE_MAX_ATTEMPTS);
}

/**
 * `auth.verifyMagicCode`: the email's live code, then a sign-in. VALIDATION_ERROR when the code
 * is not six digits (no try is counted); INVALID_TOKEN for a wrong, used, expired or exhausted
 * code and for an email with no code (no enumeration).
 */
export async function verifyMagicCode(
  ctx: OperationContext,
  email: string,
  code: string,
  info?: RequestInfo,
): Promise<SignInResult> {
  const normalized = requestedEmail(email);
  if (typeof code !== 'string' || code.length === 0)
    throw commonError('VALIDATION_ERROR', '"code" is required and must be a non-empty string');
  const digits = readCode(code.slice(0, 64));
  if (digits === null) throw commonError('VALIDATION_ERROR', '"code" must be 6 digits');
  await ctx.limiter.check('magicCodeVerify', { email: normalized ?? email, ip: info?.ip });
  const user = normalized === null ? null : await ctx.store.findUserByEmail(normalized);
  const subject = user?.id ?? randomUUID();
  const outcome = await ctx.store.verifyMagicCode(
    subject,
    magicCodeDigest(ctx, subject, digits),
    MAGIC_CODE_MAX_ATTEMPTS,
  );
  if (!user || outcome !== 'ok') {
    ctx.logger?.warn(
      { reason: outcome === 'wrong' ? 'wrong code' : 'no live code', ip: info?.ip ?? null },
      'magic code refused',
    );
    throw authError('INVALID_TOKEN', CODE_REFUSED);
  }
  return signInProven(ctx, user, info, 'magic-code');
}

/**
 * The end of a link or code redemption for an existing account: refused when inactive; the
 * address is proven (`proveAddress`: an unverified one becomes verified and what was set before
 * the proof is dropped); then the one sign-in ending.
 */
async function signInProven(
  ctx: OperationContext,
  user: UserRecord,
  info: RequestInfo | undefined,
  method: SignInMethod,
): Promise<SignInResult> {
  if (!user.active) throw authError('USER_INACTIVE', 'the account is deactivated');
  const proven = await proveAddress(ctx, user);
  // The account is gone (deleted since the lookup): the secret named no one.
  if (!proven)
    throw authError('INVALID_TOKEN', method === 'magic-code' ? CODE_REFUSED : LINK_REFUSED);
  return completeSignIn(ctx, proven, info, method);
}

/** A redeemed signup link: the account (verified, no password), IdentityCreated, the sign-in. */
async function signUpByLink(
  ctx: OperationContext,
  email: string,
  info: RequestInfo | undefined,
): Promise<SignInResult> {
  // The switches are read when the link is used too: turning signup off stops links in flight.
  if (!implicitSignup(ctx)) throw authError('INVALID_TOKEN', LINK_REFUSED);
  let user: UserRecord;
  try {
    user = await ctx.store.createUser({ email, passwordHash: null, emailVerified: true });
  } catch (err) {
    // The address got an account after the link was sent (registration, another signup link):
    // the link still proves the address, so it signs that account in.
    if ((err as { code?: unknown })?.code !== 'USER_ALREADY_EXISTS') throw err;
    const existing = await ctx.store.findUserByEmail(email);
    if (!existing) throw err;
    return signInProven(ctx, existing, info, 'magic-link');
  }
  ctx.bus.emit({ eventType: 'IdentityCreated', userId: user.id, email: user.email });
  return completeSignIn(ctx, user, info, 'magic-link');
}
