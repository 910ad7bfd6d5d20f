/**
 * sql/__tests__/fixture-database: a test database holding the tables the printer tests refer to,
 * and `analyzes(text)`: PostgreSQL parses and analyses a statement (`PREPARE`, which resolves
 * names and types and infers `$n` types from their casts, without running it).
 *
 * Tables (names chosen to need quoting):
 * - `"app"."Item"(id uuid pk, name text not null, n int4, owner uuid)`,
 *   `"app"."Item.tags"(source uuid, target uuid, weight int4, pk (source, target))`;
 * - `"Mod ule"."T""1"` and `"Mod ule"."t2"`: `(a int4 pk, "B b" int4)` (the property test's).
 */
import { createTestDatabase, type TestDatabase } from '../../testing';

export const FIXTURE_DDL = [
  'create schema "app"',
  'create table "app"."Item" (id uuid primary key, name text not null, n int4, owner uuid)',
  `create table "app"."Item.tags" (source uuid not null, target uuid not null, weight int4,
     primary key (source, target))`,
  'create schema "Mod ule"',
  'create table "Mod ule"."T""1" (a int4 primary key, "B b" int4)',
  'create table "Mod ule"."t2" (a int4 primary key, "B b" int4)',
];

export interface FixtureDatabase extends TestDatabase {
  /** Resolves when PostgreSQL accepts `text` as a statement; rejects with its error otherwise. */
  analyzes(text: string): Promise<void>;
}

export async function createFixtureDatabase(): Promise<FixtureDatabase> {
  const tdb = await createTestDatabase();
  for (const statement of FIXTURE_DDL) await tdb.db.query(statement);
  return {
    ...tdb,
    analyzes: (text) =>
      tdb.db.transaction(async (tx) => {
        await tx.query(`prepare svc_printed as ${text}`);
        await tx.query('deallocate svc_printed');
      }),
  };
}
