/**
 * The storage contract of @svc/auth: domain verbs, not CRUD. Two implementations keep it —
 * `createPostgresStore` (Kysely over PostgreSQL or PGlite, schema `svc_auth`) and
 * `createMemoryStore` — and one conformance suite (`conformance.ts`) holds both to it.
 *
 * Secrets never reach a store in clear: refresh, reset and verification tokens arrive as their
 * SHA-256 hex digests, passwords as bcrypt hashes. Every time a store writes or compares comes
 * from its injected clock (`now`), so tests can move time.
 */

import type { RateLimitKey, RateLimitOutcome } from '../rate-limit/window';
import type { AuthAssuranceLevel } from '../token/verify';

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

export interface AuthStore {
  /** Creates or upgrades the storage; idempotent. */
  migrate(): Promise<void>;

  // --- accounts -------------------------------------------------------------------------------
  /**
   * Inserts a user. A taken email, or a username taken in any letter case, throws
   * `USER_ALREADY_EXISTS` (unique constraints). Callers pass identifiers already normalised.
   */
  createUser(user: NewUser): Promise<UserRecord>;
  findUserById(id: string): Promise<UserRecord | null>;
  /** Case-insensitive. */
  findUserByEmail(email: string): Promise<UserRecord | null>;
  /** By email (case-insensitive) or username (case-insensitive). */
  findUserByLogin(key: LoginKey): Promise<UserRecord | null>;
  /**
   * Replaces the password hash, revokes every session of the user and consumes every live reset
   * token of the user (a reset link must not outlive the password it was sent for), atomically.
   * False: no such user.
   */
  replacePassword(userId: string, passwordHash: string): Promise<boolean>;
  /**
   * Replaces the hash only while it is still `currentHash` (the same password hashed again, for
   * example in its normalised form); sessions and tokens are untouched. False: it had changed.
   */
  rehashPassword(userId: string, currentHash: string, passwordHash: string): Promise<boolean>;
  markEmailVerified(userId: string): Promise<boolean>;
  /** Deactivating also revokes every session of the user, atomically. False: no such user. */
  setActive(userId: string, active: boolean): Promise<boolean>;
  /**
   * One page of users, oldest first (ties by id), each with its roles, and the number of users
   * in all. `limit` and `offset` arrive checked (1..1000, 0 or more).
   */
  listUsers(page: {
    readonly limit: number;
    readonly offset: number;
  }): Promise<{ users: ListedUserRecord[]; total: number }>;

  // --- sessions -------------------------------------------------------------------------------
  createSession(session: NewSession): Promise<SessionRecord>;
  /** The state of the session an access token names (by jti) and of its user, or null. */
  sessionState(accessJti: string): Promise<SessionState | null>;
  /** The session holding `refreshHash` (live or not) and its user, or null (a read; `rotateSession` decides). */
  refreshState(refreshHash: string): Promise<RefreshState | null>;
  /** Moves last activity forward to now (never backward). */
  touchSession(sessionId: string): Promise<void>;
  /**
   * Raises a live session to `aal2` (never lowers it): the session that has just proven the
   * second factor by confirming a TOTP enrolment. Its next tokens carry the level.
   */
  raiseSessionAssurance(sessionId: string): Promise<void>;
  /**
   * Revokes the session holding `refreshHash` — live, unexpired, active after `activeSince` (not
   * idled out) and of an active user — and inserts `next` for the same user, with the same family
   * and assurance level, in one transaction with one conditional UPDATE: of concurrent callers
   * exactly one gets `{previous, next}`; the others get null.
   */
  rotateSession(
    refreshHash: string,
    next: Omit<NewSession, 'userId' | 'aal'>,
    activeSince: Date,
  ): Promise<{ previous: SessionRecord; next: SessionRecord } | null>;
  revokeSession(sessionId: string): Promise<void>;
  /** Revokes every live session of the user; returns how many. */
  revokeUserSessions(userId: string): Promise<number>;

  // --- sessions: families, lists, guests (issue 12) -------------------------------------------
  /** Revokes every live session of the rotation family; returns how many. */
  revokeSessionFamily(familyId: string): Promise<number>;
  /**
   * The user's live sessions (not revoked, refresh token unexpired, active after `activeSince`),
   * newest activity first.
   */
  listLiveSessions(userId: string, activeSince: Date): Promise<SessionRecord[]>;
  /** Revokes one unrevoked session of the user; false when the user has no such session. */
  revokeUserSession(userId: string, sessionId: string): Promise<boolean>;
  /** Revokes every live session of the user but `keepSessionId`; returns how many. */
  revokeOtherSessions(userId: string, keepSessionId: string): Promise<number>;
  /**
   * Turns a guest into a regular account, atomically: email and password hash replaced,
   * `isAnonymous` false, `emailVerified` false, every session of the user revoked. Null when the
   * user is not (or no longer) a guest. A taken email throws `USER_ALREADY_EXISTS`.
   */
  upgradeAnonymousUser(
    userId: string,
    email: string,
    passwordHash: string,
  ): Promise<UserRecord | null>;

  /**
   * Deletes at most `limit` guests (`isAnonymous`) inactive since `inactiveSince`: made at or
   * before it, with no session active after it. Everything of theirs goes with them (sessions,
   * tokens, passkeys...), as the foreign keys cascade. Concurrent callers (other processes) never
   * wait on each other or on a guest being upgraded: a row another transaction holds is skipped.
   * Returns how many were deleted.
   */
  deleteInactiveGuests(inactiveSince: Date, limit: number): Promise<number>;

  // --- one-time tokens ------------------------------------------------------------------------
  /** Issues a reset token, consuming the user's earlier ones (only the newest link works). */
  issueResetToken(userId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /**
   * Consumes an unconsumed, unexpired reset token (single use, atomic) and every other live reset
   * token of its user; returns the user id, or null.
   */
  consumeResetToken(tokenHash: string): Promise<string | null>;
  /** Issues a verification token, consuming the user's earlier ones (they stop working). */
  issueVerificationToken(userId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  consumeVerificationToken(tokenHash: string): Promise<string | null>;

  // --- passwordless: magic links and magic codes ---------------------------------------------
  /** Issues a magic-link token (SHA-256 hex) for a user, consuming the user's earlier live ones. */
  issueMagicLinkToken(userId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /**
   * Issues a magic-link signup token for an email that has no account (kept apart from users'
   * tokens), consuming the earlier live ones of that email. `email` arrives canonical.
   */
  issueMagicLinkSignupToken(email: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /**
   * Consumes an unconsumed, unexpired magic-link token of either kind with one conditional UPDATE
   * (single use: of concurrent callers exactly one gets it); what it named, or null.
   */
  redeemMagicLink(tokenHash: string): Promise<MagicLinkRedemption | null>;
  /** Stores the user's magic code (a keyed digest), replacing any earlier one (which dies). */
  issueMagicCode(userId: string, codeHash: string, expiresAt: Date): Promise<void>;
  /**
   * Checks `codeHash` against the user's live code (unconsumed, unexpired, fewer than
   * `maxAttempts` wrong tries) in one conditional UPDATE: a match consumes it (`ok`), a mismatch
   * counts one try (`wrong`); no live code is `none`. Concurrent callers never count past the limit
   * nor consume a code twice.
   */
  verifyMagicCode(userId: string, codeHash: string, maxAttempts: number): Promise<MagicCodeOutcome>;

  // --- roles ----------------------------------------------------------------------------------
  /** Null when the name is taken. */
  createRole(name: string, description: string | null): Promise<RoleRecord | null>;
  /** Creates the role unless it exists; returns it. */
  ensureRole(name: string, description: string | null): Promise<RoleRecord>;
  /** Deletes the role and every assignment of it; false when there was none. */
  deleteRole(name: string): Promise<boolean>;
  /** Sorted by name. */
  listRoles(): Promise<RoleRecord[]>;
  assignRole(userId: string, role: string): Promise<AssignResult>;
  /** False when the user did not hold it. */
  revokeRole(userId: string, role: string): Promise<boolean>;
  /** Role names the user holds, sorted. */
  userRoles(userId: string): Promise<string[]>;

  // --- rate limits ----------------------------------------------------------------------------
  /**
   * Checks and counts one request against every key (distinct keys), atomically: when each key
   * holds fewer than `limit` hits within its last `windowMs`, a hit stamped now is added to every
   * key and the request is allowed; otherwise nothing is counted and the outcome says how long
   * until it would pass. Concurrent callers (other processes included) never push a key past its
   * limit.
   */
  hitRateLimit(keys: readonly RateLimitKey[]): Promise<RateLimitOutcome>;
  /** Deletes the counters whose every hit has left its window; returns how many. */
  pruneRateLimits(): Promise<number>;

  // --- webauthn -------------------------------------------------------------------------------
  /** Stores a challenge and returns its id (a UUID); also deletes challenges long expired. */
  createWebAuthnChallenge(challenge: NewWebAuthnChallenge): Promise<string>;
  /**
   * Consumes the unconsumed, unexpired challenge `id` of `ceremony` (one conditional UPDATE:
   * single use even across processes) and returns it; null when there is none.
   */
  consumeWebAuthnChallenge(
    id: string,
    ceremony: WebAuthnCeremony,
  ): Promise<WebAuthnChallengeRecord | null>;
  /** Stores a credential; null when the credential id is already registered (to anyone). */
  createWebAuthnCredential(
    credential: NewWebAuthnCredential,
  ): Promise<WebAuthnCredentialRecord | null>;
  findWebAuthnCredential(credentialId: string): Promise<WebAuthnCredentialRecord | null>;
  /** The user's credentials, oldest first. */
  listWebAuthnCredentials(userId: string): Promise<WebAuthnCredentialRecord[]>;
  /**
   * Records a use: stores `signCount` and stamps `lastUsedAt`, only while the stored counter is
   * below `signCount`, or both are 0 (an authenticator without a counter). One conditional UPDATE;
   * false (and nothing changed) otherwise: the counter did not move forward.
   */
  useWebAuthnCredential(credentialId: string, signCount: number): Promise<boolean>;
  /** Deletes the user's credential; false when the user holds no such credential. */
  deleteWebAuthnCredential(userId: string, credentialId: string): Promise<boolean>;
  // --- MFA: TOTP, recovery codes, challenges (src/mfa) ----------------------------------------
  /**
   * Stores a new TOTP secret (already encrypted: opaque to the store) for the user, pending
   * (`confirmedAt` null, no step used), replacing any earlier enrolment, confirmed or not.
   */
  putTotpSecret(userId: string, secretCiphertext: string): Promise<void>;
  totpFactor(userId: string): Promise<TotpFactorRecord | null>;
  /**
   * Confirms the pending enrolment holding exactly `secretCiphertext` (a later enroll replaced it:
   * false) and records `step` as used, in one conditional UPDATE.
   */
  confirmTotp(userId: string, secretCiphertext: string, step: number): Promise<boolean>;
  /**
   * Records `step` as the user's last accepted TOTP step if the factor is confirmed and `step` is
   * above the last one (one conditional UPDATE: of concurrent callers with one code, one wins).
   */
  useTotpStep(userId: string, step: number): Promise<boolean>;
  /** Removes the user's TOTP enrolment; false when there was none. */
  deleteTotp(userId: string): Promise<boolean>;
  /** Replaces every recovery code of the user (used or not) by this batch of hashes, atomically. */
  replaceRecoveryCodes(userId: string, codeHashes: readonly string[]): Promise<void>;
  /** Burns an unused code of the user (conditional UPDATE); false when none matched. */
  consumeRecoveryCode(userId: string, codeHash: string): Promise<boolean>;
  /** Whether the user owes a second factor, and how many recovery codes are left: one query. */
  mfaState(userId: string): Promise<MfaState>;
  /** Opens a challenge (and deletes the user's expired or consumed ones). */
  createMfaChallenge(tokenHash: string, userId: string, expiresAt: Date): Promise<void>;
  /**
   * Counts one try against a live challenge (unconsumed, unexpired, fewer than `maxAttempts`
   * tries so far) in one conditional UPDATE; the user id, or null when the challenge is dead.
   */
  attemptMfaChallenge(tokenHash: string, maxAttempts: number): Promise<string | null>;
  /**
   * Consumes the challenge and spends the proof (the TOTP step, or the recovery code) in one
   * transaction: both or neither. `challenge-dead`: consumed (by a concurrent caller), expired or
   * unknown; `proof-refused`: the step was not above the last one or the code was used.
   */
  completeMfaChallenge(
    tokenHash: string,
    proof: MfaProof,
  ): Promise<'completed' | 'challenge-dead' | 'proof-refused'>;
  // --- OAuth / OIDC (oauth/) --------------------------------------------------------------------
  createOAuthState(state: NewOAuthState): Promise<void>;
  /**
   * Consumes the unconsumed, unexpired state of `provider` with this hash (one conditional UPDATE:
   * of concurrent callers one gets the record, the others null).
   */
  consumeOAuthState(stateHash: string, provider: string): Promise<OAuthStateRecord | null>;
  /** The user a provider account is linked to, or null. */
  findUserByIdentity(provider: string, subject: string): Promise<UserRecord | null>;
  /**
   * Creates the user and links the identity, atomically. An email or an identity already taken
   * throws `USER_ALREADY_EXISTS` and writes nothing.
   */
  createUserWithIdentity(user: NewUser, identity: OAuthIdentity): Promise<UserRecord>;
  /**
   * The address of the user was proven by a sign-in (a magic link or code sent to it, or a
   * provider vouching for it, DECISIONS "Added 2026-11-29"), atomically:
   * - with `link`, the provider account is linked to the user first (a no-op when that exact link
   *   exists; one linked to another user throws `USER_ALREADY_EXISTS` and changes nothing);
   * - when the address was not verified yet, it becomes verified, and everything whoever held the
   *   account before the proof could sign in with, or still holds, is dropped: the password, the
   *   passkeys, the provider accounts linked before (all but `link`), every session (their refresh
   *   tokens with them), and what is in flight: reset and verification tokens, open MFA challenges,
   *   OAuth codes not yet exchanged. Second factors (TOTP, recovery codes) stay: the address is one
   *   factor, and must not get past the other;
   * - when it was verified already, nothing else changes (`proved` false).
   * A session the user's rotation inserts concurrently is revoked too (rotations and the proof
   * serialise on the user's row). Null when there is no such user.
   */
  proveEmail(userId: string, link?: OAuthIdentity): Promise<EmailProof | null>;
  /** The identities of a user, oldest first. */
  listIdentities(userId: string): Promise<OAuthIdentityRecord[]>;
  issueOAuthCode(code: NewOAuthCode): Promise<void>;
  /** Consumes an unconsumed, unexpired code (single use, one conditional UPDATE), or null. */
  consumeOAuthCode(codeHash: string): Promise<OAuthCodeRecord | null>;
}

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
