/**
 * Integrity triggers (storage/integrity), proven with real inserts and deletes on the engine
 * SVC_TEST_DB names: polymorphic link targets, `on target delete` for links without a foreign
 * key, `delete source` of multi links, `on source delete`, exclusive across a hierarchy, and the
 * migration diff that creates and drops the triggers.
 */
import type { Database } from '../db';
import { createTestDatabase, type TestDatabase } from '../testing';
import { createDefaultMigrator } from '../schema/default';

const migrator = createDefaultMigrator();
let tdb: TestDatabase;
let db: Database;

beforeEach(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
});
afterEach(async () => {
  await tdb.dispose();
});

async function insert(table: string, columns: Record<string, unknown> = {}): Promise<string> {
  const names = Object.keys(columns);
  const list = names.map((n) => `"${n}"`).join(', ');
  const values = names.map((_, i) => `$${i + 1}`).join(', ');
  const sql = names.length
    ? `insert into "default"."${table}" (${list}) values (${values}) returning id`
    : `insert into "default"."${table}" default values returning id`;
  const { rows } = await db.query<{ id: string }>(sql, Object.values(columns));
  return (rows[0] as { id: string }).id;
}

async function count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from "default"."${table}" where ${where}`,
    params,
  );
  return (rows[0] as { n: number }).n;
}

const MISSING = '00000000-0000-7000-8000-000000000000';

describe('polymorphic link targets', () => {
  const SDL = `
    abstract type Item { name: str; }
    type Photo extending Item;
    type Note extending Item;
    type Tag;
    type Board {
      pinned: Item;
      multi items: Item;
      either: Photo | Tag;
      loose: Item { on target delete allow; }
      multi looseMany: Item { on target delete allow; }
      owner: Item { on target delete delete source; }
    }
  `;

  beforeEach(async () => {
    await migrator.migrate(db, SDL);
  });

  it('refuses a value that is no object of the target (single, multi, union)', async () => {
    const photo = await insert('Photo');
    const tag = await insert('Tag');
    await insert('Board', { pinned: photo, either: tag });
    await expect(insert('Board', { pinned: MISSING })).rejects.toMatchObject({ code: '23503' });
    await expect(insert('Board', { either: await insert('Note') })).rejects.toMatchObject({
      code: '23503',
    });
    const board = await insert('Board');
    await expect(
      db.query('insert into "default"."Board.items" (source, target) values ($1, $2)', [
        board,
        MISSING,
      ]),
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('restrict: a linked target cannot be deleted; an unlinked one can', async () => {
    const photo = await insert('Photo');
    const note = await insert('Note');
    const board = await insert('Board', { pinned: photo });
    await db.query('insert into "default"."Board.items" (source, target) values ($1, $2)', [
      board,
      note,
    ]);
    await expect(db.query('delete from "default"."Photo"')).rejects.toMatchObject({
      code: '23503',
    });
    await expect(db.query('delete from "default"."Note"')).rejects.toMatchObject({
      code: '23503',
    });
    await db.query('update "default"."Board" set pinned = null');
    await db.query('delete from "default"."Board.items"');
    await db.query('delete from "default"."Photo"');
    await db.query('delete from "default"."Note"');
    expect(await count('Photo')).toBe(0);
  });

  it('allow: deleting the target unsets the link and removes multi-link rows', async () => {
    const photo = await insert('Photo');
    const board = await insert('Board', { loose: photo });
    await db.query('insert into "default"."Board.looseMany" (source, target) values ($1, $2)', [
      board,
      photo,
    ]);
    await db.query('delete from "default"."Photo"');
    expect(await count('Board', 'loose is null')).toBe(1);
    expect(await count('Board.looseMany')).toBe(0);
  });

  it('delete source: deleting the target deletes the source', async () => {
    const note = await insert('Note');
    await insert('Board', { owner: note });
    await insert('Board');
    await db.query('delete from "default"."Note"');
    expect(await count('Board')).toBe(1);
  });
});

describe('deletion policies with a single target table', () => {
  it('delete source of a multi link deletes the source objects', async () => {
    await migrator.migrate(
      db,
      'type Tag; type Post { multi tags: Tag { on target delete delete source; } }',
    );
    const tag = await insert('Tag');
    const post = await insert('Post');
    await insert('Post');
    await db.query('insert into "default"."Post.tags" (source, target) values ($1, $2)', [
      post,
      tag,
    ]);
    await db.query('delete from "default"."Tag"');
    expect(await count('Post')).toBe(1);
    expect(await count('Post', 'id = $1', [post])).toBe(0);
  });

  it('deferred restrict is checked at commit', async () => {
    await migrator.migrate(
      db,
      'abstract type A; type B extending A; type C { l: A { on target delete deferred restrict; } }',
    );
    const b = await insert('B');
    await insert('C', { l: b });
    await db.transaction(async (tx) => {
      await tx.query('delete from "default"."B"');
      await tx.query('update "default"."C" set l = null');
    });
    const b2 = await insert('B');
    await insert('C', { l: b2 });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('delete from "default"."B"');
      }),
    ).rejects.toMatchObject({ code: '23503' });
    expect(await count('B')).toBe(1);
  });

  it('on source delete: delete target, and delete target if orphan', async () => {
    await migrator.migrate(
      db,
      `type Part;
       type Box {
         part: Part { on source delete delete target; }
         multi shared: Part { on source delete delete target if orphan; }
       }`,
    );
    const own = await insert('Part');
    const shared = await insert('Part');
    const lonely = await insert('Part');
    const box1 = await insert('Box', { part: own });
    const box2 = await insert('Box');
    for (const [source, target] of [
      [box1, shared],
      [box2, shared],
      [box1, lonely],
    ]) {
      await db.query('insert into "default"."Box.shared" (source, target) values ($1, $2)', [
        source,
        target,
      ]);
    }
    await db.query('delete from "default"."Box" where id = $1', [box1]);
    expect(await count('Part', 'id = $1', [own])).toBe(0);
    expect(await count('Part', 'id = $1', [lonely])).toBe(0);
    expect(await count('Part', 'id = $1', [shared])).toBe(1);
    // Unsetting a link is not deleting its source: the target stays.
    await db.query('delete from "default"."Box.shared"');
    expect(await count('Part', 'id = $1', [shared])).toBe(1);
  });
});

describe('exclusive across a type hierarchy', () => {
  it('a value is unique over every table of the hierarchy', async () => {
    await migrator.migrate(
      db,
      `abstract type Named { name: str { constraint exclusive; } }
       type Person extending Named;
       type Robot extending Named;
       type Cyborg extending Person;`,
    );
    await insert('Person', { name: 'ada' });
    await expect(insert('Robot', { name: 'ada' })).rejects.toMatchObject({ code: '23505' });
    await expect(insert('Cyborg', { name: 'ada' })).rejects.toMatchObject({ code: '23505' });
    await insert('Robot', { name: 'bo' });
    await expect(db.query(`update "default"."Cyborg" set name = 'bo'`)).resolves.toBeTruthy(); // no Cyborg rows: nothing to check
    await insert('Cyborg', { name: 'cy' });
    await expect(db.query(`update "default"."Cyborg" set name = 'bo'`)).rejects.toMatchObject({
      code: '23505',
    });
    // Nulls never clash, as in a unique index.
    await insert('Person');
    await insert('Robot');
  });

  it('a delegated constraint is per type', async () => {
    await migrator.migrate(
      db,
      `abstract type Named { name: str { delegated constraint exclusive; } }
       type Person extending Named;
       type Robot extending Named;`,
    );
    await insert('Person', { name: 'ada' });
    await insert('Robot', { name: 'ada' });
    await expect(insert('Robot', { name: 'ada' })).rejects.toMatchObject({ code: '23505' });
  });
});

describe('migrations', () => {
  async function triggers(): Promise<string[]> {
    const { rows } = await db.query<{ name: string }>(
      `select t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
       join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'default' and not t.tgisinternal order by 1`,
    );
    return rows.map((r) => r.name);
  }

  it('create and drop the triggers as links change', async () => {
    await migrator.migrate(db, 'abstract type A; type B extending A; type C { l: A; }');
    expect(await triggers()).toEqual([
      'default::C.l.on target delete.default::B',
      'default::C.l.target',
    ]);
    const result = await migrator.migrate(
      db,
      'abstract type A; type B extending A; type C { l: B; }',
    );
    expect(result.steps.map((s) => s.kind)).toEqual(
      expect.arrayContaining(['drop trigger', 'drop trigger']),
    );
    expect(await triggers()).toEqual([]);
    const again = await migrator.migrate(
      db,
      'abstract type A; type B extending A; type C { l: B; }',
    );
    expect(again.applied).toBe(false);
  });
});

describe('migrating to a shared exclusive', () => {
  it('refuses it while stored rows across the hierarchy break it', async () => {
    const types = 'type Person extending Named; type Robot extending Named;';
    await migrator.migrate(db, `abstract type Named { name: str; } ${types}`);
    await insert('Person', { name: 'ada' });
    await insert('Robot', { name: 'ada' });
    const exclusive = `abstract type Named { name: str { constraint exclusive; } } ${types}`;
    await expect(migrator.migrate(db, exclusive)).rejects.toMatchObject({
      type: 'ConstraintViolationError',
    });
    await db.query(`update "default"."Robot" set name = 'bo'`);
    expect((await migrator.migrate(db, exclusive)).applied).toBe(true);
  });

  it('adds a subtype of two exclusive types (its new table holds no rows to check)', async () => {
    const bases = `type Foo { required name: str { constraint exclusive; } }
      type Bar { required name: str { constraint exclusive; } }`;
    await migrator.migrate(db, bases);
    await insert('Foo', { name: 'both' });
    await insert('Bar', { name: 'both' });
    expect((await migrator.migrate(db, `${bases} type Baz extending Foo, Bar;`)).applied).toBe(
      true,
    );
    await expect(insert('Baz', { name: 'both' })).rejects.toMatchObject({ code: '23505' });
    await insert('Baz', { name: 'baz' });
    expect(await count('Baz')).toBe(1);
  });
});

describe('delete source within one statement', () => {
  it('deletes a source and its polymorphic target together', async () => {
    await migrator.migrate(
      db,
      'abstract type Item; type Node extending Item { parent: Item { on target delete delete source; } }',
    );
    const root = await insert('Node');
    const child = await insert('Node', { parent: root });
    await insert('Node', { parent: child });
    await db.query('delete from "default"."Node"');
    expect(await count('Node')).toBe(0);
  });
});

describe('delete source of a multi link within one statement', () => {
  it('deletes a source and its target together, in either order', async () => {
    await migrator.migrate(
      db,
      'type Node { multi kids: Node { on target delete delete source; } }',
    );
    const first = await insert('Node');
    const second = await insert('Node');
    const lone = await insert('Node');
    await db.query('insert into "default"."Node.kids" (source, target) values ($1, $2)', [
      second,
      first,
    ]);
    await db.query('delete from "default"."Node" where id = any($1::uuid[])', [[first, second]]);
    expect(await count('Node')).toBe(1);
    expect(await count('Node', 'id = $1', [lone])).toBe(1);
  });
});
