/**
 * client/auth/base64url: the unpadded base64url text (RFC 4648 §5) the auth routes use for
 * binary WebAuthn fields, to and from the `ArrayBuffer`s `navigator.credentials` speaks; and the
 * claims of a JWT, read (never checked: the server checks) to know when an access token expires.
 */

/** Bytes as unpadded base64url. */
export function toBase64url(bytes: ArrayBuffer | ArrayBufferView): string {
  const view =
    bytes instanceof ArrayBuffer
      ? new Uint8Array(bytes)
      : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let binary = '';
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Unpadded (or padded) base64url as an `ArrayBuffer`; a `TypeError` when it is not base64url. */
export function fromBase64url(text: string): ArrayBuffer {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new TypeError('not base64url text');
  const base64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '==='.slice((base64.length + 3) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** The claims of a JWT (its middle part), or null when it is not one. */
export function jwtClaims(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (part === undefined) return null;
  try {
    const claims: unknown = JSON.parse(new TextDecoder().decode(fromBase64url(part)));
    return claims !== null && typeof claims === 'object'
      ? (claims as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
