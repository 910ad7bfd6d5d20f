/**
 * The EdgeQL compiler svc runs queries with: `POST /query` (server.ts) and `svc query` (the CLI)
 * both take it from here, so they always compile alike. Until @svc/core's compiler lands (issue
 * 10), compiling answers 501 NOT_IMPLEMENTED, as `/query` did before the engine existed.
 */
import { notInThisRelease, type CompileQuery } from '@svc/core';

export const compileQuery: CompileQuery = () =>
  notInThisRelease('Running EdgeQL queries (POST /query)');
