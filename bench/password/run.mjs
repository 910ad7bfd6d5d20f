// bench/password: bcrypt as @svc/auth runs it (bcryptjs in its worker-thread pool) against the
// same library on the event loop (bcryptjs's async API, which yields every 100 ms of work: the
// baseline, measured in the same run), and against the native `bcrypt` addon when one can be
// loaded (it is no longer a dependency: `--native <dir>` names a folder where `require('bcrypt')`
// resolves). For each: the latency of one hash and one verify at the cost (sequential, medians),
// then `--logins` verifies with `--concurrency` in flight, as concurrent logins: their rate, and
// the event loop's delay meanwhile (what every other request waits), with ratios to the baseline.
// Usage: pnpm build && node bench/password/run.mjs [--rounds 12] [--concurrency 8] [--logins 32]
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '8' },
    logins: { type: 'string', default: '32' },
    native: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const logins = Number(values.logins);
const PASSWORD = 'correct horse battery staple';

const authRequire = createRequire(new URL('../../packages/auth/package.json', import.meta.url));
const bcryptjs = authRequire('bcryptjs');
const { bcryptPool } = authRequire('./dist/password/pool.js');

/** The native addon, when `--native` (or this checkout) has one; else undefined. */
function loadNative() {
  const from = values.native
    ? path.resolve(values.native, 'package.json')
    : new URL('../../packages/auth/package.json', import.meta.url);
  try {
    return createRequire(from)('bcrypt');
  } catch {
    return undefined;
  }
}

const pool = bcryptPool();
const variants = [
  {
    name: 'event loop (bcryptjs async)',
    hash: (p) => bcryptjs.hash(p, rounds),
    compare: (p, h) => bcryptjs.compare(p, h),
  },
  {
    name: `worker pool (${pool.size} workers)`,
    hash: (p) => pool.hash(p, rounds),
    compare: (p, h) => pool.compare(p, h),
  },
];
const native = loadNative();
if (native) {
  variants.push({
    name: 'native bcrypt (libuv pool)',
    hash: (p) => native.hash(p, rounds),
    compare: (p, h) => native.compare(p, h),
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (ns) => ns / 1e6;

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function measure(variant) {
  const hash = await variant.hash(PASSWORD); // warm-up (and the pool's first worker)
  await variant.compare(PASSWORD, hash);
  const hashes = [];
  const verifies = [];
  for (let i = 0; i < 3; i++) hashes.push(await timed(() => variant.hash(PASSWORD)));
  for (let i = 0; i < 5; i++) verifies.push(await timed(() => variant.compare(PASSWORD, hash)));

  // Concurrent logins: `logins` verifies, `concurrency` in flight; the loop's delay meanwhile.
  const loop = monitorEventLoopDelay({ resolution: 5 });
  let next = 0;
  const latencies = [];
  const worker = async () => {
    while (next < logins) {
      next++;
      latencies.push(await timed(() => variant.compare(PASSWORD, hash)));
    }
  };
  loop.enable();
  const wall = await timed(() => Promise.all(Array.from({ length: concurrency }, worker)));
  loop.disable();
  return {
    hash: median(hashes),
    verify: median(verifies),
    rate: logins / (wall / 1000),
    loginP50: median(latencies),
    loopP99: ms(loop.percentile(99)),
    loopMax: ms(loop.max),
  };
}

console.log(
  `bcrypt at cost ${rounds}; ${logins} concurrent verifies, ${concurrency} in flight; ${availableParallelism()} CPUs`,
);
if (!native)
  console.log('  (native bcrypt not loadable here: --native <dir with bcrypt installed>)');
const results = [];
for (const variant of variants) results.push({ name: variant.name, ...(await measure(variant)) });
const base = results[0];
const ratio = (a, b) => (b === 0 ? 'n/a' : `${(a / b).toFixed(2)}x`);
const pad = (s, n) => String(s).padEnd(n);
console.log(
  `  ${pad('', 30)}${pad('hash ms', 10)}${pad('verify ms', 11)}${pad('logins/s', 10)}${pad('login p50 ms', 14)}${pad('loop p99 ms', 13)}loop max ms`,
);
for (const r of results) {
  console.log(
    `  ${pad(r.name, 30)}${pad(r.hash.toFixed(0), 10)}${pad(r.verify.toFixed(0), 11)}${pad(r.rate.toFixed(2), 10)}${pad(r.loginP50.toFixed(0), 14)}${pad(r.loopP99.toFixed(1), 13)}${r.loopMax.toFixed(1)}`,
  );
}
console.log(
  'ratios to the event-loop baseline (lower latency and delay, higher rate, are better):',
);
for (const r of results.slice(1)) {
  console.log(
    `  ${pad(r.name, 30)}hash ${ratio(r.hash, base.hash)}, verify ${ratio(r.verify, base.verify)}, logins/s ${ratio(r.rate, base.rate)}, loop p99 ${ratio(r.loopP99, base.loopP99)}, loop max ${ratio(r.loopMax, base.loopMax)}`,
  );
}
await pool.close();
