// The floor: node:http + `pg` (svc's own `pg`) and nothing else. GET /books/{id} runs the SQL
// svc's engine compiled for the REST by-id read (given by compare.mjs) as a named prepared
// statement, and writes the JSON text PostgreSQL built (never parsed here) as svc's REST does:
// the bare object, 404 when absent. GET /hello (and /health/live) answers what svc's
// /health/live does, with the same headers. A pool of 10, as every server of the comparison.
// Usage (by compare.mjs): node floor.mjs <database-url> <plan-json>
//   plan: {"sql", "elements", "params"} (bench/lib svcStatement), params the variable names
//   (one: `id`); `elements`: the result is the array's inside (the object itself), NULL for none.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';

const pg = createRequire(new URL('../../packages/core/package.json', import.meta.url))('pg');
const [url, planJson] = process.argv.slice(2);
const plan = JSON.parse(planJson);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const byId = { name: 'bench_book_by_id', text: plan.sql };
const live = JSON.stringify({ status: 'ok' });
const notFound = '{"code":"NOT_FOUND","error":"NOT_FOUND: no such row"}';

function send(res, status, text) {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url.startsWith('/books/')) {
    const variables = { id: decodeURIComponent(req.url.slice('/books/'.length)) };
    const values = plan.params.map((p) => JSON.stringify(variables[p]));
    pool.query({ ...byId, values }).then(
      ({ rows }) => {
        const { result } = rows[0];
        // One element at most (atMostOne): the object is the array's inside.
        const object = plan.elements ? result : result === '[]' ? null : result.slice(1, -1);
        if (object === null) send(res, 404, notFound);
        else send(res, 200, object);
      },
      (err) => send(res, 500, JSON.stringify({ code: 'INTERNAL', error: err.message })),
    );
  } else if (req.method === 'GET' && (req.url === '/hello' || req.url === '/health/live')) {
    res.writeHead(200, {
      'X-Request-Id': randomUUID(),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(live),
    });
    res.end(live);
  } else {
    res.writeHead(404).end();
  }
});
server.listen(0, '127.0.0.1', () => console.log(`port=${server.address().port}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
