import type { Request, RequestHandler, Response } from 'express';
import { commonError } from '@svc/core';
import type { Logger } from '../../observability/logger';
import { sendError } from '../../http/respond';
import { middleware } from '../../http/step';

/**
 * Bounds a request by `ms`: past it the client gets 408 REQUEST_TIMEOUT (and the connection is
 * closed, since the request body may be unread), and the request's signal (`requestSignal`)
 * aborts, which cancels the statement it runs (@svc/core QueryOptions.signal). A late answer
 * from the handler is then dropped.
 *
 * The timer cannot fire while the event loop is held (embedded PGlite runs a statement on this
 * thread, to its end), so the deadline is also checked when the request's signal is read and
 * when an answer is written (http/respond `sendJson`): an answer past it is the 408 all the same.
 */
export function requestTimeout(ms: number, logger: Logger): RequestHandler {
  return middleware(startTimeout(ms, logger));
}

/** `requestTimeout` as a plain step (http/step), for the hot lane and the middleware alike. */
export function startTimeout(ms: number, logger: Logger) {
  return (_req: Request, res: Response): undefined => {
    const controller = new AbortController();
    const deadline = performance.now() + ms;
    const expire = () => {
      if (controller.signal.aborted) return;
      clearTimeout(timer);
      controller.abort();
      if (res.headersSent) return;
      res.setHeader('Connection', 'close');
      sendError(
        res,
        commonError('REQUEST_TIMEOUT', `request exceeded the ${ms} ms timeout`),
        logger,
      );
    };
    const timer = setTimeout(expire, ms);
    res.locals.signal = controller.signal;
    res.locals.expireIfLate = () => {
      if (performance.now() >= deadline) expire();
    };
    res.once('close', () => clearTimeout(timer));
    return undefined;
  };
}

/**
 * The abort signal of a request under `requestTimeout` (undefined for routes without one),
 * aborted now if the deadline passed while the event loop was busy: give it to every statement
 * the request runs, so none starts past the deadline.
 */
export function requestSignal(res: Response): AbortSignal | undefined {
  (res.locals.expireIfLate as (() => void) | undefined)?.();
  return res.locals.signal as AbortSignal | undefined;
}
