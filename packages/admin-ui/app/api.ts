/**
 * Calls to svc, from the page's own origin. The credential is the `auth_token` cookie the auth
 * routes set (HttpOnly: this code never sees it); writes carry `Origin`, which svc checks for
 * cookie-authenticated writes (docs/http.md, "Cookies and cross-site requests").
 */
import { parseJson } from './json';

export interface Envelope {
  code: string;
  error: string;
  type?: string;
  hint?: string;
  extensions?: { sqlState?: string; position?: { line: number; column: number } };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: Envelope,
  ) {
    super(envelope.error);
  }
  get code(): string {
    return this.envelope.code;
  }
}

/** Called when svc answers 401 on a route that needs the session: back to sign-in. */
let onUnauthorized: ((err: ApiError) => void) | undefined;
export function whenUnauthorized(fn: (err: ApiError) => void): void {
  onUnauthorized = fn;
}

export interface CallOptions {
  readonly method?: string;
  readonly body?: unknown;
  /** Do not hand a 401 to the sign-in screen (sign-in's own calls). */
  readonly quiet401?: boolean;
}

export interface Answer<T> {
  readonly status: number;
  readonly data: T;
  readonly headers: Headers;
}

export async function call<T = unknown>(
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const init: RequestInit = {
    method: options.method ?? 'GET',
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    cache: 'no-store',
  };
  if (options.body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data: unknown = null;
  if (text !== '') {
    try {
      data = parseJson(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    const envelope: Envelope =
      data && typeof data === 'object' && 'code' in data
        ? (data as Envelope)
        : { code: `HTTP_${res.status}`, error: `HTTP ${res.status}` };
    const err = new ApiError(res.status, envelope);
    if (res.status === 401 && !options.quiet401 && onUnauthorized) onUnauthorized(err);
    throw err;
  }
  return { status: res.status, data: data as T, headers: res.headers };
}

/** `GET /_/api/session`: the server's auth settings and who the cookie says is signed in. */
export interface SessionInfo {
  auth: boolean;
  cookie: boolean;
  rest: boolean;
  runAs: boolean;
  /** Passkey sign-in is configured (`authConfig.webauthn`). */
  passkey: boolean;
  caller: null | { id: string; email: string; roles: string[]; superuser: boolean };
}
