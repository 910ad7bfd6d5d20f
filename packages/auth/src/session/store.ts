/** Session storage: sessions, their refresh-token rotation and rotation families. */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { MemoryState, SessionRow } from '../store/memory-state';
import { AUTH_SCHEMA } from '../store/migrations';
import {
  type AuthTables,
  compare,
  type PgRunner,
  revokeUserSessionsIn,
  toSession,
  toUser,
  UUID_RE,
} from '../store/sql';
import type { UserRecord } from '../store/types';
import type { AuthAssuranceLevel } from '../token/verify';

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

/**
 * `sessionState` as SQL, for a caller that runs it inside a statement of its own (@svc/core
 * `Probe`): `select(param)` is a SELECT of at most one row, `text` (JSON that `parse` reads) and
 * `live` (not revoked, user active: what SQL alone can tell), with the jti written as `param`.
 */
export interface SessionStateSql {
  select(param: string): string;
  parse(text: string): SessionState;
}

export interface SessionStore {
  createSession(session: NewSession): Promise<SessionRecord>;
  /** The state of the session an access token names (by jti) and of its user, or null. */
  sessionState(accessJti: string): Promise<SessionState | null>;
  /** The same read as SQL, on a store in a database (absent on the in-memory store). */
  readonly sessionStateSql?: SessionStateSql;
  /** `sessionState` and the whole user record, in one read (the profile). */
  sessionUser(accessJti: string): Promise<{ state: SessionState; user: UserRecord } | null>;
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

  // --- families and lists (issue 12) ----------------------------------------------------------
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
}

/**
 * The hot path of `verifyToken`: one query on the unique `access_jti` index, joined to the user.
 * Plain SQL rather than the query builder so a verification does not pay for building it.
 */
const SESSION_STATE_SQL = `select s.id, s.user_id, s.revoked_at is not null as revoked, s.last_activity_at, s.aal, u.active
  from ${AUTH_SCHEMA}.sessions s join ${AUTH_SCHEMA}.users u on u.id = s.user_id
  where s.access_jti = $1`;
/**
 * Its prepared statement's name: each pooled connection parses and plans it once (an unnamed
 * statement is planned on every request, about three times the work in PostgreSQL: bench/http).
 */
const SESSION_STATE_STATEMENT = 'svc_auth_session_state_v1';

/** The session an access token names with its whole user row: the profile in one read. */
const SESSION_USER_SQL = `select u.*, s.id as session_id, s.revoked_at is not null as session_revoked,
  s.last_activity_at as session_last_activity_at, s.aal as session_aal
  from ${AUTH_SCHEMA}.sessions s join ${AUTH_SCHEMA}.users u on u.id = s.user_id
  where s.access_jti = $1`;
const SESSION_USER_STATEMENT = 'svc_auth_session_user_v1';

/** SESSION_STATE_SQL's read, one JSON array per row, and whether the row alone allows the call. */
const SESSION_STATE_SQL_FORM: SessionStateSql = {
  select: (param) =>
    `select json_build_array(s.id, s.user_id, s.revoked_at is not null, ` +
    `(extract(epoch from s.last_activity_at) * 1000)::float8, s.aal, u.active)::text as text, ` +
    `(s.revoked_at is null and u.active) as live ` +
    `from ${AUTH_SCHEMA}.sessions s join ${AUTH_SCHEMA}.users u on u.id = s.user_id ` +
    `where s.access_jti = ${param}`,
  parse(text) {
    const [sessionId, userId, revoked, lastActivityMs, aal, userActive] = JSON.parse(text) as [
      string,
      string,
      boolean,
      number,
      AuthAssuranceLevel,
      boolean,
    ];
    return {
      sessionId,
      userId,
      revoked,
      lastActivityAt: new Date(lastActivityMs),
      userActive,
      aal,
    };
  },
};

export function postgresSessionStore(r: PgRunner): SessionStore {
  const { root, k, now, database } = r;
  const insertSession = async (
    db: Kysely<AuthTables>,
    s: NewSession,
    at: Date,
    familyId?: string,
  ) => {
    const id = randomUUID();
    const row = await k(db)
      .insertInto('sessions')
      .values({
        id,
        family_id: familyId ?? id,
        rotated_at: null,
        user_id: s.userId,
        access_jti: s.accessJti,
        refresh_token_hash: s.refreshHash,
        ip: s.ip ?? null,
        user_agent: s.userAgent ?? null,
        created_at: at,
        expires_at: s.expiresAt,
        last_activity_at: at,
        revoked_at: null,
        aal: s.aal ?? 'aal1',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSession(row);
  };
  return {
    sessionStateSql: SESSION_STATE_SQL_FORM,
    async createSession(s) {
      return insertSession(root, s, now());
    },
    async sessionState(jti): Promise<SessionState | null> {
      const { rows } = await database.query<{
        id: string;
        user_id: string;
        revoked: boolean;
        last_activity_at: Date;
        aal: AuthAssuranceLevel;
        active: boolean;
      }>(SESSION_STATE_SQL, [jti], { name: SESSION_STATE_STATEMENT });
      const row = rows[0];
      return row
        ? {
            sessionId: row.id,
            userId: row.user_id,
            revoked: row.revoked,
            lastActivityAt: new Date(row.last_activity_at),
            userActive: row.active,
            aal: row.aal,
          }
        : null;
    },
    async sessionUser(jti) {
      const { rows } = await database.query<
        Selectable<AuthTables['users']> & {
          session_id: string;
          session_revoked: boolean;
          session_last_activity_at: Date;
          session_aal: AuthAssuranceLevel;
        }
      >(SESSION_USER_SQL, [jti], { name: SESSION_USER_STATEMENT });
      const row = rows[0];
      if (!row) return null;
      const user = toUser(row);
      return {
        state: {
          sessionId: row.session_id,
          userId: user.id,
          revoked: row.session_revoked,
          lastActivityAt: new Date(row.session_last_activity_at),
          userActive: user.active,
          aal: row.session_aal,
        },
        user,
      };
    },
    async refreshState(refreshHash): Promise<RefreshState | null> {
      const row = await k()
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select([
          's.id',
          's.user_id',
          's.revoked_at',
          's.expires_at',
          's.last_activity_at',
          's.family_id',
          's.rotated_at',
          's.aal',
          'u.active',
        ])
        .where('s.refresh_token_hash', '=', refreshHash)
        .executeTakeFirst();
      return row
        ? {
            sessionId: row.id,
            userId: row.user_id,
            revoked: row.revoked_at !== null,
            expiresAt: new Date(row.expires_at),
            lastActivityAt: new Date(row.last_activity_at),
            userActive: row.active,
            familyId: row.family_id ?? row.id,
            rotatedAt: row.rotated_at ? new Date(row.rotated_at) : null,
            aal: row.aal,
          }
        : null;
    },
    async touchSession(id) {
      const at = now();
      await k()
        .updateTable('sessions')
        .set({ last_activity_at: at })
        .where('id', '=', id)
        .where('last_activity_at', '<', at)
        .execute();
    },
    async raiseSessionAssurance(id) {
      await k()
        .updateTable('sessions')
        .set({ aal: 'aal2' })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },
    async rotateSession(refreshHash, next, activeSince) {
      return root.transaction().execute(async (trx) => {
        const at = now();
        // The user row first, then the session rows: the order `proveEmail` takes them in. The
        // insert below would take this key-share lock anyway, but only after the UPDATE has locked
        // the old session, which deadlocks with a proof holding the user and waiting for it.
        await k(trx)
          .selectFrom('users')
          .select('id')
          .where('id', '=', (eb) =>
            eb
              .selectFrom('sessions')
              .select('user_id')
              .where('refresh_token_hash', '=', refreshHash),
          )
          .forKeyShare()
          .execute();
        const previous = await k(trx)
          .updateTable('sessions')
          .set({ revoked_at: at, rotated_at: at })
          .where('refresh_token_hash', '=', refreshHash)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', at)
          .where('last_activity_at', '>', activeSince)
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('users')
                .select('users.id')
                .whereRef('users.id', '=', 'sessions.user_id')
                .where('users.active', '=', true),
            ),
          )
          .returningAll()
          .executeTakeFirst();
        if (!previous) return null;
        const created = await insertSession(
          trx,
          { ...next, userId: previous.user_id, aal: previous.aal },
          at,
          previous.family_id ?? previous.id,
        );
        return { previous: toSession(previous), next: created };
      });
    },
    async revokeSession(id) {
      await k()
        .updateTable('sessions')
        .set({ revoked_at: now() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },
    async revokeUserSessions(userId) {
      return UUID_RE.test(userId) ? revokeUserSessionsIn(root, userId, now()) : 0;
    },
    async revokeSessionFamily(familyId) {
      if (!UUID_RE.test(familyId)) return 0;
      const res = await k()
        .updateTable('sessions')
        .set({ revoked_at: now() })
        .where((eb) => eb(eb.fn.coalesce('family_id', 'id'), '=', familyId))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    async listLiveSessions(userId, activeSince) {
      if (!UUID_RE.test(userId)) return [];
      const rows = await k()
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now())
        .where('last_activity_at', '>', activeSince)
        .orderBy('last_activity_at', 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toSession);
    },
    async revokeUserSession(userId, sessionId) {
      if (!UUID_RE.test(userId) || !UUID_RE.test(sessionId)) return false;
      const res = await k()
        .updateTable('sessions')
        .set({ revoked_at: now() })
        .where('id', '=', sessionId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    async revokeOtherSessions(userId, keepSessionId) {
      if (!UUID_RE.test(userId)) return 0;
      const res = await k()
        .updateTable('sessions')
        .set({ revoked_at: now() })
        .where('user_id', '=', userId)
        .where('id', '<>', UUID_RE.test(keepSessionId) ? keepSessionId : userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
  };
}

export function memorySessionStore(m: MemoryState): SessionStore {
  const { sessions, users, now } = m;
  const copySession = ({ refreshHash: _h, rotatedAt: _r, ...s }: SessionRow): SessionRecord => ({
    ...s,
  });
  const insertSession = (s: NewSession, familyId?: string): SessionRow => {
    const { userId, accessJti, refreshHash, expiresAt } = s;
    for (const other of sessions.values()) {
      if (other.accessJti === accessJti || other.refreshHash === refreshHash) {
        throw new Error('session jti or refresh hash already in use');
      }
    }
    m.requireUser(userId);
    const at = now();
    const id = m.uuid();
    const row: SessionRow = {
      id,
      familyId: familyId ?? id,
      rotatedAt: null,
      userId,
      accessJti,
      refreshHash,
      ip: s.ip ?? null,
      userAgent: s.userAgent ?? null,
      createdAt: at,
      expiresAt,
      lastActivityAt: at,
      revokedAt: null,
      aal: s.aal ?? 'aal1',
    };
    sessions.set(row.id, row);
    return row;
  };
  /** The session `match` picks and its user; null when there is none (or no user). */
  const withUser = (match: (s: SessionRow) => boolean) => {
    for (const s of sessions.values()) {
      if (!match(s)) continue;
      const u = users.get(s.userId);
      return u ? { s, u } : null;
    }
    return null;
  };
  const stateOf = (s: SessionRow, u: UserRecord): SessionState => ({
    sessionId: s.id,
    userId: s.userId,
    revoked: s.revokedAt !== null,
    lastActivityAt: s.lastActivityAt,
    userActive: u.active,
    aal: s.aal,
  });
  return {
    async createSession(s) {
      return copySession(insertSession(s));
    },
    async sessionState(jti): Promise<SessionState | null> {
      const found = withUser((s) => s.accessJti === jti);
      return found ? stateOf(found.s, found.u) : null;
    },
    async sessionUser(jti) {
      const found = withUser((s) => s.accessJti === jti);
      return found ? { state: stateOf(found.s, found.u), user: found.u } : null;
    },
    async refreshState(refreshHash): Promise<RefreshState | null> {
      const found = withUser((s) => s.refreshHash === refreshHash);
      if (!found) return null;
      const { s } = found;
      return {
        ...stateOf(s, found.u),
        expiresAt: s.expiresAt,
        familyId: s.familyId,
        rotatedAt: s.rotatedAt,
      };
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
      return m.revokeAll(userId);
    },
    async revokeSessionFamily(familyId) {
      return m.revokeWhere((s) => s.familyId === familyId);
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
      return m.revokeWhere((s) => s.userId === userId && s.id !== keepSessionId);
    },
  };
}
