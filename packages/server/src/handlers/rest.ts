/**
 * `/api/*` (docs/http.md, "REST routes"): parseRequest (@svc/rest) → the REST model of
 * the schema queries compile against now (built once per schema version: `restModelSource`) →
 * planRequest → the `/query` engine with the same caller (`queryCaller`: access policies,
 * read-only, the auth values) → the answer.
 *
 * Answers: a list and a linked collection the bare array PostgreSQL built; one object the bare
 * object (the array's text without its brackets; the statements ask for single expanded links
 * as objects, so no answer is parsed in Node: @svc/rest `answerBody`); 201 for POST; 204
 * with no body for DELETE whether or not the row existed; 404 NOT_FOUND for GET or PATCH of an
 * id that is not there (or that the caller's access policies hide), and for a linked
 * collection whose parent is not there (checked only when the page is empty).
 * Errors keep their class (the engine's): QUERY_ERROR 400 with `type`, CONSTRAINT_VIOLATION
 * 409, ACCESS_DENIED 403, READ_ONLY 503.
 */
import type { Request, Response } from 'express';
import {
  commonError,
  type DefaultAccess,
  type QueryEngine,
  type QueryRequest,
  type Schema,
} from '@svc/core';
import {
  answerBody,
  isEmptyResult,
  parseRequest,
  planRequest,
  restModel,
  type RestModel,
} from '@svc/rest';
import type { Protocol } from '../config';
import { unsettledSession } from '../http/pending-session';
import { mayAnswer, sendJson } from '../http/respond';
import type { Caller } from '../middleware/authenticate';
import { requestSignal } from '../middleware/timeout';
import { readRouting, type Replicas } from '../replicas';
import { queryCaller } from './query';

/** The schema queries compile against now, with its REST model. */
export interface RestSchema {
  readonly version: string;
  readonly schema: Schema;
  readonly model: RestModel;
}

export interface RestModelSource {
  /** The current schema and its REST model; the model is built once per schema version. */
  current(): Promise<RestSchema>;
}

/**
 * One REST model per schema version, shared by the data routes and the OpenAPI document, so
 * both read the same view and a migration is seen by both without a restart.
 */
export function restModelSource(engine: Pick<QueryEngine, 'schema'>): RestModelSource {
  let cached: RestSchema | undefined;
  return {
    async current() {
      const { version, schema } = await engine.schema();
      if (cached?.version !== version || cached.schema !== schema) {
        cached = { version, schema, model: restModel(schema) };
      }
      return cached;
    },
  };
}

export interface RestHandlerDeps {
  readonly engine: QueryEngine;
  readonly models: RestModelSource;
  readonly protocol: Protocol;
  readonly readOnly: boolean;
  readonly defaultAccess: DefaultAccess;
  /** Read replicas: a GET's statements may run there (replicas/). */
  readonly replicas?: Replicas | undefined;
}

export function restHandler(deps: RestHandlerDeps) {
  const { engine, models } = deps;
  return async (req: Request, res: Response): Promise<void> => {
    const queryAt = req.url.indexOf('?');
    const request = parseRequest({
      method: req.method,
      path: queryAt < 0 ? req.url : req.url.slice(0, queryAt),
      query: queryAt < 0 ? '' : req.url.slice(queryAt + 1),
      body: req.body,
    });
    if (request.kind === 'openapi') {
      throw commonError('NOT_FOUND', 'the OpenAPI document is not served by this route');
    }
    const { schema, model } = await models.current();
    const plan = planRequest(request, model, schema);
    const caller = queryCaller(res.locals.caller as Caller | undefined, deps);
    // requestTimeout's signal, read before each statement: none starts past the deadline, and a
    // running one is cancelled (issue 26).
    // A GET reads: its statements may run on a replica (docs/http.md, "Read replicas"); other
    // methods stay on the primary, their read-backs included.
    const reads = req.method === 'GET' || req.method === 'HEAD';
    // A signed-in caller's session is read in the first statement (http/pending-session).
    const run = (request: QueryRequest) => {
      const probe = unsettledSession(res)?.probe();
      return engine.run(request, caller, {
        probe,
        signal: requestSignal(res),
        ...readRouting(deps.replicas, req, res, reads),
      });
    };
    const text = await run(plan);
    switch (plan.answer) {
      case 'deleted':
        if (mayAnswer(res)) res.status(204).end();
        return;
      case 'list': {
        if (plan.parent && isEmptyResult(text) && isEmptyResult(await run(plan.parent))) {
          throw commonError('NOT_FOUND', plan.missing ?? 'not found');
        }
        sendJson(res, 200, answerBody(plan, text) ?? '[]');
        return;
      }
      case 'object':
      case 'created': {
        const body = answerBody(plan, text);
        if (body === null) {
          if (plan.answer === 'object') throw commonError('NOT_FOUND', plan.missing ?? 'not found');
          // Written, but the caller's access policies do not let it read the row back.
          sendJson(res, 201, 'null');
          return;
        }
        sendJson(res, plan.answer === 'created' ? 201 : 200, body);
        return;
      }
    }
  };
}
