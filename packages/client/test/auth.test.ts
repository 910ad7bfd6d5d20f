/**
 * `client.auth` against a real svc server with auth on (`createServer` over loopback HTTP, on
 * the engine under test: PGlite, or PostgreSQL with SVC_TEST_DB=postgres): every method, MFA with
 * real TOTP codes, magic links and codes delivered to a real SMTP peer, guests, the session in
 * its storages, and refreshing: many queries at once with a token about to expire make exactly
 * one `/auth/refresh` (counted by a fetch wrapper), also across two clients sharing one storage
 * (two tabs), and a refresh token replayed by a client without the shared lock ends in
 * INVALID_REFRESH_TOKEN and a signed-out client. Every wait is bounded.
 */
import { randomUUID } from 'node:crypto';
import { base32Decode, hotp, totp } from '@svc/auth';
import { testDatabaseKind } from '@svc/core/testing';
import type { SvcServer } from '@svc/server';
import { parseMail, startPeer, type Peer } from '@svc/smtp/testing';
import {
  AuthError,
  cookieStorage,
  createClient,
  memoryStorage,
  ServerError,
  type SvcError,
  type AuthChangeEvent,
  type AuthOptions,
  type AuthStorage,
  type Client,
  type CookieOptions,
  type Session,
} from '../src';
import { serveForTest, type TestServer } from './serve';

const SECRET = 'test-secret-0123456789-abcdefghijklmnop';
const PASSWORD = 'correct horse battery staple';
const BASE = 'http://127.0.0.1:8080/app';
const KEY = 'svc-auth-session';
/**
 * Access tokens live 68 s; the tests that need one "about to expire" refresh 63 s before. The
 * gap is both how long such a test waits for its token to near expiry and how long a fresh token
 * stays clear of the margin (less a second: `exp` counts whole seconds), so checks made right
 * after a refresh hold on a loaded machine too.
 */
const TOKEN_EXPIRY = 68;
const NEAR = 63;

const SDL = `
type Note {
  required body: str;
  required owner: uuid { default := global current_user_id; }
}
`;

let served: TestServer;
let server: SvcServer;
let peer: Peer;
beforeAll(async () => {
  peer = await startPeer();
  served = await serveForTest({
    schema: SDL,
    enableAuth: true,
    jwtSecret: SECRET,
    authConfig: {
      bcryptRounds: 4,
      rateLimits: false,
      allowImplicitSignup: true,
      tokenExpiry: TOKEN_EXPIRY,
      emailBaseUrl: BASE,
      smtp: { host: '127.0.0.1', port: peer.port, from: 'Acme <noreply@example.com>' },
    },
  });
  server = served.server;
}, 60_000);
afterAll(async () => {
  await served?.close();
  await peer?.close();
});

const email = (name = 'u') => `${name}-${randomUUID().slice(0, 8)}@example.com`;

/** A fetch that records the path of every request it sends (shared by the clients given it). */
function countingFetch() {
  const paths: string[] = [];
  const counted: typeof fetch = (input, init) => {
    paths.push(new URL(String(input)).pathname);
    return fetch(input, init);
  };
  return { fetch: counted, paths, count: (path: string) => paths.filter((p) => p === path).length };
}

function newClient(auth: AuthOptions = {}, fetcher?: typeof fetch): Client {
  return createClient({
    url: server.url,
    auth: { storage: memoryStorage(), ...auth },
    ...(fetcher ? { fetch: fetcher } : {}),
  });
}

/** Records a client's auth events (after its INITIAL_SESSION). */
function recordEvents(client: Client) {
  const events: AuthChangeEvent[] = [];
  client.auth.onAuthStateChange((event) => events.push(event));
  return events;
}

const whoAmI = (client: Client) => client.querySingle<string>('select <str>global current_user_id');

/** Waits (at most 10 s) until the session's access token is within `seconds` of expiring. */
async function untilExpiresWithin(session: Session, seconds: number) {
  const deadline = Date.now() + 10_000;
  while (session.expiresAt - Date.now() > seconds * 1000) {
    if (Date.now() > deadline) throw new Error('the token did not near its expiry in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Newest mail to `to`, after the server's deliveries settle. */
async function lastMailText(to: string) {
  await server.auth!.settle();
  const mail = peer.received.filter((m) => m.to.includes(to)).at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  return parseMail(mail.raw).text;
}

/** Expects `promise` to reject with an SvcError of class `cls` and `code`. */
async function rejects(promise: Promise<unknown>, cls: typeof SvcError, code: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(cls);
  expect((err as SvcError).code).toBe(code);
}

describe(`client.auth on ${testDatabaseKind()}`, () => {
  test('signUp signs in, stores the session, and queries carry its token', async () => {
    const storage = memoryStorage();
    const client = newClient({ storage });
    const events = recordEvents(client);
    const address = email();
    const session = await client.auth.signUp({ email: address, password: PASSWORD });
    expect(session).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      aal: 'aal1',
      isAnonymous: false,
      user: { email: address, emailVerified: false },
    });
    expect(session.expiresAt).toBeGreaterThan(Date.now() + 60_000);
    expect(session.expiresAt).toBeLessThanOrEqual(Date.now() + TOKEN_EXPIRY * 1000);
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_IN']);
    expect(JSON.parse(String(await storage.getItem(KEY)))).toEqual(session);
    expect(await whoAmI(client)).toBe(session.user.id);
    await client.execute("insert Note { body := 'mine' }");
    expect(await client.query('select Note.owner')).toEqual([session.user.id]);
    expect(await client.auth.getSession()).toEqual(session);
    expect(await client.auth.getUser()).toEqual(session.user);
    // A client without a session is anonymous to the server.
    expect(await whoAmI(newClient())).toBe(null);
  });

  test('signIn with email or username; a wrong password is ServerError INVALID_CREDENTIALS', async () => {
    const address = email();
    const username = `user_${randomUUID().slice(0, 8)}`;
    const first = await newClient().auth.signUp({ email: address, password: PASSWORD, username });
    const client = newClient();
    const byEmail = await client.auth.signIn({ email: address, password: PASSWORD });
    expect(byEmail.mfa).toBeNull();
    expect(byEmail.session?.user.id).toBe(first.user.id);
    const byName = await client.auth.signIn({ username, password: PASSWORD });
    expect(byName.session?.user).toMatchObject({ id: first.user.id, username });
    expect(await whoAmI(client)).toBe(first.user.id);

    const other = newClient();
    await rejects(
      other.auth.signIn({ email: address, password: 'wrong password entirely' }),
      ServerError,
      'INVALID_CREDENTIALS',
    );
    expect(await other.auth.getSession()).toBeNull();
    await rejects(
      other.auth.signUp({ email: address, password: PASSWORD }),
      ServerError,
      'USER_ALREADY_EXISTS',
    );
  });

  test('signOut ends the session at the server and forgets it, even when the server call fails', async () => {
    const storage = memoryStorage();
    const client = newClient({ storage });
    const session = await client.auth.signUp({ email: email(), password: PASSWORD });
    const events = recordEvents(client);
    await client.auth.signOut();
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_OUT']);
    expect(await storage.getItem(KEY)).toBeNull();
    expect(await client.auth.getSession()).toBeNull();
    expect(await whoAmI(client)).toBe(null);
    const profile = await fetch(`${server.url}/auth/profile`, {
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    expect(profile.status).toBe(401);

    // The server unreachable for the logout: forgotten here all the same.
    const failing: typeof fetch = (input, init) =>
      String(input).endsWith('/auth/logout')
        ? Promise.reject(new TypeError('network down'))
        : fetch(input, init);
    const offline = newClient({}, failing);
    await offline.auth.signUp({ email: email(), password: PASSWORD });
    await offline.auth.signOut();
    expect(await offline.auth.getSession()).toBeNull();
    // Signed out already: nothing to do, no error.
    await offline.auth.signOut();
  });

  test('a new client on the same storage (a reload) has the session: INITIAL_SESSION', async () => {
    const storage = memoryStorage();
    const first = newClient({ storage });
    const session = await first.auth.signUp({ email: email(), password: PASSWORD });
    const reloaded = newClient({ storage });
    const seen = await new Promise<[AuthChangeEvent, Session | null]>((resolve) =>
      reloaded.auth.onAuthStateChange((event, s) => resolve([event, s])),
    );
    expect(seen).toEqual(['INITIAL_SESSION', session]);
    expect(await whoAmI(reloaded)).toBe(session.user.id);
    // A value that is not a session (a foreign one, an older format) is no session.
    await storage.setItem(KEY, '{"not":"a session"}');
    expect(await newClient({ storage }).auth.getSession()).toBeNull();
  });

  test('cookieStorage keeps the session in a cookie through the framework methods', async () => {
    const jar = new Map<string, { value: string; options: CookieOptions }>();
    const cookies = {
      get: (name: string) => jar.get(name)?.value,
      set: (name: string, value: string, options: CookieOptions) =>
        void jar.set(name, { value, options }),
      remove: (name: string) => void jar.delete(name),
    };
    const client = newClient({ storage: cookieStorage(cookies, { secure: false }) });
    const session = await client.auth.signUp({ email: email(), password: PASSWORD });
    expect(jar.get(KEY)?.options).toEqual({
      path: '/',
      httpOnly: true,
      secure: false,
      sameSite: 'lax',
      maxAge: 604_800,
    });
    // The next request of the same browser: a new client over the same cookies.
    const next = newClient({ storage: cookieStorage(cookies) });
    expect(await whoAmI(next)).toBe(session.user.id);
    await next.auth.signOut();
    expect(jar.has(KEY)).toBe(false);
  });

  test('getUser answers the profile and emits USER_UPDATED when the stored user was stale', async () => {
    const storage = memoryStorage();
    const session = await newClient({ storage }).auth.signUp({
      email: email(),
      password: PASSWORD,
      metadata: { plan: 'free' },
    });
    await storage.setItem(
      KEY,
      JSON.stringify({ ...session, user: { ...session.user, metadata: { plan: 'old' } } }),
    );
    const client = newClient({ storage });
    const events = recordEvents(client);
    const user = await client.auth.getUser();
    expect(user).toEqual(session.user);
    expect(events).toEqual(['INITIAL_SESSION', 'USER_UPDATED']);
    expect((await client.auth.getSession())?.user.metadata).toEqual({ plan: 'free' });
    expect(await newClient().auth.getUser()).toBeNull();
  });

  test("setSession: a session handed over (the hosted pages' fragment) is exchanged for one of its own", async () => {
    const first = await newClient().auth.signUp({ email: email('handed'), password: PASSWORD });
    const client = newClient();
    const events = recordEvents(client);
    const taken = await client.auth.setSession({ refreshToken: first.refreshToken });
    expect(taken.user.id).toBe(first.user.id);
    expect(taken.refreshToken).not.toBe(first.refreshToken);
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_IN']);
    expect(await whoAmI(client)).toBe(first.user.id);
    // The handed-over token was spent by the exchange: a second taker is refused.
    await rejects(
      newClient().auth.setSession({ refreshToken: first.refreshToken }),
      ServerError,
      'INVALID_REFRESH_TOKEN',
    );
  });

  test('operations that need a session refuse without one: AuthError NOT_SIGNED_IN', async () => {
    const client = newClient();
    await rejects(client.auth.mfa.enrollTotp(), AuthError, 'NOT_SIGNED_IN');
    await rejects(
      client.auth.upgrade({ email: email(), password: PASSWORD }),
      AuthError,
      'NOT_SIGNED_IN',
    );
    await rejects(client.auth.refreshSession(), AuthError, 'NOT_SIGNED_IN');
  });

  test('passkeys outside a browser are refused clearly: AuthError PASSKEYS_UNSUPPORTED', async () => {
    const client = newClient();
    await rejects(client.auth.signInWithPasskey(), AuthError, 'PASSKEYS_UNSUPPORTED');
    await client.auth.signUp({ email: email(), password: PASSWORD });
    await rejects(client.auth.registerPasskey({ name: 'x' }), AuthError, 'PASSKEYS_UNSUPPORTED');
  });

  test('guests: signInAnonymously, then upgrade to the same user', async () => {
    const client = newClient();
    const guest = await client.auth.signInAnonymously();
    expect(guest.isAnonymous).toBe(true);
    expect(guest.user.email).toMatch(/@anonymous\.invalid$/);
    expect(await client.querySingle('select global current_user_is_anonymous')).toBe(true);
    expect(await whoAmI(client)).toBe(guest.user.id);
    const address = email('upgraded');
    const upgraded = await client.auth.upgrade({ email: address, password: PASSWORD });
    expect(upgraded.session).toMatchObject({
      isAnonymous: false,
      user: { id: guest.user.id, email: address },
    });
    expect(await client.querySingle('select global current_user_is_anonymous')).toBe(false);
    const again = await newClient().auth.signIn({ email: address, password: PASSWORD });
    expect(again.session?.user.id).toBe(guest.user.id);
  });

  test('magic link: requested by email, consumed with the mailed token (a new address signs up)', async () => {
    const address = email('link');
    const client = newClient();
    await client.auth.signInWithMagicLink({ email: address });
    const text = await lastMailText(address);
    const prefix = `${BASE}/auth/magic?token=`;
    const at = text.indexOf(prefix);
    expect(at).toBeGreaterThanOrEqual(0);
    const token = decodeURIComponent(
      /^[A-Za-z0-9_%.~-]+/.exec(text.slice(at + prefix.length))?.[0] ?? '',
    );
    const result = await client.auth.consumeMagicLink(token);
    expect(result.session?.user).toMatchObject({ email: address, emailVerified: true });
    expect(await whoAmI(client)).toBe(result.session?.user.id);
    // Single use.
    await rejects(newClient().auth.consumeMagicLink(token), ServerError, 'INVALID_TOKEN');
  });

  test('magic code: requested, then verified with the mailed code', async () => {
    const address = email('code');
    await newClient().auth.signUp({ email: address, password: PASSWORD });
    const client = newClient();
    await client.auth.requestMagicCode({ email: address });
    const code = /\b([0-9]{6})\b/.exec(await lastMailText(address))?.[1];
    expect(code).toMatch(/^[0-9]{6}$/);
    await rejects(
      client.auth.verifyMagicCode({
        email: address,
        code: code === '000000' ? '111111' : '000000',
      }),
      ServerError,
      'INVALID_TOKEN',
    );
    const result = await client.auth.verifyMagicCode({ email: address, code: code! });
    expect(result.session?.user).toMatchObject({ email: address, emailVerified: true });
    expect(await whoAmI(client)).toBe(result.session?.user.id);
  });

  test('MFA: enroll and confirm TOTP; sign-ins answer a challenge, completed with a TOTP or a recovery code', async () => {
    const address = email('mfa');
    const client = newClient();
    const signedUp = await client.auth.signUp({ email: address, password: PASSWORD });
    const { secret, otpauthUri } = await client.auth.mfa.enrollTotp();
    expect(otpauthUri).toContain(`secret=${secret}`);
    const key = base32Decode(secret) as Buffer;
    const step = Math.floor(Date.now() / 30_000);
    await client.auth.mfa.confirmTotp(totp(key, Date.now()));
    await client.auth.signOut();

    const challenged = await client.auth.signIn({ email: address, password: PASSWORD });
    expect(challenged.session).toBeNull();
    expect(challenged.mfa).toEqual({
      challengeToken: expect.any(String),
      methods: ['totp'],
      expiresAt: expect.any(String),
    });
    expect(await client.auth.getSession()).toBeNull();
    await rejects(
      client.auth.mfa.verifyTotp(
        challenged.mfa!,
        '000000' === hotp(key, step + 1) ? '111111' : '000000',
      ),
      ServerError,
      'INVALID_CREDENTIALS',
    );
    const events = recordEvents(client);
    // A code of a step not used yet (the next one, inside the ±1 window).
    const session = await client.auth.mfa.verifyTotp(challenged.mfa!, hotp(key, step + 1));
    expect(session).toMatchObject({ aal: 'aal2', user: { id: signedUp.user.id } });
    await new Promise((r) => setTimeout(r, 0));
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_IN']);
    expect(await whoAmI(client)).toBe(signedUp.user.id);

    // aal2: recovery codes without a code in the body.
    const codes = await client.auth.mfa.generateRecoveryCodes();
    expect(codes).toHaveLength(8);
    await client.auth.signOut();
    const again = await client.auth.signIn({ email: address, password: PASSWORD });
    expect(again.mfa?.methods).toEqual(['totp', 'recovery_code']);
    const byRecovery = await client.auth.mfa.verifyRecoveryCode(again.mfa!, codes[0]!);
    expect(byRecovery.aal).toBe('aal2');
    // A spent recovery code is refused.
    const third = await newClient().auth.signIn({ email: address, password: PASSWORD });
    await rejects(
      newClient().auth.mfa.verifyRecoveryCode(third.mfa!.challengeToken, codes[0]!),
      ServerError,
      'INVALID_CREDENTIALS',
    );

    await client.auth.mfa.disableTotp(codes[1]!);
    const plain = await newClient().auth.signIn({ email: address, password: PASSWORD });
    expect(plain.mfa).toBeNull();
    expect(plain.session?.user.id).toBe(signedUp.user.id);
  });

  test('many queries at once with a token about to expire: exactly one /auth/refresh', async () => {
    const counter = countingFetch();
    const client = newClient({ refreshMargin: NEAR }, counter.fetch);
    const events = recordEvents(client);
    const first = await client.auth.signUp({ email: email('many'), password: PASSWORD });
    await untilExpiresWithin(first, NEAR);
    const answers = await Promise.all(Array.from({ length: 20 }, () => whoAmI(client)));
    expect(answers).toEqual(Array(20).fill(first.user.id));
    expect(counter.count('/auth/refresh')).toBe(1);
    expect(counter.count('/query')).toBeGreaterThanOrEqual(20);
    const now = (await client.auth.getSession())!;
    expect(now.refreshToken).not.toBe(first.refreshToken);
    expect(now.user.id).toBe(first.user.id);
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_IN', 'TOKEN_REFRESHED']);
    // The new token is not near its expiry: more queries refresh nothing.
    await Promise.all(Array.from({ length: 5 }, () => whoAmI(client)));
    expect(counter.count('/auth/refresh')).toBe(1);
    // refreshSession asked twice at once: one exchange.
    const [a, b] = await Promise.all([client.auth.refreshSession(), client.auth.refreshSession()]);
    expect(a).toBe(b);
    expect(counter.count('/auth/refresh')).toBe(2);
  });

  test('two clients sharing one storage (two tabs): one refresh between them, events in both', async () => {
    const storage = memoryStorage();
    const counter = countingFetch();
    const tabA = newClient({ storage, refreshMargin: NEAR }, counter.fetch);
    const tabB = newClient({ storage, refreshMargin: NEAR }, counter.fetch);
    const eventsB = recordEvents(tabB);
    await tabB.auth.getSession();
    const first = await tabA.auth.signUp({ email: email('tabs'), password: PASSWORD });
    expect(eventsB).toEqual(['INITIAL_SESSION', 'SIGNED_IN']);
    expect(await tabB.auth.getSession()).toEqual(first);
    await untilExpiresWithin(first, NEAR);

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => whoAmI(i % 2 ? tabA : tabB)),
    );
    expect(answers).toEqual(Array(20).fill(first.user.id));
    expect(counter.count('/auth/refresh')).toBe(1);
    const [a, b] = await Promise.all([tabA.auth.getSession(), tabB.auth.getSession()]);
    expect(a).toEqual(b);
    expect(a!.refreshToken).not.toBe(first.refreshToken);
    expect(eventsB).toEqual(['INITIAL_SESSION', 'SIGNED_IN', 'TOKEN_REFRESHED']);

    await tabA.auth.signOut();
    expect(eventsB.at(-1)).toBe('SIGNED_OUT');
    expect(await tabB.auth.getSession()).toBeNull();
  });

  test('a stale tab refreshing under the shared lock adopts the session another tab stored', async () => {
    const storage = memoryStorage();
    const counter = countingFetch();
    const tabA = newClient({ storage, refreshMargin: NEAR }, counter.fetch);
    const first = await tabA.auth.signUp({ email: email('stale'), password: PASSWORD });
    // Tab B shares the items and the lock, but hears no events (as with a storage without them).
    const deaf: AuthStorage = { ...storage, subscribe: undefined };
    const tabB = newClient({ storage: deaf, refreshMargin: NEAR }, counter.fetch);
    expect((await tabB.auth.getSession())?.refreshToken).toBe(first.refreshToken);
    await untilExpiresWithin(first, NEAR);
    const refreshed = await tabA.auth.refreshSession();
    expect(counter.count('/auth/refresh')).toBe(1);
    // B still holds the retired refresh token; its next query adopts A's session instead.
    expect(await whoAmI(tabB)).toBe(first.user.id);
    expect(counter.count('/auth/refresh')).toBe(1);
    expect(await tabB.auth.getSession()).toEqual(refreshed);
  });

  test('replay safety: a retired refresh token presented again is INVALID_REFRESH_TOKEN and signs that client out', async () => {
    const counter = countingFetch();
    const tabA = newClient({ refreshMargin: NEAR }, counter.fetch);
    const first = await tabA.auth.signUp({ email: email('replay'), password: PASSWORD });
    // B has a copy of the session but neither A's storage nor its lock.
    const tabB = newClient({ storage: snapshotOf(first), refreshMargin: NEAR }, counter.fetch);
    const eventsB = recordEvents(tabB);
    await tabA.auth.refreshSession();
    await rejects(tabB.auth.refreshSession(), ServerError, 'INVALID_REFRESH_TOKEN');
    expect(counter.count('/auth/refresh')).toBe(2);
    expect(eventsB).toEqual(['INITIAL_SESSION', 'SIGNED_OUT']);
    expect(await tabB.auth.getSession()).toBeNull();
    expect(await whoAmI(tabB)).toBe(null);
  });

  test('a refresh the server refuses signs out: the query fails with its code, then runs anonymous', async () => {
    const client = newClient({ refreshMargin: NEAR });
    const events = recordEvents(client);
    const first = await client.auth.signUp({ email: email('ended'), password: PASSWORD });
    // The session is ended elsewhere (another device signs it out).
    await newClient({ storage: snapshotOf(first) }).auth.signOut();
    await untilExpiresWithin(first, NEAR);
    const err = await whoAmI(client).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServerError);
    expect(['INVALID_REFRESH_TOKEN', 'SESSION_EXPIRED']).toContain((err as SvcError).code);
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_IN', 'SIGNED_OUT']);
    expect(await client.auth.getSession()).toBeNull();
    expect(await whoAmI(client)).toBe(null);
  });

  test('withGlobals shares the auth of its client', async () => {
    const client = newClient();
    const session = await client.auth.signUp({ email: email(), password: PASSWORD });
    const scoped = client.withGlobals({});
    expect(scoped.auth).toBe(client.auth);
    expect(await whoAmI(scoped)).toBe(session.user.id);
  });

  test('a client with a token or service key sends that, not the session', async () => {
    const signedUp = await newClient().auth.signUp({ email: email(), password: PASSWORD });
    const client = createClient({
      url: server.url,
      token: signedUp.accessToken,
      auth: { storage: memoryStorage() },
    });
    await client.auth.signInAnonymously();
    expect(await whoAmI(client)).toBe(signedUp.user.id);
  });
});

/** A storage of its own holding a copy of `session` (another device, or a tab without the lock). */
function snapshotOf(session: Session): AuthStorage {
  const storage = memoryStorage();
  void storage.setItem(KEY, JSON.stringify(session));
  return storage;
}
