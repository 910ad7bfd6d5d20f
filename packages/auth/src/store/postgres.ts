import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { commonError, type Database } from '@svc/core';
import { authError } from '../errors';
import { checkRateLimitKeys, decideRateLimit } from '../rate-limit/window';
import type { AuthAssuranceLevel } from '../token/verify';
import { AUTH_SCHEMA, migrateAuthSchema } from './migrations';
import type {
  AssignResult,
  AuthStore,
  MfaProof,
  NewSession,
  OAuthIdentity,
  RefreshState,
  RoleRecord,
  SessionRecord,
  SessionState,
  UserRecord,
  WebAuthnCeremony,
  WebAuthnCredentialRecord,
} from './types';

/** The `svc_auth` tables as Kysely sees them. */
export interface AuthTables {
  users: {
    id: string;
    email: string;
    username: string | null;
    password_hash: string | null;
    email_verified: boolean;
    active: boolean;
    is_anonymous: boolean;
    metadata: Record<string, unknown>;
    created_at: Date;
    updated_at: Date;
  };
  sessions: {
    id: string;
    user_id: string;
    access_jti: string;
    refresh_token_hash: string;
    ip: string | null;
    user_agent: string | null;
    created_at: Date;
    expires_at: Date;
    last_activity_at: Date;
    revoked_at: Date | null;
    /** Migration 0008; null on rows a previous release inserted (reads as `id`). */
    family_id: string | null;
    rotated_at: Date | null;
    /** Migration 0009 (default `aal1`). */
    aal: AuthAssuranceLevel;
  };
  reset_tokens: OneTimeTable;
  verification_tokens: OneTimeTable;
  roles: { name: string; description: string | null; created_at: Date };
  user_roles: { user_id: string; role_name: string; created_at: Date };
  rate_limits: { key: string; hits: Date[]; expires_at: Date };
  magic_link_tokens: OneTimeTable;
  magic_link_signup_tokens: Omit<OneTimeTable, 'user_id'> & { email: string };
  magic_codes: {
    user_id: string;
    code_hash: string;
    attempts: number;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
  };
  oauth_states: {
    state_hash: string;
    provider: string;
    redirect_uri: string;
    callback_url: string;
    nonce_hash: string | null;
    verifier_sealed: string;
    code_challenge: string | null;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
  };
  oauth_identities: {
    provider: string;
    subject: string;
    user_id: string;
    email: string | null;
    created_at: Date;
  };
  oauth_codes: {
    code_hash: string;
    user_id: string;
    provider: string;
    code_challenge: string | null;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
  };
  webauthn_credentials: {
    credential_id: string;
    user_id: string;
    public_key: Uint8Array;
    sign_count: string | number;
    name: string;
    aaguid: string;
    backup_eligible: boolean;
    created_at: Date;
    last_used_at: Date | null;
  };
  webauthn_challenges: {
    id: string;
    ceremony: WebAuthnCeremony;
    user_id: string | null;
    challenge_hash: string;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
    /** Migration 0009 (default false). */
    second_factor: boolean;
  };
  totp_factors: {
    user_id: string;
    secret_ciphertext: string;
    confirmed_at: Date | null;
    last_used_step: string | number | null;
    created_at: Date;
  };
  recovery_codes: { user_id: string; code_hash: string; created_at: Date; used_at: Date | null };
  mfa_challenges: {
    token_hash: string;
    user_id: string;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
    attempts: number;
  };
}
interface OneTimeTable {
  token_hash: string;
  user_id: string;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

export interface PostgresStoreOptions {
  /** Clock. @default Date.now */
  readonly now?: () => number;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The hot path of `verifyToken`: one query on the unique `access_jti` index, joined to the user.
 * Plain SQL rather than the query builder so a verification does not pay for building it.
 */
const SESSION_STATE_SQL = `select s.id, s.user_id, s.revoked_at is not null as revoked, s.last_activity_at, s.aal, u.active
  from ${AUTH_SCHEMA}.sessions s join ${AUTH_SCHEMA}.users u on u.id = s.user_id
  where s.access_jti = $1`;

/**
 * The `AuthStore` over PostgreSQL or PGlite: Kysely, schema `svc_auth`, migrations in code.
 * Atomic verbs are single conditional statements (and a transaction where two tables change), so
 * concurrent callers on a real server race safely.
 */
export function createPostgresStore(
  database: Database,
  options: PostgresStoreOptions = {},
): AuthStore {
  const clock = options.now ?? Date.now;
  const now = () => new Date(clock());
  const root = database.kysely<AuthTables>();
  const k = (db: Kysely<AuthTables> = root) => db.withSchema(AUTH_SCHEMA);

  const revokeAll = async (db: Kysely<AuthTables>, userId: string, at: Date) => {
    const r = await k(db)
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  };
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
  const updateUser = async (userId: string, patch: Partial<AuthTables['users']>) => {
    if (!UUID_RE.test(userId)) return false;
    const r = await k()
      .updateTable('users')
      .set({ ...patch, updated_at: now() })
      .where('id', '=', userId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  };
  const consumeAll = async (
    db: Kysely<AuthTables>,
    table: 'reset_tokens' | 'verification_tokens',
    userId: string,
    at: Date,
  ) => {
    await k(db)
      .updateTable(table)
      .set({ consumed_at: at })
      .where('user_id', '=', userId)
      .where('consumed_at', 'is', null)
      .execute();
  };
  const consume = async (
    table: 'reset_tokens' | 'verification_tokens',
    hash: string,
    siblings: boolean,
  ) =>
    root.transaction().execute(async (trx) => {
      const at = now();
      const row = await k(trx)
        .updateTable(table)
        .set({ consumed_at: at })
        .where('token_hash', '=', hash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', at)
        .returning('user_id')
        .executeTakeFirst();
      if (!row) return null;
      if (siblings) await consumeAll(trx, table, row.user_id, at);
      return row.user_id;
    });
  const findUser = async (column: 'id' | 'email' | 'username', value: string) => {
    const row = await k()
      .selectFrom('users')
      .selectAll()
      .where(column, '=', value)
      .executeTakeFirst();
    return row ? toUser(row) : null;
  };

  const insertIdentity = async (
    db: Kysely<AuthTables>,
    userId: string,
    identity: OAuthIdentity,
    at: Date,
  ) => {
    await k(db)
      .insertInto('oauth_identities')
      .values({
        provider: identity.provider,
        subject: identity.subject,
        user_id: userId,
        email: identity.email?.toLowerCase() ?? null,
        created_at: at,
      })
      .execute();
  };

  return refuseUnstorableText({
    async migrate() {
      await migrateAuthSchema(database);
    },

    async createUser(input) {
      const at = now();
      try {
        const row = await k()
          .insertInto('users')
          .values({
            id: randomUUID(),
            email: input.email.toLowerCase(),
            username: input.username ?? null,
            password_hash: input.passwordHash,
            email_verified: input.emailVerified ?? false,
            active: input.active ?? true,
            is_anonymous: input.isAnonymous ?? false,
            metadata: JSON.stringify(input.metadata ?? {}) as never,
            created_at: at,
            updated_at: at,
          })
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
              rows.map((r) => r.id),
            )
            .orderBy(sql`role_name collate "C"`)
            .execute()
        : [];
      return {
        users: rows.map((r) => ({
          ...toUser(r),
          roles: held.filter((h) => h.user_id === r.id).map((h) => h.role_name),
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
        const r = await k(trx)
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: at })
          .where('id', '=', userId)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) return false;
        await revokeAll(trx, userId, at);
        await consumeAll(trx, 'reset_tokens', userId, at);
        return true;
      });
    },
    async rehashPassword(userId, currentHash, passwordHash) {
      if (!UUID_RE.test(userId)) return false;
      const r = await k()
        .updateTable('users')
        .set({ password_hash: passwordHash })
        .where('id', '=', userId)
        .where('password_hash', '=', currentHash)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    markEmailVerified: (userId) => updateUser(userId, { email_verified: true }),
    async setActive(userId, active) {
      if (active) return updateUser(userId, { active });
      if (!UUID_RE.test(userId)) return false;
      return root.transaction().execute(async (trx) => {
        const at = now();
        const r = await k(trx)
          .updateTable('users')
          .set({ active, updated_at: at })
          .where('id', '=', userId)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) return false;
        await revokeAll(trx, userId, at);
        return true;
      });
    },

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
      }>(SESSION_STATE_SQL, [jti]);
      const r = rows[0];
      return r
        ? {
            sessionId: r.id,
            userId: r.user_id,
            revoked: r.revoked,
            lastActivityAt: new Date(r.last_activity_at),
            userActive: r.active,
            aal: r.aal,
          }
        : null;
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
      return UUID_RE.test(userId) ? revokeAll(root, userId, now()) : 0;
    },

    // --- sessions: families, lists, guests (issue 12) -----------------------------------------
    async revokeSessionFamily(familyId) {
      if (!UUID_RE.test(familyId)) return 0;
      const r = await k()
        .updateTable('sessions')
        .set({ revoked_at: now() })
        .where((eb) => eb(eb.fn.coalesce('family_id', 'id'), '=', familyId))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
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
      const r = await k()
        .updateTable('sessions')
        .set({ revoked_at: now() })
        .where('id', '=', sessionId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async revokeOtherSessions(userId, keepSessionId) {
      if (!UUID_RE.test(userId)) return 0;
      const r = await k()
        .updateTable('sessions')
        .set({ revoked_at: now() })
        .where('user_id', '=', userId)
        .where('id', '<>', UUID_RE.test(keepSessionId) ? keepSessionId : userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
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
          await revokeAll(trx, userId, at);
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
      const r = await k()
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
      return Number(r.numDeletedRows);
    },

    async issueResetToken(userId, tokenHash, expiresAt) {
      await root.transaction().execute(async (trx) => {
        const at = now();
        await consumeAll(trx, 'reset_tokens', userId, at);
        await k(trx)
          .insertInto('reset_tokens')
          .values({
            token_hash: tokenHash,
            user_id: userId,
            created_at: at,
            expires_at: expiresAt,
            consumed_at: null,
          })
          .execute();
      });
    },
    consumeResetToken: (hash) => consume('reset_tokens', hash, true),
    async issueVerificationToken(userId, tokenHash, expiresAt) {
      await root.transaction().execute(async (trx) => {
        const at = now();
        await consumeAll(trx, 'verification_tokens', userId, at);
        await k(trx)
          .insertInto('verification_tokens')
          .values({
            token_hash: tokenHash,
            user_id: userId,
            created_at: at,
            expires_at: expiresAt,
            consumed_at: null,
          })
          .execute();
      });
    },
    consumeVerificationToken: (hash) => consume('verification_tokens', hash, false),

    // The magic-link verbs are one statement each (data-modifying CTEs): one round trip, atomic.
    async issueMagicLinkToken(userId, tokenHash, expiresAt) {
      const at = now();
      const table = sql.table(`${AUTH_SCHEMA}.magic_link_tokens`);
      await sql`with superseded as (
          update ${table} set consumed_at = ${at}
          where user_id = ${userId} and consumed_at is null)
        insert into ${table} (token_hash, user_id, created_at, expires_at, consumed_at)
        values (${tokenHash}, ${userId}, ${at}, ${expiresAt}, null)`.execute(root);
    },
    async issueMagicLinkSignupToken(email, tokenHash, expiresAt) {
      const at = now();
      const e = email.toLowerCase();
      const table = sql.table(`${AUTH_SCHEMA}.magic_link_signup_tokens`);
      // Rows of an email with no account have no user to cascade from: its dead ones go here.
      await sql`with dead as (
          delete from ${table}
          where email = ${e} and (consumed_at is not null or expires_at <= ${at})),
        superseded as (
          update ${table} set consumed_at = ${at}
          where email = ${e} and consumed_at is null and expires_at > ${at})
        insert into ${table} (token_hash, email, created_at, expires_at, consumed_at)
        values (${tokenHash}, ${e}, ${at}, ${expiresAt}, null)`.execute(root);
    },
    async redeemMagicLink(tokenHash) {
      const at = now();
      const { rows } = await sql<{ user_id: string | null; email: string | null }>`
        with mine as (
          update ${sql.table(`${AUTH_SCHEMA}.magic_link_tokens`)} set consumed_at = ${at}
          where token_hash = ${tokenHash} and consumed_at is null and expires_at > ${at}
          returning user_id),
        signup as (
          update ${sql.table(`${AUTH_SCHEMA}.magic_link_signup_tokens`)} set consumed_at = ${at}
          where token_hash = ${tokenHash} and consumed_at is null and expires_at > ${at}
            and not exists (select 1 from mine)
          returning email)
        select (select user_id from mine) as user_id, (select email from signup) as email`.execute(
        root,
      );
      const row = rows[0];
      if (row?.user_id) return { kind: 'user', userId: row.user_id };
      return row?.email ? { kind: 'signup', email: row.email } : null;
    },
    async issueMagicCode(userId, codeHash, expiresAt) {
      const at = now();
      await k()
        .insertInto('magic_codes')
        .values({
          user_id: userId,
          code_hash: codeHash,
          attempts: 0,
          created_at: at,
          expires_at: expiresAt,
          consumed_at: null,
        })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            code_hash: codeHash,
            attempts: 0,
            created_at: at,
            expires_at: expiresAt,
            consumed_at: null,
          }),
        )
        .execute();
    },
    async verifyMagicCode(userId, codeHash, maxAttempts) {
      if (!UUID_RE.test(userId)) return 'none';
      const at = now();
      // One statement: the row lock orders concurrent checks, and each re-reads the row it waited
      // for (attempts, consumed_at) before deciding, so no try is lost and no code is used twice.
      const { rows } = await sql<{ matched: boolean }>`
        update ${sql.table(`${AUTH_SCHEMA}.magic_codes`)} set
          attempts = case when code_hash = ${codeHash} then attempts else attempts + 1 end,
          consumed_at = case when code_hash = ${codeHash} then ${at}::timestamptz else null end
        where user_id = ${userId} and consumed_at is null and expires_at > ${at}
          and attempts < ${maxAttempts}
        returning code_hash = ${codeHash} as matched`.execute(root);
      const row = rows[0];
      return row ? (row.matched ? 'ok' : 'wrong') : 'none';
    },

    async createRole(name, description) {
      const row = await k()
        .insertInto('roles')
        .values({ name, description, created_at: now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning(['name', 'description'])
        .executeTakeFirst();
      return row ? toRole(row) : null;
    },
    async ensureRole(name, description) {
      await k()
        .insertInto('roles')
        .values({ name, description, created_at: now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await k()
        .selectFrom('roles')
        .select(['name', 'description'])
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return toRole(row);
    },
    async deleteRole(name) {
      const r = await k().deleteFrom('roles').where('name', '=', name).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async listRoles() {
      const rows = await k()
        .selectFrom('roles')
        .select(['name', 'description'])
        .orderBy(sql`name collate "C"`)
        .execute();
      return rows.map(toRole);
    },
    async assignRole(userId, role): Promise<AssignResult> {
      if (!UUID_RE.test(userId)) return 'no-such-user';
      try {
        const r = await k()
          .insertInto('user_roles')
          .values({ user_id: userId, role_name: role, created_at: now() })
          .onConflict((oc) => oc.columns(['user_id', 'role_name']).doNothing())
          .executeTakeFirst();
        return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0 ? 'assigned' : 'already-assigned';
      } catch (err) {
        if (isPgError(err, '23503'))
          return /role_name/.test(pgErrorText(err)) ? 'no-such-role' : 'no-such-user';
        throw err;
      }
    },
    async revokeRole(userId, role) {
      if (!UUID_RE.test(userId)) return false;
      const r = await k()
        .deleteFrom('user_roles')
        .where('user_id', '=', userId)
        .where('role_name', '=', role)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async userRoles(userId) {
      if (!UUID_RE.test(userId)) return [];
      const rows = await k()
        .selectFrom('user_roles')
        .select('role_name')
        .where('user_id', '=', userId)
        .orderBy(sql`role_name collate "C"`)
        .execute();
      return rows.map((r) => r.role_name);
    },

    async hitRateLimit(keys) {
      checkRateLimitKeys(keys);
      // Rows are locked in key order, so two requests sharing keys cannot deadlock.
      const ordered = keys.map((x) => x.key).sort(compare);
      return root.transaction().execute(async (trx) => {
        const at = now();
        // One statement locks every key's row, creating the missing ones: ON CONFLICT DO UPDATE
        // takes the row lock as part of the insert-or-update, so neither a concurrent first hit
        // nor a sweep can slip in between the read and the write below.
        const locked = await sql<{ key: string; hits: Date[] }>`
          insert into ${sql.table(`${AUTH_SCHEMA}.rate_limits`)} as r (key, hits, expires_at)
          select u.k, '{}', ${at} from unnest(${ordered}::text[]) with ordinality as u(k, i) order by u.i
          on conflict (key) do update set expires_at = r.expires_at
          returning r.key, r.hits`.execute(trx);
        const hits = new Map(
          locked.rows.map(
            (r) => [r.key, (r.hits ?? []).map((h) => new Date(h).getTime())] as const,
          ),
        );
        const { outcome, writes } = decideRateLimit(at.getTime(), keys, hits);
        for (const w of writes) {
          await sql`update ${sql.table(`${AUTH_SCHEMA}.rate_limits`)}
            set hits = ${w.hits.map((h) => new Date(h).toISOString())}::timestamptz[], expires_at = ${new Date(w.expiresAt)}
            where key = ${w.key}`.execute(trx);
        }
        return outcome;
      });
    },
    async pruneRateLimits() {
      // SKIP LOCKED: rows a request holds are left for the next sweep. The sweep never waits for a
      // lock, so it cannot deadlock with requests (they lock in key order, a sweep in scan order).
      const r = await sql`delete from ${sql.table(`${AUTH_SCHEMA}.rate_limits`)} where key in (
          select key from ${sql.table(`${AUTH_SCHEMA}.rate_limits`)} where expires_at <= ${now()} for update skip locked)`.execute(
        root,
      );
      return Number(r.numAffectedRows ?? 0n);
    },

    async createWebAuthnChallenge(c) {
      const at = now();
      const id = randomUUID();
      // Expired challenges go as new ones come: the table holds about five minutes of ceremonies.
      await k()
        .deleteFrom('webauthn_challenges')
        .where('expires_at', '<', new Date(at.getTime() - 3600_000))
        .execute();
      await k()
        .insertInto('webauthn_challenges')
        .values({
          id,
          ceremony: c.ceremony,
          user_id: c.userId,
          challenge_hash: c.challengeHash,
          created_at: at,
          expires_at: c.expiresAt,
          consumed_at: null,
          second_factor: c.secondFactor ?? false,
        })
        .execute();
      return id;
    },
    async consumeWebAuthnChallenge(id, ceremony) {
      if (!UUID_RE.test(id)) return null;
      const at = now();
      const row = await k()
        .updateTable('webauthn_challenges')
        .set({ consumed_at: at })
        .where('id', '=', id)
        .where('ceremony', '=', ceremony)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', at)
        .returning(['id', 'ceremony', 'user_id', 'challenge_hash', 'expires_at', 'second_factor'])
        .executeTakeFirst();
      return row
        ? {
            id: row.id,
            ceremony: row.ceremony,
            userId: row.user_id,
            challengeHash: row.challenge_hash,
            expiresAt: new Date(row.expires_at),
            secondFactor: row.second_factor,
          }
        : null;
    },
    async createWebAuthnCredential(c) {
      const row = await k()
        .insertInto('webauthn_credentials')
        .values({
          credential_id: c.credentialId,
          user_id: c.userId,
          public_key: Buffer.from(c.publicKey),
          sign_count: c.signCount,
          name: c.name,
          aaguid: c.aaguid,
          backup_eligible: c.backupEligible,
          created_at: now(),
          last_used_at: null,
        })
        .onConflict((oc) => oc.column('credential_id').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ? toCredential(row) : null;
    },
    async findWebAuthnCredential(credentialId) {
      const row = await k()
        .selectFrom('webauthn_credentials')
        .selectAll()
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return row ? toCredential(row) : null;
    },
    async listWebAuthnCredentials(userId) {
      if (!UUID_RE.test(userId)) return [];
      const rows = await k()
        .selectFrom('webauthn_credentials')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('credential_id')
        .execute();
      return rows.map(toCredential);
    },
    async useWebAuthnCredential(credentialId, signCount) {
      const r = await k()
        .updateTable('webauthn_credentials')
        .set({ sign_count: signCount, last_used_at: now() })
        .where('credential_id', '=', credentialId)
        .where((eb) =>
          eb.or([
            eb('sign_count', '<', signCount),
            eb.and([eb('sign_count', '=', 0), eb(eb.val(signCount), '=', 0)]),
          ]),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async deleteWebAuthnCredential(userId, credentialId) {
      if (!UUID_RE.test(userId)) return false;
      const r = await k()
        .deleteFrom('webauthn_credentials')
        .where('user_id', '=', userId)
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    // --- MFA (src/mfa) ---------------------------------------------------------------------------
    async putTotpSecret(userId, secretCiphertext) {
      const at = now();
      await k()
        .insertInto('totp_factors')
        .values({
          user_id: userId,
          secret_ciphertext: secretCiphertext,
          confirmed_at: null,
          last_used_step: null,
          created_at: at,
        })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            secret_ciphertext: secretCiphertext,
            confirmed_at: null,
            last_used_step: null,
            created_at: at,
          }),
        )
        .execute();
    },
    async totpFactor(userId) {
      if (!UUID_RE.test(userId)) return null;
      const row = await k()
        .selectFrom('totp_factors')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row
        ? {
            userId: row.user_id,
            secretCiphertext: row.secret_ciphertext,
            confirmedAt: row.confirmed_at ? new Date(row.confirmed_at) : null,
            lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
          }
        : null;
    },
    async confirmTotp(userId, secretCiphertext, step) {
      if (!UUID_RE.test(userId)) return false;
      const r = await k()
        .updateTable('totp_factors')
        .set({ confirmed_at: now(), last_used_step: step })
        .where('user_id', '=', userId)
        .where('secret_ciphertext', '=', secretCiphertext)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async useTotpStep(userId, step) {
      return UUID_RE.test(userId) ? useTotpStepIn(root, userId, step) : false;
    },
    async deleteTotp(userId) {
      if (!UUID_RE.test(userId)) return false;
      const r = await k()
        .deleteFrom('totp_factors')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async replaceRecoveryCodes(userId, codeHashes) {
      await root.transaction().execute(async (trx) => {
        const at = now();
        await k(trx).deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        if (codeHashes.length === 0) return;
        await k(trx)
          .insertInto('recovery_codes')
          .values(
            codeHashes.map((code_hash) => ({
              user_id: userId,
              code_hash,
              created_at: at,
              used_at: null,
            })),
          )
          .execute();
      });
    },
    async consumeRecoveryCode(userId, codeHash) {
      return UUID_RE.test(userId) ? useRecoveryCodeIn(root, userId, codeHash, now()) : false;
    },
    async mfaState(userId) {
      if (!UUID_RE.test(userId)) return { totpConfirmed: false, unusedRecoveryCodes: 0 };
      const { rows } = await database.query<{ confirmed: boolean; codes: number }>(MFA_STATE_SQL, [
        userId,
      ]);
      const r = rows[0];
      return { totpConfirmed: r?.confirmed === true, unusedRecoveryCodes: Number(r?.codes ?? 0) };
    },
    async createMfaChallenge(tokenHash, userId, expiresAt) {
      await root.transaction().execute(async (trx) => {
        const at = now();
        await k(trx)
          .deleteFrom('mfa_challenges')
          .where('user_id', '=', userId)
          .where((eb) => eb.or([eb('expires_at', '<=', at), eb('consumed_at', 'is not', null)]))
          .execute();
        await k(trx)
          .insertInto('mfa_challenges')
          .values({
            token_hash: tokenHash,
            user_id: userId,
            created_at: at,
            expires_at: expiresAt,
            consumed_at: null,
            attempts: 0,
          })
          .execute();
      });
    },
    async attemptMfaChallenge(tokenHash, maxAttempts) {
      const row = await k()
        .updateTable('mfa_challenges')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('token_hash', '=', tokenHash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now())
        .where('attempts', '<', maxAttempts)
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id ?? null;
    },
    async completeMfaChallenge(tokenHash, proof: MfaProof) {
      try {
        return await root.transaction().execute(async (trx) => {
          const at = now();
          const row = await k(trx)
            .updateTable('mfa_challenges')
            .set({ consumed_at: at })
            .where('token_hash', '=', tokenHash)
            .where('consumed_at', 'is', null)
            .where('expires_at', '>', at)
            .returning('user_id')
            .executeTakeFirst();
          if (!row) return 'challenge-dead' as const;
          const spent =
            proof.kind === 'totp'
              ? await useTotpStepIn(trx, row.user_id, proof.step)
              : await useRecoveryCodeIn(trx, row.user_id, proof.codeHash, at);
          // Neither happens without the other: the rollback gives the challenge back.
          if (!spent) throw PROOF_REFUSED;
          return 'completed' as const;
        });
      } catch (err) {
        if (err === PROOF_REFUSED) return 'proof-refused';
        throw err;
      }
    },
    // --- OAuth / OIDC (oauth/) ------------------------------------------------------------------
    async createOAuthState(st) {
      const at = now();
      // Expired requests go as new ones come (indexed on expires_at): the table stays small.
      await k().deleteFrom('oauth_states').where('expires_at', '<=', at).execute();
      await k()
        .insertInto('oauth_states')
        .values({
          state_hash: st.stateHash,
          provider: st.provider,
          redirect_uri: st.redirectUri,
          callback_url: st.callbackUrl,
          nonce_hash: st.nonceHash,
          verifier_sealed: st.verifierSealed,
          code_challenge: st.codeChallenge,
          created_at: at,
          expires_at: st.expiresAt,
          consumed_at: null,
        })
        .execute();
    },
    async consumeOAuthState(stateHash, provider) {
      const at = now();
      const row = await k()
        .updateTable('oauth_states')
        .set({ consumed_at: at })
        .where('state_hash', '=', stateHash)
        .where('provider', '=', provider)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', at)
        .returningAll()
        .executeTakeFirst();
      return row
        ? {
            provider: row.provider,
            redirectUri: row.redirect_uri,
            callbackUrl: row.callback_url,
            nonceHash: row.nonce_hash,
            verifierSealed: row.verifier_sealed,
            codeChallenge: row.code_challenge,
          }
        : null;
    },
    async findUserByIdentity(provider, subject) {
      const row = await k()
        .selectFrom('oauth_identities as i')
        .innerJoin('users as u', 'u.id', 'i.user_id')
        .selectAll('u')
        .where('i.provider', '=', provider)
        .where('i.subject', '=', subject)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async createUserWithIdentity(input, identity) {
      const at = now();
      try {
        return await root.transaction().execute(async (trx) => {
          const row = await k(trx)
            .insertInto('users')
            .values({
              id: randomUUID(),
              email: input.email.toLowerCase(),
              username: input.username ?? null,
              password_hash: input.passwordHash,
              email_verified: input.emailVerified ?? false,
              active: input.active ?? true,
              is_anonymous: false,
              metadata: JSON.stringify(input.metadata ?? {}) as never,
              created_at: at,
              updated_at: at,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          await insertIdentity(trx, row.id, identity, at);
          return toUser(row);
        });
      } catch (err) {
        if (isPgError(err, '23505')) {
          const which = /oauth_identities/.test(pgErrorText(err))
            ? 'this provider account'
            : /username/.test(pgErrorText(err))
              ? 'this username'
              : 'this email';
          throw authError('USER_ALREADY_EXISTS', `a user with ${which} already exists`, {
            cause: err,
          });
        }
        throw err;
      }
    },
    async proveEmail(userId, link) {
      if (!UUID_RE.test(userId)) return null;
      return root.transaction().execute(async (trx) => {
        const at = now();
        // FOR UPDATE, not a weaker lock: it conflicts with the key-share lock a session insert
        // takes on its user, so no session of this user can be created while the proof runs, and
        // one being created (a rotation, a sign-in) finishes first and is revoked below.
        const user = await k(trx)
          .selectFrom('users')
          .selectAll()
          .where('id', '=', userId)
          .forUpdate()
          .executeTakeFirst();
        if (!user) return null;
        if (link) {
          const inserted = await k(trx)
            .insertInto('oauth_identities')
            .values({
              provider: link.provider,
              subject: link.subject,
              user_id: userId,
              email: link.email?.toLowerCase() ?? null,
              created_at: at,
            })
            .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
            .returning('user_id')
            .executeTakeFirst();
          if (!inserted) {
            const owner = await k(trx)
              .selectFrom('oauth_identities')
              .select('user_id')
              .where('provider', '=', link.provider)
              .where('subject', '=', link.subject)
              .executeTakeFirst();
            if (owner && owner.user_id !== userId)
              throw authError(
                'USER_ALREADY_EXISTS',
                'this provider account is linked to another user',
              );
          }
        }
        if (user.email_verified) return { user: toUser(user), proved: false };
        const updated = await k(trx)
          .updateTable('users')
          .set({ email_verified: true, password_hash: null, updated_at: at })
          .where('id', '=', userId)
          .returningAll()
          .executeTakeFirstOrThrow();
        await revokeAll(trx, userId, at);
        await consumeAll(trx, 'reset_tokens', userId, at);
        await consumeAll(trx, 'verification_tokens', userId, at);
        await k(trx)
          .updateTable('mfa_challenges')
          .set({ consumed_at: at })
          .where('user_id', '=', userId)
          .where('consumed_at', 'is', null)
          .execute();
        await k(trx)
          .updateTable('oauth_codes')
          .set({ consumed_at: at })
          .where('user_id', '=', userId)
          .where('consumed_at', 'is', null)
          .execute();
        await k(trx).deleteFrom('webauthn_credentials').where('user_id', '=', userId).execute();
        await k(trx)
          .deleteFrom('oauth_identities')
          .where('user_id', '=', userId)
          .$if(link !== undefined, (q) =>
            q.where((eb) =>
              eb.or([
                eb('provider', '<>', link?.provider ?? ''),
                eb('subject', '<>', link?.subject ?? ''),
              ]),
            ),
          )
          .execute();
        return { user: toUser(updated), proved: true };
      });
    },
    async listIdentities(userId) {
      if (!UUID_RE.test(userId)) return [];
      const rows = await k()
        .selectFrom('oauth_identities')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy(sql`provider collate "C"`)
        .orderBy(sql`subject collate "C"`)
        .execute();
      return rows.map((r) => ({
        provider: r.provider,
        subject: r.subject,
        email: r.email,
        userId: r.user_id,
        createdAt: new Date(r.created_at),
      }));
    },
    async issueOAuthCode(code) {
      await k().deleteFrom('oauth_codes').where('expires_at', '<=', now()).execute();
      await k()
        .insertInto('oauth_codes')
        .values({
          code_hash: code.codeHash,
          user_id: code.userId,
          provider: code.provider,
          code_challenge: code.codeChallenge,
          created_at: now(),
          expires_at: code.expiresAt,
          consumed_at: null,
        })
        .execute();
    },
    async consumeOAuthCode(codeHash) {
      const at = now();
      const row = await k()
        .updateTable('oauth_codes')
        .set({ consumed_at: at })
        .where('code_hash', '=', codeHash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', at)
        .returning(['user_id', 'provider', 'code_challenge'])
        .executeTakeFirst();
      return row
        ? { userId: row.user_id, provider: row.provider, codeChallenge: row.code_challenge }
        : null;
    },
  });
}

function toCredential(r: Selectable<AuthTables['webauthn_credentials']>): WebAuthnCredentialRecord {
  return {
    credentialId: r.credential_id,
    userId: r.user_id,
    publicKey: new Uint8Array(r.public_key),
    signCount: Number(r.sign_count),
    name: r.name,
    aaguid: r.aaguid,
    backupEligible: r.backup_eligible,
    createdAt: new Date(r.created_at),
    lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  };
}

/** Thrown inside `completeMfaChallenge`'s transaction to roll it back. */
const PROOF_REFUSED = Symbol('proof refused');

/** Whether a user owes a second factor and how many recovery codes remain, in one round trip. */
const MFA_STATE_SQL = `select
    exists (select 1 from ${AUTH_SCHEMA}.totp_factors where user_id = $1 and confirmed_at is not null) as confirmed,
    (select count(*)::int from ${AUTH_SCHEMA}.recovery_codes where user_id = $1 and used_at is null) as codes`;

/** The step only goes forward: a code whose step is at or below the last accepted one is a replay. */
async function useTotpStepIn(
  db: Kysely<AuthTables>,
  userId: string,
  step: number,
): Promise<boolean> {
  const r = await db
    .withSchema(AUTH_SCHEMA)
    .updateTable('totp_factors')
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Burns an unused recovery code: of concurrent callers with one code, one wins. */
async function useRecoveryCodeIn(
  db: Kysely<AuthTables>,
  userId: string,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  const r = await db
    .withSchema(AUTH_SCHEMA)
    .updateTable('recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Code-point order (the memory store's and `collate "C"`'s). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toUser(r: Selectable<AuthTables['users']>): UserRecord {
  return {
    id: r.id,
    email: r.email,
    username: r.username,
    passwordHash: r.password_hash,
    emailVerified: r.email_verified,
    active: r.active,
    isAnonymous: r.is_anonymous,
    metadata: typeof r.metadata === 'string' ? JSON.parse(r.metadata) : (r.metadata ?? {}),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

function toSession(r: Selectable<AuthTables['sessions']>): SessionRecord {
  return {
    id: r.id,
    userId: r.user_id,
    accessJti: r.access_jti,
    ip: r.ip,
    userAgent: r.user_agent,
    createdAt: new Date(r.created_at),
    expiresAt: new Date(r.expires_at),
    lastActivityAt: new Date(r.last_activity_at),
    revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
    familyId: r.family_id ?? r.id,
    aal: r.aal,
  };
}

function toRole(r: { name: string; description: string | null }): RoleRecord {
  return { name: r.name, description: r.description };
}

function isPgError(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

function pgErrorText(err: unknown): string {
  const e = err as { constraint?: string; detail?: string; message?: string };
  return `${e.constraint ?? ''} ${e.detail ?? ''} ${e.message ?? ''}`;
}

/**
 * SQLSTATEs of text PostgreSQL cannot take: a NUL byte (22021), a `\u0000` escape in jsonb
 * (22P05), a value too large for an index entry (54000). They are the caller's input, not a server
 * fault, so every verb reports them as a VALIDATION_ERROR instead of letting them become a 500.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05', '54000']);

function refuseUnstorableText(store: AuthStore): AuthStore {
  const guarded: Record<string, unknown> = {};
  for (const [name, verb] of Object.entries(store) as Array<
    [string, (...args: unknown[]) => Promise<unknown>]
  >) {
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await verb(...args);
      } catch (err) {
        const code = (err as { code?: unknown })?.code;
        if (typeof code === 'string' && UNSTORABLE_TEXT.has(code)) {
          throw commonError(
            'VALIDATION_ERROR',
            'the input holds text that cannot be stored (such as a NUL character or an oversized value)',
          );
        }
        throw err;
      }
    };
  }
  return guarded as unknown as AuthStore;
}
