/**
 * OAuth / OIDC through svc against a REAL OpenID provider: npm `oidc-provider` on 127.0.0.1 (in a
 * child process, `fixtures/oidc-provider.mjs`: it is ESM and these suites are CommonJS), its
 * development login and consent pages driven by hand (fetch with redirect: 'manual', a small
 * cookie jar). svc listens on loopback too; the browser's part is played by this file.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import type { AuthEvent } from '@svc/auth';
import { oidc } from '@svc/auth';
import type { SvcServer } from '../src';
import { captureEvents, SECRET, sharedDatabase, start } from './helpers';

const APP = 'https://app.example.test/oauth/done';
const PREVIEW = 'https://*.preview.example.test/done';
const CLIENT_ID = 'svc-test-client';
const CLIENT_SECRET = 'svc-test-client-secret-0123456789';

/** The provider's accounts: id → claims. */
const ACCOUNTS: Record<string, { email: string; email_verified: unknown; name: string }> = {
  alice: { email: 'alice@example.test', email_verified: true, name: 'Alice' },
  bob: { email: 'bob@example.test', email_verified: 'true', name: 'Bob' },
  carol: { email: 'carol@example.test', email_verified: false, name: 'Carol' },
  dave: { email: 'dave@example.test', email_verified: 'true', name: 'Dave' },
};

const db = sharedDatabase();
let idp: ChildProcessWithoutNullStreams;
let issuer: string;
let server: SvcServer;
let events: AuthEvent[];

function oauthConfig(redirectUris: string[] = [APP, PREVIEW]) {
  return {
    providers: { idp: oidc({ issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }) },
    redirectUris,
  };
}

beforeAll(async () => {
  // The provider first: its issuer (with its port) goes into svc's config; then svc, whose
  // callback URL (with its port) the provider's client registration needs.
  idp = spawn(process.execPath, [path.join(__dirname, 'fixtures', 'oidc-provider.mjs')], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  idp.stderr.resume();
  const lines = readline.createInterface({ input: idp.stdout });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('oidc-provider did not answer in 20 s')),
        20_000,
      );
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      });
    });
  issuer = (await next()).issuer as string;

  server = await start(db.get(), {
    enableAuth: true,
    jwtSecret: SECRET,
    authConfig: { oauth: oauthConfig() },
  });
  events = captureEvents(server);

  idp.stdin.write(
    `${JSON.stringify({
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [`${server.url}/auth/oauth/idp/callback`],
          application_type: 'native',
        },
      ],
      accounts: ACCOUNTS,
    })}\n`,
  );
  expect(await next()).toEqual({ ready: true });
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (idp && idp.exitCode === null) {
    const exited = new Promise((resolve) => idp.once('exit', resolve));
    idp.stdin.end();
    const timer = setTimeout(() => idp.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }
});

/** A browser's cookie jar for the provider (names only: every path, one host). */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

async function get(url: string, jar?: Jar): Promise<Response> {
  const res = await fetch(url, {
    redirect: 'manual',
    headers: jar ? { cookie: jar.header() } : {},
    signal: AbortSignal.timeout(10_000),
  });
  jar?.take(res);
  return res;
}

async function postForm(url: string, form: Record<string, string>, jar: Jar): Promise<Response> {
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(10_000),
  });
  jar.take(res);
  return res;
}

const locationOf = (res: Response, base: string) => {
  const loc = res.headers.get('location');
  if (!loc) throw new Error(`expected a redirect, got ${res.status}`);
  return new URL(loc, base).href;
};

/**
 * The user at the provider: follows its redirects, signs in as `account` on the login page and
 * agrees on the consent page (or aborts there), until the provider sends the browser to svc's
 * callback; returns that URL. Bounded to 12 hops.
 */
async function atProvider(
  authorizeUrl: string,
  account: string,
  opts: { abort?: boolean } = {},
): Promise<string> {
  const jar = new Jar();
  let url = authorizeUrl;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(server.url)) return url;
    const res = await get(url, jar);
    if (res.status >= 300 && res.status < 400) {
      url = locationOf(res, url);
      continue;
    }
    const html = await res.text();
    expect(res.status).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error('no form on the provider page');
    const target = new URL(action.replace(/&amp;/g, '&'), url).href;
    if (opts.abort) {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (abort) {
        url = locationOf(await get(new URL(abort, url).href, jar), url);
        continue;
      }
    }
    const submit = html.includes('name="login"')
      ? await postForm(target, { prompt: 'login', login: account, password: 'any' }, jar)
      : await postForm(target, { prompt: 'consent' }, jar);
    url = locationOf(submit, target);
  }
  throw new Error('the provider did not send the browser back within 12 hops');
}

const verifier = () => randomBytes(32).toString('base64url');
const challengeOf = (v: string) => createHash('sha256').update(v).digest('base64url');

async function authorize(query: Record<string, string>): Promise<Response> {
  return get(`${server.url}/auth/oauth/idp/authorize?${new URLSearchParams(query)}`);
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely in assertions
type Json = any;

/** A JSON body, typed loosely for assertions. */
const json = async (res: Response): Promise<Json> => res.json();

async function token(body: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}/auth/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await json(res) };
}

/** authorize → provider → svc callback; returns svc's final redirect (to the app). */
async function signInAt(
  account: string,
  query: Record<string, string> = {},
  opts: { abort?: boolean } = {},
): Promise<URL> {
  const start = await authorize({ redirectUri: APP, ...query });
  expect(start.status).toBe(302);
  const callback = await atProvider(locationOf(start, server.url), account, opts);
  const back = await get(callback);
  expect(back.status).toBe(302);
  return new URL(locationOf(back, server.url));
}

describe('OAuth / OIDC code flow with a real oidc-provider', () => {
  test('authorize redirects to the provider with state, nonce and an unpadded S256 challenge', async () => {
    const res = await authorize({ redirectUri: APP });
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const to = new URL(locationOf(res, server.url));
    expect(to.origin).toBe(issuer);
    const q = to.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(CLIENT_ID);
    expect(q.get('redirect_uri')).toBe(`${server.url}/auth/oauth/idp/callback`);
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Stored hashed: the raw state is nowhere in the database.
    const { rows } = await db
      .get()
      .db.query<{ state_hash: string }>('select state_hash from svc_auth.oauth_states');
    expect(rows.some((r) => r.state_hash === q.get('state'))).toBe(false);
    expect(
      rows.some((r) => r.state_hash === createHash('sha256').update(q.get('state')!).digest('hex')),
    ).toBe(true);
  });

  test('first login creates the user, the second signs the same user in', async () => {
    const v = verifier();
    const back = await signInAt('alice', { codeChallenge: challengeOf(v) });
    expect(back.origin + back.pathname).toBe(APP);
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(back.searchParams.get('error')).toBeNull();

    const first = await token({ code, codeVerifier: v });
    expect(first.status).toBe(200);
    expect(first.body.user).toMatchObject({ email: 'alice@example.test', emailVerified: true });
    expect(first.body.token).toEqual(expect.any(String));
    expect(first.body.refreshToken).toEqual(expect.any(String));
    await server.auth!.settle();
    expect(
      events.filter((e) => e.eventType === 'IdentityCreated' && e.email === 'alice@example.test'),
    ).toHaveLength(1);

    const profile = await fetch(`${server.url}/auth/profile`, {
      headers: { authorization: `Bearer ${first.body.token}` },
    });
    expect((await json(profile)).id).toBe(first.body.user.id);

    // Second login: the same user, no second IdentityCreated.
    const again = await signInAt('alice');
    const second = await token({ code: again.searchParams.get('code') });
    expect(second.status).toBe(200);
    expect(second.body.user.id).toBe(first.body.user.id);
    await server.auth!.settle();
    expect(
      events.filter((e) => e.eventType === 'IdentityCreated' && e.email === 'alice@example.test'),
    ).toHaveLength(1);
    expect(
      events.filter(
        (e) => e.eventType === 'IdentityAuthenticated' && e.userId === first.body.user.id,
      ).length,
    ).toBeGreaterThanOrEqual(2);
    expect(await server.auth!.oauth.identities('alice@example.test')).toEqual([
      expect.objectContaining({ provider: 'idp', subject: 'alice', email: 'alice@example.test' }),
    ]);
  }, 60_000);

  test('email_verified as the string "true" counts; false leaves the new user unverified', async () => {
    const bob = await token({ code: (await signInAt('bob')).searchParams.get('code') });
    expect(bob.body.user).toMatchObject({ email: 'bob@example.test', emailVerified: true });
    const carol = await token({ code: (await signInAt('carol')).searchParams.get('code') });
    expect(carol.body.user).toMatchObject({ email: 'carol@example.test', emailVerified: false });
  }, 60_000);

  test('the code is single use', async () => {
    const code = (await signInAt('alice')).searchParams.get('code');
    expect((await token({ code })).status).toBe(200);
    const replay = await token({ code });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('INVALID_TOKEN');
  }, 60_000);

  test('the app PKCE: a wrong or missing codeVerifier is refused and burns the code', async () => {
    const v = verifier();
    const code = (await signInAt('alice', { codeChallenge: challengeOf(v) })).searchParams.get(
      'code',
    );
    const wrong = await token({ code, codeVerifier: verifier() });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_TOKEN');
    expect((await token({ code, codeVerifier: v })).status).toBe(401);

    const code2 = (await signInAt('alice', { codeChallenge: challengeOf(v) })).searchParams.get(
      'code',
    );
    expect((await token({ code: code2 })).body.code).toBe('INVALID_TOKEN');
    expect((await token({ code: 'x', codeVerifier: 'short' })).body.code).toBe('VALIDATION_ERROR');
    expect((await token({})).body.code).toBe('VALIDATION_ERROR');
  }, 60_000);

  test('a tampered or replayed state is refused with the error envelope', async () => {
    const start = await authorize({ redirectUri: APP });
    const callback = new URL(await atProvider(locationOf(start, server.url), 'alice'));
    const tampered = new URL(callback);
    const state = callback.searchParams.get('state')!;
    tampered.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`);
    const refused = await get(tampered.href);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('location')).toBeNull();
    expect((await json(refused)).code).toBe('INVALID_TOKEN');

    const missing = new URL(callback);
    missing.searchParams.delete('state');
    expect((await get(missing.href)).status).toBe(401);

    // The genuine callback still works once, and never twice.
    const ok = await get(callback.href);
    expect(ok.status).toBe(302);
    expect(new URL(locationOf(ok, server.url)).searchParams.get('code')).toBeTruthy();
    const replay = await get(callback.href);
    expect(replay.status).toBe(401);
    expect((await json(replay)).code).toBe('INVALID_TOKEN');
  }, 60_000);

  test('a redirectUri off the allow-list is refused at authorize', async () => {
    for (const redirectUri of [
      'https://evil.example.test/oauth/done',
      `${APP}/extra`,
      `${APP}#frag`,
      'https://a.b.preview.example.test/done',
      'https://preview.example.test/done',
      'javascript:alert(1)',
    ]) {
      const res = await authorize({ redirectUri });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect((await json(res)).code).toBe('VALIDATION_ERROR');
    }
    const none = await get(`${server.url}/auth/oauth/idp/authorize`);
    expect(none.status).toBe(400);
    // One wildcard label is allowed.
    expect(
      (await authorize({ redirectUri: 'https://pr-7.preview.example.test/done' })).status,
    ).toBe(302);
    expect((await authorize({ redirectUri: APP, codeChallenge: 'abc=' })).status).toBe(400);
    expect(
      (
        await authorize({
          redirectUri: APP,
          codeChallenge: challengeOf(verifier()),
          codeChallengeMethod: 'plain',
        })
      ).status,
    ).toBe(400);
    const unknown = await get(`${server.url}/auth/oauth/nope/authorize?redirectUri=${APP}`);
    expect(unknown.status).toBe(404);
  });

  test('a redirectUri no longer allowed is refused at the callback (another process, another list)', async () => {
    const other = await start(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { oauth: oauthConfig(['https://elsewhere.example.test/done']) },
    });
    try {
      const begun = await authorize({ redirectUri: APP });
      const callback = new URL(await atProvider(locationOf(begun, server.url), 'alice'));
      // The same callback, answered by the process whose allow-list lacks APP.
      const res = await get(`${other.url}${callback.pathname}${callback.search}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect((await json(res)).code).toBe('VALIDATION_ERROR');
    } finally {
      await other.close();
    }
  }, 60_000);

  test('a flow begun on one process finishes on another (state and code live in PostgreSQL)', async () => {
    const other = await start(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { oauth: oauthConfig() },
    });
    try {
      const v = verifier();
      const begun = await authorize({ redirectUri: APP, codeChallenge: challengeOf(v) });
      const callback = new URL(await atProvider(locationOf(begun, server.url), 'alice'));
      const back = await get(`${other.url}${callback.pathname}${callback.search}`);
      expect(back.status).toBe(302);
      const code = new URL(locationOf(back, other.url)).searchParams.get('code');
      // ...and the code is exchanged at the first process, once.
      expect((await token({ code, codeVerifier: v })).status).toBe(200);
      const replay = await fetch(`${other.url}/auth/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code, codeVerifier: v }),
      });
      expect(replay.status).toBe(401);
    } finally {
      await other.close();
    }
  }, 60_000);

  test('the user declining at the provider comes back as error=ACCESS_DENIED', async () => {
    const back = await signInAt('alice', {}, { abort: true });
    expect(back.origin + back.pathname).toBe(APP);
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('error')).toBe('ACCESS_DENIED');
  }, 60_000);

  test('an existing account is linked only on a verified provider email', async () => {
    // dave registered with a password and never verified the address.
    const reg = await fetch(`${server.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dave@example.test', password: 'a long passphrase 1' }),
    });
    expect(reg.status).toBe(201);
    const daveId = (await json(reg)).user.id;
    const linked = await token({ code: (await signInAt('dave')).searchParams.get('code') });
    expect(linked.status).toBe(200);
    expect(linked.body.user).toMatchObject({ id: daveId, emailVerified: true });
    // Whoever set that password never proved the address: it no longer signs in.
    const login = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dave@example.test', password: 'a long passphrase 1' }),
    });
    expect(login.status).toBe(401);

    // carol's provider does not vouch for her address: an existing carol account is not linked.
    await db.get().db.query("delete from svc_auth.oauth_identities where subject = 'carol'");
    const refused = await signInAt('carol');
    expect(refused.searchParams.get('code')).toBeNull();
    expect(refused.searchParams.get('error')).toBe('USER_ALREADY_EXISTS');
  }, 60_000);
});
