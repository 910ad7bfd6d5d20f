/**
 * docs: the API reference page (`GET /api/docs`), a page of this package's own (`page/`, built
 * by esbuild into `dist/docs-page/`) that renders the served OpenAPI 3.1 document. No renderer
 * of anyone else's, so no dependency at all (see the README for the choice). Handler-agnostic:
 * the page as HTML text, its assets as bytes from an allow-list; the server sets the routes and
 * headers.
 */
export {
  DOCS_ASSET_CACHE_CONTROL,
  DOCS_ASSET_NAMES,
  docsAsset,
  docsAssetsVersion,
  type DocsAsset,
} from './assets';
export { DOCS_PAGE_CSP, docsPage, type DocsPageOptions } from './page';
