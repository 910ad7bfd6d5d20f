// Helpers the benchmarks share: child servers (started, tracked, stopped), a database of a run's
// own (created, dropped), Platformatic DB's install (bench/rest/platformatic), medians and paired
// ratios, the CPU a process has used (/proc), and a load generator outside the benchmark's own
// process (wrk when it is on PATH, else autocannon in a child process).
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;

/** Where Platformatic DB lives: its own lock file, outside the pnpm workspace. */
/**
 * The statement svc's engine runs for a compiled query, for a baseline to run the same:
 * `elementsSql` (the result array's inside, NULL for none) when the compiler gave one, else `sql`
 * (the whole array). `params`: the variables' names in order.
 */
export function svcStatement(compiled) {
  const elements = compiled.elementsSql !== undefined;
  return {
    sql: elements ? compiled.elementsSql : compiled.sql,
    elements,
    params: compiled.params.map((p) => p.name),
  };
}

export const PLATFORMATIC_DIR = new URL('../rest/platformatic', import.meta.url).pathname;

/** The PostgreSQL a benchmark creates its database on: the flag, $DATABASE_URL, the dev server. */
export function adminUrlOf(flag, fallback = 'postgres://postgres@127.0.0.1:54329/postgres') {
  return flag ?? process.env.DATABASE_URL ?? fallback;
}

/** A URL naming database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl, name) {
  return Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
}

/** Platformatic lives outside the pnpm workspace: its own lock file, installed on first use. */
export function installPlatformatic(log = 'bench') {
  const dir = PLATFORMATIC_DIR;
  if (existsSync(`${dir}/node_modules/@platformatic/db/package.json`)) return;
  console.log(`${log}: first run: installing Platformatic DB (npm ci in bench/rest/platformatic)`);
  // No install scripts: over PostgreSQL it needs none (they build optional SQLite bindings).
  const r = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: dir,
    stdio: 'inherit',
    timeout: 600_000,
  });
  if (r.status !== 0) throw new Error(`npm ci in ${dir} failed (${r.error?.message ?? r.status})`);
}

/** The installed Platformatic DB's version. */
export function platformaticVersion() {
  return JSON.parse(
    readFileSync(`${PLATFORMATIC_DIR}/node_modules/@platformatic/db/package.json`, 'utf8'),
  ).version;
}

/** Stops a child: SIGTERM, then SIGKILL after 10 s (bounded). */
export function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `node <script> ...args`, tracked in `children`, and resolves once it prints
 * `port=<n>`, with the child and its URL (`http://127.0.0.1:<n>`); rejects after 60 s or if it
 * exits first.
 */
export function startServer(script, args, children) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 60 s`)), 60000);
    child.stdout.on('data', (d) => {
      const m = /port=(\d+)/.exec(String(d));
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${m[1]}` });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}`));
    });
  });
}

/**
 * The TCP port process `pid` listens on (Linux: its socket inodes in /proc/<pid>/fd matched with
 * /proc/net/tcp{,6} in state LISTEN), waiting for it every 100 ms, at most `ms`. For a server
 * started with port 0 that does not print its port: a port picked beforehand could be taken by
 * another program before the server binds it, on a machine shared with other work.
 */
export async function listeningPort(child, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before listening`);
    const port = listeningPortNow(child.pid);
    if (port !== undefined) return port;
    if (Date.now() > deadline) throw new Error(`the server did not listen in ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function listeningPortNow(pid) {
  const inodes = new Set();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return undefined;
  }
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is f[1] (hex address:port), st f[3] (0A: LISTEN), inode f[9].
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9]))
        return Number.parseInt(f[1].split(':')[1], 16);
    }
  }
  return undefined;
}

/** Waits until GET `url` answers 200 (every 100 ms, at most `ms`). */
export async function waitForOk(url, ms, child) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before ${url}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 in ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

export function medianOf(ms) {
  return {
    rps: median(ms.map((m) => m.rps)),
    p50: median(ms.map((m) => m.p50)),
    // A round's server CPU per request, where the benchmark measured it (bench/rest, bench/query).
    ...(ms.some((m) => m.cpu !== undefined) ? { cpu: median(ms.map((m) => m.cpu)) } : {}),
  };
}

/** Round i of `a` against round i of `b`: the median of those ratios, and each of them. */
export function pairedRatio(a, b, key = 'rps') {
  const ratios = a.map((m, i) => m[key] / b[i][key]);
  return { ratio: median(ratios), ratios };
}

/**
 * Whether a value svc's SQL wrote equals one Platformatic wrote: the same, or int64 as a string,
 * or the same instant with other digits (Platformatic writes datetimes with milliseconds).
 */
export function sameValue(svc, other) {
  if (svc === other) return true;
  if (typeof svc === 'number' && typeof other === 'string') return String(svc) === other;
  if (typeof svc === 'string' && typeof other === 'string') {
    const [a, b] = [Date.parse(svc), Date.parse(other)];
    return /^\d{4}-\d\d-\d\dT/.test(svc) && !Number.isNaN(a) && a === b;
  }
  return false;
}

/**
 * Throws unless `got` (Platformatic's rows) are `want` (svc's) row for row: the same keys, the
 * same values by `sameValue`.
 */
export function checkSameRows(label, want, got) {
  if (got.length !== want.length)
    throw new Error(`${label}: Platformatic answers ${got.length} rows, svc's SQL ${want.length}`);
  want.forEach((w, i) => {
    const g = got[i];
    const keys = Object.keys(w).sort().join();
    if (Object.keys(g).sort().join() !== keys)
      throw new Error(
        `${label}: row ${i}: Platformatic's fields ${Object.keys(g)}, svc's SQL's ${Object.keys(w)}`,
      );
    for (const [field, value] of Object.entries(w)) {
      if (!sameValue(value, g[field]))
        throw new Error(
          `${label}: row ${i} (${w.id}) ${field}: svc's SQL ${JSON.stringify(value)}, Platformatic ${JSON.stringify(g[field])}`,
        );
    }
  });
}

// ---- CPU from /proc ----------------------------------------------------------------------

const CLK_TCK = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 });
  const n = Number(String(r.stdout ?? '').trim());
  return Number.isInteger(n) && n > 0 ? n : 100;
})();

/**
 * A process's CPU so far, in microseconds (utime + stime of every thread), with its start time
 * (to tell a reused pid) and parent pid; undefined when there is no such process.
 */
export function processCpu(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces: fields count from after it.
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const f = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // f[0] is field 3 (state): utime is field 14, stime 15, starttime 22, ppid 4.
  return {
    comm,
    ppid: Number(f[1]),
    micros: ((Number(f[11]) + Number(f[12])) * 1e6) / CLK_TCK,
    start: f[19],
  };
}

/** Sums the CPU of `pids` (missing ones count nothing): a Map pid -> {micros, start}. */
export function sampleCpu(pids) {
  const out = new Map();
  for (const pid of pids) {
    const c = processCpu(pid);
    if (c) out.set(pid, c);
  }
  return out;
}

/**
 * The CPU used between two samples: each process in both (with the same start time) counts its
 * difference; one that started in between counts all it used; one that ended counts nothing.
 */
export function cpuBetween(before, after) {
  let micros = 0;
  for (const [pid, a] of after) {
    const b = before.get(pid);
    micros += b && b.start === a.start ? a.micros - b.micros : a.micros;
  }
  return micros;
}

// ---- load generator ------------------------------------------------------------------------

/**
 * `wrk` when it is on PATH, else autocannon in a child process; `choice` (`wrk`, `autocannon`)
 * asks for one (wrk missing is then an error).
 */
export function loadGenerator(choice = 'auto') {
  if (!['auto', 'wrk', 'autocannon'].includes(choice))
    throw new Error(`--load: wrk, autocannon or auto, not ${choice}`);
  if (choice !== 'autocannon') {
    const r = spawnSync('wrk', ['--version'], { encoding: 'utf8', timeout: 5000 });
    if (r.error === undefined && /wrk/.test(`${r.stdout}${r.stderr}`)) {
      const version = /wrk (\S+)/.exec(`${r.stdout}${r.stderr}`)?.[1] ?? '';
      return { name: 'wrk', label: `wrk ${version} -t1` };
    }
    if (choice === 'wrk') throw new Error('--load wrk: wrk is not on PATH');
  }
  const version = JSON.parse(
    readFileSync(new URL('../../node_modules/autocannon/package.json', import.meta.url), 'utf8'),
  ).version;
  return { name: 'autocannon', label: `autocannon ${version} in a child process` };
}

/**
 * One measured round against `target` ({url, method, headers, body}): `warmup` seconds of load,
 * then `before()`, `duration` seconds of load, `after()`. Resolves with req/s, p50 (ms), the
 * requests answered in the measured part and what `before`/`after` gave. Every response must
 * be 2xx with no socket error. The generator runs as a child process (tracked in `children`),
 * never in this one. Bounded: a generator that overruns by 60 s is killed.
 */
export async function loadRound(generator, target, options, children) {
  const { warmup, duration, connections, before, after } = options;
  if (generator.name === 'wrk') {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-wrk-'));
    try {
      const script = join(dir, 'request.lua');
      writeFileSync(script, wrkScript(target));
      await runWrk(target.url, script, warmup, connections, children);
      const start = await before();
      const r = await runWrk(target.url, script, duration, connections, children);
      const end = await after();
      return { ...r, before: start, after: end };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return runAutocannon(target, options, children);
}

/** The Lua script telling wrk the method, headers and body (long strings: no escaping). */
function wrkScript(target) {
  const long = (s) => {
    let eq = '';
    while (s.includes(`]${eq}]`)) eq += '=';
    return `[${eq}[${s}]${eq}]`;
  };
  const lines = [`wrk.method = ${long(target.method ?? 'GET')}`];
  for (const [k, v] of Object.entries(target.headers ?? {}))
    lines.push(`wrk.headers[ ${long(k)} ] = ${long(v)}`);
  if (target.body !== undefined) lines.push(`wrk.body = ${long(target.body)}`);
  return `${lines.join('\n')}\n`;
}

function runWrk(url, script, seconds, connections, children) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, url];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`wrk ${url}: exit ${code ?? signal}\n${out}`));
      // wrk goes on without a script it cannot run (a request without its headers or body).
      if (out.includes(script)) return reject(new Error(`wrk ${url}: the script failed\n${out}`));
      const requests = /(\d+) requests in ([\d.]+)(ms|s|m)\b/.exec(out);
      const p50 = /50%\s+([\d.]+)(us|ms|s)/.exec(out);
      if (!requests || !p50) return reject(new Error(`wrk ${url}: cannot read its output\n${out}`));
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
        out,
      );
      const errors = socket ? socket.slice(1).reduce((s, n) => s + Number(n), 0) : 0;
      if (non2xx || errors)
        return reject(new Error(`${url}: ${non2xx} non-2xx, ${errors} socket errors\n${out}`));
      const secs = Number(requests[2]) * { ms: 1e-3, s: 1, m: 60 }[requests[3]];
      const scale = { us: 1e-3, ms: 1, s: 1000 }[p50[2]];
      resolve({
        rps: Number(requests[1]) / secs,
        p50: Number(p50[1]) * scale,
        requests: Number(requests[1]),
      });
    });
  });
}

/**
 * autocannon in a child (autocannon-child.mjs): it warms up, says `warm`, waits for `go` on
 * its stdin (after `before()`), measures, and prints its result as JSON.
 */
function runAutocannon(target, options, children) {
  const { warmup, duration, connections, before, after } = options;
  const spec = JSON.stringify({ ...target, warmup, duration, connections });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${here}autocannon-child.mjs`, spec], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    let started = false;
    let start;
    let failure;
    const timer = setTimeout(() => child.kill('SIGKILL'), (warmup + duration + 60) * 1000);
    child.stdout.on('data', (d) => {
      out += d;
      if (!started && out.startsWith('warm\n')) {
        started = true;
        before().then(
          (s) => {
            start = s;
            child.stdin.end('go\n');
          },
          (err) => {
            failure = err;
            child.kill('SIGTERM');
          },
        );
      }
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (code !== 0) return reject(new Error(`autocannon ${target.url}: exit ${code ?? signal}`));
      const r = JSON.parse(out.slice('warm\n'.length));
      if (r.non2xx || r.errors)
        return reject(
          new Error(
            `${target.url}: ${r.non2xx} non-2xx, ${r.errors} errors ${JSON.stringify(r.kinds)}`,
          ),
        );
      after().then(
        (end) =>
          resolve({
            rps: r.requests / r.duration,
            p50: r.p50,
            requests: r.requests,
            before: start,
            after: end,
          }),
        reject,
      );
    });
  });
}
