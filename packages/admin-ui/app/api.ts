/**
 * Calls to svc, from the page's own origin. The credential is the admin UI's own `svc_admin`
 * cookie, set by `/_/api/session/*` (HttpOnly, `Path=/_/`: this code never sees it, and the app's
 * routes never take it); writes carry `Origin`, which svc checks for cookie-authenticated writes
 * (docs/http.md, "The admin UI").
 *
 * Views name the data plane by the app's paths (`/query`, `/schema/types`, `/api/Book`, ...);
 * `address` sends them to the same handlers under `/_/api/db`, where the cookie is sent. The
 * access token is refreshed (the refresh token is a cookie too) shortly before it expires, and
 * once on a 401; when that fails the page goes back to sign-in.
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

/** The data plane, for the admin cookie: the app's routes mounted again under this prefix. */
const DATA_PLANE = '/_/api/db';

/** Where a path is served for this page: the admin routes and the public probes as they are. */
function address(path: string): string {
  return path.startsWith('/_/') || path.startsWith('/health') ? path : `${DATA_PLANE}${path}`;
}

/** What a sign-in or refresh answers once the cookies are set. */
export interface SignedIn {
  user: { id: string; email: string };
  /** When the access token expires (ISO 8601). */
  expiresAt: string;
}

const SESSION = '/_/api/session';
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | undefined;

/**
 * A new access token from the refresh cookie; true when svc gave one. One refresh at a time in
 * this page, and across this browser's tabs where Web Locks exist (the refresh token rotates:
 * a tab replaying the one another tab just spent would be refused).
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const once = async (): Promise<boolean> => {
      try {
        const res = await fetch(`${SESSION}/refresh`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
          cache: 'no-store',
        });
        if (!res.ok) return false;
        keepFresh(((await res.json()) as SignedIn).expiresAt);
        return true;
      } catch {
        return false;
      }
    };
    try {
      const locks = (navigator as Navigator & { locks?: LockManager }).locks;
      return locks ? await locks.request('svc-admin-refresh', once) : await once();
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

/**
 * Refreshes a minute before `expiresAt` (halfway there for a shorter life); when that fails,
 * back to sign-in.
 */
export function keepFresh(expiresAt: string): void {
  clearTimeout(refreshTimer);
  const left = Date.parse(expiresAt) - Date.now();
  refreshTimer = setTimeout(
    () => {
      void refreshSession().then((ok) => {
        if (!ok) onUnauthorized?.(new ApiError(401, ENDED));
      });
    },
    Math.max(0, left - Math.min(60_000, left / 2)),
  );
}

/** Stops refreshing (signed out). */
export function stopRefreshing(): void {
  clearTimeout(refreshTimer);
}

const ENDED: Envelope = { code: 'SESSION_EXPIRED', error: 'SESSION_EXPIRED: the session ended' };

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
  let res = await fetch(address(path), init);
  // An expired access token: refresh once and ask again (never for the session routes).
  if (res.status === 401 && !options.quiet401 && !path.startsWith(SESSION)) {
    if (await refreshSession()) res = await fetch(address(path), init);
  }
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
  rest: boolean;
  runAs: boolean;
  /** Passkey sign-in is configured (`authConfig.webauthn`). */
  passkey: boolean;
  caller: null | { id: string; email: string; roles: string[]; superuser: boolean };
}
