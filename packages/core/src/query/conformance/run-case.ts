/**
 * conformance/run-case: runs result cases against a fixture database.
 *
 * Input: a compiler, a fresh database, a fixture (SDL + EdgeQL setup script) and cases.
 * Output: per case, `null` (passed) or why it failed, naming the step's line.
 * Invariant: the fixture is migrated and set up once; each case runs in a transaction that is
 * rolled back, each step under a savepoint, so cases never see each other's writes and a failing
 * step does not poison the next one.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, Queryable } from '../../db/types';
import { buildSchema } from '../../schema/build';
import { createDefaultMigrator } from '../../schema/default';
import type { Schema } from '../../model/schema';
import { parseQuery, printQuery } from '../../syntax';
import type { CompileQuery } from '../api';
import type { Case, Expectation, Step } from './case-file';
import { compareResult } from './compare';
import { describeError, errorMatches, runQuery } from './run-query';

export interface Fixture {
  readonly name: string;
  readonly sdl: string;
  /** EdgeQL statements run once after migrating (may be empty). */
  readonly setup: string;
}

/** Reads `<dir>/<name>.esdl` and the optional `<dir>/<name>.setup.edgeql`. */
export function readFixture(dir: string, name: string): Fixture {
  const setupPath = join(dir, `${name}.setup.edgeql`);
  return {
    name,
    sdl: readFileSync(join(dir, `${name}.esdl`), 'utf8'),
    setup: existsSync(setupPath) ? readFileSync(setupPath, 'utf8') : '',
  };
}

/** The statements of an EdgeQL script, each printed back as one query text. */
export function splitScript(script: string): string[] {
  return parseQuery(script).map((statement) => printQuery(statement));
}

export interface PreparedFixture {
  readonly schema: Schema;
  readonly db: Database;
  readonly compile: CompileQuery;
}

/** Migrates the fixture's schema into `db` and runs its setup (committed). */
export async function prepareFixture(
  db: Database,
  fixture: Fixture,
  compile: CompileQuery,
): Promise<PreparedFixture> {
  const schema = buildSchema(fixture.sdl);
  await createDefaultMigrator().migrate(db, fixture.sdl);
  const statements = splitScript(fixture.setup);
  await db.transaction(async (tx) => {
    for (const [i, query] of statements.entries()) {
      try {
        await runQuery(compile, schema, tx, { query });
      } catch (error) {
        throw new Error(
          `fixture ${fixture.name}: setup statement ${i + 1} failed: ${describeError(error)}\n${query}`,
        );
      }
    }
  });
  return { schema, db, compile };
}

class Rollback extends Error {}

/** Runs one case; `null` when every step met its expectation. */
export async function runCase(fixture: PreparedFixture, testCase: Case): Promise<string | null> {
  let failure: string | null = null;
  try {
    await fixture.db.transaction(async (tx) => {
      for (const step of testCase.steps) {
        failure = await runStep(fixture, tx, step);
        if (failure) break;
      }
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return failure;
}

async function runStep(
  fixture: PreparedFixture,
  tx: Queryable,
  step: Step,
): Promise<string | null> {
  const at = `line ${step.line}`;
  if (step.kind === 'schema') {
    const outcome = await attempt(async () => {
      buildSchema(step.sdl);
      return [];
    });
    return check(outcome, step.expect, at);
  }
  await tx.query('savepoint conformance_step');
  const outcome = await attempt(() =>
    runQuery(fixture.compile, fixture.schema, tx, {
      query: step.text,
      ...(step.variables ? { variables: step.variables } : {}),
      ...(step.globals ? { globals: step.globals } : {}),
      ...(step.cardinality ? { cardinality: step.cardinality } : {}),
    }),
  );
  await tx.query(
    outcome.ok ? 'release savepoint conformance_step' : 'rollback to savepoint conformance_step',
  );
  return check(outcome, step.expect, at);
}

type Outcome = { ok: true; value: unknown[] } | { ok: false; error: unknown };

async function attempt(run: () => Promise<unknown[]>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

function check(outcome: Outcome, expect: Expectation, at: string): string | null {
  if (expect.kind === 'error') {
    if (outcome.ok)
      return `${at}: expected ${expect.className}, got a result: ${JSON.stringify(outcome.value)}`;
    if (!errorMatches(outcome.error, expect.className))
      return `${at}: expected ${expect.className}, got ${describeError(outcome.error)}`;
    const message = (outcome.error as Error)?.message ?? '';
    if (expect.message && !message.toLowerCase().includes(expect.message.toLowerCase()))
      return `${at}: expected a message containing "${expect.message}", got "${message}"`;
    return null;
  }
  if (!outcome.ok) return `${at}: ${describeError(outcome.error)}`;
  if (expect.kind === 'ok') return null;
  const difference = compareResult(outcome.value, expect.value, expect.order);
  return difference ? `${at}: ${difference}` : null;
}
