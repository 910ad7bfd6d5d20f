import type { NextFunction, Request, Response } from 'express';
import { commonError } from '@svc/core';
import { parseBearer } from '@svc/auth';
import { BEARER_CHALLENGE, INVALID_TOKEN_CHALLENGE, secretMatcher } from '../authenticate';

/**
 * The gate of `/metrics` and `/stats` when `metricsToken` is configured (issue 26, 9), in place
 * of the `requireAuth` one: the request must carry `Authorization: Bearer <metricsToken>`, what
 * Prometheus' `authorization` scrape setting sends. Nothing else opens them, not the service key
 * nor a user's token, so the scraper's credential, kept in its own configuration, is good for
 * these figures and nothing more, and no data-plane credential has to sit in a scraper's. The
 * cookie and `?token=` are not read (a token in a URL ends up in logs). Missing: 401 with the
 * Bearer challenge; another token: 401 with `error="invalid_token"` (RFC 6750 §3). The
 * comparison is constant-time.
 */
export function requireMetricsToken(token: string) {
  const isMetricsToken = secretMatcher(token);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const presented = parseBearer(req.headers.authorization);
    if (presented === undefined) {
      return next(
        commonError(
          'UNAUTHORIZED',
          `${req.path} needs the metrics token as its bearer (Authorization: Bearer <metricsToken>)`,
          { headers: { 'WWW-Authenticate': BEARER_CHALLENGE } },
        ),
      );
    }
    if (!isMetricsToken(presented)) {
      return next(
        commonError('UNAUTHORIZED', 'the bearer token is not the metrics token', {
          headers: { 'WWW-Authenticate': INVALID_TOKEN_CHALLENGE },
        }),
      );
    }
    next();
  };
}
