// tools/gel-schemas/units: every schema the repository's tests use (.esdl files, and SDL
// literals of *.test.ts files, flagged `literal`: they may be meant to fail) and Gel's in-scope
// schema units, as { name, sdl, literal? }, for the tools that print what the schema stages make.
import fs from 'node:fs';
import path from 'node:path';
import { discoverUnits } from './discover.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
export const root = path.resolve(here, '../..');

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

export function schemaUnits(gel) {
  const units = [];
  const files = walk(path.join(root, 'packages'), []).sort();
  for (const f of files.filter((f) => f.endsWith('.esdl'))) {
    units.push({ name: path.relative(root, f), sdl: fs.readFileSync(f, 'utf8') });
  }
  for (const f of files.filter((f) => f.endsWith('.test.ts'))) {
    const text = fs.readFileSync(f, 'utf8');
    let i = 0;
    for (const m of text.matchAll(/`([^`]*)`/gs)) {
      const sdl = m[1];
      i += 1;
      if (sdl.includes('${') || !/\b(type|scalar|function|constraint)\s/.test(sdl)) continue;
      units.push({ name: `${path.relative(root, f)}#${i}`, sdl, literal: true });
    }
  }
  for (const u of discoverUnits(path.resolve(gel)))
    units.push({ name: `gel:${u.name}`, sdl: u.sdl });
  return units;
}
