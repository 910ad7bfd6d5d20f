import fs from 'node:fs';
import path from 'node:path';
import { makeMigration, migrationChain, SvcError, type MigrationFile } from '@svc/core';
import { ExitError } from './io';

/** A migration file as read: the migration, and its name as the user sees it. */
export type ReadMigration = MigrationFile & { readonly file: string };

/**
 * Where a schema's migration files live: `migrations/` beside its files (`dbschema/migrations`
 * for `dbschema/`, the file's folder for a single `--schema file.esdl`), as Gel keeps them.
 */
export function migrationsDir(cwd: string, schemaPath: string): string {
  const full = path.resolve(cwd, schemaPath);
  const isDir = fs.existsSync(full) && fs.statSync(full).isDirectory();
  return path.join(isDir ? full : path.dirname(full), 'migrations');
}

/**
 * The migration files of `dir` (`*.edgeql`, by name), each checked against its id and its
 * parent; none when the folder does not exist. A file that fails is exit code 1 naming it.
 */
export function readMigrationFiles(cwd: string, dir: string): ReadMigration[] {
  if (!fs.existsSync(dir)) return [];
  const shown = (f: string) => {
    const relative = path.relative(cwd, path.join(dir, f));
    return relative.startsWith('..') ? path.join(dir, f) : relative;
  };
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.edgeql'))
    .map((f) => ({ name: shown(f), text: fs.readFileSync(path.join(dir, f), 'utf8') }));
  try {
    const chain = migrationChain(files);
    const names = files.map((f) => f.name).sort();
    return chain.map((m, i) => ({ ...m, file: names[i] as string }));
  } catch (err) {
    if (err instanceof SvcError)
      throw new ExitError(1, `${err.message}${err.hint ? `\n  hint: ${err.hint}` : ''}`);
    throw err;
  }
}

/**
 * Whether the schema on disk (`sdl`) has changes the last migration file does not hold: the DDL
 * from the last file's schema to it is not empty. The one test `svc migration status`, `svc
 * migrate` and `svc migration create` use.
 */
export function hasUnmigratedChanges(sdl: string, last: MigrationFile | undefined): boolean {
  return makeMigration(last ?? null, sdl).ddl !== '';
}
