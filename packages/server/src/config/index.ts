import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import type { DatabaseConfig, DefaultAccess } from '@svc/core';
import { SvcError, defineErrorCodes } from '@svc/core';
import { AUTH_FIELDS, JWT_SECRET_MIN_LENGTH, authConfigProblems, parseOrigin } from '@svc/auth';
import { checkTable, describeValue, didYouMean, isPlainObject } from './check-table';
import { parseToml, tomlKeyLines, tomlSyntaxProblem } from './toml';
import {
  DATABASE_FIELDS,
  DEFAULT_ACCESS,
  LOG_FORMATS,
  LOG_LEVELS,
  PROTOCOLS,
  PROXY_NAMES,
  SERVER_FIELDS,
  type FieldSpec,
} from './fields';

export { SERVER_FIELDS, DATABASE_FIELDS, type FieldSpec } from './fields';

export type Protocol = (typeof PROTOCOLS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = (typeof LOG_FORMATS)[number];

/** PEM text or buffers of a certificate and its key. */
export interface TlsConfig {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

/**
 * Which browser origins may call the server (docs/http.md, "Conventions"). Each origin is
 * `scheme://host[:port]` (no path, no trailing slash), or `origins` is `['*']`: any origin, and
 * then without credentials.
 */
export interface CorsConfig {
  readonly origins: readonly string[];
  /** Answer `Access-Control-Allow-Credentials: true`, so pages may send the auth_token cookie. @default false */
  readonly credentials?: boolean;
}

/** The settings that resolve by precedence: explicit (flags) > environment > file > default. */
export interface ServerSettings {
  port: number;
  host: string;
  enableAuth: boolean;
  jwtSecret: string | undefined;
  requireAuth: boolean;
  enableRest: boolean;
  /**
   * Serve the admin UI (`/_/`, @svc/admin-ui): static pages for superusers, signed in through
   * `/auth/*` with the `auth_token` cookie (docs/http.md, "The admin UI").
   * @default true
   */
  adminUi: boolean;
  readOnly: boolean;
  requestTimeout: number;
  /**
   * The hot lane (routes/lane.ts): `POST /query` and `/api/*` dispatched before Express's router
   * to the same steps and handlers, the rest of the routes assembled by Express. Off, Express
   * routes those too; the answers are the same either way.
   * @default true
   */
  hotLane: boolean;
  protocol: Protocol;
  /**
   * Under access policies, what a type without any allows: `open` (every caller may read and
   * write it, as in Gel) or `deny` (only callers without policies reach it: the service key, a
   * superuser).
   * @default 'open'
   */
  defaultAccess: DefaultAccess;
  /**
   * An insert may give the new object's id (`insert T { id := <uuid>$id, ... }`), as Gel's
   * `allow_user_specified_id` allows: to import data with its ids. The id must be new among the
   * objects of every type (ConstraintViolationError otherwise).
   * @default false
   */
  allowUserSpecifiedId: boolean;
  serviceKey: string | undefined;
  /**
   * When set, `/metrics` and `/stats` answer only `Authorization: Bearer <metricsToken>`, and
   * nothing else opens them (not the service key, not a user's token); unset, they sit behind
   * the `requireAuth` gate with the other data-plane routes. At least 32 characters of RFC 6750's
   * token alphabet, and not the service key.
   */
  metricsToken: string | undefined;
  bodyLimit: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
  shutdownTimeout: number;
  /**
   * Milliseconds an open transaction (`POST /transactions`) may wait for its next request: past
   * it the transaction is rolled back and its connection released (Gel's
   * `session_idle_transaction_timeout`).
   * @default 10000
   */
  transactionIdleTimeout: number;
  /**
   * Open transactions this process holds at once; past it `POST /transactions` is 503
   * TOO_MANY_TRANSACTIONS. Unset: half the PostgreSQL pool (at least 1), leaving the rest to
   * ordinary requests. Embedded PGlite holds its one connection for a transaction's length: 1.
   */
  maxTransactions: number | undefined;
  /**
   * This process's name in transaction ids (`<instanceId>.<secret>`): a load balancer routes a
   * request carrying `X-Svc-Transaction` by it. Unset: random, new at every start.
   */
  instanceId: string | undefined;
  /** Off when absent. Resolved, `credentials` is always set. */
  cors: CorsConfig | undefined;
  /** Proxies trusted for X-Forwarded-For / -Proto, comma-separated (Express `trust proxy`); unset: none. */
  trustProxy: string | undefined;
  /**
   * The development inbox (`/_/mail`, docs/http.md): undefined, kept when no SMTP server is
   * configured and NODE_ENV is not production, shown to loopback callers only; true, kept (without
   * SMTP) and shown to every caller; false, never kept.
   */
  devMail: boolean | undefined;
}

/** Options of `createServer`: every setting, plus where the rest comes from. */
export interface ServerConfig extends Partial<ServerSettings> {
  /** `{url}`, `{dataDir}` or `{memory: true}`; default `DATABASE_URL`, else `./.svc/data`. */
  database?: DatabaseConfig;
  /** SDL text to migrate to at start. */
  schema?: string;
  /** Auth options (`AuthConfig` of @svc/auth); `jwtSecret` may also be given here. */
  authConfig?: Record<string, unknown>;
  tls?: TlsConfig;
  /** A TOML file read as the lowest-precedence source above the defaults. */
  configFile?: string;
  /** The environment to read; default `process.env`. Pass `{}` to ignore it. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface ResolvedConfig extends ServerSettings {
  database: DatabaseConfig;
  schema: string | undefined;
  authConfig: Record<string, unknown>;
  tls: TlsConfig | undefined;
  /** Which source each database choice came from, for the start-up log line. */
  databaseSource: 'explicit' | 'environment' | 'file' | 'default';
}

const configError = defineErrorCodes('config', { INVALID_CONFIG: 500 });

/** Start-up configuration problems, all of them at once. */
export class ConfigError extends SvcError {
  constructor(readonly problems: readonly string[]) {
    super(
      'INVALID_CONFIG',
      configError.statuses.INVALID_CONFIG,
      `invalid configuration:\n  - ${problems.join('\n  - ')}`,
    );
    this.name = 'ConfigError';
  }
}

/** RFC 6750 §2.1 `b64token`: what `Authorization: Bearer <token>` can carry. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

const NON_SETTING_KEYS = new Set(['database', 'schema', 'authConfig', 'tls', 'configFile', 'env']);
const FIELD_BY_KEY = new Map(SERVER_FIELDS.map((f) => [f.key, f]));
/**
 * The `[database]` settings of a PostgreSQL URL besides the URL (`poolSize`, `preparedStatements`,
 * `replicas`, `maxReplicaLag`).
 */
const POOL_FIELDS = DATABASE_FIELDS.filter((f) => f.key !== 'url' && f.key !== 'dataDir');
const POOL_KEYS = new Set(POOL_FIELDS.map((f) => f.key));
const LAG_FIELD = DATABASE_FIELDS.find((f) => f.key === 'maxReplicaLag') as FieldSpec;

type Layer = Partial<Record<string, unknown>>;

/**
 * Resolves a server configuration from its sources and validates it, reporting every problem at
 * once with the source it came from.
 */
export function resolveConfig(input: ServerConfig = {}): ResolvedConfig {
  const problems: string[] = [];
  const env = input.env ?? process.env;

  // Explicit (programmatic object or CLI flags): unknown keys and bad types.
  const explicit: Layer = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || NON_SETTING_KEYS.has(key)) continue;
    const field = FIELD_BY_KEY.get(key);
    if (!field) {
      problems.push(`unknown config key '${key}'${didYouMean(key, [...FIELD_BY_KEY.keys()])}`);
      continue;
    }
    const checked = checkValue(field, value, `${key}`);
    if (typeof checked === 'string' && checked.startsWith('\0')) problems.push(checked.slice(1));
    else explicit[key] = checked;
  }

  const fromEnv = readEnvLayer(env, problems);
  const file = input.configFile ? readConfigFile(input.configFile, problems) : undefined;

  const settings = {} as Record<string, unknown>;
  for (const field of SERVER_FIELDS) {
    settings[field.key] =
      explicit[field.key] ??
      fromEnv.settings[field.key] ??
      file?.settings[field.key] ??
      field.default;
  }

  // An object setting resolves key by key: SVC_CORS_ORIGINS replaces the file's origins and keeps
  // its credentials.
  for (const field of SERVER_FIELDS) {
    if (field.type !== 'cors') continue;
    const layers = [file?.settings[field.key], fromEnv.settings[field.key], explicit[field.key]];
    const merged = Object.assign({}, ...layers.filter((l) => l !== undefined)) as Record<
      string,
      unknown
    >;
    settings[field.key] = layers.some((l) => l !== undefined) ? merged : undefined;
  }

  const authConfig: Record<string, unknown> = {
    ...(file?.auth ?? {}),
    ...(input.authConfig ?? {}),
  };
  const beforeAuth = problems.length;
  if (input.authConfig !== undefined) {
    if (isPlainObject(input.authConfig)) {
      checkTable(input.authConfig, AUTH_FIELDS, {
        path: [],
        spell: (key) => key,
        name: (keys) => `authConfig.${keys.join('.')}`,
        at: () => '',
        problems,
      });
    } else problems.push('authConfig must be an object');
  }
  // What types cannot say (an origin's form, a template's placeholder, SMTP's From), asked of
  // @svc/auth once every auth value has its type, so that no problem is named twice.
  if (problems.length === beforeAuth && file?.authTyped !== false) {
    const { jwtSecret: _checkedBelow, ...rest } = authConfig;
    for (const problem of authConfigProblems(rest)) problems.push(`auth config: ${problem}`);
  }
  if (settings.jwtSecret === undefined && typeof authConfig.jwtSecret === 'string') {
    settings.jwtSecret = authConfig.jwtSecret;
  }

  let database: DatabaseConfig;
  let databaseSource: ResolvedConfig['databaseSource'];
  // The pool settings resolve one by one (a URL from the file may take its size from the
  // environment) and apply to PostgreSQL only: embedded PGlite is one connection. Unset, the
  // database layer's defaults apply.
  const explicitPool: Layer = input.database ? (input.database as Layer) : {};
  const pool: Layer = {};
  for (const field of POOL_FIELDS) {
    const value = explicitPool[field.key] ?? fromEnv.pool[field.key] ?? file?.pool[field.key];
    if (value !== undefined) pool[field.key] = value;
  }
  if (input.database) {
    database = input.database;
    databaseSource = 'explicit';
    checkDatabase(input.database, problems);
  } else if (fromEnv.database) {
    database = fromEnv.database;
    databaseSource = 'environment';
  } else if (file?.database) {
    database = file.database;
    databaseSource = 'file';
  } else {
    database = { dataDir: DATABASE_FIELDS.find((f) => f.key === 'dataDir')?.default as string };
    databaseSource = 'default';
  }
  const replicas = Array.isArray(pool.replicas) && pool.replicas.length > 0;
  if ('url' in database) {
    database = { ...database, ...pool };
    if (replicas && pool.maxReplicaLag === undefined)
      database = { ...database, maxReplicaLag: LAG_FIELD.default as number };
  } else if (replicas) {
    // Read replicas need PostgreSQL: embedded PGlite has none.
    problems.push(
      'replica_urls needs a PostgreSQL database (url): embedded PGlite has no replicas',
    );
  }

  const resolved = {
    ...(settings as unknown as ServerSettings),
    database,
    databaseSource,
    schema: input.schema,
    authConfig,
    tls: input.tls,
  } satisfies ResolvedConfig;

  if (resolved.enableAuth && !resolved.jwtSecret) {
    problems.push(
      'enableAuth needs a jwtSecret (--jwt-secret, SVC_JWT_SECRET or [server] jwt_secret)',
    );
  }
  if (resolved.jwtSecret !== undefined && resolved.jwtSecret.length < JWT_SECRET_MIN_LENGTH) {
    problems.push(
      `jwtSecret must be at least ${JWT_SECRET_MIN_LENGTH} characters (got ${resolved.jwtSecret.length})`,
    );
  }
  if (resolved.serviceKey !== undefined && resolved.serviceKey.length < 32) {
    problems.push(`serviceKey must be at least 32 characters (got ${resolved.serviceKey.length})`);
  }
  if (resolved.metricsToken !== undefined) {
    const token = resolved.metricsToken;
    if (token.length < 32) {
      problems.push(`metricsToken must be at least 32 characters (got ${token.length})`);
    } else if (!BEARER_TOKEN.test(token)) {
      problems.push(
        'metricsToken must be a bearer token: letters, digits and - . _ ~ + /, then any = (RFC 6750)',
      );
    }
    // Apart, so that the scraper's credential, kept in its configuration, opens nothing else.
    if (token === resolved.serviceKey) problems.push('metricsToken must not be the service key');
  }
  if (input.tls && (!input.tls.cert || !input.tls.key)) {
    problems.push('tls needs both cert and key');
  }
  if (resolved.cors) {
    const { origins, credentials = false } = resolved.cors;
    if (origins === undefined) {
      problems.push('cors needs origins (cors.origins, SVC_CORS_ORIGINS or [server.cors] origins)');
    } else if (credentials && origins.includes('*')) {
      problems.push(
        "cors: origins '*' cannot go with credentials: true (browsers refuse it): list the origins instead",
      );
    }
    resolved.cors = Object.freeze({ origins: Object.freeze([...(origins ?? [])]), credentials });
  }
  if (input.schema !== undefined && typeof input.schema !== 'string') {
    problems.push('schema must be SDL text (a string)');
  }

  if (problems.length) throw new ConfigError(problems);
  return resolved;
}

/** The values a setting of one of these types may take. */
const CHOICES = {
  protocol: PROTOCOLS,
  defaultAccess: DEFAULT_ACCESS,
  logLevel: LOG_LEVELS,
  logFormat: LOG_FORMATS,
} as const;

/** A problem is returned as a string starting with NUL, a value otherwise. */
function checkValue(field: FieldSpec, value: unknown, where: string, fromEnv = false): unknown {
  const bad = (want: string) =>
    `\0${where} must be ${want}, got ${fromEnv ? JSON.stringify(value) : describeValue(value)}`;
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? value : bad('true or false');
    case 'port':
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535
        ? value
        : bad('an integer from 0 to 65535');
    case 'positiveInt':
      if (field.max !== undefined) {
        return Number.isInteger(value) && (value as number) > 0 && (value as number) <= field.max
          ? value
          : bad(`an integer from 1 to ${field.max}`);
      }
      return Number.isInteger(value) && (value as number) > 0 ? value : bad('a positive integer');
    case 'string':
      return typeof value === 'string' && value.length > 0 ? value : bad('a non-empty string');
    case 'instanceId':
      return typeof value === 'string' && /^[A-Za-z0-9_-]{1,32}$/.test(value)
        ? value
        : bad('1 to 32 characters of A-Z a-z 0-9 _ -');
    case 'secret':
      // Never echo a secret back in an error message.
      return typeof value === 'string' ? value : `\0${where} must be a string`;
    case 'protocol':
    case 'defaultAccess':
    case 'logLevel':
    case 'logFormat': {
      const choices: readonly unknown[] = CHOICES[field.type];
      return choices.includes(value) ? value : bad(`one of ${choices.join(', ')}`);
    }
    case 'cors':
      return checkCors(value, where);
    case 'urlList':
      // Never echo a URL back: it may hold a password.
      return Array.isArray(value) &&
        value.every((u) => typeof u === 'string' && /^postgres(ql)?:\/\//.test(u))
        ? value
        : `\0${where} must be a list of postgres:// URLs`;
    case 'proxyList': {
      if (typeof value !== 'string' || value.trim() === '')
        return bad(`a comma-separated list of addresses, CIDRs or ${PROXY_NAMES.join(', ')}`);
      const wrong = proxyItems(value).filter((item) => !isProxyItem(item));
      return wrong.length === 0
        ? value
        : `\0${where}: not an address, CIDR or ${PROXY_NAMES.join('/')}: ${wrong.map((w) => JSON.stringify(w)).join(', ')}`;
    }
  }
}

/**
 * `{origins?, credentials?}` with only the keys given (layers merge key by key), origins in
 * canonical form. `*` must stand alone; with credentials it is refused once the layers merge.
 */
function checkCors(value: unknown, where: string): unknown {
  if (!isPlainObject(value))
    return `\0${where} must be an object {origins: string[], credentials?: boolean}, got ${JSON.stringify(value)}`;
  const unknown = Object.keys(value).filter((k) => k !== 'origins' && k !== 'credentials');
  if (unknown.length)
    return `\0${where} has unknown keys ${unknown.map((k) => `'${k}'`).join(', ')} (expected origins, credentials)`;
  const out: { origins?: string[]; credentials?: boolean } = {};
  if (value.credentials !== undefined) {
    if (typeof value.credentials !== 'boolean')
      return `\0${where} credentials must be true or false, got ${JSON.stringify(value.credentials)}`;
    out.credentials = value.credentials;
  }
  if (value.origins !== undefined) {
    const list = value.origins;
    if (!Array.isArray(list) || list.length === 0)
      return `\0${where} origins must be a non-empty list of origins, got ${JSON.stringify(list)}`;
    const bad = list.filter(
      (o) => typeof o !== 'string' || (o !== '*' && parseOrigin(o) === undefined),
    );
    if (bad.length) {
      return `\0${where} origins must be origins, scheme://host[:port] with no path or trailing slash (or '*'): ${bad.map((o) => JSON.stringify(o)).join(', ')}`;
    }
    if (list.includes('*') && list.length > 1)
      return `\0${where} origins: '*' (any origin) must be the only entry`;
    out.origins = [
      ...new Set(list.map((o: string) => (o === '*' ? o : (parseOrigin(o) as string)))),
    ];
  }
  return out;
}

/** Environment values are text: convert by the field's type, then check. */
function fromText(field: FieldSpec, text: string, where: string): unknown {
  switch (field.type) {
    case 'boolean': {
      const t = text.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(t)) return true;
      if (['0', 'false', 'no', 'off', ''].includes(t)) return false;
      return `\0${where} must be true/false/1/0, got ${JSON.stringify(text)}`;
    }
    case 'port':
    case 'positiveInt':
      return /^\d+$/.test(text.trim())
        ? checkValue(field, Number(text), where, true)
        : checkValue(field, text, where, true);
    case 'urlList':
      return checkValue(
        field,
        text
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean),
        where,
      );
    case 'cors':
      // SVC_CORS_ORIGINS: the origins, comma-separated.
      return checkValue(
        field,
        {
          origins: text
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean),
        },
        where,
      );
    default:
      return checkValue(field, text, where, true);
  }
}

function readEnvLayer(env: Readonly<Record<string, string | undefined>>, problems: string[]) {
  const settings: Layer = {};
  for (const field of SERVER_FIELDS) {
    const text = field.env ? env[field.env] : undefined;
    if (text === undefined) continue;
    const value = fromText(field, text, field.env as string);
    if (typeof value === 'string' && value.startsWith('\0')) problems.push(value.slice(1));
    else settings[field.key] = value;
  }
  let database: DatabaseConfig | undefined;
  if (env.DATABASE_URL) database = { url: env.DATABASE_URL };
  else if (env.SVC_DATA_DIR) database = { dataDir: env.SVC_DATA_DIR };
  const pool: Layer = {};
  for (const field of POOL_FIELDS) {
    const text = field.env ? env[field.env] : undefined;
    if (text === undefined) continue;
    const value = fromText(field, text, field.env as string);
    if (typeof value === 'string' && value.startsWith('\0')) problems.push(value.slice(1));
    else pool[field.key] = value;
  }
  return { settings, database, pool };
}

function readConfigFile(file: string, problems: string[]) {
  const shown = shownPath(file);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    problems.push(
      `cannot read config file ${shown}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
    );
    return undefined;
  }
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text);
  } catch (err) {
    problems.push(tomlSyntaxProblem(shown, text, err));
    return undefined;
  }
  const lines = tomlKeyLines(text);
  // `file:line: `: the key's line, or for a key of an inline table the line of the nearest above.
  const at = (keys: readonly string[]) => {
    for (let n = keys.length; n > 0; n--) {
      const line = lines.get(keys.slice(0, n).join('.'));
      if (line !== undefined) return `${shown}:${line}: `;
    }
    return `${shown}: `;
  };
  const settings: Layer = {};
  let database: DatabaseConfig | undefined;
  let auth: Record<string, unknown> | undefined;
  let authTyped = true;
  const pool: Layer = {};
  for (const [table, value] of Object.entries(doc)) {
    if (!isPlainObject(value) || !TOML_TABLES.includes(table)) {
      const hint = didYouMean(table, TOML_TABLES) || ' (expected [server], [database] or [auth])';
      problems.push(`${at([table])}unknown table [${table}]${hint}`);
      continue;
    }
    if (table === 'auth') {
      const before = problems.length;
      checkTable(value, AUTH_FIELDS, {
        path: ['auth'],
        spell: snakeCase,
        name: (keys) => `[${keys.slice(0, -1).join('.')}] ${keys[keys.length - 1]}`,
        at,
        problems,
        fromFile: true,
      });
      authTyped = problems.length === before;
      auth = camelKeys(value);
      continue;
    }
    const fields = table === 'server' ? SERVER_FIELDS : DATABASE_FIELDS;
    const found: Layer = {};
    for (const [key, raw] of Object.entries(value)) {
      const field = fields.find((f) => f.toml?.[0] === table && f.toml[1] === key);
      if (!field) {
        const keys = fields.flatMap((f) => (f.toml ? [f.toml[1]] : []));
        problems.push(`${at([table, key])}unknown key [${table}] ${key}${didYouMean(key, keys)}`);
        continue;
      }
      const checked = checkValue(
        field,
        typeof raw === 'bigint' ? Number(raw) : raw,
        `${at([table, key])}[${table}] ${key}`,
      );
      if (typeof checked === 'string' && checked.startsWith('\0')) problems.push(checked.slice(1));
      else found[field.key] = checked;
    }
    if (table === 'server') {
      Object.assign(settings, found);
      continue;
    }
    for (const field of POOL_FIELDS) {
      if (found[field.key] !== undefined) pool[field.key] = found[field.key];
    }
    if (typeof found.url === 'string') database = { url: found.url };
    else if (typeof found.dataDir === 'string') {
      // A relative data_dir is relative to the file that names it.
      database = { dataDir: path.resolve(path.dirname(file), found.dataDir) };
    }
  }
  return { settings, database, auth, authTyped, pool };
}

const TOML_TABLES = ['server', 'database', 'auth'];

/** A file as a person finds it: relative to the working folder when inside it. */
function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The items of a `trustProxy` list, as Express's `trust proxy` setting takes them. */
export function proxyItems(list: string): string[] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function isProxyItem(item: string): boolean {
  if ((PROXY_NAMES as readonly string[]).includes(item)) return true;
  const slash = item.indexOf('/');
  const address = slash < 0 ? item : item.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash < 0) return true;
  const bits = item.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function checkDatabase(db: DatabaseConfig, problems: string[]) {
  const keys = Object.keys(db).filter((k) => !POOL_KEYS.has(k));
  if (keys.length !== 1 || !['url', 'dataDir', 'memory'].includes(keys[0] as string)) {
    problems.push('database must be one of {url}, {dataDir} or {memory: true}');
  }
  for (const field of POOL_FIELDS) {
    const value = (db as Layer)[field.key];
    if (value === undefined) continue;
    const checked = checkValue(field, value, `database.${field.key}`);
    if (typeof checked === 'string' && checked.startsWith('\0')) problems.push(checked.slice(1));
  }
}

/** snake_case → camelCase, through sub-tables and arrays of tables (`[[auth.webhooks]]`). */
function camelKeys(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    out[camel] = isPlainObject(v)
      ? camelKeys(v)
      : Array.isArray(v)
        ? v.map((item) => (isPlainObject(item) ? camelKeys(item) : item))
        : v;
  }
  return out;
}
