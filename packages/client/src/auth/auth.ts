/**
 * client/auth/auth: `client.auth`, the auth routes of docs/http.md as methods, and the session
 * they make: kept in a storage (storage.ts), sent by the transport on every request (the client
 * asks `accessToken()` for its credential), refreshed when its access token is about to expire.
 *
 * Refreshing: the server rotates refresh tokens, and a retired one presented again ends the whole
 * sign-in, so two refreshes of one session are a real fault. One refresh runs at a time per
 * client (a shared promise); among clients sharing a storage (the tabs of a browser) the storage's
 * lock (`navigator.locks` for `localStorage`) serializes them, and the session is read again once
 * the lock is held: a session another tab rotated meanwhile is taken as it is, not refreshed again.
 * A refresh the server refuses with INVALID_REFRESH_TOKEN, SESSION_EXPIRED or USER_INACTIVE signs
 * the client out (`SIGNED_OUT`).
 */
import { ProtocolError, type SvcError } from '../errors';
import type { Transport } from '../transport';
import { AuthError } from './errors';
import {
  createPasskey,
  getPasskey,
  assertPasskeys,
  type CreationOptionsJSON,
  type RequestOptionsJSON,
} from './passkey';
import {
  parseSession,
  serializeSession,
  sessionOf,
  signInResultOf,
  type AuthUser,
  type MfaChallenge,
  type Session,
  type SignInResult,
} from './session';
import { browserStorage, defaultStorage, webLocks, type AuthStorage } from './storage';

export interface AuthOptions {
  /** Where the session is kept. @default localStorage in browsers, memory elsewhere */
  readonly storage?: AuthStorage;
  /** The storage key (and cookie name) of the session. @default 'svc-auth-session' */
  readonly storageKey?: string;
  /** Refresh the access token before it expires. @default true */
  readonly autoRefresh?: boolean;
  /** How many seconds before its expiry an access token is refreshed. @default 60 */
  readonly refreshMargin?: number;
}

export type AuthChangeEvent =
  | 'INITIAL_SESSION'
  | 'SIGNED_IN'
  | 'SIGNED_OUT'
  | 'TOKEN_REFRESHED'
  | 'USER_UPDATED';

export type AuthChangeListener = (event: AuthChangeEvent, session: Session | null) => void;

export interface SignUpInput {
  readonly email: string;
  readonly password: string;
  readonly username?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export type SignInInput =
  | { readonly email: string; readonly password: string }
  | { readonly username: string; readonly password: string };

/** A passkey of the user (`registerPasskey`). */
export interface Passkey {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface MfaMethods {
  /** Starts TOTP enrolment: the secret to show (as a QR code of `otpauthUri`). */
  enrollTotp(options?: { code?: string }): Promise<{ secret: string; otpauthUri: string }>;
  /** Confirms the enrolment with a current code: later sign-ins ask for a second factor. */
  confirmTotp(code: string): Promise<void>;
  /** Turns TOTP off (a current TOTP code or an unused recovery code). */
  disableTotp(code: string): Promise<void>;
  /** A new batch of recovery codes (the old ones die). */
  generateRecoveryCodes(options?: { code?: string }): Promise<string[]>;
  /** Answers a sign-in's MFA challenge with a TOTP code: signed in (`aal2`). */
  verifyTotp(challenge: MfaChallenge | string, code: string): Promise<Session>;
  /** Answers a sign-in's MFA challenge with a recovery code (spent): signed in (`aal2`). */
  verifyRecoveryCode(challenge: MfaChallenge | string, code: string): Promise<Session>;
}

export interface AuthClient {
  /** Creates an account and signs in. */
  signUp(input: SignUpInput): Promise<Session>;
  /** Signs in with a password: a session, or an MFA challenge (`result.mfa`). */
  signIn(input: SignInInput): Promise<SignInResult>;
  /** Emails a sign-in link (answers the same for unknown addresses). */
  signInWithMagicLink(input: { email: string }): Promise<void>;
  /** Signs in with the token of a sign-in link (the `token` of its URL). */
  consumeMagicLink(token: string): Promise<SignInResult>;
  /** Emails a 6-digit sign-in code. */
  requestMagicCode(input: { email: string }): Promise<void>;
  /** Signs in with an emailed code. */
  verifyMagicCode(input: { email: string; code: string }): Promise<SignInResult>;
  /** Signs in with a passkey (browsers): with `email` its passkeys, without any discoverable one. */
  signInWithPasskey(input?: { email?: string }): Promise<SignInResult>;
  /** Registers a passkey for the signed-in user (browsers). */
  registerPasskey(input?: { name?: string; code?: string }): Promise<Passkey>;
  /** Signs in as a new guest. */
  signInAnonymously(): Promise<Session>;
  /** Gives the guest an email and password; the same user, signed in again. */
  upgrade(input: { email: string; password: string }): Promise<SignInResult>;
  readonly mfa: MfaMethods;
  /** Ends the session at the server and forgets it here (here even when the server fails). */
  signOut(): Promise<void>;
  /** The session, refreshed first when its access token is about to expire; null when signed out. */
  getSession(): Promise<Session | null>;
  /** Exchanges the refresh token now (one exchange at a time, whoever asks). */
  refreshSession(): Promise<Session>;
  /**
   * Takes a session made elsewhere, such as the one the hosted pages hand to a `redirectTo` in the
   * URL's fragment (`#access_token=…&refresh_token=…`): exchanges its refresh token at
   * `/auth/refresh` for a session of its own and keeps it (`SIGNED_IN`).
   */
  setSession(input: { refreshToken: string }): Promise<Session>;
  /** The signed-in user as the server has it now (`USER_UPDATED` when it changed); null when signed out. */
  getUser(): Promise<AuthUser | null>;
  /** Calls `listener` on every change, first with `INITIAL_SESSION`; answers unsubscribe. */
  onAuthStateChange(listener: AuthChangeListener): () => void;
}

/** Refusals of `/auth/refresh` after which the session is gone for good. */
const ENDED = new Set(['INVALID_REFRESH_TOKEN', 'SESSION_EXPIRED', 'USER_INACTIVE']);

export function createAuth(
  transport: Transport,
  options: AuthOptions = {},
): { auth: AuthClient; accessToken: () => Promise<string | undefined> } {
  const given = options.storage;
  const storage =
    given === undefined
      ? defaultStorage()
      : typeof Storage === 'function' && given instanceof Storage
        ? browserStorage(given) // `localStorage` itself: with the tabs' lock and events
        : given;
  const key = options.storageKey ?? 'svc-auth-session';
  const autoRefresh = options.autoRefresh ?? true;
  const margin = (options.refreshMargin ?? 60) * 1000;
  const locks = webLocks();
  const lock = storage.lock
    ? <T>(fn: () => Promise<T>) => storage.lock!(`${key}:refresh`, fn)
    : locks
      ? <T>(fn: () => Promise<T>) => locks.request(`${key}:refresh`, fn)
      : <T>(fn: () => Promise<T>) => fn();

  let current: Session | null = null;
  const listeners = new Set<AuthChangeListener>();
  let refreshing: Promise<Session> | null = null;

  const load = async () => parseSession(await storage.getItem(key));
  const ready = load().then(
    (s) => {
      current = s;
    },
    () => {},
  );

  function emit(event: AuthChangeEvent, session: Session | null) {
    for (const listener of [...listeners]) {
      try {
        listener(event, session);
      } catch (err) {
        console.error('svc auth: an onAuthStateChange listener threw', err);
      }
    }
  }

  async function save(session: Session | null, event: AuthChangeEvent) {
    current = session;
    if (session) await storage.setItem(key, serializeSession(session));
    else await storage.removeItem(key);
    emit(event, session);
  }

  // Another client of the storage (a tab) wrote: take its session. Our own writes come back
  // here too (memoryStorage) and change nothing.
  storage.subscribe?.(key, (text) => {
    const next = parseSession(text);
    const was = current;
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    if (next?.accessToken === was?.accessToken && same(next?.user, was?.user)) return;
    current = next;
    if (!next) emit('SIGNED_OUT', null);
    else if (!was || was.user.id !== next.user.id) emit('SIGNED_IN', next);
    else if (was.accessToken !== next.accessToken) emit('TOKEN_REFRESHED', next);
    else emit('USER_UPDATED', next);
  });

  async function call(
    path: string,
    body?: unknown,
    session?: Session,
    method?: 'GET' | 'POST',
  ): Promise<unknown> {
    const { text } = await transport.request(path, {
      anonymous: true,
      ...(method ? { method } : {}),
      ...(body === undefined && method !== 'GET'
        ? { body: {} }
        : body === undefined
          ? {}
          : { body }),
      ...(session ? { headers: { authorization: `Bearer ${session.accessToken}` } } : {}),
    });
    try {
      return JSON.parse(text);
    } catch {
      throw new ProtocolError(`the server answered ${path} with a body that is not JSON`);
    }
  }

  /** The session (fresh), or an AuthError when signed out: for the routes that need a token. */
  async function signedIn(): Promise<Session> {
    const session = await fresh();
    if (!session)
      throw new AuthError('this needs a signed-in session; sign in first', {
        code: 'NOT_SIGNED_IN',
      });
    return session;
  }

  async function signedInWith(body: unknown): Promise<SignInResult> {
    const result = signInResultOf(body);
    if (result.session) await save(result.session, 'SIGNED_IN');
    return result;
  }

  function refresh(): Promise<Session> {
    if (refreshing) return refreshing;
    const started = current;
    refreshing = lock(async () => {
      // Read again under the lock: another tab may have refreshed or signed out meanwhile.
      const stored = await load();
      if (!stored) {
        if (current) await save(null, 'SIGNED_OUT');
        throw new AuthError('signed out', { code: 'NOT_SIGNED_IN' });
      }
      if (started && stored.refreshToken !== started.refreshToken) {
        if (current?.accessToken !== stored.accessToken) {
          const event = current?.user.id === stored.user.id ? 'TOKEN_REFRESHED' : 'SIGNED_IN';
          current = stored;
          emit(event, stored);
        }
        return stored;
      }
      let body: unknown;
      try {
        body = await call('/auth/refresh', { refreshToken: stored.refreshToken });
      } catch (err) {
        if (ENDED.has((err as SvcError).code ?? '')) await save(null, 'SIGNED_OUT');
        throw err;
      }
      const session = sessionOf(body);
      await save(session, 'TOKEN_REFRESHED');
      return session;
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  /** The session, refreshed when its access token expires within the margin. */
  async function fresh(): Promise<Session | null> {
    await ready;
    const session = current;
    if (!session || !autoRefresh || session.expiresAt - Date.now() > margin) return session;
    try {
      return await refresh();
    } catch (err) {
      // Not refreshed, but not ended either (the network, say): the token still serves until it expires.
      if (current && current.expiresAt > Date.now()) return current;
      throw err;
    }
  }

  async function challengeAnswer(path: string, challenge: MfaChallenge | string, code: string) {
    const challengeToken = typeof challenge === 'string' ? challenge : challenge.challengeToken;
    const session = sessionOf(await call(path, { challengeToken, code }));
    await save(session, 'SIGNED_IN');
    return session;
  }

  const mfa: MfaMethods = {
    enrollTotp: async (input = {}) =>
      (await call('/auth/mfa/totp/enroll', input, await signedIn())) as {
        secret: string;
        otpauthUri: string;
      },
    confirmTotp: async (code) => {
      await call('/auth/mfa/totp/confirm', { code }, await signedIn());
    },
    disableTotp: async (code) => {
      await call('/auth/mfa/totp/disable', { code }, await signedIn());
    },
    generateRecoveryCodes: async (input = {}) =>
      (
        (await call('/auth/mfa/recovery-codes/generate', input, await signedIn())) as {
          codes: string[];
        }
      ).codes,
    verifyTotp: (challenge, code) => challengeAnswer('/auth/mfa/totp/login', challenge, code),
    verifyRecoveryCode: (challenge, code) =>
      challengeAnswer('/auth/mfa/recovery-codes/login', challenge, code),
  };

  const auth: AuthClient = {
    signUp: async (input) => {
      const session = sessionOf(await call('/auth/register', input));
      await save(session, 'SIGNED_IN');
      return session;
    },
    signIn: async (input) => signedInWith(await call('/auth/login', input)),
    signInWithMagicLink: async ({ email }) => {
      await call('/auth/magic-link/request', { email });
    },
    consumeMagicLink: async (token) =>
      signedInWith(await call('/auth/magic-link/consume', { token })),
    requestMagicCode: async ({ email }) => {
      await call('/auth/magic-code/request', { email });
    },
    verifyMagicCode: async ({ email, code }) =>
      signedInWith(await call('/auth/magic-code/verify', { email, code })),
    signInWithPasskey: async (input = {}) => {
      assertPasskeys();
      const begin = (await call(
        '/auth/webauthn/login/begin',
        input.email === undefined ? {} : { email: input.email },
      )) as { challengeId: string; options: RequestOptionsJSON };
      const answer = await getPasskey(begin.options);
      return signedInWith(
        await call('/auth/webauthn/login/finish', { challengeId: begin.challengeId, ...answer }),
      );
    },
    registerPasskey: async (input = {}) => {
      assertPasskeys();
      const session = await signedIn();
      const code = input.code === undefined ? {} : { code: input.code };
      const begin = (await call('/auth/webauthn/register/begin', code, session)) as {
        challengeId: string;
        options: CreationOptionsJSON;
      };
      const answer = await createPasskey(begin.options);
      const finish = (await call(
        '/auth/webauthn/register/finish',
        {
          challengeId: begin.challengeId,
          ...answer,
          ...(input.name === undefined ? {} : { name: input.name }),
          ...code,
        },
        session,
      )) as { credential: Passkey };
      return finish.credential;
    },
    signInAnonymously: async () => {
      const session = sessionOf(await call('/auth/anonymous', {}));
      await save(session, 'SIGNED_IN');
      return session;
    },
    upgrade: async (input) => signedInWith(await call('/auth/upgrade', input, await signedIn())),
    mfa,
    signOut: async () => {
      await ready;
      // Wait for a refresh under way: its session is the one to end.
      await refreshing?.catch(() => {});
      const session = current ?? (await load());
      if (!session) return;
      try {
        await call('/auth/logout', undefined, session);
      } catch {
        // Forgotten here whatever the server said (an expired session is ended anyway).
      } finally {
        await save(null, 'SIGNED_OUT');
      }
    },
    getSession: () => fresh(),
    refreshSession: async () => {
      await ready;
      return refresh();
    },
    setSession: async ({ refreshToken }) => {
      await ready;
      await refreshing?.catch(() => {});
      const session = sessionOf(await call('/auth/refresh', { refreshToken }));
      await save(session, 'SIGNED_IN');
      return session;
    },
    getUser: async () => {
      const session = await fresh();
      if (!session) return null;
      const user = (await call('/auth/profile', undefined, session, 'GET')) as AuthUser;
      if (JSON.stringify(user) !== JSON.stringify(session.user) && current === session)
        await save({ ...session, user }, 'USER_UPDATED');
      return user;
    },
    onAuthStateChange: (listener) => {
      listeners.add(listener);
      void ready.then(() => {
        if (listeners.has(listener)) listener('INITIAL_SESSION', current);
      });
      return () => void listeners.delete(listener);
    },
  };

  return {
    auth,
    accessToken: async () => (await fresh())?.accessToken,
  };
}
