import fs from 'node:fs';
import path from 'node:path';
import {
  SvcError,
  buildSchema,
  formatErrorReport,
  joinSchemaFiles,
  type Schema,
  type SchemaFile,
} from '@svc/core';
import { ExitError } from './io';

/** A schema read from disk and checked: its text, its files, and the schema they build. */
export interface SchemaSource {
  /** The files joined as one SDL text (core `joinSchemaFiles`): what the server migrates to. */
  readonly sdl: string;
  /** Each file named as the user sees it (relative to the working folder), in read order. */
  readonly files: readonly SchemaFile[];
  readonly schema: Schema;
}

/**
 * Reads a schema the way Gel does: a file is read as it is; a folder contributes every `*.esdl`
 * file in it, in name order, joined (default `dbschema/`). Then builds it, so every command that
 * takes a schema reports its errors the same way before touching a database: each error with its
 * file, line and column there, a code frame and the hint, every independent error at once
 * (core `buildSchema`, `formatErrorReport`), exit code 1.
 */
export function readSchemaSource(cwd: string, target: string): SchemaSource {
  const full = path.resolve(cwd, target);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(full);
  } catch {
    throw new ExitError(2, `--schema: ${target} does not exist`);
  }
  let paths: string[];
  if (stat.isFile()) paths = [full];
  else if (!stat.isDirectory())
    throw new ExitError(2, `--schema: ${target} is neither a file nor a folder`);
  else {
    paths = esdlFiles(full);
    if (paths.length === 0) throw new ExitError(2, `--schema: ${target} holds no .esdl files`);
  }
  const files = paths.map((f) => {
    // As the user sees it: relative to the working folder when inside it, else the full path.
    const relative = path.relative(cwd, f);
    const name = relative === '' || relative.startsWith('..') ? f : relative;
    return { name, text: readOrExit(f, name) };
  });
  return { sdl: joinSchemaFiles(files), files, schema: checked(files) };
}

/** A folder's `*.esdl` files, in name order, as full paths. */
const esdlFiles = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.esdl'))
    .sort()
    .map((f) => path.join(dir, f));

/**
 * The files `readSchemaSource` would read for `target` (full paths), without reading them: what
 * a watch looks at. None when it does not exist.
 */
export function schemaFilePaths(cwd: string, target: string): string[] {
  const full = path.resolve(cwd, target);
  const stat = fs.statSync(full, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return esdlFiles(full);
  return stat ? [full] : [];
}

function checked(files: readonly SchemaFile[]): Schema {
  try {
    return buildSchema(files);
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    const text = (file: string | undefined) => files.find((f) => f.name === file)?.text;
    throw new ExitError(1, formatErrorReport(err, text));
  }
}

function readOrExit(file: string, shown: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ExitError(
      2,
      `--schema: cannot read ${shown} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/** `dbschema` (relative to `cwd`) when that folder exists, else undefined. */
export function defaultSchemaDir(cwd: string): string | undefined {
  const dir = path.join(cwd, 'dbschema');
  return fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? 'dbschema' : undefined;
}
