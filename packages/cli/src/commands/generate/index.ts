import fs from 'node:fs';
import path from 'node:path';
import { closestName } from '@svc/core';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { defaultSchemaDir, readSchemaSource, schemaFilePaths } from '../../schema-files';
import { filesSignature, watchFiles } from '../../watch-files';
import { generateInterfaces } from './interfaces';
import { generateQueries, type QueryFile } from './queries';
import { generateQueryBuilder } from './query-builder';

/** Folders never searched for query files. */
const SKIPPED = new Set(['node_modules', '.git', '.svc', 'dist', 'migrations']);

/** Every `.edgeql` file under `root` (bounded: 10,000 folders), by path. */
function queryFiles(root: string): QueryFile[] {
  const found: QueryFile[] = [];
  const pending = [root];
  for (let seen = 0; pending.length > 0 && seen < 10_000; seen++) {
    const dir = pending.pop() as string;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) pending.push(full);
      else if (entry.isFile() && entry.name.endsWith('.edgeql'))
        found.push({ path: path.relative(root, full), text: fs.readFileSync(full, 'utf8') });
    }
  }
  if (found.length === 0) throw new ExitError(2, `no .edgeql files under ${root}`);
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

export const GENERATE_USAGE = `Usage: svc generate <what> [options]

Generates TypeScript from the schema, for @svc/client.

What:
  interfaces      an interface per object type, enums as unions, a Schema map
                  (default --out dbschema/interfaces.ts)
  queries         each .edgeql file under the project as a typed function over @svc/client
                  (get-user.edgeql: getUser(client, args); default --out dbschema/queries.ts)
  query-builder   a typed query builder \`e\` for the schema, over @svc/client/query-builder
                  (e.select(e.User, (u) => ({ name: true })); default --out dbschema/query-builder.ts)

Options:
  --schema <file|dir>   SDL file, or a folder of .esdl files (default dbschema/)
  --out <file>          where to write (- for stdout)
  --watch               write again whenever the schema (or, for queries, a .edgeql file)
                        changes, until interrupted (Ctrl-C)
  -h, --help            show this help`;

export interface GenerateCommandOptions {
  readonly cwd: string;
  readonly io: CliIo;
  /** Ends \`--watch\` (besides SIGINT). */
  readonly signal?: AbortSignal;
}

const WHATS = ['interfaces', 'queries', 'query-builder'] as const;
type What = (typeof WHATS)[number];
const isWhat = (word: string | undefined): word is What => WHATS.includes(word as What);

/** \`svc generate\`: resolves to the exit code. */
export async function generateCommand(
  argv: readonly string[],
  opts: GenerateCommandOptions,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      schema: { type: 'string' },
      out: { type: 'string' },
      watch: { type: 'boolean' },
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
  if (!isWhat(what) || extra.length > 0) {
    const near = what === undefined || extra.length > 0 ? undefined : closestName(what, WHATS);
    const hint = near === undefined ? '' : `; did you mean "svc generate ${near}"?`;
    throw new ExitError(
      2,
      `${what === undefined ? 'say what to generate' : `cannot generate "${[what, ...extra].join(' ')}"`}${hint}\n\n${GENERATE_USAGE}`,
    );
  }
  const schemaPath = values.schema ?? defaultSchemaDir(opts.cwd);
  if (schemaPath === undefined)
    throw new ExitError(2, 'no schema: pass --schema <file|dir> or create dbschema/');
  const folder = schemaPath.endsWith('.esdl') ? path.dirname(schemaPath) : schemaPath;
  const out = values.out ?? path.join(folder, `${what}.ts`);
  if (!values.watch) return generateOnce(what, schemaPath, out, opts);
  if (out === '-') throw new ExitError(2, '--watch writes a file: pass --out <file>');
  return watch(what, schemaPath, out, opts);
}

function generateOnce(
  what: What,
  schemaPath: string,
  out: string,
  opts: GenerateCommandOptions,
): number {
  const { schema } = readSchemaSource(opts.cwd, schemaPath);
  let text: string;
  try {
    text =
      what === 'interfaces'
        ? generateInterfaces(schema, schemaPath)
        : what === 'queries'
          ? generateQueries(schema, queryFiles(opts.cwd))
          : generateQueryBuilder(schema, schemaPath);
  } catch (err) {
    if (err instanceof ExitError) throw err;
    throw new ExitError(2, (err as Error).message);
  }
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

/** What --watch compares: the schema's files and, for queries, the .edgeql files. */
function inputsSignature(what: What, schemaPath: string, out: string, cwd: string): string {
  const files = schemaFilePaths(cwd, schemaPath);
  if (what === 'queries') {
    try {
      for (const f of queryFiles(cwd)) files.push(path.resolve(cwd, f.path));
    } catch {
      // no .edgeql files yet: the first one written is a change
    }
  }
  const outFull = path.resolve(cwd, out);
  return filesSignature(files.filter((f) => f !== outFull));
}

/**
 * \`--watch\`: writes, then again whenever the inputs change (\`watchFiles\`). An error is printed
 * and the watch goes on. Ends on SIGINT or \`opts.signal\`, resolving to 0.
 */
async function watch(what: What, schemaPath: string, out: string, opts: GenerateCommandOptions) {
  const attempt = () => {
    try {
      generateOnce(what, schemaPath, out, opts);
    } catch (err) {
      opts.io.stderr(`svc: ${(err as Error).message}`);
    }
  };
  attempt();
  opts.io.stderr('svc: watching for changes (Ctrl-C to stop)');
  await watchFiles(() => inputsSignature(what, schemaPath, out, opts.cwd), attempt, opts.signal);
  return 0;
}
