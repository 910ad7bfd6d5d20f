/**
 * The API reference page in a real browser (issue 13): Debian's chromium, driven by
 * playwright-core, opens svc's own `GET /api/docs` (svc on 127.0.0.1, see HOST). The page loads with no console
 * error and no request leaving 127.0.0.1, lists the document's tags and operations, and
 * "Try it out" → "Execute" runs a real request against svc and shows its status and body. A
 * bearer token entered under "Authorize" is sent, and kept across a reload.
 *
 * The document: until `GET /api/openapi.json` is served by svc, this test answers that one path
 * itself, in front of svc, with FIXTURE (one GET operation on svc's real `/health`). Everything
 * else, the page and its assets included, is svc's. To use svc's document: drop the fixture route
 * in `beforeAll` and point `OPERATION` at a data route.
 * If chromium cannot start, the tests fail: nothing here is skipped.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import type { SvcServer } from '../src';
import { build, sharedDatabase } from './helpers';

const CHROMIUM = '/usr/bin/chromium';
/**
 * The name the browser uses for the server; chromium maps it to 127.0.0.1 and fails every other
 * name. Not `127.0.0.1` or `localhost` themselves: Swagger UI treats a document on those as
 * local (no online validator), and the page must call nothing outside on any host.
 */
const HOST = 'svc-under-test.test';
const db = sharedDatabase();

/** What the page must list: the document's tags and its component schemas (svc's types). */
const LISTED = { tags: ['Health'], schemas: ['Health'] };
/** The operation "Try it out" runs: its tag, its operationId, what svc answers. */
const OPERATION = { tag: 'Health', operationId: 'getHealth', status: 200, body: { status: 'ok' } };

const FIXTURE = {
  openapi: '3.1.0',
  info: { title: 'svc fixture document', version: '0' },
  tags: [{ name: 'Health', description: 'Probes' }],
  paths: {
    '/health': {
      get: {
        tags: ['Health'],
        operationId: 'getHealth',
        summary: 'Liveness',
        responses: {
          '200': {
            description: 'The server is up',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Health' } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Health: {
        type: 'object',
        properties: { status: { type: 'string', const: 'ok' } },
        required: ['status'],
      },
    },
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
  },
  security: [{ bearerAuth: [] }],
};

interface Observed {
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
  /** Every request the page made that was not to the server under test. */
  outside: string[];
  /** Every request the page made, in order. */
  requests: { url: string; authorization: string | undefined }[];
}

/**
 * Opens the API reference at `baseUrl` and waits until the document is rendered (its title is
 * shown). What the page does meanwhile and later is recorded in the returned `Observed`.
 */
async function openDocs(page: Page, baseUrl: string): Promise<Observed> {
  const observed: Observed = { errors: [], outside: [], requests: [] };
  const { host } = new URL(baseUrl);
  page.on('console', (msg) => {
    if (msg.type() === 'error') observed.errors.push(msg.text());
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
  await page.locator('.information-container .title').waitFor({ timeout: 30_000 });
  return observed;
}

/** The text of an element, trimmed (empty when there is none). */
async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

/** The operation block of `tag` / `operationId`, expanded. */
async function expandOperation(page: Page, tag: string, operationId: string) {
  const block = page.locator(`#operations-${tag}-${operationId}`);
  await block.waitFor({ timeout: 10_000 });
  if (!(await block.locator('.opblock-body').isVisible())) {
    await block.locator('.opblock-summary').first().click();
  }
  await block.locator('.opblock-body').waitFor({ timeout: 10_000 });
  return block;
}

/** "Try it out" (when not already on) → "Execute"; the status and body the page shows. */
async function execute(page: Page, tag: string, operationId: string) {
  const block = await expandOperation(page, tag, operationId);
  const tryOut = block.locator('button.try-out__btn', { hasText: 'Try it out' });
  if (await tryOut.isVisible()) await tryOut.click();
  await block.locator('button.execute').click();
  const response = block.locator('.live-responses-table tbody .response').first();
  await response.waitFor({ timeout: 10_000 });
  const status = await text(response.locator('.response-col_status'));
  const body = await text(response.locator('.response-col_description pre').first());
  return { status: Number(status), body };
}

describe('GET /api/docs in Debian chromium', () => {
  let server: SvcServer;
  let front: http.Server;
  let baseUrl: string;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    server = await build(db.get());
    const app = express();
    // The fixture document, until svc serves its own (see the header).
    app.get('/api/openapi.json', (_req, res) => {
      res.json(FIXTURE);
    });
    app.use(server.app);
    front = http.createServer(app);
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(0, '127.0.0.1', () => resolve());
    });
    baseUrl = `http://${HOST}:${(front.address() as AddressInfo).port}`;
    // No skip: a chromium that cannot start fails every test below.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      timeout: 60_000,
      // HOST is 127.0.0.1; every other name fails to resolve, so nothing could leave anyway.
      args: [`--host-resolver-rules=MAP ${HOST} 127.0.0.1, MAP * ~NOTFOUND`, '--no-sandbox'],
    });
  }, 120_000);

  beforeEach(async () => {
    context = await browser.newContext();
  });
  afterEach(async () => {
    await context?.close();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await server?.close();
  });

  test('loads with no console error and nothing fetched outside 127.0.0.1, and lists the operations', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, baseUrl);
    await expect(page.title()).resolves.toBe('svc API reference');
    await expect(text(page.locator('.information-container .title'))).resolves.toContain(
      FIXTURE.info.title,
    );
    await expect(
      page.locator('h3.opblock-tag').evaluateAll((tags) => tags.map((t) => t.dataset.tag)),
    ).resolves.toEqual(expect.arrayContaining(LISTED.tags));
    await expect(
      page.locator(`#operations-${OPERATION.tag}-${OPERATION.operationId}`).count(),
    ).resolves.toBe(1);
    const schemas = page.locator('section.models article[data-json-schema-level="0"]');
    await expect(
      schemas.locator(':scope > div > button .json-schema-2020-12__title').allInnerTexts(),
    ).resolves.toEqual(expect.arrayContaining(LISTED.schemas));
    // A schema opens, its properties rendered.
    const first = schemas.first();
    await first.locator('button.json-schema-2020-12-expand-deep-button').click();
    await first.locator('.json-schema-2020-12-property').first().waitFor({ timeout: 10_000 });
    // Everything the page loaded came from svc: the page, its assets, the document.
    const paths = observed.requests.map((r) => new URL(r.url).pathname);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/docs',
        expect.stringMatching(/^\/api\/docs\/assets\/[^/]+\/swagger-ui-bundle\.js$/),
        expect.stringMatching(/^\/api\/docs\/assets\/[^/]+\/svc-docs\.js$/),
        expect.stringMatching(/^\/api\/docs\/assets\/[^/]+\/swagger-ui\.css$/),
        '/api/openapi.json',
      ]),
    );
    expect(observed.outside).toEqual([]);
    expect(observed.errors).toEqual([]);
  }, 60_000);

  test('"Try it out" → "Execute" runs the request on svc and shows the status and body', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, baseUrl);
    // "Try it out" is on from the start (tryItOutEnabled): the button offers to cancel it.
    const block = await expandOperation(page, OPERATION.tag, OPERATION.operationId);
    await expect(text(block.locator('button.try-out__btn'))).resolves.toBe('Cancel');
    await block.locator('button.try-out__btn').click();
    await expect(text(block.locator('button.try-out__btn'))).resolves.toBe('Try it out');
    await expect(block.locator('button.execute').count()).resolves.toBe(0);
    const shown = await execute(page, OPERATION.tag, OPERATION.operationId);
    expect(shown.status).toBe(OPERATION.status);
    expect(JSON.parse(shown.body)).toEqual(OPERATION.body);
    expect(observed.outside).toEqual([]);
    expect(observed.errors).toEqual([]);
  }, 60_000);

  test('a deep link opens its operation; a bearer token entered once is sent and kept across a reload', async () => {
    const page = await context.newPage();
    const observed = await openDocs(page, baseUrl);
    await page.locator('button.authorize').click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog
      .locator('input[type=text], input[type=password]')
      .first()
      .fill('token-from-the-test');
    await dialog.locator('button.authorize').click();
    await dialog.locator('button.btn-done, button.close-modal').first().click();

    let shown = await execute(page, OPERATION.tag, OPERATION.operationId);
    expect(shown.status).toBe(OPERATION.status);
    const sent = () => observed.requests.filter((r) => new URL(r.url).pathname === '/health');
    expect(sent().map((r) => r.authorization)).toEqual(['Bearer token-from-the-test']);

    // Reload on the operation's deep link: it opens expanded, the token still set.
    await page.goto(`${baseUrl}/api/docs#/${OPERATION.tag}/${OPERATION.operationId}`);
    await page.reload();
    await page.locator('.information-container .title').waitFor({ timeout: 30_000 });
    await page
      .locator(`#operations-${OPERATION.tag}-${OPERATION.operationId} .opblock-body`)
      .waitFor({ timeout: 10_000 });
    shown = await execute(page, OPERATION.tag, OPERATION.operationId);
    expect(shown.status).toBe(OPERATION.status);
    expect(sent().map((r) => r.authorization)).toEqual([
      'Bearer token-from-the-test',
      'Bearer token-from-the-test',
    ]);
    expect(observed.outside).toEqual([]);
    expect(observed.errors).toEqual([]);
  }, 60_000);
});
