import { randomBytes } from 'node:crypto';
import { commonError } from '@svc/core';
import { authError } from '../errors';
import { nfkc } from '../account/text';
import { type BcryptPool, bcryptPool } from './pool';

export interface PasswordPolicy {
  readonly minLength: number;
  readonly requireNumbers: boolean;
  readonly requireSpecial: boolean;
  readonly requireUppercase: boolean;
}

/** bcrypt reads at most 72 bytes; a longer password would be silently truncated, so it is refused. */
export const PASSWORD_MAX_BYTES = 72;

/** Every requirement of the policy, in words (the PASSWORD_TOO_WEAK message lists all of them). */
export function describePolicy(policy: PasswordPolicy): string {
  const parts = [`at least ${policy.minLength} characters`, `at most ${PASSWORD_MAX_BYTES} bytes`];
  if (policy.requireNumbers) parts.push('a number');
  if (policy.requireUppercase) parts.push('an uppercase letter');
  if (policy.requireSpecial) parts.push('a special character');
  return `the password needs ${parts.join(', ')}`;
}

/** The requirements `password` misses (empty: it passes). */
export function policyFailures(password: string, policy: PasswordPolicy): string[] {
  const failures: string[] = [];
  if ([...password].length < policy.minLength) failures.push('too short');
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) failures.push('too long');
  if (policy.requireNumbers && !/\p{Nd}/u.test(password)) failures.push('no number');
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) failures.push('no uppercase letter');
  if (policy.requireSpecial && !/[^\p{L}\p{N}\s]/u.test(password))
    failures.push('no special character');
  return failures;
}

/**
 * The one presence check of a password field (`password`, `old_password`, `new_password`: named
 * as the request body names them), for a
 * new password (through `checkPassword`) and for one to compare (login, change): a non-empty
 * string, else VALIDATION_ERROR `<field> is required`.
 */
export function requirePassword(password: unknown, field = 'password'): asserts password is string {
  if (typeof password !== 'string' || password.length === 0) {
    throw commonError('VALIDATION_ERROR', `${field} is required`);
  }
}

/**
 * Throws VALIDATION_ERROR for a missing/empty password or one that is not Unicode text,
 * PASSWORD_TOO_WEAK for one the policy refuses. The policy judges the NFKC form, the one hashed.
 */
export function checkPassword(
  password: unknown,
  policy: PasswordPolicy,
  field = 'password',
): asserts password is string {
  requirePassword(password, field);
  const failures = policyFailures(nfkc(password, field), policy);
  if (failures.length > 0) {
    throw authError('PASSWORD_TOO_WEAK', `${describePolicy(policy)} (${failures.join(', ')})`);
  }
}

/**
 * How a password matched its hash: `'match'` (the NFKC form, as hashed since passwords are
 * normalised) or `'legacy'` (the raw text, for a hash made before: the caller rehashes it).
 */
export type PasswordMatch = false | 'match' | 'legacy';

/**
 * bcrypt (pure JavaScript, in the worker pool of `./pool`: the work never runs on the event loop),
 * with a dummy hash of the same cost for unknown logins, so a login for an email that does not
 * exist costs what one for an email that does.
 *
 * Passwords are hashed in their NFKC form (NIST SP 800-63B 5.1.1.2), so `pässwort` typed as
 * composed or decomposed characters is one password. A hash made before this normalisation is of
 * the raw text: `verify` tries the NFKC form, then, when the raw text differs from it, the raw
 * text (`'legacy'`). `burn` pays for the same number of compares, so timing does not tell either.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string | null): Promise<PasswordMatch>;
  /** Compares against the dummy hash and returns false: the cost of a real check, no answer. */
  burn(password: string): Promise<false>;
  readonly rounds: number;
}

export function createPasswordHasher(
  rounds: number,
  pool: BcryptPool = bcryptPool(),
): PasswordHasher {
  const dummy = dummyBcryptHash(rounds);
  const hasher: PasswordHasher = {
    rounds,
    hash: (password) => pool.hash(nfkc(password, 'password'), rounds),
    async verify(password, hash) {
      if (!hash) return hasher.burn(password);
      const normalized = nfkc(password, 'password');
      if (await pool.compare(normalized, hash)) return 'match';
      if (normalized !== password && (await pool.compare(password, hash))) return 'legacy';
      return false;
    },
    async burn(password) {
      const normalized = nfkc(password, 'password');
      await pool.compare(normalized, dummy);
      if (normalized !== password) await pool.compare(password, dummy);
      return false;
    },
  };
  return hasher;
}

/** bcrypt's base64 alphabet, in the order of the standard one's (same bits, other characters). */
const BCRYPT_BASE64 = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const STANDARD_BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * `bytes` random bytes in bcrypt's base64, `length` characters long. Ours, not bcryptjs's
 * `encodeBase64`: bcryptjs is loaded only inside the hashing workers, and importing it here would
 * load it into every server's main thread (`server/test/idle-modules.pglite.test.ts` holds that).
 */
function bcryptBase64(bytes: number, length: number): string {
  const standard = randomBytes(bytes).toString('base64');
  let out = '';
  for (let i = 0; i < length; i++) out += BCRYPT_BASE64[STANDARD_BASE64.indexOf(standard[i]!)];
  return out;
}

/**
 * A hash no password was hashed to: bcrypt's `$2b$`, the cost, a random salt (16 bytes) and a
 * random digest (23 bytes), in its 60 characters. Comparing a password with it costs what a real
 * compare of that cost does (the password is hashed with the salt and cost read from it, then the
 * digests are compared), and it never matches. Made without hashing anything, so a process that
 * never checks a password (`svc admin`, a test) starts no bcrypt worker for it.
 */
export function dummyBcryptHash(rounds: number): string {
  return `$2b$${String(rounds).padStart(2, '0')}$${bcryptBase64(16, 22)}${bcryptBase64(23, 31)}`;
}
