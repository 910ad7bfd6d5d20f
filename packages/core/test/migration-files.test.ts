/**
 * Issue 31: migration files applied in order through the runner, on a real database (PGlite, or
 * PostgreSQL with SVC_TEST_DB=postgres).
 */
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../src/testing';
import { MigrationError } from '../src/errors';
import { createDefaultMigrator, makeMigration, type MigrationFile } from '../src/schema';

const migrator = createDefaultMigrator();
const apply = (t: TestDatabase, m: MigrationFile, dryRun = false) =>
  migrator.migrate(t.db, m.sdl, {
    renames: m.renames,
    fills: m.fills,
    migration: { id: m.id, parent: m.parent },
    dryRun,
  });

describe(`migration files on ${testDatabaseKind()}`, () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(() => t.dispose());

  const first = makeMigration(null, 'type User { required name: str; bio: str; }');
  const second = makeMigration(
    first,
    'type User { required name: str; about: str; required handle: str; }',
    {
      renames: [{ kind: 'pointer', type: 'User', from: 'bio', to: 'about' }],
      fills: { 'User.handle': 'str_lower(.name)' },
    },
  );

  test('applied in order, each once, recorded by id; one out of order is refused', async () => {
    await expect(apply(t, second)).rejects.toThrow(MigrationError);
    await expect(apply(t, second)).rejects.toThrow(
      /applies onto m1[0-9a-f]{12}, but the last migration applied to this database is none/,
    );
    expect((await apply(t, first)).applied).toBe(true);
    await t.db.query(`insert into "default"."User" (name, bio) values ('Ann', 'hi')`);
    expect(await apply(t, first)).toMatchObject({ applied: false, steps: [] });
    // A dry run of the next one changes nothing.
    expect((await apply(t, second, true)).steps.length).toBeGreaterThan(0);
    expect(await migrator.appliedMigrations(t.db)).toEqual([first.id]);
    expect((await apply(t, second)).applied).toBe(true);
    expect((await t.db.query(`select about, handle from "default"."User"`)).rows).toEqual([
      { about: 'hi', handle: 'ann' },
    ]);
    expect(await migrator.appliedMigrations(t.db)).toEqual([first.id, second.id]);
    const history = await migrator.history(t.db);
    expect(history.map((h) => h.migration)).toEqual([second.id, first.id]);
    // Another branch's migration onto the first is refused: the database has moved on.
    const sibling = makeMigration(first, 'type User { required name: str; bio: str; x: str; }');
    await expect(apply(t, sibling)).rejects.toThrow(
      /the last migration applied to this database is m1/,
    );
  });

  test('a migration whose schema changes nothing is still recorded; a development push has no id', async () => {
    await migrator.migrate(t.db, first.sdl); // a development push of the same schema
    expect((await migrator.history(t.db)).map((h) => h.migration)).toEqual([null]);
    const result = await apply(t, first);
    expect(result.steps).toEqual([]);
    expect(await migrator.appliedMigrations(t.db)).toEqual([first.id]);
  });

  test('a database made before migration ids gains the column and keeps its history', async () => {
    await t.db.query('create schema svc_meta');
    await t.db.query(`create table svc_meta.migrations (
      id bigint generated always as identity primary key, version text not null, sdl text not null,
      steps jsonb not null, applied_at timestamptz not null default now())`);
    expect(await migrator.appliedMigrations(t.db)).toEqual([]);
    expect(await migrator.history(t.db)).toEqual([]);
    await apply(t, first);
    expect(await migrator.appliedMigrations(t.db)).toEqual([first.id]);
  });
});
