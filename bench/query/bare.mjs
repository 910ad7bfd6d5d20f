// The baseline: a bare Express 5 + `pg` handler per case, sending the SQL svc's compiler produced
// for it (given by run.mjs) with the same parameters, and answering {"data": ...} as svc does.
// Usage (by run.mjs): node bare.mjs <database-url> <cases-json>
import { createRequire } from 'node:module';
// The same Express and `pg` svc uses: the server's and core's own dependencies.
const express = createRequire(new URL('../../packages/server/package.json', import.meta.url))(
  'express',
);
const pg = createRequire(new URL('../../packages/core/package.json', import.meta.url))('pg');

const [url, casesJson] = process.argv.slice(2);
const cases = JSON.parse(casesJson);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json());
for (const [name, { sql, params, elements }] of Object.entries(cases)) {
  app.post(`/${name}`, async (req, res) => {
    const values = params.map((p) => {
      const v = req.body.variables?.[p];
      return v === undefined ? null : JSON.stringify(v);
    });
    const { rows } = await pool.query(sql, values);
    const result = rows[0].result;
    // `elements` (bench/lib svcStatement): the array's inside, NULL for none.
    let text;
    if (elements) text = result === null ? '[]' : `[${result}]`;
    else text = typeof result === 'string' ? result : JSON.stringify(result);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(`{"data":${text}}`);
  });
}
const server = app.listen(0, '127.0.0.1', () => console.log(`port=${server.address().port}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
