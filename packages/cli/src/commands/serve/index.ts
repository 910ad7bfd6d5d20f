import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  ConfigError,
  createServer,
  resolveConfig,
  resolveLogFormat,
  type CreateServerOptions,
  type SvcServer,
} from '@svc/server';
import {
  configFailure,
  DATABASE_FLAGS,
  databaseFlagOptions,
  databaseUrlSource,
} from '../../database-options';
import { asExitError } from '../../failure';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { migrationsDir, readMigrationFiles } from '../../migration-files';
import { progressLines } from '../../progress';
import { defaultSchemaDir, readSchemaSource } from '../../schema-files';

export const SERVE_USAGE = `Usage: svc serve [options]

Starts the svc server. Without a database URL it runs on an embedded database in ./.svc/data.

Options:
  --port <n>            port to listen on (env SVC_PORT; default 5656; 0 = any free port)
  --host <addr>         address to listen on (env SVC_HOST; default 127.0.0.1)
  --config <file>       TOML config file (default ./svc.toml when it exists)
  --schema <file|dir>   SDL schema to migrate to at start (default dbschema/); with migration
                        files (dbschema/migrations/) the schema moves only through them
  --migrate             apply pending migration files at start (otherwise they are named)
  --database-url <url>  PostgreSQL URL (env DATABASE_URL)
  --data-dir <dir>      embedded database folder (env SVC_DATA_DIR; default ./.svc/data)
  --enable-auth         turn the built-in auth on (env SVC_ENABLE_AUTH)
  --jwt-secret <s>      HS256 secret, at least 32 characters (env SVC_JWT_SECRET)
  --tls-cert <file>     PEM certificate: serve HTTPS (with --tls-key)
  --tls-key <file>      PEM private key
  --log-level <level>   fatal, error, warn, info, debug, trace or silent (env SVC_LOG_LEVEL)
  --log-format <f>      json, pretty or auto: pretty on a terminal, else JSON (env SVC_LOG_FORMAT)
  -h, --help            show this help

Precedence: flag > environment > config file > default.`;

export interface ServeOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
}

/** What `parseServeArgs` gives: createServer options, and where the schema came from (for the banner). */
export type ParsedServeArgs = CreateServerOptions & { help?: boolean; schemaSource?: string };

/** Parses `svc serve` flags into createServer options (no I/O beyond reading named files). */
export function parseServeArgs(
  argv: readonly string[],
  { cwd, env }: Omit<ServeOptions, 'io'>,
): ParsedServeArgs {
  const parsed = parseCommandArgs(
    argv,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      schema: { type: 'string' },
      migrate: { type: 'boolean' },
      ...DATABASE_FLAGS,
      'enable-auth': { type: 'boolean' },
      'jwt-secret': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'log-level': { type: 'string' },
      'log-format': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    SERVE_USAGE,
  );
  const v = parsed.values;
  if (v.help) return { help: true };

  const options: ParsedServeArgs = { env };
  if (v.port !== undefined) {
    if (!/^\d+$/.test(v.port))
      throw new ExitError(2, `--port must be an integer from 0 to 65535, got "${v.port}"`);
    options.port = Number(v.port);
  }
  if (v.host !== undefined) options.host = v.host;
  if (v['enable-auth']) options.enableAuth = true;
  if (v['jwt-secret'] !== undefined) options.jwtSecret = v['jwt-secret'];
  if (v['log-level'] !== undefined) options.logLevel = v['log-level'] as never;
  if (v['log-format'] !== undefined) options.logFormat = v['log-format'] as never;
  Object.assign(options, databaseFlagOptions(v, cwd, env));

  if ((v['tls-cert'] === undefined) !== (v['tls-key'] === undefined)) {
    throw new ExitError(2, '--tls-cert and --tls-key go together');
  }
  if (v['tls-cert'] !== undefined && v['tls-key'] !== undefined) {
    options.tls = {
      cert: readFileOrExit(cwd, v['tls-cert'], '--tls-cert'),
      key: readFileOrExit(cwd, v['tls-key'], '--tls-key'),
    };
  }
  const schemaPath = v.schema ?? defaultSchemaDir(cwd);
  if (schemaPath !== undefined) {
    const { sdl, files } = readSchemaSource(cwd, schemaPath);
    const shown = v.schema ?? `${schemaPath}/`;
    const migrations = readMigrationFiles(cwd, migrationsDir(cwd, schemaPath));
    if (migrations.length) {
      // With migration files the schema moves only through them (svc migrate, or --migrate).
      options.migrations = { files: migrations, apply: v.migrate === true };
      options.schemaSource = `${migrations.length} migration file${migrations.length === 1 ? '' : 's'} in ${path.relative(cwd, migrationsDir(cwd, schemaPath)) || '.'}${v.migrate ? ', pending ones applied at start' : ' (--migrate applies pending ones)'}`;
    } else {
      options.schema = sdl;
      options.schemaSource =
        files.length === 1 && path.resolve(cwd, files[0]!.name) === path.resolve(cwd, schemaPath)
          ? shown
          : `${shown} (${files.length} file${files.length === 1 ? '' : 's'})`;
    }
  } else if (v.migrate) {
    throw new ExitError(
      2,
      '--migrate: no schema folder with migration files (dbschema/migrations)',
    );
  }
  return options;
}

function readFileOrExit(cwd: string, file: string, flag: string): Buffer {
  try {
    return fs.readFileSync(path.resolve(cwd, file));
  } catch (err) {
    throw new ExitError(
      2,
      `${flag}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/**
 * `svc serve`: starts the server and resolves with it once listening. The caller owns the
 * process: it decides what SIGTERM does (see main.ts).
 */
export async function serve(
  argv: readonly string[],
  opts: ServeOptions,
): Promise<SvcServer | undefined> {
  const { help, schemaSource, ...options } = parseServeArgs(argv, opts);
  if (help) {
    opts.io.stdout(SERVE_USAGE);
    return undefined;
  }
  const db = options.database ?? { dataDir: '' };
  const embeddedDir = 'dataDir' in db && db.dataDir ? db.dataDir : undefined;
  const existedBefore = (dir: string) => fs.existsSync(path.join(dir, 'PG_VERSION'));
  const preexisting = embeddedDir
    ? existedBefore(embeddedDir)
    : existedBefore(path.resolve(opts.cwd, '.svc/data'));
  // The configuration, the schema and the port are checked before the database opens (a first
  // start creates it: seconds, to be told of a port that was taken all along).
  let listenAt: { host: string; port: number };
  try {
    // (The schema was built, and any error reported, as the flags were read: readSchemaSource.)
    const { migrations: _files, ...settings } = options;
    listenAt = resolveConfig(settings);
  } catch (err) {
    if (err instanceof ConfigError) throw configFailure(err, options);
    throw asExitError(err);
  }
  // Bound now and handed to the server once it is ready: no other process can take the port
  // while the database opens.
  const held = await holdPort(listenAt.host, listenAt.port);
  if (typeof held === 'string') throw listenFailure(listenAt.host, listenAt.port, held);
  let server: SvcServer;
  try {
    server = await createServer({ ...options, progress: progressLines(opts.io, opts.cwd) });
  } catch (err) {
    await new Promise((resolve) => held.close(resolve));
    if (err instanceof ConfigError) throw configFailure(err, options);
    // The URL's source by the server's precedence: flag > DATABASE_URL > the config file.
    const source = options.database
      ? 'explicit'
      : opts.env.DATABASE_URL
        ? 'environment'
        : options.configFile
          ? 'file'
          : 'default';
    throw asExitError(err, databaseUrlSource(source, options.configFile));
  }
  try {
    await server.listen({ handle: held });
  } catch (err) {
    await server.close();
    throw err;
  }
  const resolved = server.config.database;
  let note = '';
  if ('dataDir' in resolved) {
    note = preexisting ? ' (existing data)' : ' (created)';
    if (server.config.databaseSource === 'default')
      note += ': no database configured, so svc uses ./.svc/data';
  }
  if (resolveLogFormat(server.config.logFormat) === 'pretty') {
    opts.io.stdout(banner(server, note, schemaSource));
  } else {
    server.logger.info(
      { url: server.url, database: server.database.description },
      `svc listening on ${server.url} with ${server.database.description}${note}`,
    );
  }
  return server;
}

/** Why the server could not listen, and what to do about it. */
const LISTEN_FIXES: Readonly<Record<string, (port: number) => string>> = {
  EADDRINUSE: (port) =>
    `port ${port} is in use by another program: stop it, or choose another port with --port <n> (or --port 0 for any free port)`,
  EACCES: (port) =>
    `port ${port} needs privileges this process lacks: choose one above 1023 with --port <n> (or --port 0 for any free port)`,
  EADDRNOTAVAIL: () =>
    "the address is not one of this machine's: choose another with --host (127.0.0.1, or 0.0.0.0 for every interface)",
};

function listenFailure(host: string, port: number, code: string): ExitError {
  const fix = LISTEN_FIXES[code];
  return new ExitError(
    1,
    `cannot listen on ${host}:${port} (${code})${fix === undefined ? '' : `: ${fix(port)}`}`,
  );
}

/**
 * Listens on `host:port` for the server to take over once started (`listen({handle})`); the
 * error code (`EADDRINUSE`, ...) when it cannot. A connection that comes before the server has
 * started is closed, as a refused one would be.
 */
function holdPort(host: string, port: number): Promise<net.Server | string> {
  return new Promise((resolve) => {
    const held = net.createServer({ pauseOnConnect: true }, (socket) => socket.destroy());
    const failed = (err: NodeJS.ErrnoException) => resolve(err.code ?? 'EADDRINUSE');
    held.once('error', failed);
    held.listen({ host, port, exclusive: true }, () => {
      held.off('error', failed);
      resolve(held);
    });
  });
}

/** What a person starting `svc serve` at a terminal wants to see once, before the logs. */
function banner(server: SvcServer, databaseNote: string, schemaSource: string | undefined): string {
  const config = server.config;
  const auth = !config.enableAuth
    ? 'off (--enable-auth to turn it on)'
    : config.authConfig.smtp === undefined
      ? 'on; email is not delivered (no SMTP configured)'
      : 'on';
  const rows: [string, string][] = [
    ['URL', server.url],
    ['database', `${server.database.description}${databaseNote}`],
    [
      'schema',
      schemaSource ??
        'none given: the schema stored in the database, if any (--schema or dbschema/)',
    ],
    ['auth', auth],
  ];
  // The admin UI (issue 30): where it is, and what it still needs.
  if (config.adminUi) {
    // It keeps its own session cookie, so [auth] cookie does not matter to it.
    const needs = config.enableAuth ? '' : ' (needs auth and a superuser)';
    rows.push(['admin UI', `${server.url}/_/${needs}`]);
  }
  return [
    `svc ${CLI_VERSION}`,
    ...rows.map(([k, v]) => `  ${k.padEnd(10)}${v}`),
    '  Ctrl-C stops it; --log-format json for machine-readable logs.',
    '',
  ].join('\n');
}

const CLI_VERSION: string = (require('../../../package.json') as { version: string }).version;
