// The baseline: a bare Express 5 + `pg` handler for the two REST requests, sending the SQL svc's
// compiler made of the planner's EdgeQL (given by run.mjs) with the same parameters, answering as
// svc's REST does: the bare object for one id (404 when absent), the bare array for a list.
// Usage (by run.mjs): node bare.mjs <database-url> <plans-json>
//   plans: {"get": {"sql", "params"}, "list": {"sql", "params"}}, params the variable names.
import { createRequire } from 'node:module';
// The same Express and `pg` svc uses: the server's and core's own dependencies.
const express = createRequire(new URL('../../packages/server/package.json', import.meta.url))(
  'express',
);
const pg = createRequire(new URL('../../packages/core/package.json', import.meta.url))('pg');

const [url, plansJson] = process.argv.slice(2);
const plans = JSON.parse(plansJson);
const pool = new pg.Pool({ connectionString: url, max: 10 });

/** The JSON text of the result array, as PostgreSQL built it (never parsed here). */
async function run(plan, variables) {
  const values = plan.params.map((p) => JSON.stringify(variables[p]));
  const { rows } = await pool.query(plan.sql, values);
  const result = rows[0].result;
  // `elements` (bench/lib svcStatement): the array's inside, NULL for none.
  if (plan.elements) return result === null ? '[]' : `[${result}]`;
  return typeof result === 'string' ? result : JSON.stringify(result);
}

function send(res, status, text) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(text);
}

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/api/:type/:id', async (req, res) => {
  const text = await run(plans.get, { id: req.params.id });
  // One element at most (atMostOne): the object is the array's inside.
  if (text === '[]') send(res, 404, '{"code":"NOT_FOUND","error":"NOT_FOUND: no such row"}');
  else send(res, 200, text.slice(1, -1));
});
app.get('/api/:type', async (req, res) => {
  const limit = req.query.limit === undefined ? 100 : Number(req.query.limit);
  const offset = req.query.offset === undefined ? 0 : Number(req.query.offset);
  send(res, 200, await run(plans.list, { limit, offset }));
});
const server = app.listen(0, '127.0.0.1', () => console.log(`port=${server.address().port}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
