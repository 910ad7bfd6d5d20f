/**
 * Every server setting, once: its programmatic key, CLI flag, environment variable, TOML key,
 * type and default. Resolution, validation, the CLI's help and the README's table all read this.
 */
export type FieldType =
  | 'boolean'
  | 'port'
  | 'string'
  | 'positiveInt'
  | 'secret'
  | 'protocol'
  | 'defaultAccess'
  | 'logLevel'
  | 'logFormat'
  | 'cors'
  | 'proxyList'
  | 'instanceId'
  | 'urlList';

export interface FieldSpec {
  readonly key: string;
  readonly type: FieldType;
  readonly flag?: string;
  readonly env?: string;
  /** `[table] key` in the TOML file. */
  readonly toml?: readonly [table: string, key: string];
  readonly default?: unknown;
  /** Largest value a `positiveInt` may take. */
  readonly max?: number;
  /**
   * Shown to administrators only as set or not (`describeSettings`): for a value that may hold a
   * password or key though its type is not `secret` (a database URL). `secret` fields always are.
   */
  readonly secret?: true;
  readonly doc: string;
}

export const SERVER_FIELDS: readonly FieldSpec[] = [
  {
    key: 'port',
    type: 'port',
    flag: '--port',
    env: 'SVC_PORT',
    toml: ['server', 'port'],
    default: 5656,
    doc: 'TCP port to listen on (0 = any free port)',
  },
  {
    key: 'host',
    type: 'string',
    flag: '--host',
    env: 'SVC_HOST',
    toml: ['server', 'host'],
    default: '127.0.0.1',
    doc: 'address to listen on',
  },
  {
    key: 'enableAuth',
    type: 'boolean',
    flag: '--enable-auth',
    env: 'SVC_ENABLE_AUTH',
    toml: ['server', 'enable_auth'],
    default: false,
    doc: 'turn the built-in auth on (needs a JWT secret)',
  },
  {
    key: 'jwtSecret',
    type: 'secret',
    flag: '--jwt-secret',
    env: 'SVC_JWT_SECRET',
    toml: ['server', 'jwt_secret'],
    doc: 'HS256 signing secret, at least 32 characters',
  },
  {
    key: 'requireAuth',
    type: 'boolean',
    toml: ['server', 'require_auth'],
    default: false,
    doc: 'reject data-plane requests without a valid token',
  },
  {
    key: 'enableRest',
    type: 'boolean',
    env: 'SVC_ENABLE_REST',
    toml: ['server', 'enable_rest'],
    default: true,
    doc: 'serve the REST API under /api',
  },
  {
    key: 'adminUi',
    type: 'boolean',
    env: 'SVC_ADMIN_UI',
    toml: ['server', 'admin_ui'],
    default: true,
    doc: 'serve the admin UI under /_/ (sign-in as a superuser, with its own session cookie; needs auth)',
  },
  {
    key: 'readOnly',
    type: 'boolean',
    toml: ['server', 'read_only'],
    default: false,
    doc: 'reject every write with 503 READ_ONLY',
  },
  {
    key: 'requestTimeout',
    type: 'positiveInt',
    toml: ['server', 'request_timeout'],
    default: 30000,
    doc: 'milliseconds before a request answers 408',
  },
  {
    key: 'hotLane',
    type: 'boolean',
    env: 'SVC_SERVER_HOT_LANE',
    toml: ['server', 'hot_lane'],
    default: true,
    doc: '`POST /query`, `/api/*` and `GET /health`, `/health/live` taken before the Express router, through the same steps (off: Express routes them too; the answers are the same)',
  },
  {
    key: 'protocol',
    type: 'protocol',
    env: 'SVC_PROTOCOL',
    toml: ['server', 'protocol'],
    default: 'full',
    doc: '`full` enforces access policies; `simple` does not',
  },
  {
    key: 'defaultAccess',
    type: 'defaultAccess',
    env: 'SVC_DEFAULT_ACCESS',
    toml: ['server', 'default_access'],
    default: 'open',
    doc: 'what a type without access policies allows callers subject to policies: `open` (everything, as Gel) or `deny` (nothing)',
  },
  {
    key: 'allowUserSpecifiedId',
    type: 'boolean',
    env: 'SVC_ALLOW_USER_SPECIFIED_ID',
    toml: ['server', 'allow_user_specified_id'],
    default: false,
    doc: "let an insert give the new object's id (`id := <uuid>$id`, Gel's allow_user_specified_id); it must be new among the objects of every type",
  },
  {
    key: 'serviceKey',
    type: 'secret',
    env: 'SVC_SERVICE_KEY',
    toml: ['server', 'service_key'],
    doc: 'bearer credential that runs with access policies off',
  },
  {
    key: 'metricsToken',
    type: 'secret',
    env: 'SVC_METRICS_TOKEN',
    toml: ['server', 'metrics_token'],
    doc: "when set, the only bearer /metrics and /stats accept (a scraper's credential; 32+ characters, not the service key)",
  },
  {
    key: 'bodyLimit',
    type: 'positiveInt',
    toml: ['server', 'body_limit'],
    default: 1048576,
    doc: 'largest request body in bytes (413 above)',
  },
  {
    key: 'logLevel',
    type: 'logLevel',
    flag: '--log-level',
    env: 'SVC_LOG_LEVEL',
    toml: ['server', 'log_level'],
    default: 'info',
    doc: 'fatal, error, warn, info, debug, trace or silent',
  },
  {
    key: 'logFormat',
    type: 'logFormat',
    flag: '--log-format',
    env: 'SVC_LOG_FORMAT',
    toml: ['server', 'log_format'],
    default: 'auto',
    doc: '`json`, `pretty` (for people), or `auto`: pretty when stdout is a terminal',
  },
  {
    key: 'shutdownTimeout',
    type: 'positiveInt',
    toml: ['server', 'shutdown_timeout'],
    default: 10000,
    doc: 'milliseconds in-flight requests get to finish on shutdown',
  },
  {
    key: 'transactionIdleTimeout',
    type: 'positiveInt',
    env: 'SVC_TRANSACTION_IDLE_TIMEOUT',
    toml: ['server', 'transaction_idle_timeout'],
    default: 10000,
    doc: "milliseconds an open transaction (POST /transactions) may wait for its next request before it is rolled back (Gel's session_idle_transaction_timeout)",
  },
  {
    key: 'maxTransactions',
    type: 'positiveInt',
    env: 'SVC_MAX_TRANSACTIONS',
    toml: ['server', 'max_transactions'],
    doc: 'open transactions this process holds at once (503 TOO_MANY_TRANSACTIONS past it); unset: half the PostgreSQL pool (at least 1); always 1 on embedded PGlite',
  },
  {
    key: 'instanceId',
    type: 'instanceId',
    env: 'SVC_INSTANCE_ID',
    toml: ['server', 'instance_id'],
    doc: "this process's name in transaction ids (`<instanceId>.<secret>`), for routing them to it: 1-32 of A-Z a-z 0-9 _ -; unset: a random one per start",
  },
  // An object: in TOML the table [server.cors] (origins, credentials); in the environment the origins only, comma-separated.
  {
    key: 'cors',
    type: 'cors',
    env: 'SVC_CORS_ORIGINS',
    toml: ['server', 'cors'],
    doc: 'browser origins allowed to call the server: `{origins, credentials?}`; off when absent',
  },
  {
    key: 'trustProxy',
    type: 'proxyList',
    env: 'SVC_TRUST_PROXY',
    toml: ['server', 'trust_proxy'],
    doc: 'proxies whose X-Forwarded-For / -Proto are believed (client address for rate limits and sessions): comma-separated addresses, CIDRs, `loopback`, `linklocal`, `uniquelocal`; unset: none',
  },
  {
    key: 'devMail',
    type: 'boolean',
    env: 'SVC_DEV_MAIL',
    toml: ['server', 'dev_mail'],
    doc: 'the development inbox at `/_/mail` (the emails auth would send, kept in memory) when no SMTP server is configured: unset, kept unless NODE_ENV is `production` and shown to loopback callers only; `true`, kept and shown to every caller; `false`, never',
  },
];

/** The `[database]` settings, kept apart because they combine into one `database` value. */
export const DATABASE_FIELDS: readonly FieldSpec[] = [
  {
    key: 'url',
    type: 'string',
    flag: '--database-url',
    env: 'DATABASE_URL',
    toml: ['database', 'url'],
    secret: true,
    doc: 'PostgreSQL URL; without it, embedded PGlite',
  },
  {
    key: 'dataDir',
    type: 'string',
    flag: '--data-dir',
    env: 'SVC_DATA_DIR',
    toml: ['database', 'data_dir'],
    default: './.svc/data',
    doc: 'folder of the embedded database',
  },
  {
    key: 'poolSize',
    type: 'positiveInt',
    env: 'SVC_DATABASE_POOL_SIZE',
    toml: ['database', 'pool_size'],
    default: 10,
    max: 1000,
    doc: 'most connections the PostgreSQL pool opens (1 to 1000; ignored by embedded PGlite)',
  },
  {
    key: 'preparedStatements',
    type: 'boolean',
    env: 'SVC_DATABASE_PREPARED_STATEMENTS',
    toml: ['database', 'prepared_statements'],
    default: true,
    doc: 'run queries as named prepared statements on PostgreSQL; `false` behind a transaction-mode pooler that cannot keep them (PgBouncer before 1.21; ignored by embedded PGlite)',
  },
  // A list: in TOML an array of strings, in the environment comma-separated.
  {
    key: 'replicas',
    type: 'urlList',
    env: 'SVC_DATABASE_REPLICA_URLS',
    toml: ['database', 'replica_urls'],
    secret: true,
    doc: 'PostgreSQL URLs of streaming replicas of `url` that read-only work runs on (each with a pool of pool_size); PostgreSQL only',
  },
  {
    key: 'maxReplicaLag',
    type: 'positiveInt',
    env: 'SVC_DATABASE_MAX_REPLICA_LAG',
    toml: ['database', 'max_replica_lag'],
    default: 10,
    max: 86400,
    doc: 'seconds a replica may lag behind the primary before reads skip it',
  },
];

export const PROTOCOLS = ['full', 'simple'] as const;
export const DEFAULT_ACCESS = ['open', 'deny'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** The names Express's `trust proxy` (proxy-addr) knows, beside addresses and CIDRs. */
export const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

/** Whether a field's value is never shown, only whether it is set. */
export function isSecretField(field: FieldSpec): boolean {
  return field.type === 'secret' || field.secret === true;
}
