import path from 'node:path';
import {
  buildSchema,
  createDefaultMigrator,
  planMigration,
  SvcError,
  type MigrateResult,
  type Schema,
} from '@svc/core';
import { asExitError } from '../../failure';
import { ExitError, type CliIo } from '../../io';
import { migrationsDir, readMigrationFiles } from '../../migration-files';
import {
  PUSH_FLAGS_USAGE,
  parsePushArgs,
  pushTarget,
  type Opened,
  type PushTarget,
} from '../../push-target';
import { readSchemaSource, schemaFilePaths } from '../../schema-files';
import { requestThroughServer, type ServerCredentials } from '../../through-server';
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
${PUSH_FLAGS_USAGE}
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
  const args = parsePushArgs(argv, {}, WATCH_USAGE, opts);
  if (args === undefined) return 0;
  const { values, schemaPath } = args;
  if (schemaFilePaths(opts.cwd, schemaPath).length === 0)
    throw new ExitError(2, `--schema: ${schemaPath} holds no .esdl files`);
  const target = pushTarget(values, opts);

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
  let opened: Opened;
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
  opened: Opened,
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
