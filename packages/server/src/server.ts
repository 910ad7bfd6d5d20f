import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Server as NetServer } from 'node:net';
import {
  buildSchema,
  createDefaultMigrator,
  openDatabase,
  type CompileQuery,
  type Database,
  type MigrationFile,
  type Migrator,
  type MigrateOptions,
  type OpenDatabaseOptions,
  type QueryEngine,
} from '@svc/core';
import { createAuth, type Auth, type AuthConfig } from '@svc/auth';
import type { Express } from 'express';
import { resolveConfig, type ResolvedConfig, type ServerConfig } from './config';
import { refuseConnect } from './http/connect';
import { expressShapedClasses } from './http/shaped';
import { Lifecycle } from './middleware/request-context';
import { createLogger, type Logger } from './observability/logger';
import { ServerMetrics } from './observability/metrics';
import { warnOpenOperationalRoutes } from './observability/open-routes';
import { openTypesWarning } from './observability/open-types';
import { Replicas } from './replicas';
import { buildApp } from './routes';
import { createServerQueryEngine } from './query-compiler';
import { randomInstanceId, Transactions } from './transactions';

/** The version of @svc/server, reported by `GET /`. */
export const VERSION: string = (require('../package.json') as { version: string }).version;

export interface CreateServerOptions extends ServerConfig {
  /** A pino logger to use instead of one made from `logLevel`. */
  logger?: Logger;
  /**
   * An open database to use instead of opening one from `database`. The server does not close
   * it: its owner does.
   */
  databaseInstance?: Database;
  /**
   * The EdgeQL compiler `POST /query` uses (tests and tools may give another, such as a
   * compiler with tracing).
   */
  compileQuery?: CompileQuery;
  /**
   * The project's migration files, in order (`svc serve` reads dbschema/migrations/): with
   * `apply`, the pending ones are applied at start, each in its own transaction (`svc serve
   * --migrate`); without, the server starts on the schema it has and logs what is pending.
   * Given with `schema`, `schema` is not pushed.
   */
  migrations?: { readonly files: readonly MigrationFile[]; readonly apply: boolean };
  /**
   * Told of slow start-up work as it happens, for a person waiting at a terminal: the embedded
   * folder being created (first start), each step of the start-up migration.
   */
  progress?: StartProgress;
}

/** What `createServer` tells of slow start-up work (see `CreateServerOptions.progress`). */
export interface StartProgress {
  readonly onCreateDataDir?: OpenDatabaseOptions['onCreateDataDir'];
  readonly onStep?: MigrateOptions['onStep'];
}

export interface ListenOptions {
  /** @default the resolved `port` (5656); 0 picks any free port */
  port?: number;
  /** @default the resolved `host` ('127.0.0.1') */
  host?: string;
  /**
   * A `net.Server` already listening, whose socket is taken over instead of binding `port` and
   * `host`: a caller that bound the port before the database opened (to say at once that it is
   * taken) hands it on with no moment in which another process could take it. The server then
   * owns the socket; do not close `handle` yourself.
   */
  handle?: NetServer;
}

export interface SvcServer {
  readonly config: ResolvedConfig;
  readonly database: Database;
  readonly logger: Logger;
  readonly metrics: ServerMetrics;
  /** The @svc/auth instance in use when auth is enabled (users, roles, sessions). */
  readonly auth: Auth | undefined;
  /** Runs EdgeQL as `POST /query` does (compile cache, binding, errors), for in-process callers. */
  readonly queryEngine: QueryEngine;
  /** The open transactions (`POST /transactions`): their instance id, cap and count. */
  readonly transactions: Transactions;
  /**
   * The Express application, for mounting into another server or for in-process tests. With
   * `hotLane` (the default), `POST /query` and `/api/*` are taken before its router
   * (routes/lane.ts), however the app is called.
   */
  readonly app: Express;
  /** `http(s)://host:port` once listening. */
  readonly url: string;
  listen(options?: ListenOptions): Promise<void>;
  /**
   * Stops accepting connections, lets requests in flight finish (up to `shutdownTimeout`), then
   * closes the database. Safe to call more than once.
   */
  close(): Promise<void>;
}

/**
 * Assembles an svc server: configuration, database, auth, routes. It does not listen until
 * `listen` is called.
 *
 * @example
 * const server = await createServer({ database: { memory: true } });
 * await server.listen({ port: 0 });
 * console.log(server.url);
 * await server.close();
 */
export async function createServer(options: CreateServerOptions = {}): Promise<SvcServer> {
  const {
    logger: givenLogger,
    databaseInstance,
    compileQuery,
    migrations,
    progress,
    ...serverConfig
  } = options;
  const config = resolveConfig(serverConfig);
  const logger = givenLogger ?? createLogger(config.logLevel, undefined, config.logFormat);

  const database =
    databaseInstance ??
    (await openDatabase(config.database, {
      onPoolError: (err) => logger.error({ err }, 'database connection error'),
      // The backstop behind cancelling a timed-out request's statement (issue 26): PostgreSQL
      // stops any statement of this pool running longer than a request may.
      statementTimeoutMs: config.requestTimeout,
      onWarning: (message) => logger.warn(message),
      ...(progress?.onCreateDataDir ? { onCreateDataDir: progress.onCreateDataDir } : {}),
    }));
  const ownsDatabase = databaseInstance === undefined;
  const migrator = createDefaultMigrator();
  if (migrations) {
    try {
      await applyMigrationFiles(database, migrator, migrations, logger, progress?.onStep);
    } catch (err) {
      if (ownsDatabase) await database.close();
      throw err;
    }
  } else if (config.schema !== undefined) {
    try {
      const result = await migrator.migrate(
        database,
        config.schema,
        progress?.onStep ? { onStep: progress.onStep } : {},
      );
      if (result.applied)
        logger.info(
          { version: result.version, steps: result.steps.length },
          `schema migrated: ${result.steps.length} steps`,
        );
      else logger.info({ version: result.version }, 'schema is up to date');
    } catch (err) {
      if (ownsDatabase) await database.close();
      throw err;
    }
  }

  let auth: Auth | undefined;
  if (config.enableAuth && config.jwtSecret) {
    try {
      auth = await createAuth(
        {
          ...(config.authConfig as Partial<AuthConfig>),
          jwtSecret: config.jwtSecret,
        } as AuthConfig,
        {
          database,
          logger,
          // Pages of the listed origins may use the auth_token cookie on /auth/* writes too.
          trustedOrigins: config.cors?.origins.filter((o) => o !== '*') ?? [],
          // The development inbox (/_/mail): kept as devMail says; unset, unless NODE_ENV is production.
          ...(config.devMail !== undefined ? { devMailbox: config.devMail } : {}),
        },
      );
    } catch (err) {
      if (ownsDatabase) await database.close();
      throw err;
    }
  }

  // Open transactions: at most half the PostgreSQL pool by default, leaving the rest to ordinary
  // requests; embedded PGlite holds its one connection for a transaction's length, so one.
  // A database given as an instance has a pool the server cannot see: 2 then.
  const poolSize =
    ownsDatabase && 'url' in config.database ? (config.database.poolSize ?? 10) : undefined;
  const maxTransactions =
    database.kind === 'pglite'
      ? 1
      : (config.maxTransactions ??
        (poolSize === undefined ? 2 : Math.max(1, Math.floor(poolSize / 2))));
  if (database.kind === 'pglite' && (config.maxTransactions ?? 1) > 1)
    logger.warn('maxTransactions is 1 on embedded PGlite: one connection holds the transaction');
  const transactions = new Transactions({
    db: database,
    idleTimeout: config.transactionIdleTimeout,
    max: maxTransactions,
    instanceId: config.instanceId ?? randomInstanceId(),
    statementTimeout: config.requestTimeout,
    onEnded: (id, reason) =>
      logger.info({ transaction: id.slice(0, id.indexOf('.')) }, `transaction ended: ${reason}`),
  });
  // Read replicas (docs/http.md, "Read replicas"): checked in the background from now on; one
  // that is down at start is tried again by the checks.
  const replicaUrls = 'url' in config.database ? (config.database.replicas ?? []) : [];
  const replicas =
    replicaUrls.length > 0 && 'url' in config.database
      ? await Replicas.open({
          urls: replicaUrls,
          poolSize: config.database.poolSize ?? 10,
          maxLagSeconds: config.database.maxReplicaLag ?? 10,
          open: {
            onPoolError: (err) => logger.error({ err }, 'replica connection error'),
            statementTimeoutMs: config.requestTimeout,
            onWarning: (message) => logger.warn(`replica: ${message}`),
          },
          onChange: (replica, healthy, why) =>
            healthy
              ? logger.info({ replica }, `replica in use: ${why}`)
              : logger.warn({ replica }, `replica skipped: ${why}`),
        })
      : undefined;
  const metrics = new ServerMetrics(
    () => database.stats(),
    () => ({
      open: transactions.size,
      max: transactions.max,
    }),
    () => replicas?.stats() ?? [],
  );
  const queryEngine = createServerQueryEngine(database, {
    ...(compileQuery ? { compileQuery } : {}),
    migrator,
    allowUserSpecifiedId: config.allowUserSpecifiedId,
    onCompileCache: (hit) => metrics.compileCache(hit),
    onStatementCancelled: () => metrics.statementCancelled(),
  });
  // With auth on, name the types every caller may read and write (`defaultAccess`, docs/http.md):
  // once now, for the schema just migrated or stored, and after each migration that changes them.
  const warnOpenTypes = auth ? openTypesWarning(logger, config) : undefined;
  if (warnOpenTypes) {
    try {
      warnOpenTypes((await queryEngine.schema()).schema);
    } catch (err) {
      await auth?.close();
      await replicas?.close();
      if (ownsDatabase) await database.close();
      throw err;
    }
  }
  // Beside it, once: the operational routes anonymous callers may read (issue 26, 9).
  if (auth) warnOpenOperationalRoutes(logger, config);
  if (auth?.devMailbox)
    logger.info(
      { devMail: config.devMail ?? 'loopback' },
      `development inbox: the emails auth would send are kept at /_/mail (${config.devMail === true ? 'shown to every caller: devMail is true' : 'loopback callers only'})`,
    );
  const lifecycle = new Lifecycle();
  const app = buildApp({
    config,
    database,
    logger,
    metrics,
    lifecycle,
    auth,
    version: VERSION,
    migrator,
    buildSchema,
    queryEngine,
    transactions,
    ...(replicas ? { replicas } : {}),
    ...(warnOpenTypes ? { onSchema: warnOpenTypes } : {}),
  });

  let httpServer: http.Server | https.Server | undefined;
  let url: string | undefined;
  let closing: Promise<void> | undefined;

  const server: SvcServer = {
    config,
    database,
    logger,
    metrics,
    auth,
    queryEngine,
    transactions,
    app,
    get url() {
      if (!url) throw new Error('the server is not listening yet: await server.listen() first');
      return url;
    },
    async listen(listenOptions = {}) {
      if (httpServer) throw new Error('the server is already listening');
      if (closing) throw new Error('the server is closed');
      const port = listenOptions.port ?? config.port;
      const host = listenOptions.host ?? config.host;
      // Requests and responses born with Express's prototypes (http/shaped).
      const classes = expressShapedClasses(app);
      const s = config.tls
        ? https.createServer({ ...classes, cert: config.tls.cert, key: config.tls.key }, app)
        : http.createServer(classes, app);
      httpServer = s;
      s.on('connect', refuseConnect);
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        const listening = () => {
          s.off('error', reject);
          resolve();
        };
        if (listenOptions.handle) s.listen(listenOptions.handle, listening);
        else s.listen(port, host, listening);
      });
      const address = s.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      url = `${config.tls ? 'https' : 'http'}://${shownHost}:${address.port}`;
      // An embedded folder's lock names where its holder serves: `svc migrate` works through it.
      const localHost =
        address.address === '0.0.0.0'
          ? '127.0.0.1'
          : address.address === '::'
            ? '[::1]'
            : shownHost;
      database.advertise?.(`${config.tls ? 'https' : 'http'}://${localHost}:${address.port}`);
    },
    close() {
      closing ??= (async () => {
        const started = performance.now();
        if (httpServer)
          logger.info(
            { inFlight: lifecycle.inFlight },
            `shutting down: ${lifecycle.inFlight} requests in flight`,
          );
        lifecycle.draining = true;
        // Every open transaction rolls back (after the request it may be running), and no new
        // one begins: a transaction never outlives its server.
        const rolledBack = transactions.close();
        if (httpServer) {
          database.advertise?.(undefined); // no new work through a server that is stopping
          const s = httpServer;
          const stopped = new Promise<void>((resolve) => s.close(() => resolve()));
          s.closeIdleConnections();
          const deadline = setTimeout(() => s.closeAllConnections(), config.shutdownTimeout);
          await lifecycle.idle();
          // Requests are done; a socket turns idle just after its response closes, so close the
          // keep-alive sockets on the next turn of the event loop.
          await new Promise((resolve) => setImmediate(resolve));
          s.closeIdleConnections();
          await stopped;
          clearTimeout(deadline);
        }
        await rolledBack;
        // Deliver the events already fired (webhooks, mail) before the database goes.
        await auth?.close();
        await replicas?.close();
        if (ownsDatabase) await database.close();
        if (httpServer) logger.info({ ms: Math.round(performance.now() - started) }, 'stopped');
        // pino writes asynchronously: let the last lines out before a caller exits the process
        // (they were lost, or came out of order, without this). Bounded, like the drain.
        await new Promise<void>((resolve) => {
          const bound = setTimeout(resolve, 2000);
          bound.unref();
          logger.flush(() => {
            clearTimeout(bound);
            resolve();
          });
        });
      })();
      return closing;
    },
  };
  return server;
}

/** The pending migration files applied in order, or (without `apply`) named in the log. */
async function applyMigrationFiles(
  database: Database,
  migrator: Migrator,
  migrations: NonNullable<CreateServerOptions['migrations']>,
  logger: Logger,
  onStep: MigrateOptions['onStep'],
): Promise<void> {
  const done = new Set(await migrator.appliedMigrations(database));
  const pending = migrations.files.filter((m) => !done.has(m.id));
  if (pending.length === 0) {
    logger.info({ migrations: migrations.files.length }, 'every migration file is applied');
    return;
  }
  if (!migrations.apply) {
    logger.warn(
      { pending: pending.map((m) => m.id.slice(0, 14)) },
      `${pending.length} migration files are pending: \`svc migrate\` or \`svc serve --migrate\` applies them`,
    );
    return;
  }
  for (const m of pending) {
    const result = await migrator.migrate(database, m.sdl, {
      renames: m.renames,
      fills: m.fills,
      migration: { id: m.id, parent: m.parent },
      ...(onStep ? { onStep } : {}),
    });
    logger.info(
      { migration: m.id.slice(0, 14), steps: result.steps.length },
      `migration ${m.id.slice(0, 14)} applied: ${result.steps.length} steps`,
    );
  }
}
