/**
 * @svc/rest: the REST API and OpenAPI 3.1 description generated from an svc schema.
 * Stages (PostgREST's shape): parseRequest (HTTP → ApiRequest, here) → plan (with the schema)
 * → EdgeQL text + variables → render. Only the first stage exists yet: the others need
 * @svc/core's schema model and compiler. See README.md.
 */
export { parseRequest, type HttpRequestParts } from './request/parse';
export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  type ApiRequest,
  type Filter,
  type FilterOperator,
  type OrderTerm,
  type Page,
} from './request/api-request';
