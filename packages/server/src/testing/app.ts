/**
 * A middleware as the server mounts it, for the test beside it: an Express app with `buildApp`'s
 * settings and its error handler (so a thrown or passed error leaves as the envelope), and the
 * handlers given, in order, for every method and path. Driven in-process with `request`.
 *
 * Internal to the package's tests: excluded from the build.
 */
import type { Express, RequestHandler } from 'express';
import pino from 'pino';
import { errorHandler } from '../http/errors';
import type { Logger } from '../observability/logger';
import { expressApp } from '../routes';

export function appWith(
  handlers: readonly RequestHandler[],
  logger: Logger = pino({ level: 'silent' }),
): Express {
  const app = expressApp();
  app.use(...handlers);
  app.use(errorHandler(logger));
  return app;
}
