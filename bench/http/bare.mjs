// The baseline: node:http answering GET /health/live with the same body and headers svc sends.
import http from 'node:http';
import { randomUUID } from 'node:crypto';

const body = JSON.stringify({ status: 'ok' });
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health/live') {
    res.writeHead(200, {
      'X-Request-Id': randomUUID(),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  } else {
    res.writeHead(404).end();
  }
});
server.listen(0, '127.0.0.1', () => console.log(`port=${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
