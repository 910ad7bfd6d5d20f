/**
 * Constraints and targets of Gel's test schemas, as stored (on the engine SVC_TEST_DB names):
 * slices in constraint expressions and indexes, `@prop` / `@source` in link constraints,
 * nested tuples in an exclusive, a link to `Object`.
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

const run = (sql: string, params: unknown[] = []) => db.query(sql, params);

test('slices in constraints: str, array, json, negative and open bounds', async () => {
  await migrator.migrate(
    db,
    `type T {
       s: str { constraint expression on (__subject__[-1:] = '9'); }
       a: array<int64> { constraint expression on (len(__subject__[1:]) < 3); }
       j: json;
       constraint exclusive on ((.j[0:2]));
     }`,
  );
  await run(`insert into "default"."T" (s) values ('19')`);
  await expect(run(`insert into "default"."T" (s) values ('18')`)).rejects.toMatchObject({
    code: '23514',
  });
  await run(`insert into "default"."T" (a) values ('{1,2,3}')`);
  await expect(run(`insert into "default"."T" (a) values ('{1,2,3,4}')`)).rejects.toMatchObject({
    code: '23514',
  });
  await run(`insert into "default"."T" (j) values ('[1, 2, 3]')`);
  await expect(run(`insert into "default"."T" (j) values ('[1, 2, 4]')`)).rejects.toMatchObject({
    code: '23505',
  });
  await run(`insert into "default"."T" (j) values ('"abc"')`);
  await expect(run(`insert into "default"."T" (j) values ('{"a": 1}')`)).rejects.toMatchObject({
    code: '22023',
  });
});

test('link constraints read @prop and @source', async () => {
  await migrator.migrate(
    db,
    `type Label;
     type Doc {
       multi label: Label {
         lang: str;
         constraint exclusive on ((__subject__@source, __subject__@lang));
       }
       single main: Label { code: str; constraint exclusive on (@code); }
     }`,
  );
  const { rows } = await run(
    `with l as (insert into "default"."Label" default values returning id),
          d as (insert into "default"."Doc" default values returning id)
     select l.id as label, d.id as doc from l, d`,
  );
  const { label, doc } = rows[0] as { label: string; doc: string };
  await run(`insert into "default"."Doc.label" (source, target, lang) values ($1, $2, 'en')`, [
    doc,
    label,
  ]);
  const other = (
    (await run(`insert into "default"."Label" default values returning id`)).rows[0] as {
      id: string;
    }
  ).id;
  await expect(
    run(`insert into "default"."Doc.label" (source, target, lang) values ($1, $2, 'en')`, [
      doc,
      other,
    ]),
  ).rejects.toMatchObject({ code: '23505' });
  await run(`insert into "default"."Doc" ("main", "main@code") values ($1, 'x')`, [label]);
  await expect(
    run(`insert into "default"."Doc" ("main", "main@code") values ($1, 'x')`, [other]),
  ).rejects.toMatchObject({ code: '23505' });
});

test('an exclusive on nested tuples indexes each element', async () => {
  await migrator.migrate(
    db,
    'type P { p: int64; q: int64; first: str; constraint exclusive on (((.p, .q), .first)); }',
  );
  await run(`insert into "default"."P" (p, q, first) values (1, 2, 'a')`);
  await run(`insert into "default"."P" (p, q, first) values (1, 2, 'b')`);
  await expect(
    run(`insert into "default"."P" (p, q, first) values (1, 2, 'a')`),
  ).rejects.toMatchObject({ code: '23505' });
});

test('a link to Object reaches any object type, and only objects', async () => {
  await migrator.migrate(db, 'type Person; type Note { subject: Object; }');
  const person = (
    (await run(`insert into "default"."Person" default values returning id`)).rows[0] as {
      id: string;
    }
  ).id;
  await run(`insert into "default"."Note" (subject) values ($1)`, [person]);
  await expect(
    run(`insert into "default"."Note" (subject) values ($1)`, [
      '00000000-0000-7000-8000-000000000000',
    ]),
  ).rejects.toMatchObject({ code: '23503' });
  await expect(run(`delete from "default"."Person"`)).rejects.toMatchObject({ code: '23503' });
});

test('an fts::index is a GIN index over the weighted documents', async () => {
  const sdl = `type Doc {
      name: str; body: str;
      index fts::index on ((
        fts::with_options(.name, language := fts::Language.eng, weight_category := fts::Weight.A),
        fts::with_options(.body, language := fts::Language.fra),
      ));
    }`;
  await migrator.migrate(db, sdl);
  const { rows } = await run(
    `select indexdef from pg_indexes where schemaname = 'default' and tablename = 'Doc' and indexdef like '%gin%'`,
  );
  expect(rows).toHaveLength(1);
  expect((rows[0] as { indexdef: string }).indexdef).toContain("'english'::regconfig");
  await run(`insert into "default"."Doc" (name, body) values ('running', null)`);
  const found = await run(
    `select count(*)::int as n from "default"."Doc" where setweight(to_tsvector('english'::regconfig, coalesce(name, '')), 'A') @@ to_tsquery('english', 'run')`,
  );
  expect(found.rows[0]).toEqual({ n: 1 });
  expect((await migrator.migrate(db, sdl)).applied).toBe(false);
});

test('an exclusive on a computed property over the row, across a hierarchy', async () => {
  await migrator.migrate(
    db,
    `type Person { first: str; last: str; property ns := .first ++ ' ';
       property name { using (.ns ++ .last); constraint exclusive; } }
     type Derived extending Person;`,
  );
  await run(`insert into "default"."Person" (first, last) values ('ada', 'l')`);
  await expect(
    run(`insert into "default"."Person" (first, last) values ('ada', 'l')`),
  ).rejects.toMatchObject({ code: '23505' });
  await expect(
    run(`insert into "default"."Derived" (first, last) values ('ada', 'l')`),
  ).rejects.toMatchObject({ code: '23505' });
  await run(`insert into "default"."Derived" (first, last) values ('ada', 'm')`);
});

test('defaults never depend on session settings (TimeZone, DateStyle)', async () => {
  await migrator.migrate(
    db,
    `type T {
       s: str { default := to_str(<datetime>'2020-01-02T03:04:05+01:00'); }
       d: str { default := <str><cal::local_date>'2020-01-02'; }
       j: json { default := <json><datetime>'2020-01-02T03:04:05Z'; }
     }`,
  );
  const rows = await db.transaction(async (tx) => {
    await tx.query(`set local TimeZone = 'Asia/Tokyo'`);
    await tx.query(`set local DateStyle = 'SQL, DMY'`);
    await tx.query(`set local search_path = pg_temp`);
    return (await tx.query(`insert into "default"."T" default values returning s, d, j::text as j`))
      .rows;
  });
  expect(rows[0]).toEqual({
    s: '2020-01-02T02:04:05+00:00',
    d: '2020-01-02',
    j: '"2020-01-02T03:04:05+00:00"',
  });
});

test('std functions that raise at run time compile to immutable index expressions', async () => {
  // Indexing a str past its end raises (svc_meta.raise); in an exclusive's index the call must
  // be immutable, or PostgreSQL refuses the index (42P17) and the migration fails.
  await migrator.migrate(
    db,
    `type Tag {
       label: str { constraint exclusive on (str_lower(__subject__)); }
       code: str;
       constraint exclusive on ((.code[0]));
       index on (str_upper(.label));
     }`,
  );
  await run(`insert into "default"."Tag" (label, code) values ('Red', 'r1')`);
  await expect(
    run(`insert into "default"."Tag" (label, code) values ('RED', 'x')`),
  ).rejects.toMatchObject({ code: '23505' });
  await expect(
    run(`insert into "default"."Tag" (label, code) values ('blue', 'r2')`),
  ).rejects.toMatchObject({ code: '23505' });
  await expect(
    run(`insert into "default"."Tag" (label, code) values ('green', '')`),
  ).rejects.toMatchObject({ code: '22000', message: 'string index 0 is out of bounds' });
  await run(`insert into "default"."Tag" (label, code) values ('green', 'g')`);
});

test('an fts::index without documents (an abstract placeholder) indexes nothing', async () => {
  const sdl = `abstract type Numbered {
      required number: int64;
      index fts::index on (());
    }
    type Page extending Numbered {
      required text: str;
      index fts::index on (fts::with_options(.text, language := fts::Language.eng));
    }
    type Note extending Numbered { text: str; }`;
  await migrator.migrate(db, sdl);
  const { rows } = await run(
    `select tablename from pg_indexes where schemaname = 'default' and indexdef like '%gin%' order by 1`,
  );
  expect(rows).toEqual([{ tablename: 'Page' }]);
  expect((await migrator.migrate(db, sdl)).applied).toBe(false);
});

test('an exclusive on a link property is unique per link, across all sources', async () => {
  const tags = `type Tag { required name: str; }
     type Item {
       required name: str;
       multi tags: Tag { note: str { constraint exclusive; } };
       single main: Tag { rank: int64 { constraint exclusive; } };
     }`;
  await migrator.migrate(db, tags);
  const id = async (table: string) =>
    (
      (await run(`insert into "default"."${table}" (name) values ('x') returning id`)).rows[0] as {
        id: string;
      }
    ).id;
  const [t1, t2, i1, i2] = [await id('Tag'), await id('Tag'), await id('Item'), await id('Item')];
  await run(`insert into "default"."Item.tags" (source, target, note) values ($1, $2, 'n')`, [
    i1,
    t1,
  ]);
  await expect(
    run(`insert into "default"."Item.tags" (source, target, note) values ($1, $2, 'n')`, [i2, t2]),
  ).rejects.toMatchObject({ code: '23505' });
  await run(`insert into "default"."Item.tags" (source, target, note) values ($1, $2, 'm')`, [
    i2,
    t1,
  ]);
  await run(`update "default"."Item" set main = $2, "main@rank" = 1 where id = $1`, [i1, t1]);
  await expect(
    run(`update "default"."Item" set main = $2, "main@rank" = 1 where id = $1`, [i2, t2]),
  ).rejects.toMatchObject({ code: '23505' });
  await run(`update "default"."Item" set main = $2, "main@rank" = 2 where id = $1`, [i2, t2]);
});

test('a link property exclusive is migrated: refused over duplicates, created, dropped', async () => {
  const sdl = (c: string) =>
    `type Tag; type Item { multi tags: Tag { note: str${c}; } single main: Tag { rank: int64${c}; } }`;
  await migrator.migrate(db, sdl(''));
  const id = async (table: string) =>
    (
      (await run(`insert into "default"."${table}" default values returning id`)).rows[0] as {
        id: string;
      }
    ).id;
  const [t, i1, i2] = [await id('Tag'), await id('Item'), await id('Item')];
  for (const i of [i1, i2])
    await run(`insert into "default"."Item.tags" (source, target, note) values ($1, $2, 'n')`, [
      i,
      t,
    ]);
  const exclusive = sdl(' { constraint exclusive; }');
  await expect(migrator.migrate(db, exclusive)).rejects.toMatchObject({
    type: 'ConstraintViolationError',
    message: expect.stringContaining('Item.tags@note'),
  });
  await run(`update "default"."Item.tags" set note = 'm' where source = $1`, [i2]);
  const created = await migrator.migrate(db, exclusive);
  expect(created.steps.filter((s) => s.kind === 'create constraint')).toHaveLength(2);
  await expect(
    run(`update "default"."Item.tags" set note = 'n' where source = $1`, [i2]),
  ).rejects.toMatchObject({ code: '23505' });
  const dropped = await migrator.migrate(db, sdl(''));
  expect(dropped.steps.filter((s) => s.kind === 'drop constraint')).toHaveLength(2);
  await run(`update "default"."Item.tags" set note = 'n' where source = $1`, [i2]);
});

test('a link property exclusive holds across the junction tables of a hierarchy', async () => {
  await migrator.migrate(
    db,
    `type Tag; type Item { multi tags: Tag { note: str { constraint exclusive; } } }
     type Special extending Item;`,
  );
  const id = async (table: string) =>
    (
      (await run(`insert into "default"."${table}" default values returning id`)).rows[0] as {
        id: string;
      }
    ).id;
  const [t, i, s] = [await id('Tag'), await id('Item'), await id('Special')];
  await run(`insert into "default"."Item.tags" (source, target, note) values ($1, $2, 'n')`, [
    i,
    t,
  ]);
  await expect(
    run(`insert into "default"."Special.tags" (source, target, note) values ($1, $2, 'n')`, [s, t]),
  ).rejects.toMatchObject({
    code: '23505',
    message: expect.stringContaining('note violates exclusivity constraint'),
  });
  await run(`insert into "default"."Special.tags" (source, target, note) values ($1, $2, 'm')`, [
    s,
    t,
  ]);
});
