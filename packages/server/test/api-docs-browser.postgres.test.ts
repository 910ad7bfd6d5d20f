/**
 * The API reference page in a real browser (issues 13 and 31): Debian's chromium, driven by
 * playwright-core, opens svc's own `GET /api/docs` (svc on 127.0.0.1, see HOST). The page loads
 * with no console error, no warning or error element and no request leaving svc, lists the
 * document's tags, operations (with the right article: "Create a Book", "Create an Author") and
 * schemas (with constraints as their keywords), and "Try it" → "Send" runs a real request
 * against svc and shows its status and body. With `requireAuth` (the document and the data
 * gated) the page asks for a token when the document is refused, and that one token, kept
 * across reloads, serves the document and every "Try it"; "Forget the token" drops it.
 * Screenshots: SVC_DOCS_SCREENSHOTS (default /tmp), `api-docs-*.png`.
 *
 * THE DOCUMENT: everything is svc's own: the page, its assets, `GET /api/openapi.json` (gated
 * by `requireAuth` like the data routes) and the data route "Try it out" calls (`GET /api/Book`,
 * over rows written through REST).
 *
 * If chromium cannot start, the tests fail: nothing here is skipped.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium } from '@svc/test-support';
import type { SvcServer } from '../src';
import { SECRET, build, call, sharedDatabase, signUp } from './helpers';

/**
 * The name the browser uses for svc; chromium maps it to 127.0.0.1 and fails every other name.
 * Not `127.0.0.1` or `localhost` themselves: the page must call nothing outside on any host.
 */
const HOST = 'svc-under-test.test';
const db = sharedDatabase();

// ---- THE DOCUMENT --------------------------------------------------------------------------
/** The schema the svc under test serves; its document is svc's own `GET /api/openapi.json`. */
const SDL = `module default {
  type Book { required title: str { constraint max_len_value(200); } pages: int32 { constraint min_value(1); } }
  type Author { required name: str; }
}`;
/** What the page must list: tags and component schemas (one per type in svc's document). */
const LISTED = {
  tags: ['Author', 'Book'],
  schemas: ['Author', 'Book'],
  summaries: ['Create an Author', 'Create a Book'],
};
const SCREENSHOTS = process.env.SVC_DOCS_SCREENSHOTS ?? '/tmp';
/** Every Book as `GET /api/Book` answers it, read after the rows are written. */
let books: unknown = [];
/** The operation "Try it out" runs, and what svc answers it. */
const OPERATION = {
  tag: 'Book',
  method: 'get',
  path: '/api/Book',
  operationId: 'Book.list',
  status: 200,
  body: (): unknown => books,
};
/** Readies svc's document and data: two Books written through REST, the list read back. */
async function serveDocument(
  _app: express.Express,
  server: SvcServer,
  _requireAuth: boolean,
  token: string,
): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (const book of [{ title: 'Dune', pages: 412 }, { title: "It's \\ 100% _done_" }]) {
    const res = await call(server, '/api/Book', {
      method: 'POST',
      headers,
      body: JSON.stringify(book),
    });
    expect(res.status).toBe(201);
  }
  const list = await call(server, '/api/Book', { headers });
  expect(list.status).toBe(200);
  books = await list.json();
}
// ---- end of THE DOCUMENT -------------------------------------------------------------------

interface Observed {
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
  /** Every request of the page to anywhere but svc. */
  outside: string[];
  /** Every request of the page, in order. */
  requests: { url: string; authorization: string | undefined }[];
}

/**
 * Opens the API reference of the svc at `baseUrl` and waits until the page has run (the
 * document rendered, or refused). What the page does from then on is recorded in `Observed`.
 */
async function openDocs(page: Page, baseUrl: string): Promise<Observed> {
  const observed: Observed = { errors: [], outside: [], requests: [] };
  const { host } = new URL(baseUrl);
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') observed.errors.push(msg.text());
  });
  page.on('pageerror', (err) => observed.errors.push(String(err)));
  page.on('request', (req) => {
    const url = new URL(req.url());
    observed.requests.push({ url: req.url(), authorization: req.headers().authorization });
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.host !== host) observed.outside.push(req.url());
  });
  const res = await page.goto(`${baseUrl}/api/docs`, { timeout: 30_000 });
  expect(res?.status()).toBe(200);
  await page
    .locator('#svc-docs .info h1, #svc-docs .doc-error')
    .first()
    .waitFor({ timeout: 30_000 });
  return observed;
}

/** Waits until the page has rendered the document (its title shows). */
async function rendered(page: Page): Promise<void> {
  await page.locator('#svc-docs .info h1').waitFor({ timeout: 30_000 });
}

/** The text of an element, trimmed (empty when there is none). */
async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

/** The block of OPERATION under its tag (found by method and path, as the page shows them). */
function operationBlock(page: Page): Locator {
  return page
    .locator(`section.tag[data-tag="${OPERATION.tag}"]`)
    .locator(`details.operation.${OPERATION.method}`)
    .filter({
      has: page.locator('summary code.path', { hasText: new RegExp(`^${OPERATION.path}$`) }),
    });
}

/** OPERATION's block, opened. */
async function expandOperation(page: Page): Promise<Locator> {
  const block = operationBlock(page);
  await block.waitFor({ timeout: 10_000 });
  if (!(await block.locator('.operation-body').isVisible())) {
    await block.locator('summary').click();
  }
  await block.locator('.operation-body').waitFor({ timeout: 10_000 });
  return block;
}

/** "Try it" → "Send" on OPERATION; the status and body shown. */
async function execute(page: Page): Promise<{ status: number; body: string }> {
  const block = await expandOperation(page);
  await block.locator('form.try button.send').click();
  const status = block.locator('.answer [data-answer-status]');
  await status.waitFor({ timeout: 10_000 });
  const body = await text(block.locator('.answer pre.answer-body'));
  return { status: Number(await text(status)), body };
}

/** The page's token form → the token → the reload. */
async function submitToken(page: Page, token: string): Promise<void> {
  const form = page.locator('#svc-token-form');
  await form.waitFor({ timeout: 30_000 });
  await form.locator('input#svc-token').fill(token);
  await Promise.all([page.waitForEvent('load'), form.locator('button[type=submit]').click()]);
}

/** A token through the page's form, and the document rendered with it. */
async function enterToken(page: Page, token: string): Promise<void> {
  await submitToken(page, token);
  await rendered(page);
}

/** No element of the page warns or reports an error. */
async function expectNoWarning(page: Page): Promise<void> {
  await expect(
    page.locator('.doc-error, .failed, [class*="warn"], [class*="error"], [role="alert"]').count(),
  ).resolves.toBe(0);
}

/** Every request of `observed` to `path`, by the Authorization it carried. */
function sentTo(observed: Observed, path: string): (string | undefined)[] {
  return observed.requests
    .filter((r) => new URL(r.url).pathname === path)
    .map((r) => r.authorization);
}

/** A svc on 127.0.0.1 with its document served (see THE DOCUMENT), and a user's token. */
async function startSvc(requireAuth: boolean) {
  const server = await build(db.get(), {
    enableAuth: true,
    jwtSecret: SECRET,
    requireAuth,
    schema: SDL,
    // For the test helpers only: they check each /auth answer against the gated document.
    serviceKey: 'docs-browser-test-service-key-0123456789',
  });
  const token = await signUp(server);
  const app = express();
  await serveDocument(app, server, requireAuth, token);
  app.use(server.app);
  const front = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    baseUrl: `http://${HOST}:${(front.address() as AddressInfo).port}`,
    token,
    async close() {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await server.close();
    },
  };
}

/** The assertions of a page that has loaded the document: what it lists, where it fetched. */
async function expectListed(page: Page, observed: Observed): Promise<void> {
  await expect(page.title()).resolves.toBe('svc API reference');
  await expect(
    page.locator('section.tag').evaluateAll((tags) => tags.map((t) => t.getAttribute('data-tag'))),
  ).resolves.toEqual(expect.arrayContaining(LISTED.tags));
  await expect(operationBlock(page).count()).resolves.toBe(1);
  await expect(
    page.locator('details.operation summary .summary').allTextContents(),
  ).resolves.toEqual(expect.arrayContaining(LISTED.summaries));
  const schemas = page.locator('section.schemas details.component');
  await expect(
    schemas.evaluateAll((s) => s.map((e) => e.getAttribute('data-schema'))),
  ).resolves.toEqual(expect.arrayContaining(LISTED.schemas));
  // A schema opens, its properties rendered, constraints as their keywords.
  const book = schemas.filter({ has: page.locator('summary', { hasText: /^Book$/ }) });
  await book.locator('summary').click();
  const title = book.locator('.property[data-property="title"]');
  await title.waitFor({ timeout: 10_000 });
  await expect(text(title.locator('[data-keyword="maxLength"]'))).resolves.toBe('max length 200');
  await expect(
    text(book.locator('.property[data-property="pages"] [data-keyword="minimum"]')),
  ).resolves.toBe('≥ 1');
  await book.screenshot({ path: `${SCREENSHOTS}/api-docs-schema.png` });
  await expectNoWarning(page);
  // Everything the page loaded came from svc: the page, its assets, the document.
  const paths = observed.requests.map((r) => new URL(r.url).pathname);
  expect(paths).toEqual(
    expect.arrayContaining([
      '/api/docs',
      expect.stringMatching(/^\/api\/docs\/assets\/[^/]+\/svc-docs\.js$/),
      expect.stringMatching(/^\/api\/docs\/assets\/[^/]+\/svc-docs\.css$/),
      '/api/openapi.json',
    ]),
  );
  expect(observed.outside).toEqual([]);
}

/** The console error chromium logs for a refused document (and nothing else may be logged). */
const REFUSED = expect.stringMatching(/status of 401/);

let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  // No skip: a chromium that cannot start fails every test below.
  browser = await launchChromium({ host: HOST, only: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await browser.newContext();
});
afterEach(async () => {
  await context?.close();
});

describe('GET /api/docs in Debian chromium, svc open (no requireAuth)', () => {
  let svc: Awaited<ReturnType<typeof startSvc>>;
  beforeAll(async () => {
    svc = await startSvc(false);
  });
  afterAll(() => svc?.close());

  test('loads with no console error and nothing fetched outside svc; lists the tags, the operation and the schemas', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, svc.baseUrl);
    await expectListed(page, observed);
    await expect(text(page.locator('#svc-token-form label'))).resolves.toMatch(/optional/);
    await page.screenshot({ path: `${SCREENSHOTS}/api-docs.png`, fullPage: true });
    expect(observed.errors).toEqual([]);
  }, 60_000);

  test('"Try it" → "Send" runs the request on svc and shows the status and body', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, svc.baseUrl);
    const shown = await execute(page);
    expect(shown.status).toBe(OPERATION.status);
    expect(JSON.parse(shown.body)).toEqual(OPERATION.body());
    expect(sentTo(observed, OPERATION.path)).toEqual([undefined]);
    await page.screenshot({ path: `${SCREENSHOTS}/api-docs-try-it.png`, fullPage: true });
    await operationBlock(page).screenshot({ path: `${SCREENSHOTS}/api-docs-operation.png` });
    expect(observed.outside).toEqual([]);
    expect(observed.errors).toEqual([]);
  }, 60_000);

  test('"Try it" of a create: the body prefilled from the schema, a refusal shown with its code', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, svc.baseUrl);
    const create = page
      .locator('section.tag[data-tag="Book"] details.operation.post')
      .filter({ has: page.locator('summary code.path', { hasText: /^\/api\/Book$/ }) });
    await create.locator('summary').click();
    const body = create.locator('form.try textarea[name="body"]');
    await expect(body.inputValue().then((v) => JSON.parse(v))).resolves.toEqual({
      title: 'string',
    });
    await body.fill(JSON.stringify({ title: 'x'.repeat(201) }));
    await create.locator('form.try button.send').click();
    const status = create.locator('.answer [data-answer-status]');
    await status.waitFor({ timeout: 10_000 });
    await expect(text(status)).resolves.toBe('409');
    const answer = JSON.parse(await text(create.locator('.answer pre.answer-body')));
    expect(answer.code).toBe('CONSTRAINT_VIOLATION');
    expect(observed.outside).toEqual([]);
    // The 409 of the request itself is chromium's only console line.
    expect(observed.errors).toEqual([expect.stringMatching(/status of 409/)]);
  }, 60_000);
});

describe('GET /api/docs in Debian chromium, svc with requireAuth', () => {
  let svc: Awaited<ReturnType<typeof startSvc>>;
  beforeAll(async () => {
    svc = await startSvc(true);
  });
  afterAll(() => svc?.close());

  test('the document refused, the page asks for a token; with it the document loads and is listed', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, svc.baseUrl);
    await expect(text(page.locator('#svc-token-form label'))).resolves.toMatch(
      /signed-in callers only/,
    );
    expect(sentTo(observed, '/api/openapi.json')).toEqual([undefined]);
    expect(observed.errors.splice(0)).toEqual([REFUSED]);

    await enterToken(page, svc.token);
    expect(sentTo(observed, '/api/openapi.json')).toEqual([undefined, `Bearer ${svc.token}`]);
    await expectListed(page, observed);
    await expect(text(page.locator('#svc-token-form label'))).resolves.toMatch(/kept token/);
    expect(observed.errors).toEqual([]);
  }, 60_000);

  test('"Try it" → "Send" sends the token entered once, and shows the status and body', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, svc.baseUrl);
    await enterToken(page, svc.token);
    const shown = await execute(page);
    expect(shown.status).toBe(OPERATION.status);
    expect(JSON.parse(shown.body)).toEqual(OPERATION.body());
    expect(sentTo(observed, OPERATION.path)).toEqual([`Bearer ${svc.token}`]);
    expect(observed.outside).toEqual([]);
    expect(observed.errors).toEqual([REFUSED]);
  }, 60_000);

  test('the token is kept across a reload; a deep link opens its operation', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, svc.baseUrl);
    await enterToken(page, svc.token);
    await page.goto(`${svc.baseUrl}/api/docs#/${OPERATION.tag}/${OPERATION.operationId}`);
    await page.reload();
    await rendered(page);
    // Open without a click: the deep link opened it.
    await operationBlock(page).locator('.operation-body').waitFor({ timeout: 10_000 });
    const shown = await execute(page);
    expect(shown.status).toBe(OPERATION.status);
    expect(sentTo(observed, OPERATION.path)).toEqual([`Bearer ${svc.token}`]);
    expect(observed.errors).toEqual([REFUSED]);
  }, 60_000);

  test('a wrong token is asked for again; "Forget the token" drops the kept token', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, svc.baseUrl);
    await submitToken(page, 'not-a-token');
    await page.locator('#svc-docs .doc-error').waitFor({ timeout: 30_000 });
    await expect(text(page.locator('#svc-token-form label'))).resolves.toMatch(/was refused/);
    expect(sentTo(observed, '/api/openapi.json')).toEqual([undefined, 'Bearer not-a-token']);
    await page.screenshot({ path: `${SCREENSHOTS}/api-docs-refused.png`, fullPage: true });

    await enterToken(page, svc.token);
    await Promise.all([
      page.waitForEvent('load'),
      page.locator('#svc-token-form button', { hasText: 'Forget the token' }).click(),
    ]);
    await page.locator('#svc-docs .doc-error').waitFor({ timeout: 30_000 });
    await expect(text(page.locator('#svc-token-form label'))).resolves.toMatch(
      /signed-in callers only/,
    );
    expect(sentTo(observed, '/api/openapi.json').at(-1)).toBeUndefined();
    expect(observed.outside).toEqual([]);
    expect(observed.errors).toEqual([REFUSED, REFUSED, REFUSED]);
  }, 60_000);
});
