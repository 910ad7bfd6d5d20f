import type { ErrorRequestHandler, Response } from 'express';
import { SvcError, commonError } from '@svc/core';
import type { Logger } from '../observability/logger';
import { unsettledSession } from './pending-session';
import { sendError } from './respond';

/**
 * Errors thrown by Express's body parser (and other http-errors) carry a `type`; map the ones a
 * client can cause to our codes. Anything else stays as it is (and renders as INTERNAL_ERROR).
 */
export function fromHttpError(err: unknown): unknown {
  if (err instanceof SvcError || typeof err !== 'object' || err === null) return err;
  const type = (err as { type?: unknown }).type;
  switch (type) {
    case 'entity.too.large': {
      const limit = (err as { limit?: number }).limit;
      return commonError(
        'PAYLOAD_TOO_LARGE',
        `request body exceeds ${limit ?? 'the limit of'} bytes`,
        { cause: err },
      );
    }
    case 'entity.parse.failed':
      return commonError('VALIDATION_ERROR', 'request body is not valid JSON', { cause: err });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return commonError(
        'UNSUPPORTED_MEDIA_TYPE',
        'request body encoding or charset is not supported',
        { cause: err },
      );
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return commonError('VALIDATION_ERROR', 'request body was incomplete', { cause: err });
    default:
      return err;
  }
}

/**
 * The app's last handler: whatever a route or middleware threw or passed to `next` leaves as the
 * envelope (http/respond.ts `sendError`). Express recognises an error handler by its four
 * parameters.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    answerError(res, err, logger);
  };
}

/**
 * The answer to anything a step or handler threw, for the Express chain (`errorHandler`) and the
 * hot lane (routes/lane.ts) alike: a body parser's error mapped to our codes, then the envelope.
 */
export function answerError(res: Response, err: unknown, logger: Logger): void {
  // A signed-in caller whose session is not read yet (http/pending-session): read it first, and
  // answer its 401 instead when it is not live; no error about the request leaks before that.
  const pending = unsettledSession(res);
  if (!pending) return sendError(res, fromHttpError(err), logger);
  pending.confirm().then(
    () => sendError(res, fromHttpError(err), logger),
    (refused: unknown) => sendError(res, refused, logger),
  );
}
