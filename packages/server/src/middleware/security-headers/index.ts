import type { TLSSocket } from 'node:tls';
import type { Request, RequestHandler, Response } from 'express';
import { middleware } from '../../http/step';

/** One year, subdomains included: the form HSTS preload lists ask for (RFC 6797 §6.1). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Headers every response carries, errors included (set before any route runs):
 * - `X-Content-Type-Options: nosniff`: a JSON body is never sniffed into script or HTML.
 * - `Referrer-Policy: no-referrer`: svc serves an API, not pages to navigate from; nothing it
 *   serves should leak its URL (which may hold `?token=`) to another site.
 * - `Strict-Transport-Security` when the connection is TLS (`--tls-cert`, or the app mounted
 *   into an HTTPS server). HSTS sent over plain HTTP is ignored by browsers (RFC 6797 §8.1);
 *   behind a proxy that terminates TLS, the proxy sends it.
 */
export function securityHeaders(): RequestHandler {
  return middleware(setSecurityHeaders);
}

/** `securityHeaders` as a plain step (http/step), for the hot lane and the middleware alike. */
export function setSecurityHeaders(req: Request, res: Response): undefined {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  if ((req.socket as TLSSocket).encrypted) res.setHeader('Strict-Transport-Security', HSTS);
  return undefined;
}
