/**
 * @svc/auth/express: mount svc auth in an Express app.
 *
 * @example
 * import express from 'express';
 * import { createAuth } from '@svc/auth';
 * import { authRouter } from '@svc/auth/express';
 *
 * const auth = await createAuth({ jwtSecret: process.env.JWT_SECRET! }, { database });
 * const app = express();
 * app.use('/auth', authRouter(auth));
 */
import type { Auth } from './types';
import { toNodeListener, type FrameworkRequest, type NodeAdapterOptions } from './http/node';
import type { ServerResponse } from 'node:http';

export type ExpressAuthMiddleware = (
  req: FrameworkRequest,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

/** An Express middleware serving every `/auth/*` route of `auth`. Mount it at the handler's basePath. */
export function authRouter(
  auth: Pick<Auth, 'handler'>,
  options: NodeAdapterOptions = {},
): ExpressAuthMiddleware {
  const listener = toNodeListener(auth.handler, options);
  return (req, res, next) => {
    void listener(req, res, next);
  };
}

export { toNodeListener, type FrameworkRequest, type NodeAdapterOptions } from './http/node';
