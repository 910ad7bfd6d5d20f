// The load generator when wrk is not on PATH: autocannon in a process of its own, so its CPU is
// never counted as a server's nor taken from the benchmark's. Given {url, method, headers, body,
// warmup, duration, connections} as JSON: warms up, prints `warm`, waits for a line on stdin (the
// benchmark samples CPU then), measures, and prints {requests, duration, p50, non2xx, errors}.
// Usage (by bench.mjs): node autocannon-child.mjs <spec-json>
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { url, method, headers, body, warmup, duration, connections } = JSON.parse(process.argv[2]);
const options = { url, method: method ?? 'GET', headers, body, connections };

const warm = await autocannon({ ...options, duration: warmup });
if (warm.non2xx || warm.errors) {
  console.error(`${url}: ${warm.non2xx} non-2xx, ${warm.errors} errors while warming up`);
  process.exit(1);
}
process.stdout.write('warm\n');
await new Promise((resolve) => {
  process.stdin.once('data', resolve);
  process.stdin.once('end', resolve);
});
// What went wrong, when something did: the first error of each kind.
const kinds = {};
const instance = autocannon({ ...options, duration });
instance.on('reqError', (err) => {
  kinds[err.code ?? err.message] ??= err.message;
});
const r = await instance;
process.stdout.write(
  JSON.stringify({
    requests: r.requests.total,
    duration: r.duration,
    p50: r.latency.p50,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    kinds,
  }),
);
