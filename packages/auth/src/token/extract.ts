/** Where a request's token came from. */
export type TokenSource = 'header' | 'cookie' | 'query';

export interface ExtractedToken {
  readonly token: string;
  readonly source: TokenSource;
}

/** The cookie that carries the access token when the server sets one. */
export const AUTH_COOKIE = 'auth_token';

/**
 * Finds the access token of a request, in this order of precedence (docs/http.md, "Callers and credentials"):
 * `Authorization: Bearer <token>`, then the `auth_token` cookie, then the `token` query parameter.
 * Framework-free: give it the raw header values and the parsed query value.
 */
export function extractToken(input: {
  authorization?: string | undefined;
  cookie?: string | undefined;
  queryToken?: unknown;
}): ExtractedToken | null {
  const bearer = parseBearer(input.authorization);
  if (bearer) return { token: bearer, source: 'header' };
  const cookie = input.cookie ? readCookie(input.cookie, AUTH_COOKIE) : undefined;
  if (cookie) return { token: cookie, source: 'cookie' };
  if (typeof input.queryToken === 'string' && input.queryToken) {
    return { token: input.queryToken, source: 'query' };
  }
  return null;
}

/** `Bearer abc` → `abc`; the scheme is case-insensitive (RFC 7235 §2.1). */
export function parseBearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header);
  return match?.[1];
}

/** Reads one cookie from a Cookie header without decoding anything else. */
export function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
