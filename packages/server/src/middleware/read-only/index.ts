import type { Request, RequestHandler, Response } from 'express';
import { commonError } from '@svc/core';
import { middleware } from '../../http/step';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The one refusal of read-only mode: 503 READ_ONLY. */
export function readOnlyError() {
  return commonError('READ_ONLY', 'the server is in read-only mode; writes are refused');
}

/**
 * For routes whose writing methods are all writes (REST): refuse them with 503 READ_ONLY in
 * read-only mode, before the body is read. `/query` decides per query instead, after compiling
 * it, and `POST /migrations` once its body says whether it is a dry run.
 */
export function rejectWritesWhenReadOnly(readOnly: boolean): RequestHandler {
  return middleware(refuseWritesWhenReadOnly(readOnly));
}

/** `rejectWritesWhenReadOnly` as a plain step (http/step), for the hot lane and the middleware alike. */
export function refuseWritesWhenReadOnly(readOnly: boolean) {
  return (req: Request, _res: Response): undefined => {
    if (readOnly && WRITE_METHODS.has(req.method)) throw readOnlyError();
    return undefined;
  };
}
