/**
 * `svc init [dir]`: starts a project. Writes `dbschema/default.esdl` (an example schema),
 * `svc.toml` (the common settings, commented out) and `.gitignore` (`.svc/`), then prints the
 * commands to run next. It never overwrites: when a file it would write exists, or the folder
 * already holds a schema, it names them, writes nothing and exits 2. An existing `.gitignore`
 * gets the `.svc/` line appended when it lacks it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { configTemplate, EXAMPLE_SCHEMA, GITIGNORE_LINE } from './templates';

export const INIT_USAGE = `Usage: svc init [dir]

Starts a svc project in dir (default: the current folder; created when missing):
  dbschema/default.esdl   an example schema (Author, Post) to edit
  svc.toml                the common settings, commented out with their defaults
  .gitignore              ignores .svc/, where the embedded database lives (appended to
                          an existing .gitignore)
and prints the commands to run next. Nothing is overwritten: when svc.toml or a schema
(dbschema/*.esdl) is already there, svc init names it, writes nothing and exits 2.

Options:
  -h, --help   show this help`;

export interface InitCommandOptions {
  readonly cwd: string;
  readonly io: CliIo;
  /**
   * How the person runs svc, as the next commands spell it: `create-svc` passes `npx @svc/cli`
   * (its user has no `svc` on their PATH).
   * @default 'svc'
   */
  readonly command?: string;
}

/** `svc init [dir]`: resolves to the exit code. */
export async function initCommand(
  argv: readonly string[],
  opts: InitCommandOptions,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { help: { type: 'boolean', short: 'h' } },
    INIT_USAGE,
    true,
  );
  if (values.help) {
    opts.io.stdout(INIT_USAGE);
    return 0;
  }
  if (positionals.length > 1)
    throw new ExitError(2, `unexpected argument "${positionals[1]}"\n\n${INIT_USAGE}`);
  const target = positionals[0] ?? '.';
  const root = path.resolve(opts.cwd, target);
  if (fs.existsSync(root) && !fs.statSync(root).isDirectory())
    throw new ExitError(2, `${target} exists and is not a folder`);

  const schemaFile = path.join(root, 'dbschema', 'default.esdl');
  const configFile = path.join(root, 'svc.toml');
  const gitignore = path.join(root, '.gitignore');
  const shown = (file: string) => path.relative(opts.cwd, file) || file;

  // Every check before any write: a refusal changes nothing.
  const existing = [configFile, ...schemaFiles(path.dirname(schemaFile))].filter((f) =>
    fs.existsSync(f),
  );
  if (existing.length) {
    throw new ExitError(
      2,
      `${existing.map(shown).join(', ')} already ${existing.length === 1 ? 'exists' : 'exist'}: svc init writes nothing over a project (edit ${existing.length === 1 ? 'it' : 'them'}, or run svc init in a new folder)`,
    );
  }
  let ignoreText: string | undefined;
  try {
    ignoreText = fs.readFileSync(gitignore, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new ExitError(1, `cannot read ${shown(gitignore)} (${code})`);
  }

  fs.mkdirSync(path.dirname(schemaFile), { recursive: true });
  fs.writeFileSync(schemaFile, EXAMPLE_SCHEMA, { flag: 'wx' });
  fs.writeFileSync(configFile, configTemplate(), { flag: 'wx' });
  let ignoreNote: string;
  if (ignoreText === undefined) {
    fs.writeFileSync(gitignore, `${GITIGNORE_LINE}\n`, { flag: 'wx' });
    ignoreNote = 'ignores .svc/, where the embedded database lives';
  } else if (ignoresSvc(ignoreText)) {
    ignoreNote = 'already ignores .svc/: left as it was';
  } else {
    const sep = ignoreText === '' || ignoreText.endsWith('\n') ? '' : '\n';
    fs.appendFileSync(gitignore, `${sep}${GITIGNORE_LINE}\n`);
    ignoreNote = '.svc/ appended: the embedded database stays out of git';
  }

  const width = shown(schemaFile).length;
  const cd = root === path.resolve(opts.cwd) ? [] : [`  cd ${shellWord(shown(root))}`];
  const svc = opts.command ?? 'svc';
  const next = (command: string, why: string) =>
    `  ${`${svc} ${command}`.padEnd(svc.length + 19)} # ${why}`;
  opts.io.stdout(
    [
      `Started a svc project in ${root}:`,
      ...[
        [schemaFile, 'an example schema: edit it'],
        [configFile, 'the common settings, commented out with their defaults'],
        [gitignore, ignoreNote],
      ].map(([file, what]) => `  ${shown(file as string).padEnd(width)}  ${what}`),
      '',
      'Next:',
      ...cd,
      next('migration create', 'write the first migration file from the schema'),
      next('migrate', 'apply it to the embedded database in .svc/data'),
      next('serve', 'start the server on http://127.0.0.1:5656'),
      'then, in another terminal:',
      `  ${svc} query "insert Author { name := 'Ann' }"`,
      `  ${svc} query 'select Author { name }'`,
      '  curl 127.0.0.1:5656/api/Author',
    ].join('\n'),
  );
  return 0;
}

/** The `.esdl` files of a schema folder (none when it does not exist). */
function schemaFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.esdl'))
    .sort()
    .map((n) => path.join(dir, n));
}

/** Whether a `.gitignore` already ignores the `.svc` folder at its top. */
function ignoresSvc(text: string): boolean {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .some((l) => ['.svc', '.svc/', '/.svc', '/.svc/', '.svc/*', '/.svc/*'].includes(l));
}

/** A path as one shell word: as it is when plain, else in single quotes. */
function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
