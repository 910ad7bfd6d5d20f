import pino from 'pino';
import type { LogFormat, LogLevel } from '../config';
import { prettyDestination } from './pretty';

export type Logger = pino.Logger;

/**
 * Paths that may hold secrets, censored wherever a log call passes them. Request logs are built
 * from an allow-list (method, route, path without its query, status), so tokens in headers,
 * cookies or `?token=` never reach a log line in the first place; this is the second fence.
 */
const REDACT = [
  'password',
  'token',
  'refreshToken',
  'jwtSecret',
  'serviceKey',
  'metricsToken',
  'secret',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.refreshToken',
  '*.jwtSecret',
  '*.serviceKey',
  '*.metricsToken',
  '*.secret',
  '*.authorization',
  '*.cookie',
  'headers.authorization',
  'headers.cookie',
];

/**
 * `auto` is `pretty` when the stream (default stdout) is a terminal, `json` otherwise: people
 * read a terminal, programs read a pipe or a file.
 */
export function resolveLogFormat(
  format: LogFormat,
  stream: { isTTY?: boolean } = process.stdout,
): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return stream.isTTY ? 'pretty' : 'json';
}

/**
 * The server's pino logger: JSON lines, or with `pretty` the same lines rendered for a person
 * (coloured on a terminal unless NO_COLOR is set). Redaction applies in both.
 */
export function createLogger(
  level: LogLevel,
  destination?: pino.DestinationStream,
  format: LogFormat = 'json',
): Logger {
  const options = {
    level,
    base: { service: 'svc' },
    redact: { paths: REDACT, censor: '[redacted]' },
  };
  const out = destination ?? process.stdout;
  if (resolveLogFormat(format, out as { isTTY?: boolean }) === 'pretty') {
    const colors = (out as { isTTY?: boolean }).isTTY === true && !process.env.NO_COLOR;
    return pino(options, prettyDestination(out, { colors }) as pino.DestinationStream);
  }
  // On a terminal, JSON lines go through process.stdout, which Node writes synchronously to a TTY
  // (as the pretty path does): pino's own asynchronous fd writer met EAGAIN on a pseudo-terminal
  // and let the shutdown lines out of order. Pipes and files keep pino's fast asynchronous writer.
  const terminal = destination === undefined && process.stdout.isTTY === true;
  return pino(options, terminal ? (process.stdout as pino.DestinationStream) : destination);
}
