// Builds the demo's pages into dist/public (part of `pnpm build`), as @svc/admin-ui builds its
// own: app/main.ts bundled with @svc/client by esbuild, the CSS beside it, both named by a hash of
// their content; index.html referring to them (no inline script or style: the pages run under a
// strict CSP); manifest.json listing what src/main.ts serves. Nothing is loaded from elsewhere.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const out = path.join(here, 'dist', 'public');
fs.mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [path.join(here, 'app', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2022'],
  platform: 'browser',
  write: false,
  legalComments: 'none',
  logLevel: 'warning',
});
const js = result.outputFiles[0].contents;
const css = fs.readFileSync(path.join(here, 'app', 'style.css'));
const icon = fs.readFileSync(path.join(here, 'app', 'favicon.svg'));

const hash = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 12);
const jsName = `app-${hash(js)}.js`;
const cssName = `app-${hash(css)}.css`;
const iconName = `favicon-${hash(icon)}.svg`;
fs.writeFileSync(path.join(out, jsName), js);
fs.writeFileSync(path.join(out, cssName), css);
fs.writeFileSync(path.join(out, iconName), icon);

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>svc notes</title>
<link rel="icon" href="/assets/${iconName}" type="image/svg+xml">
<link rel="stylesheet" href="/assets/${cssName}">
<script defer src="/assets/${jsName}"></script>
</head>
<body>
<noscript>svc notes needs JavaScript.</noscript>
<div id="app"></div>
</body>
</html>
`;
fs.writeFileSync(path.join(out, 'index.html'), html);
fs.writeFileSync(
  path.join(out, 'manifest.json'),
  `${JSON.stringify({ index: 'index.html', assets: [jsName, cssName, iconName] }, null, 2)}\n`,
);
console.log(`demo: ${jsName} (${js.length} bytes), ${cssName} (${css.length} bytes)`);
