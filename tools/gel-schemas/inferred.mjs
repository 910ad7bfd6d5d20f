// tools/gel-schemas/inferred: prints what schema inference decides for every schema of
// units.mjs — each computed pointer's kind, target and cardinality, each global's type and
// cardinality — or the error a schema fails with (class, message, position), one block per
// schema, for diffing a change to schema inference (with migration-sql.mjs for the SQL).
// Usage: node tools/gel-schemas/inferred.mjs [--gel /path/to/gel] > out.txt
import { parseArgs } from 'node:util';
import { loadCore } from './load-core.mjs';
import { schemaUnits } from './units.mjs';

const { values } = parseArgs({
  options: { gel: { type: 'string', default: process.env.GEL_DIR ?? '/work/gel/gel' } },
});
const { buildSchema } = loadCore().schema;

const type = (t) =>
  t.kind === 'scalar' || t.kind === 'object'
    ? t.name
    : t.kind === 'union'
      ? t.members.join(' | ')
      : t.kind === 'array'
        ? `array<${type(t.element)}>`
        : t.kind === 'tuple'
          ? `tuple<${t.elements.map((e) => (e.name ? `${e.name}: ` : '') + type(e.type)).join(', ')}>`
          : JSON.stringify(t);
const card = (p) =>
  `${p.required ? 'required ' : ''}${p.cardinality === 'many' ? 'multi' : 'single'}`;

for (const u of schemaUnits(values.gel)) {
  console.log(`=== ${u.name}`);
  let schema;
  try {
    schema = buildSchema(u.sdl);
  } catch (err) {
    const at = err?.position ? ` at ${err.position.line}:${err.position.column}` : '';
    console.log(
      `!! ${err?.type ?? err?.constructor?.name} ${String(err?.message).split('\n')[0]}${at}`,
    );
    continue;
  }
  for (const t of schema.objectTypes) {
    for (const p of t.pointers) {
      if (p.computed !== null)
        console.log(`${t.name}.${p.name}: ${card(p)} ${p.kind} ${type(p.target)}`);
      for (const lp of p.properties) {
        if (lp.computed !== null)
          console.log(`${t.name}.${p.name}@${lp.name}: ${card(lp)} ${lp.kind} ${type(lp.target)}`);
      }
    }
  }
  for (const g of schema.globals) console.log(`global ${g.name}: ${card(g)} ${type(g.target)}`);
  for (const f of schema.functions) console.log(`function ${f.name}: ${f.volatility}`);
}
