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
  if (stat.isFile()) return { sdl: fs.readFileSync(full, 'utf8'), files: [full] };
  const files = fs
    .readdirSync(full)
    .filter((f) => f.endsWith('.esdl'))
    .sort()
    .map((f) => path.join(full, f));
  if (files.length === 0) throw new ExitError(2, `--schema: ${target} holds no .esdl files`);
  return { sdl: files.map((f) => fs.readFileSync(f, 'utf8')).join('\n'), files };
}

/** `dbschema` (relative to `cwd`) when that folder exists, else undefined. */
export function defaultSchemaDir(cwd: string): string | undefined {
  const dir = path.join(cwd, 'dbschema');
  return fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? 'dbschema' : undefined;
}
