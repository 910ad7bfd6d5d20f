import type { Request } from 'express';
import { checkCookieRequestOrigin, originOf, type TokenSource } from '@svc/auth';

/**
 * The server's side of the cookie rule (docs/http.md, "Cookies and cross-site requests"): @svc/auth's
 * `checkCookieRequestOrigin` (the same function its /auth handler runs), fed from an Express
 * request. The auth gate calls it once it knows where the token came from: a state-changing
 * request whose token is the `auth_token` cookie must come from this server's own origin or a
 * listed one (`cors.origins`, never `*`), else it throws 403 ACCESS_DENIED.
 *
 * The server's own origin is the request's scheme (TLS or not) and its `Host` header, as the
 * browser addressed it. Behind a reverse proxy that terminates TLS or rewrites `Host`, the
 * server sees another origin than the browser did: list the public origin in `cors.origins`.
 */
export function cookieRequestGuard(trustedOrigins: readonly string[] = []) {
  const trusted: ReadonlySet<string> = new Set(trustedOrigins.filter((o) => o !== '*'));
  return (req: Request, tokenSource: TokenSource): void => {
    const secFetchSite = req.headers['sec-fetch-site'];
    checkCookieRequestOrigin({
      method: req.method,
      tokenSource,
      origin: req.headers.origin,
      secFetchSite: typeof secFetchSite === 'string' ? secFetchSite : undefined,
      // Express's req.protocol: https when the socket is TLS (or, if the host app set `trust
      // proxy`, what X-Forwarded-Proto says).
      ownOrigin: originOf(req.protocol, req.headers.host),
      trustedOrigins: trusted,
    });
  };
}
