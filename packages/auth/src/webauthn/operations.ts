/**
 * Passkeys (WebAuthn Level 2; routes in docs/http.md, "Auth routes"): registration and
 * sign-in ceremonies, the caller's credential list and delete.
 *
 * - A ceremony begins with a challenge of 32 random bytes, stored in PostgreSQL as its SHA-256,
 *   bound to the ceremony (`register` or `login`) and, for registration, to the user; it lives
 *   5 minutes and is consumed by one conditional UPDATE when the ceremony finishes, whether the
 *   finish succeeds or not (single use across every svc process).
 * - Every finish checks clientData.type, the challenge, the origin (== `webauthn.origin`), the
 *   rpIdHash (== SHA-256(rpId)), the user-present flag and the signature (attestation at
 *   registration, assertion at sign-in). ES256 only; attestation `none` and `packed`.
 * - Counter rule (WebAuthn §6.1.1): when either the stored or the new
 *   counter is nonzero and the new one is not greater, the sign-in fails with INVALID_TOKEN, the
 *   counter stays as stored and the audit event `webauthn_counter_regression` is emitted (and
 *   logged). The check and the update are one conditional UPDATE, so two sign-ins racing with the
 *   same counter cannot both pass.
 * - Sign-in ends in `completeSignIn`: method `passkey` when the authenticator verified the user
 *   (UV flag: two factors in one), `passkey-unverified` otherwise (one factor: an MFA challenge
 *   still applies).
 * - Login begin with an email answers the same shape for unknown emails and users without
 *   passkeys: one stable pseudo credential id derived from the email (HMAC with the JWT secret),
 *   so the answer does not tell whether the account exists.
 * - A passkey is a factor, so for a user with confirmed TOTP registering or deleting one needs
 *   the second factor (mfa/operations.ts `requireSecondFactor`: an `aal2` session, or `code`).
 *   Registration is checked where the ceremony starts and again where it writes: `register/begin`
 *   refuses early (before the user touches the authenticator) and marks the challenge when the
 *   second factor was proven; `register/finish` accepts a marked challenge, an `aal2` session or
 *   `code`. So a ceremony begun while the account had one factor cannot be finished by a
 *   one-factor session after TOTP was turned on.
 */
import { createHmac } from 'node:crypto';
import { commonError } from '@svc/core';
import { emailForLookup, isUuid } from '../account';
import type { OperationContext } from '../context';
import { authError } from '../errors';
import { checkAccess } from '../session/operations';
import { requireSecondFactor } from '../mfa/operations';
import { completeSignIn } from '../session/sign-in';
import { sha256Hex } from '../session/tokens';
import type { UserRecord, WebAuthnCredentialRecord } from '../store/types';
import type { AuthAssuranceLevel } from '../token/verify';
import type { RequestInfo, SignInResult } from '../types';
import type { ResolvedWebAuthnConfig } from './config';
import { createPublicKey, timingSafeEqual } from 'node:crypto';
import {
  MAX_CREDENTIAL_ID_BYTES,
  parseAttestationObject,
  parseAuthenticatorData,
  parseClientData,
  sha256,
  verifyAttestation,
  verifyEs256,
  WebAuthnError,
  type AuthenticatorData,
} from './verify';

/** How long a ceremony may take, in milliseconds (also the `timeout` the options carry). */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Longest credential name. */
export const WEBAUTHN_NAME_MAX_LENGTH = 100;
const DEFAULT_CREDENTIAL_NAME = 'Passkey';
// Bounds of the binary inputs, as base64url characters.
const MAX_CLIENT_DATA_BYTES = 4096;
const MAX_ATTESTATION_BYTES = 64 * 1024;
const MAX_AUTHENTICATOR_DATA_BYTES = 4096;
const MAX_SIGNATURE_BYTES = 256;

export interface PublicKeyCredentialDescriptorJSON {
  readonly type: 'public-key';
  /** base64url. */
  readonly id: string;
}

/** PublicKeyCredentialCreationOptionsJSON (WebAuthn L3 §5.1.1 JSON form): binary values base64url. */
export interface WebAuthnRegistrationOptions {
  readonly rp: { readonly id: string; readonly name: string };
  readonly user: { readonly id: string; readonly name: string; readonly displayName: string };
  readonly challenge: string;
  readonly pubKeyCredParams: readonly { readonly type: 'public-key'; readonly alg: -7 }[];
  readonly timeout: number;
  readonly attestation: 'none';
  readonly excludeCredentials: readonly PublicKeyCredentialDescriptorJSON[];
  readonly authenticatorSelection: {
    readonly residentKey: 'preferred' | 'required';
    readonly requireResidentKey?: true;
    readonly userVerification: 'preferred';
  };
}

/** PublicKeyCredentialRequestOptionsJSON. */
export interface WebAuthnLoginOptions {
  readonly rpId: string;
  readonly challenge: string;
  readonly timeout: number;
  readonly userVerification: 'preferred';
  readonly allowCredentials: readonly PublicKeyCredentialDescriptorJSON[];
}

export interface WebAuthnBegin<O> {
  readonly challengeId: string;
  readonly options: O;
}

/** `register/finish` input (docs/http.md): binary values base64url. */
export interface WebAuthnRegisterFinishInput {
  readonly challengeId: string;
  readonly credentialId: string;
  readonly clientDataJSON: string;
  readonly attestationObject: string;
  /** Shown in the credential list. @default 'Passkey' */
  readonly name?: string;
  /**
   * A current TOTP code or an unused recovery code, for a user with confirmed TOTP whose session
   * is `aal1` and whose `register/begin` did not prove the second factor.
   */
  readonly code?: string;
}

/** `login/finish` input (docs/http.md): binary values base64url. */
export interface WebAuthnLoginFinishInput {
  readonly challengeId: string;
  readonly credentialId: string;
  readonly clientDataJSON: string;
  readonly authenticatorData: string;
  readonly signature: string;
  /** The user handle a discoverable credential returns (the user id bytes). */
  readonly userHandle?: string | null;
}

/** What `register/finish` answers of the new credential (docs/http.md). */
export interface WebAuthnRegisteredCredential {
  readonly id: string;
  readonly name: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

/** One credential of `credentials` (docs/http.md): dates ISO 8601. */
export interface WebAuthnCredentialInfo {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

function configOf(ctx: OperationContext): ResolvedWebAuthnConfig {
  const cfg = (ctx.config as { webauthn?: ResolvedWebAuthnConfig }).webauthn;
  if (!cfg)
    throw commonError('INVALID_OPERATION', 'WebAuthn is not configured (authConfig.webauthn)');
  return cfg;
}

/** A required base64url field, decoded; `maxBytes` bounds it. */
function binaryField(input: Record<string, unknown>, field: string, maxBytes: number): Buffer {
  const value = input[field];
  if (typeof value !== 'string' || value.length === 0)
    throw commonError('VALIDATION_ERROR', `"${field}" is required and must be a base64url string`);
  if (value.length > Math.ceil((maxBytes * 4) / 3) || !/^[A-Za-z0-9_-]+={0,2}$/.test(value))
    throw commonError(
      'VALIDATION_ERROR',
      `"${field}" must be base64url of at most ${maxBytes} bytes`,
    );
  const bytes = Buffer.from(value, 'base64url');
  // Trailing bits that do not round-trip are refused: one value, one spelling.
  if (bytes.toString('base64url') !== value.replace(/=+$/, ''))
    throw commonError('VALIDATION_ERROR', `"${field}" is not canonical base64url`);
  return bytes;
}

function inputObject(input: unknown, what: string): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw commonError('VALIDATION_ERROR', `${what} must be an object`);
  return input as Record<string, unknown>;
}

function challengeIdOf(input: Record<string, unknown>): string {
  const id = input.challengeId;
  if (typeof id !== 'string' || id.length === 0)
    throw commonError('VALIDATION_ERROR', '"challengeId" is required and must be a string');
  return id;
}

/** The 16 bytes of a UUID, as the WebAuthn user handle. */
function userHandleOf(userId: string): string {
  return Buffer.from(userId.replace(/-/g, ''), 'hex').toString('base64url');
}

function descriptor(credentialId: string): PublicKeyCredentialDescriptorJSON {
  return { type: 'public-key', id: credentialId };
}

async function newChallenge(
  ctx: OperationContext,
  ceremony: 'register' | 'login',
  userId: string | null,
  secondFactor = false,
): Promise<{ challengeId: string; challenge: string }> {
  const bytes = ctx.random(32);
  const challengeId = await ctx.store.createWebAuthnChallenge({
    ceremony,
    userId,
    challengeHash: sha256Hex(bytes.toString('base64url')),
    expiresAt: new Date(ctx.now() + WEBAUTHN_CHALLENGE_TTL_MS),
    secondFactor,
  });
  return { challengeId, challenge: bytes.toString('base64url') };
}

/**
 * The client data checks shared by both ceremonies: type, challenge (against the stored hash, in
 * constant time), origin, and no cross-origin iframe.
 */
function checkClientData(
  clientDataJSON: Buffer,
  type: 'webauthn.create' | 'webauthn.get',
  challengeHash: string,
  cfg: ResolvedWebAuthnConfig,
): void {
  const cd = parseClientData(clientDataJSON);
  if (cd.type !== type)
    throw new WebAuthnError(`clientData.type is ${JSON.stringify(cd.type)}, expected "${type}"`);
  const given = Buffer.from(sha256Hex(cd.challenge), 'hex');
  if (!timingSafeEqual(given, Buffer.from(challengeHash, 'hex')))
    throw new WebAuthnError('clientData.challenge does not match the ceremony');
  if (cd.origin !== cfg.origin)
    throw new WebAuthnError(
      `clientData.origin ${JSON.stringify(cd.origin)} is not the configured origin`,
    );
  if (cd.crossOrigin === true) throw new WebAuthnError('cross-origin ceremonies are not accepted');
}

function checkAuthenticatorData(authData: AuthenticatorData, cfg: ResolvedWebAuthnConfig): void {
  if (!sha256(cfg.rpId).equals(Buffer.from(authData.rpIdHash)))
    throw new WebAuthnError('authenticator data rpIdHash is not SHA-256 of the configured rpId');
  if (!authData.flags.up) throw new WebAuthnError('the user was not present (UP flag clear)');
}

// --- registration -------------------------------------------------------------------------------

/**
 * `register/begin`: options for navigator.credentials.create, bound to the caller. With
 * confirmed TOTP, an `aal2` session or `code` (see the header).
 */
export async function registerBegin(
  ctx: OperationContext,
  accessToken: string,
  code?: string,
  info?: RequestInfo,
): Promise<WebAuthnBegin<WebAuthnRegistrationOptions>> {
  const cfg = configOf(ctx);
  const { user, aal } = await callerOf(ctx, accessToken);
  const proven = await requireSecondFactor(ctx, user, aal, code, info);
  const existing = await ctx.store.listWebAuthnCredentials(user.id);
  const { challengeId, challenge } = await newChallenge(ctx, 'register', user.id, proven);
  return {
    challengeId,
    options: {
      rp: { id: cfg.rpId, name: cfg.rpName },
      user: {
        id: userHandleOf(user.id),
        name: user.username ?? user.email,
        displayName: user.username ?? user.email,
      },
      challenge,
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      attestation: 'none',
      excludeCredentials: existing.map((c) => descriptor(c.credentialId)),
      authenticatorSelection: cfg.requireResidentKey
        ? { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' }
        : { residentKey: 'preferred', userVerification: 'preferred' },
    },
  };
}

/**
 * `register/finish`: verifies the attestation and stores the credential. With confirmed TOTP, a
 * challenge begun with the second factor proven, an `aal2` session, or `code`.
 */
export async function registerFinish(
  ctx: OperationContext,
  accessToken: string,
  raw: WebAuthnRegisterFinishInput,
  info?: RequestInfo,
): Promise<{ credential: WebAuthnRegisteredCredential }> {
  const cfg = configOf(ctx);
  const { user, aal } = await callerOf(ctx, accessToken);
  const input = inputObject(raw, 'the registration');
  const challengeId = challengeIdOf(input);
  const credentialId = binaryField(input, 'credentialId', MAX_CREDENTIAL_ID_BYTES);
  const clientDataJSON = binaryField(input, 'clientDataJSON', MAX_CLIENT_DATA_BYTES);
  const attestationObject = binaryField(input, 'attestationObject', MAX_ATTESTATION_BYTES);
  const name = credentialName(input.name);

  const challenge = await ctx.store.consumeWebAuthnChallenge(challengeId, 'register');
  if (!challenge || challenge.userId !== user.id)
    throw authError(
      'INVALID_TOKEN',
      'the WebAuthn challenge is unknown, used, expired or not yours',
    );
  let stored: { publicKey: Uint8Array; signCount: number; aaguid: string; backupEligible: boolean };
  try {
    checkClientData(clientDataJSON, 'webauthn.create', challenge.challengeHash, cfg);
    const att = parseAttestationObject(attestationObject);
    const authData = parseAuthenticatorData(att.authData);
    checkAuthenticatorData(authData, cfg);
    const attested = authData.attested;
    if (!attested) throw new WebAuthnError('authenticator data carries no attested credential');
    if (!credentialId.equals(Buffer.from(attested.credentialId)))
      throw new WebAuthnError('credentialId is not the credential the authenticator attested');
    verifyAttestation(att, sha256(clientDataJSON), attested, new Date(ctx.now()));
    stored = {
      publicKey: attested.publicKey.export({ format: 'der', type: 'spki' }),
      signCount: authData.signCount,
      aaguid: Buffer.from(attested.aaguid).toString('hex'),
      backupEligible: authData.flags.be,
    };
  } catch (err) {
    if (err instanceof WebAuthnError)
      throw commonError('VALIDATION_ERROR', `passkey registration failed: ${err.message}`);
    throw err;
  }
  // After the attestation checks, so no code is spent on a refused registration.
  if (!challenge.secondFactor) await requireSecondFactor(ctx, user, aal, input.code, info);
  const created = await ctx.store.createWebAuthnCredential({
    credentialId: credentialId.toString('base64url'),
    userId: user.id,
    name,
    ...stored,
  });
  if (!created) throw commonError('VALIDATION_ERROR', 'this passkey is already registered');
  const { id, name: storedName, createdAt } = credentialInfo(created);
  return { credential: { id, name: storedName, createdAt } };
}

function credentialName(value: unknown): string {
  if (value === undefined || value === null) return DEFAULT_CREDENTIAL_NAME;
  if (typeof value !== 'string') throw commonError('VALIDATION_ERROR', '"name" must be a string');
  const name = value.trim();
  if (
    name.length === 0 ||
    name.length > WEBAUTHN_NAME_MAX_LENGTH ||
    /[\u0000-\u001f\u007f]/.test(name)
  )
    throw commonError(
      'VALIDATION_ERROR',
      `"name" must be 1 to ${WEBAUTHN_NAME_MAX_LENGTH} characters without control characters`,
    );
  return name;
}

// --- sign-in ------------------------------------------------------------------------------------

/**
 * `login/begin`: options for navigator.credentials.get. Without an email the challenge is
 * unscoped (any discoverable credential may answer); with one, `allowCredentials` lists that
 * user's passkeys, or a stable pseudo one when there are none or no such user.
 */
export async function loginBegin(
  ctx: OperationContext,
  raw: { readonly email?: string | null } | undefined,
  info?: RequestInfo,
): Promise<WebAuthnBegin<WebAuthnLoginOptions>> {
  const cfg = configOf(ctx);
  const input = raw === undefined || raw === null ? {} : inputObject(raw, 'the sign-in');
  const given = input.email;
  if (
    given !== undefined &&
    given !== null &&
    (typeof given !== 'string' || given.length === 0 || given.length > 320)
  )
    throw commonError(
      'VALIDATION_ERROR',
      '"email" must be a string of 1 to 320 characters when given',
    );
  let allow: PublicKeyCredentialDescriptorJSON[] = [];
  let userId: string | null = null;
  if (typeof given === 'string') {
    // Text that cannot be an address finds no account (a lookup never refuses).
    const email = emailForLookup(given);
    const key = email ?? given.trim().toLowerCase();
    await ctx.limiter.check('webauthnLoginBegin', { email: key, ip: info?.ip });
    const user = email ? await ctx.store.findUserByEmail(email) : null;
    // The same two queries whether or not the account exists (the nil UUID holds no passkey).
    const creds = await ctx.store.listWebAuthnCredentials(user?.id ?? NIL_UUID);
    if (user && creds.length > 0) {
      userId = user.id;
      allow = creds.map((c) => descriptor(c.credentialId));
    } else {
      allow = [descriptor(pseudoCredentialId(ctx, key))];
    }
  } else {
    await ctx.limiter.check('webauthnLoginBegin', { ip: info?.ip });
  }
  const { challengeId, challenge } = await newChallenge(ctx, 'login', userId);
  return {
    challengeId,
    options: {
      rpId: cfg.rpId,
      challenge,
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      userVerification: 'preferred',
      allowCredentials: allow,
    },
  };
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** A credential id no authenticator holds, the same for one email every time. */
function pseudoCredentialId(ctx: OperationContext, email: string): string {
  const key = (ctx.config as { jwtSecret?: string }).jwtSecret ?? 'svc-webauthn';
  return createHmac('sha256', key)
    .update(`webauthn-pseudo-credential:${email}`)
    .digest('base64url');
}

/** `login/finish`: verifies the assertion, applies the counter rule and signs the user in. */
export async function loginFinish(
  ctx: OperationContext,
  raw: WebAuthnLoginFinishInput,
  info?: RequestInfo,
): Promise<SignInResult> {
  const cfg = configOf(ctx);
  await ctx.limiter.check('webauthnLoginFinish', { ip: info?.ip });
  const input = inputObject(raw, 'the sign-in');
  const challengeId = challengeIdOf(input);
  const credentialId = binaryField(input, 'credentialId', MAX_CREDENTIAL_ID_BYTES);
  const clientDataJSON = binaryField(input, 'clientDataJSON', MAX_CLIENT_DATA_BYTES);
  const authenticatorData = binaryField(input, 'authenticatorData', MAX_AUTHENTICATOR_DATA_BYTES);
  const signature = binaryField(input, 'signature', MAX_SIGNATURE_BYTES);
  const userHandle =
    input.userHandle === undefined || input.userHandle === null || input.userHandle === ''
      ? undefined
      : binaryField(input, 'userHandle', 64);

  const challenge = await ctx.store.consumeWebAuthnChallenge(challengeId, 'login');
  if (!challenge)
    throw authError('INVALID_TOKEN', 'the WebAuthn challenge is unknown, used or expired');
  const failed = (why: string) =>
    authError('INVALID_CREDENTIALS', `passkey sign-in failed: ${why}`);
  const credential = await ctx.store.findWebAuthnCredential(credentialId.toString('base64url'));
  if (!credential) throw failed('unknown credential');
  if (challenge.userId !== null && challenge.userId !== credential.userId)
    throw failed('the credential is not one the ceremony allowed');
  // §7.2 step 6: a sign-in that named no user is identified by the user handle, which must be
  // there and name the credential's owner.
  if (challenge.userId === null && !userHandle)
    throw failed('userHandle is required when the sign-in named no user');
  if (userHandle && !userHandle.equals(Buffer.from(userHandleOf(credential.userId), 'base64url')))
    throw failed('userHandle does not match the credential');

  let authData: AuthenticatorData;
  try {
    checkClientData(clientDataJSON, 'webauthn.get', challenge.challengeHash, cfg);
    authData = parseAuthenticatorData(authenticatorData);
    checkAuthenticatorData(authData, cfg);
    if (authData.attested)
      throw new WebAuthnError('an assertion must not carry attested credential data');
    const key = createPublicKey({
      key: Buffer.from(credential.publicKey),
      format: 'der',
      type: 'spki',
    });
    const signed = Buffer.concat([authenticatorData, sha256(clientDataJSON)]);
    if (!verifyEs256(key, signed, signature)) throw new WebAuthnError('the signature is invalid');
  } catch (err) {
    if (err instanceof WebAuthnError) throw failed(err.message);
    throw err;
  }

  const user = await ctx.store.findUserById(credential.userId);
  if (!user) throw failed('unknown credential');
  if (!(await ctx.store.useWebAuthnCredential(credential.credentialId, authData.signCount))) {
    counterRegression(ctx, user, credential, authData.signCount);
    throw authError(
      'INVALID_TOKEN',
      'the passkey signature counter did not increase: the authenticator may be cloned',
    );
  }
  if (!user.active) throw authError('USER_INACTIVE', 'the account is deactivated');
  if (ctx.config.requireEmailVerification && !user.emailVerified)
    throw authError('EMAIL_NOT_VERIFIED', 'the email address is not verified yet');
  return completeSignIn(ctx, user, info, authData.flags.uv ? 'passkey' : 'passkey-unverified');
}

/** The audit event of a counter that did not move forward (`AUDIT_EVENT_TYPES`): on the bus and in the log. */
function counterRegression(
  ctx: OperationContext,
  user: UserRecord,
  credential: WebAuthnCredentialRecord,
  received: number,
): void {
  ctx.bus.emit({
    eventType: 'webauthn_counter_regression',
    userId: user.id,
    email: user.email,
    credentialId: credential.credentialId,
    storedCounter: credential.signCount,
    receivedCounter: received,
  });
  ctx.logger?.warn(
    {
      audit: 'webauthn_counter_regression',
      userId: user.id,
      credentialId: credential.credentialId,
      storedCounter: credential.signCount,
      receivedCounter: received,
    },
    'webauthn_counter_regression: a passkey signature counter did not increase',
  );
}

// --- credentials --------------------------------------------------------------------------------

/** `credentials`: the caller's passkeys, oldest first. */
export async function listCredentials(
  ctx: OperationContext,
  accessToken: string,
): Promise<{ credentials: WebAuthnCredentialInfo[] }> {
  configOf(ctx);
  const { user } = await callerOf(ctx, accessToken);
  const creds = await ctx.store.listWebAuthnCredentials(user.id);
  return { credentials: creds.map(credentialInfo) };
}

/**
 * `credentials/delete`: removes one of the caller's passkeys; another user's is NOT_FOUND. With
 * confirmed TOTP, an `aal2` session or `code` (looked at only for a passkey the caller holds).
 */
export async function deleteCredential(
  ctx: OperationContext,
  accessToken: string,
  credentialId: string,
  code?: string,
  info?: RequestInfo,
): Promise<void> {
  configOf(ctx);
  const { user, aal } = await callerOf(ctx, accessToken);
  if (typeof credentialId !== 'string' || credentialId.length === 0)
    throw commonError('VALIDATION_ERROR', '"credentialId" is required and must be a string');
  const notYours = () => commonError('NOT_FOUND', 'you have no passkey with that credentialId');
  if ((await ctx.store.findWebAuthnCredential(credentialId))?.userId !== user.id) throw notYours();
  await requireSecondFactor(ctx, user, aal, code, info);
  if (!(await ctx.store.deleteWebAuthnCredential(user.id, credentialId))) throw notYours();
}

/** A passkey as its owner and administrators see it (no key material). */
export function credentialInfo(c: WebAuthnCredentialRecord): WebAuthnCredentialInfo {
  return {
    id: c.credentialId,
    name: c.name,
    createdAt: c.createdAt.toISOString(),
    lastUsedAt: c.lastUsedAt ? c.lastUsedAt.toISOString() : null,
  };
}

/** The user of a live session and the session's level. */
async function callerOf(
  ctx: OperationContext,
  accessToken: string,
): Promise<{ user: UserRecord; aal: AuthAssuranceLevel }> {
  const { claims, aal } = await checkAccess(ctx, accessToken);
  const user = isUuid(claims.sub) ? await ctx.store.findUserById(claims.sub) : null;
  if (!user) throw authError('SESSION_EXPIRED', 'the session has ended');
  return { user, aal };
}
