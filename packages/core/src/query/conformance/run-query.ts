/**
 * conformance/run-query: runs one EdgeQL query the way svc does, for the result harness and the
 * Gel replay runner (tools/gel-replay): `compileQuery` (with access policies off, or the access
 * mode given), then the compiled SQL in one round trip with every parameter bound by name as JSON
 * text (query/api.ts), then the `result` column parsed (`runCompiled`).
 *
 * Input: a compiler, the schema, a connection (database or transaction) and a request.
 * Output: the result array, or a thrown error (a QueryError from the compiler or the binding
 * below, or the database's own error, whose SQLSTATE `errorMatches` understands).
 * Invariant: variables and globals are bound as parameters, never spliced, by the engine's own
 * binding (query/engine/bind: the same checks and errors as POST /query); no cache here, so each
 * case compiles afresh.
 */
import type { Queryable } from '../../db/types';
import {
  QueryError,
  queryErrorClass,
  queryErrorClassForSqlState,
  type QueryErrorName,
} from '../../errors/query-errors';
import type { Schema } from '../../model/schema';
import {
  type CompileAccess,
  type CompileQuery,
  type CompiledQuery,
  resultArrayText,
  runnableStatement,
} from '../api';
import { ANONYMOUS_AUTH, bindParameters, type AuthValues } from '../engine/bind';

import type { QueryRequest } from '../engine';

export type { QueryRequest };

export async function runQuery(
  compile: CompileQuery,
  schema: Schema,
  db: Queryable,
  request: QueryRequest,
  access: CompileAccess = { policies: false },
): Promise<unknown[]> {
  const compiled = compile(schema, request.query, {
    cardinality: request.cardinality ?? 'many',
    access,
  });
  return runCompiled(compiled, schema, db, request);
}

/**
 * Runs a compiled query: its variables and globals bound by the engine's binding (as an
 * anonymous caller, or `auth`), one round trip, the `result` column parsed.
 */
export async function runCompiled(
  compiled: CompiledQuery,
  schema: Schema,
  db: Queryable,
  request: Pick<QueryRequest, 'variables' | 'globals'>,
  auth: AuthValues = ANONYMOUS_AUTH,
): Promise<unknown[]> {
  const values = bindParameters(
    compiled.params,
    { variables: request.variables ?? {}, globals: request.globals ?? {}, auth },
    schema,
  );
  // The form the engine runs: the elements alone when the compiler gave them.
  const { sql, elements } = runnableStatement(compiled);
  const { rows } = await db.query<{ result: unknown }>(sql, values);
  if (rows.length !== 1)
    throw new Error(`compiled SQL returned ${rows.length} rows, the contract says exactly one`);
  const result = (rows[0] as { result: unknown }).result;
  // A `json` column arrives parsed already (the driver's type parser).
  const parsed =
    typeof result === 'string' || result === null
      ? (JSON.parse(resultArrayText(result, elements)) as unknown)
      : result;
  if (!Array.isArray(parsed))
    throw new Error(`the result column is not a JSON array: ${String(result)}`);
  return parsed;
}

/**
 * Does a thrown error stand for the error class `className` (or a subclass), or carry that
 * envelope code? A QueryError matches
 * by class; an error naming its class in `type` (a server's error envelope) by that class; a raw
 * database error by the class its SQLSTATE maps to in errors/query-errors
 * (`queryErrorClassForSqlState`: the exact SQLSTATE, else its class).
 */
export function errorMatches(error: unknown, className: string): boolean {
  const expected = queryErrorClass(className as QueryErrorName) as
    | ReturnType<typeof queryErrorClass>
    | undefined;
  // Not a class: an envelope code (`VALIDATION_ERROR` for a bad variable, docs/http.md) or a type name.
  if (!expected) {
    const e = error as { type?: unknown; code?: unknown } | null;
    return e?.type === className || e?.code === className;
  }
  if (error instanceof expected) return true;
  if (error instanceof QueryError) return false;
  // An error that names its class (a server's error envelope, `type`) matches through the table.
  const type = (error as { type?: unknown } | null)?.type;
  const named = typeof type === 'string' ? queryErrorClass(type as QueryErrorName) : undefined;
  if (named) return named === expected || named.prototype instanceof expected;
  const state = sqlStateOf(error);
  if (!state) return false;
  const mapped = queryErrorClassForSqlState(state);
  return mapped !== undefined && (mapped === expected || mapped.prototype instanceof expected);
}

/** The SQLSTATE a database error carries (`pg` and PGlite both name it `code`). */
export function sqlStateOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown; sqlState?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  const state = (error as { sqlState?: unknown } | null)?.sqlState;
  return typeof state === 'string' ? state : undefined;
}

/** One line naming an error: its class (or SQLSTATE) and message. */
export function describeError(error: unknown): string {
  const type = (error as { type?: unknown })?.type;
  const name = typeof type === 'string' ? type : ((error as Error)?.name ?? 'Error');
  const state = sqlStateOf(error);
  const message = (error as Error)?.message ?? String(error);
  return `${name}${state ? ` [${state}]` : ''}: ${message}`;
}
