// bench/rest: svc's REST routes against a bare Express + `pg` handler sending the same SQL, and
// against Platformatic DB over the same table, on real PostgreSQL, in one run: `GET /api/Item/{id}`
// and a 100-row list `GET /api/Item?limit=100` (Item: 8 scalar properties, 10,000 rows). Prints
// req/s and p50 of each server per case (medians of alternating rounds, and each round's req/s)
// and the ratios svc/bare (by id, goal >= 0.9) and svc/platformatic (list, goal >= 1.5), each the
// median of the rounds' ratios, PASS or FAIL; the exit code is 1 when a goal fails or an answer
// is wrong.
// Usage: pnpm build && node bench/rest/run.mjs [--database-url URL] [--duration 10]
//          [--connections 32] [--rounds 3] [--only svc,bare,platformatic]
//   URL: a PostgreSQL server where the user may create databases (default $DATABASE_URL, else
//   postgres://postgres@127.0.0.1:54329/postgres); a database of its own is created and dropped.
//   The first run with Platformatic installs it (npm ci into bench/rest/platformatic).
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import {
  adminUrlOf,
  checkSameRows,
  installPlatformatic,
  medianOf,
  PLATFORMATIC_DIR,
  pairedRatio,
  platformaticVersion,
  processCpu,
  startServer,
  stopChild,
  svcStatement,
} from '../lib/bench.mjs';
import { ROWS, SDL, SEED_SQL, TYPE } from './schema.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const core = require('../../packages/core/dist/index.js');
const rest = require('../../packages/rest/dist/index.js');
const { compileQuery } = require('../../packages/server/dist/index.js');
const here = new URL('.', import.meta.url).pathname;
// The REST planner's EdgeQL for a request: @svc/rest's own `planRequest`, as svc runs it.
const plan = rest.planRequest;
const planner = "@svc/rest's planRequest";

// `svc-express`: svc with its hot lane off (`hotLane: false`, Express routes `/api/*` too), for
// the lane's gain within one run; not run unless named in --only.
const SERVERS = ['svc', 'bare', 'platformatic', 'svc-express'];
const DEFAULT_SERVERS = ['svc', 'bare', 'platformatic'];
const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string', default: DEFAULT_SERVERS.join(',') },
  },
});
const adminUrl = adminUrlOf(values['database-url']);
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const only = values.only.split(',').map((s) => s.trim());
for (const s of only) {
  if (!SERVERS.includes(s)) throw new Error(`--only: unknown server ${s} (${SERVERS.join(', ')})`);
}
if (only.includes('platformatic')) installPlatformatic('bench/rest');

// A database of our own, migrated and seeded.
const name = `svc_bench_rest_${process.pid}`;
const admin = await core.openDatabase({ url: adminUrl, poolSize: 1 });
await admin.query(`create database ${name}`);
const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
const db = await core.openDatabase({ url });
const children = [];
try {
  await core.createDefaultMigrator().migrate(db, SDL);
  await db.query(SEED_SQL, [ROWS]);
  // Vacuumed and analyzed now, so autovacuum does not visit the fresh table during a round.
  await db.query(`vacuum (analyze) "default"."${TYPE}"`);
  // A row from the middle of the table.
  const { rows } = await db.query(
    `select id from "default"."${TYPE}" order by id offset $1::int limit 1`,
    [ROWS / 2],
  );
  await measureAll(rows[0].id);
} catch (err) {
  console.error(`bench/rest: ${err.message}`);
  process.exitCode = 1;
} finally {
  // The servers close their pools before the database is dropped under them (bounded: 10 s).
  await Promise.all(children.map(stopChild));
  await db.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.close();
}

async function measureAll(id) {
  // What svc's REST runs for each request: the planner's EdgeQL, compiled by svc's engine for
  // the caller an anonymous request is on a default server (access policies on, not read-only).
  // The bare handler sends exactly this SQL.
  const engine = core.createQueryEngine({
    db,
    compile: compileQuery,
    schema: core.storedSchemaSource(db, core.createDefaultMigrator(), core.buildSchema),
  });
  const caller = { access: { policies: true, readOnly: false }, auth: core.ANONYMOUS_AUTH };
  const { schema } = await engine.schema();
  const model = rest.restModel(schema);
  const requests = {
    get: rest.parseRequest({ method: 'GET', path: `/${TYPE}/${id}`, query: '' }),
    list: rest.parseRequest({ method: 'GET', path: `/${TYPE}`, query: 'limit=100' }),
  };
  const plans = {};
  const edgeql = {};
  for (const [key, request] of Object.entries(requests)) {
    const planned = plan(request, model, schema);
    const compiled = await engine.prepare(planned, caller);
    const foreign = compiled.params.filter((p) => p.source !== 'variable');
    if (foreign.length > 0)
      throw new Error(
        `${key}: the SQL reads ${foreign.map((p) => p.name)}; the bare handler binds variables only`,
      );
    plans[key] = svcStatement(compiled);
    edgeql[key] = planned.query;
  }

  const servers = {};
  if (only.includes('svc')) servers.svc = await startServer(`${here}svc.mjs`, [url], children);
  if (only.includes('svc-express'))
    servers['svc-express'] = await startServer(`${here}svc.mjs`, [url, 'express'], children);
  if (only.includes('bare'))
    servers.bare = await startServer(`${here}bare.mjs`, [url, JSON.stringify(plans)], children);
  if (only.includes('platformatic'))
    servers.platformatic = await startServer(`${PLATFORMATIC_DIR}/server.mjs`, [url], children);
  const path = {
    get: {
      svc: `/api/${TYPE}/${id}`,
      'svc-express': `/api/${TYPE}/${id}`,
      bare: `/api/${TYPE}/${id}`,
      platformatic: `/default${TYPE}/${id}`,
    },
    list: {
      svc: `/api/${TYPE}?limit=100`,
      'svc-express': `/api/${TYPE}?limit=100`,
      bare: `/api/${TYPE}?limit=100`,
      platformatic: `/default${TYPE}/?limit=100&orderby.id=asc`,
    },
  };
  const cases = { get: `GET /api/${TYPE}/{id}`, list: `GET /api/${TYPE}?limit=100 (100 rows)` };

  // Every server must answer 200 with the same rows before anything is measured.
  for (const key of Object.keys(cases)) {
    const answers = {};
    for (const [s, server] of Object.entries(servers)) {
      const res = await fetch(server.url + path[key][s]);
      const text = await res.text();
      if (res.status !== 200)
        throw new Error(
          `${s} answers ${res.status} to ${cases[key]}, not 200:\n${text.slice(0, 500)}`,
        );
      answers[s] = text;
    }
    checkAnswers(key, answers);
  }

  const version = only.includes('platformatic') ? platformaticVersion() : null;
  console.log(
    `bench/rest: PostgreSQL, ${ROWS} rows, ${connections} connections, median of ${rounds} alternating rounds of ${duration} s, loopback, EdgeQL from ${planner}` +
      (version ? `; Platformatic DB ${version}` : ''),
  );
  const results = {};
  for (const [key, label] of Object.entries(cases)) {
    // Alternate rounds so a passing load on the machine hits every server alike; report medians.
    const runs = Object.fromEntries(Object.keys(servers).map((s) => [s, []]));
    for (let round = 0; round < rounds; round++) {
      for (const [s, server] of Object.entries(servers))
        runs[s].push(await measure(server.url + path[key][s], server.child.pid));
    }
    results[key] = runs;
    console.log(`${label}\n  EdgeQL: ${edgeql[key]}`);
    for (const [s, ms] of Object.entries(runs))
      console.log(
        `  ${s.padEnd(14)} ${row(medianOf(ms))}   rounds: ${ms.map((m) => m.rps.toFixed(0)).join(' ')}`,
      );
  }

  console.log('goals');
  goal('by id', results.get, 'svc', 'bare', 0.9);
  goal('list ', results.list, 'svc', 'platformatic', 1.5);
  if (servers['svc-express']) {
    for (const key of Object.keys(cases)) {
      const { ratio, ratios } = pairedRatio(results[key].svc, results[key]['svc-express']);
      const cpu = medianOf(results[key].svc).cpu / medianOf(results[key]['svc-express']).cpu;
      console.log(
        `  (the hot lane) ${key} svc/svc-express = ${ratio.toFixed(2)} req/s, ${cpu.toFixed(2)} server CPU per request   rounds: ${ratios.map((r) => r.toFixed(2)).join(' ')}`,
      );
    }
  }
  if (servers.bare && servers.platformatic) {
    const r = medianOf(results.list.bare).rps / medianOf(results.list.platformatic).rps;
    console.log(`  (for reference) list bare/platformatic = ${r.toFixed(2)}`);
  }
}

/** Prints `a/b` against its goal; a goal that fails sets the exit code. */
function goal(label, result, a, b, target) {
  if (!result[a] || !result[b]) {
    console.log(`  ${label} ${a}/${b}: not measured (${[a, b].filter((s) => !result[s])} not run)`);
    return;
  }
  const { ratio, ratios } = pairedRatio(result[a], result[b]);
  const pass = ratio >= target;
  if (!pass) process.exitCode = 1;
  console.log(
    `  ${label} ${a}/${b} = ${ratio.toFixed(2)} (goal >= ${target}) ${pass ? 'PASS' : 'FAIL'}` +
      `   median of the rounds' ratios: ${ratios.map((r) => r.toFixed(2)).join(' ')};` +
      ` ratio of the medians: ${(medianOf(result[a]).rps / medianOf(result[b]).rps).toFixed(2)}`,
  );
}

/**
 * svc and the bare handler must answer the same bytes (the same SQL, the same unwrapping);
 * Platformatic the same rows in the same order, its values as it writes them (int64 as strings,
 * datetimes with milliseconds).
 */
function checkAnswers(key, answers) {
  if (
    answers.svc !== undefined &&
    answers['svc-express'] !== undefined &&
    answers.svc !== answers['svc-express']
  )
    throw new Error(`${key}: svc answers differently with its hot lane off`);
  if (answers.svc !== undefined && answers.bare !== undefined && answers.svc !== answers.bare)
    throw new Error(
      `${key}: svc and the bare handler answer differently:\n${answers.svc}\n${answers.bare}`,
    );
  const reference = answers.svc ?? answers.bare;
  if (reference === undefined || answers.platformatic === undefined) return;
  const want = [JSON.parse(reference)].flat();
  const got = [JSON.parse(answers.platformatic)].flat();
  if (key === 'list' && want.length !== 100) throw new Error(`list: ${want.length} rows, not 100`);
  checkSameRows(key, want, got);
}

async function measure(target, pid) {
  const options = { url: target, method: 'GET', connections };
  await autocannon({ ...options, duration: 2 }); // warm up: JIT, connections, prepared plans
  const before = processCpu(pid)?.micros ?? Number.NaN;
  const r = await autocannon({ ...options, duration });
  const used = (processCpu(pid)?.micros ?? Number.NaN) - before;
  if (r.non2xx || r.errors) throw new Error(`${target}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  // The server process's CPU (user + system) per request answered, in microseconds.
  return { rps: r.requests.average, p50: r.latency.p50, cpu: used / r.requests.total };
}

function row(m) {
  return `${m.rps.toFixed(0).padStart(7)} req/s   p50 ${m.p50} ms   server CPU ${m.cpu.toFixed(0)} µs/req`;
}
