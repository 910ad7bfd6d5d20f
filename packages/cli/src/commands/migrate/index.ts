import { buildSchema, createDefaultMigrator, type MigrateResult } from '@svc/core';
import { DATABASE_FLAGS, databaseUrlSource, resolveCommandConfig } from '../../database-options';
import { asExitError } from '../../failure';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { defaultSchemaDir, readSchemaSource } from '../../schema-files';
import { progressLines } from '../../progress';
import { openOrFindServer, requestThroughServer } from '../../through-server';

export const MIGRATE_USAGE = `Usage: svc migrate [options]

Migrates the database to the schema: plans the change, checks stored data, and applies it in
one transaction. When \`svc serve\` is running on the same embedded data folder, the migration
goes through that server (POST /migrations, with SVC_SERVICE_KEY when the server needs one).

Options:
  --schema <file|dir>   SDL file, or a folder of .esdl files (default dbschema/)
  --database-url <url>  PostgreSQL URL (env DATABASE_URL)
  --data-dir <dir>      embedded database folder (env SVC_DATA_DIR; default ./.svc/data)
  --config <file>       TOML config file (default ./svc.toml when it exists)
  --dry-run             show what would change, change nothing
  --allow-data-loss     let the migration drop columns, tables or links that hold data
  -h, --help            show this help`;

export interface MigrateCommandOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
}

/** `svc migrate`: resolves to the exit code. */
export async function migrateCommand(
  argv: readonly string[],
  opts: MigrateCommandOptions,
): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      schema: { type: 'string' },
      ...DATABASE_FLAGS,
      'dry-run': { type: 'boolean' },
      'allow-data-loss': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    MIGRATE_USAGE,
  );
  if (values.help) {
    opts.io.stdout(MIGRATE_USAGE);
    return 0;
  }
  const schemaPath = values.schema ?? defaultSchemaDir(opts.cwd);
  if (schemaPath === undefined)
    throw new ExitError(2, 'no schema: pass --schema <file|dir> or create dbschema/');
  const { sdl } = readSchemaSource(opts.cwd, schemaPath);
  // A schema error is told before the database opens (a first start creates it: seconds).
  try {
    buildSchema(sdl);
  } catch (err) {
    throw asExitError(err);
  }

  const { config, database, configFile } = resolveCommandConfig(values, opts.cwd, opts.env);
  const dryRun = values['dry-run'] ?? false;
  const allowDataLoss = values['allow-data-loss'] ?? false;
  const progress = progressLines(opts.io, opts.cwd);
  const opened = await openOrFindServer(
    database,
    databaseUrlSource(config.databaseSource, configFile),
    { onCreateDataDir: progress.onCreateDataDir },
  );
  if ('server' in opened) {
    // The embedded folder is held: by a server that listens, the migration goes through it.
    const holder = opened.server;
    opts.io.stderr(
      `svc: the data folder is held by ${holder.command} (pid ${holder.pid}): migrating through it at ${holder.url}`,
    );
    try {
      const result = await requestThroughServer(
        holder,
        'POST',
        '/migrations',
        { schema: sdl, dryRun, allowDataLoss },
        config.serviceKey,
      );
      opts.io.stdout(report(result as MigrateResult, dryRun));
      return 0;
    } catch (inner) {
      throw asExitError(inner);
    }
  }
  const { db } = opened;
  try {
    const result = await createDefaultMigrator().migrate(db, sdl, {
      dryRun,
      allowDataLoss,
      onStep: progress.onStep,
    });
    opts.io.stdout(report(result, dryRun));
    return 0;
  } catch (err) {
    throw asExitError(err);
  } finally {
    await db.close();
  }
}

function report(result: MigrateResult, dryRun: boolean): string {
  if (result.steps.length === 0)
    return `The database is up to date (schema ${result.version.slice(0, 12)}).`;
  const head = dryRun
    ? `Dry run: ${result.steps.length} steps would apply (nothing was changed):`
    : `Applied ${result.steps.length} steps (schema ${result.version.slice(0, 12)}):`;
  return [head, ...result.steps.map((s) => `  ${s.description}`)].join('\n');
}
