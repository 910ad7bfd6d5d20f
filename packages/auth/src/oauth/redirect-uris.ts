/**
 * The `redirectUri` allow-list (docs/http.md, "Auth routes"): every authorize and every callback checks
 * the app's redirect address against it. An entry matches exactly (the URL as `new URL()`
 * normalises it: scheme and host lower-cased, default port dropped, an empty path as `/`), or,
 * for http(s) entries whose host starts with `*.`, the wildcard stands for exactly ONE DNS label
 * (`https://*.example.com/cb` matches `https://a.example.com/cb`, never `https://example.com/cb`
 * nor `https://a.b.example.com/cb`); everything but that label (scheme, port, path, query) must
 * still be equal. URLs with a fragment or user info are never allowed.
 */

const WILDCARD_PLACEHOLDER = 'svc-wildcard-label';
const LABEL_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:']);

export interface RedirectPattern {
  /** The entry as configured. */
  readonly source: string;
  /** Exact: the normalised URL. Wildcard: the normalised URL with the placeholder label. */
  readonly href: string;
  readonly wildcard: boolean;
}

/** Parses one allow-list entry; a TypeError names what is wrong with it. */
export function parseRedirectPattern(entry: unknown, where: string): RedirectPattern {
  if (typeof entry !== 'string' || entry.length === 0 || entry.length > 2048)
    throw new TypeError(`${where} must be a URL string of at most 2048 characters`);
  const wildcard = /^[a-z][a-z0-9+.-]*:\/\/\*\./i.test(entry);
  if (!wildcard && entry.includes('*'))
    throw new TypeError(
      `${where}: "*" is allowed only as the whole first label of the host (https://*.example.com)`,
    );
  let url: URL;
  try {
    url = new URL(wildcard ? entry.replace('://*.', `://${WILDCARD_PLACEHOLDER}.`) : entry);
  } catch {
    throw new TypeError(`${where}: ${JSON.stringify(entry)} is not an absolute URL`);
  }
  if (REFUSED_SCHEMES.has(url.protocol))
    throw new TypeError(`${where}: the ${url.protocol} scheme is not allowed`);
  if (url.hash || entry.includes('#'))
    throw new TypeError(`${where}: a redirect URI must not have a fragment`);
  if (url.username || url.password)
    throw new TypeError(`${where}: a redirect URI must not carry user info`);
  if (wildcard) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new TypeError(`${where}: a wildcard is allowed only in http(s) URIs`);
    if (url.hostname.includes('*') || url.hostname.split('.').length < 3)
      throw new TypeError(
        `${where}: a wildcard must stand before at least two labels (https://*.example.com)`,
      );
  }
  return { source: entry, href: url.href, wildcard };
}

/** The candidate URL when it may be a redirect target at all (absolute, no fragment, no user info). */
export function parseRedirectCandidate(value: unknown): URL | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return undefined;
  if (value.includes('#')) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (REFUSED_SCHEMES.has(url.protocol) || url.username || url.password) return undefined;
  return url;
}

/** Whether `candidate` is allowed by one of the patterns. */
export function redirectUriAllowed(
  candidate: unknown,
  patterns: readonly RedirectPattern[],
): boolean {
  const url = parseRedirectCandidate(candidate);
  if (!url) return false;
  for (const p of patterns) {
    if (!p.wildcard) {
      if (url.href === p.href) return true;
      continue;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
    const [label, ...rest] = url.hostname.split('.');
    if (!label || !LABEL_RE.test(label)) continue;
    const replaced = new URL(url.href);
    replaced.hostname = [WILDCARD_PLACEHOLDER, ...rest].join('.');
    if (replaced.href === p.href) return true;
  }
  return false;
}
