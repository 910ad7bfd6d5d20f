/**
 * TOTP (RFC 6238) over HOTP (RFC 4226) with node:crypto's HMAC, and the pieces around it: RFC
 * 4648 base32 for the shared secret, the `otpauth://` key URI authenticator apps scan.
 *
 * RFC 6238 with these parameters: SHA-1, 30-second steps, 6 digits, a verification
 * window of one step either side. `hotp` takes the digit count and algorithm so the RFC's
 * Appendix B vectors (8 digits, SHA-1) run through the same function.
 */
import { createHmac } from 'node:crypto';
import { secretsEqual } from '../session/tokens';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1;
/** 160 bits: RFC 4226 section 4 recommends it (and it is SHA-1's block-friendly key size). */
export const TOTP_SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, upper case, without `=` padding (what authenticator apps expect). */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** RFC 4648 base32 (padding, spaces and case ignored); null when a character is not base32. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of clean) {
    const v = BASE32.indexOf(ch);
    if (v < 0) return null;
    buffer = (buffer << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP: HMAC of the 8-byte big-endian counter, dynamic truncation, `digits` decimal digits. */
export function hotp(
  key: Uint8Array,
  counter: number,
  digits: number = TOTP_DIGITS,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1',
): string {
  if (!Number.isSafeInteger(counter) || counter < 0) throw new RangeError('bad HOTP counter');
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(msg).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The RFC 6238 time step (T) of a Unix time in milliseconds. */
export function timeStep(ms: number, period: number = TOTP_PERIOD_SECONDS): number {
  return Math.floor(ms / 1000 / period);
}

/** The TOTP code for a Unix time in milliseconds. */
export function totp(key: Uint8Array, ms: number, digits: number = TOTP_DIGITS): string {
  return hotp(key, timeStep(ms), digits);
}

/**
 * The time step `code` matches within the window around `ms`, newest first, and above
 * `afterStep` (the last step this user had accepted: a code is good once). Every candidate is
 * computed and compared in constant time, so the answer's timing says nothing about which step
 * (if any) matched. Null: no match.
 */
export function matchTotp(
  key: Uint8Array,
  code: string,
  ms: number,
  afterStep: number | null,
): number | null {
  const current = timeStep(ms);
  let found: number | null = null;
  for (let step = current + TOTP_WINDOW; step >= current - TOTP_WINDOW; step--) {
    if (step < 0) continue;
    const ok = secretsEqual(hotp(key, step), code);
    if (ok && found === null && (afterStep === null || step > afterStep)) found = step;
  }
  return found;
}

/** A 6-digit code as users type it: spaces are forgiven, anything else is not a code. */
export function normaliseTotpCode(code: string): string | null {
  const clean = code.replace(/\s/g, '');
  return /^[0-9]{6}$/.test(clean) ? clean : null;
}

/**
 * The Key URI authenticator apps read from a QR code:
 * `otpauth://totp/<issuer>:<account>?secret=..&issuer=..&algorithm=SHA1&digits=6&period=30`.
 */
export function otpauthUri(issuer: string, account: string, secretBase32: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = [
    `secret=${secretBase32}`,
    `issuer=${encodeURIComponent(issuer)}`,
    'algorithm=SHA1',
    `digits=${TOTP_DIGITS}`,
    `period=${TOTP_PERIOD_SECONDS}`,
  ].join('&');
  return `otpauth://totp/${label}?${query}`;
}
