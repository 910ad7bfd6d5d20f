/**
 * `svc query '<edgeql>'`: runs one EdgeQL query and prints its result (the `data` array of
 * `POST /query`) as JSON, indented on a terminal, one line otherwise.
 *
 * Where it runs, and as whom: through the `svc serve` holding an embedded data folder (the URL
 * in the folder's lock), as `svc migrate` does, with the command's credential (through-server
 * `ServerCredentials`: a superuser's token or the service key, no access policies) or, without
 * one, as an anonymous caller under the server's policies; else on the database directly, with the query engine `svc serve`
 * assembles (@svc/server `createServerQueryEngine`), as the operator (no access policies),
 * honouring `read_only`.
 * Failures: one line on stderr (the error class, message and position), exit 1.
 */
import { ANONYMOUS_AUTH, jsonDepthProblem, type CompileQuery } from '@svc/core';
import { createServerQueryEngine } from '@svc/server/query-compiler';
import { DATABASE_FLAGS, databaseUrlSource, resolveCommandConfig } from '../../database-options';
import { asExitError } from '../../failure';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { progressLines } from '../../progress';
import {
  openOrFindServer,
  requestThroughServer,
  SERVER_FLAGS,
  serverCredentials,
} from '../../through-server';

export const QUERY_USAGE = `Usage: svc query '<edgeql>' [options]

Runs one EdgeQL query and prints its result as JSON.

Who it runs as:
  directly on the database (--database-url, or a data folder no server holds): as the operator,
    with access policies off, like the service key; read_only is honoured
  through the \`svc serve\` holding the embedded data folder (POST /query): as a superuser with
    --token (or SVC_TOKEN), else with the service key (SVC_SERVICE_KEY or [server] service_key),
    else as the superuser \`svc login\` signed in, all with access policies off; with none of
    them, as an anonymous caller, under the server's access policies

Options:
  --var <name>=<text>        a variable given as a string ($name); repeat for several
  --json-var <name>=<json>   a variable given as JSON (numbers, booleans, arrays, objects, null)
  --database-url <url>       PostgreSQL URL (env DATABASE_URL)
  --data-dir <dir>           embedded database folder (env SVC_DATA_DIR; default ./.svc/data)
  --config <file>            TOML config file (default ./svc.toml when it exists)
  --token <jwt>              through a server: a superuser's access token (env SVC_TOKEN)
  -h, --help                 show this help

Example:
  svc query 'select User { name } filter .email = <str>$email' --var email=ann@example.com`;

export interface QueryCommandOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
  /** The compiler for queries run directly. @default @svc/server's `compileQuery` */
  readonly compileQuery?: CompileQuery;
}

/** `svc query`: resolves to the exit code. */
export async function queryCommand(
  argv: readonly string[],
  opts: QueryCommandOptions,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      var: { type: 'string', multiple: true },
      'json-var': { type: 'string', multiple: true },
      ...DATABASE_FLAGS,
      ...SERVER_FLAGS,
      help: { type: 'boolean', short: 'h' },
    },
    QUERY_USAGE,
    true,
  );
  if (values.help) {
    opts.io.stdout(QUERY_USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new ExitError(
      2,
      `${positionals.length === 0 ? 'no query given' : 'give the query as one argument (quote it)'}\n\n${QUERY_USAGE}`,
    );
  }
  const query = positionals[0] as string;
  const variables = parseVariables(values.var ?? [], values['json-var'] ?? []);
  const { config, database, configFile } = resolveCommandConfig(values, opts.cwd, opts.env);

  const { onCreateDataDir } = progressLines(opts.io, opts.cwd);
  const opened = await openOrFindServer(
    database,
    databaseUrlSource(config.databaseSource, configFile),
    { onCreateDataDir },
  );
  if ('server' in opened) {
    try {
      const answer = (await requestThroughServer(
        opened.server,
        'POST',
        '/query',
        { query, variables },
        serverCredentials(values, config.serviceKey, opts.cwd, opts.env),
      )) as { data: unknown };
      opts.io.stdout(format(JSON.stringify(answer.data), opts.io));
      return 0;
    } catch (inner) {
      throw asExitError(inner);
    }
  }
  const { db } = opened;
  try {
    const engine = createServerQueryEngine(db, {
      ...(opts.compileQuery ? { compileQuery: opts.compileQuery } : {}),
      cacheSize: 1,
    });
    const text = await engine.run(
      { query, variables },
      { access: { policies: false, readOnly: config.readOnly }, auth: ANONYMOUS_AUTH },
    );
    opts.io.stdout(format(text, opts.io));
    return 0;
  } catch (err) {
    throw asExitError(err);
  } finally {
    await db.close();
  }
}

/** `--var a=x` (a string) and `--json-var b=[1,2]` (JSON) into one variables object. */
export function parseVariables(
  strings: readonly string[],
  jsons: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const add = (flag: string, item: string, parse: (text: string, name: string) => unknown) => {
    const at = item.indexOf('=');
    if (at <= 0) throw new ExitError(2, `${flag} ${item}: write it as <name>=<value>`);
    const name = item.slice(0, at).replace(/^\$/, '');
    if (Object.hasOwn(out, name)) throw new ExitError(2, `variable $${name} is given twice`);
    out[name] = parse(item.slice(at + 1), name);
  };
  for (const item of strings) add('--var', item, (text) => text);
  for (const item of jsons)
    add('--json-var', item, (text, name) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new ExitError(2, `--json-var ${name}: ${JSON.stringify(text)} is not JSON`);
      }
      // The server's bound on a variable (core's MAX_JSON_DEPTH), said here before any request.
      const tooDeep = jsonDepthProblem(value);
      if (tooDeep !== undefined) throw new ExitError(2, `--json-var ${name}: ${tooDeep}`);
      return value;
    });
  return out;
}

/**
 * Indented on a terminal (for people), the text as it came otherwise (for pipes). A stored
 * `json` value may nest deeper than the recursive indenter goes: that result prints as it came.
 */
function format(text: string, io: CliIo): string {
  if (!io.isTTY) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch (err) {
    if (err instanceof RangeError) return text;
    throw err;
  }
}
