/**
 * docs: the API reference page (`GET /api/docs`), Swagger UI rendering the served OpenAPI
 * document. Handler-agnostic: the page as HTML text, its assets as bytes from an allow-list;
 * the server sets the routes and headers. The renderer (swagger-ui-dist) ships with this
 * package, so the page works offline.
 */
export {
  DOCS_ASSET_CACHE_CONTROL,
  DOCS_ASSET_NAMES,
  docsAsset,
  docsAssetsVersion,
  type DocsAsset,
} from './assets';
export { DOCS_PAGE_CSP, docsPage, type DocsPageOptions } from './page';
