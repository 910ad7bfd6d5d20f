import fs from 'node:fs';
import path from 'node:path';
import { ExitError } from './io';

/**
 * Reads a schema the way Gel does: a file is read as it is; a folder contributes every `*.esdl`
 * file in it, in name order, concatenated (default `dbschema/`).
 */
export function readSchemaSource(cwd: string, target: string): { sdl: string; files: string[] } {
  const full = path.resolve(cwd, target);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(full);
  } catch {
    throw new ExitError(2, `--schema: ${target} does not exist`);
  }
  if (stat.isFile()) return { sdl: readOrExit(full, target), files: [full] };
  if (!stat.isDirectory())
    throw new ExitError(2, `--schema: ${target} is neither a file nor a folder`);
  const files = fs
    .readdirSync(full)
    .filter((f) => f.endsWith('.esdl'))
    .sort()
    .map((f) => path.join(full, f));
  if (files.length === 0) throw new ExitError(2, `--schema: ${target} holds no .esdl files`);
  return { sdl: files.map((f) => readOrExit(f, path.relative(cwd, f))).join('\n'), files };
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
