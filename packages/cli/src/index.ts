/** @svc/cli: the `svc` command. Programmatic entry for embedding and tests. */
export { run, runFromProcess, CLI_VERSION, USAGE, type RunContext } from './main';
export { initCommand, type InitCommandOptions } from './commands/init';
export { parseServeArgs, serve, SERVE_USAGE, type ServeOptions } from './commands/serve';
export { ExitError, processIo, type CliIo } from './io';
