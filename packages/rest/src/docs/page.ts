import { escapeHtml } from '@svc/core';
import { docsAssetsVersion } from './assets';

export interface DocsPageOptions {
  /** Where the page fetches the OpenAPI document (the server's `/api/openapi.json`). */
  readonly documentUrl: string;
  /** The page's `<title>`. */
  readonly title: string;
  /** Where the assets are served, without the version segment (`/api/docs/assets`). */
  readonly assetsPath: string;
}

/**
 * The Content-Security-Policy the page works under: its script, style sheet and requests (the
 * document, "Try it") from the server itself only; no inline script or style, no plugins, no
 * framing, no base rewriting, no form posts (the "Try it" forms send with `fetch`). `data:`
 * images: the empty icon, so the browser asks for no `/favicon.ico`.
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
 * The API reference page: the mount point (`#svc-docs`, with the document's URL in
 * `data-document-url`), the bar the token box goes in, and the page's script and style sheet
 * from `assetsPath/<version>/`. No inline script.
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
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset('svc-docs.css')}">
<script defer src="${asset('svc-docs.js')}"></script>
</head>
<body>
<div id="svc-bar"></div>
<main id="svc-docs" data-document-url="${documentUrl}">
<noscript>This page needs JavaScript. The OpenAPI document is at <a href="${documentUrl}">${documentUrl}</a>.</noscript>
</main>
</body>
</html>
`;
}
