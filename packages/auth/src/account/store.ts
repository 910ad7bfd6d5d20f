/** Account storage: users, their passwords and state. */
import { sql } from 'kysely';
import { authError } from '../errors';
import type { MemoryState } from '../store/memory-state';
import { consumeUserRowsIn, consumeUserTokens } from '../store/single-use';
import {
  type AuthTables,
  compare,
  isPgError,
  newUserRow,
  type PgRunner,
  pgErrorText,
  revokeUserSessionsIn,
  toUser,
  UUID_RE,
} from '../store/sql';

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

/** A user with the names of the roles it holds, sorted: one row of `listUsers`. */
export type ListedUserRecord = UserRecord & { readonly roles: string[] };

export type LoginKey = { readonly email: string } | { readonly username: string };

export interface AccountStore {
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
}

export function postgresAccountStore(r: PgRunner): AccountStore {
  const { root, k, now } = r;
  const updateUser = async (userId: string, patch: Partial<AuthTables['users']>) => {
    if (!UUID_RE.test(userId)) return false;
    const res = await k()
      .updateTable('users')
      .set({ ...patch, updated_at: now() })
      .where('id', '=', userId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  };
  const findUser = async (column: 'id' | 'email' | 'username', value: string) => {
    const row = await k()
      .selectFrom('users')
      .selectAll()
      .where(column, '=', value)
      .executeTakeFirst();
    return row ? toUser(row) : null;
  };
  return {
    async createUser(input) {
      const at = now();
      try {
        const row = await k()
          .insertInto('users')
          .values(newUserRow(input, at, input.isAnonymous ?? false))
          .returningAll()
          .executeTakeFirstOrThrow();
        return toUser(row);
      } catch (err) {
        if (isPgError(err, '23505')) {
          const which = /username/.test(pgErrorText(err)) ? 'username' : 'email';
          throw authError('USER_ALREADY_EXISTS', `a user with this ${which} already exists`, {
            cause: err,
          });
        }
        throw err;
      }
    },
    async listUsers({ limit, offset }) {
      const { n } = await k()
        .selectFrom('users')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      const rows = await k()
        .selectFrom('users')
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      const held = rows.length
        ? await k()
            .selectFrom('user_roles')
            .select(['user_id', 'role_name'])
            .where(
              'user_id',
              'in',
              rows.map((row) => row.id),
            )
            .orderBy(sql`role_name collate "C"`)
            .execute()
        : [];
      return {
        users: rows.map((row) => ({
          ...toUser(row),
          roles: held.filter((h) => h.user_id === row.id).map((h) => h.role_name),
        })),
        total: Number(n),
      };
    },
    async findUserById(id) {
      return UUID_RE.test(id) ? findUser('id', id) : null;
    },
    async findUserByEmail(email) {
      return findUser('email', email.toLowerCase());
    },
    async findUserByLogin(key) {
      if ('email' in key) return findUser('email', key.email.toLowerCase());
      // Usernames are unique case-insensitively: the index is on lower(username) (migration 0003).
      const row = await k()
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(username)`, '=', key.username.toLowerCase())
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async replacePassword(userId, passwordHash) {
      if (!UUID_RE.test(userId)) return false;
      return root.transaction().execute(async (trx) => {
        const at = now();
        const res = await k(trx)
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: at })
          .where('id', '=', userId)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) return false;
        await revokeUserSessionsIn(trx, userId, at);
        await consumeUserTokens(trx, 'reset_tokens', userId, at);
        return true;
      });
    },
    async rehashPassword(userId, currentHash, passwordHash) {
      if (!UUID_RE.test(userId)) return false;
      const res = await k()
        .updateTable('users')
        .set({ password_hash: passwordHash })
        .where('id', '=', userId)
        .where('password_hash', '=', currentHash)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    markEmailVerified: (userId) => updateUser(userId, { email_verified: true }),
    async setActive(userId, active) {
      if (active) return updateUser(userId, { active });
      if (!UUID_RE.test(userId)) return false;
      return root.transaction().execute(async (trx) => {
        const at = now();
        const res = await k(trx)
          .updateTable('users')
          .set({ active, updated_at: at })
          .where('id', '=', userId)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) return false;
        await revokeUserSessionsIn(trx, userId, at);
        return true;
      });
    },
  };
}

export function memoryAccountStore(m: MemoryState): AccountStore {
  const { users, copyUser, byEmail, byUsername, update, now } = m;
  return {
    async createUser(input: NewUser) {
      const email = input.email.toLowerCase();
      if (byEmail(email))
        throw authError('USER_ALREADY_EXISTS', 'a user with this email already exists');
      if (input.username != null && byUsername(input.username)) {
        throw authError('USER_ALREADY_EXISTS', 'a user with this username already exists');
      }
      const user = m.insertUser(input, input.isAnonymous ?? false);
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
      m.revokeAll(userId);
      consumeUserRowsIn(m.resetTokens, userId, now());
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
      if (!active) m.revokeAll(userId);
      return true;
    },
    async listUsers({ limit, offset }) {
      const all = [...users.values()].sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compare(a.id, b.id),
      );
      return {
        users: all.slice(offset, offset + limit).map((u) => ({
          ...copyUser(u),
          roles: [...(m.userRoles.get(u.id) ?? [])].sort(compare),
        })),
        total: all.length,
      };
    },
  };
}
