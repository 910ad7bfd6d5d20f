import type { Request, RequestHandler, Response } from 'express';
import { commonError, type StopSignal } from '@svc/core';
import type { Logger } from '../../observability/logger';
import { checkDeadline, type Deadline, sendError } from '../../http/respond';
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
    const deadline = new RequestDeadline(res, ms, logger);
    res.locals.signal = deadline;
    res.locals.deadline = deadline;
    res.on('close', clearDeadline);
    return undefined;
  };
}

/** The response's 'close' listener, one for all: the request's deadline is cleared. */
function clearDeadline(this: Response): void {
  (this.locals.deadline as RequestDeadline).clear();
}

/** The timer's callback, one for all: the deadline it was armed for expires. */
function expireDeadline(deadline: RequestDeadline): void {
  deadline.expire();
}

/**
 * One request's deadline and its stop signal (@svc/core StopSignal): the timer that answers 408
 * and stops the request's statements. It is not an AbortSignal: making an AbortController costs
 * Node 20 about 6 µs, and a data-plane request made one for a signal nearly never aborted. Its
 * timer and the response's 'close' reach it through functions shared by every request
 * (`expireDeadline`, `clearDeadline`): a request makes this object and Node's timer, no closure.
 */
export class RequestDeadline implements StopSignal, Deadline {
  #aborted = false;
  readonly #res: Response;
  readonly #ms: number;
  readonly #logger: Logger;
  readonly #at: number;
  readonly #timer: NodeJS.Timeout;
  #listeners: Array<() => void> | undefined;

  constructor(res: Response, ms: number, logger: Logger) {
    this.#res = res;
    this.#ms = ms;
    this.#logger = logger;
    this.#at = performance.now() + ms;
    this.#timer = setTimeout(expireDeadline, ms, this);
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#aborted) return;
    this.#listeners ??= [];
    this.#listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.#listeners;
    const at = listeners?.indexOf(listener) ?? -1;
    if (at >= 0) listeners?.splice(at, 1);
  }

  /** Stops the timer: the response is done. */
  clear(): void {
    clearTimeout(this.#timer);
  }

  /** Expires now when the deadline passed while the event loop was held. */
  expireIfLate(): void {
    if (performance.now() >= this.#at) this.expire();
  }

  /** Past the deadline: the signal aborts (listeners first), then the 408, unless answered. */
  expire(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    clearTimeout(this.#timer);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
    const res = this.#res;
    if (res.headersSent) return;
    res.setHeader('Connection', 'close');
    sendError(
      res,
      commonError('REQUEST_TIMEOUT', `request exceeded the ${this.#ms} ms timeout`),
      this.#logger,
    );
  }
}

/**
 * The abort signal of a request under `requestTimeout` (undefined for routes without one),
 * aborted now if the deadline passed while the event loop was busy: give it to every statement
 * the request runs, so none starts past the deadline.
 */
export function requestSignal(res: Response): StopSignal | undefined {
  checkDeadline(res);
  return res.locals.signal as StopSignal | undefined;
}
