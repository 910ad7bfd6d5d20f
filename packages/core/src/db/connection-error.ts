import { commonError } from '../errors/codes';
import { SvcError } from '../errors/svc-error';

/**
 * Why a database could not be opened, in words a person acts on. `openDatabase` throws
 * a `DatabaseConnectionError` instead of the driver's error (whose stack says nothing useful to
 * the person running `svc`); the driver's error stays in `cause`.
 *
 * | problem                  | when                                                              |
 * | ------------------------ | ----------------------------------------------------------------- |
 * | `malformed-url`          | the URL does not parse, or is not `postgres://` / `postgresql://` |
 * | `unreachable`            | connection refused, host not found, network unreachable, reset    |
 * | `authentication`         | the server refused the user or password (SQLSTATE class 28)       |
 * | `unknown-database`       | the server has no database of that name (SQLSTATE 3D000)          |
 * | `refused`                | anything else the server or TLS said (too many connections...)    |
 * | `embedded-not-installed` | an embedded database, without `@electric-sql/pglite` installed    |
 *
 * No message ever holds the password: the URL is never echoed, only its host, port, user and
 * database name.
 */
export type DatabaseConnectionProblem =
  | 'malformed-url'
  | 'unreachable'
  | 'authentication'
  | 'unknown-database'
  | 'refused'
  | 'embedded-not-installed';

export class DatabaseConnectionError extends SvcError {
  constructor(
    readonly problem: DatabaseConnectionProblem,
    message: string,
    options: { hint?: string; cause?: unknown } = {},
  ) {
    super('SERVICE_UNAVAILABLE', commonError.statuses.SERVICE_UNAVAILABLE, message, options);
    this.name = 'DatabaseConnectionError';
  }
}

const URL_SHAPE = 'postgres://user:password@host:port/database';

/** Host and port, user and database of a URL that parsed: nothing secret. */
interface Target {
  readonly address: string;
  readonly user: string | undefined;
  readonly database: string | undefined;
}

/**
 * Checks that `url` is a PostgreSQL URL before `pg` sees it (`pg` reads "not a url" as a host
 * named "base"). Returns what may be shown of it, or throws `malformed-url`.
 */
export function checkDatabaseUrl(url: string): Target {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DatabaseConnectionError('malformed-url', 'the database URL is not a valid URL', {
      hint: `write it as ${URL_SHAPE}`,
    });
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new DatabaseConnectionError(
      'malformed-url',
      `the database URL starts with ${u.protocol}// where postgres:// is expected`,
      {
        hint: `write it as ${URL_SHAPE}`,
      },
    );
  }
  const host = u.hostname
    ? decodeURIComponent(u.hostname)
    : (u.searchParams.get('host') ?? 'localhost');
  const port = u.port || u.searchParams.get('port') || '5432';
  const database = u.pathname.length > 1 ? decodeURIComponent(u.pathname.slice(1)) : undefined;
  return {
    address: host.startsWith('/') ? `${host} (socket)` : `${host}:${port}`,
    user: u.username ? decodeURIComponent(u.username) : undefined,
    database,
  };
}

const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOENT: 'no such socket',
  EACCES: 'permission denied',
};

/** Turns what `pg` threw while connecting into a `DatabaseConnectionError`. */
export function connectionFailure(err: unknown, target: Target): DatabaseConnectionError {
  const code =
    typeof (err as { code?: unknown })?.code === 'string'
      ? (err as { code: string }).code
      : undefined;
  const text = err instanceof Error ? err.message : String(err);
  // pg's own connect timeout ("timeout expired", "... due to connection timeout") carries no code.
  if (code === undefined && /\btimeout\b/i.test(text)) {
    return connectionFailure(
      Object.assign(new Error(text, { cause: err }), { code: 'ETIMEDOUT' }),
      target,
    );
  }
  const at = `PostgreSQL at ${target.address}`;
  if (code !== undefined && NETWORK_REASONS[code] !== undefined) {
    return new DatabaseConnectionError(
      'unreachable',
      `cannot connect to ${at} (${NETWORK_REASONS[code]})`,
      {
        hint: 'check the host and port, and that the server is running',
        cause: err,
      },
    );
  }
  if (code !== undefined && code.startsWith('28')) {
    // 28P01 invalid_password, 28000 invalid_authorization_specification (unknown role, pg_hba).
    return new DatabaseConnectionError('authentication', `${at} refused the login (${text})`, {
      hint: 'check the user name and password in the URL',
      cause: err,
    });
  }
  if (code === '3D000') {
    const name = target.database ?? target.user ?? '';
    return new DatabaseConnectionError('unknown-database', `${at} has no database "${name}"`, {
      hint: `create it (createdb ${JSON.stringify(name)}) or name an existing database in the URL`,
      cause: err,
    });
  }
  return new DatabaseConnectionError('refused', `cannot connect to ${at} (${text})`, {
    cause: err,
  });
}
