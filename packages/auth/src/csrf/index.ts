/**
 * Cross-site request forgery defence for cookie-authenticated requests (docs/http.md, "Cookies and cross-site requests").
 *
 * A browser attaches the `auth_token` cookie to requests other sites make it send (a form post,
 * a `fetch` with `mode: 'no-cors'` and a `text/plain` body needs no preflight), so a request that
 * changes state and is authenticated by that cookie must come from a page of this server's own
 * origin or of an origin the operator trusts. Browsers say where a request comes from in `Origin`
 * (every cross-origin request, and every POST) and, in current browsers, `Sec-Fetch-Site`.
 * Requests with neither header are not from a browser page and pass, as do requests whose token
 * came from the `Authorization` header (a page of another site cannot set it without CORS) or
 * `?token=`. GET, HEAD and OPTIONS change nothing and pass.
 *
 * One function, used by @svc/auth's own handler (standalone, Express or Fetch) and by the
 * server's auth gate on the data plane, so both apply the same rule.
 */
import { commonError } from '@svc/core';
import type { TokenSource } from '../token/extract';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CookieRequest {
  /** The request method (`POST`, ...). */
  readonly method: string;
  /** Where the token that authenticates the request came from; only `cookie` is checked. */
  readonly tokenSource: TokenSource;
  /** The `Origin` header, when sent. */
  readonly origin: string | null | undefined;
  /** The `Sec-Fetch-Site` header, when sent. */
  readonly secFetchSite: string | null | undefined;
  /**
   * This server's origin as browsers reach it (`scheme://host[:port]`), from the request's Host
   * and scheme: see `originOf`. Undefined when the Host header is missing or malformed.
   */
  readonly ownOrigin: string | undefined;
  /**
   * Other origins whose pages may send cookie-authenticated writes, in `parseOrigin`'s canonical
   * form (the server passes its `cors.origins`; `*` is never one).
   */
  readonly trustedOrigins?: ReadonlySet<string> | undefined;
}

/**
 * Refuses a state-changing, cookie-authenticated request from a foreign page with 403
 * `ACCESS_DENIED`: an `Origin` that is neither `ownOrigin` nor trusted (`null`, the opaque origin
 * of sandboxed frames and some redirects, included), or, without `Origin`, `Sec-Fetch-Site:
 * cross-site`. Returns normally otherwise.
 */
export function checkCookieRequestOrigin(request: CookieRequest): void {
  if (request.tokenSource !== 'cookie' || SAFE_METHODS.has(request.method.toUpperCase())) return;
  const origin = request.origin ?? undefined;
  if (origin !== undefined) {
    if (origin === request.ownOrigin || request.trustedOrigins?.has(origin)) return;
    throw refused('its Origin is neither this server nor a trusted origin');
  }
  if (request.secFetchSite?.trim().toLowerCase() === 'cross-site') {
    throw refused('it comes from another site (Sec-Fetch-Site: cross-site)');
  }
}

/**
 * The origin a browser gives a page served at `protocol://host` (`http` or `https`, with or
 * without the colon; host with its port): lower-case, default port dropped, so it compares equal
 * to an `Origin` header. Undefined when the host is missing or malformed.
 */
export function originOf(protocol: string, host: string | undefined): string | undefined {
  if (!host) return undefined;
  const scheme = protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  // A Host is host[:port], never a path, user info, query or fragment.
  if (/[/\\@?#\s]/.test(host)) return undefined;
  try {
    const url = new URL(`${scheme}://${host}`);
    return `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

const ORIGIN =
  /^([a-z][a-z0-9+.-]*):\/\/(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/;

/**
 * An origin as browsers write it in `Origin` (RFC 6454 §6.2): `scheme://host[:port]`, no path,
 * no trailing slash, no user info. Returns its canonical form (lower-case; for http and https
 * the default port dropped and IP addresses normalised), or undefined when `text` is not one.
 * Hosts outside ASCII must be given in their punycode form, as browsers send them.
 *
 * @example parseOrigin('https://App.example.com:443') // 'https://app.example.com'
 */
export function parseOrigin(text: string): string | undefined {
  const lower = text.toLowerCase();
  const match = ORIGIN.exec(lower);
  if (!match) return undefined;
  const [, scheme, , port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  if (scheme !== 'http' && scheme !== 'https') return lower;
  try {
    const url = new URL(lower);
    return `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

function refused(why: string) {
  return commonError(
    'ACCESS_DENIED',
    `cross-site request refused: it is authenticated by a cookie and ${why}`,
    {
      hint: "send the token in the Authorization header, or list the page's origin in the server's cors.origins",
    },
  );
}
