// Builds the admin UI's browser files into dist/assets (part of `pnpm build`) with @svc/dom's
// page build: app/main.ts bundled by esbuild, its CSS and icon beside it, named by a hash of their
// content; index.html without inline script or style; manifest.json listing what to serve.
import path from 'node:path';
import { buildPage } from '@svc/dom/build-page';

const here = import.meta.dirname;
const built = await buildPage({
  dir: here,
  out: path.join(here, 'dist', 'assets'),
  base: '/_/assets/',
  title: 'svc admin',
  noscript: 'The svc admin UI needs JavaScript.',
});
console.log(
  `admin-ui: ${built.js} (${built.jsBytes} bytes), ${built.css} (${built.cssBytes} bytes)`,
);
