import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseConfig } from '@svc/core';
import {
  ConfigError,
  resolveConfig,
  SERVER_FIELDS,
  type ResolvedConfig,
  type ServerConfig,
} from '@svc/server/config';
import { ExitError } from './io';

/** The flags every command that opens the database takes (parseArgs option specs). */
export const DATABASE_FLAGS = {
  'database-url': { type: 'string' },
  'data-dir': { type: 'string' },
  config: { type: 'string' },
} as const;

/**
 * The TOML file a command reads: `--config`, else `SVC_CONFIG`, else `./svc.toml` when it exists
 * (relative paths against `cwd`).
 */
function configFileOf(
  flag: string | undefined,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const named = flag ?? env.SVC_CONFIG;
  if (named !== undefined) return path.resolve(cwd, named);
  const local = path.join(cwd, 'svc.toml');
  return fs.existsSync(local) ? local : undefined;
}

/** What `DATABASE_FLAGS` parse to. */
export interface DatabaseFlagValues {
  readonly 'database-url'?: string | undefined;
  readonly 'data-dir'?: string | undefined;
  readonly config?: string | undefined;
}

/**
 * What the database flags name, as server options: `database` from `--database-url` or
 * `--data-dir` (a relative folder resolved against `cwd`; both at once is exit 2) and
 * `configFile` (`configFileOf`). What nothing names is left out, for the server to resolve.
 */
export function databaseFlagOptions(
  values: DatabaseFlagValues,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Pick<ServerConfig, 'database' | 'configFile'> {
  if (values['database-url'] !== undefined && values['data-dir'] !== undefined) {
    throw new ExitError(2, '--database-url and --data-dir name two different databases: give one');
  }
  const options: Pick<ServerConfig, 'database' | 'configFile'> = {};
  if (values['database-url'] !== undefined) options.database = { url: values['database-url'] };
  if (values['data-dir'] !== undefined)
    options.database = { dataDir: path.resolve(cwd, values['data-dir']) };
  const configFile = configFileOf(values.config, cwd, env);
  if (configFile !== undefined) options.configFile = configFile;
  return options;
}

/**
 * Resolves the configuration of a command that opens the database directly (migrate, admin)
 * with the server's own precedence (flag > environment > file > default), and the database it
 * names, a relative data folder resolved against `cwd`.
 */
export function resolveCommandConfig(
  values: DatabaseFlagValues,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  extra: Partial<ServerConfig> = {},
): { config: ResolvedConfig; database: DatabaseConfig; configFile: string | undefined } {
  const input: ServerConfig = { env, ...extra, ...databaseFlagOptions(values, cwd, env) };
  const configFile = input.configFile;
  let config: ResolvedConfig;
  try {
    config = resolveConfig(input);
  } catch (err) {
    if (err instanceof ConfigError) throw configFailure(err, input);
    throw err;
  }
  const database =
    'dataDir' in config.database
      ? { dataDir: path.resolve(cwd, config.database.dataDir) }
      : config.database;
  return { config, database, configFile };
}

/**
 * A configuration refused, as exit code 2 and the list of its problems, a setting given as a
 * flag named by its flag (`--log-level must be ...`), as the person typed it.
 */
export function configFailure(err: ConfigError, given: ServerConfig): ExitError {
  const flagged = SERVER_FIELDS.filter(
    (f) => f.flag !== undefined && given[f.key as keyof ServerConfig] !== undefined,
  );
  const problems = err.problems.map((problem) => {
    const field = flagged.find((f) => problem.startsWith(`${f.key} `));
    return field ? `${field.flag}${problem.slice(field.key.length)}` : problem;
  });
  return new ExitError(2, new ConfigError(problems).message);
}

/**
 * Where the database URL came from, named as the user wrote it: the flag, the environment
 * variable or the config file's key.
 */
export function databaseUrlSource(
  source: ResolvedConfig['databaseSource'],
  configFile: string | undefined,
): string {
  switch (source) {
    case 'explicit':
      return '--database-url';
    case 'environment':
      return 'DATABASE_URL';
    case 'file':
      return `[database] url in ${configFile ? path.basename(configFile) : 'the config file'}`;
    default:
      return '--database-url / DATABASE_URL';
  }
}
