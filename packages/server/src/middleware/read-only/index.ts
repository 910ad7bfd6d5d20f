import type { NextFunction, Request, Response } from 'express';
import { commonError } from '@svc/core';

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
export function rejectWritesWhenReadOnly(readOnly: boolean) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (readOnly && WRITE_METHODS.has(req.method)) {
      next(readOnlyError());
      return;
    }
    next();
  };
}
