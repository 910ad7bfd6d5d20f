/**
 * svc_auth migration 0008 over data of the previous release: sessions made before it get their
 * own id as family (so a reused token of theirs revokes just their chain), and a session a
 * previous-release process inserts afterwards (no family_id) reads as its own family too.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { AUTH_MIGRATIONS, migrateAuthSchema } from '../store/migrations';
import { createPostgresStore } from '../store/postgres';

describe(`migration 0008_sessions_guests on ${testDatabaseKind()}`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  });

  test('existing sessions become families of their own; old-release inserts read the same', async () => {
    const before = Object.fromEntries(
      Object.entries(AUTH_MIGRATIONS).filter(([name]) => name < '0008'),
    );
    await migrateAuthSchema(t.db, before);
    const {
      rows: [user],
    } = await t.db.query<{ id: string }>(
      "insert into svc_auth.users (email) values ('old@example.com') returning id",
    );
    const insertOld = async () => {
      const id = randomUUID();
      await t.db.query(
        `insert into svc_auth.sessions (id, user_id, access_jti, refresh_token_hash, expires_at)
         values ($1, $2, $3, $4, now() + interval '1 day')`,
        [id, user!.id, randomUUID(), randomUUID()],
      );
      return id;
    };
    const old = await insertOld();
    await migrateAuthSchema(t.db);
    const { rows } = await t.db.query<{ family_id: string; rotated_at: Date | null }>(
      'select family_id, rotated_at from svc_auth.sessions where id = $1',
      [old],
    );
    expect(rows).toEqual([{ family_id: old, rotated_at: null }]);
    // a process of the previous release inserts without the new columns
    const later = await insertOld();
    const store = createPostgresStore(t.db);
    const live = await store.listLiveSessions(user!.id, new Date(Date.now() - 3_600_000));
    expect(live.map((s) => [s.id, s.familyId]).sort()).toEqual(
      [
        [old, old],
        [later, later],
      ].sort(),
    );
    expect(await store.revokeSessionFamily(later)).toBe(1);
    expect((await store.listLiveSessions(user!.id, new Date(0))).map((s) => s.id)).toEqual([old]);
  });
});
