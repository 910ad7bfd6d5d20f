// Builds a browser page of svc (the admin UI, the demo) at `pnpm build` time: `app/main.ts`
// bundled and minified by esbuild, `app/style.css` and `app/favicon.svg` beside it, each named by
// a hash of its content (so they can be cached for a year); `index.html` referring to them under
// `base` (no inline script or style: the pages run under a strict CSP); `manifest.json` listing
// what to serve. Nothing is loaded from anywhere else at run time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const hash = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 12);

/**
 * @param {{ dir: string, out: string, base: string, title: string, noscript: string }} page
 *   `dir`: the package (holding `app/`); `out`: the folder written; `base`: the URL path the files
 *   are served under (`/_/assets/`); `title` and `noscript`: the page's words.
 * @returns {Promise<{ js: string, css: string, icon: string, jsBytes: number, cssBytes: number }>}
 */
export async function buildPage({ dir, out, base, title, noscript }) {
  fs.mkdirSync(out, { recursive: true });
  const result = await build({
    entryPoints: [path.join(dir, 'app', 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const js = result.outputFiles[0].contents;
  const css = fs.readFileSync(path.join(dir, 'app', 'style.css'));
  const icon = fs.readFileSync(path.join(dir, 'app', 'favicon.svg'));
  const names = {
    js: `app-${hash(js)}.js`,
    css: `app-${hash(css)}.css`,
    icon: `favicon-${hash(icon)}.svg`,
  };
  fs.writeFileSync(path.join(out, names.js), js);
  fs.writeFileSync(path.join(out, names.css), css);
  fs.writeFileSync(path.join(out, names.icon), icon);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="icon" href="${base}${names.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${base}${names.css}">
<script defer src="${base}${names.js}"></script>
</head>
<body>
<noscript>${noscript}</noscript>
<div id="app"></div>
</body>
</html>
`;
  fs.writeFileSync(path.join(out, 'index.html'), html);
  fs.writeFileSync(
    path.join(out, 'manifest.json'),
    `${JSON.stringify({ index: 'index.html', assets: [names.js, names.css, names.icon] }, null, 2)}\n`,
  );
  return { ...names, jsBytes: js.length, cssBytes: css.length };
}
