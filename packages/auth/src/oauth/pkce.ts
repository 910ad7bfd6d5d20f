/**
 * PKCE (RFC 7636) with the S256 method: a verifier of 43 to 128 unreserved characters and its
 * challenge `BASE64URL(SHA256(ASCII(verifier)))`, base64url WITHOUT `=` padding (RFC 7636 §4.2,
 * Appendix A). Node's `base64url` encoding pads nothing, which is what the RFC asks for.
 */
import { createHash, randomBytes } from 'node:crypto';

/** RFC 7636 §4.1: `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"`, 43 to 128 characters. */
const VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge: 32 bytes as unpadded base64url, 43 characters. */
const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

/** A new verifier: 32 random octets as base64url (43 characters), as RFC 7636 §4.1 recommends. */
export function createCodeVerifier(random: (n: number) => Buffer = randomBytes): string {
  return random(32).toString('base64url');
}

/** The S256 challenge of a verifier (no `=` padding). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function isCodeVerifier(value: unknown): value is string {
  return typeof value === 'string' && VERIFIER_RE.test(value);
}

export function isS256Challenge(value: unknown): value is string {
  return typeof value === 'string' && CHALLENGE_RE.test(value);
}
