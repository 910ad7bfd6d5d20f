import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { canonicalEmail } from '../account';

/** The Postgres schema every @svc/auth table lives in (and Kysely's migration bookkeeping too). */
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
        .addColumn('user_id', 'uuid', (c) => c.notNull().references(`${ref('users')}.id`).onDelete('cascade'))
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
          .addColumn('user_id', 'uuid', (c) => c.notNull().references(`${ref('users')}.id`).onDelete('cascade'))
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
        .addColumn('user_id', 'uuid', (c) => c.notNull().references(`${ref('users')}.id`).onDelete('cascade'))
        .addColumn('role_name', 'text', (c) => c.notNull().references(`${ref('roles')}.name`).onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('user_roles_pkey', ['user_id', 'role_name'])
        .execute();
      await s.createIndex('user_roles_role_name_idx').on('user_roles').column('role_name').execute();
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
          where lower(o.username) = lower(u.username) and (o.created_at, o.id) < (u.created_at, u.id))`.execute(db);
      await sql`create unique index users_username_lower_key on ${users} (lower(username))`.execute(db);

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
});

/** A `MigrationProvider` over the in-code migrations. */
export const authMigrationProvider: MigrationProvider = {
  async getMigrations() {
    return { ...AUTH_MIGRATIONS };
  },
};
