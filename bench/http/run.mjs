// bench/http: requests/s of GET /health/live on svc, on bare Express and on a bare node:http
// server, measured in the same run on loopback, each server in its own process (each a tracked
// file beside this one), the load generator in this one.
// Usage: node bench/http/run.mjs [--duration 10] [--connections 32]
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const here = new URL('.', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

function startServer(script) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [here + script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 60 s`)), 60000);
    child.stdout.on('data', (d) => {
      const m = /port=(\d+)/.exec(String(d));
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${m[1]}/health/live` });
      }
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function measure(script) {
  const { child, url } = await startServer(script);
  try {
    // Warm up (JIT, connection set-up), then measure.
    await autocannon({ url, connections, duration: 2 });
    const r = await autocannon({ url, connections, duration });
    if (r.non2xx || r.errors) throw new Error(`${script}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
  } finally {
    child.kill('SIGTERM');
  }
}

const bare = await measure('bare.mjs');
const express = await measure('express.mjs');
const svc = await measure('svc.mjs');
const row = (name, m) =>
  `${name.padEnd(10)} ${m.rps.toFixed(0).padStart(8)} req/s   p50 ${m.p50} ms   p99 ${m.p99} ms`;
console.log(`GET /health/live, ${connections} connections, ${duration} s each, loopback`);
console.log(row('node:http', bare));
console.log(row('express', express));
console.log(row('svc', svc));
console.log(`ratio express/node:http = ${(express.rps / bare.rps).toFixed(2)}`);
console.log(`ratio svc/node:http = ${(svc.rps / bare.rps).toFixed(2)}`);
