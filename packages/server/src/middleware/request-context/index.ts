import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { errorCodeOf } from '@svc/core';
import { middleware } from '../../http/step';
import type { Logger } from '../../observability/logger';
import type { ServerMetrics } from '../../observability/metrics';

/** Counts requests in flight and tells responses to close their connection while draining. */
export class Lifecycle {
  inFlight = 0;
  draining = false;
  #idle: Array<() => void> = [];

  enter(): void {
    this.inFlight++;
  }
  leave(): void {
    this.inFlight--;
    if (this.inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
  }
  /** Resolves when no request is in flight. */
  idle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((r) => this.#idle.push(r));
  }
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * First in the chain: a request id on every response (the caller's `X-Request-Id` when it is a
 * sane token, else a new UUID), in-flight accounting for graceful shutdown, and on close one
 * metrics observation and one log line built from an allow-list: never headers, never the query
 * string (which may carry `?token=`), never a body. A refused or failed request's line carries its
 * envelope's `code`, as noted where the envelope was rendered (core `noteErrorCode`), so a log
 * alone says why.
 */
export function requestContext(deps: RequestContextDeps): RequestHandler {
  return middleware(beginRequest(deps));
}

export interface RequestContextDeps {
  logger: Logger;
  metrics: ServerMetrics;
  lifecycle: Lifecycle;
}

/** `requestContext` as a plain step (http/step), for the hot lane and the middleware alike. */
export function beginRequest(deps: RequestContextDeps) {
  const { logger, metrics, lifecycle } = deps;
  // One listener for every response, `this` the response, what it needs on `res.locals`: no
  // closure and no `once` wrapper per request ('close' is emitted once).
  function requestClosed(this: Response): void {
    const req = this.req;
    lifecycle.leave();
    const seconds = (performance.now() - (this.locals.started as number)) / 1000;
    const route = routeLabel(req, this);
    metrics.observeRequest(req.method, route, this.statusCode, seconds);
    const level = route.startsWith('/health') ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const code = this.statusCode >= 400 ? errorCodeOf(this) : undefined;
    logger[level](
      {
        reqId: this.locals.reqId,
        method: req.method,
        route,
        path: req.originalUrl.split('?', 1)[0],
        status: this.statusCode,
        ...(code === undefined ? {} : { code }),
        ms: Math.round(seconds * 10000) / 10,
        ...(this.writableFinished ? {} : { aborted: true }),
      },
      'request',
    );
  }
  return (req: Request, res: Response): undefined => {
    res.locals.started = performance.now();
    const incoming = req.headers['x-request-id'];
    const reqId =
      typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    res.locals.reqId = reqId;
    res.setHeader('X-Request-Id', reqId);
    if (lifecycle.draining) res.setHeader('Connection', 'close');
    lifecycle.enter();
    res.on('close', requestClosed);
    return undefined;
  };
}

/**
 * A step naming the route for the metrics and the log (`res.locals.route`), where Express's
 * `req.route` does not: a mount (`/api/*`) or the hot lane.
 */
export function labelRoute(route: string) {
  return (_req: Request, res: Response): undefined => {
    res.locals.route = route;
    return undefined;
  };
}

/** A low-cardinality label: the route pattern, never the raw path. */
function routeLabel(req: Request, res: Response): string {
  if (typeof res.locals.route === 'string') return res.locals.route;
  if (req.route?.path && typeof req.route.path === 'string') return req.baseUrl + req.route.path;
  return 'unmatched';
}
