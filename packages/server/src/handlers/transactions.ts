/**
 * The transaction routes (docs/http.md, "Transactions"): `POST /transactions` begins one,
 * `POST /transactions/{id}/commit` and `/rollback` end it, `POST /query` with
 * `X-Svc-Transaction` runs a statement in it (handlers/query), and `POST /query/batch` runs
 * several statements in one transaction in one round trip. The transactions themselves, their
 * ids, idle timeout, queue and cap, are transactions/.
 */
import type { Request, Response } from 'express';
import {
  commonError,
  fromDatabaseError,
  SvcError,
  type Database,
  type QueryRequest,
  type Queryable,
  type RequestedCardinality,
} from '@svc/core';
import { sendJson } from '../http/respond';
import type { Caller } from '../middleware/authenticate';
import { requestSignal } from '../middleware/timeout';
import {
  transactionOwner,
  type BeginOptions,
  type Isolation,
  type Transactions,
} from '../transactions';
import { jsonObjectBody } from './json-body';
import { queryCaller, type QueryHandlerDeps } from './query';

/** The request header naming the transaction a `/query` or `/query/batch` request runs in. */
export const TRANSACTION_HEADER = 'x-svc-transaction';

/** Statements one batch may carry. */
export const MAX_BATCH_STATEMENTS = 1000;

export interface TransactionHandlerDeps extends QueryHandlerDeps {
  readonly transactions: Transactions;
  readonly database: Database;
  /** PostgreSQL's statement_timeout inside a batch's transaction (requestTimeout). */
  readonly statementTimeout: number;
}

const ISOLATIONS: readonly Isolation[] = ['serializable', 'repeatable_read'];
const BEGIN_KEYS = new Set(['isolation', 'readOnly']);
const BATCH_KEYS = new Set(['statements', 'globals']);
const STATEMENT_KEYS = new Set(['query', 'variables', 'cardinality']);
const CARDINALITIES: readonly RequestedCardinality[] = ['many', 'atMostOne', 'one'];

export function transactionHandlers(deps: TransactionHandlerDeps) {
  const { transactions, engine } = deps;
  const callerOf = (res: Response) => {
    const caller = res.locals.caller as Caller | undefined;
    const runs = queryCaller(caller, deps);
    return { runs, owner: transactionOwner(caller, runs) };
  };
  const idOf = (req: Request) => String(req.params.id ?? '');

  return {
    async begin(req: Request, res: Response): Promise<void> {
      const options = beginOptions(req.body);
      // Embedded PGlite: the open transaction holds the one connection, and checking an access
      // token's session needs it, so a token's next request would wait for its own transaction.
      if (
        deps.database.kind === 'pglite' &&
        (res.locals.caller as Caller | undefined)?.kind === 'user'
      )
        throw commonError(
          'NOT_IMPLEMENTED',
          'on embedded PGlite a transaction held across requests is for the service key and anonymous callers (an access token is checked against its session, on the connection the transaction holds)',
          { hint: 'run the statements in one request with POST /query/batch' },
        );
      const { owner } = callerOf(res);
      const { id, idleTimeout } = await transactions.begin(owner, options, requestSignal(res));
      sendJson(res, 201, { transaction: { id, idleTimeout } });
    },
    async commit(req: Request, res: Response): Promise<void> {
      const id = idOf(req);
      await transactions.commit(id, callerOf(res).owner);
      sendJson(res, 200, { transaction: { id, state: 'committed' } });
    },
    async rollback(req: Request, res: Response): Promise<void> {
      const id = idOf(req);
      await transactions.rollback(id, callerOf(res).owner);
      sendJson(res, 200, { transaction: { id, state: 'rolledBack' } });
    },
    async batch(req: Request, res: Response): Promise<void> {
      const { statements, globals } = batchRequest(req.body);
      const { runs, owner } = callerOf(res);
      const runAll = async (tx: Queryable) => {
        const results: string[] = [];
        for (const [index, statement] of statements.entries()) {
          try {
            results.push(await engine.run({ ...statement, globals }, runs, { queryable: tx }));
          } catch (err) {
            throw (err instanceof SvcError ? err : fromDatabaseError(err)).inStatement(index);
          }
        }
        return { results, version: (await engine.schema(tx)).version };
      };
      const id = req.get(TRANSACTION_HEADER);
      const signal = requestSignal(res);
      let results: { results: string[]; version: string };
      if (id !== undefined) results = await transactions.run(id, owner, signal, runAll);
      else {
        const { database, statementTimeout } = deps;
        results = await database
          .transaction(async (tx) => {
            await tx.query('set transaction isolation level serializable');
            if (database.kind === 'postgres')
              await tx.query(`select set_config('statement_timeout', $1, true)`, [
                String(statementTimeout),
              ]);
            const out = await runAll(tx);
            // Answered 408 while it ran: roll back, so what the client could not see never stands.
            if (signal?.aborted)
              throw commonError('REQUEST_TIMEOUT', 'the batch ran out of time; rolled back');
            return out;
          })
          // A commit that failed (a serialization failure found at commit) is a query error too.
          .catch((err: unknown) => {
            throw err instanceof SvcError ? err : fromDatabaseError(err);
          });
      }
      sendJson(res, 200, `{"data":[${results.results.join(',')}]}`, {
        'X-Svc-Schema-Version': results.version,
      });
    },
  };
}

/** `{isolation?, readOnly?}`; an absent body is `{}`. */
function beginOptions(body: unknown): BeginOptions {
  if (body === undefined || body === null) return {};
  const b = jsonObjectBody(body, BEGIN_KEYS, '"isolation" and "readOnly", or nothing');
  const isolation = b.isolation ?? 'serializable';
  if (!ISOLATIONS.includes(isolation as Isolation))
    throw commonError('VALIDATION_ERROR', `"isolation" must be one of ${ISOLATIONS.join(', ')}`);
  const readOnly = b.readOnly ?? false;
  if (typeof readOnly !== 'boolean')
    throw commonError('VALIDATION_ERROR', '"readOnly" must be true or false');
  return { isolation: isolation as Isolation, readOnly };
}

function batchRequest(body: unknown): {
  statements: QueryRequest[];
  globals: Readonly<Record<string, unknown>>;
} {
  const b = jsonObjectBody(body, BATCH_KEYS, 'a "statements" array');
  if (!Array.isArray(b.statements) || b.statements.length === 0)
    throw commonError('VALIDATION_ERROR', '"statements" must be a non-empty array');
  if (b.statements.length > MAX_BATCH_STATEMENTS)
    throw commonError(
      'VALIDATION_ERROR',
      `"statements" may hold at most ${MAX_BATCH_STATEMENTS} statements`,
    );
  const globals = optionalObject(b.globals, '"globals"');
  const statements = b.statements.map((s: unknown, i: number): QueryRequest => {
    const where = `statements[${i}]`;
    if (typeof s !== 'object' || s === null || Array.isArray(s))
      throw commonError('VALIDATION_ERROR', `${where} must be an object with a "query" string`);
    const st = s as Record<string, unknown>;
    for (const key of Object.keys(st))
      if (!STATEMENT_KEYS.has(key))
        throw commonError('VALIDATION_ERROR', `unknown field "${key}" in ${where}`);
    if (typeof st.query !== 'string' || st.query.trim() === '')
      throw commonError('VALIDATION_ERROR', `${where}.query must be a non-empty string`);
    const cardinality = st.cardinality ?? 'many';
    if (!CARDINALITIES.includes(cardinality as RequestedCardinality))
      throw commonError(
        'VALIDATION_ERROR',
        `${where}.cardinality must be one of ${CARDINALITIES.join(', ')}`,
      );
    return {
      query: st.query,
      variables: optionalObject(st.variables, `${where}.variables`),
      cardinality: cardinality as RequestedCardinality,
    };
  });
  return { statements, globals };
}

function optionalObject(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw commonError('VALIDATION_ERROR', `${name} must be a JSON object`);
  return value as Record<string, unknown>;
}
