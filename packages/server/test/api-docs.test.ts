/**
 * `GET /api/docs` and its assets over HTTP (in-process): headers, the asset allow-list (every
 * traversal attempt is a 404 in the envelope), public with `requireAuth`, absent without REST.
 * The page in a real browser: api-docs-browser.postgres.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DOCS_PAGE_CSP, docsAssetsVersion } from '@svc/rest';
import type { SvcServer } from '../src';
import { SECRET, build, call, readJson, sharedDatabase } from './helpers';

const db = sharedDatabase();
// The page's files as @svc/rest's build writes them.
const BUILT = join(__dirname, '..', '..', 'rest', 'dist', 'docs-page');
const assets = () => `/api/docs/assets/${docsAssetsVersion()}`;

describe('GET /api/docs', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get());
  });
  afterAll(() => server.close());

  test('the page: HTML, never cached stale, under its own Content-Security-Policy', async () => {
    const res = await call(server, '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_PAGE_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).toContain('data-document-url="/api/openapi.json"');
    expect(html).toContain(`<script defer src="${assets()}/svc-docs.js"></script>`);
    expect(html).toContain(`<link rel="stylesheet" href="${assets()}/svc-docs.css">`);
  });

  test('HEAD: the headers without the body', async () => {
    const res = await call(server, '/api/docs', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await res.text()).toBe('');
  });

  test.each([
    ['svc-docs.css', 'text/css; charset=utf-8'],
    ['svc-docs.js', 'text/javascript; charset=utf-8'],
  ])('%s: the file of the build, cached for a year', async (name, contentType) => {
    const res = await call(server, `${assets()}/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(contentType);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(readFileSync(join(BUILT, name)))).toBe(true);
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
  });

  test('gzipped for a client that accepts it, and HEAD', async () => {
    const path = `${assets()}/svc-docs.js`;
    const file = readFileSync(join(BUILT, 'svc-docs.js'));
    const res = await call(server, path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
    const body = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(body.length).toBeLessThan(file.length / 2);
    expect(gunzipSync(body).equals(file)).toBe(true);

    const refused = await call(server, path, { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await refused.arrayBuffer()).equals(file)).toBe(true);

    const head = await call(server, path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(Number(head.headers.get('content-length'))).toBe(file.length);
    expect(await head.text()).toBe('');
  });

  test('svc-docs.js: the page script, pointing at nothing outside the page', async () => {
    const res = await call(server, `${assets()}/svc-docs.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await res.text();
    expect(script).toContain('svc-docs-token');
    expect(script).not.toMatch(/https?:/);
  });

  test.each([
    // Other files of the package, and the old renderer's names.
    'package.json',
    'index.html',
    'svc-docs.js.map',
    'swagger-ui-bundle.js',
    // Traversal, raw and encoded (the path is sent exactly as written).
    '../../package.json',
    '..%2F..%2Fpackage.json',
    '..%2f..%2f..%2f..%2fetc%2fpasswd',
    '%2e%2e%2fpackage.json',
    '..%5C..%5Cpackage.json',
    '%2Fetc%2Fpasswd',
    'svc-docs.css%00',
    // Names an object lookup could find.
    '__proto__',
    'constructor',
    'toString',
  ])('%s: 404 in the envelope', async (name) => {
    const res = await call(server, `${assets()}/${name}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await readJson(res)).toMatchObject({ code: 'NOT_FOUND' });
  });

  test('another version of the assets is not found (their URLs are immutable)', async () => {
    for (const version of ['0.0.0', '5.35.0', `${docsAssetsVersion()}x`, '..']) {
      const res = await call(server, `/api/docs/assets/${version}/svc-docs.css`);
      expect(res.status).toBe(404);
      expect((await readJson(res)).code).toBe('NOT_FOUND');
    }
  });

  test('other methods on /api/docs are left to the REST routes (a type routed `docs`)', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await call(server, '/api/docs', { method });
      expect(res.headers.get('content-security-policy')).toBeNull();
      expect(res.headers.get('allow')).not.toBe('GET, HEAD');
    }
  });

  test('assets take GET and HEAD only: 405 with Allow', async () => {
    const res = await call(server, `${assets()}/svc-docs.css`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await readJson(res)).code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('who sees the page', () => {
  let server: SvcServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('public with requireAuth: the page holds no data', async () => {
    server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET, requireAuth: true });
    expect((await call(server, '/api/docs')).status).toBe(200);
    expect((await call(server, `${assets()}/svc-docs.js`)).status).toBe(200);
    // The data routes keep their gate.
    expect((await call(server, '/api/User')).status).toBe(401);
  });

  test('404 when REST is disabled, as every /api path', async () => {
    server = await build(db.get(), { enableRest: false });
    for (const path of ['/api/docs', `${assets()}/svc-docs.css`]) {
      const res = await call(server, path);
      expect(res.status).toBe(404);
      expect((await readJson(res)).code).toBe('NOT_FOUND');
    }
  });
});
