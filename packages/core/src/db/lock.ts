import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SvcError, defineErrorCodes } from '../errors/svc-error';

/**
 * The lock on an embedded database folder. PGlite is one process's database: two processes that
 * open the same folder each keep their own copy of the catalogue and buffers, lose each other's
 * writes and can damage the folder. So whoever opens `{dataDir}` first holds `<dataDir>/svc.lock`
 * until it closes; a second opener (another process, or the same process twice) is refused at
 * once with a `DataDirLockedError` naming the holder.
 *
 * The file holds JSON (`LockHolder`). It appears atomically (written aside, then hard-linked into
 * place), so a reader never sees half of it. A lock whose process is gone (kill -9, a crash, a
 * container restarted with the same pid) is stale: the next opener takes it over, under a short
 * guard file so that of two takers exactly one wins. A temp file left aside by a process that died
 * while taking the lock (`svc.lock.<pid>.<random>.tmp`) is removed by the next opener.
 */
export const LOCK_FILE_NAME = 'svc.lock';

export const lockError = defineErrorCodes('db', { DATA_DIR_LOCKED: 503, DATA_DIR_UNUSABLE: 503 });

/** What a lock file says about the process holding the folder. */
export interface LockHolder {
  readonly pid: number;
  readonly hostname: string;
  /** ISO time the lock was taken. */
  readonly startedAt: string;
  /** The program and its first argument, e.g. `svc serve`. */
  readonly command: string;
  /** Where the holder serves HTTP, once it listens (`svc serve`): other svc commands go through it. */
  readonly url?: string;
  /** Linux: the process's start time in clock ticks since boot, to tell a reused pid from the holder. */
  readonly procStart?: number;
  /** Random: which lock file is ours when we release or update it. */
  readonly token: string;
}

const DIR_REASONS: Readonly<Record<string, string>> = {
  ENOTDIR: 'a part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EEXIST: 'a file of that name is in the way',
};

/** The folder is held by another process (or already open in this one). */
export class DataDirLockedError extends SvcError {
  constructor(
    readonly dataDir: string,
    readonly lockFile: string,
    /** The live holder; undefined when the lock file cannot be read. */
    readonly holder: LockHolder | undefined,
    message: string,
  ) {
    super('DATA_DIR_LOCKED', lockError.statuses.DATA_DIR_LOCKED, message);
    this.name = 'DataDirLockedError';
  }
}

/** Folders this process holds, by resolved path → token: a second open in the same process is refused. */
const held = new Map<string, DataDirLock>();
let exitHookInstalled = false;

const MAX_ATTEMPTS = 20;
const GUARD_STALE_MS = 10_000;
const UNREADABLE_RETRIES = 10;

/** A held lock. `release()` removes the file if it is still ours; safe to call twice. */
export class DataDirLock {
  #released = false;
  #holder: LockHolder;

  private constructor(
    readonly dataDir: string,
    readonly file: string,
    holder: LockHolder,
  ) {
    this.#holder = holder;
  }

  get holder(): LockHolder {
    return this.#holder;
  }

  /**
   * Takes the lock on `dataDir` (created if missing), taking over a stale one.
   * @throws DataDirLockedError when a live process holds it
   */
  static async acquire(dataDir: string): Promise<DataDirLock> {
    const dir = path.resolve(dataDir);
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? String(err);
      throw new SvcError(
        'DATA_DIR_UNUSABLE',
        lockError.statuses.DATA_DIR_UNUSABLE,
        `cannot use ${dir} as the embedded data folder (${DIR_REASONS[reason] ?? reason}): choose another folder with --data-dir / SVC_DATA_DIR, or fix its permissions`,
      );
    }
    const file = path.join(dir, LOCK_FILE_NAME);
    const mine: LockHolder = {
      pid: process.pid,
      hostname: os.hostname(),
      startedAt: new Date().toISOString(),
      command: describeCommand(),
      ...optional('procStart', processStart(process.pid)),
      token: randomBytes(12).toString('hex'),
    };
    const lock = new DataDirLock(dir, file, mine);
    // Reserve the slot in this process first: a second open here is refused without touching disk.
    const other = held.get(dir);
    if (other) throw lockedError(dir, file, other.holder, 'this process');
    held.set(dir, lock);
    try {
      removeStaleTemps(dir, file);
      await placeLockFile(dir, file, mine);
    } catch (err) {
      held.delete(dir);
      throw err;
    }
    installExitHook();
    return lock;
  }

  /** Records (or clears) the URL the holder serves on, so other svc commands can go through it. */
  advertise(url: string | undefined): void {
    if (this.#released) return;
    const { url: _old, ...rest } = this.#holder;
    const next: LockHolder = url === undefined ? rest : { ...rest, url };
    if (!this.#stillOurs()) return;
    const tmp = `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeDurably(tmp, next);
    try {
      fs.renameSync(tmp, this.file); // atomic replace: readers see the old or the new content
    } catch (err) {
      removeQuietly(tmp);
      throw err;
    }
    this.#holder = next;
  }

  /** Removes the lock file if it is still ours. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (held.get(this.dataDir) === this) held.delete(this.dataDir);
    if (this.#stillOurs()) removeQuietly(this.file);
  }

  #stillOurs(): boolean {
    const text = readQuietly(this.file);
    return text !== undefined && parseHolder(text)?.token === this.#holder.token;
  }
}

/**
 * The live holder of `dataDir`'s lock, or undefined when the folder is free (no lock, or a stale
 * one). A lock file that cannot be read counts as held (by an unknown holder): use
 * `DataDirLock.acquire` to get the error that says so.
 */
export function readDataDirLock(dataDir: string): LockHolder | undefined {
  const text = readQuietly(path.join(path.resolve(dataDir), LOCK_FILE_NAME));
  const holder = text === undefined ? undefined : parseHolder(text);
  return holder && isAlive(path.resolve(dataDir), holder) ? holder : undefined;
}

async function placeLockFile(dir: string, file: string, mine: LockHolder): Promise<void> {
  const tmp = `${file}.${process.pid}.${mine.token}.tmp`;
  writeDurably(tmp, mine);
  try {
    let unreadable = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (link(tmp, file)) return;
      const text = readQuietly(file);
      if (text === undefined) continue; // released between our link and our read: try again
      const holder = parseHolder(text);
      if (!holder) {
        // Only a lock written by something else (or by hand) is ever partial: give a writer a moment.
        if (++unreadable > UNREADABLE_RETRIES) {
          throw new DataDirLockedError(
            dir,
            file,
            undefined,
            `the embedded database folder ${dir} has a lock file that cannot be read (${file}). If no process is using the folder, delete that file and try again.`,
          );
        }
        await sleep(50);
        continue;
      }
      if (isAlive(dir, holder)) throw lockedError(dir, file, holder, 'another process');
      await removeStale(file, text);
    }
    throw new DataDirLockedError(
      dir,
      file,
      undefined,
      `the embedded database folder ${dir} is being opened by several processes at once; try again.`,
    );
  } finally {
    removeQuietly(tmp);
  }
}

/** `svc.lock.<pid>.<random>.tmp`: a lock file being written aside by process `<pid>`. */
const TEMP_NAME = /^\.(\d+)\.[0-9a-z]+\.tmp$/;

/**
 * Removes the temp files of processes that died while writing one (a crash between writing it
 * aside and linking it in leaves it behind). A temp file holds the JSON of its writer, so it is
 * judged as a lock is; one that cannot be read yet (being written) is judged by the pid in its
 * name. Temp files of live processes, and of other hosts sharing the folder, are left alone.
 */
function removeStaleTemps(dir: string, file: string): void {
  const prefix = path.basename(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = TEMP_NAME.exec(name.slice(prefix.length));
    if (!match) continue;
    const temp = path.join(dir, name);
    const text = readQuietly(temp);
    if (text === undefined) continue; // gone already
    const holder = parseHolder(text) ?? {
      ...UNKNOWN_WRITER,
      pid: Number(match[1]),
      hostname: os.hostname(),
    };
    if (holder.hostname !== os.hostname()) continue;
    if (!isAlive(dir, holder)) removeQuietly(temp);
  }
}

const UNKNOWN_WRITER: LockHolder = { pid: 0, hostname: '', startedAt: '', command: '', token: '' };

/** Creates `file` as a hard link to the fully written `tmp`: false when `file` exists. */
function link(tmp: string, file: string): boolean {
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS')
      throw err;
  }
  // A filesystem without hard links: create exclusively, then write (readers retry a partial file).
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, fs.readFileSync(tmp));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Removes a stale lock whose content was `staleText`, under a guard file: a taker re-reads the
 * lock inside the guard and removes it only if it is still the stale one, so a lock a faster taker
 * has just placed is never removed.
 */
async function removeStale(file: string, staleText: string): Promise<void> {
  const guard = `${file}.takeover`;
  let fd: number;
  try {
    fd = fs.openSync(guard, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Someone is taking over right now (a few microseconds); a guard left by a taker that died
    // inside it is old, and removed.
    try {
      if (Date.now() - fs.statSync(guard).mtimeMs > GUARD_STALE_MS) removeQuietly(guard);
    } catch {
      // gone already
    }
    await sleep(20);
    return;
  }
  try {
    fs.closeSync(fd);
    if (readQuietly(file) === staleText) removeQuietly(file);
  } finally {
    removeQuietly(guard);
  }
}

/**
 * Whether the holder's process still runs. The pid is checked on this machine, as PostgreSQL
 * checks postmaster.pid; our own pid counts as alive only when this process holds the folder
 * (a container restarted after kill -9 often gets the same pid). On Linux a pid reused by an
 * unrelated process is told apart by its start time.
 */
function isAlive(dir: string, holder: LockHolder): boolean {
  if (holder.pid === process.pid) return held.get(dir)?.holder.token === holder.token;
  if (!Number.isSafeInteger(holder.pid) || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it exists, under another user.
  }
  if (holder.hostname === os.hostname() && holder.procStart !== undefined) {
    const start = processStart(holder.pid);
    if (start !== undefined && start !== holder.procStart) return false;
  }
  return true;
}

function lockedError(
  dir: string,
  file: string,
  holder: LockHolder,
  who: 'another process' | 'this process',
): DataDirLockedError {
  const since = `since ${holder.startedAt}`;
  if (who === 'this process') {
    return new DataDirLockedError(
      dir,
      file,
      holder,
      `the embedded database folder ${dir} is already open in this process (${since}); close that database before opening it again.`,
    );
  }
  const host = holder.hostname === os.hostname() ? '' : ` on ${holder.hostname}`;
  const serving = holder.url ? `, serving ${holder.url}` : '';
  const todo = holder.url
    ? `do the work through that server (svc migrate does so by itself), or stop it first`
    : `wait for it to finish or stop it, then try again`;
  return new DataDirLockedError(
    dir,
    file,
    holder,
    `the embedded database folder ${dir} is in use by ${holder.command} (pid ${holder.pid}${host}, ${since}${serving}). PGlite is a single-process database: ${todo}.`,
  );
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (typeof v !== 'object' || v === null) return undefined;
    if (typeof v.pid !== 'number' || typeof v.token !== 'string') return undefined;
    return {
      pid: v.pid,
      hostname: typeof v.hostname === 'string' ? v.hostname : '',
      startedAt: typeof v.startedAt === 'string' ? v.startedAt : 'an unknown time',
      command: typeof v.command === 'string' ? v.command : 'another program',
      ...optional('url', typeof v.url === 'string' ? v.url : undefined),
      ...optional('procStart', typeof v.procStart === 'number' ? v.procStart : undefined),
      token: v.token,
    };
  } catch {
    return undefined;
  }
}

/** Linux: field 22 of /proc/<pid>/stat (start time in clock ticks after boot); undefined elsewhere. */
function processStart(pid: number): number | undefined {
  const text = readQuietly(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const value = Number(fields[19]);
  return Number.isSafeInteger(value) ? value : undefined;
}

function describeCommand(): string {
  const script = process.argv[1]
    ? path.basename(process.argv[1]).replace(/\.[cm]?js$/, '')
    : path.basename(process.execPath);
  const sub = process.argv[2] && !process.argv[2].startsWith('-') ? ` ${process.argv[2]}` : '';
  return `${script}${sub}`;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Best effort on a normal exit; a kill -9 leaves a stale lock that the next opener takes over.
  process.on('exit', () => {
    for (const lock of [...held.values()]) lock.release();
  });
}

function writeDurably(file: string, holder: LockHolder): void {
  const fd = fs.openSync(file, 'wx', 0o644);
  try {
    fs.writeSync(fd, `${JSON.stringify(holder, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function readQuietly(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function removeQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // already gone
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
