/**
 * The tables of the memory store, and the few helpers more than one feature needs: what
 * `sql.ts` is to the Postgres store. One `MemoryState` per store; every feature's memory verbs
 * read and write it. Every verb runs synchronously inside one promise, so each is atomic.
 */
import { randomUUID } from 'node:crypto';
import type { UserTokenRow } from './single-use';
import type {
  NewOAuthState,
  NewUser,
  OAuthIdentityRecord,
  RoleRecord,
  SessionRecord,
  TotpFactorRecord,
  UserRecord,
  WebAuthnChallengeRecord,
  WebAuthnCredentialRecord,
} from './types';

export interface MemoryStoreOptions {
  /** Clock. @default Date.now */
  readonly now?: () => number;
  /** Id generator. @default crypto.randomUUID */
  readonly uuid?: () => string;
}

export interface SessionRow extends SessionRecord {
  refreshHash: string;
  rotatedAt: Date | null;
}

export type MemoryState = ReturnType<typeof createMemoryState>;

export function createMemoryState(options: MemoryStoreOptions = {}) {
  const now = () => new Date((options.now ?? Date.now)());
  const uuid = options.uuid ?? randomUUID;
  const users = new Map<string, UserRecord>();
  const sessions = new Map<string, SessionRow>();
  const tables = {
    users,
    sessions,
    resetTokens: new Map<string, UserTokenRow>(),
    verificationTokens: new Map<string, UserTokenRow>(),
    roles: new Map<string, RoleRecord>(),
    userRoles: new Map<string, Set<string>>(),
    rateLimits: new Map<string, { hits: number[]; expiresAt: number }>(),
    magicLinkTokens: new Map<string, UserTokenRow>(),
    magicSignupTokens: new Map<
      string,
      { email: string; expiresAt: Date; consumedAt: Date | null }
    >(),
    magicCodes: new Map<
      string,
      { codeHash: string; attempts: number; expiresAt: Date; consumedAt: Date | null }
    >(),
    webauthnChallenges: new Map<string, WebAuthnChallengeRecord & { consumedAt: Date | null }>(),
    webauthnCredentials: new Map<string, WebAuthnCredentialRecord>(),
    totpFactors: new Map<string, TotpFactorRecord>(),
    /** Per user: code hash → when it was used (null: unused). */
    recoveryCodes: new Map<string, Map<string, Date | null>>(),
    mfaChallenges: new Map<
      string,
      { userId: string; expiresAt: Date; consumedAt: Date | null; attempts: number }
    >(),
    oauthStates: new Map<string, NewOAuthState & { consumedAt: Date | null }>(),
    oauthIdentities: new Map<string, OAuthIdentityRecord>(),
    oauthCodes: new Map<
      string,
      {
        userId: string;
        provider: string;
        codeChallenge: string | null;
        expiresAt: Date;
        consumedAt: Date | null;
      }
    >(),
  };

  const byEmail = (email: string) => {
    const e = email.toLowerCase();
    for (const u of users.values()) if (u.email === e) return u;
    return undefined;
  };
  const byUsername = (name: string) => {
    const lower = name.toLowerCase();
    for (const u of users.values()) if (u.username?.toLowerCase() === lower) return u;
    return undefined;
  };
  const update = (id: string, patch: Partial<UserRecord>) => {
    const u = users.get(id);
    if (!u) return false;
    users.set(id, { ...u, ...patch, updatedAt: now() });
    return true;
  };
  /** Revokes every live session `which` picks; returns how many. */
  const revokeWhere = (which: (s: SessionRow) => boolean) => {
    let n = 0;
    const at = now();
    for (const [id, s] of sessions) {
      if (which(s) && !s.revokedAt) {
        sessions.set(id, { ...s, revokedAt: at });
        n++;
      }
    }
    return n;
  };
  /** Inserts a new user (the caller checked the unique fields). */
  const insertUser = (input: NewUser, isAnonymous: boolean): UserRecord => {
    const at = now();
    const user: UserRecord = {
      id: uuid(),
      email: input.email.toLowerCase(),
      username: input.username ?? null,
      passwordHash: input.passwordHash,
      emailVerified: input.emailVerified ?? false,
      active: input.active ?? true,
      isAnonymous,
      metadata: structuredClone(input.metadata ?? {}),
      createdAt: at,
      updatedAt: at,
    };
    users.set(user.id, user);
    return user;
  };
  const requireUser = (userId: string) => {
    if (!users.has(userId)) throw new Error(`no user ${userId}`);
  };

  return {
    ...tables,
    now,
    uuid,
    byEmail,
    byUsername,
    update,
    revokeWhere,
    requireUser,
    insertUser,
    revokeAll: (userId: string) => revokeWhere((s) => s.userId === userId),
    identityKey: (provider: string, subject: string) => JSON.stringify([provider, subject]),
    copyUser: (u: UserRecord): UserRecord => ({ ...u, metadata: structuredClone(u.metadata) }),
    copyCredential: (c: WebAuthnCredentialRecord): WebAuthnCredentialRecord => ({
      ...c,
      publicKey: new Uint8Array(c.publicKey),
    }),
    /** Deletes the user and every row of theirs: what the Postgres store's cascading foreign keys do. */
    deleteUser(userId: string) {
      users.delete(userId);
      tables.userRoles.delete(userId);
      tables.magicCodes.delete(userId);
      tables.totpFactors.delete(userId);
      tables.recoveryCodes.delete(userId);
      const owned: Array<Map<string, { userId: string | null }>> = [
        sessions,
        tables.resetTokens,
        tables.verificationTokens,
        tables.magicLinkTokens,
        tables.webauthnChallenges,
        tables.webauthnCredentials,
        tables.mfaChallenges,
        tables.oauthIdentities,
        tables.oauthCodes,
      ];
      for (const table of owned)
        for (const [key, row] of table) if (row.userId === userId) table.delete(key);
    },
  };
}
