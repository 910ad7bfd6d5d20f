import type { NextFunction, Request, Response } from 'express';
import { commonError } from '@svc/core';
import type { Logger } from '../../observability/logger';
import { sendError } from '../../http/respond';

/**
 * Bounds a request by `ms`: past it the client gets 408 REQUEST_TIMEOUT (and the connection is
 * closed, since the request body may be unread), and `res.locals.signal` aborts so work in
 * progress (a database query) can stop. A late answer from the handler is then dropped.
 */
export function requestTimeout(ms: number, logger: Logger) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const controller = new AbortController();
    res.locals.signal = controller.signal;
    const timer = setTimeout(() => {
      controller.abort();
      if (res.headersSent) return;
      res.setHeader('Connection', 'close');
      sendError(
        res,
        commonError('REQUEST_TIMEOUT', `request exceeded the ${ms} ms timeout`),
        logger,
      );
    }, ms);
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
