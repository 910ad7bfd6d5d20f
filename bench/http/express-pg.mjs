// Express 5 + `pg` (svc's own Express and `pg`): GET /books/:id running the same named prepared
// statement as floor.mjs and answering the same bytes, with none of svc's middleware. Between
// this and the floor is Express's own cost per request.
// Usage (by compare.mjs): node express-pg.mjs <database-url> <plan-json>
import { createRequire } from 'node:module';

const express = createRequire(new URL('../../packages/server/package.json', import.meta.url))(
  'express',
);
const pg = createRequire(new URL('../../packages/core/package.json', import.meta.url))('pg');
const [url, planJson] = process.argv.slice(2);
const plan = JSON.parse(planJson);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const byId = { name: 'bench_book_by_id', text: plan.sql };

function send(res, status, text) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(text);
}

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/books/:id', async (req, res) => {
  const values = plan.params.map((p) => JSON.stringify({ id: req.params.id }[p]));
  const { rows } = await pool.query({ ...byId, values });
  const { result } = rows[0];
  // As the floor: `elements`, the object itself or NULL; else the array of at most one.
  const object = plan.elements ? result : result === '[]' ? null : result.slice(1, -1);
  if (object === null) send(res, 404, '{"code":"NOT_FOUND","error":"NOT_FOUND: no such row"}');
  else send(res, 200, object);
});
const server = app.listen(0, '127.0.0.1', () => console.log(`port=${server.address().port}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
