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
