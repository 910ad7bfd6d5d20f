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
}

export interface NewSession {
  readonly userId: string;
  readonly accessJti: string;
  /** SHA-256 hex of the refresh token. */
  readonly refreshHash: string;
  readonly expiresAt: Date;
  readonly ip?: string | null;
  readonly userAgent?: string | null;
}

/** What `verifyToken` needs to know of a session, from one indexed query. */
export interface SessionState {
  readonly sessionId: string;
  readonly userId: string;
  readonly revoked: boolean;
  readonly lastActivityAt: Date;
  readonly userActive: boolean;
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
}

export interface RoleRecord {
  readonly name: string;
  readonly description: string | null;
}

/** A user with the names of the roles it holds, sorted: one row of `listUsers`. */
export type ListedUserRecord = UserRecord & { readonly roles: string[] };

export type LoginKey = { readonly email: string } | { readonly username: string };

export type AssignResult = 'assigned' | 'already-assigned' | 'no-such-role' | 'no-such-user';

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
   * Revokes the session holding `refreshHash` — live, unexpired, active after `activeSince` (not
   * idled out) and of an active user — and inserts `next` for the same user, in one transaction
   * with one conditional UPDATE: of concurrent callers exactly one gets `{previous, next}`; the
   * others get null.
   */
  rotateSession(
    refreshHash: string,
    next: Omit<NewSession, 'userId'>,
    activeSince: Date,
  ): Promise<{ previous: SessionRecord; next: SessionRecord } | null>;
  revokeSession(sessionId: string): Promise<void>;
  /** Revokes every live session of the user; returns how many. */
  revokeUserSessions(userId: string): Promise<number>;

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
   * Links the identity to an existing user (a no-op when that exact link exists; an identity linked
   * to another user throws `USER_ALREADY_EXISTS`). With `claimEmail`, the provider vouched for the
   * user's address: when it was not verified yet it becomes verified, and the password and every
   * session of the account are dropped (whoever set them never proved the address), atomically.
   * Returns the user as it is after, or null when there is no such user.
   */
  linkIdentity(
    userId: string,
    identity: OAuthIdentity,
    claimEmail: boolean,
  ): Promise<UserRecord | null>;
  /** The identities of a user, oldest first. */
  listIdentities(userId: string): Promise<OAuthIdentityRecord[]>;
  issueOAuthCode(code: NewOAuthCode): Promise<void>;
  /** Consumes an unconsumed, unexpired code (single use, one conditional UPDATE), or null. */
  consumeOAuthCode(codeHash: string): Promise<OAuthCodeRecord | null>;
}
