/**
 * gel-replay: replays Gel's own EdgeQL tests (extracted by extract.py) through svc and prints
 * pass rates per file and per bucket, and the failures grouped by error class (README.md).
 *
 * Input: the extractor's JSON; a backend: svc's real `compileQuery` + a database (PGlite in
 * memory by default, `--url` a PostgreSQL server where a database per test class is created and
 * dropped), or `--server URL`, a running svc whose `/migrations` and `/query` are used.
 * Per test class: a fresh database, the class's schema migrated, its setup run; per test method:
 * its steps in order, in a transaction rolled back afterwards (local backends), each step bound
 * by `--timeout` (statement_timeout in the database, and a wall-clock bound).
 * A method passes when every step meets Gel's expectation (gel-shape.ts: Gel's comparison plus
 * the documented normalisation); an expected error passes when svc raises that class (or a
 * subclass, or its SQLSTATE); whether the message also matches Gel's regex is counted apart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUCKETS, BUCKET_GOALS, bucketFiles, bucketOf, type Bucket } from './buckets';
import { applyImplicitLimit, assertShape, sortResults, type Sort } from './gel-shape';
import { applyDdl, DdlNotTranslated, isDdl } from './ddl';
import { LiveDriver } from './live';
import { classScript, splitStatements, stripDefaultAt, withModule } from './script';

// svc's core, built (`pnpm --filter @svc/core build`): loaded from its dist at run time, so this
// tool stays outside the packages' build and CI.
const CORE_DIST = resolve(__dirname, '../../../packages/core/dist');
const core = require(CORE_DIST) as typeof import('../../../packages/core/dist');
const testing = require(
  join(CORE_DIST, 'testing'),
) as typeof import('../../../packages/core/dist/testing');
const harness = require(
  join(CORE_DIST, 'query/conformance/run-query'),
) as typeof import('../../../packages/core/dist/query/conformance/run-query');
type CompileQuery = import('../../../packages/core/dist/query/api').CompileQuery;
type Schema = import('../../../packages/core/dist').Schema;
type Database = import('../../../packages/core/dist').Database;
type Queryable = import('../../../packages/core/dist').Queryable;

interface Expect {
  kind: 'ok' | 'result' | 'error';
  value?: unknown;
  className?: string;
  regex?: string | null;
}
interface GelStep {
  query: string;
  expect: Expect;
  sort?: Sort;
  implicitLimit?: number;
  variables?: Record<string, unknown>;
}
interface GelTest {
  name: string;
  line: number;
  complete: boolean;
  reason?: string;
  gelSkip?: string;
  steps?: GelStep[];
}
interface GelClass {
  name: string;
  schema: Record<string, { text: string }>;
  setup: { text: string }[];
  setupError?: string;
  tests: GelTest[];
}
interface Extracted {
  gel: string;
  files: { file: string; classes: GelClass[] }[];
}

interface Options {
  cases: string;
  url?: string;
  server?: string;
  files?: string[];
  all: boolean;
  /** Only the files of this issue's buckets (both issues' when absent). */
  issue?: 10 | 11;
  test?: RegExp;
  timeoutMs: number;
  report?: string;
  failures: number;
  /** Only build and migrate each class's schema (no compiler needed). */
  schemasOnly: boolean;
  /** Run the methods extract.py cannot follow as Python (live.py); `--no-live` counts them as
   * "not extracted" instead. Local modes only. */
  live: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = {
    cases: '',
    all: false,
    timeoutMs: 5000,
    failures: 5,
    schemasOnly: false,
    live: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--cases') options.cases = next();
    else if (arg === '--url') options.url = next();
    else if (arg === '--server') options.server = next().replace(/\/$/, '');
    else if (arg === '--file') options.files = [...(options.files ?? []), next()];
    else if (arg === '--all') options.all = true;
    else if (arg === '--issue') {
      const issue = Number(next());
      if (issue !== 10 && issue !== 11) throw new Error('--issue takes 10 or 11');
      options.issue = issue;
    } else if (arg === '--schemas-only') options.schemasOnly = true;
    else if (arg === '--no-live') options.live = false;
    else if (arg === '--test') options.test = new RegExp(next());
    else if (arg === '--timeout') options.timeoutMs = Number(next());
    else if (arg === '--report') options.report = next();
    else if (arg === '--examples') options.failures = Number(next());
    else throw new Error(`unknown argument ${arg} (see tools/gel-replay/README.md)`);
  }
  if (!options.cases)
    throw new Error('--cases <extracted.json> is required (run extract.py first)');
  return options;
}

/** What runs one class: a fresh database (or a server) with the class's schema and setup. */
interface ClassSession {
  /** Runs `body` in a transaction rolled back afterwards (`null`: no transaction, a server). */
  run(body: (db: Queryable | null) => Promise<void>): Promise<void>;
  runStep(db: Queryable | null, step: GelStep): Promise<unknown[]>;
  /** Applies a DDL statement of the test body (as the SDL it leaves, ddl.ts) in `db`'s
   * transaction; the schema reverts when the test's transaction is rolled back. */
  runDdl(db: Queryable | null, statement: string): Promise<void>;
  /** The result type svc's compiler gives a statement, printed (null: not known, a server). */
  resultType(statement: string): string | null;
  /** The schema state, to put back when a step's savepoint is rolled back. */
  mark(): unknown;
  restore(mark: unknown): void;
  dispose(): Promise<void>;
}

class Timeout extends Error {
  constructor(ms: number) {
    super(`step took longer than ${ms} ms`);
    this.name = 'Timeout';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Timeout(ms)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function loadCompiler(): CompileQuery {
  try {
    return (require(join(CORE_DIST, 'query/compile')) as { compileQuery: CompileQuery })
      .compileQuery;
  } catch (error) {
    throw new Error(
      `svc's compiler is not built (${(error as Error).message}); build @svc/core with query/compile first`,
    );
  }
}

async function localSession(
  options: Options,
  compile: CompileQuery,
  sdl: string,
  statements: readonly string[],
): Promise<ClassSession> {
  const env = options.url
    ? { SVC_TEST_DB: 'postgres', SVC_TEST_DATABASE_URL: options.url }
    : { SVC_TEST_DB: 'pglite' };
  const tdb = await testing.createTestDatabase(env);
  const db: Database = tdb.db;
  try {
    const baseSchema: Schema = core.buildSchema(sdl);
    let schema = baseSchema;
    let currentSdl = sdl;
    await core.createDefaultMigrator().migrate(db, sdl);
    await db.transaction(async (tx) => {
      for (const query of statements) {
        try {
          await harness.runQuery(compile, schema, tx, { query });
        } catch (error) {
          throw new SetupError(`setup: ${harness.describeError(error)} in: ${query.slice(0, 120)}`);
        }
      }
    });
    const runStep = async (tx: Queryable | null, step: GelStep) => {
      const queryable = tx as Queryable;
      await queryable.query(
        `set local statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`,
      );
      return withTimeout(
        harness.runQuery(compile, schema, queryable, {
          query: step.query,
          ...(step.variables ? { variables: plainVariables(step.variables) } : {}),
        }),
        options.timeoutMs,
      );
    };
    const runDdl = async (tx: Queryable | null, statement: string) => {
      const next = applyDdl(currentSdl, statement);
      const nextSchema: Schema = core.buildSchema(next);
      // The migrator opens its own transaction: inside the test's, that is the test's own.
      const inTest = {
        ...db,
        query: (tx as Queryable).query.bind(tx),
        transaction: <T>(fn: (t: Queryable) => Promise<T>) => fn(tx as Queryable),
      } as unknown as Database;
      await core.createDefaultMigrator().migrate(inTest, next, { allowDataLoss: true });
      currentSdl = next;
      schema = nextSchema;
    };
    return {
      runStep,
      runDdl,
      resultType: (statement) => {
        try {
          return compile(schema, statement).resultType;
        } catch {
          return null;
        }
      },
      mark: () => [currentSdl, schema],
      restore(mark) {
        [currentSdl, schema] = mark as [string, Schema];
      },
      async run(body) {
        await db
          .transaction(async (tx) => {
            await body(tx);
            throw new RollbackSignal();
          })
          .catch((error: unknown) => {
            if (!(error instanceof RollbackSignal)) throw error;
          })
          .finally(() => {
            currentSdl = sdl;
            schema = baseSchema;
          });
      },
      dispose: () => tdb.dispose(),
    };
  } catch (error) {
    await tdb.dispose();
    throw error instanceof SetupError
      ? error
      : new SetupError(`schema: ${harness.describeError(error)}`);
  }
}

async function serverSession(
  options: Options,
  sdl: string,
  statements: readonly string[],
): Promise<ClassSession> {
  const base = options.server as string;
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const response = await withTimeout(
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      options.timeoutMs,
    );
    const json = (await response.json()) as {
      data?: unknown;
      type?: string;
      error?: string;
      extensions?: { sqlState?: string };
    };
    if (!response.ok) {
      const error = new Error(json.error ?? `HTTP ${response.status}`) as Error & {
        type?: string;
        sqlState?: string;
      };
      error.type = json.type ?? 'HTTP';
      if (json.extensions?.sqlState) error.sqlState = json.extensions.sqlState;
      throw error;
    }
    return json;
  };
  try {
    await post('/migrations', { schema: sdl });
  } catch (error) {
    throw new SetupError(`schema: ${harness.describeError(error)}`);
  }
  for (const query of statements) {
    try {
      await post('/query', { query });
    } catch (error) {
      throw new SetupError(`setup: ${harness.describeError(error)} in: ${query.slice(0, 120)}`);
    }
  }
  const runStep = async (_db: Queryable | null, step: GelStep) =>
    (
      (await post('/query', {
        query: step.query,
        variables: plainVariables(step.variables ?? {}),
      })) as {
        data: unknown[];
      }
    ).data;
  return {
    runStep,
    runDdl: async (_db, statement) => {
      throw new DdlNotTranslated(
        `DDL in a test body is replayed only locally: ${statement.slice(0, 60)}`,
      );
    },
    resultType: () => null,
    mark: () => null,
    restore: () => {},
    // A server gives no transaction to roll back: a class's tests see each other's writes.
    run: (body) => body(null),
    dispose: async () => {},
  };
}

/** Extracted variables are tagged like expectations (expectations.py): a float is
 * `{"$float": x}`; the query takes the number itself. */
function plainVariables(value: unknown): Record<string, unknown> {
  const plain = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(plain);
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (Object.keys(o).length === 1 && typeof o.$float === 'number') return o.$float;
      return Object.fromEntries(Object.entries(o).map(([k, e]) => [k, plain(e)]));
    }
    return v;
  };
  return plain(value) as Record<string, unknown>;
}

class SetupError extends Error {}
class RollbackSignal extends Error {}

interface Outcome {
  file: string;
  bucket: Bucket;
  test: string;
  status: 'pass' | 'fail' | 'not extracted' | 'no queries';
  /** The failure class: an error type, `wrong result`, `no error`, `timeout`, `setup`. */
  failure?: string;
  detail?: string;
  /** An expected error of the right class whose message does not match Gel's regex. */
  messageDiffers?: boolean;
  /** Run as Python by live.py (extract.py could not follow the method). */
  live?: boolean;
}

function failureClass(error: unknown): string {
  if (error instanceof Timeout) return 'timeout';
  const type = (error as { type?: unknown })?.type;
  if (typeof type === 'string') return type;
  const state = harness.sqlStateOf(error);
  if (state) return `SQLSTATE ${state}`;
  return (error as Error)?.name ?? 'Error';
}

/** The methods extract.py cannot follow, run as Python by live.py, answered from `session`. */
async function runLive(
  gel: string,
  file: string,
  cls: string,
  session: ClassSession,
  tests: readonly GelTest[],
  options: Options,
  record: (test: GelTest, outcome: Omit<Outcome, 'file' | 'bucket' | 'test'>) => void,
): Promise<void> {
  const driver = new LiveDriver(gel, file, cls);
  try {
    const problem = await driver.ready();
    if (problem !== null) {
      for (const t of tests)
        record(t, { status: 'fail', failure: 'driver', detail: problem, live: true });
      return;
    }
    for (const t of tests) {
      let state: ScriptState = { module: null };
      const marks: unknown[] = [];
      const outcome = await driver.run(
        {
          run: (body) => {
            state = { module: null };
            return session.run(body);
          },
          script: (db, query, variables) =>
            runScript(session, db, { query, ...(variables ? { variables } : {}) }, state),
          resultType: (query) => {
            const last = splitStatements(query).at(-1);
            if (last === undefined) return null;
            return session.resultType(
              state.module === null ? last : withModule(state.module, last),
            );
          },
          className: (error) => {
            const type = (error as { type?: unknown })?.type;
            if (typeof type === 'string') return type;
            const sqlState = harness.sqlStateOf(error);
            return (sqlState && core.queryErrorClassForSqlState(sqlState)?.name) || 'QueryError';
          },
          describe: (error) => harness.describeError(error),
          begin: async (db) => {
            if (db) await db.query(`savepoint live_tx_${marks.length}`);
            marks.push(session.mark());
          },
          end: async (db, rollback) => {
            const mark = marks.pop();
            if (mark === undefined) return;
            if (rollback) session.restore(mark);
            if (db)
              await db.query(
                `${rollback ? 'rollback to' : 'release'} savepoint live_tx_${marks.length}`,
              );
          },
        },
        t.name,
        options.timeoutMs,
      );
      record(t, { ...outcome, live: true });
    }
  } finally {
    driver.close();
  }
}

/** What a test body's earlier statements leave for later ones: `set module m`. */
export interface ScriptState {
  module: string | null;
}

/**
 * One step's text, as Gel's `execute()` takes a script: each statement in order under one
 * savepoint (rolled back, with the schema, when one fails); `set module m` applies to later
 * statements; DDL goes to `session.runDdl`. The last statement's data answers.
 */
export async function runScript(
  session: ClassSession,
  db: Queryable | null,
  step: Pick<GelStep, 'query' | 'variables'>,
  state: ScriptState,
): Promise<{ data: unknown[] | undefined; error: unknown }> {
  if (db) await db.query('savepoint replay_step');
  const mark = session.mark();
  let data: unknown[] | undefined;
  let error: unknown;
  try {
    for (const statement of splitStatements(step.query)) {
      const setModule = /^(?:set\s+module\s+([\w:]+)|reset\s+module)\s*$/i.exec(statement);
      if (setModule) {
        state.module = setModule[1] ?? null;
        data = [];
        continue;
      }
      const query = state.module === null ? statement : withModule(state.module, statement);
      if (isDdl(query)) {
        await session.runDdl(db, query);
        data = [];
      } else data = await session.runStep(db, { ...step, query } as GelStep);
    }
  } catch (e) {
    error = e;
  }
  if (error) session.restore(mark);
  if (db)
    await db.query(error ? 'rollback to savepoint replay_step' : 'release savepoint replay_step');
  return { data, error };
}

async function runTest(
  session: ClassSession,
  test: GelTest,
): Promise<Omit<Outcome, 'file' | 'bucket' | 'test'>> {
  let result: Omit<Outcome, 'file' | 'bucket' | 'test'> = { status: 'pass' };
  await session.run(async (db) => {
    const state: ScriptState = { module: null };
    for (const [index, step] of (test.steps ?? []).entries()) {
      const at = `step ${index + 1}`;
      const { data, error } = await runScript(session, db, step, state);
      const expect = step.expect;
      if (expect.kind === 'error') {
        if (error === undefined) {
          result = {
            status: 'fail',
            failure: 'no error',
            detail: `${at}: expected ${expect.className}, got ${JSON.stringify(data).slice(0, 200)}`,
          };
          return;
        }
        if (!harness.errorMatches(error, expect.className ?? 'QueryError')) {
          result = {
            status: 'fail',
            failure: failureClass(error),
            detail: `${at}: expected ${expect.className}, got ${harness.describeError(error)}`,
          };
          return;
        }
        if (expect.regex && !new RegExp(expect.regex, 'i').test((error as Error).message ?? ''))
          result = { ...result, messageDiffers: true };
        continue;
      }
      if (error !== undefined) {
        result = {
          status: 'fail',
          failure: failureClass(error),
          detail: `${at}: ${harness.describeError(error)}`,
        };
        return;
      }
      if (expect.kind === 'ok') continue;
      let actual: unknown = data;
      if (step.implicitLimit) actual = applyImplicitLimit(actual, step.implicitLimit);
      if (step.sort !== undefined) sortResults(actual, step.sort);
      const difference = assertShape(actual, expect.value);
      if (difference) {
        result = { status: 'fail', failure: 'wrong result', detail: `${at}: ${difference}` };
        return;
      }
    }
  });
  return result;
}

function percent(n: number, d: number): string {
  return d === 0 ? '   -  ' : `${((100 * n) / d).toFixed(1).padStart(5)}%`;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const extracted = JSON.parse(readFileSync(options.cases, 'utf8')) as Extracted;
  const wanted = options.files ?? (options.all ? null : bucketFiles(options.issue));
  if (options.schemasOnly) return checkSchemas(extracted, wanted, options);
  const compile = options.server ? null : loadCompiler();
  const outcomes: Outcome[] = [];
  const skippedDdl = new Map<string, number>();
  const strippedDefaults = new Map<string, number>();
  for (const { file, classes } of extracted.files) {
    if (wanted && !wanted.includes(file)) continue;
    for (const cls of classes) {
      const tests = cls.tests.filter((t) => !options.test || options.test.test(t.name));
      if (tests.length === 0) continue;
      const factoring = needsFactoring(extracted.gel, file);
      const record = (test: GelTest, outcome: Omit<Outcome, 'file' | 'bucket' | 'test'>) =>
        outcomes.push({
          file,
          bucket: bucketOf(file, test.name),
          test: `${cls.name}.${test.name}`,
          ...(factoring.has(test.name) ? expectedToFail(outcome) : outcome),
        });
      const runnable = tests.filter((t) => t.complete && (t.steps?.length ?? 0) > 0);
      const live = options.live && !options.server ? tests.filter((t) => !t.complete) : [];
      for (const t of tests) {
        if (!t.complete && !live.includes(t))
          record(t, { status: 'not extracted', detail: t.reason ?? '' });
        else if (t.complete && !t.steps?.length) record(t, { status: 'no queries' });
      }
      if (runnable.length === 0 && live.length === 0) continue;
      const script = classScript(cls.schema, cls.setup);
      for (const ddl of script.skippedDdl)
        skippedDdl.set(ddl.slice(0, 60), (skippedDdl.get(ddl.slice(0, 60)) ?? 0) + 1);
      const { sdl, stripped } = withoutRefusedDefaults(script.sdl);
      for (const message of stripped)
        strippedDefaults.set(message, (strippedDefaults.get(message) ?? 0) + 1);
      let session: ClassSession;
      try {
        session = options.server
          ? await serverSession(options, sdl, script.statements)
          : await localSession(options, compile as CompileQuery, sdl, script.statements);
      } catch (error) {
        const message = (error as Error).message;
        for (const t of [...runnable, ...live])
          record(t, {
            status: 'fail',
            failure: message.startsWith('schema') ? 'schema' : 'setup',
            detail: message,
          });
        process.stderr.write(`${file} ${cls.name}: ${message.slice(0, 300)}\n`);
        continue;
      }
      try {
        for (const t of runnable) {
          try {
            record(t, await runTest(session, t));
          } catch (error) {
            record(t, {
              status: 'fail',
              failure: failureClass(error),
              detail: harness.describeError(error),
            });
          }
        }
        if (live.length > 0)
          await runLive(extracted.gel, file, cls.name, session, live, options, record);
      } finally {
        await session.dispose();
      }
      process.stderr.write(`${file} ${cls.name}: done\n`);
    }
  }
  printReport(outcomes, skippedDdl, options);
  if (strippedDefaults.size) {
    const lines = [
      '',
      'Defaults svc refuses (spec item 1), stripped from the schema (tests relying on them fail)',
    ];
    for (const [message, n] of strippedDefaults)
      lines.push(`  ${String(n).padStart(5)}  ${message}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (options.report) writeFileSync(options.report, JSON.stringify(outcomes, null, 1));
}

/**
 * The methods of a Gel test file marked `@tb.needs_factoring` (not `_weakly`): they expect the
 * legacy path factoring, and Gel's harness, which runs every test with `simple_scoping := true`
 * (testbase `NO_FACTOR`), asserts that they fail (`assertRaisesRegex(Exception, '')` around the
 * whole method: an error or a wrong result).
 */
function needsFactoring(gel: string, file: string): Set<string> {
  const out = new Set<string>();
  let text: string;
  try {
    text = readFileSync(join(gel, 'tests', file), 'utf8');
  } catch {
    return out;
  }
  const re = /@tb\.needs_factoring\s*\n((?:\s*@[^\n]*\n)*)\s*(?:async\s+)?def\s+(test_\w+)/g;
  for (const m of text.matchAll(re)) out.add(m[2] as string);
  return out;
}

/** Gel's harness outcome for a `needs_factoring` method: run, it must fail (see needsFactoring). */
function expectedToFail(
  outcome: Omit<Outcome, 'file' | 'bucket' | 'test'>,
): Omit<Outcome, 'file' | 'bucket' | 'test'> {
  if (outcome.status === 'pass')
    return {
      ...outcome,
      status: 'fail',
      failure: 'factored',
      detail: 'needs_factoring: Gel (simple scoping) expects this method to fail; it passed',
    };
  if (outcome.status === 'fail' && outcome.failure !== 'schema' && outcome.failure !== 'setup')
    return { ...outcome, status: 'pass', detail: `fails as Gel expects: ${outcome.detail ?? ''}` };
  return outcome;
}

/**
 * Spec item 1 refuses a default that reads the object or runs a query ("compute it in the
 * insert"); Gel's insert and update schemas have several. To measure everything else, each such
 * default is cut from the SDL (the tests relying on it then fail, and are counted), at most 100.
 */
function withoutRefusedDefaults(sdl: string): { sdl: string; stripped: string[] } {
  const stripped: string[] = [];
  let current = sdl;
  for (let round = 0; round < 100; round++) {
    try {
      core.buildSchema(current);
      break;
    } catch (error) {
      const e = error as Error & { position?: { line: number; column: number } };
      if (!/^default of /.test(e.message) || !e.position) break;
      const next = stripDefaultAt(current, e.position.line, e.position.column);
      if (next === null || next === current) break;
      stripped.push(e.message);
      current = next;
    }
  }
  return { sdl: current, stripped };
}

/** `--schemas-only`: does each class's schema build and migrate into a fresh database? */
async function checkSchemas(
  extracted: Extracted,
  wanted: readonly string[] | null,
  options: Options,
): Promise<void> {
  let ok = 0;
  let failed = 0;
  for (const { file, classes } of extracted.files) {
    if (wanted && !wanted.includes(file)) continue;
    for (const cls of classes) {
      if (
        Object.keys(cls.schema).length === 0 &&
        !cls.setup.some((s) => /start\s+migration/i.test(s.text))
      )
        continue;
      const script = classScript(cls.schema, cls.setup);
      const env = options.url
        ? { SVC_TEST_DB: 'postgres', SVC_TEST_DATABASE_URL: options.url }
        : { SVC_TEST_DB: 'pglite' };
      const tdb = await testing.createTestDatabase(env);
      try {
        await core.createDefaultMigrator().migrate(tdb.db, script.sdl);
        ok++;
        process.stdout.write(`ok    ${file} ${cls.name}\n`);
      } catch (error) {
        failed++;
        process.stdout.write(
          `FAIL  ${file} ${cls.name}: ${harness.describeError(error).replace(/\s+/g, ' ').slice(0, 200)}\n`,
        );
      } finally {
        await tdb.dispose();
      }
    }
  }
  process.stdout.write(`schemas: ${ok} migrate, ${failed} fail\n`);
}

function printReport(
  outcomes: readonly Outcome[],
  skippedDdl: ReadonlyMap<string, number>,
  options: Options,
): void {
  const lines: string[] = [];
  const row = (label: string, list: readonly Outcome[], suffix = '') => {
    const total = list.length;
    const run = list.filter((o) => o.status === 'pass' || o.status === 'fail').length;
    const pass = list.filter((o) => o.status === 'pass').length;
    const notExtracted = list.filter((o) => o.status === 'not extracted').length;
    lines.push(
      `${label.padEnd(34)} ${String(total).padStart(5)} ${String(notExtracted).padStart(7)} ${String(run).padStart(5)} ${String(pass).padStart(5)} ${percent(pass, run)} ${percent(pass, total - list.filter((o) => o.status === 'no queries').length)}${suffix}`,
    );
  };
  const header = `${''.padEnd(34)} ${'tests'.padStart(5)} ${'not-ext'.padStart(7)} ${'run'.padStart(5)} ${'pass'.padStart(5)} ${'%run'.padStart(6)} ${'%all'.padStart(6)}`;
  lines.push('Per file', header);
  for (const file of [...new Set(outcomes.map((o) => o.file))])
    row(
      file,
      outcomes.filter((o) => o.file === file),
    );
  for (const issue of [10, 11] as const) {
    const buckets = BUCKETS.filter((b) => BUCKET_GOALS[b].issue === issue);
    const inIssue = outcomes.filter(
      (o) => o.bucket !== 'other' && BUCKET_GOALS[o.bucket].issue === issue,
    );
    if (inIssue.length === 0) continue;
    lines.push(
      '',
      `Per bucket, issue ${issue} (goal: the target % of Gel's cases in each)`,
      `${header} target`,
    );
    for (const bucket of buckets) {
      const list = outcomes.filter((o) => o.bucket === bucket);
      const target = BUCKET_GOALS[bucket].target;
      if (list.length) row(bucket, list, target === null ? '  (none)' : `  ${target}%`);
    }
    const goal = inIssue.filter(
      (o) => o.bucket !== 'other' && BUCKET_GOALS[o.bucket].target !== null,
    );
    row(`issue ${issue} buckets with a goal`, goal);
    // The same, only over classes whose schema migrated and setup ran (the compiler's own share).
    row(
      '  ... where schema and setup ran',
      goal.filter((o) => o.failure !== 'schema' && o.failure !== 'setup'),
    );
  }
  const other = outcomes.filter((o) => o.bucket === 'other');
  if (other.length) row('other (no bucket)', other);
  const messageDiffers = outcomes.filter((o) => o.status === 'pass' && o.messageDiffers).length;
  const live = outcomes.filter((o) => o.bucket !== 'other' && o.live);
  lines.push(
    '',
    `Passing tests whose expected error message differs from Gel's regex: ${messageDiffers}`,
    `Bucket tests run as Python by live.py (not extractable as data): ${live.length}, passed ${live.filter((o) => o.status === 'pass').length}`,
  );
  lines.push('', 'Failures by class');
  const failures = outcomes.filter((o) => o.status === 'fail');
  const byClass = new Map<string, Outcome[]>();
  for (const o of failures)
    byClass.set(o.failure ?? '?', [...(byClass.get(o.failure ?? '?') ?? []), o]);
  for (const [cls, list] of [...byClass].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`  ${String(list.length).padStart(5)}  ${cls}`);
    for (const o of list.slice(0, options.failures))
      lines.push(`         ${o.test}: ${(o.detail ?? '').replace(/\s+/g, ' ').slice(0, 160)}`);
  }
  const reasons = new Map<string, number>();
  for (const o of outcomes.filter((x) => x.status === 'not extracted'))
    reasons.set(o.detail ?? '', (reasons.get(o.detail ?? '') ?? 0) + 1);
  lines.push('', 'Not extracted (the extractor cannot follow the method), by reason');
  for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 15))
    lines.push(`  ${String(n).padStart(5)}  ${reason}`);
  if (skippedDdl.size) {
    lines.push('', 'Setup DDL skipped (svc takes schemas as SDL only)');
    for (const [ddl, n] of skippedDdl) lines.push(`  ${String(n).padStart(5)}  ${ddl}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
