/**
 * The page and its assets. The page is a golden file (`__golden__/page.html`); `UPDATE_GOLDEN=1`
 * rewrites it; review the diff. The assets are the package's own build (`dist/docs-page`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DOCS_ASSET_NAMES, DOCS_PAGE_CSP, docsAsset, docsAssetsVersion, docsPage } from './index';

const BUILT = join(__dirname, '..', '..', 'dist', 'docs-page');

describe('docsAsset: the allow-list', () => {
  test('names exactly the files the page loads', () => {
    expect([...DOCS_ASSET_NAMES].sort()).toEqual(['svc-docs.css', 'svc-docs.js']);
  });

  test.each([
    ['svc-docs.js', 'text/javascript; charset=utf-8'],
    ['svc-docs.css', 'text/css; charset=utf-8'],
  ])('%s: the bytes of the build, as %s, also gzipped', (name, contentType) => {
    const asset = docsAsset(name);
    expect(asset?.contentType).toBe(contentType);
    expect(asset?.body.equals(readFileSync(join(BUILT, name)))).toBe(true);
    expect(asset && gunzipSync(asset.gzip).equals(asset.body)).toBe(true);
  });

  test('the script is small, and sets no HTML from text', () => {
    const js = docsAsset('svc-docs.js')?.body.toString('utf8') ?? '';
    expect(js.length).toBeGreaterThan(1000);
    expect(docsAsset('svc-docs.js')?.gzip.length).toBeLessThan(20 * 1024);
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
  });

  test('read once and kept', () => {
    expect(docsAsset('svc-docs.js')).toBe(docsAsset('svc-docs.js'));
  });

  test.each([
    '',
    '.',
    '..',
    'package.json',
    'index.html',
    'svc-docs.js.map',
    'swagger-ui-bundle.js',
    '../package.json',
    '../../package.json',
    '..%2Fpackage.json',
    './svc-docs.css',
    'svc-docs.css/',
    '/svc-docs.css',
    'SVC-DOCS.CSS',
    'svc-docs.css\0',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
  ])('%j is not served', (name) => {
    expect(docsAsset(name)).toBeUndefined();
  });
});

describe('docsAssetsVersion', () => {
  test('a hash of the assets', () => {
    expect(docsAssetsVersion()).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('docsPage', () => {
  const page = docsPage({
    documentUrl: '/api/openapi.json',
    title: 'svc API reference',
    assetsPath: '/api/docs/assets',
  });

  test('golden file', () => {
    // The version segment varies with the build: fixed for the file.
    const text = page.replaceAll(docsAssetsVersion(), '<version>');
    const file = join(__dirname, '__golden__', 'page.html');
    if (process.env.UPDATE_GOLDEN) writeFileSync(file, text);
    expect(existsSync(file)).toBe(true);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });

  test('no inline script: every script is a file of the allow-list', () => {
    const scripts = [...page.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts).toHaveLength(1);
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
