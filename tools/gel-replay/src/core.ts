/**
 * gel-replay/core: svc's core, built (`pnpm --filter @svc/core build`), loaded from its dist at
 * run time, so this tool stays outside the packages' build and CI. One place for every module
 * the runner uses.
 */
import { join, resolve } from 'node:path';

const CORE_DIST = resolve(__dirname, '../../../packages/core/dist');

export const core = require(CORE_DIST) as typeof import('../../../packages/core/dist');
export const testing = require(
  join(CORE_DIST, 'testing'),
) as typeof import('../../../packages/core/dist/testing');
export const harness = require(
  join(CORE_DIST, 'query/conformance/run-query'),
) as typeof import('../../../packages/core/dist/query/conformance/run-query');
export const engine = require(
  join(CORE_DIST, 'query/engine'),
) as typeof import('../../../packages/core/dist/query/engine');

export type CompileQuery = import('../../../packages/core/dist/query/api').CompileQuery;
export type CompiledQuery = import('../../../packages/core/dist/query/api').CompiledQuery;
export type Schema = import('../../../packages/core/dist').Schema;
export type Database = import('../../../packages/core/dist').Database;
export type Queryable = import('../../../packages/core/dist').Queryable;

export function loadCompiler(): CompileQuery {
  try {
    return (require(join(CORE_DIST, 'query/compile')) as { compileQuery: CompileQuery })
      .compileQuery;
  } catch (error) {
    throw new Error(
      `svc's compiler is not built (${(error as Error).message}); build @svc/core with query/compile first`,
    );
  }
}
