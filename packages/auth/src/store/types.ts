/**
 * The storage contract of @svc/auth: domain verbs, not CRUD. Two implementations keep it —
 * `createPostgresStore` (Kysely over PostgreSQL or PGlite, schema `svc_auth`) and
 * `createMemoryStore` — and one conformance suite (`conformance.ts`) holds both to it.
 *
 * Secrets never reach a store in clear: refresh, reset and verification tokens arrive as their
 * SHA-256 hex digests, passwords as bcrypt hashes. Every time a store writes or compares comes
 * from its injected clock (`now`), so tests can move time.
 */

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

export interface RoleRecord {
  readonly name: string;
  readonly description: string | null;
}

/** A user with the names of the roles it holds, sorted: one row of `listUsers`. */
export type ListedUserRecord = UserRecord & { readonly roles: string[] };

export type LoginKey = { readonly email: string } | { readonly username: string };

export type AssignResult = 'assigned' | 'already-assigned' | 'no-such-role' | 'no-such-user';

export interface AuthStore {
  /** Creates or upgrades the storage; idempotent. */
  migrate(): Promise<void>;

  // --- accounts -------------------------------------------------------------------------------
  /** Inserts a user. A taken email or username throws `USER_ALREADY_EXISTS` (unique constraints). */
  createUser(user: NewUser): Promise<UserRecord>;
  findUserById(id: string): Promise<UserRecord | null>;
  /** Case-insensitive. */
  findUserByEmail(email: string): Promise<UserRecord | null>;
  /** By email (case-insensitive) or username (exact). */
  findUserByLogin(key: LoginKey): Promise<UserRecord | null>;
  /** Replaces the password hash and revokes every session of the user, atomically. False: no such user. */
  replacePassword(userId: string, passwordHash: string): Promise<boolean>;
  markEmailVerified(userId: string): Promise<boolean>;
  setActive(userId: string, active: boolean): Promise<boolean>;
  /**
   * One page of users, oldest first (ties by id), each with its roles, and the number of users
   * in all. `limit` and `offset` arrive checked (1..1000, 0 or more).
   */
  listUsers(page: { readonly limit: number; readonly offset: number }): Promise<{ users: ListedUserRecord[]; total: number }>;

  // --- sessions -------------------------------------------------------------------------------
  createSession(session: NewSession): Promise<SessionRecord>;
  /** The state of the session an access token names (by jti) and of its user, or null. */
  sessionState(accessJti: string): Promise<SessionState | null>;
  /** The user of the live, unexpired session holding `refreshHash`, or null (a read; `rotateSession` decides). */
  refreshableSessionUser(refreshHash: string): Promise<string | null>;
  /** Moves last activity forward to now (never backward). */
  touchSession(sessionId: string): Promise<void>;
  /**
   * Revokes the live, unexpired session holding `refreshHash` and inserts `next` for the same
   * user, in one transaction with one conditional UPDATE: of concurrent callers exactly one gets
   * `{previous, next}`; the others get null.
   */
  rotateSession(
    refreshHash: string,
    next: Omit<NewSession, 'userId'>,
  ): Promise<{ previous: SessionRecord; next: SessionRecord } | null>;
  revokeSession(sessionId: string): Promise<void>;
  /** Revokes every live session of the user; returns how many. */
  revokeUserSessions(userId: string): Promise<number>;

  // --- one-time tokens ------------------------------------------------------------------------
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
}
