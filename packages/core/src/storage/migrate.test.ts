import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../testing';
import {
  ConstraintViolationError,
  DataLossError,
  InvalidDefinitionError,
  SchemaSyntaxError,
} from '../errors';
import { createMigrator, runBootstrap } from './migrate';
import { openDatabase } from '../db';
import { STORAGE_BOOTSTRAP_SQL } from '../schema/bootstrap';
import type { Schema } from '../model/schema';
import type { MigrationPlan } from '../model/migration';

/*
 * The runner is tested alone, with a toy "SDL": each word is a table (`name` ⇒ t_name with a
 * text column v); a trailing `!` makes v unique; `bad` plans a statement that fails.
 */
const toyBuild = (sdl: string): Schema => {
  if (sdl.includes('???'))
    throw new SchemaSyntaxError('Unexpected ???', { position: { line: 1, column: 1 } });
  const names = sdl.split(/\s+/).filter(Boolean).sort();
  return {
    modules: [],
    objectTypes: names.map((name) => ({ name })),
    scalarTypes: [],
    globals: [],
    functions: [],
    aliases: [],
    constraints: [],
    annotations: [],
  } as unknown as Schema;
};
const toyPlan = (from: Schema | null, to: Schema): MigrationPlan => {
  const before = new Set((from?.objectTypes ?? []).map((t) => t.name));
  const after = new Set(to.objectTypes.map((t) => t.name));
  const steps: MigrationPlan['steps'][number][] = [];
  const checks: MigrationPlan['checks'][number][] = [];
  for (const name of after) {
    if (before.has(name)) continue;
    const table = `t_${name.replace('!', '')}`;
    if (name.endsWith('!') && before.has(name.slice(0, -1))) {
      steps.push({
        kind: 'create constraint',
        subject: table,
        description: `exclusive ${table}.v`,
        sql: [`create unique index on ${table} (v)`],
      });
      checks.push({
        kind: 'violation',
        subject: table,
        message: `${table}.v has duplicates`,
        sql: `select v, count(*)::int as n from ${table} group by v having count(*) > 1`,
      });
      continue;
    }
    steps.push({
      kind: 'create type',
      subject: table,
      description: `create type ${name}`,
      sql:
        name === 'bad'
          ? ['create table t_bad (x nonexistent_type)']
          : [`create table ${table} (id int generated always as identity primary key, v text)`],
    });
  }
  for (const name of before) {
    if (
      after.has(name) ||
      after.has(`${name}!`) ||
      (name.endsWith('!') && after.has(name.slice(0, -1)))
    )
      continue;
    const table = `t_${name.replace('!', '')}`;
    steps.push({
      kind: 'drop type',
      subject: table,
      description: `drop type ${name}`,
      sql: [`drop table ${table}`],
    });
    checks.push({
      kind: 'data-loss',
      subject: table,
      message: `type ${name} holds rows`,
      sql: `select '${name}' as type, count(*)::int as rows from ${table} having count(*) > 0`,
    });
  }
  return { steps, checks };
};
const migrator = createMigrator({
  build: toyBuild,
  plan: toyPlan,
  bootstrapSql: ['create schema if not exists svc_meta'],
});

describe(`migration runner on ${testDatabaseKind()}`, () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(() => t.dispose());
  const tables = async () =>
    (
      await t.db.query<{ n: string }>(
        "select tablename as n from pg_tables where tablename like 't\\_%' order by 1",
      )
    ).rows.map((r) => r.n);

  test('applies a schema, records it, and reports it as current', async () => {
    expect(await migrator.current(t.db)).toBeNull();
    const result = await migrator.migrate(t.db, 'a b');
    expect(result).toMatchObject({
      applied: true,
      steps: [
        { kind: 'create type', subject: 't_a', description: 'create type a' },
        { subject: 't_b' },
      ],
    });
    expect(result.sql).toEqual([
      'create table t_a (id int generated always as identity primary key, v text)',
      'create table t_b (id int generated always as identity primary key, v text)',
    ]);
    expect(await tables()).toEqual(['t_a', 't_b']);
    expect(await migrator.current(t.db)).toMatchObject({ sdl: 'a b', version: result.version });
    expect(result.version).toMatch(/^[0-9a-f]{64}$/);
    expect(result.version).not.toBe(migrator.emptyVersion);
  });

  test('re-applying the same schema is a no-op with the same version', async () => {
    const first = await migrator.migrate(t.db, 'a');
    const again = await migrator.migrate(t.db, 'a');
    expect(again).toEqual({ version: first.version, applied: false, steps: [], sql: [] });
    expect(await migrator.history(t.db)).toHaveLength(1);
  });

  test('history lists every migration, newest first', async () => {
    await migrator.migrate(t.db, 'a');
    await migrator.migrate(t.db, 'a b');
    const h = await migrator.history(t.db);
    expect(h.map((r) => r.sdl)).toEqual(['a b', 'a']);
    expect(h[0]?.steps).toEqual([
      { kind: 'create type', subject: 't_b', description: 'create type b' },
    ]);
    expect(Date.parse(h[0]?.appliedAt ?? '')).not.toBeNaN();
  });

  test('a dry run reports the plan and changes nothing', async () => {
    const dry = await migrator.migrate(t.db, 'a', { dryRun: true });
    expect(dry).toMatchObject({ applied: false, steps: [{ subject: 't_a' }] });
    expect(dry.sql).toHaveLength(1);
    expect(await tables()).toEqual([]);
    expect(await migrator.current(t.db)).toBeNull();
  });

  test('a dry run of an empty schema on a new database leaves nothing, not even the metadata table', async () => {
    const dry = await migrator.migrate(t.db, '', { dryRun: true });
    expect(dry).toMatchObject({ applied: false, steps: [] });
    const { rows } = await t.db.query<{ found: string | null }>(
      "select to_regclass('svc_meta.migrations')::text as found",
    );
    expect(rows[0]?.found).toBeNull();
  });

  test('a failing statement rolls the whole migration back', async () => {
    // A statement the database refuses is a schema error naming the step, never an internal one.
    const err = await migrator.migrate(t.db, 'a bad').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidDefinitionError);
    expect(err).toMatchObject({
      type: 'InvalidDefinitionError',
      status: 400,
      message: expect.stringMatching(/step 'create type bad'.*nonexistent_type/),
    });
    expect(await tables()).toEqual([]);
    expect(await migrator.history(t.db)).toEqual([]);
  });

  test('a schema error surfaces before the database is touched', async () => {
    await expect(migrator.migrate(t.db, '???')).rejects.toBeInstanceOf(SchemaSyntaxError);
    expect(await migrator.history(t.db)).toEqual([]);
  });

  test('dropping a type that holds rows refuses, listing what would be lost, unless allowed', async () => {
    await migrator.migrate(t.db, 'a b');
    await t.db.query("insert into t_a (v) values ('x'), ('y')");
    const err = await migrator.migrate(t.db, 'b').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataLossError);
    expect((err as Error).message).toContain('type a holds rows');
    expect((err as Error).message).toContain('{"type":"a","rows":2}');
    expect((err as InstanceType<typeof DataLossError>).hint).toBe(
      'to drop it, migrate with `svc migrate --allow-data-loss` (`allowDataLoss: true` in POST /migrations); if it was renamed, say so to keep it (`--rename`, `renames`)',
    );
    expect(await tables()).toEqual(['t_a', 't_b']);
    const allowed = await migrator.migrate(t.db, 'b', { allowDataLoss: true });
    expect(allowed.applied).toBe(true);
    expect(await tables()).toEqual(['t_b']);
  });

  test('dropping an empty type needs no permission', async () => {
    await migrator.migrate(t.db, 'a b');
    expect((await migrator.migrate(t.db, 'b')).applied).toBe(true);
  });

  test('rows violating a new constraint refuse the migration, allowDataLoss or not (item 37)', async () => {
    await migrator.migrate(t.db, 'a');
    await t.db.query("insert into t_a (v) values ('dup'), ('dup'), ('one')");
    for (const allowDataLoss of [false, true]) {
      const err = await migrator.migrate(t.db, 'a!', { allowDataLoss }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConstraintViolationError);
      expect((err as Error).message).toContain('t_a.v has duplicates');
      expect((err as Error).message).toContain('{"v":"dup","n":2}');
      expect((err as Error).message).toContain('query: select v, count(*)::int as n from t_a');
    }
    expect(await migrator.history(t.db)).toHaveLength(1);
    await t.db.query("delete from t_a where v = 'dup'");
    expect((await migrator.migrate(t.db, 'a!')).applied).toBe(true);
  });

  test('concurrent migrations are serialised: one applies, the other finds nothing to do', async () => {
    const results = await Promise.all([
      migrator.migrate(t.db, 'a b c'),
      migrator.migrate(t.db, 'a b c'),
    ]);
    expect(results.map((r) => r.applied).sort()).toEqual([false, true]);
    expect(await migrator.history(t.db)).toHaveLength(1);
  });

  test('processes starting at once on an empty database: the lock row is made once, one migrates', async () => {
    // On PostgreSQL each starter has its own pool (its own sessions); they race to make
    // svc_meta.locks, and the losers start their transaction again (storage/lock).
    const dbs =
      testDatabaseKind() === 'postgres'
        ? await Promise.all(
            Array.from({ length: 4 }, () =>
              openDatabase({ url: (t.config as { url: string }).url, poolSize: 1 }),
            ),
          )
        : Array.from({ length: 4 }, () => t.db);
    try {
      const results = await Promise.all(dbs.map((db) => migrator.migrate(db, 'a b')));
      expect(results.map((r) => r.applied).sort()).toEqual([false, false, false, true]);
    } finally {
      if (testDatabaseKind() === 'postgres') await Promise.all(dbs.map((db) => db.close()));
    }
    expect(await migrator.history(t.db)).toHaveLength(1);
    const { rows } = await t.db.query<{ name: string }>('select name from svc_meta.locks');
    expect(rows).toEqual([{ name: 'svc_meta' }]);
    const { rows: advisory } = await t.db.query<{ n: number }>(
      "select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
    );
    expect(advisory[0]?.n).toBe(0);
  });

  test('the bootstrap makes a svc_meta type only when pg_type lacks it, with no DO block', async () => {
    const sent: string[] = [];
    const statements = [
      'create schema if not exists svc_meta',
      { unlessType: 'toy_domain', sql: 'create domain svc_meta.toy_domain as text' },
    ];
    const exec = async (sql: string) => {
      sent.push(sql);
      await t.db.query(sql);
    };
    await runBootstrap(t.db, statements, exec);
    await runBootstrap(t.db, statements, exec);
    expect(sent).toEqual([
      'create schema if not exists svc_meta',
      'create domain svc_meta.toy_domain as text',
      'create schema if not exists svc_meta',
    ]);
    const { rows } = await t.db.query<{ n: number }>(
      "select count(*)::int as n from pg_type where typname = 'toy_domain'",
    );
    expect(rows[0]?.n).toBe(1);
    // svc's own bootstrap sends no DO block (docs/scaling.md, "Cheap wins").
    const texts = STORAGE_BOOTSTRAP_SQL.map((s) => (typeof s === 'string' ? s : s.sql));
    expect(texts.filter((s) => /^\s*do\s/i.test(s))).toEqual([]);
  });
});
