import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedEmbeddedFolder } from '@svc/test-support';
import {
  DataDirLockedError,
  LOCK_FILE_NAME,
  openDatabase,
  readDataDirLock,
  type Database,
} from './index';

// The lock on an embedded folder, with real processes. Child processes load the built package
// (`dist`, as other packages' tests do): build core before running these.
const DIST = path.join(__dirname, '..', '..', 'dist', 'index.js');
/** The lock itself, which the main entry does not export. */
const DIST_LOCK = path.join(__dirname, '..', '..', 'dist', 'db', 'lock.js');

const made: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-lock-'));
  made.push(dir);
  return dir;
}
/**
 * A folder holding an embedded database already, for a test that opens it: the lock is the
 * subject, not the first start (pglite-folder.pglite.test.ts checks that).
 */
function databaseDir(): string {
  const dir = tempDir();
  seedEmbeddedFolder(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function writeLock(dir: string, holder: Record<string, unknown>): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), JSON.stringify(holder));
}

/** A pid no process has: one that just exited (the kernel does not reuse it at once). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

/** A child process running `script` with `module` as argv[1]; resolves with it once it prints `ready`. */
function child(script: string, args: string[] = [], module = DIST) {
  const proc = spawn(process.execPath, ['-e', script, module, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`child not ready in 60 s: ${out} ${err}`)),
      60_000,
    );
    proc.stdout.on('data', () => {
      if (out.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`child exited with ${code} before ready: ${out} ${err}`));
    });
  });
  return { proc, ready, exited, out: () => out, err: () => err };
}

describe('the lock on an embedded data folder', () => {
  const open: Database[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });

  test('a second process is refused at once with the holder named; the folder is free after the holder closes', async () => {
    const dir = databaseDir();
    const holder = child(
      `const { openDatabase } = require(process.argv[1]);
       (async () => {
         const db = await openDatabase({ dataDir: process.argv[2] });
         await db.query('create table t (n int)');
         await db.query('insert into t values (1)');
         process.stdout.write('ready\\n');
         process.stdin.on('data', async () => { await db.close(); process.exit(0); });
       })();`,
      [dir],
    );
    await holder.ready;
    const started = Date.now();
    const err = await openDatabase({ dataDir: dir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataDirLockedError);
    const locked = err as DataDirLockedError;
    expect(locked.code).toBe('DATA_DIR_LOCKED');
    expect(locked.holder?.pid).toBe(holder.proc.pid);
    expect(locked.message).toContain(`pid ${holder.proc.pid}`);
    expect(locked.message).toContain(dir);
    expect(locked.message).toMatch(/single-process database: wait for it to finish or stop it/);
    expect(Date.now() - started).toBeLessThan(2000); // at once, no waiting for the holder
    expect(readDataDirLock(dir)?.pid).toBe(holder.proc.pid);

    holder.proc.stdin.write('close\n');
    expect(await holder.exited).toBe(0);
    expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
    expect(readDataDirLock(dir)).toBeUndefined();
    const db = await openDatabase({ dataDir: dir });
    open.push(db);
    expect((await db.query('select n from t')).rows).toEqual([{ n: 1 }]);
    // The folder opened in a child and opened again here: two embedded starts, past jest's 30 s
    // once CI runs three packages' suites at once (seen: 126 s for the file, with initdb then).
  }, 120_000);

  test('a folder that cannot be made is one clear error naming it, not a file-system stack', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'file'), '');
    const where = path.join(dir, 'file', 'data');
    await expect(openDatabase({ dataDir: where })).rejects.toMatchObject({
      code: 'DATA_DIR_UNUSABLE',
      message: `cannot use ${where} as the embedded data folder (a part of the path is a file, not a folder): choose another folder with --data-dir / SVC_DATA_DIR, or fix its permissions`,
    });
  });

  test('the same process cannot open a folder twice; after close it can again', async () => {
    const dir = databaseDir();
    const first = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: path.join(dir, '.', '') })).rejects.toThrow(
      /already open in this process/,
    );
    await first.close();
    const again = await openDatabase({ dataDir: dir });
    open.push(again);
    await again.ping();
  });

  test('a lock left by a dead process is taken over; so is one naming our own pid from an earlier life', async () => {
    const dir = databaseDir();
    writeLock(dir, {
      pid: deadPid(),
      hostname: os.hostname(),
      startedAt: '2020-01-01T00:00:00Z',
      command: 'svc serve',
      token: 'old',
    });
    expect(readDataDirLock(dir)).toBeUndefined();
    const db = await openDatabase({ dataDir: dir });
    const lock = JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8')) as {
      pid: number;
      token: string;
    };
    expect(lock.pid).toBe(process.pid);
    expect(lock.token).not.toBe('old');
    await db.close();

    // A container restarted after kill -9 often runs as the same pid (1): not a live holder.
    writeLock(dir, {
      pid: process.pid,
      hostname: os.hostname(),
      startedAt: '2020-01-01T00:00:00Z',
      command: 'svc serve',
      token: 'earlier-life',
    });
    const again = await openDatabase({ dataDir: dir });
    open.push(again);
    await again.ping();
  });

  test('a lock naming a live process is refused; on Linux, one whose pid was reused by another program is taken over', async () => {
    const dir = databaseDir();
    // The parent of this test runner is alive and is not the holder of anything.
    writeLock(dir, {
      pid: process.ppid,
      hostname: os.hostname(),
      startedAt: '2020-01-01T00:00:00Z',
      command: 'svc migrate',
      token: 't',
    });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
      `is in use by svc migrate (pid ${process.ppid}`,
    );
    expect(readDataDirLock(dir)?.pid).toBe(process.ppid);

    if (process.platform === 'linux') {
      // Same pid, but the process now running under it started at another time: not the holder.
      writeLock(dir, {
        pid: process.ppid,
        hostname: os.hostname(),
        startedAt: '2020-01-01T00:00:00Z',
        command: 'svc serve',
        token: 't',
        procStart: 1,
      });
      const db = await openDatabase({ dataDir: dir });
      open.push(db);
      await db.ping();
    }
  });

  test('a lock file that is not ours to read is refused with what to do', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), 'garbage');
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
      /cannot be read .*If no process is using the folder, delete that file/,
    );
  });

  test('a temp file left by a process that died while taking the lock is removed by the next opener; a live one is kept', async () => {
    const dir = databaseDir();
    // A real crash: the child has written its temp file and is killed (-9) before linking it in.
    const crashed = child(
      `const fs = require('node:fs');
       const { DataDirLock } = require(process.argv[1]);
       fs.linkSync = () => { process.stdout.write('ready\\n'); for (;;); };
       DataDirLock.acquire(process.argv[2]);`,
      [dir],
      DIST_LOCK,
    );
    await crashed.ready;
    crashed.proc.kill('SIGKILL');
    await crashed.exited;
    const crashedTemp = `${LOCK_FILE_NAME}.${crashed.proc.pid}.`;
    expect(
      fs.readdirSync(dir).filter((n) => n.startsWith(crashedTemp) && n.endsWith('.tmp')),
    ).toHaveLength(1);

    // Others: a dead process's half-written one, one of our own pid from an earlier life, and
    // one of a live process that is taking the lock right now (kept: it is about to link it).
    const dead = deadPid();
    fs.writeFileSync(path.join(dir, `${LOCK_FILE_NAME}.${dead}.0a1b2c.tmp`), '{"pid": ');
    const earlier = {
      pid: process.pid,
      hostname: os.hostname(),
      startedAt: '2020-01-01T00:00:00Z',
      command: 'svc serve',
      token: 'earlier-life',
    };
    fs.writeFileSync(
      path.join(dir, `${LOCK_FILE_NAME}.${process.pid}.earlier.tmp`),
      JSON.stringify(earlier),
    );
    const live = {
      pid: process.ppid,
      hostname: os.hostname(),
      startedAt: new Date().toISOString(),
      command: 'svc serve',
      token: 'live',
    };
    const liveTemp = `${LOCK_FILE_NAME}.${process.ppid}.live.tmp`;
    fs.writeFileSync(path.join(dir, liveTemp), JSON.stringify(live));
    // Not ours: a file that only looks alike is never touched.
    fs.writeFileSync(path.join(dir, 'svc.lock.notes.tmp'), 'mine');

    const db = await openDatabase({ dataDir: dir });
    open.push(db);
    const left = fs.readdirSync(dir).filter((n) => n.startsWith(`${LOCK_FILE_NAME}.`));
    expect(left.sort()).toEqual([liveTemp, 'svc.lock.notes.tmp'].sort());
  });

  test('of several processes taking over one stale lock at the same moment, exactly one wins', async () => {
    const dir = tempDir();
    const script = `const { DataDirLock } = require(process.argv[1]);
      const at = Number(process.argv[3]);
      process.stdout.write('ready\\n');
      (async () => {
        while (Date.now() < at) await new Promise((r) => setTimeout(r, 1));
        try { await DataDirLock.acquire(process.argv[2]); process.stdout.write('won\\n'); }
        catch (e) { process.stdout.write(e.code === 'DATA_DIR_LOCKED' ? 'lost\\n' : 'error ' + e.message + '\\n'); }
        setTimeout(() => process.exit(0), 1500); // hold it while the others try
      })();`;
    for (let round = 0; round < 3; round++) {
      writeLock(dir, {
        pid: deadPid(),
        hostname: os.hostname(),
        startedAt: '2020-01-01T00:00:00Z',
        command: 'svc serve',
        token: `stale-${round}`,
      });
      const at = String(Date.now() + 1500);
      const takers = Array.from({ length: 4 }, () => child(script, [dir, at], DIST_LOCK));
      await Promise.all(takers.map((t) => t.ready));
      await Promise.all(takers.map((t) => t.exited));
      const results = takers.map((t) => t.out().replace('ready\n', '').trim()).sort();
      expect(results).toEqual(['lost', 'lost', 'lost', 'won']);
      // Each winner exited without releasing (process.exit runs the exit hook, which does).
      expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
      expect(fs.readdirSync(dir)).toEqual([]);
    }
  });
});
