/**
 * The storage contract of @svc/auth: domain verbs, not CRUD, declared per feature (each feature
 * folder's `store.ts`) and composed here into `AuthStore`. Two implementations keep it —
 * `createPostgresStore` (Kysely over PostgreSQL or PGlite, schema `svc_auth`) and
 * `createMemoryStore` — and one conformance suite (`conformance.ts`, with each feature's cases in
 * its `store.conformance.ts`) holds both to it.
 *
 * Secrets never reach a store in clear: refresh, reset and verification tokens arrive as their
 * SHA-256 hex digests, passwords as bcrypt hashes. Every time a store writes or compares comes
 * from its injected clock (`now`), so tests can move time.
 */

import type { AccountStore } from '../account/store';
import type { GuestStore } from '../guest/store';
import type { MfaStore } from '../mfa/store';
import type { OAuthStore } from '../oauth/store';
import type { PasswordResetStore } from '../password/store';
import type { PasswordlessStore } from '../passwordless/store';
import type { RateLimitStore } from '../rate-limit/store';
import type { RoleStore } from '../roles/store';
import type { SessionStore } from '../session/store';
import type { AuthAssuranceLevel } from '../token/verify';
import type { VerificationStore } from '../verification/store';
import type { WebAuthnStore } from '../webauthn/store';

export interface UserRecord {
  readonly id: string;
  /** Lower-cased. */
  readonly email: string;
  readonly username: string | null;
  readonly passwordHash: string | null;
  readonly emailVerified: boolean;
  readonly active: boolean;
  readonly isAnonymous: boolean;
  readonly metadata: Record<string, unknown>;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NewUser {
  readonly email: string;
  readonly username?: string | null;
  readonly passwordHash: string | null;
  readonly emailVerified?: boolean;
  readonly active?: boolean;
  readonly metadata?: Record<string, unknown>;
  /** A guest (`POST /auth/anonymous`): no password, a synthetic email. @default false */
  readonly isAnonymous?: boolean;
}

export interface SessionRecord {
  readonly id: string;
  readonly userId: string;
  readonly accessJti: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly createdAt: Date;
  /** When the refresh token dies. */
  readonly expiresAt: Date;
  readonly lastActivityAt: Date;
  readonly revokedAt: Date | null;
  /** The sign-in this session descends from (refreshes carry it on); its own id when it began one. */
  readonly familyId: string;
  /** What its sign-in proved (refreshes carry it on). */
  readonly aal: AuthAssuranceLevel;
}

export interface NewSession {
  readonly userId: string;
  readonly accessJti: string;
  /** SHA-256 hex of the refresh token. */
  readonly refreshHash: string;
  readonly expiresAt: Date;
  readonly ip?: string | null;
  readonly userAgent?: string | null;
  /** What the sign-in proved. @default 'aal1' */
  readonly aal?: AuthAssuranceLevel;
}

/** What `verifyToken` needs to know of a session, from one indexed query. */
export interface SessionState {
  readonly sessionId: string;
  readonly userId: string;
  readonly revoked: boolean;
  readonly lastActivityAt: Date;
  readonly userActive: boolean;
  readonly aal: AuthAssuranceLevel;
}

/** What `refresh` needs to know of the session a refresh token names, and of its user. */
export interface RefreshState {
  readonly sessionId: string;
  readonly userId: string;
  readonly revoked: boolean;
  /** When the refresh token dies. */
  readonly expiresAt: Date;
  readonly lastActivityAt: Date;
  readonly userActive: boolean;
  /** The session's rotation family (see `SessionRecord.familyId`). */
  readonly familyId: string;
  /** When a refresh retired this session (null: live, or ended another way). */
  readonly rotatedAt: Date | null;
  /** The session's assurance level, which the rotated session keeps. */
  readonly aal: AuthAssuranceLevel;
}

export interface RoleRecord {
  readonly name: string;
  readonly description: string | null;
}

/** A user with the names of the roles it holds, sorted: one row of `listUsers`. */
export type ListedUserRecord = UserRecord & { readonly roles: string[] };

export type LoginKey = { readonly email: string } | { readonly username: string };

export type AssignResult = 'assigned' | 'already-assigned' | 'no-such-role' | 'no-such-user';

/** What a redeemed magic link named: a user's sign-in, or the signup of an email with no account. */
export type MagicLinkRedemption =
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'signup'; readonly email: string };

/** The outcome of `proveEmail`: the user as it is after, and whether this call verified the address. */
export interface EmailProof {
  readonly user: UserRecord;
  readonly proved: boolean;
}

/** A magic code check: `ok` (now consumed), `wrong` (one try counted), `none` (no live code). */
export type MagicCodeOutcome = 'ok' | 'wrong' | 'none';
// --- webauthn records ----------------------------------------------------------------------------
/** The WebAuthn ceremony a challenge was issued for. */
export type WebAuthnCeremony = 'register' | 'login';

export interface NewWebAuthnChallenge {
  readonly ceremony: WebAuthnCeremony;
  /** The user it is bound to: always for `register`; for `login` only when an email named one. */
  readonly userId: string | null;
  /** SHA-256 hex of the challenge bytes. */
  readonly challengeHash: string;
  readonly expiresAt: Date;
  /**
   * A `register` ceremony begun with the user's second factor proven (an `aal2` session or a
   * code): its finish needs no second proof. @default false
   */
  readonly secondFactor?: boolean;
}

export interface WebAuthnChallengeRecord {
  readonly id: string;
  readonly ceremony: WebAuthnCeremony;
  readonly userId: string | null;
  readonly challengeHash: string;
  readonly expiresAt: Date;
  readonly secondFactor: boolean;
}

export interface NewWebAuthnCredential {
  /** base64url of the credential id bytes. */
  readonly credentialId: string;
  readonly userId: string;
  /** The public key, SubjectPublicKeyInfo DER. */
  readonly publicKey: Uint8Array;
  readonly signCount: number;
  readonly name: string;
  /** The authenticator's AAGUID, 32 hex digits. */
  readonly aaguid: string;
  readonly backupEligible: boolean;
}

export interface WebAuthnCredentialRecord extends NewWebAuthnCredential {
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}
// --- OAuth / OIDC (oauth/) ----------------------------------------------------------------------

/** One authorization request in flight (`/auth/oauth/:provider/authorize` → its callback). */
export interface NewOAuthState {
  /** SHA-256 hex of the `state` parameter. */
  readonly stateHash: string;
  readonly provider: string;
  /** The app address to return to (already checked against the allow-list). */
  readonly redirectUri: string;
  /** svc's own callback URL sent to the provider (the token request repeats it). */
  readonly callbackUrl: string;
  /** SHA-256 hex of the OIDC nonce; null for plain OAuth 2.0 providers. */
  readonly nonceHash: string | null;
  /** The PKCE verifier, encrypted under a key derived from the raw state. */
  readonly verifierSealed: string;
  /** The app's own S256 challenge (PKCE between the app and svc), or null. */
  readonly codeChallenge: string | null;
  readonly expiresAt: Date;
}
export type OAuthStateRecord = Omit<NewOAuthState, 'stateHash' | 'expiresAt'>;

/** A provider account linked to a user. */
export interface OAuthIdentity {
  readonly provider: string;
  readonly subject: string;
  /** The address the provider gave at link time (lower-cased), or null. */
  readonly email: string | null;
}
export interface OAuthIdentityRecord extends OAuthIdentity {
  readonly userId: string;
  readonly createdAt: Date;
}

/** The one-time code the callback hands the app, exchanged at `/auth/oauth/token`. */
export interface NewOAuthCode {
  /** SHA-256 hex of the code. */
  readonly codeHash: string;
  readonly userId: string;
  readonly provider: string;
  readonly codeChallenge: string | null;
  readonly expiresAt: Date;
}
export interface OAuthCodeRecord {
  readonly userId: string;
  readonly provider: string;
  readonly codeChallenge: string | null;
}

/** Creating and upgrading the storage. */
export interface MigrationStore {
  /** Creates or upgrades the storage; idempotent. */
  migrate(): Promise<void>;
}

/**
 * The whole storage contract: every feature's verbs (each feature folder's `store.ts` declares
 * its part and implements it for Postgres and for memory).
 */
export type AuthStore = MigrationStore &
  AccountStore &
  SessionStore &
  GuestStore &
  PasswordResetStore &
  VerificationStore &
  PasswordlessStore &
  RoleStore &
  RateLimitStore &
  WebAuthnStore &
  MfaStore &
  OAuthStore;

/** A user's TOTP enrolment. */
export interface TotpFactorRecord {
  readonly userId: string;
  /** The secret as `mfa/secret-box` sealed it. */
  readonly secretCiphertext: string;
  /** Null while pending. */
  readonly confirmedAt: Date | null;
  /** The last accepted RFC 6238 time step, or null. */
  readonly lastUsedStep: number | null;
}

/** What `completeSignIn` needs to decide on an MFA challenge. */
export interface MfaState {
  readonly totpConfirmed: boolean;
  readonly unusedRecoveryCodes: number;
}

/** How an MFA challenge is answered. */
export type MfaProof =
  | { readonly kind: 'totp'; readonly step: number }
  | { readonly kind: 'recovery-code'; readonly codeHash: string };
