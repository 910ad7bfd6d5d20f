/**
 * Issue 30 in a real browser: Debian's chromium, driven by playwright-core (as the passkey test),
 * signs a user in with a magic link taken from the development inbox through the hosted page,
 * and resets a password through the hosted form, then signs in with the new password. Each page a
 * person sees is saved as /tmp/pages-*.png. Every wait is bounded. If chromium cannot start, the
 * tests fail: nothing here is skipped.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import type { SvcServer } from '../src';
import { SECRET, sharedDatabase, start } from './helpers';

const CHROMIUM = '/usr/bin/chromium';
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
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      timeout: 60_000,
      args: ['--no-sandbox'],
    });
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
