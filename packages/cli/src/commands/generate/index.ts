import fs from 'node:fs';
import path from 'node:path';
import { buildSchema } from '@svc/core';
import { asExitError } from '../../failure';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { defaultSchemaDir, readSchemaSource } from '../../schema-files';
import { generateInterfaces } from './interfaces';

export const GENERATE_USAGE = `Usage: svc generate <what> [options]

Generates TypeScript from the schema, for @svc/client.

What:
  interfaces   an interface per object type, enums as unions, a Schema map

Options:
  --schema <file|dir>   SDL file, or a folder of .esdl files (default dbschema/)
  --out <file>          where to write (default dbschema/interfaces.ts; - for stdout)
  -h, --help            show this help

Not yet: \`queries\` (typed functions from .edgeql files), \`query-builder\`, --watch.`;

export interface GenerateCommandOptions {
  readonly cwd: string;
  readonly io: CliIo;
}

/** `svc generate`: resolves to the exit code. */
export async function generateCommand(
  argv: readonly string[],
  opts: GenerateCommandOptions,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      schema: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    GENERATE_USAGE,
    true,
  );
  if (values.help) {
    opts.io.stdout(GENERATE_USAGE);
    return 0;
  }
  const [what, ...extra] = positionals;
  if (what !== 'interfaces' || extra.length > 0)
    throw new ExitError(
      2,
      `${what === undefined ? 'say what to generate' : `cannot generate "${[what, ...extra].join(' ')}"`}\n\n${GENERATE_USAGE}`,
    );
  const schemaPath = values.schema ?? defaultSchemaDir(opts.cwd);
  if (schemaPath === undefined)
    throw new ExitError(2, 'no schema: pass --schema <file|dir> or create dbschema/');
  const { sdl } = readSchemaSource(opts.cwd, schemaPath);
  let text: string;
  try {
    text = generateInterfaces(buildSchema(sdl), schemaPath);
  } catch (err) {
    throw asExitError(err);
  }
  const out =
    values.out ??
    path.join(
      schemaPath.endsWith('.esdl') ? path.dirname(schemaPath) : schemaPath,
      'interfaces.ts',
    );
  if (out === '-') {
    opts.io.stdout(text.trimEnd());
    return 0;
  }
  try {
    fs.writeFileSync(path.resolve(opts.cwd, out), text);
  } catch (err) {
    throw new ExitError(
      1,
      `cannot write ${out} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  opts.io.stderr(`svc: wrote ${out}`);
  return 0;
}
