// An idle svc server on an embedded data folder, as `svc serve` runs it (auth on, a schema), after
// a few requests: what svc holds on top of PGlite.
// Usage: node svc.mjs <dataDir> <settleMs>
import { createRequire } from 'node:module';
import { report } from './measure.mjs';

const require = createRequire(import.meta.url);
const { createServer } = require('../../packages/server/dist/index.js');
const [dataDir, settle] = process.argv.slice(2);
const server = await createServer({
  env: {},
  database: { dataDir },
  enableAuth: true,
  jwtSecret: 'bench-memory-secret-0123456789-abcdefghij',
  schema: 'type User {\n  required name: str;\n}\n',
  logLevel: 'silent',
});
await server.listen({ port: 0, host: '127.0.0.1' });
for (const route of ['/health/ready', '/schema', '/schema/types', '/migrations', '/metrics']) {
  const res = await fetch(`${server.url}${route}`);
  if (!res.ok) throw new Error(`${route}: ${res.status}`);
  await res.arrayBuffer();
}
await report(Number(settle));
await server.close();
