// Test infrastructure for the PGlite pass (jest.preset.js): an in-memory PGlite starts from an
// image of a freshly initialised cluster instead of running initdb, which costs seconds each time
// and is most of what a test database or a test server on PGlite takes to start.
//
// - `prepare()` (Jest's globalSetup) makes, once per machine and PGlite version, the image (PGlite's
//   own `dumpDataDir` of a new in-memory cluster), and once per checkout a shim folder beside it:
//   the shim module
//   re-exports PGlite with one change, and every other file of PGlite's dist folder is linked
//   there, so `require.resolve('@electric-sql/pglite')` still finds `pglite.wasm` beside it.
// - The shim (`jest.preset.js` maps `@electric-sql/pglite` to it) gives a PGlite constructed with
//   neither `dataDir` nor `loadDataDir` the image as `loadDataDir`. The cluster is the one initdb
//   makes (same PGlite, same files); the start parameters are still the caller's. Folders
//   (`dataDir`) are untouched: a folder a test opens or a CLI process opens runs initdb itself.
// - `prepare()` also makes, once per machine and PGlite version, a folder as svc's first start
//   leaves it (PGlite's initdb on a folder, as core's `initialiseDataDir` runs it), and names it to
//   the tests in `SVC_TEST_PGLITE_FOLDER`. A test whose subject comes after the first start copies
//   it into its project (@svc/test-support `seedEmbeddedFolder`) instead of waiting out initdb
//   again: about 10 s of CPU each time, and the CLI's suites made about thirty folders a pass.
//
// Files are written under a temporary name and renamed, so packages running at once (turbo) never
// read half a file.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const REAL = require.resolve('@electric-sql/pglite', {
  paths: [path.join(ROOT, 'packages', 'core')],
});
const VERSION = require(path.join(path.dirname(REAL), '..', 'package.json')).version;
const HOME = path.join(os.tmpdir(), `svc-pglite-image-${VERSION}`);
const IMAGE = path.join(HOME, 'fresh-cluster.tar');
const FOLDER = path.join(HOME, 'fresh-folder');
// The shim links one checkout's PGlite files: a folder per checkout, so two checkouts on one
// machine (worktrees) never use each other's links, nor dangling ones once one is removed.
const CHECKOUT = require('node:crypto')
  .createHash('sha256')
  .update(REAL)
  .digest('hex')
  .slice(0, 12);
const SHIM = path.join(HOME, `shim-${CHECKOUT}`, 'index.cjs');

const SHIM_SOURCE = `// Made by scripts/jest/pglite-image.js: PGlite, a new in-memory one started from an image.
const fs = require('node:fs');
const real = require(${JSON.stringify(REAL)});
/**
 * The image, read once per test file. PGlite reads a loadDataDir with blob.arrayBuffer() (and
 * nothing else of it), which Node's Blob answers by streaming the 40 MB in chunks and joining
 * them: about a sixth of a start's CPU, and its garbage. This Blob answers with a copy of the
 * bytes it holds (PGlite may keep parts of the buffer in its file system: never the same twice).
 */
class ImageBlob extends Blob {
  #bytes;
  constructor(bytes) {
    super([]);
    this.#bytes = bytes;
  }
  get size() {
    return this.#bytes.byteLength;
  }
  async arrayBuffer() {
    const bytes = this.#bytes;
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }
}
let image;
class PGlite extends real.PGlite {
  constructor(dataDirOrOptions, options) {
    if (typeof dataDirOrOptions === 'string' || (dataDirOrOptions && dataDirOrOptions.dataDir) || (dataDirOrOptions && dataDirOrOptions.loadDataDir)) {
      super(dataDirOrOptions, options);
      return;
    }
    image ??= new ImageBlob(fs.readFileSync(${JSON.stringify(IMAGE)}));
    super({ ...(dataDirOrOptions || {}), loadDataDir: image }, options);
  }
}
module.exports = { ...real, PGlite };
`;

function writeAtomically(file, data) {
  const tmp = `${file}.${process.pid}.${Date.now()}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/** Runs PGlite's initdb on a new folder, aside, then renames it to FOLDER (unless another did). */
async function makeFolder() {
  const { PGlite } = require(REAL);
  const aside = `${FOLDER}.${process.pid}.${Date.now()}`;
  const pg = new PGlite({ dataDir: aside });
  await pg.waitReady;
  await pg.close();
  try {
    fs.renameSync(aside, FOLDER);
  } catch (err) {
    // Another package's Jest made it first (turbo runs several at once): theirs is the same.
    if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    fs.rmSync(aside, { recursive: true, force: true });
  }
}

async function prepare() {
  fs.mkdirSync(path.dirname(SHIM), { recursive: true });
  if (!fs.existsSync(IMAGE)) {
    const { PGlite } = require(REAL);
    const pg = new PGlite();
    await pg.waitReady;
    const dump = await pg.dumpDataDir('none');
    await pg.close();
    writeAtomically(IMAGE, Buffer.from(await dump.arrayBuffer()));
  }
  if (!fs.existsSync(path.join(FOLDER, 'PG_VERSION'))) await makeFolder();
  // Jest starts its workers after the global setup: they inherit this.
  process.env.SVC_TEST_PGLITE_FOLDER = FOLDER;
  const dist = path.dirname(REAL);
  for (const entry of fs.readdirSync(dist)) {
    if (entry === 'index.cjs') continue;
    const link = path.join(path.dirname(SHIM), entry);
    if (!fs.existsSync(link)) {
      try {
        fs.symlinkSync(path.join(dist, entry), link);
      } catch (err) {
        if (err.code !== 'EEXIST') throw err;
      }
    }
  }
  if (!fs.existsSync(SHIM) || fs.readFileSync(SHIM, 'utf8') !== SHIM_SOURCE)
    writeAtomically(SHIM, SHIM_SOURCE);
}

module.exports = prepare;
module.exports.SHIM = SHIM;
