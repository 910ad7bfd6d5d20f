/**
 * The admin UI (`/_/`, issue 30; docs/http.md, "The admin UI"): the prebuilt files of
 * @svc/admin-ui, read and gzipped once at start.
 *
 * - `GET /_/assets/<name>`: a file of the build (the manifest's list only), cached for a year
 *   (`immutable`: the names carry a hash of the content); any other name is 404.
 * - `GET /_/` and every other `GET /_/<path>` (the app's routes, a reload or a deep link):
 *   `index.html`, `no-cache`. `/_/mail` is left to others (the development inbox), and
 *   `/_/api/*` (the admin JSON routes) never falls back to the page.
 * - `GET /_` redirects to `/_/`.
 *
 * Every answer under `/_/` carries the page's CSP (`default-src 'self'`, no inline script or
 * style, `frame-ancestors 'none'`) and `X-Frame-Options: DENY` (for browsers without CSP 2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { commonError } from '@svc/core';
import { adminUiAssetsDir, adminUiManifest } from '@svc/admin-ui';

/** Where the admin UI lives. */
export const ADMIN_UI_PATH = '/_';

/** The admin UI's Content-Security-Policy: nothing but its own files, never framed. */
export const ADMIN_UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed names: cached for good. */
export const ADMIN_UI_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Paths under `/_/` that are not the app's: another feature serves them (or 404). */
const RESERVED = ['mail', 'api'];

interface StaticFile {
  readonly body: Buffer;
  readonly gzip: Buffer | undefined;
  readonly contentType: string;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

function load(dir: string, name: string): StaticFile {
  const body = fs.readFileSync(path.join(dir, name));
  const contentType = TYPES[path.extname(name)] ?? 'application/octet-stream';
  // Compress what compresses (text), once.
  const gzip = /^(text|image\/svg|application\/json)/.test(contentType)
    ? gzipSync(body, { level: 9 })
    : undefined;
  return { body, gzip: gzip && gzip.length < body.length ? gzip : undefined, contentType };
}

function headers(res: Response): void {
  res.setHeader('Content-Security-Policy', ADMIN_UI_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
}

function send(req: Request, res: Response, file: StaticFile, cacheControl: string): void {
  const gzipped =
    file.gzip && req.acceptsEncodings('gzip', 'identity') === 'gzip' ? file.gzip : undefined;
  const body = gzipped ?? file.body;
  res.statusCode = 200;
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Cache-Control', cacheControl);
  if (file.gzip) res.vary('Accept-Encoding');
  if (gzipped) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', body.length);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

export interface AdminUiFiles {
  readonly index: StaticFile;
  readonly assets: ReadonlyMap<string, StaticFile>;
}

/** The built files, read once; throws when @svc/admin-ui was not built. */
export function loadAdminUi(dir: string = adminUiAssetsDir): AdminUiFiles {
  const manifest = adminUiManifest(dir);
  return {
    index: load(dir, manifest.index),
    assets: new Map(manifest.assets.map((name) => [name, load(dir, name)])),
  };
}

/**
 * The static part of `/_/`, mounted at `/_`. `files` undefined (the package not built) answers
 * 503 on every page and asset, saying so.
 */
export function adminUiHandler(files: AdminUiFiles | undefined) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const sub = req.path; // below /_
    const first = sub.split('/')[1] ?? '';
    if (RESERVED.includes(first)) return next();
    if (req.baseUrl === ADMIN_UI_PATH && req.originalUrl.split('?')[0] === ADMIN_UI_PATH) {
      // `/_` itself: to the app's root, so relative navigation is the same everywhere.
      res.statusCode = 308;
      res.setHeader('Location', '/_/');
      res.setHeader('Content-Length', 0);
      res.end();
      return;
    }
    headers(res);
    const isAsset = first === 'assets';
    res.locals.route = isAsset ? '/_/assets/*' : '/_/*';
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return next(
        commonError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /_${sub}`, {
          headers: { Allow: 'GET, HEAD' },
        }),
      );
    }
    if (!files) {
      return next(
        commonError(
          'SERVICE_UNAVAILABLE',
          'the admin UI is not built (build @svc/admin-ui, or set [server] admin_ui = false)',
        ),
      );
    }
    if (isAsset) {
      const name = sub.slice('/assets/'.length);
      const file = files.assets.get(name);
      if (!file) return next(commonError('NOT_FOUND', `no admin UI asset /_${sub}`));
      return send(req, res, file, ADMIN_UI_ASSET_CACHE_CONTROL);
    }
    send(req, res, files.index, 'no-cache');
  };
}
