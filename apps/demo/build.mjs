// Builds the demo's pages into dist/public (part of `pnpm build`) with @svc/dom's page build, as
// @svc/admin-ui builds its own: app/main.ts bundled with @svc/client by esbuild, its CSS and icon
// beside it, named by a hash of their content; index.html without inline script or style;
// manifest.json listing what src/main.ts serves.
import path from 'node:path';
import { buildPage } from '@svc/dom/build-page';

const here = import.meta.dirname;
const built = await buildPage({
  dir: here,
  out: path.join(here, 'dist', 'public'),
  base: '/assets/',
  title: 'svc notes',
  noscript: 'svc notes needs JavaScript.',
});
console.log(`demo: ${built.js} (${built.jsBytes} bytes), ${built.css} (${built.cssBytes} bytes)`);
