import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core';
import { defineStoreConformance } from './conformance';
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
