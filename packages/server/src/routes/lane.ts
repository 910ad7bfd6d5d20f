/**
 * The hot lane (issue 34): the data plane's requests, `POST /query` and `/api/*` (REST), the auth
 * routes (`/auth/*`) and the liveness probes (`GET /health`, `/health/live`), taken before
 * Express's router and run through one flat list of plain steps (http/step) and the route's
 * handler; everything else (admin, docs, OpenAPI, transactions, other probes, 404 and 405) is
 * Express's, as before.
 *
 * Input: a request as Node parsed it. Output: `true` when the lane took it (it then answers it,
 * the error envelope included), `false` when Express should route it.
 *
 * Invariants:
 * - The lane holds no logic of its own. Its steps are the very functions the Express middleware
 *   wrap (request context, security headers, CORS, route label, timeout, caller, read-only
 *   gate, body), built once in routes/index.ts and handed to both; its handlers are the route
 *   handlers; its errors go through `answerError`, Express's error handler's body. So the lane
 *   and Express cannot answer differently, and `hotLane: false` (Express for all) is the check:
 *   the data-plane tests run in both modes (test/hot-lane.test.ts compares answers byte for byte).
 * - It takes only what it serves exactly as Express would: `POST /query` without
 *   `X-Svc-Transaction`, and under a mount (`/api`, `/api/...` except the paths of the API
 *   reference and the OpenAPI document; `/auth`, `/auth/...`) any method. Anything else, a case
 *   or slash variant included, falls through to Express, which answers it as it always did.
 * - Before the steps it does what Express does to every request (`app.handle`, the router):
 *   the circular `req.res`/`res.req`, Express's prototypes, `res.locals`, `req.originalUrl` and
 *   `req.baseUrl`, and under a mount its path cut off `req.url` as `app.use(path)` does.
 *   What it saves is the router's walk over every layer before the route and the chain's
 *   `next` closures.
 */
import type { Express, NextFunction, Request, Response } from 'express';
import { answerError } from '../http/errors';
import type { Step } from '../http/step';
import type { Logger } from '../observability/logger';

/** A route handler as routes/index.ts declares them. */
export type LaneHandler = (req: Request, res: Response) => unknown;

/** One route of the lane: its steps in order, then its handler. */
export interface LaneRoute {
  readonly steps: readonly Step[];
  readonly handler: LaneHandler;
}

export interface HotLane {
  /** `POST /query`. */
  readonly query: LaneRoute;
  /**
   * Routes the lane takes by exact `GET` path: the liveness probes, which a load balancer asks
   * many times a second (a `HEAD`, another method or a variant of the path is Express's).
   */
  readonly gets?: ReadonlyMap<string, LaneRoute>;
  /** Routes mounted under a path (`app.use(path, ...)`): REST's `/api`, auth's `/auth`. */
  readonly mounts?: readonly LaneMount[];
  readonly logger: Logger;
}

/** A route the lane takes for every path at or under `path` (but `except`), any method. */
export interface LaneMount {
  /** Lower case, no trailing slash: `/api`. */
  readonly path: string;
  /** Paths under it that are not this route's (Express's routes before it), lower case. */
  readonly except?: readonly string[];
  readonly route: LaneRoute;
}

type ExpressHandle = (req: Request, res: Response, next?: NextFunction) => unknown;

/**
 * Puts the lane in front of `app`'s router: `app(req, res)` (the server's listener, an in-process
 * test's, a host app that mounts it) first offers the request to the lane.
 */
export function installHotLane(app: Express, lane: HotLane): void {
  const take = hotLane(app, lane);
  // `app(req, res)` calls `app.handle`, which sets the request up and starts the router.
  const handled = app as unknown as { handle: ExpressHandle };
  const expressHandle = handled.handle;
  handled.handle = function handle(this: unknown, req, res, next) {
    if (take(req, res)) return;
    return expressHandle.call(this, req, res, next);
  };
}

/** The lane as a function: `true` when it took the request. */
export function hotLane(app: Express, lane: HotLane): (req: Request, res: Response) => boolean {
  const { query, mounts = [], gets, logger } = lane;
  return (req, res) => {
    const url = req.url;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    let route = req.method === 'GET' ? gets?.get(path) : undefined;
    let mount = 0;
    if (route !== undefined) {
      // An exact path: taken as it is.
    } else if (path === '/query') {
      // A request in an open transaction, and every other method, are Express's.
      if (req.method !== 'POST' || req.headers['x-svc-transaction'] !== undefined) return false;
      route = query;
    } else {
      const under = mounts.find((m) => isAtOrUnder(path, m.path));
      if (under === undefined) return false;
      const lower = path.toLowerCase();
      if (under.except?.some((p) => lower.startsWith(p))) return false;
      route = under.route;
      mount = under.path.length;
    }

    // What Express's app.handle and router do to every request before the first layer.
    req.res = res;
    res.req = req;
    if (Object.getPrototypeOf(req) !== app.request) Object.setPrototypeOf(req, app.request);
    if (Object.getPrototypeOf(res) !== app.response) Object.setPrototypeOf(res, app.response);
    if (!res.locals) res.locals = Object.create(null);
    req.originalUrl = req.originalUrl || url;
    req.baseUrl = req.baseUrl || '';
    if (mount > 0) {
      // As `app.use('/api', ...)` does: the handler sees the path below the mount.
      const below = url.slice(mount);
      req.url = below.startsWith('/') ? below : `/${below}`;
      req.baseUrl += url.slice(0, mount);
    }
    void run(route, req, res, logger);
    return true;
  };
}

/** `path` is `mount` or below it (`/api`, `/api/x`; not `/apix`), in the same case. */
function isAtOrUnder(path: string, mount: string): boolean {
  return (
    path.startsWith(mount) &&
    (path.length === mount.length || path.charCodeAt(mount.length) === 47) /* / */
  );
}

async function run(route: LaneRoute, req: Request, res: Response, logger: Logger): Promise<void> {
  try {
    for (const step of route.steps) {
      const out = step(req, res);
      if (out === true) return;
      if (out instanceof Promise) await out;
    }
    await route.handler(req, res);
  } catch (err) {
    answerError(res, err, logger);
  }
}
