/**
 * The page and its assets. The page is a golden file (`__golden__/page.html`); `UPDATE_GOLDEN=1`
 * rewrites it; review the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DOCS_ASSET_NAMES, DOCS_PAGE_CSP, docsAsset, docsAssetsVersion, docsPage } from './index';
import { INIT_SCRIPT } from './init-script';

const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_VERSION = (
  JSON.parse(readFileSync(join(SWAGGER_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

describe('docsAsset: the allow-list', () => {
  test('names exactly the files the page loads', () => {
    expect([...DOCS_ASSET_NAMES].sort()).toEqual([
      'favicon-32x32.png',
      'svc-docs.js',
      'swagger-ui-bundle.js',
      'swagger-ui.css',
    ]);
  });

  test.each([
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['favicon-32x32.png', 'image/png'],
  ])('%s: the bytes of swagger-ui-dist, as %s', (name, contentType) => {
    const asset = docsAsset(name);
    expect(asset?.contentType).toBe(contentType);
    expect(asset?.body.equals(readFileSync(join(SWAGGER_DIR, name)))).toBe(true);
  });

  test('text assets are also kept gzipped; images are not', () => {
    for (const name of ['swagger-ui.css', 'swagger-ui-bundle.js', 'svc-docs.js']) {
      const asset = docsAsset(name);
      expect(asset?.gzip && gunzipSync(asset.gzip).equals(asset.body)).toBe(true);
    }
    expect(docsAsset('favicon-32x32.png')?.gzip).toBeUndefined();
  });

  test('svc-docs.js: the init script', () => {
    const asset = docsAsset('svc-docs.js');
    expect(asset?.contentType).toBe('text/javascript; charset=utf-8');
    expect(asset?.body.toString('utf8')).toBe(INIT_SCRIPT);
  });

  test('read once and kept', () => {
    expect(docsAsset('swagger-ui-bundle.js')).toBe(docsAsset('swagger-ui-bundle.js'));
  });

  test.each([
    '',
    '.',
    '..',
    'package.json',
    'index.html',
    'swagger-ui-bundle.js.map',
    'swagger-initializer.js',
    '../package.json',
    '../../package.json',
    '..%2Fpackage.json',
    './swagger-ui.css',
    'swagger-ui.css/',
    '/swagger-ui.css',
    'SWAGGER-UI.CSS',
    'swagger-ui.css\0',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
  ])('%j is not served', (name) => {
    expect(docsAsset(name)).toBeUndefined();
  });
});

describe('docsAssetsVersion', () => {
  test("swagger-ui-dist's version and a hash of the init script", () => {
    expect(docsAssetsVersion()).toMatch(
      new RegExp(`^${SWAGGER_VERSION.replace(/\./g, '\\.')}-[0-9a-f]{8}$`),
    );
  });
});

describe('docsPage', () => {
  const page = docsPage({
    documentUrl: '/api/openapi.json',
    title: 'svc API reference',
    assetsPath: '/api/docs/assets',
  });

  test('golden file', () => {
    // The version segment varies with swagger-ui-dist and the init script: fixed for the file.
    const text = page.replaceAll(docsAssetsVersion(), '<version>');
    const file = join(__dirname, '__golden__', 'page.html');
    if (process.env.UPDATE_GOLDEN) writeFileSync(file, text);
    expect(existsSync(file)).toBe(true);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });

  test('no inline script: every script is a file of the allow-list', () => {
    const scripts = [...page.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts).toHaveLength(2);
    for (const [, attributes, content] of scripts) {
      expect(content).toBe('');
      const src = /src="\/api\/docs\/assets\/([^/"]+)\/([^"]+)"/.exec(attributes ?? '');
      expect(src?.[1]).toBe(docsAssetsVersion());
      expect(DOCS_ASSET_NAMES).toContain(src?.[2]);
    }
  });

  test('the document URL and the title are escaped', () => {
    const hostile = docsPage({
      documentUrl: '/x"><script>alert(1)</script>',
      title: '</title><script>alert(2)</script>',
      assetsPath: '/api/docs/assets',
    });
    expect(hostile).not.toContain('<script>alert');
    expect(hostile).toContain(
      'data-document-url="/x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"',
    );
    expect(hostile).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt;</title>');
  });
});

describe('DOCS_PAGE_CSP', () => {
  const directives = new Map(
    DOCS_PAGE_CSP.split('; ').map((d) => {
      const [name, ...values] = d.split(' ');
      return [name, values] as const;
    }),
  );

  test('scripts and requests from the server only; nothing else by default', () => {
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
  });
});
