/**
 * Recovery codes: `XXXXX-XXXXX`, 10 characters from the
 * 30-character alphabet `ABCDEFGHJKMNPQRSTVWXYZ23456789` (no 0, O, 1, I, L, U), 8 per batch.
 * Stored as the SHA-256 of the user id and the normalised code, so equal codes of two users do
 * not share a hash and a leaked table cannot be matched against a list of codes alone.
 */
import { createHash } from 'node:crypto';

export const RECOVERY_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';
export const RECOVERY_CODES_PER_BATCH = 8;
const CODE_LENGTH = 10;
/** The largest multiple of 30 a byte can hold: bytes at or above it are drawn again (no modulo bias). */
const UNBIASED_LIMIT = 256 - (256 % RECOVERY_CODE_ALPHABET.length);

/** One code, `XXXXX-XXXXX`, each character uniform over the alphabet (rejection sampling). */
export function generateRecoveryCode(random: (n: number) => Buffer): string {
  let out = '';
  // Each byte is kept with probability 240/256; 64 rounds of 16 bytes cannot all fail in practice,
  // and the bound keeps a broken random source from looping forever.
  for (let round = 0; round < 64 && out.length < CODE_LENGTH; round++) {
    for (const byte of random(16)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += RECOVERY_CODE_ALPHABET[byte % RECOVERY_CODE_ALPHABET.length];
      if (out.length === CODE_LENGTH) break;
    }
  }
  if (out.length !== CODE_LENGTH) throw new Error('the random source failed to produce a code');
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** A batch of distinct codes. */
export function generateRecoveryCodes(
  random: (n: number) => Buffer,
  count: number = RECOVERY_CODES_PER_BATCH,
): string[] {
  const codes = new Set<string>();
  for (let i = 0; i < count * 4 && codes.size < count; i++) codes.add(generateRecoveryCode(random));
  if (codes.size !== count) throw new Error('the random source failed to produce distinct codes');
  return [...codes];
}

/**
 * Input as users type it: dashes and whitespace stripped, upper-cased. Null when what is left
 * cannot be a code (so it is refused without a database round trip).
 */
export function normaliseRecoveryCode(input: string): string | null {
  const clean = input.replace(/[\s-]/g, '').toUpperCase();
  if (clean.length !== CODE_LENGTH) return null;
  for (const ch of clean) if (!RECOVERY_CODE_ALPHABET.includes(ch)) return null;
  return clean;
}

/** The stored form: SHA-256 hex of `<userId>:<normalised code>`. */
export function hashRecoveryCode(userId: string, normalised: string): string {
  return createHash('sha256').update(`${userId}:${normalised}`, 'utf8').digest('hex');
}
