/**
 * @svc/rest: the REST API and OpenAPI 3.1 description generated from an svc schema.
 *
 * Nothing is exported yet: the REST surface needs the schema model and query compiler of
 * @svc/core, and lands with them. Until then the server answers `/api/*` with 501
 * NOT_IMPLEMENTED (or 404 when REST is disabled). See README.md.
 */
export {};
