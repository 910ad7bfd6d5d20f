// The Express baseline: bare Express 5 (the version svc uses, resolved from @svc/server) answering
// GET /health/live with the same body and headers, with none of svc's middleware. The gap between
// this and node:http is the framework's own cost; between svc and this, our middleware's.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const express = require('express');

const body = JSON.stringify({ status: 'ok' });
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get('/health/live', (_req, res) => {
  res.set('X-Request-Id', randomUUID());
  res.type('application/json; charset=utf-8');
  res.send(body);
});
const server = app.listen(0, '127.0.0.1', () => console.log(`port=${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
