// The size of @svc/client as a browser bundle (issue 29: under 15 KB minified and gzipped,
// without a query builder): esbuild bundles the package's sources for the browser, minified,
// and the script prints the bytes, gzipped (level 9) and the ratio to the goal. The baseline in
// the same run is the bundle of a bare `fetch` call through the same pipeline, so what the
// client adds is printed too. Run from the repository root: `node bench/client/size.mjs`.
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const GOAL = 15 * 1024;
const root = path.resolve(import.meta.dirname, '../..');

async function bundle(stdin) {
  const result = await build({
    stdin: { ...stdin, resolveDir: root, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

// Everything the package exports, kept alive so nothing is shaken off.
const client = await bundle({
  contents: `export * from './packages/client/src/index.ts';`,
});
const baseline = await bundle({
  contents: `export const run = (url, q) => fetch(url, { method: 'POST', body: JSON.stringify({ query: q }) }).then((r) => r.json());`,
});
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`@svc/client, browser bundle, minified: ${kb(client.raw)} (${client.raw} bytes)`);
console.log(`                         gzipped: ${kb(client.gzip)} (${client.gzip} bytes)`);
console.log(
  `baseline (a bare fetch call), gzipped: ${baseline.gzip} bytes; the client adds ${client.gzip - baseline.gzip}`,
);
console.log(
  `ratio to the goal (15 KB gzipped): ${(client.gzip / GOAL).toFixed(2)} ${client.gzip <= GOAL ? '(under)' : '(OVER)'}`,
);
process.exitCode = client.gzip <= GOAL ? 0 : 1;
