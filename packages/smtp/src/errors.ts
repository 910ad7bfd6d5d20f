/**
 * What went wrong, as a short machine-readable code:
 *
 * - `ECONNECTION`: the TCP connection failed or closed unexpectedly.
 * - `ETIMEDOUT`: the whole send took longer than `timeoutMs`.
 * - `ETLS`: the TLS handshake failed (certificate, protocol), STARTTLS was refused, or
 *   credentials would have had to travel over an unencrypted connection.
 * - `EAUTH`: the server rejected the credentials.
 * - `EENVELOPE`: the server rejected the sender, every recipient, or the DATA command.
 * - `EMESSAGE`: the message is invalid (header injection, bad address) or the server rejected
 *   its content.
 * - `EPROTOCOL`: the server broke the protocol (bad greeting, malformed or unexpected reply).
 * - `ECONFIG`: the configuration is invalid (thrown by the constructor).
 */
export type SmtpErrorCode =
  | 'ECONNECTION'
  | 'ETIMEDOUT'
  | 'ETLS'
  | 'EAUTH'
  | 'EENVELOPE'
  | 'EMESSAGE'
  | 'EPROTOCOL'
  | 'ECONFIG';

export interface SmtpErrorOptions {
  /** The server's reply text (all lines joined with `\n`), when a reply caused the error. */
  readonly response?: string;
  /** The server's three-digit reply code, when a reply caused the error. */
  readonly responseCode?: number;
  /** The command the reply answered, AUTH payloads masked (`CONNECT` for the greeting, `.` for the end of data). */
  readonly command?: string;
  readonly cause?: unknown;
}

/**
 * The one error class of `@svc/smtp`. Every failure of `send` and every invalid configuration
 * rejects or throws an `SmtpError`; `code` says what kind of failure it is and, when the server
 * answered, `responseCode`, `response` and `command` say what it answered to what.
 *
 * @example
 * try {
 *   await mailer.send({ to: 'user@example.com', subject: 'Hi', text: 'Hello' });
 * } catch (err) {
 *   if (err instanceof SmtpError && err.code === 'EAUTH') console.error(err.responseCode, err.response);
 *   throw err;
 * }
 */
export class SmtpError extends Error {
  readonly code: SmtpErrorCode;
  readonly response: string | undefined;
  readonly responseCode: number | undefined;
  readonly command: string | undefined;

  constructor(code: SmtpErrorCode, message: string, options: SmtpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SmtpError';
    this.code = code;
    this.response = options.response;
    this.responseCode = options.responseCode;
    this.command = options.command;
  }
}
