import express, {
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import {
  commonError,
  type Database,
  type Migrator,
  type QueryEngine,
  type Schema,
} from '@svc/core';
import { authOpenApi, authOpenApiOptions, matchAuthRoute, type Auth } from '@svc/auth';
import { toNodeListener } from '@svc/auth/express';
import { proxyItems, type ResolvedConfig } from '../config';
import { errorHandler } from '../http/errors';
import { sendJson } from '../http/respond';
import { adminApiHandlers } from '../handlers/admin-api';
import { adminAuthHandlers } from '../handlers/admin-auth';
import {
  ADMIN_ACCOUNT_PATH,
  ADMIN_DATA_PATH,
  ADMIN_SESSION_PATH,
  adminGates,
  adminSessionHandlers,
} from '../handlers/admin-session';
import {
  ADMIN_UI_PATH,
  adminUiHandler,
  loadAdminUi,
  type AdminUiFiles,
} from '../handlers/admin-ui';
import { openApiHandler } from '../handlers/openapi';
import { queryHandler } from '../handlers/query';
import { TRANSACTION_HEADER, transactionHandlers } from '../handlers/transactions';
import { DEFAULT_DOCS, docsHandlers } from '../handlers/docs';
import { devMailHandlers } from '../handlers/dev-mail';
import { restHandler, restModelSource } from '../handlers/rest';
import { schemaHandlers } from '../handlers/schema';
import { asStep, middleware, type Step } from '../http/step';
import { identifyCaller } from '../middleware/authenticate';
import { readJsonBody } from '../middleware/body';
import { requireMetricsToken } from '../middleware/metrics-token';
import { corsStep } from '../middleware/cors';
import { cookieRequestGuard } from '../middleware/csrf';
import { refuseWritesWhenReadOnly } from '../middleware/read-only';
import { beginRequest, labelRoute, type Lifecycle } from '../middleware/request-context';
import { setSecurityHeaders } from '../middleware/security-headers';
import { startTimeout } from '../middleware/timeout';
import { installHotLane, type LaneRoute } from './lane';
import type { Replicas } from '../replicas';
import type { Logger } from '../observability/logger';
import type { ServerMetrics } from '../observability/metrics';
import type { Transactions } from '../transactions';

export interface AppDeps {
  readonly config: ResolvedConfig;
  readonly database: Database;
  readonly logger: Logger;
  readonly metrics: ServerMetrics;
  readonly lifecycle: Lifecycle;
  /** Present when auth is enabled. */
  readonly auth: Auth | undefined;
  readonly version: string;
  readonly migrator: Migrator;
  readonly buildSchema: (sdl: string) => Schema;
  /** Runs `POST /query`; told when `POST /migrations` changed the schema. */
  readonly queryEngine: QueryEngine;
  /** The open transactions (`/transactions`, `X-Svc-Transaction`). */
  readonly transactions: Transactions;
  /** Read replicas (`[database] replica_urls`), when configured. */
  readonly replicas?: Replicas;
  /** Called with the schema after `POST /migrations` changed it (the open-types warning). */
  readonly onSchema?: (schema: Schema) => void;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Handler = (req: Request, res: Response) => unknown;

interface RouteOptions {
  /** Behind the `requireAuth` gate (docs/http.md): data-plane routes. */
  readonly gated?: boolean;
  /** Under the request timeout without a gate (a gated route always is). */
  readonly timed?: boolean;
  /** A gated route's own gate in place of the `requireAuth` one (the metrics token). */
  readonly gate?: RequestHandler;
  /** Methods whose JSON body is parsed. */
  readonly body?: readonly Method[];
}

const READY_TIMEOUT_MS = 2000;

/**
 * The route table (docs/http.md lists every route; `scripts/docs-http.mjs --check` compares). Every response, error or not, leaves through `sendJson` or
 * `sendError`; unknown paths are 404 and known paths with another method 405, both in the
 * envelope. Per-request work is only what a route needs: bodies are parsed on routes that take
 * one, the timeout and the auth gate sit on the routes that do work, and static bodies are
 * serialised once here.
 */
export function buildApp(deps: AppDeps): Express {
  const { config, database, logger, metrics, lifecycle, auth, version, migrator } = deps;
  const verify = auth ? (token: string) => auth.verifyToken(token) : undefined;
  const app = expressApp();
  // X-Forwarded-For and -Proto are believed only from the proxies configured (req.ip, req.protocol):
  // otherwise any client could pick the address the rate limits count.
  if (config.trustProxy !== undefined) app.set('trust proxy', proxyItems(config.trustProxy));

  // Each step once, as a plain function (http/step): the Express middleware below wrap these,
  // and the hot lane (routes/lane.ts) runs the same ones.
  const checkOrigin = cookieRequestGuard(config.cors?.origins);
  const gateOptions = {
    verify,
    serviceKey: config.serviceKey,
    required: config.requireAuth,
    checkOrigin,
  };
  const steps = {
    context: beginRequest({ logger, metrics, lifecycle }),
    securityHeaders: setSecurityHeaders,
    cors: config.cors ? corsStep(config.cors) : undefined,
    timeout: startTimeout(config.requestTimeout, logger),
    gate: identifyCaller(gateOptions),
    // The data routes' gate: a signed-in caller's session is read in the query's own statement
    // (http/pending-session), except in an open transaction, whose handler runs its own reads.
    dataGate: identifyCaller({
      ...gateOptions,
      ...(auth ? { check: (token: string) => auth.checkToken(token) } : {}),
      deferSession: (req) => req.get(TRANSACTION_HEADER) === undefined,
    }),
    readOnly: refuseWritesWhenReadOnly(config.readOnly),
    body: readJsonBody(config.bodyLimit),
  } satisfies Record<string, Step | undefined>;
  const timeout = middleware(steps.timeout);
  const body = middleware(steps.body);
  const gate = middleware(steps.gate);
  const dataGate = middleware(steps.dataGate);

  function route(
    path: string,
    handlers: Partial<Record<Method, Handler>>,
    options: RouteOptions = {},
  ): void {
    const r = app.route(path);
    const allowed = Object.keys(handlers) as Method[];
    for (const method of allowed) {
      const chain: RequestHandler[] = [];
      if (options.gated) chain.push(timeout, options.gate ?? gate);
      else if (options.timed) chain.push(timeout);
      if (options.body?.includes(method)) chain.push(body);
      const handler = handlers[method] as Handler;
      chain.push(async (req, res) => {
        await handler(req, res);
      });
      r[method.toLowerCase() as 'get'](...chain);
    }
    r.all(methodNotAllowed(allowed));
  }

  // Before any route, so every answer carries them, errors and preflights included.
  const front: Step[] = [steps.context, steps.securityHeaders, ...(steps.cors ? [steps.cors] : [])];
  for (const step of front) app.use(middleware(step));

  // Service information and probes: public, no timeout, bodies prepared once.
  const rootBody = JSON.stringify({ name: 'svc', version });
  const okBody = JSON.stringify({ status: 'ok' });
  const alive: Handler = (_req, res) => sendJson(res, 200, okBody);
  route('/', { GET: (_req, res) => sendJson(res, 200, rootBody) });
  route('/health', { GET: alive });
  route('/health/live', { GET: alive });
  route('/health/ready', {
    GET: async (_req, res) => {
      try {
        await withDeadline(database.ping(), READY_TIMEOUT_MS);
      } catch {
        throw commonError('SERVICE_UNAVAILABLE', 'the database is not answering');
      }
      sendJson(res, 200, okBody);
    },
  });

  // Data plane: behind the requireAuth gate.
  const gated = { gated: true } as const;
  // The figures: with a metrics token, behind it alone (middleware/metrics-token).
  const figures = config.metricsToken
    ? { gated: true, gate: requireMetricsToken(config.metricsToken) }
    : gated;
  route(
    '/metrics',
    {
      GET: async (_req, res) => {
        const text = await metrics.text();
        res.status(200).setHeader('Content-Type', metrics.contentType);
        res.end(text);
      },
    },
    figures,
  );
  // Read-only mode is decided per query, once compiled (a select runs, a write is 503).
  const queryDeps = {
    engine: deps.queryEngine,
    protocol: config.protocol,
    readOnly: config.readOnly,
    defaultAccess: config.defaultAccess,
    transactions: deps.transactions,
    replicas: deps.replicas,
  };
  const schema = schemaHandlers({
    database,
    migrator,
    build: deps.buildSchema,
    guarded: Boolean(auth || config.serviceKey),
    readOnly: config.readOnly,
    access: config,
    onMigrated: async () => {
      deps.queryEngine.schemaChanged();
      if (!deps.onSchema) return;
      // Read as the next query will (then cached for it); the migration stands whatever happens here.
      try {
        deps.onSchema((await deps.queryEngine.schema()).schema);
      } catch (err) {
        logger.error({ err }, 'could not read the migrated schema');
      }
    },
  });
  const query = queryHandler(queryDeps);
  const stats = async (_req: Request, res: Response) =>
    sendJson(res, 200, await metrics.snapshot());
  /**
   * The data plane the admin UI uses, at `prefix`: the app's at '' behind its gates, and again
   * under `/_/api/db` behind the admin gate (the same handlers, not copies).
   */
  function dataPlane(prefix: string, on: RouteOptions, figuresOn: RouteOptions): void {
    route(`${prefix}/stats`, { GET: stats }, figuresOn);
    // Behind the app's own gate, the deferring one (`dataGate`); the admin UI's stays its own.
    route(`${prefix}/query`, { POST: query }, { gate: dataGate, ...on, body: ['POST'] });
    route(`${prefix}/schema`, { GET: schema.getSchema }, on);
    route(`${prefix}/schema/types`, { GET: schema.getTypes }, on);
    // Read-only mode refuses a migration in the handler, once the body says it is no dry run.
    route(
      `${prefix}/migrations`,
      { GET: schema.getHistory, POST: schema.postMigration },
      { ...on, body: ['POST'] },
    );
  }
  dataPlane('', gated, figures);
  // Transactions (docs/http.md, "Transactions"): held open across requests, or a batch in one.
  const tx = transactionHandlers({
    ...queryDeps,
    transactions: deps.transactions,
    database,
    statementTimeout: config.requestTimeout,
  });
  route('/query/batch', { POST: tx.batch }, { ...gated, body: ['POST'] });
  route('/transactions', { POST: tx.begin }, { ...gated, body: ['POST'] });
  route('/transactions/:id/commit', { POST: tx.commit }, gated);
  route('/transactions/:id/rollback', { POST: tx.rollback }, gated);
  app.use('/ext', timeout, gate, (req: Request, _res: Response, next: NextFunction) => {
    next(commonError('NOT_FOUND', `no extension route ${req.method} ${req.baseUrl}${req.path}`));
  });

  // Auth: registered only when enabled with a secret (else /auth/* is 404). @svc/auth's own handler
  // classifies the routes (404/405), demands tokens at the router and renders its errors.
  let authLane: LaneRoute | undefined;
  if (auth) {
    const listener = toNodeListener(auth.handler, {
      bodyLimit: config.bodyLimit,
    });
    // The route's label for the log and the metrics: the declared route, else `/auth/*`.
    const labelAuthRoute = (req: Request, res: Response): undefined => {
      const match = matchAuthRoute(req.method, req.path);
      res.locals.route = match.kind === 'route' ? `/auth${match.route.path}` : '/auth/*';
      return undefined;
    };
    // The listener answers every request itself, its errors included; what it cannot answer it
    // hands to `next`: here a rejection, for Express's error handler or the lane's alike.
    const serveAuth = (req: Request, res: Response): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        listener(req, res, (err) => (err === undefined ? resolve() : reject(err))).then(
          resolve,
          reject,
        );
      });
    app.use(
      '/auth',
      timeout,
      middleware(labelAuthRoute),
      (req: Request, res: Response, next: NextFunction) => {
        serveAuth(req, res).catch(next);
      },
    );
    authLane = { steps: [...front, steps.timeout, labelAuthRoute], handler: serveAuth };
  }

  // The development inbox (issue 30): only with auth on and no SMTP server (auth.devMailbox);
  // loopback callers only unless devMail is true (handlers/dev-mail). Every other /_/ path is not
  // this feature's.
  if (auth?.devMailbox) {
    const mail = devMailHandlers({ auth, open: config.devMail === true });
    route('/_/mail', { GET: mail.list, DELETE: mail.clear });
    route('/_/mail.json', { GET: mail.json });
    route('/_/mail/:id', { GET: mail.show });
    route('/_/mail/:id/html', { GET: mail.html });
  }

  // API reference page (issue 13): public, only with REST (404 otherwise, as all of /api). Only
  // GET is taken on /api/docs: other methods go on to the REST routes below.
  if (config.enableRest) {
    const docs = docsHandlers();
    app.get(DEFAULT_DOCS.path, docs.page);
    route(docs.assetsRoute, { GET: docs.asset });
  }

  /** Mounts the REST routes at a path behind a gate (the app's `/api`, the admin UI's). */
  let restRoutes: ((path: string, restGate: Step) => void) | undefined;
  /** The hot lane's `/api` route, when REST is on: the steps `restRoutes('/api', gate)` wraps. */
  let restLane: LaneRoute | undefined;
  // REST: registered unless disabled (docs/http.md, "REST routes"). Writes are refused here in read-only
  // mode (every REST write is one); the handler plans and runs through the `/query` engine.
  if (config.enableRest) {
    // One model per schema version, for the data routes and the OpenAPI document.
    const restModels = restModelSource(deps.queryEngine);
    // The OpenAPI document: behind the same gate as the data routes, before their catch-all,
    // with @svc/auth's `/auth/*` routes merged in when auth is on.
    route(
      '/api/openapi.json',
      {
        GET: openApiHandler({
          models: restModels,
          version,
          requireAuth: config.requireAuth,
          ...(auth ? { extra: authOpenApi(authOpenApiOptions(auth.config)) } : {}),
        }),
      },
      gated,
    );
    const rest = restHandler({
      engine: deps.queryEngine,
      models: restModels,
      protocol: config.protocol,
      readOnly: config.readOnly,
      defaultAccess: config.defaultAccess,
      replicas: deps.replicas,
    });
    const restRoute = async (req: Request, res: Response) => {
      // REST requests never run in an open transaction: refuse rather than run outside it.
      if (req.get(TRANSACTION_HEADER) !== undefined)
        throw commonError(
          'VALIDATION_ERROR',
          'X-Svc-Transaction is taken by POST /query and /query/batch only, not by the REST routes',
        );
      await rest(req, res);
    };
    // REST's steps, for Express and the lane alike; the route label first, so that a refusal
    // by the gate is counted under it too.
    const restSteps = (path: string, restGate: Step): Step[] => [
      labelRoute(`${path}/*`),
      steps.timeout,
      restGate,
      steps.readOnly,
      steps.body,
    ];
    restRoutes = (path: string, restGate: Step) => {
      app.use(path, ...restSteps(path, restGate).map(middleware), restRoute);
    };
    restRoutes('/api', steps.dataGate);
    restLane = { steps: [...front, ...restSteps('/api', steps.dataGate)], handler: restRoute };
  }

  // The admin UI (issue 30): its JSON routes, then its pages and assets (docs/http.md, "The
  // admin UI"). `/_/mail` is not the admin UI's: it falls through.
  if (config.adminUi) {
    const admin = adminApiHandlers({
      auth,
      rest: config.enableRest,
      engine: deps.queryEngine,
      protocol: config.protocol,
      defaultAccess: config.defaultAccess,
    });
    // The admin routes read the admin UI's own cookie (or a bearer), never `auth_token`
    // (handlers/admin-session). `open` answers anonymous callers too, whatever requireAuth says:
    // the session route is what the sign-in page asks first.
    const gates = adminGates({ auth, serviceKey: config.serviceKey, checkOrigin });
    const admins = { gated: true, gate: gates.open } as const;
    const superusers = { gated: true, gate: gates.superuser } as const;
    route(`${ADMIN_UI_PATH}/api/session`, { GET: admin.session }, admins);
    route(`${ADMIN_UI_PATH}/api/query`, { POST: admin.query }, { ...admins, body: ['POST'] });
    // Users' factors, password reset, MFA reset, creation; roles; settings
    // (handlers/admin-auth.ts).
    const more = adminAuthHandlers({ auth, config });
    const withBody = { ...admins, body: ['POST'] } as const;
    route(`${ADMIN_UI_PATH}/api/users`, { GET: admin.users, POST: more.createUser }, withBody);
    route(`${ADMIN_UI_PATH}/api/users/:id`, { GET: admin.user }, admins);
    route(
      `${ADMIN_UI_PATH}/api/users/:id/active`,
      { POST: admin.setActive },
      { ...admins, body: ['POST'] },
    );
    route(`${ADMIN_UI_PATH}/api/users/:id/sessions`, { GET: admin.sessions }, admins);
    route(
      `${ADMIN_UI_PATH}/api/users/:id/sessions/:session`,
      { DELETE: admin.revokeSession },
      admins,
    );
    route(`${ADMIN_UI_PATH}/api/users/:id/revoke-sessions`, { POST: admin.revokeSessions }, admins);
    route(
      `${ADMIN_UI_PATH}/api/users/:id/roles`,
      { POST: admin.assignRole },
      { ...admins, body: ['POST'] },
    );
    route(`${ADMIN_UI_PATH}/api/users/:id/roles/:role`, { DELETE: admin.revokeRole }, admins);
    route(
      `${ADMIN_UI_PATH}/api/users/:id/password`,
      { POST: more.setPassword },
      { ...admins, body: ['POST'] },
    );
    route(`${ADMIN_UI_PATH}/api/users/:id/factors`, { GET: more.factors }, admins);
    route(`${ADMIN_UI_PATH}/api/users/:id/password-reset`, { POST: more.passwordReset }, admins);
    route(`${ADMIN_UI_PATH}/api/users/:id/reset-mfa`, { POST: more.resetMfa }, admins);
    route(
      `${ADMIN_UI_PATH}/api/users/:id/passkeys/:credential`,
      { DELETE: more.deletePasskey },
      admins,
    );
    route(`${ADMIN_UI_PATH}/api/roles`, { GET: more.roles, POST: more.createRole }, withBody);
    route(`${ADMIN_UI_PATH}/api/roles/:name`, { DELETE: more.deleteRole }, admins);
    route(`${ADMIN_UI_PATH}/api/settings`, { GET: more.settings }, admins);
    if (auth) {
      const session = adminSessionHandlers({ auth, checkOrigin });
      // No gate: these routes take their credentials (a password, the refresh cookie) themselves.
      const post = (path: string, handler: Handler) =>
        route(path, { POST: handler }, { timed: true, body: ['POST'] });
      post(`${ADMIN_SESSION_PATH}/login`, session.login);
      post(`${ADMIN_SESSION_PATH}/totp`, session.totp);
      post(`${ADMIN_SESSION_PATH}/recovery-code`, session.recoveryCode);
      post(`${ADMIN_SESSION_PATH}/passkey/begin`, session.passkeyBegin);
      post(`${ADMIN_SESSION_PATH}/passkey/finish`, session.passkeyFinish);
      post(`${ADMIN_SESSION_PATH}/refresh`, session.refresh);
      post(`${ADMIN_SESSION_PATH}/logout`, session.logout);
      const account = (path: string, handlers: Partial<Record<Method, Handler>>) =>
        route(`${ADMIN_ACCOUNT_PATH}${path}`, handlers, { ...superusers, body: ['POST'] });
      account('/passkeys', { GET: session.passkeys });
      account('/passkeys/register/begin', { POST: session.registerBegin });
      account('/passkeys/register/finish', { POST: session.registerFinish });
      account('/passkeys/delete', { POST: session.deletePasskey });
      account('/totp/enroll', { POST: session.totpEnroll });
      account('/totp/confirm', { POST: session.totpConfirm });
      account('/totp/disable', { POST: session.totpDisable });
      account('/recovery-codes', { POST: session.recoveryCodes });
    }
    // The data plane again, for the admin cookie: superusers (and the service key) only, the
    // figures included whatever metricsToken says.
    dataPlane(ADMIN_DATA_PATH, superusers, superusers);
    restRoutes?.(`${ADMIN_DATA_PATH}/api`, asStep(gates.superuser));
    let files: AdminUiFiles | undefined;
    try {
      files = loadAdminUi();
    } catch (err) {
      logger.error({ err }, 'the admin UI is not built: /_/ answers 503');
    }
    app.use(ADMIN_UI_PATH, adminUiHandler(files));
  }

  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(commonError('NOT_FOUND', `no route ${req.method} ${req.path}`));
  });
  app.use(errorHandler(logger));

  // The hot lane (routes/lane.ts): the data plane's and auth's requests before the router, through
  // the same steps as `route('/query', ..., gated + body)`, `restRoutes('/api', dataGate)` and
  // `app.use('/auth', ...)` above.
  if (config.hotLane) {
    installHotLane(app, {
      query: {
        steps: [...front, labelRoute('/query'), steps.timeout, steps.dataGate, steps.body],
        handler: query,
      },
      mounts: [
        ...(restLane
          ? [{ path: '/api', except: ['/api/docs', '/api/openapi.json'], route: restLane }]
          : []),
        ...(authLane ? [{ path: '/auth', route: authLane }] : []),
      ],
      // The liveness probes: the front steps and the route's label, as Express runs them.
      gets: new Map(
        ['/health', '/health/live'].map((path) => [
          path,
          { steps: [...front, labelRoute(path)], handler: alive },
        ]),
      ),
      logger,
    });
  }
  return app;
}

/**
 * An Express application with the server's settings: no `X-Powered-By`, no ETag (hashing every
 * body is a cost the API does not need), and the simple query parser (`?a[b]=1` stays a plain
 * key, no nested objects).
 */
export function expressApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  return app;
}

function methodNotAllowed(allowed: readonly Method[]): RequestHandler {
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
  return (req, _res, next) => {
    next(
      commonError(
        'METHOD_NOT_ALLOWED',
        `${req.method} is not allowed on ${req.baseUrl}${req.path}`,
        {
          headers: { Allow: allow },
        },
      ),
    );
  };
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
