// svc as a user runs it, with its whole middleware chain, on an in-memory embedded database.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { createServer } = require('../../packages/server/dist/index.js');

const server = await createServer({ env: {}, database: { memory: true }, logLevel: 'warn' });
await server.listen({ port: 0, host: '127.0.0.1' });
console.log(`port=${new URL(server.url).port}`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
