// bench/parse: parse time per KB of EdgeQL and of SDL, against JSON.parse of the same amount of
// text (a floor for any parser written in JavaScript) in the same run; and the time to migrate a
// 50-type schema on an empty embedded database, against running the same DDL directly.
// Usage: pnpm build && node bench/parse/run.mjs [--rounds 7]
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { edgeqlCorpus, schemaSdl } from './generate.mjs';

const require = createRequire(import.meta.url);
const core = require('../../packages/core/dist/index.js');
// Internal (not in @svc/core's main entry): the bootstrap the migrator runs before the DDL.
const { STORAGE_BOOTSTRAP_SQL } = require('../../packages/core/dist/schema/bootstrap.js');
const { runBootstrap } = require('../../packages/core/dist/storage/migrate.js');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' } } });
const rounds = Number(values.rounds);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(fn, repeat) {
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < repeat; i++) fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6 / repeat);
  }
  return median(samples);
}
/** JSON of the same byte length as `text`: the baseline. */
function jsonOfSize(text) {
  const items = [];
  let size = 2;
  for (let i = 0; size < text.length; i++) {
    const item = JSON.stringify({
      id: i,
      name: `item ${i}`,
      tags: ['a', 'b'],
      score: i * 1.5,
      ok: i % 2 === 0,
    });
    items.push(item);
    size += item.length + 1;
  }
  return `[${items.join(',')}]`;
}

function parseRow(label, text, parse) {
  const kb = text.length / 1024;
  for (let i = 0; i < 3; i++) parse(text); // warm up
  const ms = time(() => parse(text), 5);
  const json = jsonOfSize(text);
  const jsonMs = time(() => JSON.parse(json), 5);
  console.log(
    `${label.padEnd(8)} ${kb.toFixed(0).padStart(5)} KB   ${(ms / kb).toFixed(3)} ms/KB   JSON.parse ${(jsonMs / kb).toFixed(4)} ms/KB   ratio ${(ms / jsonMs).toFixed(1)}x JSON.parse`,
  );
}

const sdl = schemaSdl(50);
const edgeql = edgeqlCorpus(200);
console.log(`parse, median of ${rounds} rounds`);
parseRow('EdgeQL', edgeql, (t) => core.ql.parseQuery(t));
parseRow(
  'SDL',
  sdl
    .repeat(10)
    .replaceAll('module default {', 'module m{{}} {')
    .split('m{{}}')
    .map((part, i) => (i ? `m${i}${part}` : part))
    .join(''),
  (t) => core.ql.parseSchema(t),
);

if (typeof core.createDefaultMigrator === 'function') {
  const migrator = core.createDefaultMigrator();
  const ddl = [];
  const samples = [];
  const direct = [];
  for (let r = 0; r < 3; r++) {
    const db = await core.openDatabase({ memory: true });
    const t0 = performance.now();
    const result = await migrator.migrate(db, sdl);
    samples.push(performance.now() - t0);
    if (r === 0) ddl.push(...result.sql);
    await db.close();
    const db2 = await core.openDatabase({ memory: true });
    const t1 = performance.now();
    await db2.transaction(async (tx) => {
      await runBootstrap(tx, STORAGE_BOOTSTRAP_SQL);
      for (const s of ddl) await tx.query(s);
    });
    direct.push(performance.now() - t1);
    await db2.close();
  }
  console.log(
    `migrate  50 types from empty on PGlite: ${median(samples).toFixed(0)} ms (${ddl.length} statements); the same DDL run directly: ${median(direct).toFixed(0)} ms; ratio ${(median(samples) / median(direct)).toFixed(2)}`,
  );
} else {
  console.log('migrate  (createDefaultMigrator is not built yet)');
}
