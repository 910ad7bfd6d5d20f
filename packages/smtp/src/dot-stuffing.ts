/**
 * Prepares a CRLF-normalised message for the DATA phase (RFC 5321 section 4.5.2): every line
 * that starts with "." gets one more, and the result ends with the `CRLF.CRLF` terminator (a
 * CRLF is added first when the message does not already end with one).
 */
export function dotStuff(message: string): string {
  const stuffed = message.replace(/(^|\r\n)\./g, '$1..');
  const ended = stuffed.length === 0 || stuffed.endsWith('\r\n') ? stuffed : `${stuffed}\r\n`;
  return `${ended}.\r\n`;
}

/**
 * The receiving side of `dotStuff`, as a server does it: strips the terminator and one leading
 * "." of every line that has one. The CRLF that ended the last line stays (it is content).
 * Used by tests; throws when the terminator is missing.
 */
export function dotUnstuff(data: string): string {
  if (data === '.\r\n') return '';
  if (!data.endsWith('\r\n.\r\n')) throw new Error('data does not end with CRLF.CRLF');
  const body = data.slice(0, -3);
  return body.replace(/(^|\r\n)\./g, '$1');
}
