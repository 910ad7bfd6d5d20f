import fs from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  createDefaultMigrator,
  makeMigration,
  migrationFileName,
  renderMigrationFile,
  SvcError,
  type MigrationRecord,
} from '@svc/core';
import { DATABASE_FLAGS, databaseUrlSource, resolveCommandConfig } from '../../database-options';
import { asExitError } from '../../failure';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import {
  hasUnmigratedChanges,
  migrationsDir,
  readMigrationFiles,
  type ReadMigration,
} from '../../migration-files';
import { defaultSchemaDir, readSchemaSource } from '../../schema-files';
import {
  openOrFindServer,
  requestThroughServer,
  SERVER_FLAGS,
  serverCredentials,
} from '../../through-server';
import { parseFillArg, parseRenameArg } from '../migrate';
import { planWithAnswers, renameCandidates } from './questions';

export const MIGRATION_USAGE = `Usage: svc migration <create | status | log> [options]

Migration files, as Gel keeps them: each a reviewed, committed step from one schema to the next,
in dbschema/migrations/, applied in order by \`svc migrate\`.

  create   diff the schema (dbschema/) against the last migration file and write the next one,
           dbschema/migrations/NNNNN-<id>.edgeql; nothing is written when nothing changed. On a
           terminal it asks, as Gel does, whether a drop and a create were a rename, and for
           the fills it needs; in a script, --rename and --fill say it
  status   which files the database has applied, which are pending, and whether the schema
           has changes no file holds
  log      the migrations applied to the database, newest first

Options:
  --schema <file|dir>   SDL file, or a folder of .esdl files (default dbschema/)
  --rename <old=new>    create: a type (User=Person) or property or link (User.bio=about) was
                        renamed, so its data stays; repeatable
  --fill <ptr=expr>     create: the value existing objects get for a property added as
                        required or made required (User.handle="str_lower(.name)"), or the new
                        value when its type changes (User.age="<int64>.age"); repeatable
  --database-url <url>  status, log: PostgreSQL URL (env DATABASE_URL)
  --data-dir <dir>      status, log: embedded database folder (default ./.svc/data)
  --config <file>       TOML config file (default ./svc.toml when it exists)
  --token <jwt>         status, log through a server: a superuser's access token (env SVC_TOKEN);
                        else the service key, else the sign-in of \`svc login\`
  -h, --help            show this help`;

export interface MigrationCommandOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
}

/** `svc migration <create | status | log>`: resolves to the exit code. */
export async function migrationCommand(
  argv: readonly string[],
  opts: MigrationCommandOptions,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      schema: { type: 'string' },
      rename: { type: 'string', multiple: true },
      fill: { type: 'string', multiple: true },
      ...DATABASE_FLAGS,
      ...SERVER_FLAGS,
      help: { type: 'boolean', short: 'h' },
    },
    MIGRATION_USAGE,
    true,
  );
  const [sub, ...extra] = positionals;
  if (values.help || sub === undefined) {
    opts.io.stdout(MIGRATION_USAGE);
    return values.help ? 0 : 2;
  }
  if (extra.length)
    throw new ExitError(2, `unexpected argument "${extra[0]}"\n\n${MIGRATION_USAGE}`);
  if (sub !== 'create' && (values.rename?.length || values.fill?.length))
    throw new ExitError(2, '--rename and --fill belong to `svc migration create`');
  const schemaPath = values.schema ?? defaultSchemaDir(opts.cwd);
  if (schemaPath === undefined)
    throw new ExitError(2, 'no schema: pass --schema <file|dir> or create dbschema/');
  const dir = migrationsDir(opts.cwd, schemaPath);
  switch (sub) {
    case 'create':
      return await create(opts, schemaPath, dir, values.rename ?? [], values.fill ?? []);
    case 'status':
    case 'log':
      return report(sub, opts, schemaPath, dir, values);
    default:
      throw new ExitError(2, `unknown migration command "${sub}"\n\n${MIGRATION_USAGE}`);
  }
}

async function create(
  opts: MigrationCommandOptions,
  schemaPath: string,
  dir: string,
  renameArgs: readonly string[],
  fillArgs: readonly string[],
): Promise<number> {
  const source = readSchemaSource(opts.cwd, schemaPath);
  const files = readMigrationFiles(opts.cwd, dir);
  const parent = files.at(-1) ?? null;
  const from = parent ? buildSchema(parent.sdl) : null;
  const given = {
    renames: renameArgs.map(parseRenameArg),
    fills: Object.fromEntries(fillArgs.map(parseFillArg)),
  };
  // On a terminal, the questions Gel asks; otherwise (a script) the flags say it all.
  const { plan, hints } = await planWithAnswers(from, source.schema, given, opts.io.ask, opts.io);
  const migration = makeMigration(parent, source.sdl, hints);
  if (plan.steps.length === 0 && migration.ddl === '') {
    opts.io.stdout(
      parent
        ? `No schema changes since ${parent.file}: no migration was created.`
        : 'The schema is empty: no migration was created.',
    );
    return 0;
  }
  if (!opts.io.ask)
    for (const candidate of renameCandidates(from, source.schema, plan))
      opts.io.stderr(candidate.note);
  const wanted = plan.fillsWanted ?? [];
  if (wanted.length) {
    throw new ExitError(
      1,
      [
        'the migration needs a value for objects that exist already:',
        ...wanted.map(
          (s) =>
            `  - ${s} is required and has no default: say what existing objects get with --fill "${s.replace(/^default::/, '')}=<EdgeQL expression>"`,
        ),
        '  (or give it a default in the schema)',
      ].join('\n'),
    );
  }
  const number = files.length + 1;
  const name = migrationFileName(number, migration.id);
  const comments = [
    `svc migration ${String(number).padStart(5, '0')}, onto ${parent ? path.basename(parent.file) : 'an empty database'}.`,
    'Made by `svc migration create`; applied in order by `svc migrate`. Review and commit it.',
    'Do not edit it: its id is a hash of what follows. Change the schema and create another.',
    '',
    'Steps:',
    ...(plan.steps.length
      ? plan.steps.map((s) => `  ${s.description}`)
      : ['  none (a change to the schema alone)']),
  ];
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, name);
  fs.writeFileSync(target, renderMigrationFile(migration, comments), { flag: 'wx' });
  const shown = path.relative(opts.cwd, target);
  opts.io.stdout(
    [
      `Created ${shown.startsWith('..') ? target : shown} (${plan.steps.length} steps):`,
      ...plan.steps.map((s) => `  ${s.description}`),
      'Apply it with `svc migrate`.',
    ].join('\n'),
  );
  return 0;
}

async function report(
  sub: 'status' | 'log',
  opts: MigrationCommandOptions,
  schemaPath: string,
  dir: string,
  values: Parameters<typeof resolveCommandConfig>[0],
): Promise<number> {
  const files = readMigrationFiles(opts.cwd, dir);
  const history = await readHistory(opts, values);
  if (sub === 'log') {
    if (history.length === 0) {
      opts.io.stdout('No migration was applied to this database.');
      return 0;
    }
    const byId = new Map(files.map((f) => [f.id, f.file]));
    opts.io.stdout(
      history
        .map((h) => {
          const what = h.migration
            ? `${h.migration.slice(0, 14)} ${byId.get(h.migration) ?? '(no such file here)'}`
            : 'development push (svc migrate --dev, svc watch)';
          return `${h.appliedAt}  ${what}  ${h.steps.length} steps`;
        })
        .join('\n'),
    );
    return 0;
  }
  const applied = new Set(history.flatMap((h) => (h.migration ? [h.migration] : [])));
  const pending = files.filter((f) => !applied.has(f.id));
  const lines = [
    `${files.length} migration files in ${path.relative(opts.cwd, dir) || dir}; ${files.length - pending.length} applied to the database.`,
  ];
  if (pending.length)
    lines.push('Pending (apply with `svc migrate`):', ...pending.map((f) => `  ${f.file}`));
  const unknown = [...applied].filter((id) => !files.some((f) => f.id === id));
  if (unknown.length)
    lines.push(
      `The database has ${unknown.length} migrations no file here holds (made on another branch?): ${unknown.map((id) => id.slice(0, 14)).join(', ')}`,
    );
  if (history[0] && history[0].migration === null)
    lines.push(
      'The database was last changed by a development push (svc migrate --dev, svc watch).',
    );
  if (schemaChanged(opts, schemaPath, files.at(-1)))
    lines.push(
      `The schema in ${schemaPath} has changes no migration file holds: run \`svc migration create\`.`,
    );
  opts.io.stdout(lines.join('\n'));
  return 0;
}

/** Whether the schema on disk has changes the last migration file does not hold. */
function schemaChanged(
  opts: MigrationCommandOptions,
  schemaPath: string,
  last: ReadMigration | undefined,
): boolean {
  return hasUnmigratedChanges(readSchemaSource(opts.cwd, schemaPath).sdl, last);
}

/** The database's migration history, directly or through the `svc serve` holding the folder. */
async function readHistory(
  opts: MigrationCommandOptions,
  values: Parameters<typeof resolveCommandConfig>[0] & { readonly token?: string | undefined },
): Promise<MigrationRecord[]> {
  const { config, database, configFile } = resolveCommandConfig(values, opts.cwd, opts.env);
  const opened = await openOrFindServer(
    database,
    databaseUrlSource(config.databaseSource, configFile),
  );
  try {
    if ('server' in opened) {
      return (await requestThroughServer(
        opened.server,
        'GET',
        '/migrations',
        undefined,
        serverCredentials(values, config.serviceKey, opts.cwd, opts.env),
      )) as MigrationRecord[];
    }
    try {
      return await createDefaultMigrator().history(opened.db);
    } finally {
      await opened.db.close();
    }
  } catch (err) {
    if (err instanceof SvcError) throw asExitError(err);
    throw err;
  }
}
