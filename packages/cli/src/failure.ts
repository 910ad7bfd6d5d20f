import { DatabaseConnectionError, SvcError } from '@svc/core';
import { ExitError } from './io';

/**
 * A command's failure as the person at the terminal reads it: one line on stderr and exit code 1.
 * With `urlSource` (where the database URL came from, see `databaseUrlSource`), a database that
 * cannot be opened says what failed and how to fix it (`explainOpenFailure`); any other
 * `SvcError` gives its class, message, position and hint. An `ExitError`, or anything a command
 * did not expect, is returned as it is (main.ts prints the stack of the latter).
 *
 * @example
 * try { ... } catch (err) { throw asExitError(err); }
 */
export function asExitError(err: unknown, urlSource?: string): unknown {
  if (urlSource !== undefined) {
    const explained = explainOpenFailure(err, urlSource);
    if (explained !== err) return explained;
  }
  if (err instanceof SvcError) return new ExitError(1, describeError(err));
  return err;
}

/** An error as a person reads it in a terminal: class, message, position, hint. */
function describeError(err: SvcError): string {
  const where = err.position ? ` (line ${err.position.line}, column ${err.position.column})` : '';
  const hint = err.hint ? `\n  hint: ${err.hint}` : '';
  return `${err.type ?? err.code}${where}: ${err.message}${hint}`;
}

const FIXES: Readonly<Record<DatabaseConnectionError['problem'], (where: string) => string>> = {
  'malformed-url': (where) => `fix ${where} (postgres://user:password@host:port/database)`,
  unreachable: (where) => `check ${where} and that the server is running`,
  authentication: (where) => `check the user and password in ${where}`,
  'unknown-database': (where) => `create it (createdb) or fix the database name in ${where}`,
  refused: (where) => `check ${where} and the server's settings`,
  'embedded-not-installed': () =>
    'install it (npm install @electric-sql/pglite) or give a PostgreSQL URL (--database-url or DATABASE_URL)',
};

/**
 * A database that cannot be opened, as one line and exit code 1: what failed (from core's
 * `DatabaseConnectionError`, which never holds the password) and how to fix it. Anything else is
 * returned unchanged.
 */
function explainOpenFailure(err: unknown, where: string): unknown {
  if (!(err instanceof DatabaseConnectionError)) return err;
  return new ExitError(1, `${err.message}: ${FIXES[err.problem](where)}`);
}
