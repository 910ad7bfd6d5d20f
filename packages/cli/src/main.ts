import { closestName } from '@svc/core';
import { asExitError } from './failure';
import { tuneRuntime } from './runtime';
import { ExitError, processIo, type CliIo } from './io';

/**
 * Each command's module, loaded when the command runs (`require` on first call, then Node's
 * cache): a process loads what its command uses, so `svc admin` loads the auth package and not the
 * HTTP server (with @svc/server/config: ARCHITECTURE.md), and `--version` neither.
 */
const commandModules = {
  init: (): typeof import('./commands/init') => require('./commands/init'),
  admin: (): typeof import('./commands/admin') => require('./commands/admin'),
  migrate: (): typeof import('./commands/migrate') => require('./commands/migrate'),
  migration: (): typeof import('./commands/migration') => require('./commands/migration'),
  query: (): typeof import('./commands/query') => require('./commands/query'),
  generate: (): typeof import('./commands/generate') => require('./commands/generate'),
  watch: (): typeof import('./commands/watch') => require('./commands/watch'),
  login: (): typeof import('./commands/login') => require('./commands/login'),
  serve: (): typeof import('./commands/serve') => require('./commands/serve'),
};

export const CLI_VERSION: string = (require('../package.json') as { version: string }).version;

/** The commands, in the order the usage lists them. */
const COMMANDS: Readonly<Record<string, string>> = {
  init: 'start a project: an example schema, svc.toml, .gitignore (svc init --help)',
  serve: 'start the server (svc serve --help for its options)',
  migrate: 'migrate the database to the schema (svc migrate --help)',
  migration: 'create migration files, see which are applied (svc migration --help)',
  watch: 'push the schema on every save, for development (svc watch --help)',
  query: 'run an EdgeQL query and print its result as JSON (svc query --help)',
  admin: 'manage users and roles (svc admin --help)',
  generate: 'generate TypeScript from the schema (svc generate --help)',
  login: 'sign in to a running server as a superuser, for this project (svc login --help)',
  logout: 'end that sign-in',
};

export const USAGE = `Usage: svc <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, doc]) => `  ${name.padEnd(12)}${doc}`)
  .join('\n')}

Options:
  -h, --help     show this help
  -v, --version  print the version`;

export interface RunContext {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
}

/**
 * Runs one CLI invocation. Resolves with the exit code, or, for `serve`, with a function that
 * stops the server (the process entry point wires it to signals).
 * Each command's module is loaded when it runs (`commandModules`).
 */
export async function run(
  argv: readonly string[],
  ctx: RunContext,
): Promise<number | { stop: () => Promise<void> }> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        ctx.io.stdout(USAGE);
        return command === undefined ? 2 : 0;
      case '-v':
      case '--version':
        ctx.io.stdout(CLI_VERSION);
        return 0;
      case 'init':
        return await commandModules.init().initCommand(rest, ctx);
      case 'admin':
        return await commandModules.admin().adminCommand(rest, ctx);
      case 'migrate':
        return await commandModules.migrate().migrateCommand(rest, ctx);
      case 'migration':
        return await commandModules.migration().migrationCommand(rest, ctx);
      case 'query':
        return await commandModules.query().queryCommand(rest, ctx);
      case 'generate':
        return await commandModules.generate().generateCommand(rest, ctx);
      case 'watch':
        return await commandModules.watch().watchCommand(rest, ctx);
      case 'login':
        return await commandModules.login().loginCommand(rest, ctx);
      case 'logout':
        return await commandModules.login().logoutCommand(rest, ctx);
      case 'serve': {
        const server = await commandModules.serve().serve(rest, ctx);
        return server ? { stop: () => server.close() } : 0;
      }
      default: {
        const near = closestName(command, Object.keys(COMMANDS));
        const hint = near === undefined ? '' : `; did you mean "svc ${near}"?`;
        ctx.io.stderr(`svc: unknown command "${command}"${hint}\n\n${USAGE}`);
        return 2;
      }
    }
  } catch (err) {
    // An SvcError a command did not describe itself is still one line, not a stack.
    const failure = asExitError(err);
    if (failure instanceof ExitError) {
      ctx.io.stderr(`svc: ${failure.message}`);
      return failure.exitCode;
    }
    throw err;
  }
}

/**
 * The `svc` binary: runs, then stops gracefully on SIGTERM or SIGINT (a second one forces). For
 * `serve` the signals are caught from the start: one that arrives while the server is still
 * starting stops it as soon as it has started, rather than killing it halfway.
 */
export function runFromProcess(): void {
  const argv = process.argv.slice(2);
  tuneRuntime(argv[0]);
  let stop: (() => Promise<void>) | undefined;
  let stopRequested = false;
  let stopping = false;
  const stopNow = () => {
    stopping = true;
    stop!().then(
      () => process.exit(0),
      (err: unknown) => {
        processIo.stderr(`svc: error while stopping: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping || stopRequested) {
      processIo.stderr(`svc: ${signal} again, exiting now`);
      process.exit(1);
    }
    if (stop) stopNow();
    else {
      stopRequested = true;
      processIo.stderr(`svc: ${signal}: stopping once started (again to exit now)`);
    }
  };
  const serving = argv[0] === 'serve';
  if (serving) {
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
  run(argv, { cwd: process.cwd(), env: process.env, io: processIo }).then(
    (result) => {
      if (typeof result === 'number') {
        process.exitCode = result;
        if (stopRequested) process.exit(result);
        return;
      }
      stop = result.stop;
      if (!serving) {
        process.on('SIGTERM', onSignal);
        process.on('SIGINT', onSignal);
      }
      if (stopRequested) stopNow();
    },
    (err: unknown) => {
      processIo.stderr(`svc: ${(err as Error)?.stack ?? String(err)}`);
      process.exitCode = 1;
      if (stopRequested) process.exit(1);
    },
  );
}
