/**
 * Range and multirange properties as stored (on the engine SVC_TEST_DB names): each `range<T>`
 * is PostgreSQL's range type of T (float ranges are numeric ranges), each `multirange<T>` its
 * multirange type, multi properties and arrays of them; defaults, constraints and indexes over
 * them; re-applying is a no-op; a range of a type that is no range element is refused.
 */
import type { Database } from '../db';
import { MigrationError, UnsupportedFeatureError } from '../errors';
import { createTestDatabase, type TestDatabase } from '../testing';
import { buildSchema } from '../schema/build';
import { createDefaultMigrator } from '../schema/default';

const migrator = createDefaultMigrator();
let tdb: TestDatabase;
let db: Database;

describe('stored', () => {
  beforeEach(async () => {
    tdb = await createTestDatabase();
    db = tdb.db;
  });
  afterEach(async () => {
    await tdb.dispose();
  });

  const run = (sql: string, params: unknown[] = []) => db.query(sql, params);

  const SDL = `type Slot {
    i32: range<int32>;
    i64: range<int64> { default := range(1, 10); }
    f32: range<float32>;
    f64: range<float64>;
    dec: range<decimal>;
    at: range<datetime>;
    local_at: range<cal::local_datetime>;
    day: range<cal::local_date>;
    days: multirange<cal::local_date>;
    nums: multirange<int64>;
    multi bands: range<float64>;
    list: array<range<int32>>;
  }`;

  test('each range and multirange type is its PostgreSQL type', async () => {
    await migrator.migrate(db, SDL);
    const { rows } = await run(
      `select column_name as c, udt_name as t from information_schema.columns
        where table_schema = 'default' and table_name = 'Slot' order by column_name`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.c, r.t]))).toMatchObject({
      i32: 'int4range',
      i64: 'int8range',
      f32: 'numrange',
      f64: 'numrange',
      dec: 'numrange',
      at: 'tstzrange',
      local_at: 'tsrange',
      day: 'daterange',
      days: 'datemultirange',
      nums: 'int8multirange',
      list: '_int4range',
    });
    const junction = await run(
      `select udt_name as t from information_schema.columns
        where table_schema = 'default' and table_name = 'Slot.bands' and column_name = 'value'`,
    );
    expect(junction.rows).toEqual([{ t: 'numrange' }]);
  });

  test('values are stored and read back; the default applies; re-applying is a no-op', async () => {
    await migrator.migrate(db, SDL);
    await run(
      `insert into "default"."Slot" (i32, days, nums)
       values ('[1,5]', '{[2024-01-01,2024-01-03),[2024-02-01,2024-02-02)}', '{}')`,
    );
    const { rows } = await run(
      `select i32::text, i64::text, days::text, nums::text, isempty(nums) as e from "default"."Slot"`,
    );
    expect(rows).toEqual([
      {
        i32: '[1,6)',
        i64: '[1,10)',
        days: '{[2024-01-01,2024-01-03),[2024-02-01,2024-02-02)}',
        nums: '{}',
        e: true,
      },
    ]);
    const again = await migrator.migrate(db, SDL);
    expect(again.steps).toEqual([]);
  });

  test('constraints and indexes over ranges', async () => {
    await migrator.migrate(
      db,
      `type Stay {
         during: range<datetime> {
           constraint exclusive;
           constraint expression on (not range_is_empty(__subject__));
         }
         nights: multirange<cal::local_date>;
         index on (.nights);
       }`,
    );
    await run(`insert into "default"."Stay" (during) values ('[2024-01-01T00:00Z,)')`);
    await expect(
      run(`insert into "default"."Stay" (during) values ('[2024-01-01T00:00Z,)')`),
    ).rejects.toMatchObject({ code: '23505' });
    await expect(
      run(`insert into "default"."Stay" (during) values ('empty')`),
    ).rejects.toMatchObject({ code: '23514' });
  });

  test('adding a multirange property to a type with objects keeps them', async () => {
    await migrator.migrate(db, 'type A { r: range<int64>; }');
    await run(`insert into "default"."A" (r) values ('[1,3)')`);
    await migrator.migrate(db, 'type A { r: range<int64>; m: multirange<int64>; }');
    const { rows } = await run(`select r::text, m from "default"."A"`);
    expect(rows).toEqual([{ r: '[1,3)', m: null }]);
  });

  test('changing a range property to another range type is refused with a MigrationError', async () => {
    await migrator.migrate(db, 'type A { r: range<int32>; }');
    await expect(migrator.migrate(db, 'type A { r: range<int64>; }')).rejects.toBeInstanceOf(
      MigrationError,
    );
  });
});

test.each([
  'type T { r: range<int16>; }',
  'type T { r: multirange<str>; }',
  'type T { r: array<range<bool>>; }',
])('%s is an UnsupportedFeatureError (Gel: unsupported range subtype)', (sdl) => {
  expect(() => buildSchema(sdl)).toThrow(UnsupportedFeatureError);
  expect(() => buildSchema(sdl)).toThrow(/unsupported range subtype/);
});
