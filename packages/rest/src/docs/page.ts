import { escapeHtml } from '@svc/core';
import { docsAssetsVersion, INIT_SCRIPT_NAME } from './assets';

export interface DocsPageOptions {
  /** Where the page fetches the OpenAPI document (the server's `/api/openapi.json`). */
  readonly documentUrl: string;
  /** The page's `<title>`. */
  readonly title: string;
  /** Where the assets are served, without the version segment (`/api/docs/assets`). */
  readonly assetsPath: string;
}

/**
 * The Content-Security-Policy the page works under: scripts, styles, images and requests
 * ("Try it out", the document) from the server itself only; no inline script or style sheet,
 * no plugins, no framing, no base rewriting, no form posts. `data:` images: the style sheet's
 * icons. (Swagger UI sets styles through the DOM, which `style-src` does not govern, and its
 * Markdown sanitizer drops `style` attributes; the browser test checks no console error.)
 */
export const DOCS_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The API reference page: Swagger UI rendering the document at `documentUrl`, from assets
 * served at `assetsPath/<version>/`. No inline script: the init script reads the document URL
 * from the mount point's `data-document-url`.
 */
export function docsPage(options: DocsPageOptions): string {
  const base = `${options.assetsPath}/${docsAssetsVersion()}`;
  const asset = (name: string) => escapeHtml(`${base}/${name}`);
  const documentUrl = escapeHtml(options.documentUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}">
</head>
<body>
<noscript>This page needs JavaScript. The OpenAPI document is at <a href="${documentUrl}">${documentUrl}</a>.</noscript>
<div id="swagger-ui" data-document-url="${documentUrl}"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset(INIT_SCRIPT_NAME)}"></script>
</body>
</html>
`;
}
