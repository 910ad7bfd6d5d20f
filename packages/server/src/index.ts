/**
 * @svc/server: the svc HTTP server. `createServer` assembles configuration, database, auth and
 * routes; `resolveConfig` is the configuration resolver the CLI uses too.
 *
 * Two parts are entry points of their own, for a process that uses them without the HTTP server
 * (the CLI's one-shot commands, which then load about 300 fewer modules): `@svc/server/config`
 * (the configuration: `resolveConfig`, its fields and `ConfigError`) and
 * `@svc/server/query-compiler` (`createServerQueryEngine`). Both are exported here too.
 */
export {
  createServer,
  VERSION,
  type CreateServerOptions,
  type ListenOptions,
  type StartProgress,
  type SvcServer,
} from './server';
export {
  ConfigError,
  resolveConfig,
  SERVER_FIELDS,
  DATABASE_FIELDS,
  type FieldSpec,
  type LogFormat,
  type LogLevel,
  type Protocol,
  type ResolvedConfig,
  type ServerConfig,
  type ServerSettings,
  type TlsConfig,
  type CorsConfig,
} from './config';
export { createLogger, resolveLogFormat, type Logger } from './observability/logger';
export { ServerMetrics, type StatsSnapshot } from './observability/metrics';
export type { Caller } from './middleware/authenticate';
export {
  compileQuery,
  createServerQueryEngine,
  type ServerQueryEngineOptions,
} from './query-compiler';
