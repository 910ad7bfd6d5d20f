import express, { type Request, type RequestHandler, type Response } from 'express';
import { commonError } from '@svc/core';
import { middleware } from '../../http/step';

/**
 * JSON body parsing, mounted only on the routes that take a body (parsing costs on every route
 * it is mounted on). Over `limit` bytes: 413; not JSON: 400; a body of another media type: 415.
 * The parser's own errors are mapped to envelopes by the error handler (http/errors.ts).
 */
export function jsonBody(limit: number): RequestHandler {
  return middleware(readJsonBody(limit));
}

/**
 * `jsonBody` as a plain step (http/step), for the hot lane and the middleware alike: resolves
 * once `req.body` is set (or there is no body), rejects with the parser's error.
 */
export function readJsonBody(limit: number) {
  const parse = express.json({
    limit,
    strict: true,
    type: ['application/json', 'application/*+json'],
  });
  return (req: Request, res: Response): Promise<void> | undefined => {
    // No body at all (most GETs): the parser would skip it too, after costlier checks (about 5%
    // of the server's CPU per REST list; bench/rest). `Content-Length: 0` still goes to it.
    if (
      req.headers['transfer-encoding'] === undefined &&
      req.headers['content-length'] === undefined
    ) {
      return undefined;
    }
    const hasBody =
      req.headers['transfer-encoding'] !== undefined ||
      (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
    if (hasBody && !req.is(['application/json', 'application/*+json'])) {
      throw commonError(
        'UNSUPPORTED_MEDIA_TYPE',
        'request body must be JSON (Content-Type: application/json)',
      );
    }
    return new Promise<void>((resolve, reject) => {
      parse(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
    });
  };
}
