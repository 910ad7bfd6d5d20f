import path from 'node:path';
import {
  buildSchema,
  createDefaultMigrator,
  planMigration,
  SvcError,
  type MigrateResult,
  type Schema,
} from '@svc/core';
import { DATABASE_FLAGS, databaseUrlSource, resolveCommandConfig } from '../../database-options';
import { asExitError } from '../../failure';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { migrationsDir, readMigrationFiles } from '../../migration-files';
import { defaultSchemaDir, readSchemaSource, schemaFilePaths } from '../../schema-files';
import {
  openOrFindServer,
  requestThroughServer,
  SERVER_FLAGS,
  serverCredentials,
  type ServerCredentials,
} from '../../through-server';
import { filesSignature, watchFiles } from '../../watch-files';
import { migrateReport } from '../migrate';
import { renameCandidates } from '../migration/questions';

export const WATCH_USAGE = `Usage: svc watch [options]

Development: pushes the schema to the database now, then again each time one of its files is
saved, as \`svc migrate --dev\` does (recorded as a development push, with no migration file),
until interrupted (Ctrl-C). A schema error is printed with its file, line and code frame, and the
next save tries again. A change that would drop stored data is not pushed unless
--allow-data-loss. When \`svc serve\` holds the embedded data folder, each push goes through it
(POST /migrations), so the running server serves the new schema at once.

Options:
  --schema <file|dir>   SDL file, or a folder of .esdl files (default dbschema/)
  --database-url <url>  PostgreSQL URL (env DATABASE_URL)
  --data-dir <dir>      embedded database folder (env SVC_DATA_DIR; default ./.svc/data)
  --config <file>       TOML config file (default ./svc.toml when it exists)
  --token <jwt>         through a server: a superuser's access token (env SVC_TOKEN); else
                        the service key, else the sign-in of \`svc login\`
  --allow-data-loss     let a push drop columns, tables or links that hold data
  -h, --help            show this help`;

export interface WatchCommandOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
  /** Ends the watch (besides SIGINT). */
  readonly signal?: AbortSignal;
}

/** `svc watch`: resolves to the exit code once stopped. */
export async function watchCommand(
  argv: readonly string[],
  opts: WatchCommandOptions,
): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      schema: { type: 'string' },
      ...DATABASE_FLAGS,
      ...SERVER_FLAGS,
      'allow-data-loss': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    WATCH_USAGE,
  );
  if (values.help) {
    opts.io.stdout(WATCH_USAGE);
    return 0;
  }
  const schemaPath = values.schema ?? defaultSchemaDir(opts.cwd);
  if (schemaPath === undefined)
    throw new ExitError(2, 'no schema: pass --schema <file|dir> or create dbschema/');
  if (schemaFilePaths(opts.cwd, schemaPath).length === 0)
    throw new ExitError(2, `--schema: ${schemaPath} holds no .esdl files`);
  const { config, database, configFile } = resolveCommandConfig(values, opts.cwd, opts.env);
  const target: PushTarget = {
    open: () => openOrFindServer(database, databaseUrlSource(config.databaseSource, configFile)),
    credentials: serverCredentials(values, config.serviceKey, opts.cwd, opts.env),
    allowDataLoss: values['allow-data-loss'] ?? false,
  };

  const dir = migrationsDir(opts.cwd, schemaPath);
  const files = readMigrationFiles(opts.cwd, dir);
  if (files.length)
    opts.io.stderr(
      `svc: ${path.relative(opts.cwd, dir) || dir} holds ${files.length} migration files: what watch pushes are development pushes (svc migration log shows them as such); \`svc migration create\` makes the next file once the schema is right`,
    );

  // Ctrl-C from now on stops the watch, never a push halfway: one under way ends first.
  const stop = new AbortController();
  const onStop = () => stop.abort();
  process.once('SIGINT', onStop);
  opts.signal?.addEventListener('abort', onStop, { once: true });
  try {
    // The first push opens the database: one that cannot be opened ends the command.
    await pushSchema(opts, schemaPath, target, true);
    if (!stop.signal.aborted) {
      opts.io.stderr(`svc: watching ${schemaPath} for changes (Ctrl-C to stop)`);
      await watchFiles(
        () => filesSignature(schemaFilePaths(opts.cwd, schemaPath)),
        () => pushSchema(opts, schemaPath, target, false),
        stop.signal,
      );
    }
  } finally {
    process.off('SIGINT', onStop);
    opts.signal?.removeEventListener('abort', onStop);
  }
  return 0;
}

interface PushTarget {
  readonly open: () => ReturnType<typeof openOrFindServer>;
  /** What a push through a running server sends (--token, the service key, `svc login`). */
  readonly credentials: ServerCredentials;
  readonly allowDataLoss: boolean;
}

/**
 * One push of the schema on disk: its report on stdout, or what stopped it on stderr. Only a
 * database that cannot be opened on the `first` push is thrown; any other failure is printed and
 * the watch goes on.
 */
async function pushSchema(
  opts: WatchCommandOptions,
  schemaPath: string,
  target: PushTarget,
  first: boolean,
): Promise<void> {
  let sdl: string;
  let schema: Schema;
  try {
    ({ sdl, schema } = readSchemaSource(opts.cwd, schemaPath));
  } catch (err) {
    if (!(err instanceof ExitError)) throw err;
    opts.io.stderr(`svc: ${err.message}\nsvc: nothing was pushed; waiting for the next save`);
    return;
  }
  let opened: Awaited<ReturnType<typeof openOrFindServer>>;
  try {
    opened = await target.open();
  } catch (err) {
    if (first || !(err instanceof ExitError)) throw err;
    opts.io.stderr(`svc: ${err.message}`);
    return;
  }
  if (first && 'server' in opened)
    opts.io.stderr(
      `svc: the data folder is held by ${opened.server.command} (pid ${opened.server.pid}): pushing through it at ${opened.server.url}`,
    );
  const body = { schema: sdl, allowDataLoss: target.allowDataLoss };
  try {
    const result =
      'server' in opened
        ? ((await requestThroughServer(
            opened.server,
            'POST',
            '/migrations',
            body,
            target.credentials,
          )) as MigrateResult)
        : await createDefaultMigrator().migrate(opened.db, sdl, body);
    opts.io.stdout(migrateReport(result, false));
  } catch (err) {
    const failure = asExitError(err);
    if (!(failure instanceof ExitError)) throw failure;
    const lines = [`svc: ${failure.message}`];
    if (err instanceof SvcError && err.type === 'DataLossError') {
      lines.push(
        'svc: nothing was pushed: to drop the data, restart with `svc watch --allow-data-loss`',
        ...(await renameFlags(opened, schema, target.credentials)).map(
          (flag) => `svc: if it was renamed, push the rename once: svc migrate --dev ${flag}`,
        ),
      );
    }
    opts.io.stderr(lines.join('\n'));
  } finally {
    if ('db' in opened) await opened.db.close();
  }
}

/** The `--rename` flags that would keep what a refused push drops (rename candidates). */
async function renameFlags(
  opened: Awaited<ReturnType<typeof openOrFindServer>>,
  schema: Schema,
  credentials: ServerCredentials,
): Promise<string[]> {
  try {
    const stored =
      'server' in opened
        ? ((await requestThroughServer(
            opened.server,
            'GET',
            '/schema',
            undefined,
            credentials,
          )) as {
            sdl: string;
          })
        : await createDefaultMigrator().current(opened.db);
    const from = buildSchema(stored?.sdl ?? '');
    return renameCandidates(from, schema, planMigration(from, schema)).map((c) => c.flag);
  } catch {
    return []; // a suggestion only: the refusal was printed
  }
}
