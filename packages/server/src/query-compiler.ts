/**
 * The EdgeQL compiler svc runs queries with: `POST /query` (server.ts) and `svc query` (the CLI)
 * both take it from here, so they always compile alike.
 */
export { compileQuery } from '@svc/core';
