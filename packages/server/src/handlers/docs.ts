import type { Request, Response } from 'express';
import { commonError } from '@svc/core';
import {
  DOCS_ASSET_CACHE_CONTROL,
  DOCS_PAGE_CSP,
  docsAsset,
  docsAssetsVersion,
  docsPage,
} from '@svc/rest';

export interface DocsOptions {
  /** The page's path; its assets are served below `<path>/assets/<version>/<name>`. */
  readonly path: string;
  /** The OpenAPI document the page renders. */
  readonly documentUrl: string;
  readonly title: string;
}

export const DEFAULT_DOCS: DocsOptions = {
  path: '/api/docs',
  documentUrl: '/api/openapi.json',
  title: 'svc API reference',
};

/**
 * `GET /api/docs` (the API reference page) and its assets. Public: the page holds no data; the
 * document and the data routes it calls keep their own gate. The page is built once; it is
 * never cached stale (`no-cache`: its asset URLs change with a new version), and it carries its
 * own Content-Security-Policy. Assets answer only for the current version and the allow-list of
 * @svc/rest (anything else is 404), cached for a year, gzipped (once) when the client accepts it.
 */
export function docsHandlers(options: DocsOptions = DEFAULT_DOCS) {
  const page = Buffer.from(
    docsPage({
      documentUrl: options.documentUrl,
      title: options.title,
      assetsPath: `${options.path}/assets`,
    }),
    'utf8',
  );
  const version = docsAssetsVersion();

  return {
    /** Route pattern of the assets, for the route table. */
    assetsRoute: `${options.path}/assets/:version/:name`,

    page(_req: Request, res: Response): void {
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Content-Security-Policy', DOCS_PAGE_CSP);
      res.setHeader('Content-Length', page.length);
      res.end(page);
    },

    asset(req: Request, res: Response): void {
      const { version: requested, name } = req.params as { version: string; name: string };
      const asset = requested === version ? docsAsset(name) : undefined;
      if (!asset) throw commonError('NOT_FOUND', `no API reference asset ${req.path}`);
      const gzipped =
        asset.gzip && req.acceptsEncodings('gzip', 'identity') === 'gzip' ? asset.gzip : undefined;
      const body = gzipped ?? asset.body;
      res.statusCode = 200;
      res.setHeader('Content-Type', asset.contentType);
      res.setHeader('Cache-Control', DOCS_ASSET_CACHE_CONTROL);
      if (asset.gzip) res.vary('Accept-Encoding');
      if (gzipped) res.setHeader('Content-Encoding', 'gzip');
      res.setHeader('Content-Length', body.length);
      res.end(body);
    },
  };
}
