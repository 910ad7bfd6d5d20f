/**
 * The secrets of passwordless sign-in: 6-digit codes drawn uniformly, and the keyed digest a code
 * is stored as. A bare SHA-256 of six digits falls to a million guesses; the digest here is an
 * HMAC-SHA256 under a key derived from the server's `jwtSecret`, over the user id and the code, so
 * a copy of the table reveals no code (without the secret) and one user's digest says nothing of
 * another's.
 */
import { createHash, createHmac, randomInt } from 'node:crypto';
import type { OperationContext } from '../context';

/** Draws before giving up on rejection sampling (each draw is rejected with p < 0.0002). */
const MAX_DRAWS = 64;
/** The largest multiple of 10^6 not above 2^32: values below it map onto 0..999999 uniformly. */
const UNIFORM_BOUND = Math.floor(2 ** 32 / 1_000_000) * 1_000_000;

/** Six decimal digits, uniform over 000000..999999, from `random` (rejection sampling). */
export function sixDigitCode(random: (n: number) => Buffer): string {
  for (let i = 0; i < MAX_DRAWS; i++) {
    const n = random(4).readUInt32BE(0);
    if (n < UNIFORM_BOUND) return String(n % 1_000_000).padStart(6, '0');
  }
  // A source that keeps returning the top of the range is broken; the system's CSPRNG is not.
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** A code as a user may type it: six digits, spaces and dashes between them ignored. */
export function readCode(value: string): string | null {
  const digits = value.replace(/[\s-]/g, '');
  return /^[0-9]{6}$/.test(digits) ? digits : null;
}

const keys = new WeakMap<OperationContext['config'], Buffer>();

/** The HMAC key of magic codes: derived from `jwtSecret` (domain-separated), cached per config. */
function codeKey(ctx: OperationContext): Buffer {
  let key = keys.get(ctx.config);
  if (!key) {
    const secret = ctx.config.jwtSecret;
    if (typeof secret !== 'string' || secret.length === 0)
      throw new Error('magic codes need the jwtSecret of the auth config');
    key = createHash('sha256').update('svc-auth/magic-code/v1\0').update(secret).digest();
    keys.set(ctx.config, key);
  }
  return key;
}

/** The stored form of `code` for the account `subject` (a user id): HMAC-SHA256 hex. */
export function magicCodeDigest(ctx: OperationContext, subject: string, code: string): string {
  return createHmac('sha256', codeKey(ctx)).update(`${subject}\0${code}`).digest('hex');
}
