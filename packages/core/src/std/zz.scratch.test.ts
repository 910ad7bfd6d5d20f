import { readFileSync, writeFileSync } from 'node:fs';
import { openIssuesDb, type IssuesDb } from '../query/__tests__/issues-db';
let db: IssuesDb;
beforeAll(async () => { db = await openIssuesDb(); }, 120_000);
afterAll(() => db?.tdb.dispose());
const norm = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
const sortJson = (v: unknown): unknown => Array.isArray(v) ? [...v].map(norm).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : v;
const close = (a: unknown, b: unknown): boolean => {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => close((a as any)[k], (b as any)[k]));
  }
  return JSON.stringify(a) === JSON.stringify(b);
};
test('gel cases', async () => {
  const cases = JSON.parse(readFileSync('/tmp/gq/cases.json', 'utf8'));
  const lines: string[] = [];
  let pass = 0, fail = 0, err = 0;
  for (const c of cases) {
    try {
      const r = await db.run(c.query.replace(/;\s*$/, ''));
      const ok = c.sort ? close(sortJson(r), sortJson(c.expected)) : close(r, c.expected);
      if (ok) pass++; else { fail++; lines.push(`FAIL ${c.file}: ${c.query.replace(/\s+/g, ' ')}\n   got ${JSON.stringify(r)}\n   exp ${JSON.stringify(c.expected)}`); }
    } catch (e) {
      err++; lines.push(`ERR  ${c.file}: ${c.query.replace(/\s+/g, ' ')}\n   ${(e as {type?: string}).type ?? ''} ${(e as Error).message.slice(0, 200)}`);
    }
  }
  writeFileSync('/tmp/gq/report.txt', `pass ${pass} fail ${fail} err ${err}\n` + lines.join('\n'));
}, 600_000);
