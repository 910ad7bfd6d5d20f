/**
 * Issue 30 in a real browser: Debian's chromium, driven by playwright-core (as the passkey test),
 * signs a user in with a magic link taken from the development inbox through the hosted page,
 * and resets a password through the hosted form, then signs in with the new password. Each page a
 * person sees is saved as /tmp/pages-*.png. Every wait is bounded. If chromium cannot start, the
 * tests fail: nothing here is skipped.
 */
import { base32Decode, totp } from '@svc/auth';
import type { Browser, Page } from 'playwright-core';
import { addVirtualAuthenticator, freePort, launchChromium } from '@svc/test-support';
import type { SvcServer } from '../src';
import { SECRET, build, sharedDatabase, start } from './helpers';

const WAIT = { timeout: 15_000 };
const PASSWORD = 'correct horse battery staple';
const db = sharedDatabase();

describe('hosted pages in Debian chromium', () => {
  let server: SvcServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await start(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: {
        branding: { appName: 'Acme Notes', brandColor: '#0f766e' },
        passwordMinLength: 12,
        cookie: true,
      },
    });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 800, height: 700 } })).newPage();
    page.setDefaultTimeout(15_000);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function post(path: string, body: unknown) {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: loose JSON for assertions
    return { status: res.status, body: (await res.json()) as any };
  }

  test('a magic link from the development inbox signs the user in through the hosted page', async () => {
    const email = `browser-magic-${Date.now()}@example.com`;
    expect((await post('/auth/register', { email, password: PASSWORD })).status).toBe(201);
    expect((await post('/auth/magic-link/request', { email })).status).toBe(200);
    await server.auth!.settle();

    await page.goto(`${server.url}/_/mail`, WAIT);
    await page.screenshot({ path: '/tmp/pages-inbox.png', fullPage: true });
    await page.getByRole('row').filter({ hasText: email }).getByRole('link').first().click(WAIT);
    await page.waitForURL(/\/_\/mail\/[0-9a-f-]+$/, WAIT);
    await page.locator('iframe').waitFor(WAIT);
    await page.screenshot({ path: '/tmp/pages-inbox-message.png', fullPage: true });
    // The link in the text part of the email.
    await page.locator('pre a[href^="/auth/magic?token="]').click(WAIT);
    await page.waitForURL(/\/auth\/magic\?token=/, WAIT);
    expect(await page.title()).toBe('Sign in to Acme Notes · Acme Notes');
    const button = page.getByRole('button', { name: 'Sign in' });
    // Focus lands on the one action (autofocus): the keyboard is enough.
    expect(
      await button.evaluate(
        (b) =>
          b ===
          (globalThis as unknown as { document: { activeElement: unknown } }).document
            .activeElement,
      ),
    ).toBe(true);
    await page.screenshot({ path: '/tmp/pages-magic.png', fullPage: true });
    // A reload (a GET, as a link scanner does) does not spend the link.
    await page.reload(WAIT);
    await button.click(WAIT);
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor(WAIT);
    expect(await page.textContent('main')).toContain(email);
    await page.screenshot({ path: '/tmp/pages-signed-in.png', fullPage: true });
    // The session cookie came with it: the profile route answers for this user.
    const cookies = await page.context().cookies(server.url);
    const token = cookies.find((c) => c.name === 'auth_token')?.value;
    expect(token).toBeTruthy();
    const profile = await fetch(`${server.url}/auth/profile`, {
      headers: { authorization: `Bearer ${decodeURIComponent(token as string)}` },
    });
    expect(((await profile.json()) as { email: string }).email).toBe(email);
    // Back to the page and again: the link is spent.
    await page.goBack(WAIT);
    await page.getByRole('button', { name: 'Sign in' }).click(WAIT);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor(WAIT);
  }, 60_000);

  test('a magic link of a user with TOTP continues to the two-step page', async () => {
    const email = `browser-mfa-${Date.now()}@example.com`;
    const reg = await post('/auth/register', { email, password: PASSWORD });
    const auth = { authorization: `Bearer ${reg.body.token}` };
    const enroll = await fetch(`${server.url}/auth/mfa/totp/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: '{}',
    });
    const key = base32Decode(((await enroll.json()) as { secret: string }).secret) as Uint8Array;
    const confirm = await fetch(`${server.url}/auth/mfa/totp/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ code: totp(key, Date.now()) }),
    });
    expect(confirm.status).toBe(200);
    expect((await post('/auth/magic-link/request', { email })).status).toBe(200);
    await server.auth!.settle();
    const inbox = (await (await fetch(`${server.url}/_/mail.json`)).json()) as {
      messages: { to: string; links: string[] }[];
    };
    const link = inbox.messages.find((m) => m.to === email)?.links[0] as string;
    await page.goto(`${server.url}${link}`, WAIT);
    await page.getByRole('button', { name: 'Sign in' }).click(WAIT);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor(WAIT);
    await page.getByLabel('Code').fill('000000' === totp(key, Date.now()) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click(WAIT);
    await page.getByRole('alert').waitFor(WAIT);
    await page.screenshot({ path: '/tmp/pages-mfa-error.png', fullPage: true });
    await page.getByLabel('Code').fill(totp(key, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click(WAIT);
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor(WAIT);
  }, 60_000);

  test('the verification link shows its result', async () => {
    const email = `browser-verify-${Date.now()}@example.com`;
    await post('/auth/register', { email, password: PASSWORD });
    await server.auth!.resendVerification(email);
    await server.auth!.settle();
    const inbox = (await (await fetch(`${server.url}/_/mail.json`)).json()) as {
      messages: { to: string; links: string[]; eventType: string }[];
    };
    const link = inbox.messages.find(
      (m) => m.to === email && m.eventType === 'EmailVerificationRequested',
    )?.links[0] as string;
    expect(link).toMatch(/^\/auth\/verify\?token=/);
    await page.goto(`${server.url}${link}`, WAIT);
    await page.getByRole('heading', { name: 'Email verified' }).waitFor(WAIT);
    await page.screenshot({ path: '/tmp/pages-verified.png', fullPage: true });
    await page.reload(WAIT);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor(WAIT);
    await page.screenshot({ path: '/tmp/pages-expired.png', fullPage: true });
  }, 60_000);

  test('a password reset through the hosted form, then a sign-in with the new password', async () => {
    const email = `browser-reset-${Date.now()}@example.com`;
    expect((await post('/auth/register', { email, password: PASSWORD })).status).toBe(201);
    expect((await post('/auth/reset', { email })).status).toBe(200);
    await server.auth!.settle();
    const inbox = (await (await fetch(`${server.url}/_/mail.json`)).json()) as {
      messages: { to: string; links: string[] }[];
    };
    const link = inbox.messages.find((m) => m.to === email)?.links[0] as string;
    expect(link).toMatch(/^\/auth\/reset\?token=/);

    await page.goto(`${server.url}${link}`, WAIT);
    await page.screenshot({ path: '/tmp/pages-reset.png', fullPage: true });
    await page.getByLabel('New password', { exact: true }).fill('too short');
    await page.getByLabel('Repeat the new password').fill('too short');
    await page.getByRole('button', { name: 'Set password' }).click(WAIT);
    const field = page.getByLabel('New password', { exact: true });
    await page.getByRole('alert').waitFor(WAIT);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').textContent()).toContain('12');
    await page.screenshot({ path: '/tmp/pages-reset-error.png', fullPage: true });

    const fresh = 'a much longer passphrase';
    await field.fill(fresh);
    await page.getByLabel('Repeat the new password').fill(fresh);
    await page.getByRole('button', { name: 'Set password' }).click(WAIT);
    await page.getByRole('heading', { name: 'Password changed' }).waitFor(WAIT);
    await page.screenshot({ path: '/tmp/pages-reset-done.png', fullPage: true });

    expect((await post('/auth/login', { email, password: PASSWORD })).status).toBe(401);
    const login = await post('/auth/login', { email, password: fresh });
    expect(login.status).toBe(200);
    expect(login.body.user.email).toBe(email);
  }, 60_000);
});

/** A free loopback port (the passkey origin must be known before the server starts). */
describe('hosted passkey page in Debian chromium with a virtual authenticator', () => {
  let server: SvcServer;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: {
        branding: { appName: 'Acme Notes', brandColor: '#0f766e' },
        webauthn: { origin, rpId: 'localhost', rpName: 'Acme Notes' },
        redirectAllowList: [`${origin}/health`],
      },
    });
    await server.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium({ host: 'localhost' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a registered passkey signs in through /auth/passkey and continues to redirectTo', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 700 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await addVirtualAuthenticator(context, page);
    const email = `browser-passkey-${Date.now()}@example.com`;
    const reg = await fetch(`${origin}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const { token } = (await reg.json()) as { token: string };

    await page.goto(`${origin}/auth/passkey?redirectTo=${encodeURIComponent('/health')}`, WAIT);
    // Register a passkey from this origin (as the app would, with its token).
    const registered = await page.evaluate(async (t) => {
      const g = globalThis as unknown as {
        fetch: typeof fetch;
        atob(s: string): string;
        btoa(s: string): string;
        navigator: {
          credentials: {
            create(o: unknown): Promise<{
              rawId: ArrayBuffer;
              response: { clientDataJSON: ArrayBuffer; attestationObject: ArrayBuffer };
            }>;
          };
        };
      };
      const dec = (s: string) =>
        Uint8Array.from(
          g.atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)),
          (c) => c.charCodeAt(0),
        ).buffer;
      const enc = (b: ArrayBuffer) =>
        g
          .btoa(String.fromCharCode(...new Uint8Array(b)))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
      const post = async (path: string, body: unknown) =>
        (
          await g.fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${t}` },
            body: JSON.stringify(body),
          })
        ).json();
      // biome-ignore lint/suspicious/noExplicitAny: loose JSON
      const begin = (await post('/auth/webauthn/register/begin', {})) as any;
      const o = begin.options;
      const cred = await g.navigator.credentials.create({
        publicKey: {
          ...o,
          challenge: dec(o.challenge),
          user: { ...o.user, id: dec(o.user.id) },
          // biome-ignore lint/suspicious/noExplicitAny: loose JSON
          excludeCredentials: o.excludeCredentials.map((c: any) => ({ ...c, id: dec(c.id) })),
        },
      });
      return post('/auth/webauthn/register/finish', {
        challengeId: begin.challengeId,
        credentialId: enc(cred.rawId),
        clientDataJSON: enc(cred.response.clientDataJSON),
        attestationObject: enc(cred.response.attestationObject),
        name: 'browser',
      });
    }, token);
    expect(registered).toMatchObject({ credential: { name: 'browser' } });

    await page.reload(WAIT);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor(WAIT);
    await page.screenshot({ path: '/tmp/pages-passkey.png', fullPage: true });
    await page.getByLabel('Email (optional)').fill(email);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click(WAIT);
    await page.waitForURL(/\/health#access_token=/, WAIT);
    const fragment = new URLSearchParams(new URL(page.url()).hash.slice(1));
    expect(fragment.get('type')).toBe('passkey');
    const profile = await fetch(`${origin}/auth/profile`, {
      headers: { authorization: `Bearer ${fragment.get('access_token')}` },
    });
    expect(((await profile.json()) as { email: string }).email).toBe(email);
    await context.close();
  }, 60_000);
});
