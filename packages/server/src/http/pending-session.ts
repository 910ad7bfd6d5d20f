/**
 * http/pending-session: a signed-in caller whose token is verified but whose session is not read
 * yet (middleware/authenticate `deferSession`, on the data routes). The handler hands
 * `probe()` to the query engine, which reads the session in the query's own statement (one round
 * trip: @svc/core `RunOptions.probe`), or calls `confirm()`, which reads it alone.
 *
 * Invariant: nothing is answered before the session settled. A success goes through `sendJson`,
 * which refuses to write while one is pending (a handler that forgot is a bug, caught as a 500,
 * never an answer on a dead session); an error goes through `sendError`'s callers
 * (http/errors), which confirm it first and answer its 401 instead when it is not live.
 */
import type { Response } from 'express';
import type { Probe } from '@svc/core';
import type { TokenCheck } from '@svc/auth';

/** A signed-in caller's session, still to be read. */
export interface PendingSession {
  /** The session read for the engine to carry (RunOptions.probe); undefined once settled. */
  probe(): Probe | undefined;
  /** Reads the session alone, unless it settled already: resolves when live, else throws 401. */
  confirm(): Promise<void>;
  /**
   * Whether the probe or the confirmation resolved. A method, not a getter: a getter in the
   * object literal made per request would get a hidden class of its own in the old generation,
   * keeping all the request reaches alive through young-generation collections
   * (middleware/authenticate `appToken` says more).
   */
  isSettled(): boolean;
}

/**
 * A token check (@svc/auth `TokenCheck`) as a pending session, settled once the probe or the
 * confirmation resolved; `refusal` dresses a refusal (the 401's `WWW-Authenticate` challenge).
 */
export function pendingSession(
  check: TokenCheck,
  refusal: (err: unknown) => unknown,
): PendingSession {
  let settled = false;
  const confirm = async () => {
    if (settled) return;
    try {
      await check.confirm();
    } catch (err) {
      throw refusal(err);
    }
    settled = true;
  };
  const carried = check.probe;
  const probe: Probe | undefined = carried && {
    select: carried.select,
    value: carried.value,
    settle: async (text) => {
      try {
        await carried.settle(text);
      } catch (err) {
        throw refusal(err);
      }
      settled = true;
    },
    confirm,
  };
  return {
    probe: () => (settled ? undefined : probe),
    confirm,
    isSettled: () => settled,
  };
}

/** The request's pending session, when it has one that has not settled. */
export function unsettledSession(res: Response): PendingSession | undefined {
  const session = res.locals.pendingSession as PendingSession | undefined;
  return session && !session.isSettled() ? session : undefined;
}
