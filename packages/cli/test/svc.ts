import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

export const BIN = path.join(__dirname, '..', 'bin', 'svc.js');

export interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Every `svc` process a test file starts. Killed after the file's tests, whatever happened, so a
 * failed assertion between start and stop cannot leave a server running that keeps Jest (and
 * CI) waiting forever.
 */
const live = new Set<ChildProcess>();
afterAll(() => {
  for (const child of live)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  live.clear();
});

/** Spawns `node bin/svc.js ...args`, tracked so that it is killed after the test file. */
export function spawnSvc(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    env: opts.env ?? cleanEnv(),
  });
  live.add(child);
  child.on('exit', () => live.delete(child));
  return child;
}

/** A clean environment: PATH and HOME only, plus what the test adds. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

/** Runs `svc` to completion and returns its exit code and output; `input` is its whole stdin. */
export function runSvc(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; ms?: number; input?: string } = {},
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawnSvc(args, opts);
    child.stdin.end(opts.input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish within ${opts.ms ?? 20000} ms`));
    }, opts.ms ?? 20000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * How long a wait that includes a first start on an embedded folder allows. That start runs
 * initdb: 7 s on an idle machine, 46 s seen in CI on 2 cores shared with other suites.
 */
export const FIRST_START_MS = 120_000;

/**
 * Starts `svc serve ...` and resolves once it logs the URL it listens on; by default it may take
 * FIRST_START_MS.
 */
export function startSvc(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; ms?: number } = {},
): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawnSvc(['serve', ...args], opts);
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `svc serve did not start within ${opts.ms ?? FIRST_START_MS} ms:\n${stdout}\n${stderr}`,
        ),
      );
    }, opts.ms ?? FIRST_START_MS);
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /svc listening on (https?:\/\/[^ "]+)/.exec(stdout);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: m[1], stdout: () => stdout, stderr: () => stderr, exited });
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc serve exited with ${code} before listening:\n${stdout}\n${stderr}`));
    });
  });
}

/**
 * `svc` under a pseudo-terminal (util-linux `script`), as a person runs it; input is typed. It is
 * killed after `ms` (by default a first start's allowance and a minute).
 */
export interface Terminal {
  /** Types into the terminal (`\r` is Enter, `\x03` is Ctrl-C). */
  type(text: string): void;
  /** Resolves with everything shown so far once it matches, or rejects after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  output(): string;
  exited: Promise<number | null>;
  /** Ends the terminal (its command gets SIGHUP); for a test's finally block. */
  kill(): void;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function runInTerminal(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; ms?: number } = {},
): Terminal {
  // exec: the command replaces script's shell, so a Ctrl-C reaches it alone.
  const command = `exec ${[process.execPath, BIN, ...args].map(shellQuote).join(' ')}`;
  // -q: no banner of script's own; -e: its exit code is the command's; -c: run this command.
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: opts.cwd,
    env: opts.env ?? cleanEnv(),
  });
  live.add(child);
  child.on('exit', () => live.delete(child));
  let shown = '';
  child.stdout.on('data', (d) => (shown += d));
  child.stderr.on('data', (d) => (shown += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), opts.ms ?? FIRST_START_MS + 60_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve(code);
    }),
  );
  return {
    type: (text) => void child.stdin.write(text),
    output: () => shown,
    exited,
    kill: () => void (child.exitCode === null && child.kill('SIGKILL')),
    waitFor(pattern, ms = 30000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          if (pattern.test(shown)) {
            clearInterval(poll);
            resolve(shown);
          } else if (Date.now() - started > ms || child.exitCode !== null) {
            clearInterval(poll);
            reject(new Error(`the terminal did not show ${pattern} within ${ms} ms:\n${shown}`));
          }
        }, 20);
      });
    },
  };
}

/** The two lines a first start on an embedded folder writes to stderr (src/progress.ts). */
export const FIRST_START_LINES =
  /^svc: creating the embedded database in \S+ \(first start, usually 10-30 s\)\.\.\.\nsvc: created the embedded database in \d+\.\d s\n/m;

/** stderr without the first-start lines, for tests about what comes after them. */
export function withoutFirstStart(stderr: string): string {
  return stderr.replace(FIRST_START_LINES, '');
}
