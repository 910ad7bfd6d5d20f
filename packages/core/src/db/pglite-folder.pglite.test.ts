import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedEmbeddedFolder } from '@svc/test-support';
import { openDatabase } from './index';

// An embedded database in a folder: its settings, its memory, and a first start cut short.
// The memory test runs the built package (`dist`) in a process of its own.
const DIST = path.join(__dirname, '..', '..', 'dist', 'index.js');
/** The module loader itself, which the main entry does not export. */
const DIST_PGLITE_MODULE = path.join(__dirname, '..', '..', 'dist', 'db', 'pglite-module.js');

const made: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pglite-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});
/**
 * A folder holding an embedded database already, for a test about an open one (the tests of a
 * first start make theirs).
 */
function databaseDir(): string {
  const dir = path.join(tempDir(), 'data');
  seedEmbeddedFolder(dir);
  return dir;
}

describe('embedded PGlite in a folder', () => {
  test('runs with small shared buffers and synchronous commits', async () => {
    const db = await openDatabase({ dataDir: databaseDir() });
    try {
      const { rows } = await db.query<{ sb: string; sc: string }>(
        "select current_setting('shared_buffers') as sb, current_setting('synchronous_commit') as sc",
      );
      expect(rows).toEqual([{ sb: '16MB', sc: 'on' }]);
    } finally {
      await db.close();
    }
  });

  test('a process that creates a new folder stays small (a bare PGlite keeps initdb in memory: ~830 MB)', () => {
    const script = `const { openDatabase } = require(process.argv[1]);
      (async () => {
        const db = await openDatabase({ dataDir: process.argv[2] });
        await db.query('create table t (n int)');
        const rss = Number(/VmRSS:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
        process.stdout.write(String(Math.round(rss)));
        await db.close();
      })();`;
    const dir = path.join(tempDir(), 'data');
    const r = spawnSync(process.execPath, ['-e', script, DIST, dir], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    const rss = Number(r.stdout);
    expect(rss).toBeGreaterThan(0);
    expect(rss).toBeLessThan(450);
    expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    expect(fs.existsSync(path.join(dir, '.svc-initdb'))).toBe(false);
  });

  test('PGlite gets its WebAssembly module compiled once per process, never read into a Buffer', () => {
    // A 10 MB Buffer, once freed, makes glibc keep up to 20 MB per V8 worker thread (pglite-module.ts).
    const script = `const fsp = require('node:fs/promises');
      const read = fsp.readFile;
      const files = [];
      fsp.readFile = (file, ...rest) => { files.push(String(file)); return read(file, ...rest); };
      require('node:module').syncBuiltinESMExports(); // what PGlite's import('fs/promises') sees
      const { openDatabase } = require(process.argv[1]);
      const { loadPGliteModule } = require(process.argv[3]);
      (async () => {
        const first = await openDatabase({ memory: true });
        const second = await openDatabase({ dataDir: process.argv[2] });
        const once = (await loadPGliteModule()) === (await loadPGliteModule());
        await first.query('select 1');
        await second.query('select 1');
        await first.close();
        await second.close();
        const count = (name) => files.filter((f) => f.endsWith(name)).length;
        process.stdout.write(JSON.stringify({ wasm: count('pglite.wasm'), data: count('pglite.data'), once }));
      })();`;
    const r = spawnSync(process.execPath, ['-e', script, DIST, databaseDir(), DIST_PGLITE_MODULE], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    const seen = JSON.parse(r.stdout) as { wasm: number; data: number; once: boolean };
    expect(seen.data).toBeGreaterThan(0); // PGlite reads its file-system bundle itself: the spy sees reads
    expect(seen).toMatchObject({ wasm: 0, once: true });
  });

  // A first start (initdb): 7 s alone, past Jest's 30 s in CI with every core busy. A test that
  // timed out would leave PGlite starting after its file ended, failing the next file in the worker.
  test('a first start cut short (no PG_VERSION yet) is started again cleanly', async () => {
    const dir = tempDir();
    // What a start killed half-way through moving the new files in leaves behind.
    fs.mkdirSync(path.join(dir, '.svc-initdb', 'base'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'base', '1'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'base', '1', 'junk'), 'half-moved');
    fs.writeFileSync(path.join(dir, 'postgresql.conf'), '# half-moved\n');
    const db = await openDatabase({ dataDir: dir });
    try {
      await db.query('create table t (n int)');
      await db.query('insert into t values (1)');
      expect((await db.query('select n from t')).rows).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
    expect(fs.existsSync(path.join(dir, 'base', '1', 'junk'))).toBe(false);
    expect(fs.existsSync(path.join(dir, '.svc-initdb'))).toBe(false);
  }, 120_000);
});
