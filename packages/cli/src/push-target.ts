/**
 * What `svc migrate` and `svc watch` share before they push a schema: their common flags, the
 * schema's path, and the database a push goes to (the database itself, or the `svc serve` that
 * holds its embedded folder, with the credential to send it). Each command reads its schema and
 * migration files between `parsePushArgs` and `pushTarget`, so a schema error is told before the
 * configuration is read and the database opened.
 */
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import {
  holdsEmbeddedDatabase,
  readDataDirLock,
  type DatabaseConfig,
  type OpenDatabaseOptions,
} from '@svc/core';
import {
  DATABASE_FLAGS,
  databaseUrlSource,
  resolveCommandConfig,
  type DatabaseFlagValues,
} from './database-options';
import { ExitError, parseCommandArgs, type CliIo, type CommandArgs } from './io';
import { shownDir } from './progress';
import { defaultSchemaDir } from './schema-files';
import {
  openOrFindServer,
  SERVER_FLAGS,
  serverCredentials,
  type ServerCredentials,
} from './through-server';

/** The flags of every command that pushes a schema (parseArgs option specs). */
const PUSH_FLAGS = {
  schema: { type: 'string' },
  ...DATABASE_FLAGS,
  ...SERVER_FLAGS,
  'allow-data-loss': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The common flags in a pushing command's usage (`--allow-data-loss` and `--help` aside). */
export const PUSH_FLAGS_USAGE = `  --schema <file|dir>   SDL file, or a folder of .esdl files (default dbschema/)
  --database-url <url>  PostgreSQL URL (env DATABASE_URL)
  --data-dir <dir>      embedded database folder (env SVC_DATA_DIR; default ./.svc/data)
  --config <file>       TOML config file (default ./svc.toml when it exists)
  --token <jwt>         through a server: a superuser's access token (env SVC_TOKEN); else
                        the service key, else the sign-in of \`svc login\``;

export interface PushCommandOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
}

/**
 * Parses a pushing command's flags (`PUSH_FLAGS` and the command's own `extra`), answers
 * `--help` (then returns undefined: the command exits 0), and finds the schema: `--schema`,
 * else `dbschema/` (none is exit 2).
 */
export function parsePushArgs<const Extra extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  extra: Extra,
  usage: string,
  opts: PushCommandOptions,
): { values: CommandArgs<typeof PUSH_FLAGS & Extra>['values']; schemaPath: string } | undefined {
  const { values } = parseCommandArgs(argv, { ...PUSH_FLAGS, ...extra }, usage);
  // What PUSH_FLAGS parse to (TypeScript cannot see it through the generic `extra`).
  const common = values as { readonly help?: boolean; readonly schema?: string };
  if (common.help) {
    opts.io.stdout(usage);
    return undefined;
  }
  const schemaPath = common.schema ?? defaultSchemaDir(opts.cwd);
  if (schemaPath === undefined)
    throw new ExitError(2, 'no schema: pass --schema <file|dir> or create dbschema/');
  return { values, schemaPath };
}

/** Where a command's pushes go. */
export interface PushTarget {
  /**
   * Opens the database, or finds the running server holding its embedded folder. A failure is
   * the command's exit error, naming where the database setting came from.
   */
  readonly open: (options?: OpenDatabaseOptions) => ReturnType<typeof openOrFindServer>;
  /** What a push through a running server sends (--token, the service key, `svc login`). */
  readonly credentials: ServerCredentials;
  readonly allowDataLoss: boolean;
  /**
   * Said (on stderr) when a dry run plans against an empty database in memory, because the
   * embedded folder holds none yet; undefined otherwise.
   */
  readonly inMemory: string | undefined;
}

/** The database a push opened, or the server holding its embedded folder. */
export type Opened = Awaited<ReturnType<PushTarget['open']>>;

/**
 * The configuration (flag > environment > file > default) and the database it names. A dry run
 * changes nothing on disk: on an embedded folder that holds no database yet (and that no process
 * is creating), it plans against an empty database in memory instead of creating the folder,
 * which is what a first real push would start from.
 */
export function pushTarget(
  values: DatabaseFlagValues & {
    readonly token?: string | undefined;
    readonly 'allow-data-loss'?: boolean | undefined;
  },
  opts: PushCommandOptions,
  { dryRun = false }: { readonly dryRun?: boolean } = {},
): PushTarget {
  const { config, database, configFile } = resolveCommandConfig(values, opts.cwd, opts.env);
  let used: DatabaseConfig = database;
  let inMemory: string | undefined;
  if (
    dryRun &&
    'dataDir' in database &&
    !holdsEmbeddedDatabase(database.dataDir) &&
    readDataDirLock(database.dataDir) === undefined
  ) {
    used = { memory: true };
    inMemory = `svc: ${shownDir(path.resolve(database.dataDir), opts.cwd)} holds no database yet: the dry run plans against an empty one in memory and creates nothing`;
  }
  const source = databaseUrlSource(config.databaseSource, configFile);
  return {
    open: (options) => openOrFindServer(used, source, options),
    credentials: serverCredentials(values, config.serviceKey, opts.cwd, opts.env),
    allowDataLoss: values['allow-data-loss'] ?? false,
    inMemory,
  };
}
