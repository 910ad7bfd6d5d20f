import { type Kysely, Migrator, sql } from 'kysely';
import { openDatabase, withLock, type Database } from '@svc/core';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { defineStoreConformance } from './conformance';
import { AUTH_MIGRATIONS, AUTH_MIGRATION_LOCK, migrateAuthSchema } from './migrations';
import { createPostgresStore } from './postgres';

let tdb: TestDatabase;

defineStoreConformance(
  `postgres store on ${testDatabaseKind()}`,
  {
    async setup() {
      tdb = await createTestDatabase();
      await createPostgresStore(tdb.db).migrate();
    },
    async open(now) {
      await tdb.db.query(
        'truncate svc_auth.users, svc_auth.roles, svc_auth.rate_limits, svc_auth.magic_link_signup_tokens cascade',
      );
      return createPostgresStore(tdb.db, { now });
    },
    teardown: () => tdb.dispose(),
  },
  { describe, test, expect, beforeAll, afterAll, beforeEach },
);

describe('svc_auth migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  }, 60_000);
  afterAll(() => db.dispose());

  test('create the tables in schema svc_auth, idempotently, with the bookkeeping there too', async () => {
    const store = createPostgresStore(db.db);
    await store.migrate();
    await store.migrate();
    await Promise.all([store.migrate(), store.migrate()]);
    const { rows } = await db.db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'svc_auth' order by table_name",
    );
    expect(rows.map((r) => r.table_name)).toEqual([
      'kysely_migration',
      'magic_codes',
      'magic_link_signup_tokens',
      'magic_link_tokens',
      'mfa_challenges',
      'oauth_codes',
      'oauth_identities',
      'oauth_states',
      'rate_limits',
      'recovery_codes',
      'reset_tokens',
      'roles',
      'sessions',
      'totp_factors',
      'user_roles',
      'users',
      'verification_tokens',
      'webauthn_challenges',
      'webauthn_credentials',
    ]);
    const { rows: public_ } = await db.db.query(
      "select table_name from information_schema.tables where table_schema = 'public' and table_name like 'kysely%'",
    );
    expect(public_).toEqual([]);
    const { rows: recorded } = await db.db.query<{ name: string }>(
      'select name from svc_auth.kysely_migration order by name',
    );
    expect(recorded.map((r) => r.name)).toEqual(Object.keys(AUTH_MIGRATIONS).sort());
  });

  test('the email column refuses upper case at the database level', async () => {
    await expect(
      db.db.query("insert into svc_auth.users (email) values ('Upper@Example.com')"),
    ).rejects.toMatchObject({ code: '23514' });
  });
});

// Issue 8: usernames become unique case-insensitively and emails canonical (NFKC, lower case).
// Accounts stored before must survive the migration: nothing is lost, duplicates are resolved.
describe('svc_auth migration 0003 over data stored by 0001', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  }, 60_000);
  afterAll(() => db.dispose());

  test('case-duplicate usernames: the oldest keeps the name; emails rewritten unless a look-alike holds the form', async () => {
    const first = '0001_accounts_sessions_roles';
    expect(await migrateAuthSchema(db.db, { [first]: AUTH_MIGRATIONS[first]! })).toEqual([first]);
    const insert = (id: string, email: string, username: string | null, at: string) =>
      db.db.query(
        'insert into svc_auth.users (id, email, username, created_at) values ($1, $2, $3, $4)',
        [id, email, username, at],
      );
    const ids = {
      ada: '00000000-0000-4000-8000-000000000001',
      ADA: '00000000-0000-4000-8000-000000000002',
      aDa: '00000000-0000-4000-8000-000000000003',
      nfd: '00000000-0000-4000-8000-000000000004',
      nfc: '00000000-0000-4000-8000-000000000005',
      lookalike: '00000000-0000-4000-8000-000000000006',
    };
    await insert(ids.ADA, 'a2@example.com', 'ADA', '2030-01-02T00:00:00Z');
    await insert(ids.ada, 'a1@example.com', 'ada', '2030-01-01T00:00:00Z');
    await insert(ids.aDa, 'a3@example.com', 'aDa', '2030-01-03T00:00:00Z');
    await insert(ids.nfd, 'rene\u0301e@example.com', 'bob', '2030-01-01T00:00:00Z');
    await insert(ids.nfc, 'zo\u00eb@example.com', null, '2030-01-01T00:00:00Z');
    await insert(ids.lookalike, 'zoe\u0308@example.com', null, '2030-01-02T00:00:00Z');

    await createPostgresStore(db.db).migrate();
    const { rows } = await db.db.query<{ id: string; email: string; username: string | null }>(
      'select id, email, username from svc_auth.users order by id',
    );
    expect(rows).toEqual([
      { id: ids.ada, email: 'a1@example.com', username: 'ada' },
      { id: ids.ADA, email: 'a2@example.com', username: `ADA-${ids.ADA}` },
      { id: ids.aDa, email: 'a3@example.com', username: `aDa-${ids.aDa}` },
      { id: ids.nfd, email: 'ren\u00e9e@example.com', username: 'bob' },
      { id: ids.nfc, email: 'zo\u00eb@example.com', username: null },
      { id: ids.lookalike, email: 'zoe\u0308@example.com', username: null },
    ]);
    const store = createPostgresStore(db.db);
    expect((await store.findUserByLogin({ username: 'ADA' }))?.id).toBe(ids.ada);
    expect((await store.findUserByLogin({ username: `ada-${ids.ADA}` }))?.id).toBe(ids.ADA);
    await expect(
      store.createUser({ email: 'new@example.com', username: 'BOB', passwordHash: 'h' }),
    ).rejects.toMatchObject({
      code: 'USER_ALREADY_EXISTS',
      message: 'a user with this username already exists',
    });
  });
});

describe(`svc_auth migrations: upgrades and concurrent starts on ${testDatabaseKind()}`, () => {
  const fresh: TestDatabase[] = [];
  const freshDatabase = async () => {
    const t = await createTestDatabase();
    fresh.push(t);
    return t;
  };
  afterAll(async () => {
    await Promise.all(fresh.splice(0).map((t) => t.dispose()));
  });
  const recorded = async (db: Database) =>
    (
      await db.query<{ name: string }>('select name from svc_auth.kysely_migration order by name')
    ).rows.map((r) => r.name);

  test('a database migrated by the Kysely Migrator of earlier releases goes on from where it was', async () => {
    const t = await freshDatabase();
    const first = '0001_accounts_sessions_roles';
    const old = new Migrator({
      db: t.db.kysely(),
      provider: { getMigrations: async () => ({ [first]: AUTH_MIGRATIONS[first]! }) },
      migrationTableSchema: 'svc_auth',
    });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    await t.db.query("insert into svc_auth.users (email) values ('kept@example.com')");

    await createPostgresStore(t.db).migrate();
    expect(await recorded(t.db)).toEqual(Object.keys(AUTH_MIGRATIONS).sort());
    const { rows } = await t.db.query<{ email: string }>('select email from svc_auth.users');
    expect(rows).toEqual([{ email: 'kept@example.com' }]);
    await t.db.query("insert into svc_auth.rate_limits (key, expires_at) values ('k', now())");
    // The old Migrator still sees a database it understands (a downgrade would not refuse to start
    // because of its own bookkeeping).
    expect((await old.getMigrations()).find((m) => m.name === first)?.executedAt).toBeInstanceOf(
      Date,
    );
  });

  test('several stores migrating one fresh database at once all finish, each migration once', async () => {
    const t = await freshDatabase();
    // On PostgreSQL each store has its own pool (as separate processes would); PGlite is one connection.
    const dbs: Database[] =
      testDatabaseKind() === 'postgres'
        ? await Promise.all(
            Array.from({ length: 6 }, () =>
              openDatabase({ ...(t.config as { url: string }), poolSize: 2 }),
            ),
          )
        : Array.from({ length: 6 }, () => t.db);
    try {
      await Promise.all(dbs.map((db) => createPostgresStore(db).migrate()));
      expect(await recorded(t.db)).toEqual(Object.keys(AUTH_MIGRATIONS).sort());
    } finally {
      if (testDatabaseKind() === 'postgres') await Promise.all(dbs.map((db) => db.close()));
    }
  });

  if (testDatabaseKind() === 'postgres') {
    // Issue 8: through pgbouncer in transaction mode, the Migrator's session-level
    // pg_advisory_lock and its unlock landed on different server connections; the lock leaked and
    // every later start waited on it, even with nothing to migrate. Held here by another session.
    const holdLock = async (url: string, key: bigint | number) => {
      const holder = await openDatabase({ url, poolSize: 1 });
      await holder.query('select pg_advisory_lock($1)', [String(key)]);
      return holder;
    };
    // The migration lock row (core withLock), held by a transaction of another session until
    // released; made first when the database has none.
    const holdRow = async (url: string, name: string) => {
      const holder = await openDatabase({ url, poolSize: 1 });
      let release = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      let locked = () => {};
      const held = new Promise<void>((r) => {
        locked = r;
      });
      const done = withLock(holder, name, async () => {
        locked();
        await released;
      });
      await held;
      return {
        release: async () => {
          release();
          await done;
        },
        close: async () => {
          release();
          await done.catch(() => {});
          await holder.close();
        },
      };
    };
    const settlesWithin = <T>(p: Promise<T>, ms: number) =>
      Promise.race([
        p.then(() => 'settled' as const),
        new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms).unref()),
      ]);

    test('with nothing to migrate, a start takes no lock: a leaked migration lock does not block it', async () => {
      const t = await freshDatabase();
      const url = (t.config as { url: string }).url;
      await createPostgresStore(t.db).migrate();
      const kyselyLock = await holdLock(url, 3853314791062309107n);
      const ours = await holdRow(url, AUTH_MIGRATION_LOCK);
      try {
        const db = await openDatabase({ url, poolSize: 1 });
        try {
          expect(await settlesWithin(createPostgresStore(db).migrate(), 5000)).toBe('settled');
        } finally {
          await db.close();
        }
      } finally {
        await kyselyLock.close();
        await ours.close();
      }
    });

    test('with migrations pending, the start waits for the transaction-scoped lock row, then migrates', async () => {
      const t = await freshDatabase();
      const url = (t.config as { url: string }).url;
      const holder = await holdRow(url, AUTH_MIGRATION_LOCK);
      const db = await openDatabase({ url, poolSize: 1 });
      try {
        const migrating = createPostgresStore(db).migrate();
        expect(await settlesWithin(migrating, 500)).toBe('pending');
        await holder.release();
        await migrating;
        expect(await recorded(db)).toEqual(Object.keys(AUTH_MIGRATIONS).sort());
        // Nothing is left held by the migration once it committed: another session locks the
        // row at once, and no advisory lock is taken at all.
        const other = await openDatabase({ url, poolSize: 1 });
        try {
          await other.transaction(async (tx) => {
            await tx.query('select name from svc_meta.locks where name = $1 for update nowait', [
              AUTH_MIGRATION_LOCK,
            ]);
          });
        } finally {
          await other.close();
        }
        const { rows } = await db.query<{ n: number }>(
          "select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
        );
        expect(rows[0]?.n).toBe(0);
      } finally {
        await db.close();
        await holder.close();
      }
    });

    // Issue 26: the server's pool carries requestTimeout as every connection's statement_timeout;
    // a migration (a data migration over many users, a wait for another process's lock) may
    // take longer and must not be stopped half-way at start-up.
    test('migrations run past the pool statement timeout', async () => {
      const t = await freshDatabase();
      const url = (t.config as { url: string }).url;
      const db = await openDatabase({ url, poolSize: 1 }, { statementTimeoutMs: 50 });
      try {
        const slow = {
          '0001_slow': {
            async up(k: Kysely<unknown>) {
              await sql`select pg_sleep(0.3)`.execute(k);
            },
          },
        };
        expect(await migrateAuthSchema(db, slow)).toEqual(['0001_slow']);
        await expect(db.query('select pg_sleep(0.3)')).rejects.toMatchObject({ code: '57014' });
      } finally {
        await db.close();
      }
    });
  }
});
