// bench/memory: resident memory of an idle svc server on an embedded data folder next to a bare
// PGlite of the same version, in one run, each measurement in a process of its own.
// Usage: node bench/memory/run.mjs [--runs 3] [--settle 2000]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(new URL('../../packages/core/package.json', import.meta.url));
const pgliteVersion = JSON.parse(
  fs.readFileSync(path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8'),
).version;
const { PGLITE_SETTINGS } = require('../../packages/core/dist/index.js');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, settle: { type: 'string', default: '2000' } } });
const runs = Math.max(1, Math.min(20, Number(values.runs)));
const settle = String(Math.max(0, Math.min(60_000, Number(values.settle))));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-memory-'));
let folders = 0;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs `script` `runs` times (a new folder each time when `fresh`); median resident, highest peak. */
function measure(script, { fresh, settings = [] }) {
  const existing = path.join(tmp, `${script}-existing`);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const dir = fresh ? path.join(tmp, `${script}-${folders++}`) : existing;
    const out = execFileSync(process.execPath, [path.join(here, script), dir, settle, ...settings], { encoding: 'utf8', timeout: 300_000 });
    samples.push(JSON.parse(out.trim().split('\n').pop()));
    if (fresh) fs.rmSync(dir, { recursive: true, force: true });
  }
  return { rss: median(samples.map((s) => s.rss)), peak: Math.max(...samples.map((s) => s.peak)), heap: median(samples.map((s) => s.heap)) };
}

try {
  // An existing folder for each side, made before measuring.
  execFileSync(process.execPath, [path.join(here, 'bare.mjs'), path.join(tmp, 'bare.mjs-existing'), '0'], { timeout: 300_000 });
  execFileSync(process.execPath, [path.join(here, 'svc.mjs'), path.join(tmp, 'svc.mjs-existing'), '0'], { timeout: 300_000 });
  const rows = {
    bareNew: ['bare PGlite, new folder', measure('bare.mjs', { fresh: true })],
    bareOld: ['bare PGlite, existing folder', measure('bare.mjs', { fresh: false })],
    bareTuned: ["bare PGlite + svc's settings, existing", measure('bare.mjs', { fresh: false, settings: PGLITE_SETTINGS })],
    svcNew: ['svc server, new folder', measure('svc.mjs', { fresh: true })],
    svcOld: ['svc server, existing folder', measure('svc.mjs', { fresh: false })],
  };
  console.log(`Idle memory in MB: median of ${runs} processes each, ${settle} ms after start (peak: highest)`);
  console.log(`PGlite ${pgliteVersion}, Node ${process.versions.node}, ${os.platform()} ${os.arch()}; svc's settings: ${PGLITE_SETTINGS.join(', ')}`);
  console.log(`${''.padEnd(40)} ${'rss'.padStart(6)} ${'peak'.padStart(6)} ${'heap'.padStart(6)}`);
  for (const [name, m] of Object.values(rows)) {
    console.log(`${name.padEnd(40)} ${String(m.rss).padStart(6)} ${String(m.peak).padStart(6)} ${String(m.heap).padStart(6)}`);
  }
  const rss = (key) => rows[key][1].rss;
  const share = (a, b) => `${a - b >= 0 ? '+' : ''}${a - b} MB (${(((a - b) / b) * 100).toFixed(0)}% of it)`;
  console.log(`svc server vs bare PGlite: new folder ${share(rss('svcNew'), rss('bareNew'))}; existing folder ${share(rss('svcOld'), rss('bareOld'))}`);
  console.log(`svc's own code and state (svc server vs bare PGlite with the same settings, existing folder): ${share(rss('svcOld'), rss('bareTuned'))}`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
