/**
 * `svc_meta.uuid_generate_v7()` (schema/bootstrap) on the test database (PGlite, or PostgreSQL with
 * SVC_TEST_DB=postgres): RFC 9562's version and variant bits, the first 48 bits the Unix time in
 * milliseconds, big-endian (so ids made in later milliseconds sort after earlier ones), no byte
 * functions, and a database bootstrapped by an older svc gets the new function.
 */
import { runBootstrap } from '../storage/migrate';
import { createTestDatabase, type TestDatabase } from '../testing';
import { STORAGE_BOOTSTRAP_SQL } from './bootstrap';

jest.setTimeout(60_000);

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await runBootstrap(t.db, STORAGE_BOOTSTRAP_SQL);
});
afterAll(async () => {
  await t?.dispose();
});

const BATCH = 500;
const ROUNDS = 4;

/** One statement's ids, with the clock read before and after it (ms). */
async function batch(): Promise<{ ids: string[]; before: number; after: number }> {
  const { rows } = await t.db.query<{ id: string; before: string; after: string }>(
    `select svc_meta.uuid_generate_v7()::text as id,
       floor(extract(epoch from statement_timestamp()) * 1000)::bigint::text as before,
       floor(extract(epoch from clock_timestamp()) * 1000)::bigint::text as after
     from generate_series(1, ${BATCH})`,
  );
  return {
    ids: rows.map((r) => r.id),
    before: Number(rows[0]?.before),
    after: Math.max(...rows.map((r) => Number(r.after))),
  };
}

const millis = (id: string): number => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);

test('version 7, variant 10xx, and the first 48 bits the time in ms', async () => {
  const { ids, before, after } = await batch();
  expect(ids).toHaveLength(BATCH);
  expect(new Set(ids).size).toBe(BATCH);
  for (const id of ids) {
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(millis(id)).toBeGreaterThanOrEqual(before);
    expect(millis(id)).toBeLessThanOrEqual(after);
  }
  // Within one statement the clock never goes back: the times are in call order.
  const times = ids.map(millis);
  expect(times).toEqual([...times].sort((a, b) => a - b));
});

test('ids of later milliseconds sort after earlier ones, as uuids and as text', async () => {
  const all: string[] = [];
  let last = -1;
  for (let round = 0; round < ROUNDS; round++) {
    // Wait (bounded) until the clock has passed the last id's millisecond.
    const deadline = Date.now() + 1000;
    while (Date.now() <= last + 1 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 2));
    const { ids } = await batch();
    const first = ids[0] as string;
    expect(millis(first)).toBeGreaterThan(last);
    last = millis(ids.at(-1) as string);
    all.push(...ids);
  }
  expect(new Set(all.map(millis)).size).toBeGreaterThan(1);
  const { rows } = await t.db.query<{ id: string }>(
    'select id::text as id from unnest($1::uuid[]) as u(id) order by id',
    [all],
  );
  // PostgreSQL orders uuids by their bytes: the time order, which is also the call order here
  // apart from ties within one millisecond (random there).
  const sorted = rows.map((r) => r.id);
  expect(sorted.map(millis)).toEqual(all.map(millis));
  expect([...all].sort()).toEqual(sorted);
});

test('the function uses no bytea functions, and replaces the one an older svc made', async () => {
  await t.db.query(
    `create or replace function "svc_meta"."uuid_generate_v7"() returns uuid language sql volatile set search_path = pg_catalog as $$ select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid $$`,
  );
  await runBootstrap(t.db, STORAGE_BOOTSTRAP_SQL);
  const { rows } = await t.db.query<{ src: string }>(
    "select prosrc as src from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'svc_meta' and p.proname = 'uuid_generate_v7'",
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]?.src).not.toMatch(/uuid_send|int8send|set_bit|bytea|encode/);
  expect(rows[0]?.src).toMatch(/gen_random_uuid\(\)::text/);
});
