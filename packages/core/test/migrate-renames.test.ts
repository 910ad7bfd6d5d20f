/**
 * Issue 31: renames keep data and fills fill it, on a real database (PGlite, or PostgreSQL with
 * SVC_TEST_DB=postgres), through the migration runner.
 */
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../src/testing';
import { ConstraintViolationError, MigrationError } from '../src/errors';
import { createDefaultMigrator } from '../src/schema';

const migrator = createDefaultMigrator();

describe(`renames and fills on ${testDatabaseKind()}`, () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(() => t.dispose());
  const rows = async (sql: string) => (await t.db.query<Record<string, unknown>>(sql)).rows;

  const V1 = `
    type User {
      required name: str { constraint exclusive; };
      bio: str { constraint max_len_value(100); };
      multi tags: str;
      multi friends: User;
      index on (.bio);
    }
    type Post { required title: str; author: User; }
  `;
  const seed = async () => {
    await migrator.migrate(t.db, V1);
    await t.db.query(
      `insert into "default"."User" (name, bio) values ('ann', 'hello'), ('bob', null)`,
    );
    await t.db.query(
      `insert into "default"."User.tags" (source, value) select id, 'x' from "default"."User" where name = 'ann'`,
    );
    await t.db.query(
      `insert into "default"."User.friends" (source, target) select a.id, b.id from "default"."User" a, "default"."User" b where a.name = 'ann' and b.name = 'bob'`,
    );
    await t.db.query(
      `insert into "default"."Post" (title, author) select 'p1', id from "default"."User" where name = 'ann'`,
    );
  };

  test('a renamed type and property keep every row, link and constraint', async () => {
    await seed();
    const V2 = V1.replace(/\bUser\b/g, 'Person').replace(/\bbio\b/g, 'about');
    // Without the renames it is a drop and an add: refused, since rows would be lost.
    await expect(migrator.migrate(t.db, V2)).rejects.toThrow(/the migration was not applied/);
    const result = await migrator.migrate(t.db, V2, {
      renames: [
        { kind: 'type', from: 'User', to: 'Person' },
        { kind: 'pointer', type: 'Person', from: 'bio', to: 'about' },
      ],
    });
    expect(result.applied).toBe(true);
    expect(result.sql.join('\n')).not.toMatch(/drop table|drop column|add column/);
    expect(await rows(`select name, about from "default"."Person" order by name`)).toEqual([
      { name: 'ann', about: 'hello' },
      { name: 'bob', about: null },
    ]);
    expect(await rows(`select count(*)::int as n from "default"."Person.tags"`)).toEqual([
      { n: 1 },
    ]);
    expect(await rows(`select count(*)::int as n from "default"."Person.friends"`)).toEqual([
      { n: 1 },
    ]);
    expect(
      await rows(
        `select p.title, u.name from "default"."Post" p join "default"."Person" u on u.id = p.author`,
      ),
    ).toEqual([{ title: 'p1', name: 'ann' }]);
    // The constraints still hold under the new names.
    await expect(
      t.db.query(`insert into "default"."Person" (name) values ('ann')`),
    ).rejects.toThrow();
    await expect(
      t.db.query(`insert into "default"."Person" (name, about) values ('cy', repeat('x', 101))`),
    ).rejects.toThrow();
    // And the schema is as if it had been written so: migrating to V2 again changes nothing.
    expect((await migrator.migrate(t.db, V2)).applied).toBe(false);
  });

  test('a new required property takes its fill from each row, then is required', async () => {
    await seed();
    const V2 = V1.replace('multi tags: str;', 'multi tags: str; required handle: str;');
    await expect(migrator.migrate(t.db, V2)).rejects.toThrow(ConstraintViolationError);
    await migrator.migrate(t.db, V2, { fills: { 'User.handle': `'@' ++ str_upper(.name)` } });
    expect(await rows(`select name, handle from "default"."User" order by name`)).toEqual([
      { name: 'ann', handle: '@ANN' },
      { name: 'bob', handle: '@BOB' },
    ]);
    await expect(t.db.query(`insert into "default"."User" (name) values ('cy')`)).rejects.toThrow();
  });

  test('an optional property made required is filled where it is empty; a type change converts', async () => {
    await seed();
    const V2 = V1.replace('bio: str {', 'required bio: str {');
    await migrator.migrate(t.db, V2, { fills: { 'User.bio': `'(none)'` } });
    expect(await rows(`select name, bio from "default"."User" order by name`)).toEqual([
      { name: 'ann', bio: 'hello' },
      { name: 'bob', bio: '(none)' },
    ]);
    const V3 = V2.replace('required title: str;', 'required title: int64;');
    await t.db.query(`update "default"."Post" set title = 'p12'`);
    await expect(migrator.migrate(t.db, V3)).rejects.toThrow(); // 'p12' is no int64
    await migrator.migrate(t.db, V3, { fills: { 'Post.title': `len(.title)` } });
    expect(await rows(`select title::text as title from "default"."Post"`)).toEqual([
      { title: '3' },
    ]);
  });

  test('a rename the schemas do not bear out is refused before anything changes', async () => {
    await seed();
    await expect(
      migrator.migrate(t.db, V1.replace(/\bbio\b/g, 'about'), {
        renames: [{ kind: 'pointer', type: 'User', from: 'biography', to: 'about' }],
      }),
    ).rejects.toThrow(MigrationError);
    expect(
      await rows(`select count(*)::int as n from "default"."User" where bio = 'hello'`),
    ).toEqual([{ n: 1 }]);
  });
});
