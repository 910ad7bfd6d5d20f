/**
 * create-svc: `npm create svc my-app` (npm runs this package's `create-svc` binary) makes the
 * folder `my-app` and runs `svc init` in it: @svc/cli's own init, which writes the example schema,
 * `svc.toml` and `.gitignore` and prints the commands to run next, spelled `npx @svc/cli ...`
 * since the person has no `svc` on their PATH. Unlike `svc init`, which adds a project to any
 * folder without one, it starts only in a new or empty folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type CliIo, ExitError, initCommand, processIo } from '@svc/cli';

/** How the next commands run svc: the published CLI through npx, as the README's first command. */
export const SVC_COMMAND = 'npx @svc/cli';

export const CREATE_USAGE = `Usage: npm create svc <dir>
       npx create-svc <dir>

Makes the folder <dir> and starts a svc project in it (svc init):
  dbschema/default.esdl   an example schema (Author, Post) to edit
  svc.toml                the common settings, commented out with their defaults
  .gitignore              ignores .svc/, where the embedded database lives
then prints the commands to run next. <dir> must be new or empty.

Options:
  -h, --help   show this help`;

export interface CreateSvcOptions {
  readonly cwd: string;
  readonly io: CliIo;
}

/** `create-svc <dir>`: resolves to the exit code (0; 1 refused or failed; 2 bad arguments). */
export async function createSvc(argv: readonly string[], opts: CreateSvcOptions): Promise<number> {
  let values: { help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    opts.io.stderr(`create-svc: ${(err as Error).message}\n\n${CREATE_USAGE}`);
    return 2;
  }
  if (values.help) {
    opts.io.stdout(CREATE_USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    const what =
      positionals.length === 0
        ? 'name the folder to create, as in: npm create svc my-app'
        : `one folder only, not ${positionals.length}`;
    opts.io.stderr(`create-svc: ${what}\n\n${CREATE_USAGE}`);
    return 2;
  }
  const target = positionals[0] as string;
  const root = path.resolve(opts.cwd, target);
  const refused = refusal(root, target);
  if (refused) {
    opts.io.stderr(`create-svc: ${refused}`);
    return 1;
  }
  try {
    return await initCommand([target], { cwd: opts.cwd, io: opts.io, command: SVC_COMMAND });
  } catch (err) {
    if (!(err instanceof ExitError)) throw err;
    opts.io.stderr(`create-svc: ${err.message}`);
    return 1;
  }
}

/** Why `root` cannot hold a new project (undefined when it is new or an empty folder). */
function refusal(root: string, shown: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : `cannot use ${shown} (${code})`;
  }
  if (!stat.isDirectory()) return `${shown} exists and is not a folder: choose another name`;
  const entries = fs.readdirSync(root);
  if (entries.length === 0) return undefined;
  return `${shown} is not empty (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}): create-svc starts a project only in a new or empty folder; choose another name, or run \`${SVC_COMMAND} init\` inside ${shown} to add a project to it`;
}

/** The `create-svc` binary. */
export function createSvcFromProcess(): void {
  createSvc(process.argv.slice(2), { cwd: process.cwd(), io: processIo }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      processIo.stderr(`create-svc: ${(err as Error)?.stack ?? String(err)}`);
      process.exitCode = 1;
    },
  );
}
