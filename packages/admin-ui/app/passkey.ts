/**
 * Passkey sign-in (WebAuthn): `/auth/webauthn/login/begin` gives the options (binary fields
 * base64url), the browser's authenticator signs, `/auth/webauthn/login/finish` checks and sets
 * the session cookie. With an email, the user's passkeys are offered; without, any passkey of
 * this site (usernameless).
 */
import { call } from './api';

function decode(s: string): ArrayBuffer {
  const pad = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  return Uint8Array.from(atob(pad), (c) => c.charCodeAt(0)).buffer;
}

function encode(buf: ArrayBuffer): string {
  let s = '';
  for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

interface BeginAnswer {
  challengeId: string;
  options: {
    challenge: string;
    allowCredentials?: { id: string; type: string; transports?: string[] }[];
    [key: string]: unknown;
  };
}

export function passkeysAvailable(): boolean {
  return typeof window.PublicKeyCredential === 'function' && window.isSecureContext;
}

/** Signs in with a passkey; resolves once the cookie is set, or throws (ApiError, DOMException). */
export async function passkeySignIn(email: string): Promise<void> {
  const begin = (
    await call<BeginAnswer>('/auth/webauthn/login/begin', {
      method: 'POST',
      body: email ? { email } : {},
      quiet401: true,
    })
  ).data;
  const o = begin.options;
  const credential = (await navigator.credentials.get({
    publicKey: {
      ...(o as unknown as PublicKeyCredentialRequestOptions),
      challenge: decode(o.challenge),
      allowCredentials: (o.allowCredentials ?? []).map((c) => ({
        ...(c as unknown as PublicKeyCredentialDescriptor),
        id: decode(c.id),
      })),
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error('no passkey was chosen');
  const response = credential.response as AuthenticatorAssertionResponse;
  await call('/auth/webauthn/login/finish', {
    method: 'POST',
    quiet401: true,
    body: {
      challengeId: begin.challengeId,
      credentialId: encode(credential.rawId),
      clientDataJSON: encode(response.clientDataJSON),
      authenticatorData: encode(response.authenticatorData),
      signature: encode(response.signature),
      userHandle: response.userHandle ? encode(response.userHandle) : null,
    },
  });
}
