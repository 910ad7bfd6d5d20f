import {
  createDefaultMigrator,
  type MigrateOptions,
  type MigrateResult,
  type MigrationRename,
} from '@svc/core';
import { asExitError } from '../../failure';
import { ExitError, type CliIo } from '../../io';
import { hasUnmigratedChanges, migrationsDir, readMigrationFiles } from '../../migration-files';
import { progressLines } from '../../progress';
import { PUSH_FLAGS_USAGE, parsePushArgs, pushTarget } from '../../push-target';
import { readSchemaSource } from '../../schema-files';
import { requestThroughServer } from '../../through-server';

export const MIGRATE_USAGE = `Usage: svc migrate [options]

With migration files (dbschema/migrations/, made by \`svc migration create\`): applies the
pending ones in order, each in its own transaction, refusing a file changed since it was made or
made onto another migration than the last applied. Without them, or with --dev: pushes the
schema as it is (development), in one transaction. Either way the change is planned, stored data
is checked, and nothing is half applied. When \`svc serve\` is running on the same embedded data
folder, the migration goes through that server (POST /migrations) as a superuser (--token,
SVC_TOKEN, or \`svc login\`) or with the service key (SVC_SERVICE_KEY) when auth is on.

Options:
${PUSH_FLAGS_USAGE}
  --dev                 push the schema as it is, even when there are migration files
                        (development; recorded as a development push)
  --dry-run             show what would change, change nothing
  --allow-data-loss     let the migration drop columns, tables or links that hold data
  --rename <old=new>    (--dev, or no files) keep the data of a renamed type (User=Person) or property or link
                        (User.bio=about) instead of dropping and adding it; repeatable
  --fill <ptr=expr>     (--dev, or no files) the value of existing objects for a property that is added as required,
                        becomes required, or changes type: User.handle="str_lower(.name)",
                        User.age="<int64>.age"; repeatable
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
  const args = parsePushArgs(
    argv,
    {
      dev: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      rename: { type: 'string', multiple: true },
      fill: { type: 'string', multiple: true },
    },
    MIGRATE_USAGE,
    opts,
  );
  if (args === undefined) return 0;
  const { values, schemaPath } = args;
  const source = readSchemaSource(opts.cwd, schemaPath);
  const files = values.dev ? [] : readMigrationFiles(opts.cwd, migrationsDir(opts.cwd, schemaPath));
  if (files.length && (values.rename?.length || values.fill?.length)) {
    throw new ExitError(
      2,
      'with migration files, renames and fills go into the file: `svc migration create --rename ... --fill ...` (or push the schema with `svc migrate --dev`)',
    );
  }

  const dryRun = values['dry-run'] ?? false;
  const target = pushTarget(values, opts, { dryRun });
  const { allowDataLoss } = target;
  const hints = {
    renames: (values.rename ?? []).map(parseRenameArg),
    fills: Object.fromEntries((values.fill ?? []).map(parseFillArg)),
  };
  // What to apply: the pending files, in order, or the schema as it is.
  type Request = MigrateOptions & { schema: string; file?: string };
  const requests: Request[] = files.length
    ? files.map((f) => ({
        schema: f.sdl,
        renames: f.renames,
        fills: f.fills,
        migration: { id: f.id, parent: f.parent },
        dryRun,
        allowDataLoss,
        file: f.file,
      }))
    : [{ schema: source.sdl, dryRun, allowDataLoss, ...hints }];
  if (files.length && hasUnmigratedChanges(source.sdl, files.at(-1)))
    opts.io.stderr(
      `svc: note: the schema in ${schemaPath} has changes no migration file holds; \`svc migration create\` makes the next one`,
    );
  const progress = progressLines(opts.io, opts.cwd);
  if (target.inMemory !== undefined) opts.io.stderr(target.inMemory);
  const opened = await target.open({ onCreateDataDir: progress.onCreateDataDir });
  let apply: (r: Request) => Promise<MigrateResult>;
  let applied: () => Promise<string[]>;
  let close = async () => {};
  if ('server' in opened) {
    // The embedded folder is held: by a server that listens, the migration goes through it.
    const holder = opened.server;
    opts.io.stderr(
      `svc: the data folder is held by ${holder.command} (pid ${holder.pid}): migrating through it at ${holder.url}`,
    );
    apply = async ({ file: _file, ...body }) =>
      (await requestThroughServer(
        holder,
        'POST',
        '/migrations',
        body,
        target.credentials,
      )) as MigrateResult;
    applied = async () =>
      (
        (await requestThroughServer(
          holder,
          'GET',
          '/migrations',
          undefined,
          target.credentials,
        )) as {
          migration: string | null;
        }[]
      )
        .flatMap((h) => (h.migration ? [h.migration] : []))
        .reverse();
  } else {
    const { db } = opened;
    const migrator = createDefaultMigrator();
    apply = ({ schema, file: _file, ...options }) =>
      migrator.migrate(db, schema, { ...options, onStep: progress.onStep });
    applied = () => migrator.appliedMigrations(db);
    close = () => db.close();
  }
  try {
    if (!files.length) {
      opts.io.stdout(migrateReport(await apply(requests[0] as Request), dryRun));
      return 0;
    }
    const done = new Set(await applied());
    const pending = requests.filter((r) => !done.has(r.migration?.id ?? ''));
    if (pending.length === 0) {
      opts.io.stdout(`The database is up to date: all ${files.length} migrations are applied.`);
      return 0;
    }
    // A dry run changes nothing, so only the first pending file can be tried: the next ones
    // apply onto it.
    for (const r of dryRun ? pending.slice(0, 1) : pending) {
      const result = await apply(r);
      opts.io.stdout(
        dryRun
          ? `Dry run of ${r.file}: ${result.steps.length} steps would apply (nothing was changed):\n${result.steps.map((s) => `  ${s.description}`).join('\n')}${pending.length > 1 ? `\nand ${pending.length - 1} more migrations after it` : ''}`
          : `Applied ${r.file} (${result.steps.length} steps)${result.steps.map((s) => `\n  ${s.description}`).join('')}`,
      );
    }
    return 0;
  } catch (err) {
    throw asExitError(err);
  } finally {
    await close();
  }
}

/** What a push of the schema as it is did (or, for a dry run, would do), as printed. */
export function migrateReport(result: MigrateResult, dryRun: boolean): string {
  if (result.steps.length === 0)
    return `The database is up to date (schema ${result.version.slice(0, 12)}).`;
  const head = dryRun
    ? `Dry run: ${result.steps.length} steps would apply (nothing was changed):`
    : `Applied ${result.steps.length} steps (schema ${result.version.slice(0, 12)}):`;
  return [head, ...result.steps.map((s) => `  ${s.description}`)].join('\n');
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$/;
const POINTER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `--rename User=Person` (a type), `--rename User.bio=about` (a property or link). */
export function parseRenameArg(arg: string): MigrationRename {
  const eq = arg.indexOf('=');
  const left = eq < 0 ? '' : arg.slice(0, eq).trim();
  const right = eq < 0 ? '' : arg.slice(eq + 1).trim();
  const dot = left.lastIndexOf('.');
  if (dot < 0 && NAME.test(left) && NAME.test(right))
    return { kind: 'type', from: left, to: right };
  const type = left.slice(0, dot);
  const from = left.slice(dot + 1);
  if (dot > 0 && NAME.test(type) && POINTER.test(from) && POINTER.test(right))
    return { kind: 'pointer', type, from, to: right };
  throw new ExitError(
    2,
    `--rename ${arg}: expected Type=NewType or Type.pointer=new_name (e.g. --rename User.bio=about)`,
  );
}

/** `--fill User.handle=str_lower(.name)`: the pointer, then its EdgeQL expression. */
export function parseFillArg(arg: string): [string, string] {
  const eq = arg.indexOf('=');
  const subject = eq < 0 ? '' : arg.slice(0, eq).trim();
  const expr = eq < 0 ? '' : arg.slice(eq + 1).trim();
  const dot = subject.lastIndexOf('.');
  if (dot > 0 && NAME.test(subject.slice(0, dot)) && POINTER.test(subject.slice(dot + 1)) && expr)
    return [subject, expr];
  throw new ExitError(
    2,
    `--fill ${arg}: expected Type.pointer=<EdgeQL expression> (e.g. --fill "User.handle=str_lower(.name)")`,
  );
}
