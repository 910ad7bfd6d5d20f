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
//   (`dataDir`) are untouched: the embedded-folder tests and the CLI's processes still run initdb.
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
let image;
class PGlite extends real.PGlite {
  constructor(dataDirOrOptions, options) {
    if (typeof dataDirOrOptions === 'string' || (dataDirOrOptions && dataDirOrOptions.dataDir) || (dataDirOrOptions && dataDirOrOptions.loadDataDir)) {
      super(dataDirOrOptions, options);
      return;
    }
    image ??= new Blob([fs.readFileSync(${JSON.stringify(IMAGE)})]);
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
