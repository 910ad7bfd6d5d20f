import type { NextFunction, Request, Response } from 'express';
import { commonError } from '@svc/core';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * For routes whose writing methods are all writes (REST, migrations): refuse them with 503
 * READ_ONLY in read-only mode. `/query` decides per query instead, after compiling it.
 */
export function rejectWritesWhenReadOnly(readOnly: boolean) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (readOnly && WRITE_METHODS.has(req.method)) {
      next(commonError('READ_ONLY', 'the server is in read-only mode; writes are refused'));
      return;
    }
    next();
  };
}
