// bench/memory: resident memory of an idle svc server on an embedded data folder next to a bare
// PGlite of the same version, in one run, each measurement in a process of its own.
// Usage: node bench/memory/run.mjs [--runs 7] [--startup 2000] [--idle 45000] [--parallel 12]
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(new URL('../../packages/core/package.json', import.meta.url));
const pgliteVersion = JSON.parse(
  fs.readFileSync(
    path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'),
    'utf8',
  ),
).version;
const { PGLITE_SETTINGS } = require('../../packages/core/dist/index.js');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    startup: { type: 'string', default: '2000' },
    idle: { type: 'string', default: '45000' },
    parallel: { type: 'string', default: '12' },
  },
});
const bounded = (value, min, max) => Math.max(min, Math.min(max, Math.round(Number(value)) || min));
const runs = bounded(values.runs, 1, 20);
const startupMs = bounded(values.startup, 0, 60_000);
const idleMs = Math.max(startupMs, bounded(values.idle, 0, 600_000));
const parallel = bounded(values.parallel, 1, 32);
/** What svc's own code and state may add to a bare PGlite with the same settings (issue 8). */
const TARGET = 0.2;

const rows = [
  {
    key: 'bareNew',
    name: 'bare PGlite, new folder',
    script: 'bare.mjs',
    fresh: true,
    settings: [],
  },
  {
    key: 'bareOld',
    name: 'bare PGlite, existing folder',
    script: 'bare.mjs',
    fresh: false,
    settings: [],
  },
  {
    key: 'bareTuned',
    name: "bare PGlite + svc's settings",
    script: 'bare.mjs',
    fresh: false,
    settings: PGLITE_SETTINGS,
  },
  {
    key: 'bareAsSvc',
    name: "bare PGlite + svc's settings and WASM load",
    script: 'bare.mjs',
    fresh: false,
    settings: ['--svc-wasm', ...PGLITE_SETTINGS],
  },
  { key: 'svcNew', name: 'svc server, new folder', script: 'svc.mjs', fresh: true, settings: [] },
  {
    key: 'svcOld',
    name: 'svc server, existing folder',
    script: 'svc.mjs',
    fresh: false,
    settings: [],
  },
];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-memory-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function node(args) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { encoding: 'utf8', timeout: idleMs + 300_000 },
      (err, stdout, stderr) =>
        err
          ? reject(new Error(`${args.slice(0, 2).join(' ')}: ${stderr || err.message}`))
          : resolve(stdout),
    );
  });
}

/**
 * Every process of every row, `parallel` at a time, started a second apart and interleaved by
 * row, so that the machine's load falls on each row alike. Each process has a folder of its own:
 * a new one, or a copy of the row's existing folder (a folder is one process's database).
 */
async function measureAll() {
  const existing = {};
  for (const script of ['bare.mjs', 'svc.mjs']) {
    existing[script] = path.join(tmp, `${script}-existing`);
    await node([path.join(here, script), existing[script], '0', '0']);
  }
  const tasks = [];
  for (let run = 0; run < runs; run++)
    for (const row of rows) tasks.push({ row, dir: path.join(tmp, `${row.key}-${run}`) });
  const samples = Object.fromEntries(rows.map((row) => [row.key, []]));
  let next = 0;
  async function worker() {
    while (next < tasks.length) {
      const { row, dir } = tasks[next++];
      if (!row.fresh) fs.cpSync(existing[row.script], dir, { recursive: true });
      const out = await node([
        path.join(here, row.script),
        dir,
        String(startupMs),
        String(idleMs),
        ...row.settings,
      ]);
      samples[row.key].push(JSON.parse(out.trim().split('\n').pop()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const workers = [];
  for (let i = 0; i < Math.min(parallel, tasks.length); i++) {
    workers.push(worker());
    await sleep(1000);
  }
  await Promise.all(workers);
  return Object.fromEntries(
    rows.map(({ key }) => {
      const s = samples[key];
      const parts = s[0].parts
        ? Object.fromEntries(
            Object.keys(s[0].parts).map((k) => [k, median(s.map((x) => x.parts[k]))]),
          )
        : undefined;
      return [
        key,
        {
          startup: median(s.map((x) => x.startup)),
          idle: median(s.map((x) => x.idle)),
          range: `${Math.min(...s.map((x) => x.idle))}-${Math.max(...s.map((x) => x.idle))}`,
          peak: Math.max(...s.map((x) => x.peak)),
          parts,
        },
      ];
    }),
  );
}

try {
  const m = await measureAll();
  const pad = (v, n = 7) => String(v ?? '-').padStart(n);
  console.log(
    `Memory in MB, median of ${runs} processes per row: start-up ${startupMs / 1000} s and idle ${idleMs / 1000} s after the process is ready; peak: highest`,
  );
  console.log(
    `PGlite ${pgliteVersion}, Node ${process.versions.node}, ${os.platform()} ${os.arch()}; svc's settings: ${PGLITE_SETTINGS.join(', ')}`,
  );
  console.log(
    `${''.padEnd(44)}${pad('start-up', 9)}${pad('idle')}${pad('range', 10)}${pad('peak')}   idle: ${pad('V8 heap', 7)}${pad('WASM')}${pad('files')}${pad('other')}`,
  );
  for (const row of rows) {
    const r = m[row.key];
    console.log(
      `${row.name.padEnd(44)}${pad(r.startup, 9)}${pad(r.idle)}${pad(r.range, 10)}${pad(r.peak)}         ${pad(r.parts?.v8)}${pad(r.parts?.wasm)}${pad(r.parts?.files)}${pad(r.parts?.other)}`,
    );
  }
  const share = (a, b) =>
    `${a - b >= 0 ? '+' : ''}${a - b} MB (${(((a - b) / b) * 100).toFixed(0)}% of it)`;
  console.log(
    `svc server vs bare PGlite as its README starts it, idle: new folder ${share(m.svcNew.idle, m.bareNew.idle)}; existing folder ${share(m.svcOld.idle, m.bareOld.idle)}`,
  );
  // svc's own code and state: the server against the same PGlite started the same way (settings,
  // WASM load), both on an existing folder.
  const svc = m.svcOld;
  const bare = m.bareAsSvc;
  const verdict = (a, b) =>
    `target under ${TARGET * 100}%: ${(a - b) / b < TARGET ? 'met' : 'NOT met'}`;
  console.log(
    `svc's own code and state = svc server - bare PGlite + svc's settings and WASM load, existing folder:`,
  );
  console.log(`  idle:     ${share(svc.idle, bare.idle)}; ${verdict(svc.idle, bare.idle)}`);
  console.log(
    `  start-up: ${share(svc.startup, bare.startup)}; ${verdict(svc.startup, bare.startup)}`,
  );
  if (svc.parts && bare.parts) {
    const diff = (k) =>
      `${svc.parts[k] - bare.parts[k] >= 0 ? '+' : ''}${svc.parts[k] - bare.parts[k]}`;
    console.log(
      `  idle, by kind: V8 heap ${diff('v8')}, WASM ${diff('wasm')}, files ${diff('files')}, other ${diff('other')} (medians, so they need not add up)`,
    );
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
