import { sql, type Generated } from 'kysely';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../testing';
import { describeUrl, openDatabase } from './index';

// These run on whichever engine SVC_TEST_DB names; .ci/run runs the suite once per engine.
describe(`database layer on ${testDatabaseKind()}`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await t.db.query(
      'create table item (id serial primary key, name text not null unique, n int8)',
    );
  });
  afterAll(() => t.dispose());

  test('reports which engine it is', () => {
    expect(t.db.kind).toBe(testDatabaseKind());
  });

  test('binds values as parameters, never into the text', async () => {
    const hostile = "x'); drop table item; --";
    const { rows } = await t.db.query<{ v: string }>('select $1::text as v', [hostile]);
    expect(rows).toEqual([{ v: hostile }]);
    await t.db.query('select count(*) from item');
  });

  test('counts affected rows and returns rows', async () => {
    const ins = await t.db.query('insert into item (name, n) values ($1, $2), ($3, $4)', [
      'a',
      1,
      'b',
      2,
    ]);
    expect(ins.rowCount).toBe(2);
    const sel = await t.db.query<{ name: string }>('select name from item order by name');
    expect(sel.rows.map((r) => r.name)).toEqual(['a', 'b']);
    expect(sel.rowCount).toBe(2);
  });

  test('int8 reads as a number when exact and as text beyond 2^53, on both engines', async () => {
    const { rows } = await t.db.query<{ small: unknown; big: unknown }>(
      "select 42::int8 as small, '9007199254740993'::int8 as big",
    );
    expect(rows[0]).toEqual({ small: 42, big: '9007199254740993' });
  });

  test('a transaction commits when its function resolves', async () => {
    await t.db.transaction(async (tx) => {
      await tx.query('insert into item (name) values ($1)', ['committed']);
    });
    const { rows } = await t.db.query('select 1 from item where name = $1', ['committed']);
    expect(rows).toHaveLength(1);
  });

  test('a transaction rolls back every statement when its function throws', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('insert into item (name) values ($1)', ['rolled-back']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await t.db.query('select 1 from item where name = $1', ['rolled-back']);
    expect(rows).toHaveLength(0);
  });

  test('a failing statement inside a transaction rolls the whole transaction back', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('insert into item (name) values ($1)', ['first-of-two']);
        await tx.query('insert into item (name) values ($1)', ['a']); // unique violation
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await t.db.query('select 1 from item where name = $1', ['first-of-two']);
    expect(rows).toHaveLength(0);
  });

  test('concurrent transactions do not interleave their statements', async () => {
    await t.db.query('create table counter (v int not null)');
    await t.db.query('insert into counter values (0)');
    const bump = () =>
      t.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ v: number }>('select v from counter for update');
        await new Promise((r) => setTimeout(r, 5));
        await tx.query('update counter set v = $1', [(rows[0]?.v ?? 0) + 1]);
      });
    await Promise.all(Array.from({ length: 8 }, bump));
    const { rows } = await t.db.query<{ v: number }>('select v from counter');
    expect(rows[0]?.v).toBe(8);
  });

  test('gives a Kysely instance that runs on the same database, in and out of transactions', async () => {
    const k = t.db.kysely<{ item: { id: Generated<number>; name: string; n: number | null } }>();
    await k.insertInto('item').values({ name: 'via-kysely' }).execute();
    const row = await k
      .selectFrom('item')
      .select('name')
      .where('name', '=', 'via-kysely')
      .executeTakeFirst();
    expect(row).toEqual({ name: 'via-kysely' });
    const count = await t.db.transaction(async (tx) => {
      const r = await sql<{ c: number }>`select count(*)::int as c from item`.execute(tx.kysely());
      return r.rows[0]?.c;
    });
    expect(count).toBeGreaterThan(0);
  });

  test('answers ping and reports pool figures', async () => {
    await t.db.ping();
    const stats = t.db.stats();
    expect(stats.total).toBeGreaterThanOrEqual(1);
    expect(stats.waiting).toBe(0);
  });
});

// Issue 33: a transaction-mode pooler without protocol-level prepared statements (PgBouncer
// before 1.21) needs every statement unnamed. One connection each, so the statement's connection
// is the one asked what it holds.
(testDatabaseKind() === 'postgres' ? describe : describe.skip)('preparedStatements', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());

  async function preparedAfterNamedQuery(preparedStatements?: boolean): Promise<string[]> {
    const { url } = t.config as { url: string };
    const db = await openDatabase({
      url,
      poolSize: 1,
      ...(preparedStatements === undefined ? {} : { preparedStatements }),
    });
    try {
      const { rows } = await db.query<{ n: number }>('select $1::int + 1 as n', [41], {
        name: 'svc_prepared_option_test',
      });
      expect(rows).toEqual([{ n: 42 }]);
      const held = await db.query<{ name: string }>('select name from pg_prepared_statements');
      return held.rows.map((r) => r.name);
    } finally {
      await db.close();
    }
  }

  test('on by default: a named statement is prepared on its connection', async () => {
    expect(await preparedAfterNamedQuery()).toContain('svc_prepared_option_test');
    expect(await preparedAfterNamedQuery(true)).toContain('svc_prepared_option_test');
  });

  test('false: the name is dropped and nothing is prepared, the values still bound', async () => {
    expect(await preparedAfterNamedQuery(false)).toEqual([]);
  });
});

describe('describeUrl', () => {
  test('never shows the password or query string', () => {
    const text = describeUrl(
      'postgres://app:s3cret@db.internal:5432/main?sslmode=require&password=x',
    );
    expect(text).toBe('PostgreSQL at postgres://app@db.internal:5432/main');
    expect(text).not.toContain('s3cret');
  });
});

describe(`closing on ${testDatabaseKind()}`, () => {
  // Regression: Kysely skipped destroying a driver it had never initialised, so a database
  // closed before its first query stayed open and kept answering.
  test('a closed database refuses queries and transactions, and close is idempotent', async () => {
    const t = await createTestDatabase();
    await t.db.close();
    await expect(t.db.query('select 1')).rejects.toThrow(/database is closed/);
    await expect(t.db.transaction(async () => 1)).rejects.toThrow(/database is closed/);
    await t.db.close();
    await t.dispose();
  });
});
