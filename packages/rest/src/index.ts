/**
 * @svc/rest: the REST API and OpenAPI 3.1 description generated from an svc schema.
 * Stages (PostgREST's shape): parseRequest (HTTP → ApiRequest) → plan (ApiRequest + RestModel →
 * EdgeQL text + variables) → the server runs it through the `/query` engine → the answer.
 * The RestModel (model/) is the one view of the schema both the planner and the OpenAPI
 * document read. See README.md.
 */
export { parseRequest, type HttpRequestParts } from './request/parse';
export {
  OPENAPI_PATH,
  openApiDocument,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiFragment,
  type OpenApiOptions,
  type OpenApiTag,
} from './openapi';
export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  type ApiRequest,
  type Filter,
  type FilterOperator,
  type OrderTerm,
  type Page,
} from './request/api-request';
export {
  EXPAND,
  HIDDEN,
  restModel,
  routeName,
  type RestField,
  type RestModel,
  type RestType,
  type Shape,
  type ShapeField,
} from './model';
export {
  planRequest,
  shapeText,
  type DataRequest,
  type RestAnswer,
  type RestQuery,
  type RestStatement,
} from './plan';
export { answerBody, isEmptyResult } from './plan/answer';
export { filterOperators, linkedShape, orderable } from './model';
// API reference page (`GET /api/docs`): this package's own page (page/, built into dist/docs-page).
export {
  DOCS_ASSET_CACHE_CONTROL,
  DOCS_ASSET_NAMES,
  DOCS_PAGE_CSP,
  docsAsset,
  docsAssetsVersion,
  docsPage,
  type DocsAsset,
  type DocsPageOptions,
} from './docs';
