/**
 * The PKCE verifier waits in PostgreSQL between authorize and callback. It is stored sealed
 * (AES-256-GCM) under a key derived (HKDF-SHA256) from the raw `state`, which is stored only as
 * its SHA-256: a copy of the table alone opens nothing.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'svc-auth oauth pkce verifier v1';

function keyOf(state: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(state, 'utf8'), Buffer.alloc(0), INFO, 32));
}

export function sealVerifier(verifier: string, state: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(state), iv);
  const ct = Buffer.concat([cipher.update(verifier, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url');
}

/** The verifier, or undefined when the seal does not open with this state. */
export function openVerifier(sealed: string, state: string): string | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 29) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', keyOf(state), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
