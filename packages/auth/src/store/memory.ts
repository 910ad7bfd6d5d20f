import { randomUUID } from 'node:crypto';
import { authError } from '../errors';
import { checkRateLimitKeys, decideRateLimit } from '../rate-limit/window';
import type {
  AssignResult,
  AuthStore,
  LoginKey,
  MagicCodeOutcome,
  MagicLinkRedemption,
  NewSession,
  NewUser,
  NewOAuthState,
  OAuthIdentityRecord,
  RefreshState,
  RoleRecord,
  SessionRecord,
  SessionState,
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

interface SessionRow extends SessionRecord {
  refreshHash: string;
  rotatedAt: Date | null;
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
  const magicLinkTokens = new Map<string, OneTimeRow>();
  const magicSignupTokens = new Map<
    string,
    { email: string; expiresAt: Date; consumedAt: Date | null }
  >();
  const magicCodes = new Map<
    string,
    { codeHash: string; attempts: number; expiresAt: Date; consumedAt: Date | null }
  >();
  const webauthnChallenges = new Map<string, WebAuthnChallengeRecord & { consumed: boolean }>();
  const webauthnCredentials = new Map<string, WebAuthnCredentialRecord>();
  const copyCredential = (c: WebAuthnCredentialRecord): WebAuthnCredentialRecord => ({
    ...c,
    publicKey: new Uint8Array(c.publicKey),
  });
  const totpFactors = new Map<string, TotpFactorRecord>();
  /** Per user: code hash → when it was used (null: unused). */
  const recoveryCodes = new Map<string, Map<string, Date | null>>();
  const mfaChallenges = new Map<
    string,
    { userId: string; expiresAt: Date; consumedAt: Date | null; attempts: number }
  >();
  const useTotpStep = (userId: string, step: number) => {
    const f = totpFactors.get(userId);
    if (!f?.confirmedAt || (f.lastUsedStep !== null && f.lastUsedStep >= step)) return false;
    totpFactors.set(userId, { ...f, lastUsedStep: step });
    return true;
  };
  const useRecoveryCode = (userId: string, codeHash: string) => {
    const codes = recoveryCodes.get(userId);
    if (!codes || codes.get(codeHash) !== null) return false;
    codes.set(codeHash, now());
    return true;
  };
  const liveChallenge = (tokenHash: string) => {
    const c = mfaChallenges.get(tokenHash);
    return c && !c.consumedAt && c.expiresAt.getTime() > now().getTime() ? c : undefined;
  };

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
  const copySession = ({ refreshHash: _h, rotatedAt: _r, ...s }: SessionRow): SessionRecord => ({
    ...s,
  });
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
  const revokeAll = (userId: string) => revokeWhere((s) => s.userId === userId);
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
  const insertSession = (s: NewSession, familyId?: string): SessionRow => {
    for (const other of sessions.values()) {
      if (other.accessJti === s.accessJti || other.refreshHash === s.refreshHash) {
        throw new Error('session jti or refresh hash already in use');
      }
    }
    if (!users.has(s.userId)) throw new Error(`no user ${s.userId}`);
    const at = now();
    const id = uuid();
    const row: SessionRow = {
      id,
      familyId: familyId ?? id,
      rotatedAt: null,
      userId: s.userId,
      accessJti: s.accessJti,
      refreshHash: s.refreshHash,
      ip: s.ip ?? null,
      userAgent: s.userAgent ?? null,
      createdAt: at,
      expiresAt: s.expiresAt,
      lastActivityAt: at,
      revokedAt: null,
      aal: s.aal ?? 'aal1',
    };
    sessions.set(row.id, row);
    return row;
  };

  /** Deletes the user and every row of theirs: what the Postgres store's cascading foreign keys do. */
  const deleteUser = (userId: string) => {
    users.delete(userId);
    userRoles.delete(userId);
    magicCodes.delete(userId);
    totpFactors.delete(userId);
    recoveryCodes.delete(userId);
    const owned: Array<Map<string, { userId: string | null }>> = [
      sessions,
      resetTokens,
      verificationTokens,
      magicLinkTokens,
      webauthnChallenges,
      webauthnCredentials,
      mfaChallenges,
      oauthIdentities,
      oauthCodes,
    ];
    for (const table of owned)
      for (const [key, row] of table) if (row.userId === userId) table.delete(key);
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
        isAnonymous: input.isAnonymous ?? false,
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
          aal: s.aal,
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
          familyId: s.familyId,
          rotatedAt: s.rotatedAt,
          aal: s.aal,
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
    async raiseSessionAssurance(id) {
      const s = sessions.get(id);
      if (s && !s.revokedAt) sessions.set(id, { ...s, aal: 'aal2' });
    },
    async rotateSession(refreshHash, next, activeSince) {
      const at = now();
      for (const [id, s] of sessions) {
        if (s.refreshHash !== refreshHash) continue;
        if (s.revokedAt || s.expiresAt.getTime() <= at.getTime()) return null;
        if (s.lastActivityAt.getTime() <= activeSince.getTime() || !users.get(s.userId)?.active)
          return null;
        const previous = { ...s, revokedAt: at, rotatedAt: at };
        sessions.set(id, previous);
        const created = insertSession({ ...next, userId: s.userId, aal: s.aal }, s.familyId);
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

    // --- sessions: families, lists, guests (issue 12) -----------------------------------------
    async revokeSessionFamily(familyId) {
      return revokeWhere((s) => s.familyId === familyId);
    },
    async listLiveSessions(userId, activeSince) {
      const at = now().getTime();
      return [...sessions.values()]
        .filter(
          (s) =>
            s.userId === userId &&
            !s.revokedAt &&
            s.expiresAt.getTime() > at &&
            s.lastActivityAt.getTime() > activeSince.getTime(),
        )
        .sort(
          (a, b) =>
            b.lastActivityAt.getTime() - a.lastActivityAt.getTime() ||
            b.createdAt.getTime() - a.createdAt.getTime() ||
            compare(a.id, b.id),
        )
        .map(copySession);
    },
    async revokeUserSession(userId, sessionId) {
      const s = sessions.get(sessionId);
      if (!s || s.userId !== userId || s.revokedAt) return false;
      sessions.set(sessionId, { ...s, revokedAt: now() });
      return true;
    },
    async revokeOtherSessions(userId, keepSessionId) {
      let n = 0;
      const at = now();
      for (const [id, s] of sessions) {
        if (s.userId === userId && id !== keepSessionId && !s.revokedAt) {
          sessions.set(id, { ...s, revokedAt: at });
          n++;
        }
      }
      return n;
    },
    async upgradeAnonymousUser(userId, email, passwordHash) {
      const u = users.get(userId);
      if (!u || !u.isAnonymous) return null;
      const lower = email.toLowerCase();
      const holder = byEmail(lower);
      if (holder && holder.id !== userId)
        throw authError('USER_ALREADY_EXISTS', 'a user with this email already exists');
      update(userId, { email: lower, passwordHash, isAnonymous: false, emailVerified: false });
      revokeAll(userId);
      return copyUser(users.get(userId) as UserRecord);
    },

    async deleteInactiveGuests(inactiveSince, limit) {
      const since = inactiveSince.getTime();
      const idle = [...users.values()]
        .filter(
          (u) =>
            u.isAnonymous &&
            u.createdAt.getTime() <= since &&
            ![...sessions.values()].some(
              (s) => s.userId === u.id && s.lastActivityAt.getTime() > since,
            ),
        )
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .slice(0, limit);
      for (const u of idle) deleteUser(u.id);
      return idle.length;
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

    async issueMagicLinkToken(userId, tokenHash, expiresAt) {
      if (!users.has(userId)) throw new Error(`no user ${userId}`);
      consumeAll(magicLinkTokens, userId, now());
      magicLinkTokens.set(tokenHash, { userId, expiresAt, consumedAt: null });
    },
    async issueMagicLinkSignupToken(email, tokenHash, expiresAt) {
      const e = email.toLowerCase();
      const at = now();
      for (const [hash, row] of magicSignupTokens) {
        if (row.email !== e) continue;
        if (row.consumedAt || row.expiresAt.getTime() <= at.getTime())
          magicSignupTokens.delete(hash);
        else row.consumedAt = at;
      }
      magicSignupTokens.set(tokenHash, { email: e, expiresAt, consumedAt: null });
    },
    async redeemMagicLink(tokenHash): Promise<MagicLinkRedemption | null> {
      const userId = consume(magicLinkTokens, tokenHash, false);
      if (userId) return { kind: 'user', userId };
      const row = magicSignupTokens.get(tokenHash);
      const at = now();
      if (!row || row.consumedAt || row.expiresAt.getTime() <= at.getTime()) return null;
      row.consumedAt = at;
      return { kind: 'signup', email: row.email };
    },
    async issueMagicCode(userId, codeHash, expiresAt) {
      if (!users.has(userId)) throw new Error(`no user ${userId}`);
      magicCodes.set(userId, { codeHash, attempts: 0, expiresAt, consumedAt: null });
    },
    async verifyMagicCode(userId, codeHash, maxAttempts): Promise<MagicCodeOutcome> {
      const row = magicCodes.get(userId);
      const at = now();
      if (
        !row ||
        row.consumedAt ||
        row.expiresAt.getTime() <= at.getTime() ||
        row.attempts >= maxAttempts
      )
        return 'none';
      if (row.codeHash === codeHash) {
        row.consumedAt = at;
        return 'ok';
      }
      row.attempts++;
      return 'wrong';
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

    async createWebAuthnChallenge(c) {
      const t = now().getTime();
      for (const [id, row] of webauthnChallenges)
        if (row.expiresAt.getTime() < t - 3600_000) webauthnChallenges.delete(id);
      if (c.userId !== null && !users.has(c.userId)) throw new Error(`no user ${c.userId}`);
      const id = uuid();
      webauthnChallenges.set(id, {
        id,
        ceremony: c.ceremony,
        userId: c.userId,
        challengeHash: c.challengeHash,
        expiresAt: c.expiresAt,
        secondFactor: c.secondFactor ?? false,
        consumed: false,
      });
      return id;
    },
    async consumeWebAuthnChallenge(id, ceremony) {
      const row = webauthnChallenges.get(id);
      if (!row || row.consumed || row.ceremony !== ceremony) return null;
      if (row.expiresAt.getTime() <= now().getTime()) return null;
      if (row.userId !== null && !users.has(row.userId)) return null;
      row.consumed = true;
      const { consumed: _c, ...record } = row;
      return record;
    },
    async createWebAuthnCredential(c) {
      if (webauthnCredentials.has(c.credentialId)) return null;
      if (!users.has(c.userId)) throw new Error(`no user ${c.userId}`);
      const record: WebAuthnCredentialRecord = {
        ...c,
        publicKey: new Uint8Array(c.publicKey),
        createdAt: now(),
        lastUsedAt: null,
      };
      webauthnCredentials.set(c.credentialId, record);
      return copyCredential(record);
    },
    async findWebAuthnCredential(credentialId) {
      const c = webauthnCredentials.get(credentialId);
      return c && users.has(c.userId) ? copyCredential(c) : null;
    },
    async listWebAuthnCredentials(userId) {
      return [...webauthnCredentials.values()]
        .filter((c) => c.userId === userId)
        .sort(
          (a, b) =>
            a.createdAt.getTime() - b.createdAt.getTime() ||
            compare(a.credentialId, b.credentialId),
        )
        .map(copyCredential);
    },
    async useWebAuthnCredential(credentialId, signCount) {
      const c = webauthnCredentials.get(credentialId);
      if (!c || !users.has(c.userId)) return false;
      if (!(c.signCount < signCount || (c.signCount === 0 && signCount === 0))) return false;
      webauthnCredentials.set(credentialId, { ...c, signCount, lastUsedAt: now() });
      return true;
    },
    async deleteWebAuthnCredential(userId, credentialId) {
      const c = webauthnCredentials.get(credentialId);
      if (!c || c.userId !== userId) return false;
      webauthnCredentials.delete(credentialId);
      return true;
    },
    // --- MFA (src/mfa) ---------------------------------------------------------------------------
    async putTotpSecret(userId, secretCiphertext) {
      if (!users.has(userId)) throw new Error(`no user ${userId}`);
      totpFactors.set(userId, {
        userId,
        secretCiphertext,
        confirmedAt: null,
        lastUsedStep: null,
      });
    },
    async totpFactor(userId) {
      const f = totpFactors.get(userId);
      return f ? { ...f } : null;
    },
    async confirmTotp(userId, secretCiphertext, step) {
      const f = totpFactors.get(userId);
      if (!f || f.secretCiphertext !== secretCiphertext || f.confirmedAt) return false;
      totpFactors.set(userId, { ...f, confirmedAt: now(), lastUsedStep: step });
      return true;
    },
    async useTotpStep(userId, step) {
      return useTotpStep(userId, step);
    },
    async deleteTotp(userId) {
      return totpFactors.delete(userId);
    },
    async replaceRecoveryCodes(userId, codeHashes) {
      if (!users.has(userId)) throw new Error(`no user ${userId}`);
      recoveryCodes.set(userId, new Map(codeHashes.map((h) => [h, null])));
    },
    async consumeRecoveryCode(userId, codeHash) {
      return useRecoveryCode(userId, codeHash);
    },
    async mfaState(userId) {
      let unused = 0;
      for (const usedAt of recoveryCodes.get(userId)?.values() ?? []) if (!usedAt) unused++;
      return {
        totpConfirmed: Boolean(totpFactors.get(userId)?.confirmedAt),
        unusedRecoveryCodes: unused,
      };
    },
    async createMfaChallenge(tokenHash, userId, expiresAt) {
      if (!users.has(userId)) throw new Error(`no user ${userId}`);
      const at = now().getTime();
      for (const [hash, c] of mfaChallenges) {
        if (c.userId === userId && (c.consumedAt || c.expiresAt.getTime() <= at))
          mfaChallenges.delete(hash);
      }
      mfaChallenges.set(tokenHash, { userId, expiresAt, consumedAt: null, attempts: 0 });
    },
    async attemptMfaChallenge(tokenHash, maxAttempts) {
      const c = liveChallenge(tokenHash);
      if (!c || c.attempts >= maxAttempts) return null;
      c.attempts++;
      return c.userId;
    },
    async completeMfaChallenge(tokenHash, proof) {
      const c = liveChallenge(tokenHash);
      if (!c) return 'challenge-dead';
      const spent =
        proof.kind === 'totp'
          ? useTotpStep(c.userId, proof.step)
          : useRecoveryCode(c.userId, proof.codeHash);
      if (!spent) return 'proof-refused';
      c.consumedAt = now();
      return 'completed';
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
    async proveEmail(userId, link) {
      const user = users.get(userId);
      if (!user) return null;
      const at = now();
      if (link) {
        const key = identityKey(link.provider, link.subject);
        const existing = oauthIdentities.get(key);
        if (existing && existing.userId !== userId)
          throw authError('USER_ALREADY_EXISTS', 'this provider account is linked to another user');
        if (!existing)
          oauthIdentities.set(key, {
            provider: link.provider,
            subject: link.subject,
            email: link.email?.toLowerCase() ?? null,
            userId,
            createdAt: at,
          });
      }
      if (user.emailVerified) return { user: copyUser(user), proved: false };
      update(userId, { emailVerified: true, passwordHash: null });
      revokeAll(userId);
      consumeAll(resetTokens, userId, at);
      consumeAll(verificationTokens, userId, at);
      for (const c of mfaChallenges.values())
        if (c.userId === userId && !c.consumedAt) c.consumedAt = at;
      for (const c of oauthCodes.values())
        if (c.userId === userId && !c.consumedAt) c.consumedAt = at;
      for (const [id, c] of webauthnCredentials)
        if (c.userId === userId) webauthnCredentials.delete(id);
      const kept = link ? identityKey(link.provider, link.subject) : undefined;
      for (const [key, i] of oauthIdentities)
        if (i.userId === userId && key !== kept) oauthIdentities.delete(key);
      return { user: copyUser(users.get(userId) as UserRecord), proved: true };
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
