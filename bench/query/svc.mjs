// svc as a user runs it: POST /query with its whole middleware chain, on the benchmark database.
// The optional second argument is more of createServer's options, as JSON (case (e): auth on, a
// service key).
// Usage (by run.mjs): node svc.mjs <database-url> [<options-json>]
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { createServer } = require('../../packages/server/dist/index.js');

const server = await createServer({
  env: {},
  database: { url: process.argv[2] },
  logLevel: 'warn',
  ...JSON.parse(process.argv[3] ?? '{}'),
});
await server.listen({ port: 0, host: '127.0.0.1' });
console.log(`port=${new URL(server.url).port}`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
