/**
 * Passkeys (WebAuthn) through the admin session's routes, which call the same @svc/auth
 * operations as `/auth/webauthn/*`. Sign-in: `/_/api/session/passkey/begin` gives the options
 * (binary fields base64url), the browser's authenticator signs, `/_/api/session/passkey/finish`
 * checks and sets the admin cookies (or answers the MFA challenge). With an email, the user's
 * passkeys are offered; without, any passkey of this site (usernameless). Registration:
 * `/_/api/account/passkeys/register/*`, for the signed-in superuser.
 */
import { call, type SignedIn } from './api';

function decode(s: string): ArrayBuffer {
  const pad = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  return Uint8Array.from(atob(pad), (c) => c.charCodeAt(0)).buffer;
}

function encode(buf: ArrayBuffer): string {
  let s = '';
  for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

interface Descriptor {
  id: string;
  type: string;
  transports?: string[];
}

interface BeginAnswer {
  challengeId: string;
  options: {
    challenge: string;
    allowCredentials?: Descriptor[];
    excludeCredentials?: Descriptor[];
    user?: { id: string; name: string; displayName: string };
    [key: string]: unknown;
  };
}

const descriptors = (list: Descriptor[] | undefined) =>
  (list ?? []).map((c) => ({
    ...(c as unknown as PublicKeyCredentialDescriptor),
    id: decode(c.id),
  }));

export function passkeysAvailable(): boolean {
  return typeof window.PublicKeyCredential === 'function' && window.isSecureContext;
}

/** What a sign-in answers: the session (cookies set) or the MFA challenge still owed. */
export type SignInAnswer =
  | SignedIn
  | { mfaRequired: true; challengeToken: string; methods: string[]; expiresAt: string };

/** Signs in with a passkey; throws ApiError or DOMException (cancelled). */
export async function passkeySignIn(email: string): Promise<SignInAnswer> {
  const begin = (
    await call<BeginAnswer>('/_/api/session/passkey/begin', {
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
      allowCredentials: descriptors(o.allowCredentials),
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error('no passkey was chosen');
  const response = credential.response as AuthenticatorAssertionResponse;
  return (
    await call<SignInAnswer>('/_/api/session/passkey/finish', {
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
    })
  ).data;
}

/**
 * Registers a passkey for the signed-in superuser: `code` (a TOTP or recovery code) only when
 * svc asks for the second factor (403 MFA_REQUIRED).
 */
export async function passkeyRegister(name: string, code?: string): Promise<void> {
  const begin = (
    await call<BeginAnswer>('/_/api/account/passkeys/register/begin', {
      method: 'POST',
      body: code ? { code } : {},
    })
  ).data;
  const o = begin.options;
  if (!o.user) throw new Error('svc gave no user for the passkey');
  const credential = (await navigator.credentials.create({
    publicKey: {
      ...(o as unknown as PublicKeyCredentialCreationOptions),
      challenge: decode(o.challenge),
      user: { ...o.user, id: decode(o.user.id) },
      excludeCredentials: descriptors(o.excludeCredentials),
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error('no passkey was made');
  const response = credential.response as AuthenticatorAttestationResponse;
  await call('/_/api/account/passkeys/register/finish', {
    method: 'POST',
    body: {
      challengeId: begin.challengeId,
      credentialId: encode(credential.rawId),
      clientDataJSON: encode(response.clientDataJSON),
      attestationObject: encode(response.attestationObject),
      name,
    },
  });
}
