/**
 * Issue 4, "Done when": each golden schema migrates on a real database (PGlite, or PostgreSQL
 * with SVC_TEST_DB=postgres) through the migration runner; then, with rows in every table, its
 * edited version (`<name>.v2.esdl`) migrates forward and no row is lost; re-applying is a no-op.
 *
 * Rows are made generically from the catalog: one per table, required columns filled with a
 * value of their type (enum domains get their first value; links point at seeded rows). A table
 * whose constraints refuse every candidate is reported and skipped, and most must be seeded.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../src/db';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../src/testing';
import { ConstraintViolationError, DataLossError } from '../src/errors';
import { createDefaultMigrator } from '../src/schema';

const SCHEMAS = join(__dirname, 'schemas');
const names = readdirSync(SCHEMAS)
  .filter((f) => f.endsWith('.v2.esdl'))
  .map((f) => f.slice(0, -'.v2.esdl'.length))
  .sort();
const read = (file: string) => readFileSync(join(SCHEMAS, file), 'utf8');
const migrator = createDefaultMigrator();

interface Column {
  name: string;
  notnull: boolean;
  hasDefault: boolean;
  base: string;
  isArray: boolean;
  typoid: number;
  /** The column's own type name (a domain's name for domain columns). */
  typname: string;
}
interface Table {
  key: string;
  schema: string;
  table: string;
  columns: Column[];
  fks: Map<string, string>; // column → referenced table key
}
const q = (id: string) => `"${id.replace(/"/g, '""')}"`;

async function userTables(db: Database): Promise<Table[]> {
  const { rows } = await db.query<{
    schema: string;
    table: string;
    column: string;
    notnull: boolean;
    def: string | null;
    identity: string;
    base: string;
    typoid: number;
    category: string;
    typname: string;
  }>(`
    select n.nspname as schema, cl.relname as table, a.attname as column, a.attnotnull as notnull,
           pg_get_expr(d.adbin, d.adrelid) as def, a.attidentity as identity,
           coalesce(bt.typname, t.typname) as base, t.oid::int as typoid, t.typcategory as category, t.typname as typname
    from pg_attribute a
    join pg_class cl on cl.oid = a.attrelid
    join pg_namespace n on n.oid = cl.relnamespace
    join pg_type t on t.oid = a.atttypid
    left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where cl.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      and n.nspname not in ('pg_catalog', 'information_schema', 'svc_meta', 'public') and n.nspname not like 'pg\\_%'
    order by n.nspname, cl.relname, a.attnum`);
  const { rows: fks } = await db.query<{
    schema: string;
    table: string;
    column: string;
    fschema: string;
    ftable: string;
  }>(`
    select n.nspname as schema, cl.relname as table, a.attname as column, fn.nspname as fschema, fcl.relname as ftable
    from pg_constraint co
    join pg_class cl on cl.oid = co.conrelid join pg_namespace n on n.oid = cl.relnamespace
    join pg_class fcl on fcl.oid = co.confrelid join pg_namespace fn on fn.oid = fcl.relnamespace
    join pg_attribute a on a.attrelid = co.conrelid and a.attnum = co.conkey[1]
    where co.contype = 'f'`);
  const tables = new Map<string, Table>();
  for (const r of rows) {
    const key = `${r.schema}.${r.table}`;
    let t = tables.get(key);
    if (!t) {
      t = { key, schema: r.schema, table: r.table, columns: [], fks: new Map() };
      tables.set(key, t);
    }
    t.columns.push({
      name: r.column,
      notnull: r.notnull,
      hasDefault: r.def !== null || r.identity !== '',
      base: r.base.replace(/^_/, ''),
      isArray: r.category === 'A' || r.base.startsWith('_'),
      typoid: r.typoid,
      typname: r.typname,
    });
  }
  for (const f of fks)
    tables.get(`${f.schema}.${f.table}`)?.fks.set(f.column, `${f.fschema}.${f.ftable}`);
  return [...tables.values()];
}

async function enumValues(db: Database, typoid: number): Promise<string[]> {
  const { rows } = await db.query<{ def: string }>(
    'select pg_get_constraintdef(oid) as def from pg_constraint where contypid = $1',
    [typoid],
  );
  // Only an enum's check lists its values; other checks (a regexp) hold literals that are not values.
  return rows
    .filter((r) => /VALUE = ANY \(ARRAY\[/.test(r.def))
    .flatMap((r) =>
      [...r.def.matchAll(/'((?:[^']|'')*)'::text/g)].map((m) =>
        (m[1] as string).replace(/''/g, "'"),
      ),
    );
}

function candidates(base: string, round: number): unknown {
  const pick = <T>(xs: T[]) => (round < xs.length ? xs[round] : undefined);
  switch (base) {
    case 'text':
    case 'varchar':
      return pick([
        'Seed',
        'seed@example.com',
        'SEED',
        'hello-world',
        'ada_lovelace',
        'ABC',
        '+44 123456',
        'ab',
      ]);
    case 'int2':
    case 'int4':
    case 'int8':
    case 'numeric':
    case 'bigint':
      return pick([1, 10, 0, 100, 3]);
    case 'float4':
    case 'float8':
      return pick([1.5, 10, 0, 100, 3]);
    case 'bool':
      return pick([false, true]);
    case 'uuid':
      return randomUUID();
    case 'timestamptz':
    case 'timestamp':
      return pick(['2024-05-01T12:00:00Z', '2030-01-01T00:00:00Z']);
    case 'date':
      return pick(['2024-05-01', '2030-01-01']);
    case 'time':
      return '12:00:00';
    case 'interval':
      return pick(['1 hour', '1 day']);
    case 'jsonb':
    case 'json':
      return '{}';
    case 'bytea':
      return Buffer.from('seed');
    default:
      return undefined;
  }
}

/** Seeds one row per table it can; returns the seeded tables and those it could not seed. */
async function seed(db: Database): Promise<{ seeded: string[]; skipped: string[] }> {
  const tables = await userTables(db);
  const done = new Map<string, string>(); // table key → an id of a seeded row
  const skipped: string[] = [];
  for (let pass = 0; pass < tables.length + 1; pass++) {
    let progress = false;
    for (const t of tables) {
      if (done.has(t.key) || skipped.includes(t.key)) continue;
      const required = t.columns.filter((c) => c.notnull && !c.hasDefault);
      if (required.some((c) => t.fks.has(c.name) && !done.has(t.fks.get(c.name) as string)))
        continue; // wait for targets
      // Coordinate search: each required column has a candidate index; when a row is refused,
      // the column whose constraint or domain refused it moves to its next candidate.
      const index = required.map(() => 0);
      let inserted = false;
      for (let attempt = 0; attempt < 40 && !inserted; attempt++) {
        const cols: string[] = [];
        const values: unknown[] = [];
        let possible = true;
        for (const [j, c] of required.entries()) {
          let v: unknown;
          const target = t.fks.get(c.name);
          if (target) v = done.get(target);
          else if (c.isArray) v = '{}';
          else {
            const enums = c.base === 'text' ? await enumValues(db, c.typoid) : [];
            v = enums.length ? enums[index[j] as number] : candidates(c.base, index[j] as number);
          }
          if (v === undefined) possible = false;
          cols.push(q(c.name));
          values.push(v);
        }
        if (!possible) break;
        const hasId = t.columns.some((c) => c.name === 'id');
        const sql = cols.length
          ? `insert into ${q(t.schema)}.${q(t.table)} (${cols.join(', ')}) values (${values.map((_, i) => `$${i + 1}`).join(', ')})${hasId ? ' returning id' : ''}`
          : `insert into ${q(t.schema)}.${q(t.table)} default values${hasId ? ' returning id' : ''}`;
        try {
          const { rows } = await db.query<{ id?: string }>(sql, values);
          done.set(t.key, rows[0]?.id ?? '');
          inserted = true;
          progress = true;
        } catch (err) {
          const message = (err as Error).message;
          if (process.env.DEBUG_SEED) console.log(t.key, index.join(','), message);
          const domain = /for domain "[^"]+"\."([^"]+)"/.exec(message)?.[1];
          const constraint = /constraint "([^"]+)"/.exec(message)?.[1] ?? '';
          const culprit = required.findIndex((c) =>
            domain ? c.typname === domain : constraint.includes(`.${c.name}.`),
          );
          if (culprit < 0) break;
          index[culprit] = (index[culprit] as number) + 1;
        }
      }
      if (!inserted && !done.has(t.key)) {
        skipped.push(t.key);
        progress = true;
      }
    }
    if (!progress) break;
  }
  for (const t of tables) if (!done.has(t.key) && !skipped.includes(t.key)) skipped.push(t.key);
  if (process.env.DEBUG_SEED)
    console.log(
      `seeded ${done.size} of ${tables.length}; skipped: ${skipped.join(', ') || 'none'}`,
    );
  return { seeded: [...done.keys()], skipped };
}

async function count(db: Database, key: string): Promise<number | null> {
  const [schema, ...rest] = key.split('.');
  const { rows } = await db.query<{ found: string | null }>(
    'select to_regclass($1)::text as found',
    [`${q(schema as string)}.${q(rest.join('.'))}`],
  );
  if (!rows[0]?.found) return null;
  const r = await db.query<{ n: number }>(
    `select count(*)::int as n from ${q(schema as string)}.${q(rest.join('.'))}`,
  );
  return r.rows[0]?.n ?? 0;
}

async function reset(db: Database) {
  const { rows } = await db.query<{ n: string }>(
    "select nspname as n from pg_namespace where nspname not in ('pg_catalog', 'information_schema', 'public') and nspname not like 'pg\\_%'",
  );
  for (const r of rows) await db.query(`drop schema ${q(r.n)} cascade`);
}

describe(`golden schemas migrate with rows in place on ${testDatabaseKind()}`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());
  beforeEach(() => reset(t.db));

  test.each(names)('%s: v1, rows, v2 keeps every row; v2 again is a no-op', async (name) => {
    const v1 = await migrator.migrate(t.db, read(`${name}.esdl`));
    expect(v1.applied).toBe(true);
    const { seeded, skipped } = await seed(t.db);
    expect(seeded.length).toBeGreaterThan(0);
    expect(seeded.length).toBeGreaterThanOrEqual(skipped.length);
    const before = new Map<string, number | null>();
    for (const key of seeded) before.set(key, await count(t.db, key));

    const v2 = await migrator.migrate(t.db, read(`${name}.v2.esdl`));
    expect(v2.applied).toBe(true);
    for (const [key, n] of before) {
      const after = await count(t.db, key);
      // A table may only vanish when v2 drops its type; then no row of it was "kept".
      if (after !== null) expect({ key, rows: after }).toEqual({ key, rows: n });
    }
    const again = await migrator.migrate(t.db, read(`${name}.v2.esdl`));
    expect(again).toMatchObject({ applied: false, steps: [] });
  });

  test('blog: dropping a column that holds data refuses, naming it, until allowed; no row is lost', async () => {
    await migrator.migrate(t.db, read('blog.esdl'));
    await t.db.query(
      `insert into "default"."Author" (email, display_name, website) values ('ada@example.com', 'Ada', 'https://ada.example')`,
    );
    const err = await migrator.migrate(t.db, read('blog.v2.esdl')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataLossError);
    expect((err as Error).message).toContain('website');
    expect(await count(t.db, 'default.Author')).toBe(1);
    const allowed = await migrator.migrate(t.db, read('blog.v2.esdl'), { allowDataLoss: true });
    expect(allowed.applied).toBe(true);
    expect(await count(t.db, 'default.Author')).toBe(1);
  });

  test('shop: duplicate (sku, vendor) rows make v2 refuse before changing anything (item 37)', async () => {
    await migrator.migrate(t.db, read('shop.esdl'));
    const vendor = await t.db.query<{ id: string }>(
      `insert into "default"."Vendor" (name) values ('Acme') returning id`,
    );
    for (let i = 0; i < 2; i++) {
      await t.db.query(
        `insert into "default"."Product" (sku, name, price, vendor) values ('SKU-1', $1, 10, $2)`,
        [`P${i}`, vendor.rows[0]?.id],
      );
    }
    const err = await migrator.migrate(t.db, read('shop.v2.esdl')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConstraintViolationError);
    expect((err as Error).message).toContain('SKU-1');
    const stock = await t.db.query<{ type: string }>(
      "select data_type as type from information_schema.columns where table_schema = 'default' and table_name = 'Product' and column_name = 'stock'",
    );
    expect(stock.rows[0]?.type).toBe('integer'); // v2 widens it to int64: not applied
    expect(await migrator.history(t.db)).toHaveLength(1);
  });
});
