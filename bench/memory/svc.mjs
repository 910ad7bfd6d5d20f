// An idle svc server on an embedded data folder, as `svc serve` runs it (auth on, a schema), after
// a few requests: what svc holds on top of PGlite. The requests come from another process, as a
// server's clients do: an HTTP client here (fetch loads undici) would count against the server.
// Usage: node svc.mjs <dataDir> <startupMs> <idleMs>
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { report } from './measure.mjs';

const require = createRequire(import.meta.url);
const { createServer } = require('../../packages/server/dist/index.js');
const [dataDir, startup, idle] = process.argv.slice(2);
const server = await createServer({
  env: {},
  database: { dataDir },
  enableAuth: true,
  jwtSecret: 'bench-memory-secret-0123456789-abcdefghij',
  schema: 'type User {\n  required name: str;\n}\n',
  logLevel: 'silent',
});
await server.listen({ port: 0, host: '127.0.0.1' });
const client = `(async () => {
  for (const route of ['/health/ready', '/schema', '/schema/types', '/migrations', '/metrics']) {
    const res = await fetch(process.argv[1] + route);
    if (!res.ok) throw new Error(route + ': ' + res.status);
    await res.arrayBuffer();
  }
})().catch((err) => { console.error(err.message); process.exit(1); });`;
await new Promise((resolve, reject) => {
  execFile(
    process.execPath,
    ['-e', client, server.url],
    { timeout: 60_000 },
    (err, _out, stderr) =>
      err ? reject(new Error(`requests failed: ${stderr || err.message}`)) : resolve(),
  );
});
await report(Number(startup), Number(idle));
await server.close();
