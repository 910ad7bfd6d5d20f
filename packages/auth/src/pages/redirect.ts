/**
 * `redirectAllowList` (docs/http.md, "Hosted pages"): where the hosted pages may send the browser
 * after a sign-in. An entry is an absolute URL, `https://`, or `http://` on a loopback host:
 * - an origin (`https://app.example.com`, path `/` or none): any path on exactly that origin;
 * - a URL with a path (`https://app.example.com/auth/callback`): exactly that origin and path
 *   (any query).
 * No wildcards, no user info, no fragment. A `redirectTo` that matches no entry is refused (the
 * page says where it would have gone, and goes nowhere): an open redirector would hand the session
 * to whoever wrote the link. A path on the server's own origin (`/app`, never `//host`) is
 * always allowed.
 */
import { secureUrlProblem } from '../branding';

export interface RedirectRule {
  readonly origin: string;
  /** Undefined: any path of the origin. */
  readonly path?: string;
}

/** Checks the setting; throws a TypeError naming the bad entry. */
export function resolveRedirectAllowList(value: unknown): readonly RedirectRule[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new TypeError('auth config: redirectAllowList must be an array of URLs');
  return Object.freeze(
    value.map((entry, i) => {
      const where = `auth config: redirectAllowList[${i}]`;
      if (typeof entry !== 'string') throw new TypeError(`${where} must be a string`);
      const problem = secureUrlProblem(entry);
      if (problem) throw new TypeError(`${where} (${JSON.stringify(entry)}) ${problem}`);
      const url = new URL(entry);
      if (url.username || url.password)
        throw new TypeError(`${where} (${JSON.stringify(entry)}) must not carry user info`);
      if (url.hash || entry.includes('#'))
        throw new TypeError(`${where} (${JSON.stringify(entry)}) must not carry a fragment`);
      if (url.search)
        throw new TypeError(`${where} (${JSON.stringify(entry)}) must not carry a query`);
      if (entry.includes('*'))
        throw new TypeError(`${where} (${JSON.stringify(entry)}): wildcards are not supported`);
      return Object.freeze(
        url.pathname === '/' ? { origin: url.origin } : { origin: url.origin, path: url.pathname },
      );
    }),
  );
}

/**
 * The address to send the browser to, when `redirectTo` is allowed: an absolute URL of a listed
 * origin (and path), or a path of `ownOrigin`. Undefined otherwise (and for an empty value).
 */
export function allowedRedirect(
  redirectTo: string | null | undefined,
  rules: readonly RedirectRule[],
  ownOrigin: string,
): URL | undefined {
  if (!redirectTo || redirectTo.length > 2048) return undefined;
  // Control characters and backslashes are how parsers are made to disagree about the host.
  if (/[\p{Cc}\\\s]/u.test(redirectTo)) return undefined;
  if (redirectTo.startsWith('/')) {
    if (redirectTo.startsWith('//')) return undefined;
    const url = new URL(redirectTo, ownOrigin);
    return url.origin === ownOrigin ? withoutFragment(url) : undefined;
  }
  let url: URL;
  try {
    url = new URL(redirectTo);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password) return undefined;
  const ok = rules.some(
    (r) => r.origin === url.origin && (r.path === undefined || r.path === url.pathname),
  );
  return ok ? withoutFragment(url) : undefined;
}

function withoutFragment(url: URL): URL {
  url.hash = '';
  return url;
}

/** The origins of the rules (the pages' CSP `form-action` lets a form's redirect go there). */
export function redirectOrigins(rules: readonly RedirectRule[]): string[] {
  return [...new Set(rules.map((r) => r.origin))];
}
