import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * One step of the request pipeline as a plain function: the body of a middleware without
 * Express's `next`, so the Express chain (routes/index.ts) and the hot lane (routes/lane.ts)
 * run the same code and cannot drift apart.
 *
 * - It returns `true` when it answered the request itself (a CORS preflight): nothing after it
 *   runs.
 * - It throws, or returns a promise that rejects, with a typed error: the pipeline's one error
 *   answer renders it (http/errors `answerError`).
 * - Otherwise (nothing, or a promise that resolves) the next step runs.
 *
 * The state a step leaves for the later ones lives where the handlers have always read it:
 * `res.locals` (`reqId`, `caller`, `signal`, `deadline`, `route`).
 */
export type Step = (req: Request, res: Response) => StepResult;
export type StepResult = boolean | undefined | Promise<void>;

/** A step as Express middleware: `next()` after it, `next(err)` for what it threw. */
export function middleware(step: Step): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    let out: StepResult;
    try {
      out = step(req, res);
    } catch (err) {
      next(err);
      return;
    }
    if (out === true) return;
    if (out instanceof Promise) {
      out.then(() => next(), next);
      return;
    }
    next();
  };
}

/** Express middleware as a step: for a gate that exists only as middleware (the admin UI's). */
export function asStep(handler: RequestHandler): Step {
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      const out: unknown = handler(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
      if (out instanceof Promise) out.catch(reject);
    });
}
