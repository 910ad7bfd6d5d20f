/**
 * client/auth/passkey: `navigator.credentials.create/get` around the WebAuthn routes. The
 * server's `options` are the JSON forms (PublicKeyCredentialCreationOptionsJSON and
 * ...RequestOptionsJSON): their binary fields, base64url text, become `ArrayBuffer`s for the
 * browser, and the browser's answer goes back with its binary fields as base64url, in the field
 * names `/auth/webauthn/{register,login}/finish` take.
 */
import { fromBase64url, toBase64url } from './base64url';
import { AuthError } from './errors';

interface Descriptor {
  readonly id: string;
  readonly type: string;
  readonly transports?: readonly string[];
}

/** The JSON options of `register/begin`, as far as the client needs to convert them. */
export interface CreationOptionsJSON {
  readonly challenge: string;
  readonly user: { readonly id: string; readonly name: string; readonly displayName: string };
  readonly excludeCredentials?: readonly Descriptor[];
  readonly [other: string]: unknown;
}

/** The JSON options of `login/begin`. */
export interface RequestOptionsJSON {
  readonly challenge: string;
  readonly allowCredentials?: readonly Descriptor[];
  readonly [other: string]: unknown;
}

const descriptors = (list: readonly Descriptor[] | undefined) =>
  (list ?? []).map((d) => ({ ...d, id: fromBase64url(d.id) })) as PublicKeyCredentialDescriptor[];

/** `navigator.credentials`, or an AuthError saying there is none. */
function credentials(): CredentialsContainer {
  const container = (globalThis as { navigator?: { credentials?: CredentialsContainer } }).navigator
    ?.credentials;
  if (!container || typeof container.create !== 'function')
    throw new AuthError(
      'passkeys need a browser with navigator.credentials, in a secure context (https or localhost)',
      { code: 'PASSKEYS_UNSUPPORTED' },
    );
  return container;
}

async function ask<T>(run: () => Promise<Credential | null>): Promise<T> {
  let credential: Credential | null;
  try {
    credential = await run();
  } catch (cause) {
    const name = (cause as { name?: string })?.name;
    throw new AuthError(
      name === 'NotAllowedError'
        ? 'the passkey request was cancelled or timed out'
        : `the browser refused the passkey request (${name ?? 'unknown error'})`,
      { code: name === 'NotAllowedError' ? 'PASSKEY_CANCELLED' : 'PASSKEY_FAILED', cause },
    );
  }
  if (!credential)
    throw new AuthError('the browser gave no passkey', { code: 'PASSKEY_CANCELLED' });
  return credential as T;
}

/** Creates a passkey: the fields of `register/finish` (without `challengeId` and `name`). */
export async function createPasskey(options: CreationOptionsJSON) {
  const container = credentials();
  const publicKey = {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  } as unknown as PublicKeyCredentialCreationOptions;
  const credential = await ask<PublicKeyCredential>(() => container.create({ publicKey }));
  const response = credential.response as AuthenticatorAttestationResponse;
  return {
    credentialId: toBase64url(credential.rawId),
    clientDataJSON: toBase64url(response.clientDataJSON),
    attestationObject: toBase64url(response.attestationObject),
  };
}

/** Asks for an assertion: the fields of `login/finish` (without `challengeId`). */
export async function getPasskey(options: RequestOptionsJSON) {
  const container = credentials();
  const publicKey = {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  } as unknown as PublicKeyCredentialRequestOptions;
  const credential = await ask<PublicKeyCredential>(() => container.get({ publicKey }));
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    credentialId: toBase64url(credential.rawId),
    clientDataJSON: toBase64url(response.clientDataJSON),
    authenticatorData: toBase64url(response.authenticatorData),
    signature: toBase64url(response.signature),
    ...(response.userHandle ? { userHandle: toBase64url(response.userHandle) } : {}),
  };
}

/** Called before any request, so a page without passkeys fails before a challenge is made. */
export function assertPasskeys(): void {
  credentials();
}
