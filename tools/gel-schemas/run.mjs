// tools/gel-schemas: builds and migrates every in-scope schema of Gel's test suite with svc's
// schema stages, on embedded PGlite and on a real PostgreSQL, then applies each again (which must
// change nothing). Outside CI: it needs a checkout of Gel. See README.md beside this file.
//
// Usage: node tools/gel-schemas/run.mjs [--gel /path/to/gel] [--engines pglite,postgres]
//          [--url postgres://...] [--only substring] [--list] [--show-sql]
// --show-sql: for a unit the database refused, replays its plan statement by statement on a
// fresh database and prints the statement that failed.
// Output: one line per schema unit (`ok  <unit>` or `FAIL <unit> [<stage>] <error>`), then totals.
// Exit status: 0 when every unit passed, 1 otherwise.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCore } from './load-core.mjs';
import { discoverUnits } from './discover.mjs';

const { values } = parseArgs({
  options: {
    gel: { type: 'string', default: process.env.GEL_DIR ?? '/work/gel/gel' },
    engines: { type: 'string', default: 'pglite,postgres' },
    url: {
      type: 'string',
      default: process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/postgres',
    },
    only: { type: 'string' },
    list: { type: 'boolean', default: false },
    'show-sql': { type: 'boolean', default: false },
  },
});

const core = loadCore();
const { buildSchema, createDefaultMigrator, planMigration, STORAGE_BOOTSTRAP_SQL } = core.schema;
const { createTestDatabase } = core.testing;
const engines = values.engines.split(',').filter(Boolean);
const units = discoverUnits(path.resolve(values.gel)).filter(
  (u) => !values.only || u.name.includes(values.only),
);

if (values.list) {
  for (const u of units)
    console.log(`${u.name}\n    used by: ${u.usedBy.join(', ') || '(no test class)'}`);
  process.exit(0);
}

const migrator = createDefaultMigrator();

/** First line of an error, with its class name: what a reader needs to find the cause. */
function describe(err) {
  // svc's errors carry their class as `type`; a database error its SQLSTATE as `code`.
  const name =
    err?.type ?? (err?.code ? `SQLSTATE ${err.code}` : (err?.constructor?.name ?? 'Error'));
  const message = String(err?.message ?? err).split('\n')[0];
  const at = err?.position ? ` (at ${err.position.line}:${err.position.column})` : '';
  return `${name}: ${message}${at}`;
}

async function runOn(engine, sdl) {
  const env =
    engine === 'postgres'
      ? { SVC_TEST_DB: 'postgres', SVC_TEST_DATABASE_URL: values.url }
      : { SVC_TEST_DB: 'pglite' };
  const tdb = await createTestDatabase(env);
  try {
    const first = await migrator.migrate(tdb.db, sdl);
    if (!first.applied) throw new Error('the first migration applied nothing');
    const again = await migrator.migrate(tdb.db, sdl);
    if (again.applied || again.steps.length > 0) {
      throw new Error(
        `applying the same schema again was not a no-op: ${again.steps.map((s) => `${s.kind} ${s.subject}`).join(', ')}`,
      );
    }
  } finally {
    await tdb.dispose();
  }
}

async function failingStatement(engine, sdl) {
  const env =
    engine === 'postgres'
      ? { SVC_TEST_DB: 'postgres', SVC_TEST_DATABASE_URL: values.url }
      : { SVC_TEST_DB: 'pglite' };
  const tdb = await createTestDatabase(env);
  try {
    const plan = planMigration(null, buildSchema(sdl));
    for (const statement of [...STORAGE_BOOTSTRAP_SQL, ...plan.steps.flatMap((s) => s.sql)]) {
      try {
        await tdb.db.query(statement);
      } catch {
        return statement;
      }
    }
    return '(none: every statement ran alone)';
  } finally {
    await tdb.dispose();
  }
}

let passed = 0;
const failed = [];
for (const unit of units) {
  let failure = null;
  try {
    buildSchema(unit.sdl);
  } catch (err) {
    failure = `[build] ${describe(err)}`;
  }
  for (const engine of engines) {
    if (failure) break;
    try {
      await runOn(engine, unit.sdl);
    } catch (err) {
      failure = `[${engine}] ${describe(err)}`;
      if (values['show-sql'])
        failure += `\n    statement: ${await failingStatement(engine, unit.sdl)}`;
    }
  }
  if (failure) {
    failed.push(unit.name);
    console.log(`FAIL ${unit.name} ${failure}`);
  } else {
    passed += 1;
    console.log(`ok   ${unit.name}`);
  }
}
console.log(
  `\n${passed}/${units.length} schema units build and migrate (${engines.join(' + ')}); ${failed.length} failed`,
);
process.exit(failed.length ? 1 : 0);
