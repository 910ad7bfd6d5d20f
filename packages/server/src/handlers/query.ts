/**
 * `POST /query` (docs/http.md, "POST /query"): the body is checked (query-request.ts), the caller
 * decides the access mode and the auth values the query sees, the engine (@svc/core
 * query/engine) compiles through its cache and runs ONE statement, and the JSON text PostgreSQL
 * built is written inside `{"data": ...}` as it came, never parsed in Node.
 *
 * Access (docs/http.md, "Callers and credentials"): the service key, a superuser and the
 * `simple` protocol run without access policies; everyone else (anonymous included) under the
 * `full` protocol with them; under them a type without policies is open to every caller or to
 * none (`defaultAccess`). `readOnly` servers refuse compiled writes (503 READ_ONLY).
 */
import type { Request, Response } from 'express';
import {
  ANONYMOUS_AUTH,
  type AccessMode,
  type AuthValues,
  type DefaultAccess,
  type QueryCaller,
  type QueryEngine,
} from '@svc/core';
import type { Protocol } from '../config';
import { unsettledSession } from '../http/pending-session';
import { sendJson } from '../http/respond';
import { isAdministrator, type Caller } from '../middleware/authenticate';
import { requestSignal } from '../middleware/timeout';
import { transactionOwner, type Transactions } from '../transactions';
import { readRouting, type Replicas } from '../replicas';
import { parseQueryRequest } from './query-request';

export interface QueryHandlerDeps {
  readonly engine: QueryEngine;
  readonly protocol: Protocol;
  readonly readOnly: boolean;
  readonly defaultAccess: DefaultAccess;
  /** The open transactions `X-Svc-Transaction` names (docs/http.md, "Transactions"). */
  readonly transactions?: Transactions;
  /** Read replicas: read-only statements outside transactions may run there (replicas/). */
  readonly replicas?: Replicas | undefined;
}

export function queryHandler(deps: QueryHandlerDeps) {
  const { engine } = deps;
  return async (req: Request, res: Response): Promise<void> => {
    const transaction = req.get('x-svc-transaction');
    const who = res.locals.caller as Caller | undefined;
    const caller = queryCaller(who, deps);
    // In an open transaction: its queue, its connection (the schema is read through it too: on
    // PGlite it holds the only one); any failure rolls it back, a bad body included.
    if (transaction !== undefined && deps.transactions) {
      const answer = await deps.transactions.run(
        transaction,
        transactionOwner(who, caller),
        requestSignal(res),
        async (queryable) => {
          const body = parseQueryRequest(req.body);
          const text = body.describe
            ? JSON.stringify({ describe: await engine.describe(body, caller, { queryable }) })
            : `{"data":${await engine.run(body, caller, { queryable })}}`;
          return { text, version: (await engine.schema(queryable)).version };
        },
      );
      sendJson(res, 200, answer.text, { 'X-Svc-Schema-Version': answer.version });
      return;
    }
    const body = parseQueryRequest(req.body);
    if (body.describe) {
      await unsettledSession(res)?.confirm();
      // The types of the variables and the result, nothing run (DECISIONS, "Added 2026-11-29").
      const description = await engine.describe(body, caller);
      sendJson(res, 200, JSON.stringify({ describe: description }), await versionHeader(engine));
      return;
    }
    // requestTimeout's signal: past it the statement is cancelled (issue 26).
    // A read-only statement may run on a replica (docs/http.md, "Read replicas").
    // A signed-in caller's session is read in the query's statement (http/pending-session).
    const probe = unsettledSession(res)?.probe();
    const data = await engine.run(body, caller, {
      probe,
      signal: requestSignal(res),
      ...readRouting(deps.replicas, req, res, body.read !== 'primary'),
    });
    sendJson(res, 200, `{"data":${data}}`, await versionHeader(engine));
  };
}

/**
 * `X-Svc-Schema-Version`: the schema version the server knows after the query (a client keeps
 * a query's description per version, and describes it again when the version moved).
 */
async function versionHeader(engine: QueryEngine): Promise<Record<string, string>> {
  return { 'X-Svc-Schema-Version': (await engine.schema()).version };
}

/** The access mode and auth values a request's caller runs a query with. */
export function queryCaller(
  caller: Caller | undefined,
  deps: Pick<QueryHandlerDeps, 'protocol' | 'readOnly' | 'defaultAccess'>,
): QueryCaller {
  // Everything here comes from the verified token (@svc/auth authContextFromClaims), never from
  // the request body: these are the caller's globals (docs/http.md).
  // One literal, every key always present (an absent value is undefined): no spread in a
  // per-request object (ARCHITECTURE, "A request's objects die young").
  const auth: AuthValues =
    caller?.kind === 'user'
      ? {
          userId: caller.context.userId,
          email: caller.context.jwtClaims?.email,
          roles: caller.context.roles,
          isAnonymous: caller.context.isAnonymous,
          permissions: caller.context.permissions,
        }
      : ANONYMOUS_AUTH;
  const unrestricted = deps.protocol === 'simple' || isAdministrator(caller);
  const access: AccessMode = {
    policies: !unrestricted,
    readOnly: deps.readOnly,
    defaultAccess: deps.defaultAccess,
  };
  return { access, auth };
}
