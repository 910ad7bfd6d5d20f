// tools/gel-schemas/migration-sql: prints the migration SQL (from nothing) of every schema the
// repository's tests use (.esdl files, v1 → v2 pairs, and SDL literals of *.test.ts files that
// build) and of Gel's in-scope schema units, one block per schema, for diffing a change to the
// schema stages. Usage: node tools/gel-schemas/migration-sql.mjs [--gel /path/to/gel] > out.sql
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCore } from './load-core.mjs';
import { root, schemaUnits } from './units.mjs';

const { values } = parseArgs({
  options: { gel: { type: 'string', default: process.env.GEL_DIR ?? '/work/gel/gel' } },
});
const { buildSchema, planMigration } = loadCore().schema;

const units = schemaUnits(values.gel);

function render(from, to) {
  return planMigration(from, to)
    .steps.map((s) => `-- ${s.kind} ${s.subject}\n${s.sql.join('\n')}`)
    .join('\n');
}

for (const u of units) {
  let schema;
  try {
    schema = buildSchema(u.sdl);
  } catch (err) {
    if (u.literal) continue;
    console.log(
      `=== ${u.name}\n!! build: ${err?.type ?? ''} ${String(err?.message).split('\n')[0]}`,
    );
    continue;
  }
  try {
    console.log(`=== ${u.name}\n${render(null, schema)}`);
  } catch (err) {
    console.log(
      `=== ${u.name}\n!! plan: ${err?.type ?? ''} ${String(err?.message).split('\n')[0]}`,
    );
  }
  const v2 = u.name.replace(/\.esdl$/, '.v2.esdl');
  if (!u.literal && v2 !== u.name && fs.existsSync(path.join(root, v2))) {
    try {
      const next = buildSchema(fs.readFileSync(path.join(root, v2), 'utf8'));
      console.log(`=== ${u.name} -> v2\n${render(schema, next)}`);
    } catch (err) {
      console.log(`=== ${u.name} -> v2\n!! ${String(err?.message).split('\n')[0]}`);
    }
  }
}
