import path from 'node:path';
import type { DatabaseConfig } from '@svc/core';
import { ConfigError, resolveConfig, type ResolvedConfig, type ServerConfig } from '@svc/server';
import { ExitError } from './io';

/** The flags every command that opens the database takes (parseArgs option specs). */
export const DATABASE_FLAGS = {
  'database-url': { type: 'string' },
  'data-dir': { type: 'string' },
  config: { type: 'string' },
} as const;

/**
 * Resolves the configuration of a command that opens the database directly (migrate, admin)
 * with the server's own precedence (flag > environment > file > default), and the database it
 * names, a relative data folder resolved against `cwd`.
 */
export function resolveCommandConfig(
  values: { 'database-url'?: string; 'data-dir'?: string; config?: string },
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  extra: Partial<ServerConfig> = {},
): { config: ResolvedConfig; database: DatabaseConfig } {
  if (values['database-url'] !== undefined && values['data-dir'] !== undefined) {
    throw new ExitError(2, '--database-url and --data-dir name two different databases: give one');
  }
  const input: ServerConfig = { env, ...extra };
  if (values['database-url'] !== undefined) input.database = { url: values['database-url'] };
  if (values['data-dir'] !== undefined) input.database = { dataDir: path.resolve(cwd, values['data-dir']) };
  if (values.config !== undefined) input.configFile = path.resolve(cwd, values.config);
  let config: ResolvedConfig;
  try {
    config = resolveConfig(input);
  } catch (err) {
    if (err instanceof ConfigError) throw new ExitError(2, err.message);
    throw err;
  }
  const database = 'dataDir' in config.database ? { dataDir: path.resolve(cwd, config.database.dataDir) } : config.database;
  return { config, database };
}
