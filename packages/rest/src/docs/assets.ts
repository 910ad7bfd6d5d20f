import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { INIT_SCRIPT } from './init-script';

/** A file the API reference page loads: its bytes and `Content-Type`. */
export interface DocsAsset {
  readonly body: Buffer;
  readonly contentType: string;
  /**
   * The body gzipped, once, for clients that accept it (the bundle: 1.7 MB → 0.46 MB). Unset
   * for images, already compressed.
   */
  readonly gzip?: Buffer;
}

/** Our init script's file name; the other assets keep their swagger-ui-dist names. */
export const INIT_SCRIPT_NAME = 'svc-docs.js';

/**
 * The allow-list: the only names `docsAsset` answers. Anything else (other files of the
 * package, `../` paths, encoded separators) is not found, so a request cannot reach the disk.
 */
const TYPES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  [INIT_SCRIPT_NAME]: 'text/javascript; charset=utf-8',
};

export const DOCS_ASSET_NAMES: readonly string[] = Object.keys(TYPES);

/**
 * Assets never change under one URL (`/assets/<version>/<name>`), so browsers may keep them for
 * a year without asking again.
 */
export const DOCS_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const loaded = new Map<string, DocsAsset>();
let version: string | undefined;

/** The directory of the installed swagger-ui-dist (the renderer ships with this package). */
function swaggerUiDir(): string {
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

/**
 * The asset `name` of the allow-list, read once and kept; `undefined` for any other name.
 */
export function docsAsset(name: string): DocsAsset | undefined {
  if (!Object.hasOwn(TYPES, name)) return undefined;
  let asset = loaded.get(name);
  if (!asset) {
    const body =
      name === INIT_SCRIPT_NAME
        ? Buffer.from(INIT_SCRIPT, 'utf8')
        : readFileSync(join(swaggerUiDir(), name));
    const contentType = TYPES[name] as string;
    asset = contentType.startsWith('image/')
      ? { body, contentType }
      : { body, contentType, gzip: gzipSync(body, { level: constants.Z_BEST_COMPRESSION }) };
    loaded.set(name, asset);
  }
  return asset;
}

/**
 * The version segment of asset URLs: swagger-ui-dist's version (which fixes its files) and a
 * short hash of our init script, so a change to either gives new URLs that no cache holds.
 */
export function docsAssetsVersion(): string {
  if (version === undefined) {
    const pkg = JSON.parse(readFileSync(join(swaggerUiDir(), 'package.json'), 'utf8')) as {
      version: string;
    };
    const hash = createHash('sha256').update(INIT_SCRIPT).digest('hex').slice(0, 8);
    version = `${pkg.version}-${hash}`;
  }
  return version;
}
