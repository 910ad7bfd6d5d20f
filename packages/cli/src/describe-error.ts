import type { SvcError } from '@svc/core';

/** An error as a person reads it in a terminal: class, message, position, hint. */
export function describeError(err: SvcError): string {
  const where = err.position ? ` (line ${err.position.line}, column ${err.position.column})` : '';
  const hint = err.hint ? `\n  hint: ${err.hint}` : '';
  return `${err.type ?? err.code}${where}: ${err.message}${hint}`;
}
