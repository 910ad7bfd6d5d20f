/**
 * @svc/admin-ui: the admin UI of svc (`/_/`), a single-page app built ahead of time into static
 * files. Nothing here runs in the browser: this entry point only tells a server where the files
 * are and which of them to serve. `@svc/server` serves them (docs/http.md, "The admin UI").
 *
 * The files (made by `pnpm build`, `build.mjs`, with esbuild):
 * - `index.html`: the page, no inline script or style (it runs under `script-src 'self'`);
 * - `app-<hash>.js` and `app-<hash>.css`: named by their content, so they may be cached for good;
 * - `manifest.json`: this list, read by `adminUiManifest()`.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder that holds the built files. Resolved from the package root, so it is the same
 * folder whether this module runs from `dist/` or (in the repository's tests) from `src/`.
 */
export const adminUiAssetsDir: string = path.resolve(__dirname, '..', 'dist', 'assets');

/** What the build wrote: the page and its assets, by file name. */
export interface AdminUiManifest {
  /** The page every route of the app answers (`index.html`). */
  readonly index: string;
  /** Every other file, served with a year-long immutable cache (their names carry a hash). */
  readonly assets: readonly string[];
}

/**
 * The manifest of the built files (`dist/assets/manifest.json`). Throws when the package was
 * not built.
 */
export function adminUiManifest(dir: string = adminUiAssetsDir): AdminUiManifest {
  const file = path.join(dir, 'manifest.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new Error(`@svc/admin-ui is not built: no ${file} (run pnpm build)`);
  }
  const parsed = JSON.parse(text) as AdminUiManifest;
  return { index: parsed.index, assets: [...parsed.assets] };
}
