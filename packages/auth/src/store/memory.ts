import { randomUUID } from 'node:crypto';
import { authError } from '../errors';
import { checkRateLimitKeys, decideRateLimit } from '../rate-limit/window';
import type {
  AssignResult,
  AuthStore,
  LoginKey,
  NewSession,
  NewUser,
  NewOAuthState,
  OAuthIdentityRecord,
  RefreshState,
  RoleRecord,
  SessionRecord,
  SessionState,
  UserRecord,
} from './types';

export interface MemoryStoreOptions {
  /** Clock. @default Date.now */
  readonly now?: () => number;
  /** Id generator. @default crypto.randomUUID */
  readonly uuid?: () => string;
}

interface SessionRow extends SessionRecord {
  refreshHash: string;
}
interface OneTimeRow {
  userId: string;
  expiresAt: Date;
  consumedAt: Date | null;
}

/**
 * An in-memory `AuthStore`: for tests and for programs that do not need accounts to outlive the
 * process. Every verb runs synchronously inside one promise, so each is atomic by construction.
 * Records handed out are copies: mutating them does not change the store.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): AuthStore {
  const now = () => new Date((options.now ?? Date.now)());
  const uuid = options.uuid ?? randomUUID;
  const users = new Map<string, UserRecord>();
  const sessions = new Map<string, SessionRow>();
  const resetTokens = new Map<string, OneTimeRow>();
  const verificationTokens = new Map<string, OneTimeRow>();
  const roles = new Map<string, RoleRecord>();
  const userRoles = new Map<string, Set<string>>();
  const rateLimits = new Map<string, { hits: number[]; expiresAt: number }>();

  // OAuth / OIDC (oauth/)
  const oauthStates = new Map<string, NewOAuthState & { consumedAt: Date | null }>();
  const oauthIdentities = new Map<string, OAuthIdentityRecord>();
  const oauthCodes = new Map<
    string,
    {
      userId: string;
      provider: string;
      codeChallenge: string | null;
      expiresAt: Date;
      consumedAt: Date | null;
    }
  >();
  const identityKey = (provider: string, subject: string) => JSON.stringify([provider, subject]);
  const copyUser = (u: UserRecord): UserRecord => ({ ...u, metadata: structuredClone(u.metadata) });
  const copySession = ({ refreshHash: _h, ...s }: SessionRow): SessionRecord => ({ ...s });
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
  const revokeAll = (userId: string) => {
    let n = 0;
    const at = now();
    for (const [id, s] of sessions) {
      if (s.userId === userId && !s.revokedAt) {
        sessions.set(id, { ...s, revokedAt: at });
        n++;
      }
    }
    return n;
  };
  const consumeAll = (table: Map<string, OneTimeRow>, userId: string, at: Date) => {
    for (const row of table.values())
      if (row.userId === userId && !row.consumedAt) row.consumedAt = at;
  };
  const consume = (table: Map<string, OneTimeRow>, hash: string, siblings: boolean) => {
    const row = table.get(hash);
    const at = now();
    if (!row || row.consumedAt || row.expiresAt.getTime() <= at.getTime()) return null;
    row.consumedAt = at;
    if (siblings) consumeAll(table, row.userId, at);
    return row.userId;
  };
  const insertSession = (s: NewSession): SessionRow => {
    for (const other of sessions.values()) {
      if (other.accessJti === s.accessJti || other.refreshHash === s.refreshHash) {
        throw new Error('session jti or refresh hash already in use');
      }
    }
    if (!users.has(s.userId)) throw new Error(`no user ${s.userId}`);
    const at = now();
    const row: SessionRow = {
      id: uuid(),
      userId: s.userId,
      accessJti: s.accessJti,
      refreshHash: s.refreshHash,
      ip: s.ip ?? null,
      userAgent: s.userAgent ?? null,
      createdAt: at,
      expiresAt: s.expiresAt,
      lastActivityAt: at,
      revokedAt: null,
    };
    sessions.set(row.id, row);
    return row;
  };

  return {
    async migrate() {},

    async createUser(input: NewUser) {
      const email = input.email.toLowerCase();
      if (byEmail(email))
        throw authError('USER_ALREADY_EXISTS', 'a user with this email already exists');
      if (input.username != null && byUsername(input.username)) {
        throw authError('USER_ALREADY_EXISTS', 'a user with this username already exists');
      }
      const at = now();
      const user: UserRecord = {
        id: uuid(),
        email,
        username: input.username ?? null,
        passwordHash: input.passwordHash,
        emailVerified: input.emailVerified ?? false,
        active: input.active ?? true,
        isAnonymous: false,
        metadata: structuredClone(input.metadata ?? {}),
        createdAt: at,
        updatedAt: at,
      };
      users.set(user.id, user);
      return copyUser(user);
    },
    async findUserById(id) {
      const u = users.get(id);
      return u ? copyUser(u) : null;
    },
    async findUserByEmail(email) {
      const u = byEmail(email);
      return u ? copyUser(u) : null;
    },
    async findUserByLogin(key: LoginKey) {
      const u = 'email' in key ? byEmail(key.email) : byUsername(key.username);
      return u ? copyUser(u) : null;
    },
    async replacePassword(userId, passwordHash) {
      if (!update(userId, { passwordHash })) return false;
      revokeAll(userId);
      consumeAll(resetTokens, userId, now());
      return true;
    },
    async rehashPassword(userId, currentHash, passwordHash) {
      const u = users.get(userId);
      if (!u || u.passwordHash !== currentHash) return false;
      users.set(userId, { ...u, passwordHash });
      return true;
    },
    async markEmailVerified(userId) {
      return update(userId, { emailVerified: true });
    },
    async setActive(userId, active) {
      if (!update(userId, { active })) return false;
      if (!active) revokeAll(userId);
      return true;
    },
    async listUsers({ limit, offset }) {
      const all = [...users.values()].sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compare(a.id, b.id),
      );
      return {
        users: all
          .slice(offset, offset + limit)
          .map((u) => ({ ...copyUser(u), roles: [...(userRoles.get(u.id) ?? [])].sort(compare) })),
        total: all.length,
      };
    },

    async createSession(s) {
      return copySession(insertSession(s));
    },
    async sessionState(jti): Promise<SessionState | null> {
      for (const s of sessions.values()) {
        if (s.accessJti !== jti) continue;
        const u = users.get(s.userId);
        if (!u) return null;
        return {
          sessionId: s.id,
          userId: s.userId,
          revoked: s.revokedAt !== null,
          lastActivityAt: s.lastActivityAt,
          userActive: u.active,
        };
      }
      return null;
    },
    async refreshState(refreshHash): Promise<RefreshState | null> {
      for (const s of sessions.values()) {
        if (s.refreshHash !== refreshHash) continue;
        const u = users.get(s.userId);
        if (!u) return null;
        return {
          sessionId: s.id,
          userId: s.userId,
          revoked: s.revokedAt !== null,
          expiresAt: s.expiresAt,
          lastActivityAt: s.lastActivityAt,
          userActive: u.active,
        };
      }
      return null;
    },
    async touchSession(id) {
      const s = sessions.get(id);
      const at = now();
      if (s && s.lastActivityAt.getTime() < at.getTime())
        sessions.set(id, { ...s, lastActivityAt: at });
    },
    async rotateSession(refreshHash, next, activeSince) {
      const at = now();
      for (const [id, s] of sessions) {
        if (s.refreshHash !== refreshHash) continue;
        if (s.revokedAt || s.expiresAt.getTime() <= at.getTime()) return null;
        if (s.lastActivityAt.getTime() <= activeSince.getTime() || !users.get(s.userId)?.active)
          return null;
        const previous = { ...s, revokedAt: at };
        sessions.set(id, previous);
        const created = insertSession({ ...next, userId: s.userId });
        return { previous: copySession(previous), next: copySession(created) };
      }
      return null;
    },
    async revokeSession(id) {
      const s = sessions.get(id);
      if (s && !s.revokedAt) sessions.set(id, { ...s, revokedAt: now() });
    },
    async revokeUserSessions(userId) {
      return revokeAll(userId);
    },

    async issueResetToken(userId, tokenHash, expiresAt) {
      if (!users.has(userId)) throw new Error(`no user ${userId}`);
      consumeAll(resetTokens, userId, now());
      resetTokens.set(tokenHash, { userId, expiresAt, consumedAt: null });
    },
    async consumeResetToken(tokenHash) {
      return consume(resetTokens, tokenHash, true);
    },
    async issueVerificationToken(userId, tokenHash, expiresAt) {
      if (!users.has(userId)) throw new Error(`no user ${userId}`);
      consumeAll(verificationTokens, userId, now());
      verificationTokens.set(tokenHash, { userId, expiresAt, consumedAt: null });
    },
    async consumeVerificationToken(tokenHash) {
      return consume(verificationTokens, tokenHash, false);
    },

    async createRole(name, description) {
      if (roles.has(name)) return null;
      const role = { name, description };
      roles.set(name, role);
      return { ...role };
    },
    async ensureRole(name, description) {
      if (!roles.has(name)) roles.set(name, { name, description });
      return { ...roles.get(name)! };
    },
    async deleteRole(name) {
      if (!roles.delete(name)) return false;
      for (const set of userRoles.values()) set.delete(name);
      return true;
    },
    async listRoles() {
      return [...roles.values()].sort((a, b) => compare(a.name, b.name)).map((r) => ({ ...r }));
    },
    async assignRole(userId, role): Promise<AssignResult> {
      if (!users.has(userId)) return 'no-such-user';
      if (!roles.has(role)) return 'no-such-role';
      let set = userRoles.get(userId);
      if (!set) {
        set = new Set();
        userRoles.set(userId, set);
      }
      if (set.has(role)) return 'already-assigned';
      set.add(role);
      return 'assigned';
    },
    async revokeRole(userId, role) {
      return userRoles.get(userId)?.delete(role) ?? false;
    },
    async userRoles(userId) {
      return [...(userRoles.get(userId) ?? [])].sort(compare);
    },

    async hitRateLimit(keys) {
      checkRateLimitKeys(keys);
      const hits = new Map(keys.map((k) => [k.key, rateLimits.get(k.key)?.hits ?? []] as const));
      const { outcome, writes } = decideRateLimit(now().getTime(), keys, hits);
      for (const w of writes) rateLimits.set(w.key, { hits: w.hits, expiresAt: w.expiresAt });
      return outcome;
    },
    async pruneRateLimits() {
      const t = now().getTime();
      let n = 0;
      for (const [key, row] of rateLimits) {
        if (row.expiresAt <= t) {
          rateLimits.delete(key);
          n++;
        }
      }
      return n;
    },
    // --- OAuth / OIDC (oauth/) ------------------------------------------------------------------
    async createOAuthState(st) {
      const at = now().getTime();
      for (const [h, row] of oauthStates) if (row.expiresAt.getTime() <= at) oauthStates.delete(h);
      if (oauthStates.has(st.stateHash)) throw new Error('oauth state already in use');
      oauthStates.set(st.stateHash, { ...st, consumedAt: null });
    },
    async consumeOAuthState(stateHash, provider) {
      const row = oauthStates.get(stateHash);
      const at = now();
      if (
        !row ||
        row.provider !== provider ||
        row.consumedAt ||
        row.expiresAt.getTime() <= at.getTime()
      )
        return null;
      row.consumedAt = at;
      const { stateHash: _h, expiresAt: _e, consumedAt: _c, ...record } = row;
      return { ...record };
    },
    async findUserByIdentity(provider, subject) {
      const identity = oauthIdentities.get(identityKey(provider, subject));
      const u = identity ? users.get(identity.userId) : undefined;
      return u ? copyUser(u) : null;
    },
    async createUserWithIdentity(input, identity) {
      const key = identityKey(identity.provider, identity.subject);
      if (oauthIdentities.has(key))
        throw authError('USER_ALREADY_EXISTS', 'a user with this provider account already exists');
      const email = input.email.toLowerCase();
      if (byEmail(email))
        throw authError('USER_ALREADY_EXISTS', 'a user with this email already exists');
      if (input.username != null && byUsername(input.username))
        throw authError('USER_ALREADY_EXISTS', 'a user with this username already exists');
      const at = now();
      const user: UserRecord = {
        id: uuid(),
        email,
        username: input.username ?? null,
        passwordHash: input.passwordHash,
        emailVerified: input.emailVerified ?? false,
        active: input.active ?? true,
        isAnonymous: false,
        metadata: structuredClone(input.metadata ?? {}),
        createdAt: at,
        updatedAt: at,
      };
      users.set(user.id, user);
      oauthIdentities.set(key, {
        provider: identity.provider,
        subject: identity.subject,
        email: identity.email?.toLowerCase() ?? null,
        userId: user.id,
        createdAt: at,
      });
      return copyUser(user);
    },
    async linkIdentity(userId, identity, claimEmail) {
      const user = users.get(userId);
      if (!user) return null;
      const key = identityKey(identity.provider, identity.subject);
      const existing = oauthIdentities.get(key);
      if (existing && existing.userId !== userId)
        throw authError('USER_ALREADY_EXISTS', 'this provider account is linked to another user');
      const at = now();
      if (!existing)
        oauthIdentities.set(key, {
          provider: identity.provider,
          subject: identity.subject,
          email: identity.email?.toLowerCase() ?? null,
          userId,
          createdAt: at,
        });
      if (!claimEmail || user.emailVerified) return copyUser(user);
      update(userId, { emailVerified: true, passwordHash: null });
      revokeAll(userId);
      consumeAll(resetTokens, userId, at);
      return copyUser(users.get(userId) as UserRecord);
    },
    async listIdentities(userId) {
      return [...oauthIdentities.values()]
        .filter((i) => i.userId === userId)
        .sort(
          (a, b) =>
            a.createdAt.getTime() - b.createdAt.getTime() ||
            compare(a.provider, b.provider) ||
            compare(a.subject, b.subject),
        )
        .map((i) => ({ ...i }));
    },
    async issueOAuthCode(code) {
      const at = now().getTime();
      for (const [h, row] of oauthCodes) if (row.expiresAt.getTime() <= at) oauthCodes.delete(h);
      if (oauthCodes.has(code.codeHash)) throw new Error('oauth code already in use');
      if (!users.has(code.userId)) throw new Error(`no user ${code.userId}`);
      oauthCodes.set(code.codeHash, {
        userId: code.userId,
        provider: code.provider,
        codeChallenge: code.codeChallenge,
        expiresAt: code.expiresAt,
        consumedAt: null,
      });
    },
    async consumeOAuthCode(codeHash) {
      const row = oauthCodes.get(codeHash);
      const at = now();
      if (!row || row.consumedAt || row.expiresAt.getTime() <= at.getTime()) return null;
      row.consumedAt = at;
      return { userId: row.userId, provider: row.provider, codeChallenge: row.codeChallenge };
    },
  };
}

/** Code-point order, the order of PostgreSQL's `collate "C"` used by the Postgres store. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
