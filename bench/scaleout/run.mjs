// bench/scaleout: the scale-out test bed (issue 33). Starts, on loopback free ports in a temporary
// folder, a PostgreSQL primary and a streaming replica (pg_basebackup -R), PgBouncer in
// transaction mode in front of the primary, three `svc serve` processes (through PgBouncer,
// `prepared_statements = false`, the replica in `replica_urls`, one shared jwt_secret) and nginx
// balancing the three; then checks, failing with exit code 1 and a message:
//   - reads are served by the replica (`X-Svc-Served-By: replica`);
//   - read-your-writes: a REST POST answers its row, and a read with `X-Svc-Read: primary` right
//     after it sees the row, served by the primary;
//   - the replica stopped under a read load costs no failed request (reads fall back);
//   - one svc process SIGKILLed under a write load through the balancer loses no acknowledged
//     write (every acknowledged insert is a row on the primary);
// and prints the per-request overhead of each hop (median latency of a trivial read, sequential,
// one at a time). On a machine of two cores throughput is not meaningful: none is measured.
// Everything it started is stopped and its folder removed at the end, on failure and on Ctrl-C.
// Usage: pnpm build && node bench/scaleout/run.mjs [--samples 400] [--balancer nginx|node]
//   Needs Debian's postgresql, pgbouncer and nginx (apt-get install postgresql pgbouncer
//   nginx). `--balancer node` puts a small round-robin proxy written in Node in nginx's
//   place, for a machine without nginx (its hop is then Node's, not nginx's).
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const root = new URL('../..', import.meta.url).pathname;
const pg = createRequire(`${root}packages/core/package.json`)('pg');
const SVC = `${root}packages/cli/bin/svc.js`;

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '400' },
    balancer: { type: 'string', default: 'nginx' },
  },
});
const samples = Number(values.samples);
if (!Number.isInteger(samples) || samples < 10 || samples > 100_000)
  fail('--samples: a whole number from 10 to 100000');
if (!['nginx', 'node'].includes(values.balancer)) fail('--balancer: nginx or node');

/** The newest Debian PostgreSQL's programs. */
const PGBIN = (() => {
  const dir = '/usr/lib/postgresql';
  const versions = fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((v) => fs.existsSync(path.join(dir, v, 'bin', 'pg_ctl')))
    : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).pop();
  return newest === undefined ? undefined : path.join(dir, newest, 'bin');
})();
const which = (name, extra = []) =>
  [...extra, ...(process.env.PATH ?? '').split(':').map((d) => path.join(d, name))].find(
    (p) => p && fs.existsSync(p),
  );
const PGBOUNCER = which('pgbouncer', ['/usr/sbin/pgbouncer']);
const NGINX = which('nginx', ['/usr/sbin/nginx']);
const missing = [];
if (!PGBIN) missing.push('PostgreSQL (apt-get install postgresql)');
if (!PGBOUNCER) missing.push('pgbouncer (apt-get install pgbouncer)');
if (values.balancer === 'nginx' && !NGINX)
  missing.push(
    'nginx (apt-get install nginx; or run with --balancer node for a Node round-robin proxy in its place)',
  );
if (!fs.existsSync(`${root}packages/cli/dist`)) missing.push('a build (pnpm build)');
if (missing.length > 0) fail(`missing: ${missing.join('; ')}`);

// ---------------------------------------------------------------------------------------------
// What was started, stopped by `cleanup` whatever happens.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-scaleout-'));
fs.chmodSync(dir, 0o777);
const children = new Set();
const clusters = new Set();
const closers = [];
let cleaning;
let interrupted = false;
function cleanup() {
  cleaning ??= (async () => {
    for (const close of closers.splice(0)) await close().catch(() => {});
    await Promise.all([...children].map(stopChild));
    for (const data of clusters) {
      try {
        pgRun('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop']);
      } catch {
        // stopped already
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`bench/scaleout: ${signal}, stopping everything`);
    cleanup().finally(() => process.exit(130));
  });
}

/** As `postgres` (PostgreSQL) or `nobody` (pgbouncer) when this process is root. */
function runAs(user) {
  if (process.getuid?.() !== 0) return {};
  const id = (flag) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
function pgRun(program, args) {
  return execFileSync(path.join(PGBIN, program), args, {
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...runAs('postgres'),
  });
}
function pgRunAsync(program, args) {
  return new Promise((resolve, reject) =>
    execFile(path.join(PGBIN, program), args, { timeout: 60_000, ...runAs('postgres') }, (err) =>
      err ? reject(err) : resolve(),
    ),
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Polls `check` every 100 ms until it returns true; fails past `ms`. */
async function until(what, ms, check) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${ms} ms`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const portOpen = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Spawns a long-running child, its output kept for a failure's message. */
function start(name, command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  child.label = name;
  child.output = [];
  const keep = (d) => {
    child.output.push(String(d));
    if (child.output.length > 200) child.output.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
async function waitForPort(child, port, ms) {
  await until(`${child.label} listening on 127.0.0.1:${port}`, ms, async () => {
    if (child.exitCode !== null)
      throw new Error(`${child.label} exited (${child.exitCode}):\n${child.output.join('')}`);
    return portOpen(port);
  }).catch((err) => {
    throw new Error(`${err.message}\n${child.output.join('').slice(-2000)}`);
  });
}

function fail(message) {
  console.error(`bench/scaleout: ${message}`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// The bed.
async function startPostgres() {
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primary = path.join(dir, 'primary');
  const replica = path.join(dir, 'replica');
  pgRun('initdb', ['-D', primary, '-A', 'trust', '-U', 'postgres']);
  const options = (port) =>
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  clusters.add(primary);
  pgRun('pg_ctl', [
    ...['-D', primary, '-l', path.join(dir, 'primary.log'), '-w', '-t', '30', '-o'],
    `${options(primaryPort)} -c wal_level=replica -c max_wal_senders=4`,
    'start',
  ]);
  pgRun('pg_basebackup', [
    ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replica],
    ...['-R', '-X', 'stream'],
  ]);
  clusters.add(replica);
  pgRun('pg_ctl', [
    ...['-D', replica, '-l', path.join(dir, 'replica.log'), '-w', '-t', '30', '-o'],
    `${options(replicaPort)} -c hot_standby=on`,
    'start',
  ]);
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
    stopReplica: () =>
      pgRunAsync('pg_ctl', ['-D', replica, '-m', 'fast', '-w', '-t', '30', 'stop']),
  };
}

async function startPgbouncer(primaryUrl) {
  const direct = new URL(primaryUrl);
  const port = await freePort();
  const conf = path.join(dir, 'pgbouncer');
  fs.mkdirSync(conf);
  fs.chmodSync(conf, 0o755);
  fs.writeFileSync(path.join(conf, 'userlist.txt'), '"postgres" ""\n');
  fs.writeFileSync(
    path.join(conf, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=127.0.0.1 port=${direct.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(conf, 'userlist.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 20',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  // pgbouncer refuses to run as root.
  const child = start('pgbouncer', PGBOUNCER, [path.join(conf, 'pgbouncer.ini')], runAs('nobody'));
  await waitForPort(child, port, 10_000);
  return Object.assign(new URL(primaryUrl), { port: String(port) }).toString();
}

const SCHEMA = 'module default { type Note { required text: str; } }\n';
const JWT_SECRET = 'scaleout-bench-shared-secret-0123456789abcdef';

async function startSvc(index, viaBouncer, replicaUrl) {
  const home = path.join(dir, `svc${index}`);
  fs.mkdirSync(home);
  const port = await freePort();
  fs.writeFileSync(
    path.join(home, 'svc.toml'),
    [
      '[server]',
      'enable_auth = true',
      `jwt_secret = "${JWT_SECRET}"`,
      'log_level = "warn"',
      '[database]',
      `url = "${viaBouncer}"`,
      'pool_size = 5',
      'prepared_statements = false',
      `replica_urls = ["${replicaUrl}"]`,
      '',
    ].join('\n'),
  );
  const child = start(
    `svc ${index}`,
    process.execPath,
    [SVC, 'serve', '--config', 'svc.toml', '--port', String(port), '--log-format', 'json'],
    { cwd: home, env: { ...process.env, NODE_ENV: 'production' } },
  );
  await waitForPort(child, port, 60_000);
  return { child, url: `http://127.0.0.1:${port}`, port };
}

async function startNginx(ports) {
  const port = await freePort();
  const home = path.join(dir, 'nginx');
  fs.mkdirSync(home);
  fs.chmodSync(home, 0o777);
  const conf = path.join(home, 'nginx.conf');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `  ${t}_temp_path ${path.join(home, t)};`)
    .join('\n');
  fs.writeFileSync(
    conf,
    `worker_processes 1;
pid ${path.join(home, 'nginx.pid')};
error_log ${path.join(home, 'error.log')} warn;
${process.getuid?.() === 0 ? 'user nobody nogroup;' : ''}
events { worker_connections 1024; }
http {
  access_log off;
${temp}
  upstream svc {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://svc;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_next_upstream error timeout;
    }
  }
}
`,
  );
  const child = start('nginx', NGINX, [
    ...['-p', home, '-c', conf, '-e', path.join(home, 'error.log'), '-g', 'daemon off;'],
  ]);
  await waitForPort(child, port, 10_000);
  return `http://127.0.0.1:${port}`;
}

/**
 * For a machine without nginx: round-robin over the upstreams; a connection refused (nothing sent
 * yet) goes to the next one, as nginx's `proxy_next_upstream error` does; anything else is 502.
 */
async function startNodeBalancer(ports) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (left) => {
        const port = ports[next++ % ports.length];
        const up = http.request(
          {
            host: '127.0.0.1',
            port,
            method: req.method,
            path: req.url,
            headers: req.headers,
            agent,
          },
          (answer) => {
            res.writeHead(answer.statusCode, answer.headers);
            answer.pipe(res);
          },
        );
        up.on('error', (err) => {
          if (err.code === 'ECONNREFUSED' && left > 1) return attempt(left - 1);
          if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        up.end(body);
      };
      attempt(ports.length);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  closers.push(async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${server.address().port}`;
}

// ---------------------------------------------------------------------------------------------
// Requests.
async function query(base, edgeql, headers = {}) {
  const res = await fetch(`${base}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: edgeql }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.json().catch(() => null);
  return { status: res.status, servedBy: res.headers.get('x-svc-served-by'), body };
}
function check(ok, message) {
  if (!ok) throw new Error(message);
}

/** Median and 90th percentile of `samples` sequential calls, in ms, after a warm-up. */
async function latency(fn) {
  for (let i = 0; i < 50; i++) await fn();
  const times = [];
  for (let i = 0; i < samples; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] };
}

/** `workers` loops calling `fn(i)` until `stop()` says so; each call's outcome is counted. */
function load(workers, fn) {
  let running = true;
  const outcomes = { ok: 0, failed: 0, errors: [] };
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; running && i < 1_000_000; i++) {
      try {
        await fn(`${w}-${i}`);
        outcomes.ok++;
      } catch (err) {
        outcomes.failed++;
        if (outcomes.errors.length < 5) outcomes.errors.push(err.message);
      }
    }
  });
  return {
    outcomes,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

/** `502: 12, no answer: 3`: the statuses of the requests that failed, and those without one. */
function describeFailures(statuses, failed) {
  const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
  const parts = Object.entries(statuses).map(([status, n]) => `${status}: ${n}`);
  if (failed > answered) parts.push(`no answer: ${failed - answered}`);
  return parts.join(', ') || 'none';
}

// ---------------------------------------------------------------------------------------------
async function main() {
  const t0 = Date.now();
  const { primaryUrl, replicaUrl, stopReplica } = await startPostgres();
  const bouncerUrl = await startPgbouncer(primaryUrl);
  // The schema, migrated once on the primary; the three servers read it from there.
  fs.writeFileSync(path.join(dir, 'schema.esdl'), SCHEMA);
  execFileSync(
    process.execPath,
    [SVC, 'migrate', '--schema', 'schema.esdl', '--database-url', primaryUrl],
    { cwd: dir, timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const svcs = await Promise.all([0, 1, 2].map((i) => startSvc(i, bouncerUrl, replicaUrl)));
  const ports = svcs.map((s) => s.port);
  const balancer =
    values.balancer === 'nginx' ? await startNginx(ports) : await startNodeBalancer(ports);
  const balancerName = values.balancer === 'nginx' ? 'nginx' : 'Node round-robin proxy';
  console.log(
    `bench/scaleout: PostgreSQL ${path.basename(path.dirname(PGBIN))} primary + streaming replica, PgBouncer (transaction mode), 3 svc serve, ${balancerName}; loopback; up in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );

  // 1. Reads are served by the replica (once each server's check has found it well).
  for (const s of svcs) {
    await until(`svc on port ${s.port} serving reads from the replica`, 20_000, async () => {
      const a = await query(s.url, 'select count(Note)');
      return a.status === 200 && a.servedBy === 'replica';
    });
  }
  const read = await query(balancer, 'select count(Note)');
  check(
    read.status === 200 && read.servedBy === 'replica',
    `a read through ${balancerName}: ${read.status}, served by ${read.servedBy}, not 200 from the replica`,
  );
  console.log('  ok   reads are served by the replica (X-Svc-Served-By: replica), on each process');

  // 2. Read-your-writes: a REST POST answers its row; a read asking for the primary sees it.
  const posted = await fetch(`${balancer}/api/Note`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'read-your-writes' }),
    signal: AbortSignal.timeout(10_000),
  });
  const row = await posted.json();
  check(
    posted.status === 201 && row.text === 'read-your-writes' && typeof row.id === 'string',
    `REST POST /api/Note: ${posted.status} ${JSON.stringify(row)}, not 201 with the row`,
  );
  check(
    posted.headers.get('x-svc-served-by') === 'primary',
    `REST POST /api/Note served by ${posted.headers.get('x-svc-served-by')}, not the primary`,
  );
  for (const s of svcs) {
    const got = await fetch(`${s.url}/api/Note/${row.id}`, {
      headers: { 'x-svc-read': 'primary' },
      signal: AbortSignal.timeout(10_000),
    });
    const body = await got.json();
    check(
      got.status === 200 && body.id === row.id && got.headers.get('x-svc-served-by') === 'primary',
      `GET /api/Note/{id} with X-Svc-Read: primary right after the POST, on port ${s.port}: ${got.status}, served by ${got.headers.get('x-svc-served-by')}, ${JSON.stringify(body)}`,
    );
  }
  console.log(
    '  ok   read-your-writes: REST POST answers its row (primary); X-Svc-Read: primary sees it on every process',
  );

  // 3. The hops, one request at a time: a trivial read at each layer.
  const bounded = { connectionTimeoutMillis: 10_000, query_timeout: 10_000 };
  const direct = new pg.Client({ connectionString: primaryUrl, ...bounded });
  const pooled = new pg.Client({ connectionString: bouncerUrl, ...bounded });
  await direct.connect();
  await pooled.connect();
  closers.push(
    () => direct.end(),
    () => pooled.end(),
  );
  const primary = { 'x-svc-read': 'primary' };
  const ok = async (p) => {
    const a = await p;
    if (a.status !== 200) throw new Error(`a trivial read answered ${a.status}`);
  };
  const hops = {
    pg: await latency(() => direct.query('select 1')),
    bouncer: await latency(() => pooled.query('select 1')),
    svcPrimary: await latency(() => ok(query(svcs[0].url, 'select 1', primary))),
    svcReplica: await latency(() => ok(query(svcs[0].url, 'select 1'))),
    balancer: await latency(() => ok(query(balancer, 'select 1', primary))),
  };
  const ms = (x) => `${x.toFixed(3).padStart(7)} ms`;
  const line = (label, m) =>
    console.log(`  ${label.padEnd(62)} p50 ${ms(m.p50)}  p90 ${ms(m.p90)}`);
  console.log(`per-request latency, ${samples} sequential requests each (after 50 of warm-up)`);
  line("pg 'select 1', directly to the primary", hops.pg);
  line("pg 'select 1', through PgBouncer", hops.bouncer);
  line("svc POST /query 'select 1', X-Svc-Read: primary (PgBouncer)", hops.svcPrimary);
  line("svc POST /query 'select 1' on the replica", hops.svcReplica);
  line(`the same as primary through ${balancerName}`, hops.balancer);
  console.log('overhead of each hop (difference of the medians)');
  const hop = (label, a, b) => console.log(`  ${label.padEnd(62)} ${ms(a.p50 - b.p50)}`);
  hop('PgBouncer', hops.bouncer, hops.pg);
  hop('svc (HTTP, EdgeQL from its compile cache, its pool)', hops.svcPrimary, hops.bouncer);
  hop(balancerName, hops.balancer, hops.svcPrimary);
  console.log(
    '  (latency only: on a machine of two cores, shared by PostgreSQL, PgBouncer, three svc, the balancer and this client, throughput is not meaningful and none is claimed)',
  );

  // 4. The replica stopped under a read load: no request fails; reads move to the primary.
  const reads = load(8, async () => {
    const a = await query(balancer, 'select count(Note)');
    if (a.status !== 200) throw new Error(`${a.status} ${JSON.stringify(a.body)}`);
  });
  await sleep(1_000);
  const before = reads.outcomes.ok;
  await stopReplica();
  await sleep(3_000);
  const readOutcome = await reads.stop();
  check(
    readOutcome.failed === 0,
    `the replica stopped under a read load: ${readOutcome.failed} of ${readOutcome.ok + readOutcome.failed} reads failed: ${readOutcome.errors.join('; ')}`,
  );
  for (const s of svcs) {
    const a = await query(s.url, 'select count(Note)');
    check(
      a.status === 200 && a.servedBy === 'primary',
      `after the replica stopped, a read on port ${s.port}: ${a.status}, served by ${a.servedBy}, not 200 from the primary`,
    );
  }
  console.log(
    `  ok   replica stopped under load: ${readOutcome.ok} reads (${before} before the stop), none failed; reads now on the primary`,
  );

  // 5. One svc process SIGKILLed under a write load through the balancer.
  const acked = new Set();
  const statuses = {};
  const writes = load(8, async (key) => {
    const text = `w-${key}`;
    const a = await query(balancer, `insert Note { text := '${text}' }`);
    if (a.status === 200) acked.add(text);
    else {
      statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      throw new Error(`${a.status} ${JSON.stringify(a.body)}`);
    }
  });
  await sleep(1_000);
  const victim = svcs[1];
  victim.child.kill('SIGKILL');
  await sleep(3_000);
  const writeOutcome = await writes.stop();
  const counted = await direct.query(`select text from "default"."Note" where text like 'w-%'`);
  const rows = new Set(counted.rows.map((r) => r.text));
  const lost = [...acked].filter((t) => !rows.has(t));
  check(acked.size > 0, 'no write was acknowledged under the write load');
  check(
    lost.length === 0,
    `a killed svc process lost ${lost.length} acknowledged writes (e.g. ${lost.slice(0, 3).join(', ')})`,
  );
  console.log(
    `  ok   svc process on port ${victim.port} SIGKILLed under a write load: ${acked.size} inserts acknowledged, all ${acked.size} are rows (${rows.size} rows; ${writeOutcome.failed} not acknowledged: ${describeFailures(statuses, writeOutcome.failed)})`,
  );
  console.log('PASS');
}

try {
  await main();
} catch (err) {
  // After Ctrl-C, what fails is only what the stopping took away.
  if (!interrupted) console.error(`bench/scaleout: FAIL: ${err.message}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
