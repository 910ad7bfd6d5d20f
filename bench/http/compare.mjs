// bench/http compare: issue 34's table. svc's data plane (through `svc serve --schema`, auth on)
// against Platformatic DB, Express 5 + pg and the floor, node:http + pg, over one seeded table of
// 100,000 rows on real PostgreSQL, in one interleaved run: req/s, the server's CPU and
// PostgreSQL's CPU per request (from /proc), paired ratios, and issue 34's goals, PASS or FAIL.
// Usage: pnpm build && node bench/http/compare.mjs [--database-url URL] [--duration 6]
//          [--warmup 2] [--rounds 5] [--connections 32] [--only id,list,signed,profile,live]
//          [--load auto|wrk|autocannon] [--strict]
//   URL: a PostgreSQL server where the user may create databases (default $DATABASE_URL, else
//   postgres://postgres@127.0.0.1:55432/postgres); a database of its own is created and dropped.
//   --load: the load generator; auto: wrk when it is on PATH, else autocannon in a child process.
//   --strict: exit code 1 when a goal fails (an answer that differs always exits 1).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  adminUrlOf,
  checkSameRows,
  cpuBetween,
  databaseUrl,
  installPlatformatic,
  loadGenerator,
  listeningPort,
  loadRound,
  median,
  pairedRatio,
  PLATFORMATIC_DIR,
  platformaticVersion,
  processCpu,
  sampleCpu,
  startServer,
  svcStatement,
  stopChild,
  waitForOk,
} from '../lib/bench.mjs';

const require = createRequire(import.meta.url);
const core = require('../../packages/core/dist/index.js');
const rest = require('../../packages/rest/dist/index.js');
const { compileQuery } = require('../../packages/server/dist/index.js');
const here = new URL('.', import.meta.url).pathname;
const svcBin = new URL('../../packages/cli/bin/svc.js', import.meta.url).pathname;

const ROWS = 100_000;
const SDL = `
type Book {
  required title: str;
  required author: str;
  required isbn: str;
  required pages: int32;
  required copies: int64;
  required price: float64;
  required inStock: bool;
  required publishedAt: datetime;
  summary: str;
}
`;
const FIELDS = [
  'id',
  'title',
  'author',
  'isbn',
  'pages',
  'copies',
  'price',
  'inStock',
  'publishedAt',
  'summary',
];
/** 100,000 rows in one statement; `summary` unset on odd rows. */
const SEED_SQL = `insert into "default"."Book" (title, author, isbn, pages, copies, price, "inStock", "publishedAt", summary)
  select 'book ' || n, 'author ' || (n % 997), '978-' || lpad(n::text, 9, '0'), 40 + n % 900,
    n * 13, (n % 5000) / 4.0, n % 3 <> 0,
    timestamptz '2001-01-01T00:00:00Z' + n * interval '53 minutes',
    case when n % 2 = 0 then 'the summary of book ' || n end
  from generate_series(1, $1::int) n`;

/** The groups `--only` names: each a set of targets whose ratios are read together. */
const GROUPS = {
  id: ['floor', 'platformatic', 'rest', 'query', 'express'],
  list: ['list', 'platformaticList'],
  signed: ['signedIn', 'rest'],
  profile: ['profile', 'rest'],
  live: ['live', 'hello'],
};
/** The order of a round: targets compared with each other measured next to each other. */
const ORDER = [
  'hello',
  'live',
  'floor',
  'platformatic',
  'rest',
  'signedIn',
  'profile',
  'query',
  'express',
  'list',
  'platformaticList',
];

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    duration: { type: 'string', default: '6' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '5' },
    only: { type: 'string', default: Object.keys(GROUPS).join(',') },
    load: { type: 'string', default: 'auto' },
    strict: { type: 'boolean', default: false },
  },
});
const adminUrl = adminUrlOf(values['database-url'], 'postgres://postgres@127.0.0.1:55432/postgres');
const duration = positive('duration', values.duration);
const warmup = positive('warmup', values.warmup);
const connections = positive('connections', values.connections);
const rounds = positive('rounds', values.rounds);
const groups = values.only.split(',').map((s) => s.trim());
for (const g of groups) {
  if (!GROUPS[g]) throw new Error(`--only: unknown group ${g} (${Object.keys(GROUPS).join(', ')})`);
}
const targets = ORDER.filter((t) => groups.some((g) => GROUPS[g].includes(t)));
const needs = (server) => targets.some((t) => serverOf(t) === server);

function positive(flag, text) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${flag}: a positive integer, not ${text}`);
  return n;
}

function serverOf(target) {
  if (target === 'floor' || target === 'hello') return 'floor';
  if (target === 'platformatic' || target === 'platformaticList') return 'platformatic';
  if (target === 'express') return 'express';
  return 'svc';
}

const generator = loadGenerator(values.load);
if (needs('platformatic')) installPlatformatic('bench/http');

// Everything started is stopped, and the database dropped, at the end, on an error, on SIGINT.
const name = `svc_bench_http_${process.pid}`;
const url = databaseUrl(adminUrl, name);
const children = [];
const loaders = [];
let interrupted = false;
const work = mkdtempSync(join(tmpdir(), 'svc-bench-http-'));
let admin;
let db;
let created = false;
let cleaning;
function cleanUp() {
  cleaning ??= (async () => {
    // The load first, so no server is stopped under load; then the servers (bounded: 10 s).
    await Promise.all(loaders.map(stopChild));
    await Promise.all(children.map(stopChild));
    await db?.close().catch(() => {});
    if (created)
      await admin
        .query(`drop database if exists ${name} with (force)`)
        .catch((err) => console.error(`bench/http: cannot drop ${name}: ${err.message}`));
    await admin?.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
    console.error(`bench/http: ${signal}: stopping the servers and dropping ${name}`);
    cleanUp().finally(() => process.exit(130));
  });
}

try {
  admin = await core.openDatabase({ url: adminUrl, poolSize: 1 });
  await admin.query(`create database ${name}`);
  created = true;
  await run();
} catch (err) {
  if (!interrupted)
    console.error(
      `bench/http: ${err.stack ?? err.message}${err.cause ? `\n  cause: ${err.cause.stack ?? err.cause}` : ''}`,
    );
  process.exitCode = 1;
} finally {
  await cleanUp();
}

async function run() {
  // svc as a user runs it: the CLI, migrating the schema file at start, auth on.
  const schemaFile = join(work, 'books.esdl');
  writeFileSync(schemaFile, SDL);
  const svc = spawn(
    process.execPath,
    [
      svcBin,
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--schema',
      schemaFile,
      '--database-url',
      url,
      '--enable-auth',
      '--log-level',
      'warn',
      '--log-format',
      'json',
    ],
    {
      cwd: work,
      env: { ...process.env, SVC_JWT_SECRET: randomBytes(32).toString('hex') },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(svc);
  // Its log (JSON lines): errors and worse shown, its start-up warnings not.
  let partial = '';
  svc.stdout.on('data', (d) => {
    const lines = (partial + d).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      let level = 60;
      try {
        level = JSON.parse(line).level ?? 60;
      } catch {
        // not JSON: shown
      }
      if (level >= 50) console.error(`svc: ${line}`);
    }
  });
  svc.on('exit', (code, signal) => {
    if (!cleaning) console.error(`bench/http: svc serve exited (${code ?? signal})`);
  });
  // Port 0: svc binds a free port itself (its start-up holds it); read back from /proc.
  const svcPort = await listeningPort(svc, 120_000);
  const servers = { svc: { child: svc, url: `http://127.0.0.1:${svcPort}` } };
  await waitForOk(`${servers.svc.url}/health/live`, 120_000, svc);

  // Seeded after svc's migration made the table; vacuumed and analyzed so autovacuum does not
  // visit it during a round.
  db = await core.openDatabase({ url, poolSize: 1 });
  await db.query(SEED_SQL, [ROWS]);
  await db.query('vacuum (analyze) "default"."Book"');
  const { rows } = await db.query(
    'select id from "default"."Book" order by id offset $1::int limit 1',
    [ROWS / 2],
  );
  const id = rows[0].id;

  // What svc's REST runs for the by-id read, compiled by svc's engine for an anonymous caller
  // (access policies on, not read-only): the floor and Express run exactly this SQL.
  const engine = core.createQueryEngine({
    db,
    compile: compileQuery,
    schema: core.storedSchemaSource(db, core.createDefaultMigrator(), core.buildSchema),
  });
  const caller = { access: { policies: true, readOnly: false }, auth: core.ANONYMOUS_AUTH };
  const { schema } = await engine.schema();
  const planned = rest.planRequest(
    rest.parseRequest({ method: 'GET', path: `/Book/${id}`, query: '' }),
    rest.restModel(schema),
    schema,
  );
  const compiled = await engine.prepare(planned, caller);
  if (compiled.params.some((p) => p.source !== 'variable'))
    throw new Error("the by-id SQL reads more than variables: the floor can't bind it");
  const plan = JSON.stringify(svcStatement(compiled));

  if (needs('floor')) servers.floor = await startServer(`${here}floor.mjs`, [url, plan], children);
  if (needs('express'))
    servers.express = await startServer(`${here}express-pg.mjs`, [url, plan], children);
  if (needs('platformatic'))
    servers.platformatic = await startServer(`${PLATFORMATIC_DIR}/server.mjs`, [url], children);

  // A user signs up through svc's auth API: its access token is the signed-in caller's.
  const signUp = await fetch(`${servers.svc.url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${randomUUID()}@example.com`,
      password: 'correct horse battery staple',
    }),
    signal: AbortSignal.timeout(30_000),
  });
  const signUpText = await signUp.text();
  if (!signUp.ok) throw new Error(`POST /auth/register: ${signUp.status} ${signUpText}`);
  const { token, user } = JSON.parse(signUpText);
  const bearer = { authorization: `Bearer ${token}` };

  const query = `select Book { ${FIELDS.join(', ')} } filter .id = <uuid>$id`;
  const request = {
    hello: { label: 'node:http `/hello`', path: '/hello' },
    live: { label: 'svc `/health/live`', path: '/health/live' },
    floor: { label: 'node:http + pg, by id (the floor)', path: `/books/${id}` },
    platformatic: { label: 'Platformatic DB `GET /defaultBook/{id}`', path: `/defaultBook/${id}` },
    rest: { label: 'svc `GET /api/Book/{id}`', path: `/api/Book/${id}` },
    signedIn: {
      label: 'svc `GET /api/Book/{id}` signed in',
      path: `/api/Book/${id}`,
      headers: bearer,
    },
    profile: { label: 'svc `GET /auth/profile`', path: '/auth/profile', headers: bearer },
    query: {
      label: 'svc `POST /query` by id (variables)',
      path: '/query',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { id } }),
    },
    express: { label: 'Express 5 + pg, by id', path: `/books/${id}` },
    list: {
      label: 'svc `GET /api/Book?limit=100&order_by=id`',
      path: '/api/Book?limit=100&order_by=id',
    },
    platformaticList: {
      label: "Platformatic's list",
      path: '/defaultBook/?limit=100&orderby.id=asc',
    },
  };
  const targetOf = (t) => ({
    url: servers[serverOf(t)].url + request[t].path,
    method: request[t].method ?? 'GET',
    headers: request[t].headers,
    body: request[t].body,
  });

  await checkAnswers(targets, targetOf, user);

  const pg = await postgresProcesses();
  const version = needs('platformatic') ? `; Platformatic DB ${platformaticVersion()}` : '';
  console.log(
    `bench/http compare: PostgreSQL, ${ROWS} rows of Book, ${connections} connections, ${rounds} interleaved rounds of ${warmup} s warm-up + ${duration} s, medians, loopback; load: ${generator.label}${version}`,
  );
  console.log(
    `  svc: svc serve --schema (auth on, pool 10); floor and Express run svc's by-id SQL as a prepared statement (JSON text from PostgreSQL); PG CPU: ${pg.note}`,
  );

  // Interleaved rounds: every target once per round, in ORDER, so a load passing on the
  // machine weighs on the targets a ratio compares alike.
  const results = Object.fromEntries(targets.map((t) => [t, []]));
  const startLoad = loadavg();
  for (let round = 0; round < rounds; round++) {
    for (const t of targets) {
      const pid = servers[serverOf(t)].child.pid;
      const isSvc = serverOf(t) === 'svc';
      const sample = async () => ({
        server: sampleCpu([pid]),
        pg: pg.local ? sampleCpu(await pg.pids()) : undefined,
        gc: isSvc ? await gcSeconds(servers.svc.url) : undefined,
      });
      const r = await loadRound(
        generator,
        targetOf(t),
        { warmup, duration, connections, before: sample, after: sample },
        loaders,
      );
      results[t].push({
        rps: r.rps,
        p50: r.p50,
        server: cpuBetween(r.before.server, r.after.server) / r.requests,
        pg: pg.local ? cpuBetween(r.before.pg, r.after.pg) / r.requests : undefined,
        gc: isSvc ? gcBetween(r.before.gc, r.after.gc, r.requests) : undefined,
      });
      process.stderr.write(`  round ${round + 1}/${rounds} ${t}: ${r.rps.toFixed(0)} req/s\n`);
    }
  }
  report(results, request);
  console.log(
    `machine: ${loadText(startLoad)} at the start of the rounds, ${loadText(loadavg())} at the end (1, 5, 15 min; other work counts too)`,
  );
}

/**
 * svc's time in garbage collection so far, in seconds by kind (`minor`: the young generation;
 * `major`, `incremental`, `weakcb`), from its own /metrics (`nodejs_gc_duration_seconds`).
 */
async function gcSeconds(base) {
  const res = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET /metrics: ${res.status} ${text.slice(0, 200)}`);
  const seconds = {};
  for (const [, kind, value] of text.matchAll(
    /^svc_nodejs_gc_duration_seconds_sum\{kind="(\w+)"\} ([\d.e+-]+)$/gm,
  ))
    seconds[kind] = Number(value);
  return seconds;
}

/** GC µs per request between two `gcSeconds`: the young generation's and all of it. */
function gcBetween(before, after, requests) {
  const spent = (kind) => ((after[kind] ?? 0) - (before[kind] ?? 0)) * 1e6;
  const all = Object.keys(after).reduce((sum, kind) => sum + spent(kind), 0);
  return { young: spent('minor') / requests, all: all / requests };
}

function loadText(l) {
  return `load average ${l.map((x) => x.toFixed(2)).join(' ')}`;
}

/**
 * Every answer checked before anything is measured: the floor, Express and svc's REST the same
 * bytes; `/query` the same object in `data`; Platformatic the same rows (its int64 as strings,
 * datetimes with milliseconds); the list 100 rows in id order; signed in the same bytes as
 * anonymous; the profile the signed-up user's; the two liveness answers the same body.
 */
async function checkAnswers(targets, targetOf, user) {
  const answers = {};
  for (const t of targets) {
    const { url: u, method, headers, body } = targetOf(t);
    const res = await fetch(u, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    if (res.status !== 200)
      throw new Error(
        `${t}: ${method} ${u} answers ${res.status}, not 200:\n${text.slice(0, 500)}`,
      );
    answers[t] = text;
  }
  const byId = answers.rest ?? answers.floor;
  for (const t of ['floor', 'express', 'signedIn']) {
    if (answers[t] !== undefined && byId !== undefined && answers[t] !== byId)
      throw new Error(`${t} and svc's REST answer differently:\n${answers[t]}\n${byId}`);
  }
  if (answers.query !== undefined && byId !== undefined) {
    const { data } = JSON.parse(answers.query);
    const object = Array.isArray(data) && data.length === 1 ? data[0] : data;
    if (JSON.stringify(object) !== byId)
      throw new Error(`POST /query and svc's REST answer differently:\n${answers.query}\n${byId}`);
  }
  if (answers.platformatic !== undefined && byId !== undefined)
    checkSameRows('by id', [JSON.parse(byId)], [JSON.parse(answers.platformatic)]);
  if (answers.list !== undefined) {
    const list = JSON.parse(answers.list);
    if (list.length !== 100) throw new Error(`list: ${list.length} rows, not 100`);
    if (list.some((r, i) => i > 0 && !(list[i - 1].id < r.id)))
      throw new Error('list: the rows are not in id order');
    if (answers.platformaticList !== undefined)
      checkSameRows('list', list, JSON.parse(answers.platformaticList));
  }
  if (answers.profile !== undefined) {
    const profile = JSON.parse(answers.profile);
    const who = profile.user ?? profile;
    if (who.id !== user.id || who.email !== user.email)
      throw new Error(`GET /auth/profile is not the signed-up user's: ${answers.profile}`);
  }
  if (answers.live !== undefined && answers.hello !== undefined && answers.live !== answers.hello)
    throw new Error(`/health/live and /hello differ: ${answers.live} ${answers.hello}`);
}

/**
 * PostgreSQL's processes serving this run: the backends connected to its database (the
 * cluster is shared with other work, so no other database's backends and no background
 * process). Only when PostgreSQL runs on this machine (its backend's pid is in /proc).
 */
async function postgresProcesses() {
  const host = new URL(url).hostname;
  const { rows } = await db.query('select pg_backend_pid() as pid');
  const own = rows[0].pid;
  const proc = processCpu(own);
  const loopback = ['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(host);
  if (!loopback || !proc || !/postgres/.test(proc.comm))
    return { local: false, note: 'n/a (PostgreSQL is not on this machine)' };
  return {
    local: true,
    note: "utime+stime of this database's backends (pg_stat_activity), the benchmark's own left out",
    pids: async () => {
      const { rows } = await db.query(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      return rows.map((r) => r.pid);
    },
  };
}

function report(results, request) {
  const m = (t) => ({
    rps: median(results[t].map((r) => r.rps)),
    server: median(results[t].map((r) => r.server)),
    pg: results[t][0].pg === undefined ? undefined : median(results[t].map((r) => r.pg)),
  });
  const n = (x) => Math.round(x).toLocaleString('en-US');
  const cpu = (x) => (x === undefined ? 'n/a' : n(x));
  const ratio = (a, b) => pairedRatio(results[a], results[b]);
  const lines = [
    '| request | req/s | server CPU µs/req | PG CPU µs/req | ratio |',
    '|---|---|---|---|---|',
  ];
  if (groups.includes('id')) {
    for (const t of GROUPS.id) {
      const x = m(t);
      const r = t === 'floor' ? '1.00' : ratio(t, 'floor').ratio.toFixed(2);
      lines.push(`| ${request[t].label} | ${n(x.rps)} | ${cpu(x.server)} | ${cpu(x.pg)} | ${r} |`);
    }
  }
  const pair = (label, a, b) => {
    const [x, y] = [m(a), m(b)];
    const r = ratio(a, b).ratio.toFixed(2);
    lines.push(
      `| ${label} | ${n(x.rps)} vs ${n(y.rps)} | ${cpu(x.server)} vs ${cpu(y.server)} | ${cpu(x.pg)} vs ${cpu(y.pg)} | **${r}** |`,
    );
  };
  if (groups.includes('list'))
    pair(`${request.list.label} vs ${request.platformaticList.label}`, 'list', 'platformaticList');
  if (groups.includes('signed'))
    pair('svc by id, signed in, against the same request anonymous', 'signedIn', 'rest');
  if (groups.includes('profile'))
    pair('svc `GET /auth/profile` against anonymous by id', 'profile', 'rest');
  if (groups.includes('live'))
    pair('svc `/health/live` against node:http `/hello`', 'live', 'hello');
  console.log(lines.join('\n'));

  // A request's objects must die young (ARCHITECTURE, "A request's objects die young"): svc's
  // time in GC, from its /metrics, against its CPU per request.
  const gcLines = Object.entries(results)
    .filter(([, rs]) => rs[0].gc !== undefined)
    .map(([t, rs]) => {
      const all = median(rs.map((r) => r.gc.all));
      const young = median(rs.map((r) => r.gc.young));
      const share = all / median(rs.map((r) => r.server));
      return `  ${t.padEnd(17)} ${all.toFixed(1)} µs (young generation ${young.toFixed(1)}), ${(100 * share).toFixed(0)}% of its CPU`;
    });
  if (gcLines.length) {
    console.log("svc's time in garbage collection per request (its /metrics), medians:");
    console.log(gcLines.join('\n'));
  }

  console.log('each round, req/s:');
  for (const [t, rs] of Object.entries(results))
    console.log(`  ${t.padEnd(17)} ${rs.map((r) => r.rps.toFixed(0)).join(' ')}`);

  console.log("goals (issue 34; a ratio is the median of the rounds' paired ratios)");
  let failed = false;
  const goal = (label, a, b, target) => {
    if (!results[a] || !results[b]) {
      console.log(`  ${label}: not measured`);
      return;
    }
    const { ratio: r, ratios } = ratio(a, b);
    const pass = r >= target;
    failed ||= !pass;
    console.log(
      `  ${label} = ${r.toFixed(2)} (goal >= ${target}) ${pass ? 'PASS' : 'FAIL'}   rounds: ${ratios.map((x) => x.toFixed(2)).join(' ')}`,
    );
  };
  goal('GET /api/Book/{id} / Platformatic by id', 'rest', 'platformatic', 1.2);
  goal('POST /query by id / node:http + pg', 'query', 'floor', 0.6);
  goal('list of 100 / Platformatic list', 'list', 'platformaticList', 2);
  goal('signed-in by id / anonymous by id', 'signedIn', 'rest', 0.8);
  goal('GET /auth/profile / anonymous by id', 'profile', 'rest', 0.8);
  goal('/health/live / node:http /hello', 'live', 'hello', 0.6);
  if (failed && values.strict) process.exitCode = 1;
}
