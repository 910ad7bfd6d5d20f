import { Migrator } from 'kysely';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core';
import { defineStoreConformance } from './conformance';
import { AUTH_SCHEMA, authMigrationProvider } from './migrations';
import { createPostgresStore } from './postgres';

let tdb: TestDatabase;

defineStoreConformance(`postgres store on ${testDatabaseKind()}`, {
  async setup() {
    tdb = await createTestDatabase();
    await createPostgresStore(tdb.db).migrate();
  },
  async open(now) {
    await tdb.db.query('truncate svc_auth.users, svc_auth.roles cascade');
    return createPostgresStore(tdb.db, { now });
  },
  teardown: () => tdb.dispose(),
}, { describe, test, expect, beforeAll, afterAll, beforeEach });

describe('svc_auth migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  }, 60_000);
  afterAll(() => db.dispose());

  test('create the tables in schema svc_auth, idempotently, with Kysely bookkeeping there too', async () => {
    const store = createPostgresStore(db.db);
    await store.migrate();
    await store.migrate();
    await Promise.all([store.migrate(), store.migrate()]);
    const { rows } = await db.db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'svc_auth' order by table_name",
    );
    expect(rows.map((r) => r.table_name)).toEqual([
      'kysely_migration',
      'kysely_migration_lock',
      'reset_tokens',
      'roles',
      'sessions',
      'user_roles',
      'users',
      'verification_tokens',
    ]);
    const { rows: public_ } = await db.db.query(
      "select table_name from information_schema.tables where table_schema = 'public' and table_name like 'kysely%'",
    );
    expect(public_).toEqual([]);
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
    const migrator = new Migrator({ db: db.db.kysely(), provider: authMigrationProvider, migrationTableSchema: AUTH_SCHEMA });
    const first = await migrator.migrateTo('0001_accounts_sessions_roles');
    expect(first.error).toBeUndefined();
    const insert = (id: string, email: string, username: string | null, at: string) =>
      db.db.query('insert into svc_auth.users (id, email, username, created_at) values ($1, $2, $3, $4)', [id, email, username, at]);
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
    await expect(store.createUser({ email: 'new@example.com', username: 'BOB', passwordHash: 'h' })).rejects.toMatchObject({
      code: 'USER_ALREADY_EXISTS',
      message: 'a user with this username already exists',
    });
  });
});
