import { createTestDatabase } from '../../testing';
import { prepareStdDb, runBatch } from './harness';
test('x', async () => {
  const t = await createTestDatabase();
  const std = await prepareStdDb(t.db);
  const qs = process.env.QS!.split(';;');
  const out = await runBatch(std, []);
  for (const q of qs) {
    const [r] = await runBatch(std, [q]);
    console.log(q, '=>', r!.ok ? JSON.stringify(r!.value) : String((r as any).error.code) + ' ' + (r as any).error.message);
    const r2 = await (async () => { try { return JSON.stringify(await (await import('../../query/conformance/run-query')).runQuery((await import('../../query/compile')).compileQuery, std.schema, std.db, { query: `select ${q}` })); } catch (e) { return 'ERR ' + (e as Error).message; } })();
    console.log('  alone:', r2);
  }
  await t.dispose();
}, 60000);
