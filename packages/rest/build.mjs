// Builds the API reference page's browser files (part of `pnpm build`): page/main.ts bundled
// and minified by esbuild into dist/docs-page/svc-docs.js, page/style.css beside it as
// svc-docs.css. No network, no CDN: everything the page loads is in this package.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const out = path.join(here, 'dist', 'docs-page');
fs.mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [path.join(here, 'page', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2022'],
  write: false,
  legalComments: 'none',
  logLevel: 'warning',
});
const js = result.outputFiles[0].contents;
fs.writeFileSync(path.join(out, 'svc-docs.js'), js);
fs.copyFileSync(path.join(here, 'page', 'style.css'), path.join(out, 'svc-docs.css'));
console.log(`rest docs page: svc-docs.js (${js.length} bytes)`);
