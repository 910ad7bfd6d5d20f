/**
 * TOTP secrets at rest: AES-256-GCM under a key derived from the server secret (`jwtSecret`) with
 * HKDF-SHA256 and a purpose label, so the signing key and this key are independent. Each secret
 * gets a random 96-bit IV; the user id is the additional authenticated data, so a ciphertext
 * copied onto another user's row does not open.
 *
 * Stored form: `v1.<base64url(iv | ciphertext | tag)>`. Changing `jwtSecret` makes every stored
 * secret unreadable: those users' TOTP codes are refused (recovery codes still work, and the user
 * may enroll again).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PURPOSE = 'svc-auth/totp-secret/v1';
const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  seal(plain: Buffer, userId: string): string;
  /** Null when the text is not ours or was made under another key or for another user. */
  open(sealed: string, userId: string): Buffer | null;
}

const boxes = new Map<string, SecretBox>();

/** The box of a server secret (made once per secret). */
export function secretBoxFor(serverSecret: string): SecretBox {
  let box = boxes.get(serverSecret);
  if (!box) {
    box = createSecretBox(serverSecret);
    // Bounded: one entry per distinct server secret a process uses (a handful at most in tests).
    if (boxes.size >= 16) boxes.clear();
    boxes.set(serverSecret, box);
  }
  return box;
}

export function createSecretBox(
  serverSecret: string,
  random: (n: number) => Buffer = randomBytes,
): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), PURPOSE, 32));
  return {
    seal(plain, userId) {
      const iv = random(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(userId, 'utf8'));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    open(sealed, userId) {
      if (!sealed.startsWith(VERSION)) return null;
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
      if (raw.length <= IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(userId, 'utf8'));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
          decipher.final(),
        ]);
      } catch {
        return null;
      }
    },
  };
}
