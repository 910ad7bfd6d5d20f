import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh secret: 32 random bytes, base64url (43 characters). */
export function randomToken(random: (n: number) => Buffer = randomBytes): string {
  return random(32).toString('base64url');
}

/** SHA-256 hex digest: how every random secret is stored and looked up. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time equality of two secrets (compares their SHA-256 digests, so lengths may differ). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}

/** A plausible secret token: base64url, 16 to 512 characters. Anything else is refused unseen. */
export function isTokenShape(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= 16 &&
    value.length <= 512 &&
    /^[A-Za-z0-9_-]+$/.test(value)
  );
}
