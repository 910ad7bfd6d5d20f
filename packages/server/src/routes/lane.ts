/**
 * The hot lane (issue 34): the data plane's requests, `POST /query` and `/api/*` (REST), and the
 * liveness probes (`GET /health`, `/health/live`), taken before Express's router and run through one flat list of plain steps (http/step) and the
 * route's handler; everything else (auth, admin, docs, OpenAPI, transactions, probes, 404 and
 * 405) is Express's, as before.
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
 *   `X-Svc-Transaction`, and `/api`, `/api/...` (any method) except the paths of the API
 *   reference and the OpenAPI document. Anything else, a case or slash variant included, falls
 *   through to Express, which answers it as it always did.
 * - Before the steps it does what Express does to every request (`app.handle`, the router):
 *   the circular `req.res`/`res.req`, Express's prototypes, `res.locals`, `req.originalUrl` and
 *   `req.baseUrl`, and for `/api` the mount path cut off `req.url` as `app.use('/api')` does.
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
  /** `/api/*`: present when REST is on. */
  readonly rest?: LaneRoute | undefined;
  readonly logger: Logger;
}

type ExpressHandle = (req: Request, res: Response, next?: NextFunction) => unknown;

/** Where REST is mounted; its first characters are what the lane compares. */
const REST_MOUNT = '/api';
/** `/api/...` paths that are not REST's (Express's routes before `/api`), lower-cased. */
const NOT_REST = ['/api/docs', '/api/openapi.json'];

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
  const { query, rest, gets, logger } = lane;
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
    } else if (
      rest !== undefined &&
      path.startsWith(REST_MOUNT) &&
      (path.length === REST_MOUNT.length || path.charCodeAt(REST_MOUNT.length) === 47) /* / */
    ) {
      const lower = path.toLowerCase();
      if (NOT_REST.some((p) => lower.startsWith(p))) return false;
      route = rest;
      mount = REST_MOUNT.length;
    } else return false;

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
