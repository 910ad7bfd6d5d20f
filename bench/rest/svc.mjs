// svc as a user runs it: the REST routes (`/api/*`) with the whole middleware chain, on the
// benchmark database; with `express`, its hot lane off (Express routes `/api/*` too).
// Usage (by run.mjs): node svc.mjs <database-url> [express]
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { createServer } = require('../../packages/server/dist/index.js');

const server = await createServer({
  env: {},
  database: { url: process.argv[2] },
  logLevel: 'warn',
  hotLane: process.argv[3] !== 'express',
});
await server.listen({ port: 0, host: '127.0.0.1' });
console.log(`port=${new URL(server.url).port}`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
