/**
 * @svc/client in a real browser (issue 29, "Done when"): the package bundled for the browser with
 * esbuild, loaded by a small page in Debian's chromium (playwright-core over CDP, a virtual
 * authenticator: CTAP2, internal, resident keys, user verification), signs up, registers a
 * passkey, signs out, signs in with the passkey, queries, and after a reload still has its
 * session (kept in localStorage, the browser default). A screenshot of the page goes to
 * /tmp/client-browser.png. The page and the bundle are served beside svc on one loopback origin
 * (http://localhost, a secure context). If chromium cannot start, the test fails: nothing here
 * is skipped.
 */
import http from 'node:http';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createServer, type SvcServer } from '@svc/server';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addVirtualAuthenticator, freePort, launchChromium } from '@svc/test-support';

const SECRET = 'test-secret-0123456789-abcdefghijklmnop';
const SCREENSHOT = '/tmp/client-browser.png';

/** The page: the bundle as `svc`, one client as `client`, its auth events written into the page. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>@svc/client in the browser</title>
<style>body{font:14px system-ui;margin:2em}li{font-family:monospace}</style></head>
<body><h1>@svc/client</h1><p id="state">loading</p><ol id="log"></ol>
<script src="/client.js"></script>
<script>
const margin = new URLSearchParams(location.search).get('margin');
window.client = svc.createClient({
  url: location.origin,
  auth: margin ? { refreshMargin: Number(margin) } : {},
});
// The log lives in sessionStorage so the screenshot after the reload shows every step.
const lines = JSON.parse(sessionStorage.getItem('log') || '[]');
const show = (text) => {
  const li = document.createElement('li');
  li.textContent = text;
  document.getElementById('log').append(li);
};
lines.forEach(show);
const log = (text) => {
  lines.push(text);
  sessionStorage.setItem('log', JSON.stringify(lines));
  show(text);
};
log('page loaded');
client.auth.onAuthStateChange((event, session) => {
  document.getElementById('state').textContent = session
    ? 'signed in as ' + session.user.email + ' (' + session.aal + ')'
    : 'signed out';
  log(event + (session ? ' ' + session.user.email : ''));
});
window.log = log;
window.g = () => window;
</script></body></html>`;

/** What the page's `client` is, for the functions passed to page.evaluate. */
// biome-ignore lint/suspicious/noExplicitAny: the page's globals, loosely typed
type PageGlobals = { client: any; svc: any; log(text: string): void };
/** The page's own `g()` (functions given to page.evaluate run there, not here). */
declare function g(): PageGlobals;

describe('@svc/client in Debian chromium', () => {
  let tdb: TestDatabase;
  let server: SvcServer;
  let front: http.Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let context: BrowserContext;
  /** `/auth/refresh` requests the server received. */
  let refreshes = 0;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [path.resolve(__dirname, '../src/index.ts')],
      bundle: true,
      minify: true,
      format: 'iife',
      globalName: 'svc',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const script = bundle.outputFiles[0]!.text;

    const port = await freePort();
    origin = `http://localhost:${port}`;
    tdb = await createTestDatabase();
    server = await createServer({
      env: {},
      logLevel: 'silent',
      databaseInstance: tdb.db,
      schema: 'type Note { required body: str; }',
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: {
        bcryptRounds: 4,
        // Tokens live 68 s: the two-tab test refreshes them 63 s before (`?margin=63`), so it
        // waits about 5 s for one to near expiry, and a fresh one stays clear of the margin for
        // about 4 s (the `exp` claim counts whole seconds) while the tabs' queries run.
        tokenExpiry: 68,
        webauthn: { origin, rpId: 'localhost', rpName: 'svc client browser test' },
      },
    });
    front = http.createServer((req, res) => {
      if (req.url === '/auth/refresh') refreshes++;
      const route = req.url?.split('?')[0];
      if (route === '/app' || route === '/client.js') {
        const html = route === '/app';
        res.writeHead(200, {
          'content-type': html ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8',
        });
        res.end(html ? PAGE : script);
        return;
      }
      server.app(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(port, '127.0.0.1', () => resolve());
    });
    browser = await launchChromium({ host: 'localhost' });
    context = await browser.newContext();
    page = await context.newPage();
    await addVirtualAuthenticator(context, page);
    const res = await page.goto(`${origin}/app`, { timeout: 30_000 });
    expect(res?.status()).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await server?.close();
    await tdb?.dispose();
  });

  test('signs up, registers a passkey, signs in with it, queries, and keeps the session over a reload', async () => {
    const email = `browser-${Date.now()}@example.com`;
    const signedUp = (await page.evaluate(
      async (address) =>
        (
          await g().client.auth.signUp({ email: address, password: 'correct horse battery staple' })
        ).user,
      email,
    )) as { id: string; email: string };
    expect(signedUp.email).toBe(email);

    const passkey = (await page.evaluate(async () => {
      const p = await g().client.auth.registerPasskey({ name: 'Chromium virtual authenticator' });
      g().log(`passkey registered: ${p.name}`);
      return p;
    })) as { id: string; name: string };
    expect(passkey).toMatchObject({
      id: expect.any(String),
      name: 'Chromium virtual authenticator',
    });

    const afterSignOut = await page.evaluate(async () => {
      await g().client.auth.signOut();
      return g().client.auth.getSession();
    });
    expect(afterSignOut).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('svc-auth-session'))).toBeNull();

    // Usernameless: the authenticator offers its discoverable credential.
    const signedIn = (await page.evaluate(async () => {
      const r = await g().client.auth.signInWithPasskey();
      return { user: r.session.user, aal: r.session.aal, mfa: r.mfa };
    })) as { user: { id: string }; aal: string; mfa: unknown };
    expect(signedIn).toMatchObject({ user: { id: signedUp.id }, aal: 'aal2', mfa: null });

    const queried = await page.evaluate(async () => {
      const who = await g().client.querySingle('select <str>global current_user_id');
      await g().client.execute("insert Note { body := 'from the browser' }");
      g().log(`query: current_user_id = ${who}`);
      return who;
    });
    expect(queried).toBe(signedUp.id);

    await page.reload({ timeout: 30_000 });
    const reloaded = (await page.evaluate(async () => {
      const session = await g().client.auth.getSession();
      const who = await g().client.querySingle('select <str>global current_user_id');
      const notes = await g().client.query('select Note.body');
      g().log(`after reload: current_user_id = ${who}, notes = ${JSON.stringify(notes)}`);
      return { user: session?.user.id, who, notes };
    })) as { user: string; who: string; notes: string[] };
    expect(reloaded).toEqual({
      user: signedUp.id,
      who: signedUp.id,
      notes: ['from the browser'],
    });
    expect(await page.textContent('#state')).toBe(`signed in as ${email} (aal2)`);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  }, 120_000);

  test('a refusal arrives as the client error class with the envelope code', async () => {
    const refused = await page.evaluate(async () => {
      const { svc } = g();
      const c = svc.createClient({ url: location.origin, auth: { storageKey: 'second' } });
      try {
        await c.auth.signIn({ email: 'nobody@example.com', password: 'wrong password here' });
        return null;
      } catch (err) {
        const e = err as { name: string; code: string };
        return { name: e.name, code: e.code, isSvcError: err instanceof svc.SvcError };
      }
    });
    expect(refused).toEqual({ name: 'ServerError', code: 'INVALID_CREDENTIALS', isSvcError: true });
  }, 60_000);

  test('two tabs with a token about to expire: one refresh between them (navigator.locks)', async () => {
    const tabA = await context.newPage();
    const tabB = await context.newPage();
    await tabA.goto(`${origin}/app?margin=63`, { timeout: 30_000 });
    const expiresAt = (await tabA.evaluate(async () => {
      const s = await g().client.auth.signUp({
        email: `tabs-${Date.now()}@example.com`,
        password: 'correct horse battery staple',
      });
      return s.expiresAt;
    })) as number;
    await tabB.goto(`${origin}/app?margin=63`, { timeout: 30_000 });
    // Both tabs have navigator.locks, and B read A's session from localStorage.
    expect(await tabB.evaluate(() => typeof navigator.locks?.request)).toBe('function');
    const userB = await tabB.evaluate(async () => (await g().client.auth.getSession())?.user.id);
    expect(typeof userB).toBe('string');
    const deadline = Date.now() + 10_000;
    // Until the token is inside the 63 s margin (strictly: exactly 63 s left is not inside).
    while (expiresAt - Date.now() >= 63_000 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(expiresAt - Date.now()).toBeLessThan(63_000);

    const before = refreshes;
    const burst = (tab: Page) =>
      tab.evaluate(() =>
        Promise.all(
          Array.from({ length: 10 }, () =>
            g().client.querySingle('select <str>global current_user_id'),
          ),
        ),
      );
    const [a, b] = await Promise.all([burst(tabA), burst(tabB)]);
    expect(new Set([...a, ...b])).toEqual(new Set([userB]));
    expect(refreshes - before).toBe(1);
    const tokens = await Promise.all(
      [tabA, tabB].map((tab) =>
        tab.evaluate(async () => (await g().client.auth.getSession())?.refreshToken),
      ),
    );
    expect(tokens[0]).toBe(tokens[1]);
    await tabA.close();
    await tabB.close();
  }, 60_000);
});
