import { sql, type Kysely, type Migration } from 'kysely';
import { type Database, withLock } from '@svc/core';
import { canonicalEmail } from '../account';

/** The Postgres schema every @svc/auth table lives in (and the migration bookkeeping too). */
export const AUTH_SCHEMA = 'svc_auth';

/**
 * The migrations of the `svc_auth` schema, defined in code (no migration files to ship).
 * Names sort in the order they run; a released migration is never edited, only followed.
 */
export const AUTH_MIGRATIONS: Readonly<Record<string, Migration>> = Object.freeze({
  '0001_accounts_sessions_roles': {
    async up(db: Kysely<any>) {
      const s = db.schema.withSchema(AUTH_SCHEMA);
      const ref = (table: string) => `${AUTH_SCHEMA}.${table}`;
      await s
        .createTable('users')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('email', 'text', (c) => c.notNull().unique().check(sql`email = lower(email)`))
        .addColumn('username', 'text', (c) => c.unique())
        .addColumn('password_hash', 'text')
        .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('is_anonymous', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createTable('sessions')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('user_id', 'uuid', (c) =>
          c
            .notNull()
            .references(`${ref('users')}.id`)
            .onDelete('cascade'),
        )
        .addColumn('access_jti', 'text', (c) => c.notNull().unique())
        .addColumn('refresh_token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('last_activity_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('revoked_at', 'timestamptz')
        .execute();
      await s.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
      for (const table of ['reset_tokens', 'verification_tokens']) {
        await s
          .createTable(table)
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'uuid', (c) =>
            c
              .notNull()
              .references(`${ref('users')}.id`)
              .onDelete('cascade'),
          )
          .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
          .addColumn('consumed_at', 'timestamptz')
          .execute();
        await s.createIndex(`${table}_user_id_idx`).on(table).column('user_id').execute();
      }
      await s
        .createTable('roles')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('description', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createTable('user_roles')
        .addColumn('user_id', 'uuid', (c) =>
          c
            .notNull()
            .references(`${ref('users')}.id`)
            .onDelete('cascade'),
        )
        .addColumn('role_name', 'text', (c) =>
          c
            .notNull()
            .references(`${ref('roles')}.name`)
            .onDelete('cascade'),
        )
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('user_roles_pkey', ['user_id', 'role_name'])
        .execute();
      await s
        .createIndex('user_roles_role_name_idx')
        .on('user_roles')
        .column('role_name')
        .execute();
    },
  },
  // One row per counter key: the hits still inside their window (a sliding log; never more than
  // the key's limit) and when the newest one leaves it, for the sweep.
  '0002_rate_limits': {
    async up(db: Kysely<any>) {
      const s = db.schema.withSchema(AUTH_SCHEMA);
      await s
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('hits', sql`timestamptz[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await s
        .createIndex('rate_limits_expires_at_idx')
        .on('rate_limits')
        .column('expires_at')
        .execute();
    },
  },
  /**
   * Identifiers become one spelling (issue 8): usernames unique whatever their letter case, and
   * stored emails in the canonical form `normalizeEmail` now gives input (NFKC, lower case). It
   * reads only what 0001 made, so it runs after 0001 whatever other migrations sit between.
   * Existing data:
   * - Usernames equal but for case: the oldest account keeps its name; each later one is renamed
   *   `<name>-<its id>` (unique, since ids are, and longer than any name users can pick) and logs
   *   in by email or by that name.
   * - A stored email whose canonical form differs (only non-ASCII text can: NFD, fullwidth...)
   *   is rewritten, unless another account already holds the canonical form: then the two were
   *   look-alike accounts and this one keeps its stored spelling (it stays reachable by id).
   */
  '0003_case_insensitive_usernames_nfkc_emails': {
    async up(db: Kysely<any>) {
      const users = sql.table(`${AUTH_SCHEMA}.users`);
      await sql`update ${users} as u set username = u.username || '-' || u.id::text
        where u.username is not null and exists (
          select 1 from ${users} as o
          where lower(o.username) = lower(u.username) and (o.created_at, o.id) < (u.created_at, u.id))`.execute(
        db,
      );
      await sql`create unique index users_username_lower_key on ${users} (lower(username))`.execute(
        db,
      );

      const { rows } = await sql<{ id: string; email: string }>`select id, email from ${users}
        where octet_length(email) <> char_length(email)`.execute(db);
      for (const { id, email } of rows) {
        const canonical = canonicalEmail(email);
        if (canonical === email) continue;
        await sql`update ${users} set email = ${canonical}, updated_at = now()
          where id = ${id} and ${canonical}::text = lower(${canonical}::text)
            and not exists (select 1 from ${users} where email = ${canonical})`.execute(db);
      }
    },
  },
  /**
   * MFA (src/mfa): one TOTP enrolment per user (the secret AES-256-GCM sealed, `confirmed_at`
   * null while pending, the last accepted time step against replay), recovery codes as SHA-256
   * of user id and code, and MFA challenges (token SHA-256, 5 minutes, tries counted).
   */
  '0004_mfa': {
    async up(db: Kysely<any>) {
      const s = db.schema.withSchema(AUTH_SCHEMA);
      const userRef = `${AUTH_SCHEMA}.users.id`;
      await s
        .createTable('totp_factors')
        .addColumn('user_id', 'uuid', (c) => c.primaryKey().references(userRef).onDelete('cascade'))
        .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
        .addColumn('confirmed_at', 'timestamptz')
        .addColumn('last_used_step', 'bigint')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createTable('recovery_codes')
        .addColumn('user_id', 'uuid', (c) => c.notNull().references(userRef).onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('used_at', 'timestamptz')
        .addPrimaryKeyConstraint('recovery_codes_pkey', ['user_id', 'code_hash'])
        .execute();
      await s
        .createTable('mfa_challenges')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'uuid', (c) => c.notNull().references(userRef).onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await s
        .createIndex('mfa_challenges_user_id_idx')
        .on('mfa_challenges')
        .column('user_id')
        .execute();
    },
  },
  /**
   * Passwordless sign-in (issue 12): magic-link tokens of users, magic-link signup tokens of
   * emails with no account yet (`allowImplicitSignup`; kept apart, they carry the pending email),
   * and one live magic code per user. Every secret is stored as a digest: SHA-256 of the link
   * token, a keyed HMAC of the 6-digit code (see passwordless/codes.ts).
   */
  '0005_passwordless': {
    async up(db: Kysely<any>) {
      const s = db.schema.withSchema(AUTH_SCHEMA);
      const users = `${AUTH_SCHEMA}.users.id`;
      await s
        .createTable('magic_link_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'uuid', (c) => c.notNull().references(users).onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .execute();
      await s
        .createIndex('magic_link_tokens_user_id_idx')
        .on('magic_link_tokens')
        .column('user_id')
        .execute();
      await s
        .createTable('magic_link_signup_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().check(sql`email = lower(email)`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .execute();
      await s
        .createIndex('magic_link_signup_tokens_email_idx')
        .on('magic_link_signup_tokens')
        .column('email')
        .execute();
      await s
        .createTable('magic_codes')
        .addColumn('user_id', 'uuid', (c) => c.primaryKey().references(users).onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .execute();
    },
  },
  /**
   * Passkeys (issue 12). Credentials: the id (base64url, unique across users, as authenticators
   * make them), the public key as SPKI DER, the signature counter (bigint: a uint32). Challenges:
   * one row per begun ceremony, consumed by one conditional UPDATE at finish.
   */
  '0006_webauthn': {
    async up(db: Kysely<any>) {
      const s = db.schema.withSchema(AUTH_SCHEMA);
      const users = `${AUTH_SCHEMA}.users.id`;
      await s
        .createTable('webauthn_credentials')
        .addColumn('credential_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'uuid', (c) => c.notNull().references(users).onDelete('cascade'))
        .addColumn('public_key', 'bytea', (c) => c.notNull())
        .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('aaguid', 'text', (c) => c.notNull())
        .addColumn('backup_eligible', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('last_used_at', 'timestamptz')
        .execute();
      await s
        .createIndex('webauthn_credentials_user_id_idx')
        .on('webauthn_credentials')
        .column('user_id')
        .execute();
      await s
        .createTable('webauthn_challenges')
        .addColumn('id', 'uuid', (c) => c.primaryKey())
        .addColumn('ceremony', 'text', (c) =>
          c.notNull().check(sql`ceremony in ('register', 'login')`),
        )
        .addColumn('user_id', 'uuid', (c) => c.references(users).onDelete('cascade'))
        .addColumn('challenge_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .execute();
      await s
        .createIndex('webauthn_challenges_expires_at_idx')
        .on('webauthn_challenges')
        .column('expires_at')
        .execute();
    },
  },
  /**
   * OAuth / OIDC (oauth/): authorization requests in flight (by the SHA-256 of their `state`),
   * provider identities linked to users (a user may have several; one provider account links to
   * one user), and the one-time codes the callback hands the app (by their SHA-256).
   */
  '0007_oauth': {
    async up(db: Kysely<any>) {
      const s = db.schema.withSchema(AUTH_SCHEMA);
      const users = `${AUTH_SCHEMA}.users.id`;
      await s
        .createTable('oauth_states')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('callback_url', 'text', (c) => c.notNull())
        .addColumn('nonce_hash', 'text')
        .addColumn('verifier_sealed', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .execute();
      await s
        .createIndex('oauth_states_expires_at_idx')
        .on('oauth_states')
        .column('expires_at')
        .execute();
      await s
        .createTable('oauth_identities')
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('user_id', 'uuid', (c) => c.notNull().references(users).onDelete('cascade'))
        .addColumn('email', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('oauth_identities_pkey', ['provider', 'subject'])
        .execute();
      await s
        .createIndex('oauth_identities_user_id_idx')
        .on('oauth_identities')
        .column('user_id')
        .execute();
      await s
        .createTable('oauth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'uuid', (c) => c.notNull().references(users).onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .execute();
      await s.createIndex('oauth_codes_user_id_idx').on('oauth_codes').column('user_id').execute();
      await s
        .createIndex('oauth_codes_expires_at_idx')
        .on('oauth_codes')
        .column('expires_at')
        .execute();
    },
  },
  /**
   * Guests and session families (issue 12). `family_id` names the sign-in a session descends
   * from: a refresh carries it to the next session, so a reused refresh token can revoke the whole
   * chain. `rotated_at` tells a session retired by a refresh from one ended any other way (logout,
   * password change...): only presenting the refresh token of a rotated session is reuse. Both are
   * nullable so a process of the previous release can still insert sessions during a rolling
   * upgrade; a null family reads as the session's own id.
   */
  '0008_sessions_guests': {
    async up(db: Kysely<any>) {
      const sessions = sql.table(`${AUTH_SCHEMA}.sessions`);
      await sql`alter table ${sessions} add column family_id uuid, add column rotated_at timestamptz`.execute(
        db,
      );
      await sql`update ${sessions} set family_id = id where family_id is null`.execute(db);
      await sql`create index sessions_family_id_idx on ${sessions} (family_id)`.execute(db);
    },
  },
  /**
   * Assurance levels (issue 26): `sessions.aal` is what the session's sign-in proved (`aal1` one
   * factor, `aal2` an MFA challenge or a user-verified passkey); a refresh copies it.
   * `webauthn_challenges.second_factor` marks a registration begun with the second factor proven,
   * so its finish needs no second proof. Both default to the weaker value: sessions that existed
   * before are `aal1` (their holders prove the second factor again to manage it), and a process
   * of the previous release, which writes neither column, makes `aal1` sessions and unmarked
   * challenges during a rolling upgrade.
   */
  '0009_assurance_levels': {
    async up(db: Kysely<unknown>) {
      const sessions = sql.table(`${AUTH_SCHEMA}.sessions`);
      await sql`alter table ${sessions} add column aal text not null default 'aal1'
        constraint sessions_aal_check check (aal in ('aal1', 'aal2'))`.execute(db);
      const challenges = sql.table(`${AUTH_SCHEMA}.webauthn_challenges`);
      await sql`alter table ${challenges}
        add column second_factor boolean not null default false`.execute(db);
    },
  },
  /**
   * Guest retention (issue 26): the sweep of guests past `guestRetention` finds them by creation
   * time among guests only, so it reads this small partial index, not the whole users table.
   */
  '0010_guest_retention': {
    async up(db: Kysely<unknown>) {
      const users = sql.table(`${AUTH_SCHEMA}.users`);
      await sql`create index users_guest_created_at_idx on ${users} (created_at) where is_anonymous`.execute(
        db,
      );
    },
  },
});

/**
 * The lock row that serialises `svc_auth` migrations (core's `withLock`: a row of
 * `svc_meta.locks`, beside core's own `svc_meta` row). Transaction-scoped, so it is released by
 * the COMMIT or ROLLBACK of the migration itself and cannot outlive it, even through a
 * transaction-mode pooler such as pgbouncer, where a session-level lock and its unlock may land
 * on different server connections and leak.
 */
export const AUTH_MIGRATION_LOCK = 'svc_auth';

/**
 * Kysely's bookkeeping table, kept so databases migrated by earlier releases (with Kysely's
 * `Migrator`) go on where they were: same table, same columns, same names.
 */
const MIGRATION_TABLE = `${AUTH_SCHEMA}.kysely_migration`;

/**
 * Brings `svc_auth` up to date and returns the names of the migrations it ran.
 *
 * First, without any lock, it reads which migrations are recorded: when none is pending (every
 * start but the first after an upgrade) it returns after two reads. Otherwise it runs the pending
 * ones in name order in ONE transaction that starts by locking its lock row: concurrent
 * starters wait there, then see the others' work and skip it. A recorded migration this release
 * does not know (a newer release migrated the database) is left alone rather than refused, so
 * processes of two releases can share a database during a rolling upgrade.
 */
export async function migrateAuthSchema(
  database: Database,
  migrations: Readonly<Record<string, Migration>> = AUTH_MIGRATIONS,
): Promise<string[]> {
  const names = Object.keys(migrations).sort();
  const recorded = async (q: Pick<Database, 'query'>): Promise<Set<string>> => {
    const { rows } = await q.query<{ present: boolean }>(
      'select to_regclass($1) is not null as present',
      [MIGRATION_TABLE],
    );
    if (!rows[0]?.present) return new Set();
    const done = await q.query<{ name: string }>(`select name from ${MIGRATION_TABLE}`);
    return new Set(done.rows.map((r) => r.name));
  };
  const before = await recorded(database);
  if (names.every((n) => before.has(n))) return [];

  // withLock lifts the pool's statement_timeout (a server's requestTimeout) for the transaction:
  // a data migration over many users, or the wait for another process's lock, may take longer.
  return withLock(database, AUTH_MIGRATION_LOCK, async (tx) => {
    await tx.query(`create schema if not exists ${AUTH_SCHEMA}`);
    await tx.query(
      `create table if not exists ${MIGRATION_TABLE} (name varchar(255) not null primary key, timestamp varchar(255) not null)`,
    );
    const done = await recorded(tx);
    const ran: string[] = [];
    for (const name of names) {
      if (done.has(name)) continue;
      try {
        await (migrations[name] as Migration).up(tx.kysely());
      } catch (err) {
        throw new Error(
          `svc_auth migration ${name} failed: ${String((err as Error)?.message ?? err)}`,
          { cause: err },
        );
      }
      await tx.query(`insert into ${MIGRATION_TABLE} (name, timestamp) values ($1, $2)`, [
        name,
        new Date().toISOString(),
      ]);
      ran.push(name);
    }
    return ran;
  });
}
