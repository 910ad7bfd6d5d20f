/** @svc/cli: the `svc` command. Programmatic entry for embedding and tests. */
export { run, runFromProcess, CLI_VERSION, USAGE, type RunContext } from './main';
export { parseServeArgs, serve, SERVE_USAGE, type ServeOptions } from './commands/serve';
export { ExitError, type CliIo } from './io';
