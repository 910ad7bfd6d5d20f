import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

/** A file the API reference page loads: its bytes and `Content-Type`. */
export interface DocsAsset {
  readonly body: Buffer;
  readonly contentType: string;
  /** The body gzipped, once, for clients that accept it. */
  readonly gzip: Buffer;
}

/**
 * The allow-list: the only names `docsAsset` answers, the page's script and style sheet as
 * `build.mjs` writes them (`dist/docs-page/`). Anything else (`../` paths, encoded separators,
 * other files) is not found, so a request cannot reach the disk.
 */
const TYPES: Readonly<Record<string, string>> = {
  'svc-docs.js': 'text/javascript; charset=utf-8',
  'svc-docs.css': 'text/css; charset=utf-8',
};

export const DOCS_ASSET_NAMES: readonly string[] = Object.keys(TYPES);

/**
 * Assets never change under one URL (`/assets/<version>/<name>`), so browsers may keep them for
 * a year without asking again.
 */
export const DOCS_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const loaded = new Map<string, DocsAsset>();
let version: string | undefined;

/**
 * Where the built page lives: `dist/docs-page` of this package, two levels above this file
 * both as source (`src/docs`) and as built code (`dist/docs`).
 */
function pageDir(): string {
  return join(__dirname, '..', '..', 'dist', 'docs-page');
}

function read(name: string): Buffer {
  try {
    return readFileSync(join(pageDir(), name));
  } catch (err) {
    throw new Error(
      `@svc/rest: the API reference page is not built (${name}; run the package's build)`,
      { cause: err },
    );
  }
}

/**
 * The asset `name` of the allow-list, read once and kept; `undefined` for any other name.
 */
export function docsAsset(name: string): DocsAsset | undefined {
  if (!Object.hasOwn(TYPES, name)) return undefined;
  let asset = loaded.get(name);
  if (!asset) {
    const body = read(name);
    asset = {
      body,
      contentType: TYPES[name] as string,
      gzip: gzipSync(body, { level: constants.Z_BEST_COMPRESSION }),
    };
    loaded.set(name, asset);
  }
  return asset;
}

/**
 * The version segment of asset URLs: a short hash of every asset's bytes, so a new build gives
 * new URLs that no cache holds.
 */
export function docsAssetsVersion(): string {
  if (version === undefined) {
    const hash = createHash('sha256');
    for (const name of DOCS_ASSET_NAMES) hash.update(name).update(read(name));
    version = hash.digest('hex').slice(0, 12);
  }
  return version;
}
