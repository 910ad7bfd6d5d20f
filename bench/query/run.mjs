// bench/query: POST /query on svc against a bare Express + `pg` handler sending the SQL svc's
// compiler produced for the same query, on real PostgreSQL, in the same run: (a) select by id
// with a 3-field shape, (b) 100 rows with a nested link shape, (c) an insert, and (d) filters and
// computed fields over 10,000 rows, whose baseline is hand-written SQL for the same answer. Prints
// p50 and req/s of each and the ratios svc/bare (goals: (a), (c) >= 0.9; (b) >= 0.8; (d) >= 1/1.2,
// svc within 1.2x of the hand-written SQL); then (e) svc against svc, a by-id read of a type with
// an owner policy by its owner (policies on) against a superuser (policies off, the same token
// check; goal on/off >= 0.8) and against the service key (no token to check); then the compile
// time of each query cold (a cache miss) and cached (the engine's lookup), in microseconds
// (goals: cached <= 20 us, a typical cold compile <= 1 ms).
// With --lane, svc with its hot lane off (`hotLane: false`: Express routes /query too) is measured
// beside svc in the same rounds of (a)-(d), with the server CPU per request of each (from
// /proc/<pid>/stat); --cases a,b picks cases (then (e) and the compile times are left out).
// Usage: pnpm build && node bench/query/run.mjs [--database-url URL] [--duration 10] [--connections 32] [--rounds 3]
//          [--lane] [--cases a,b,c,d]
//   URL: a PostgreSQL server where the user may create databases (default $DATABASE_URL, else
//   postgres://postgres@127.0.0.1:54329/postgres); a database of its own is created and dropped.
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import {
  adminUrlOf,
  median,
  medianOf,
  processCpu,
  startServer,
  stopChild,
  svcStatement,
} from '../lib/bench.mjs';
import {
  AUTHORS,
  CASES,
  NOTES,
  OWNERS,
  POLICY_CASES,
  POSTS_PER_AUTHOR,
  READINGS,
  SDL,
} from './schema.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const core = require('../../packages/core/dist/index.js');
const { compileQuery } = require('../../packages/server/dist/index.js');
const { createAuthAdmin } = require('../../packages/auth/dist/index.js');
const here = new URL('.', import.meta.url).pathname;

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
    lane: { type: 'boolean', default: false },
    cases: { type: 'string' },
  },
});
const picked = values.cases?.split(',').map((c) => c.trim());
const adminUrl = adminUrlOf(values['database-url']);
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);

// A database of our own, migrated and seeded.
const name = `svc_bench_query_${process.pid}`;
const admin = await core.openDatabase({ url: adminUrl, poolSize: 1 });
await admin.query(`create database ${name}`);
const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
const db = await core.openDatabase({ url });
const children = [];
try {
  await core.createDefaultMigrator().migrate(db, SDL);
  const { rows: authors } = await db.query(
    `insert into "default"."Author" (name, email, bio) select 'author ' || n, 'a' || n || '@example.com', 'bio of ' || n from generate_series(1, $1::int) n returning id`,
    [AUTHORS],
  );
  await db.query(
    `insert into "default"."Post" (title, body, author) select 'post ' || a.ordinality || '.' || p, 'body', a.id from unnest($1::uuid[]) with ordinality a(id, ordinality), generate_series(1, $2::int) p`,
    [authors.map((a) => a.id), POSTS_PER_AUTHOR],
  );
  await db.query(
    `insert into "default"."Reading" (name, value, ratio, taken_at) select 'reading ' || n, n, (n % 97) / 97.0, timestamptz '2024-01-01T00:00:00Z' + n * interval '37 minutes' from generate_series(1, $1::int) n`,
    [READINGS],
  );
  const seed = { authorId: authors[0].id };

  // What svc's compiler makes of each query: the bare handler sends exactly this SQL.
  const schema = core.buildSchema(SDL);
  const compiled = {};
  for (const [key, c] of Object.entries(CASES)) {
    try {
      compiled[key] = compileQuery(schema, c.query, {
        cardinality: c.cardinality,
        access: { policies: false, readOnly: false },
      });
    } catch (err) {
      console.error(`bench/query: the compiler cannot compile ${c.label}: ${err.message}`);
      process.exitCode = 1;
    }
  }
  // What compiles is measured; a case the compiler refuses is reported above (exit code 1).
  if (Object.keys(compiled).length > 0) await measureAll(schema, compiled, seed);
} finally {
  // The servers close their pools before the database is dropped under them (bounded: 10 s).
  await Promise.all(children.map(stopChild));
  await db.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.close();
}

async function measureAll(schema, compiled, seed) {
  const bareCases = Object.fromEntries(
    Object.entries(compiled).map(([key, q]) => [
      key,
      CASES[key].handWritten ? { sql: CASES[key].handWritten, params: [] } : svcStatement(q),
    ]),
  );
  const bare = await startServer(`${here}bare.mjs`, [url, JSON.stringify(bareCases)], children);
  const svc = await startServer(`${here}svc.mjs`, [url], children);
  const express = values.lane
    ? await startServer(`${here}svc.mjs`, [url, JSON.stringify({ hotLane: false })], children)
    : undefined;

  console.log(
    `bench/query: PostgreSQL, ${connections} connections, median of ${rounds} alternating rounds of ${duration} s, loopback`,
  );
  for (const [key, c] of Object.entries(CASES).filter(
    ([k]) => compiled[k] && (!picked || picked.includes(k)),
  )) {
    const body = JSON.stringify({
      query: c.query,
      variables: c.variables(seed),
      cardinality: c.cardinality,
    });
    const bareBody = JSON.stringify({ variables: c.variables(seed) });
    if (!compiled[key].writes) {
      // Both must answer the same bytes, or the comparison means nothing.
      const answers = await Promise.all([
        post(`${bare.url}/${key}`, bareBody),
        post(`${svc.url}/query`, body),
      ]);
      if (answers[0] !== answers[1])
        throw new Error(
          `${c.label}: svc and the bare handler answer differently:\n${answers.join('\n')}`,
        );
    }
    // Alternate rounds so a passing load on the machine hits both alike; report medians.
    const bs = [];
    const ss = [];
    const es = [];
    for (let round = 0; round < rounds; round++) {
      bs.push(await measure(`${bare.url}/${key}`, bareBody, undefined, bare.child.pid));
      ss.push(await measure(`${svc.url}/query`, body, undefined, svc.child.pid));
      if (express)
        es.push(await measure(`${express.url}/query`, body, undefined, express.child.pid));
    }
    const b = medianOf(bs);
    const s = medianOf(ss);
    console.log(c.label);
    console.log(`  bare express+pg ${row(b)}`);
    console.log(`  svc /query      ${row(s)}`);
    if (express) console.log(`  svc, lane off   ${row(medianOf(es))}`);
    console.log(`  ratio svc/bare = ${(s.rps / b.rps).toFixed(2)}`);
    if (express) {
      const ratios = ss.map((m, i) => m.rps / es[i].rps);
      console.log(
        `  the hot lane: svc/svc-lane-off = ${median(ratios).toFixed(2)} req/s (rounds ${ratios.map((r) => r.toFixed(2)).join(' ')}), ${(s.cpu / medianOf(es).cpu).toFixed(2)} server CPU per request`,
      );
    }
  }
  if (picked && !picked.includes('e')) return;
  const owner = await measurePolicies();

  // Compile time, in this process: cold (the compiler itself, as on a cache miss) and cached (the
  // engine's lookup of a compiled query, as on every hit).
  const engine = core.createQueryEngine({
    db,
    compile: compileQuery,
    schema: core.storedSchemaSource(db, core.createDefaultMigrator(), core.buildSchema),
  });
  const caller = { access: { policies: false, readOnly: false }, auth: core.ANONYMOUS_AUTH };
  console.log('compile time (median), microseconds');
  for (const [key, c] of Object.entries(CASES).filter(([k]) => compiled[k])) {
    const options = { cardinality: c.cardinality, access: caller.access };
    const cold = medianMicros(200, () => compileQuery(schema, c.query, options));
    const request = { query: c.query, cardinality: c.cardinality };
    await engine.prepare(request, caller);
    const cached = await medianMicrosAsync(2000, () => engine.prepare(request, caller));
    console.log(`  ${key}: cold ${cold.toFixed(0)} us, cached ${cached.toFixed(1)} us`);
  }
  // (e) as its owner runs it: compiled with policies.
  const ownerCaller = {
    access: { policies: true, readOnly: false },
    auth: { userId: owner.userId, roles: [] },
  };
  for (const [key, c] of Object.entries(POLICY_CASES)) {
    const options = { cardinality: c.cardinality, access: ownerCaller.access };
    const cold = medianMicros(200, () => compileQuery(schema, c.query, options));
    const request = { query: c.query, cardinality: c.cardinality };
    await engine.prepare(request, ownerCaller);
    const cached = await medianMicrosAsync(2000, () => engine.prepare(request, ownerCaller));
    console.log(
      `  ${key} (policies on): cold ${cold.toFixed(0)} us, cached ${cached.toFixed(1)} us`,
    );
  }
}

/**
 * Case (e): svc against svc. A server with auth on and a service key; a user signs up through it
 * (the owner) and an operator's superuser signs in; rows of Note and LinkedNote are spread over
 * OWNERS owners, the user one of them. The same by-id read of one of the user's rows is measured
 * as the owner (policies on), as the superuser (policies off, the same token check as the
 * owner's: the difference is the policy's alone; goal on/off >= 0.8) and with the service key
 * (policies off and no token to check: the difference adds the check's live-session query).
 * Returns the owner.
 */
async function measurePolicies() {
  const serviceKey = `bench-${randomBytes(24).toString('hex')}`;
  const options = { enableAuth: true, jwtSecret: randomBytes(32).toString('hex'), serviceKey };
  const server = await startServer(`${here}svc.mjs`, [url, JSON.stringify(options)], children);
  const password = 'correct horse battery staple';
  const signUp = JSON.parse(
    await postOk(
      `${server.url}/auth/register`,
      JSON.stringify({ email: `owner-${randomUUID()}@example.com`, password }),
    ),
  );
  const userId = signUp.user.id;
  const superEmail = `super-${randomUUID()}@example.com`;
  const admin = await createAuthAdmin({}, { database: db });
  try {
    await admin.createSuperuser(superEmail, password);
  } finally {
    await admin.close();
  }
  const signIn = JSON.parse(
    await postOk(`${server.url}/auth/login`, JSON.stringify({ email: superEmail, password })),
  );

  // The user owns every OWNERS-th row; the others belong to users with no account.
  const owners = [userId, ...Array.from({ length: OWNERS - 1 }, () => randomUUID())];
  await db.query(
    `insert into "default"."User" (id, name) select u, 'user ' || n from unnest($1::uuid[]) with ordinality o(u, n)`,
    [owners],
  );
  const seed = {};
  for (const [table, key] of [
    ['Note', 'noteId'],
    ['LinkedNote', 'linkedNoteId'],
  ]) {
    const { rows } = await db.query(
      `insert into "default"."${table}" (title, body, owner) select 'note ' || n, 'body of note ' || n, ($2::uuid[])[1 + n % $3] from generate_series(1, $1::int) n returning id, owner`,
      [NOTES, owners, OWNERS],
    );
    seed[key] = rows.find((r) => r.owner === userId).id;
  }
  const callers = [
    { label: 'policies off, a superuser', token: signIn.token },
    { label: 'policies on, the owner', token: signUp.token },
    { label: 'policies off, service key', token: serviceKey },
  ];

  for (const c of Object.values(POLICY_CASES)) {
    const body = JSON.stringify({
      query: c.query,
      variables: c.variables(seed),
      cardinality: c.cardinality,
    });
    // The same bytes for all three, the row itself; an anonymous caller (policies on, no user)
    // sees nothing, so the policy is in force.
    const answers = await Promise.all(
      callers.map((k) => post(`${server.url}/query`, body, k.token)),
    );
    if (answers.some((a) => a !== answers[0]) || !answers[0].startsWith('200 {"data":[{'))
      throw new Error(
        `${c.label}: the callers do not all answer the row alike:\n${answers.join('\n')}`,
      );
    const anonymous = await post(`${server.url}/query`, body);
    if (anonymous !== '200 {"data":[]}')
      throw new Error(`${c.label}: an anonymous caller sees the row: ${anonymous}`);
    // Alternating rounds, each starting with the next caller; medians.
    const ms = callers.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < callers.length; i++) {
        const k = (round + i) % callers.length;
        ms[k].push(await measure(`${server.url}/query`, body, callers[k].token, server.child.pid));
      }
    }
    const medians = ms.map(medianOf);
    const [off, on, service] = medians;
    console.log(c.label);
    for (let k = 0; k < callers.length; k++)
      console.log(`  ${callers[k].label.padEnd(26)} ${row(medians[k])}`);
    console.log(
      `  ratio on/off = ${(on.rps / off.rps).toFixed(2)} (owner/superuser: the same sign-in, the policy alone)`,
    );
    console.log(
      `  ratio owner/service key = ${(on.rps / service.rps).toFixed(2)} (adds the token's check: a session query)`,
    );
  }
  return { userId };
}

async function measure(target, body, token, pid) {
  const options = {
    url: target,
    method: 'POST',
    headers: headers(token),
    body,
    connections,
  };
  await autocannon({ ...options, duration: 2 }); // warm up: JIT, connections, prepared plans
  const before = pid === undefined ? Number.NaN : (processCpu(pid)?.micros ?? Number.NaN);
  const r = await autocannon({ ...options, duration });
  const used = (pid === undefined ? Number.NaN : (processCpu(pid)?.micros ?? Number.NaN)) - before;
  if (r.non2xx || r.errors) throw new Error(`${target}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  // The server process's CPU (user + system) per request answered, in microseconds.
  return { rps: r.requests.average, p50: r.latency.p50, cpu: used / r.requests.total };
}

function headers(token) {
  return {
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

async function post(target, body, token) {
  const res = await fetch(target, { method: 'POST', headers: headers(token), body });
  return `${res.status} ${await res.text()}`;
}

/** The body of a 2xx answer, or an error. */
async function postOk(target, body) {
  const res = await fetch(target, { method: 'POST', headers: headers(), body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${target}: ${res.status} ${text}`);
  return text;
}

function row(m) {
  const cpu = Number.isNaN(m.cpu) ? '' : `   server CPU ${m.cpu.toFixed(0)} µs/req`;
  return `${m.rps.toFixed(0).padStart(7)} req/s   p50 ${m.p50} ms${cpu}`;
}

function medianMicros(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return median(times);
}

async function medianMicrosAsync(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return median(times);
}
