import pino from 'pino';
import type { LogLevel } from '../config';

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
  'secret',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.refreshToken',
  '*.jwtSecret',
  '*.serviceKey',
  '*.secret',
  '*.authorization',
  '*.cookie',
  'headers.authorization',
  'headers.cookie',
];

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, base: { service: 'svc' }, redact: { paths: REDACT, censor: '[redacted]' } },
    destination,
  );
}
