import type { Response } from 'express';
import { noteErrorCode, renderError } from '@svc/core';
import type { Logger } from '../observability/logger';
import { unsettledSession } from './pending-session';

/**
 * A request's deadline, when its route has one (`res.locals.deadline`, middleware/timeout): an
 * answer past it is the 408, even when the timer could not fire (the event loop was held).
 */
export interface Deadline {
  expireIfLate(): void;
}

/** Expires the request's deadline now if it passed (see `Deadline`). */
export function checkDeadline(res: Response): void {
  (res.locals.deadline as Deadline | undefined)?.expireIfLate();
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a JSON body straight to the socket: no ETag, no freshness check, no re-serialising of
 * bodies prepared at start-up. A response already sent (say, a 408 that beat the handler) is
 * left alone, and so is one whose request is past its requestTimeout: the 408 goes instead.
 */
export function sendJson(
  res: Response,
  status: number,
  body: unknown,
  headers?: Readonly<Record<string, string>>,
): void {
  if (!mayAnswer(res)) return;
  if (status < 400 && unsettledSession(res)) {
    // A handler answered before the caller's session was read: a bug, never a served answer.
    throw new Error('http/respond: an answer before the pending session settled');
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.statusCode = status;
  if (headers) for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * The one place any thrown value becomes an HTTP answer: the error envelope (docs/http.md) with the
 * status from the error's table. The original of an unexpected error is logged, never sent.
 */
export function sendError(res: Response, err: unknown, logger: Logger): void {
  const rendered = renderError(err);
  if (rendered.unexpected) {
    logger.error({ err, reqId: res.locals.reqId }, 'unexpected error');
  }
  noteErrorCode(res, rendered.body.code);
  if (res.headersSent) {
    // Too late for an envelope: end the response so the client is not left waiting.
    if (!res.writableEnded) res.destroy();
    return;
  }
  sendJson(res, rendered.status, rendered.body, rendered.headers);
}

/**
 * Whether the handler may still write its answer: not when one was already sent, nor past the
 * request's deadline, whose 408 (middleware/timeout) is then sent first: its timer cannot fire
 * while the event loop is held (an embedded PGlite statement), so an answer checks the clock.
 */
export function mayAnswer(res: Response): boolean {
  checkDeadline(res);
  return !(res.headersSent || res.writableEnded);
}
