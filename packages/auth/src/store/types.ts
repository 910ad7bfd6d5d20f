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
import type { VerificationStore } from '../verification/store';
import type { WebAuthnStore } from '../webauthn/store';

export type { UserRecord, NewUser, ListedUserRecord, LoginKey } from '../account/store';
export type { SessionRecord, NewSession, SessionState, RefreshState } from '../session/store';
export type { RoleRecord, AssignResult } from '../roles/store';
export type { MagicLinkRedemption, MagicCodeOutcome } from '../passwordless/store';
export type { EmailProof } from '../verification/store';
export type {
  WebAuthnCeremony,
  NewWebAuthnChallenge,
  WebAuthnChallengeRecord,
  NewWebAuthnCredential,
  WebAuthnCredentialRecord,
} from '../webauthn/store';
export type {
  NewOAuthState,
  OAuthStateRecord,
  OAuthIdentity,
  OAuthIdentityRecord,
  NewOAuthCode,
  OAuthCodeRecord,
} from '../oauth/store';
export type { TotpFactorRecord, MfaState, MfaProof } from '../mfa/store';

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
