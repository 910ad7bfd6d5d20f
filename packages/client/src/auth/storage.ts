/**
 * client/auth/storage: where a client keeps its session between page loads or requests. A storage
 * is `getItem`/`setItem`/`removeItem` (so `window.localStorage` itself is one), each of which may
 * answer a promise; it may also offer `lock` (one refresh at a time among every client sharing
 * it: the tabs of a browser) and `subscribe` (be told of another client's write).
 *
 * - `memoryStorage()`: the process's memory; clients given the same one share its lock and hear
 *   each other's writes, as tabs do.
 * - `browserStorage()`: `localStorage`, locked with `navigator.locks` where present, hearing other
 *   tabs through the `storage` event. The default in browsers.
 * - `cookieStorage(cookies)`: a cookie, through a server framework's cookie methods (the session
 *   of the request being served).
 */

export interface AuthStorage {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
  /** Runs `fn` holding the lock `name`, exclusive among every client of this storage. */
  lock?<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Calls `listener` when another client changes `key` (null: removed); answers unsubscribe. */
  subscribe?(key: string, listener: (value: string | null) => void): () => void;
}

/** A storage in memory. Clients handed the same one act as tabs sharing a `localStorage`. */
export function memoryStorage(): AuthStorage {
  const items = new Map<string, string>();
  const listeners = new Set<{ key: string; listener: (value: string | null) => void }>();
  const locks = new Map<string, Promise<unknown>>();
  const notify = (key: string, value: string | null) => {
    for (const l of [...listeners]) if (l.key === key) l.listener(value);
  };
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
      notify(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
      notify(key, null);
    },
    lock<T>(name: string, fn: () => Promise<T>): Promise<T> {
      const previous = locks.get(name) ?? Promise.resolve();
      const run = previous.then(fn, fn);
      const tail = run.then(
        () => {},
        () => {},
      );
      locks.set(name, tail);
      void tail.then(() => {
        if (locks.get(name) === tail) locks.delete(name);
      });
      return run;
    },
    subscribe(key, listener) {
      const entry = { key, listener };
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
  };
}

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** `navigator.locks`, when this runtime has it. */
export function webLocks(): LockManagerLike | undefined {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return typeof locks?.request === 'function' ? locks : undefined;
}

/** A browser's `localStorage`, or null where there is none or it refuses writes (private modes). */
function usableLocalStorage(): Storage | null {
  try {
    const g = globalThis as { window?: unknown; document?: unknown; localStorage?: Storage };
    if (typeof g.window !== 'object' || typeof g.document !== 'object' || !g.localStorage)
      return null;
    const probe = '__svc_probe__';
    g.localStorage.setItem(probe, probe);
    g.localStorage.removeItem(probe);
    return g.localStorage;
  } catch {
    return null;
  }
}

/**
 * How long a tab keeps the lock after its work (ms). Each tab reads its own copy of
 * `localStorage`, which hears other tabs' writes a moment later (Chromium passes them between
 * renderer processes asynchronously): a tab granted the lock the instant another released it
 * could still read the refresh token the other just retired, and presenting it again ends the
 * whole sign-in. Holding the lock this much longer lets the write arrive first. A heuristic, not
 * a guarantee: the server's rule stays the safety net (a replay signs the client out).
 */
const LOCK_SETTLE_MS = 100;

/**
 * The browser's `localStorage` (or another Web Storage), shared by the tabs of an origin: locked
 * with `navigator.locks` (held `LOCK_SETTLE_MS` past its work), other tabs' writes heard through
 * the `storage` event.
 */
export function browserStorage(storage: Storage | null = usableLocalStorage()): AuthStorage {
  if (!storage) throw new TypeError('no localStorage here: pass `storage: memoryStorage()`');
  const locks = webLocks();
  const target = globalThis as {
    addEventListener?: (type: 'storage', listener: (event: StorageEvent) => void) => void;
    removeEventListener?: (type: 'storage', listener: (event: StorageEvent) => void) => void;
  };
  return {
    getItem: (key) => storage.getItem(key),
    setItem: (key, value) => storage.setItem(key, value),
    removeItem: (key) => storage.removeItem(key),
    ...(locks
      ? {
          lock: <T>(name: string, fn: () => Promise<T>) =>
            locks.request(name, async () => {
              try {
                return await fn();
              } finally {
                await new Promise((resolve) => setTimeout(resolve, LOCK_SETTLE_MS));
              }
            }),
        }
      : {}),
    subscribe(key, listener) {
      if (!target.addEventListener) return () => {};
      const onStorage = (event: StorageEvent) => {
        if (event.storageArea === storage && (event.key === key || event.key === null))
          listener(event.key === null ? null : event.newValue);
      };
      target.addEventListener('storage', onStorage);
      return () => target.removeEventListener?.('storage', onStorage);
    },
  };
}

/** The default: `localStorage` in a browser, memory elsewhere. */
export function defaultStorage(): AuthStorage {
  const local = usableLocalStorage();
  return local ? browserStorage(local) : memoryStorage();
}

/** What `cookieStorage` asks the framework to set on its cookie. */
export interface CookieOptions {
  readonly path: string;
  readonly httpOnly: boolean;
  readonly secure: boolean;
  readonly sameSite: 'lax' | 'strict' | 'none';
  /** Seconds. */
  readonly maxAge: number;
  readonly domain?: string;
}

/** A server framework's cookies for the request being served (Express, Hono, Next, ...). */
export interface CookieMethods {
  get(name: string): string | null | undefined | Promise<string | null | undefined>;
  set(name: string, value: string, options: CookieOptions): void | Promise<void>;
  remove(name: string, options: CookieOptions): void | Promise<void>;
}

/**
 * The session in a cookie of the request being served, named by the client's `storageKey`:
 * HttpOnly, SameSite=Lax, Path=/, Secure (unless `secure: false`, for plain-HTTP development),
 * kept 7 days (the server's default refresh-token lifetime) unless `maxAge` says otherwise.
 * The value is the session's JSON; the framework encodes it as cookies need.
 */
export function cookieStorage(
  cookies: CookieMethods,
  options: Partial<CookieOptions> = {},
): AuthStorage {
  const settings: CookieOptions = {
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
    maxAge: 604_800,
    ...options,
  };
  return {
    getItem: (key) => cookies.get(key),
    setItem: (key, value) => cookies.set(key, value, settings),
    removeItem: (key) => cookies.remove(key, { ...settings, maxAge: 0 }),
  };
}
