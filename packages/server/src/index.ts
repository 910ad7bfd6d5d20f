/**
 * @svc/server: the svc HTTP server. `createServer` assembles configuration, database, auth and
 * routes; `resolveConfig` is the configuration resolver the CLI uses too.
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
