/**
 * svc notes in a real browser (Debian's chromium driven by playwright-core), started as `pnpm
 * start` starts it (`startDemo`), on an in-memory PGlite (the demo's own engine, whatever
 * SVC_TEST_DB says) and loopback only, reached at
 * `http://localhost:<port>` (the origin its passkeys and links are made for):
 *
 * - Ann signs up and writes a private note and a shared one (a title holding HTML stays text);
 *   Ben signs up and sees Ann's shared note only, without its buttons, and a write to it from
 *   his session changes nothing (the access policies hide and guard it, not the page).
 * - Ann signs in with an emailed link: the development inbox, the hosted page, back to her notes.
 * - Cleo registers a passkey, signs out and signs in with it (a CDP virtual authenticator).
 * - Dan turns on TOTP with the key shown as text, signs out, and signs in with a code.
 *
 * Nothing is fetched from elsewhere and the pages log no error (a CSP violation would be one).
 * Screenshots land in /tmp/demo-*.png; with SVC_DEMO_README_SCREENSHOTS set to a folder
 * (`$PWD/docs/images/demo` from the repository root) the README's are written there too.
 * If chromium cannot start, the tests fail: nothing here is skipped.
 */
import { base32Decode, hotp } from '@svc/auth';
import { createClient } from '@svc/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addVirtualAuthenticator, launchChromium } from '@svc/test-support';
import { type Demo, startDemo } from '../src/main';

const PASSWORD = 'correct horse battery staple';
const README_SCREENSHOTS = process.env.SVC_DEMO_README_SCREENSHOTS;
const README_SHOTS = new Set(['sign-in', 'notes', 'other-user', 'magic-link', 'account-totp']);
const WAIT = { timeout: 15_000 };

let demo: Demo;
let browser: Browser;
const contexts: BrowserContext[] = [];
let problems: string[] = [];

beforeAll(async () => {
  demo = await startDemo({
    port: 0,
    database: { memory: true },
    jwtSecret: 'demo-test-secret-0123456789-abcdefghij',
    logLevel: 'silent',
    authConfig: { bcryptRounds: 4, rateLimits: false },
  });
  browser = await launchChromium({ host: 'localhost', only: true });
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await demo?.close();
});

beforeEach(() => {
  problems = [];
});
afterEach(() => {
  // Refusals the pages meet on purpose are 4xx loads; nothing else may be logged.
  expect(problems.filter((p) => !/status of 4\d\d /.test(p))).toEqual([]);
});

/** A fresh browser (its own storage) on the demo, watched for errors and outside requests. */
async function open(path = '/'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  contexts.push(context);
  const page = await context.newPage();
  watch(page);
  const res = await page.goto(`${demo.origin}${path}`);
  expect(res?.status()).toBe(200);
  return { context, page };
}

function watch(page: Page): void {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(String(err)));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol !== 'data:' && url.origin !== demo.origin) problems.push(`outside: ${url}`);
  });
  page.on('dialog', (dialog) => void dialog.accept());
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/demo-${name}.png`, fullPage: true });
  if (README_SCREENSHOTS && README_SHOTS.has(name))
    await page.screenshot({ path: `${README_SCREENSHOTS}/${name}.png`, fullPage: true });
}

async function signUp(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Notes', level: 1 }).waitFor(WAIT);
  await expect(page.getByTestId('who').textContent()).resolves.toBe(email);
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to svc notes' }).waitFor(WAIT);
}

async function addNote(page: Page, title: string, body: string, shared: boolean): Promise<void> {
  const form = page.getByRole('form', { name: 'New note' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Text').fill(body);
  if (shared) await form.getByLabel(/Shared/).check();
  await form.getByRole('button', { name: 'Add note' }).click();
  await page.getByTestId('my-notes').getByRole('article', { name: title }).waitFor(WAIT);
}

const titles = (page: Page, list: 'my-notes' | 'shared-notes') =>
  page.getByTestId(list).getByRole('heading', { level: 3 }).allTextContents();

test('one origin: the pages under a strict CSP, every other path answered by svc', async () => {
  for (const path of ['/', '/notes', '/account']) {
    const res = await fetch(`${demo.origin}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('<div id="app"></div>');
    expect(html).not.toMatch(/<script\b[^>]*>[^<]/); // no inline script
  }
  // Opened by address, a page moves to the origin passkeys are made for.
  const port = new URL(demo.origin).port;
  const byAddress = await fetch(`http://127.0.0.1:${port}/notes?x=1`, { redirect: 'manual' });
  expect(byAddress.status).toBe(308);
  expect(byAddress.headers.get('location')).toBe(`${demo.origin}/notes?x=1`);
  await expect((await fetch(`${demo.origin}/health`)).json()).resolves.toEqual({ status: 'ok' });
  // The data plane wants a signed-in caller.
  const anonymous = await fetch(`${demo.origin}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'select Note' }),
  });
  expect(anonymous.status).toBe(401);
  const missing = await fetch(`${demo.origin}/assets/nothing.js`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  // A page's path takes no other method: svc answers, in its envelope.
  const posted = await fetch(`${demo.origin}/notes`, { method: 'POST' });
  expect(posted.status).toBe(404);
  expect(await posted.json()).toMatchObject({ code: 'NOT_FOUND' });
});

const ann = { email: 'ann@example.com' };
const XSS = '<img src=x onerror="window.__xss=1">';

test('Ann signs up and writes notes; Ben sees only her shared one and cannot change it', async () => {
  const { page } = await open();
  await page.getByRole('heading', { name: 'Sign in to svc notes' }).waitFor(WAIT);
  await shot(page, 'sign-in');
  await signUp(page, ann.email);
  await addNote(page, 'Groceries', 'oat milk, lemons, rye bread', false);
  await addNote(page, 'Team lunch on Friday', 'Noon at the usual place. Everyone welcome!', true);
  await addNote(page, XSS, 'a title that is only text', false);
  await expect(titles(page, 'my-notes')).resolves.toEqual([
    XSS,
    'Team lunch on Friday',
    'Groceries',
  ]);
  expect(await page.evaluate('window.__xss')).toBeUndefined();
  // Edit one, then delete the odd one.
  const groceries = page.getByTestId('my-notes').getByRole('article', { name: 'Groceries' });
  await groceries.getByRole('button', { name: 'Edit' }).click();
  await groceries.getByLabel('Text').fill('oat milk, lemons, rye bread, coffee');
  await groceries.getByRole('button', { name: 'Save' }).click();
  await page
    .getByTestId('my-notes')
    .getByRole('article', { name: 'Groceries' })
    .getByText('oat milk, lemons, rye bread, coffee')
    .waitFor(WAIT);
  const odd = page.getByTestId('my-notes').getByRole('article', { name: XSS });
  await odd.getByRole('button', { name: 'Delete' }).click();
  await odd.waitFor({ state: 'detached', ...WAIT });
  await shot(page, 'notes');

  // Ben, in another browser.
  const ben = await open();
  await signUp(ben.page, 'ben@example.com');
  await ben.page.getByTestId('shared-notes').getByRole('article').first().waitFor(WAIT);
  await expect(titles(ben.page, 'shared-notes')).resolves.toEqual(['Team lunch on Friday']);
  await expect(titles(ben.page, 'my-notes')).resolves.toEqual([]);
  const shared = ben.page.getByTestId('shared-notes').getByRole('article');
  await expect(shared.textContent()).resolves.toContain(`by ${ann.email}`);
  await expect(shared.getByRole('button').count()).resolves.toBe(0);
  await shot(ben.page, 'other-user');

  // The policies, not the page: Ben's own session (read from his browser's storage) can
  // neither see Ann's private note nor change her shared one.
  const stored = await ben.page.evaluate<string | null>("localStorage.getItem('svc-auth-session')");
  const client = createClient({ url: demo.origin, token: JSON.parse(stored!).accessToken });
  await expect(client.query('select Note.title')).resolves.toEqual(['Team lunch on Friday']);
  await expect(
    client.query(`update Note filter .title = 'Team lunch on Friday' set { title := 'Mine now' }`),
  ).resolves.toEqual([]);
  await expect(client.query('delete Note')).resolves.toEqual([]);
  await page.reload();
  await page.getByTestId('my-notes').getByRole('article').first().waitFor(WAIT);
  await expect(titles(page, 'my-notes')).resolves.toEqual(['Team lunch on Friday', 'Groceries']);
}, 90_000);

test('Ann signs in with an emailed link: the development inbox, the hosted page, back to her notes', async () => {
  const { page } = await open();
  await page.getByLabel('Email', { exact: true }).fill(ann.email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('status').getByText('/_/mail').waitFor(WAIT);
  await demo.svc.auth!.settle(); // the email is written
  await page.goto(`${demo.origin}/_/mail`);
  await page.getByRole('row').filter({ hasText: ann.email }).getByRole('link').first().click();
  await page.waitForURL(/\/_\/mail\/[0-9a-f-]+$/, WAIT);
  await shot(page, 'magic-link');
  await page.locator('pre a[href*="/auth/magic?token="]').click(WAIT);
  await page.waitForURL(/\/auth\/magic\?token=/, WAIT);
  await shot(page, 'hosted-page');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${demo.origin}/notes`, WAIT);
  await page.getByRole('heading', { name: 'Notes', level: 1 }).waitFor(WAIT);
  await expect(page.getByTestId('who').textContent()).resolves.toBe(ann.email);
  // The handed-over tokens are gone from the address.
  expect(new URL(page.url()).hash).toBe('');
  await page.getByTestId('my-notes').getByRole('article').first().waitFor(WAIT);
  await expect(titles(page, 'my-notes')).resolves.toEqual(['Team lunch on Friday', 'Groceries']);
}, 60_000);

test('Cleo registers a passkey, signs out, and signs in with it', async () => {
  const { context, page } = await open();
  await addVirtualAuthenticator(context, page);
  await signUp(page, 'cleo@example.com');
  await page.getByRole('link', { name: 'Account' }).click();
  await page.getByLabel('Name').fill('Laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('status').getByText('Passkey "Laptop" added').waitFor(WAIT);
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('heading', { name: 'Notes', level: 1 }).waitFor(WAIT);
  await expect(page.getByTestId('who').textContent()).resolves.toBe('cleo@example.com');
}, 60_000);

test('Dan turns on TOTP with the key shown as text, then signs in with a code', async () => {
  const { page } = await open();
  await signUp(page, 'dan@example.com');
  await page.getByRole('link', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent({ timeout: 15_000 }))!;
  const key = base32Decode(secret.replace(/\s+/g, '')) as Buffer;
  const step = () => Math.floor(Date.now() / 30_000);
  await shot(page, 'account-totp');
  await page.getByLabel('Code').fill(hotp(key, step()));
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  await page.getByRole('status').getByText('Two-factor sign-in is on').waitFor(WAIT);
  await signOut(page);
  await page.getByLabel('Email', { exact: true }).fill('dan@example.com');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Two-factor check' }).waitFor(WAIT);
  await shot(page, 'totp-step');
  // The next step's code: the one used to confirm may not be used again.
  await page.getByLabel('Code').fill(hotp(key, step() + 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Notes', level: 1 }).waitFor(WAIT);
  await expect(page.getByTestId('who').textContent()).resolves.toBe('dan@example.com');
}, 60_000);
