/**
 * Golden tests: SDL in (test/schemas/<name>.esdl), SQL DDL out (test/golden/<name>.sql), checked
 * in and compared byte for byte; `<name>.v2.esdl` is an edit and `<name>.v2.sql` the plan from
 * v1 to v2 (with its data checks). `UPDATE_GOLDEN=1` rewrites the files.
 *
 * Every plan also runs on a real database (PGlite, or PostgreSQL with SVC_TEST_DB=postgres):
 * bootstrap, v1 from empty, then v1 → v2, then the plan back to empty, each in a transaction —
 * and applying v1 then v2 must leave the same tables, columns, constraints and indexes as
 * applying v2 from empty.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { buildSchema } from '../src/schema/build';
import { planMigration } from '../src/schema/diff';
import type { MigrationPlan, Schema } from '../src/schema';
import { runBootstrap } from '../src/storage/migrate';
import { STORAGE_BOOTSTRAP_SQL } from '../src/schema/bootstrap';

const SCHEMAS = join(__dirname, 'schemas');
const GOLDEN = join(__dirname, 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const names = readdirSync(SCHEMAS)
  .filter((f) => f.endsWith('.esdl') && !f.endsWith('.v2.esdl'))
  .map((f) => f.slice(0, -'.esdl'.length))
  .sort();

const EMPTY: Schema = {
  modules: [],
  objectTypes: [],
  scalarTypes: [],
  globals: [],
  functions: [],
  aliases: [],
  constraints: [],
  annotations: [],
};

export function renderPlan(plan: MigrationPlan): string {
  const out: string[] = [];
  for (const step of plan.steps) {
    out.push(`-- step: ${step.description}`);
    for (const s of step.sql) out.push(`${s};`);
    out.push('');
  }
  for (const check of plan.checks) {
    out.push(`-- check (${check.kind}) ${check.subject}: ${check.message}`);
    out.push(`${check.sql};`);
    out.push('');
  }
  return out.join('\n');
}

function load(file: string): Schema {
  return buildSchema(readFileSync(join(SCHEMAS, file), 'utf8'));
}

function compareGolden(file: string, text: string): void {
  const path = join(GOLDEN, file);
  if (UPDATE || !existsSync(path)) {
    writeFileSync(path, text);
    return;
  }
  expect(text).toBe(readFileSync(path, 'utf8'));
}

describe('golden: SDL → DDL', () => {
  it('has a dozen schemas, each with a v2', () => {
    expect(names.length).toBeGreaterThanOrEqual(12);
    for (const n of names) expect(existsSync(join(SCHEMAS, `${n}.v2.esdl`))).toBe(true);
  });

  for (const name of names) {
    it(`${name}: plan from empty`, () => {
      const plan = planMigration(null, load(`${name}.esdl`));
      expect(plan.checks).toEqual([]);
      compareGolden(`${name}.sql`, renderPlan(plan));
    });
    it(`${name}: plan v1 → v2`, () => {
      compareGolden(
        `${name}.v2.sql`,
        renderPlan(planMigration(load(`${name}.esdl`), load(`${name}.v2.esdl`))),
      );
    });
    it(`${name}: re-planning the same schema is empty`, () => {
      const s = load(`${name}.esdl`);
      expect(planMigration(s, s)).toEqual({ steps: [], checks: [] });
      const v2 = load(`${name}.v2.esdl`);
      expect(planMigration(v2, v2)).toEqual({ steps: [], checks: [] });
    });
  }
});

describe('golden: the SQL runs on a real database', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
    await runBootstrap(test.db, STORAGE_BOOTSTRAP_SQL);
    // Idempotent: running it twice is fine.
    await runBootstrap(test.db, STORAGE_BOOTSTRAP_SQL);
  }, 60_000);
  afterAll(async () => {
    await test?.dispose();
  });
  // A failed case must not leave objects behind for the next one.
  afterEach(async () => {
    const { rows } = await test.db.query<{ n: string }>(
      `select nspname as n from pg_namespace where nspname not in ('pg_catalog', 'information_schema', 'svc_meta', 'public', 'pg_toast') and nspname not like 'pg\\_%'`,
    );
    for (const r of rows) await test.db.query(`drop schema "${r.n.replace(/"/g, '""')}" cascade`);
  });

  async function apply(plan: MigrationPlan, allowDataLoss = false): Promise<void> {
    await test.db.transaction(async (tx) => {
      for (const check of plan.checks) {
        const { rows } = await tx.query(check.sql);
        if (check.kind === 'data-loss' && allowDataLoss) continue;
        if (rows.length > 0)
          throw new Error(`check failed: ${check.message}: ${JSON.stringify(rows)}`);
      }
      for (const step of plan.steps) {
        for (const s of step.sql) {
          try {
            await tx.query(s);
          } catch (error) {
            throw new Error(`${step.description}\n${s}\n${(error as Error).message}`);
          }
        }
      }
    });
  }

  /** Tables, columns, constraints and indexes of the user schemas, as sorted text. */
  async function snapshot(): Promise<string> {
    const user = `not in ('pg_catalog', 'information_schema', 'svc_meta', 'public', 'pg_toast')`;
    const cols = await test.db.query<{ t: string }>(
      `select table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(domain_name, '') || ' ' || is_nullable || ' ' || coalesce(column_default, '') as t from information_schema.columns where table_schema ${user}`,
    );
    const cons = await test.db.query<{ t: string }>(
      `select n.nspname || '.' || c.conname || ' ' || pg_get_constraintdef(c.oid) as t from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname ${user}`,
    );
    const idx = await test.db.query<{ t: string }>(
      `select schemaname || ' ' || indexdef as t from pg_indexes where schemaname ${user}`,
    );
    const views = await test.db.query<{ t: string }>(
      `select schemaname || '.' || viewname as t from pg_views where schemaname ${user}`,
    );
    return [...cols.rows, ...cons.rows, ...idx.rows, ...views.rows]
      .map((r) => r.t)
      .sort()
      .join('\n');
  }

  for (const name of names) {
    it(`${name}: v1, v1 → v2 and v2 → empty apply; v1 then v2 equals v2 from empty`, async () => {
      const v1 = load(`${name}.esdl`);
      const v2 = load(`${name}.v2.esdl`);
      await apply(planMigration(null, v1));
      const v1to2 = planMigration(v1, v2);
      await apply(v1to2, true);
      const stepwise = await snapshot();
      await apply(planMigration(v2, EMPTY), true);
      expect(await snapshot()).toBe('');
      await apply(planMigration(null, v2));
      expect(await snapshot()).toBe(stepwise);
      await apply(planMigration(v2, EMPTY), true);
    });
  }
});
