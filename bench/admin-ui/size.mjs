// The admin UI's first load (issue 30: under 300 KB gzip): every file a browser fetches to show
// `/_/` (the page, its script, its style, its icon) as svc serves them, gzipped once at level 9
// (packages/server/src/handlers/admin-ui.ts). Reads the built files: run `pnpm build` first.
// Exit 1 above the goal. The same sum is asserted in packages/server/test/admin-ui.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const GOAL = 300 * 1024;
const dir = path.resolve(import.meta.dirname, '../../packages/admin-ui/dist/assets');
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
let raw = 0;
let gzipped = 0;
for (const name of [manifest.index, ...manifest.assets]) {
  const body = fs.readFileSync(path.join(dir, name));
  const gz = gzipSync(body, { level: 9 });
  const sent = Math.min(gz.length, body.length);
  raw += body.length;
  gzipped += sent;
  console.log(
    `${name.padEnd(28)} ${String(body.length).padStart(7)} B  ${String(sent).padStart(6)} B gzip`,
  );
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`first load: ${kb(raw)} raw, ${kb(gzipped)} gzip (goal: under ${kb(GOAL)})`);
if (gzipped >= GOAL) process.exit(1);
