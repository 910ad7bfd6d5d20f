/** Guest storage: upgrading a guest to an account, and the retention sweep. */
import { authError } from '../errors';
import type { MemoryState } from '../store/memory-state';
import { isPgError, type PgRunner, revokeUserSessionsIn, toUser, UUID_RE } from '../store/sql';
import type { UserRecord } from '../store/types';

export interface GuestStore {
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
}

export function postgresGuestStore(r: PgRunner): GuestStore {
  const { root, k, now } = r;
  return {
    async upgradeAnonymousUser(userId, email, passwordHash) {
      if (!UUID_RE.test(userId)) return null;
      try {
        return await root.transaction().execute(async (trx) => {
          const at = now();
          const row = await k(trx)
            .updateTable('users')
            .set({
              email: email.toLowerCase(),
              password_hash: passwordHash,
              is_anonymous: false,
              email_verified: false,
              updated_at: at,
            })
            .where('id', '=', userId)
            .where('is_anonymous', '=', true)
            .returningAll()
            .executeTakeFirst();
          if (!row) return null;
          await revokeUserSessionsIn(trx, userId, at);
          return toUser(row);
        });
      } catch (err) {
        if (isPgError(err, '23505'))
          throw authError('USER_ALREADY_EXISTS', 'a user with this email already exists', {
            cause: err,
          });
        throw err;
      }
    },
    async deleteInactiveGuests(inactiveSince, limit) {
      const res = await k()
        .deleteFrom('users')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('users as g')
            .select('g.id')
            .where('g.is_anonymous', '=', true)
            .where('g.created_at', '<=', inactiveSince)
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('sessions as s')
                    .select('s.id')
                    .whereRef('s.user_id', '=', 'g.id')
                    .where('s.last_activity_at', '>', inactiveSince),
                ),
              ),
            )
            .orderBy('g.created_at')
            .limit(limit)
            .forUpdate()
            .skipLocked(),
        )
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

export function memoryGuestStore(m: MemoryState): GuestStore {
  return {
    async upgradeAnonymousUser(userId, email, passwordHash) {
      const u = m.users.get(userId);
      if (!u || !u.isAnonymous) return null;
      const lower = email.toLowerCase();
      const holder = m.byEmail(lower);
      if (holder && holder.id !== userId)
        throw authError('USER_ALREADY_EXISTS', 'a user with this email already exists');
      m.update(userId, { email: lower, passwordHash, isAnonymous: false, emailVerified: false });
      m.revokeAll(userId);
      return m.copyUser(m.users.get(userId) as UserRecord);
    },
    async deleteInactiveGuests(inactiveSince, limit) {
      const since = inactiveSince.getTime();
      const idle = [...m.users.values()]
        .filter(
          (u) =>
            u.isAnonymous &&
            u.createdAt.getTime() <= since &&
            ![...m.sessions.values()].some(
              (s) => s.userId === u.id && s.lastActivityAt.getTime() > since,
            ),
        )
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .slice(0, limit);
      for (const u of idle) m.deleteUser(u.id);
      return idle.length;
    },
  };
}
