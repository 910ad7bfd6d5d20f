/**
 * Passkeys in a real browser (issue 12, "Done when"): Debian's chromium, driven by
 * playwright-core over CDP with a virtual authenticator (CTAP2, internal, resident keys, user
 * verification, automatic presence), registers a passkey and signs in — with an email and
 * usernameless — through a small page served by svc over http://localhost (a secure context).
 *
 * The page is served by a tiny route this test puts in front of the svc application (svc has no
 * page of its own to reuse): `GET /passkey-test` answers the page, everything else goes to svc.
 * If chromium cannot start, the tests fail: nothing here is skipped.
 */
import http from 'node:http';
import express from 'express';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { addVirtualAuthenticator, freePort, launchChromium } from '@svc/test-support';
import type { AuthEvent } from '@svc/auth';
import type { SvcServer } from '../src';
import { SECRET, build, captureEvents, sharedDatabase } from './helpers';

const db = sharedDatabase();

/** The test page: helpers the test calls with page.evaluate; binary values travel base64url. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>svc passkey test</title></head>
<body><h1>svc passkeys</h1>
<script>
const b64u = {
  decode(s) {
    const pad = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
    return Uint8Array.from(atob(pad), (c) => c.charCodeAt(0)).buffer;
  },
  encode(buf) {
    let s = '';
    for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
    return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  },
};
async function post(path, body, token) {
  const res = await fetch(path, {
    method: 'POST',
    headers: Object.assign({ 'content-type': 'application/json' }, token ? { authorization: 'Bearer ' + token } : {}),
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
window.passkeys = {
  async register(token, name) {
    const begin = await post('/auth/webauthn/register/begin', {}, token);
    if (begin.status !== 200) return { step: 'begin', ...begin };
    const o = begin.body.options;
    const cred = await navigator.credentials.create({ publicKey: {
      ...o,
      challenge: b64u.decode(o.challenge),
      user: { ...o.user, id: b64u.decode(o.user.id) },
      excludeCredentials: o.excludeCredentials.map((c) => ({ ...c, id: b64u.decode(c.id) })),
    } });
    const finish = await post('/auth/webauthn/register/finish', {
      challengeId: begin.body.challengeId,
      credentialId: b64u.encode(cred.rawId),
      clientDataJSON: b64u.encode(cred.response.clientDataJSON),
      attestationObject: b64u.encode(cred.response.attestationObject),
      name,
    }, token);
    return { step: 'finish', options: o, ...finish };
  },
  async login(email) {
    const begin = await post('/auth/webauthn/login/begin', email ? { email } : {});
    if (begin.status !== 200) return { step: 'begin', ...begin };
    const o = begin.body.options;
    const cred = await navigator.credentials.get({ publicKey: {
      ...o,
      challenge: b64u.decode(o.challenge),
      allowCredentials: o.allowCredentials.map((c) => ({ ...c, id: b64u.decode(c.id) })),
    } });
    const finish = await post('/auth/webauthn/login/finish', {
      challengeId: begin.body.challengeId,
      credentialId: b64u.encode(cred.rawId),
      clientDataJSON: b64u.encode(cred.response.clientDataJSON),
      authenticatorData: b64u.encode(cred.response.authenticatorData),
      signature: b64u.encode(cred.response.signature),
      userHandle: cred.response.userHandle ? b64u.encode(cred.response.userHandle) : null,
    });
    return { step: 'finish', options: o, ...finish };
  },
};
</script></body></html>`;

/** A free loopback port (the origin, and so the server's webauthn config, must name it up front). */
interface Reply {
  step: string;
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: loose JSON for assertions
  body: any;
  // biome-ignore lint/suspicious/noExplicitAny: loose JSON for assertions
  options?: any;
}

describe('passkeys in Debian chromium with a virtual authenticator', () => {
  let server: SvcServer;
  let front: http.Server;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  let events: AuthEvent[];

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { webauthn: { origin, rpId: 'localhost', rpName: 'svc browser test' } },
    });
    events = captureEvents(server);
    const app = express();
    app.get('/passkey-test', (_req, res) => {
      res.type('html').send(PAGE);
    });
    app.use(server.app);
    front = http.createServer(app);
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(port, '127.0.0.1', () => resolve());
    });
    // No skip: a chromium that cannot start fails every test below.
    browser = await launchChromium({ host: 'localhost' });
    context = await browser.newContext();
    page = await context.newPage();
    ({ cdp, authenticatorId } = await addVirtualAuthenticator(context, page));
    const res = await page.goto(`${origin}/passkey-test`, { timeout: 30_000 });
    expect(res?.status()).toBe(200);
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { isSecureContext: boolean }).isSecureContext,
      ),
    ).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await server?.close();
  });

  const register = (token: string, name: string) =>
    page.evaluate(
      ([t, n]) =>
        (
          globalThis as unknown as {
            passkeys: { register(t: string, n: string): Promise<unknown> };
          }
        ).passkeys.register(t, n),
      [token, name] as const,
    ) as Promise<Reply>;
  const login = (email?: string) =>
    page.evaluate(
      (e) =>
        (
          globalThis as unknown as { passkeys: { login(e?: string): Promise<unknown> } }
        ).passkeys.login(e ?? undefined),
      email ?? null,
    ) as Promise<Reply>;

  test('registers a passkey, then signs in with the email and without it (discoverable)', async () => {
    const email = `browser-${Date.now()}@example.com`;
    const signup = await fetch(`${origin}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery staple' }),
    });
    expect(signup.status).toBe(201);
    const { token, user } = (await signup.json()) as { token: string; user: { id: string } };

    const reg = await register(token, 'Chromium virtual authenticator');
    expect(reg).toMatchObject({ step: 'finish', status: 200 });
    expect(reg.body.credential).toMatchObject({ name: 'Chromium virtual authenticator' });
    const credentialId = reg.body.credential.id as string;

    // The authenticator holds it as a resident (discoverable) credential for rp "localhost".
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    expect(Buffer.from(credentials[0]!.credentialId, 'base64').toString('base64url')).toBe(
      credentialId,
    );

    const withEmail = await login(email);
    expect(withEmail).toMatchObject({ step: 'finish', status: 200 });
    expect(withEmail.options.allowCredentials).toEqual([{ type: 'public-key', id: credentialId }]);
    expect(withEmail.body.user.id).toBe(user.id);
    expect(typeof withEmail.body.token).toBe('string');

    const usernameless = await login();
    expect(usernameless).toMatchObject({ step: 'finish', status: 200 });
    expect(usernameless.options.allowCredentials).toEqual([]);
    expect(usernameless.body.user.id).toBe(user.id);

    // The session works: the profile of the passkey's token is the user's.
    const profile = await fetch(`${origin}/auth/profile`, {
      headers: { authorization: `Bearer ${usernameless.body.token}` },
    });
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { id: string }).id).toBe(user.id);

    // The authenticator's counter moved with each sign-in, and svc kept up.
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThanOrEqual(2);
    const list = await fetch(`${origin}/auth/webauthn/credentials`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const listed = (await list.json()) as {
      credentials: { id: string; lastUsedAt: string | null }[];
    };
    expect(listed.credentials.map((c) => c.id)).toEqual([credentialId]);
    expect(listed.credentials[0]!.lastUsedAt).not.toBeNull();

    // A second registration of the same authenticator is refused by the browser itself:
    // excludeCredentials carries the first credential.
    const again = await page.evaluate(
      (t) =>
        (
          globalThis as unknown as {
            passkeys: { register(t: string, n: string): Promise<unknown> };
          }
        ).passkeys
          .register(t, 'again')
          .then(
            () => 'created',
            (err: Error) => err.name,
          ),
      token,
    );
    expect(again).toBe('InvalidStateError');

    await server.auth!.settle();
    expect(events.filter((e) => e.eventType === 'webauthn_counter_regression')).toEqual([]);
  }, 120_000);

  test('a cloned authenticator (counter rewound in the browser) is refused with 401 INVALID_TOKEN and audited', async () => {
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const cred = credentials[0]!;
    expect(cred.signCount).toBeGreaterThan(0);
    // Rewind the counter: the same key now signs with a counter svc has already seen.
    await cdp.send('WebAuthn.removeCredential', {
      authenticatorId,
      credentialId: cred.credentialId,
    });
    await cdp.send('WebAuthn.addCredential', {
      authenticatorId,
      credential: { ...cred, signCount: 0 },
    });
    const r = await login();
    expect(r).toMatchObject({ step: 'finish', status: 401 });
    expect(r.body.code).toBe('INVALID_TOKEN');
    await server.auth!.settle();
    expect(events.filter((e) => e.eventType === 'webauthn_counter_regression')).toHaveLength(1);
  }, 60_000);
});
