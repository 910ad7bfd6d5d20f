/**
 * A PgBouncer in transaction mode on a loopback port, in front of the test's PostgreSQL: Debian's
 * `pgbouncer` binary (CI installs it in .ci/run). Started and stopped by the test that uses it;
 * every wait is bounded.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@svc/test-support';

/** The binary, or undefined on a developer machine without it. */
export const PGBOUNCER: string | undefined = [
  '/usr/sbin/pgbouncer',
  '/usr/bin/pgbouncer',
  ...(process.env.PATH ?? '').split(':').map((d) => path.join(d, 'pgbouncer')),
].find((p) => fs.existsSync(p));

/**
 * `describe` when the binary is there; skipped only on a developer machine without it. Under CI a
 * missing binary fails the suite instead of hiding it.
 */
export const describeWithPgbouncer: jest.Describe =
  PGBOUNCER || process.env.CI ? describe : describe.skip;

export interface Pgbouncer {
  /** The database URL through the pooler (the direct URL with the pooler's port). */
  readonly url: string;
  /** What it printed, for a failure's message. */
  readonly log: readonly string[];
  /** Stops it (SIGTERM, waited for) and removes its folder. */
  stop(): Promise<void>;
}

export interface PgbouncerOptions {
  /**
   * Server connections per database and user (`default_pool_size`). Few for many clients:
   * consecutive statements of one client land on different server connections.
   */
  readonly serverConnections: number;
}

/** Starts a transaction-mode PgBouncer in front of `directUrl` (trust auth, loopback only). */
export async function startPgbouncer(
  directUrl: string,
  options: PgbouncerOptions,
): Promise<Pgbouncer> {
  if (!PGBOUNCER) throw new Error('no pgbouncer binary (Debian package pgbouncer)');
  const direct = new URL(directUrl);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pgbouncer-'));
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${decodeURIComponent(direct.username)}" ""\n`);
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${direct.hostname} port=${direct.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.serverConnections}`,
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  // pgbouncer refuses to run as root: run it as the owner of nothing in particular.
  const asUser = process.getuid?.() === 0 ? userIds('nobody') : undefined;
  if (asUser) fs.chmodSync(dir, 0o755);
  const log: string[] = [];
  const child: ChildProcess = spawn(PGBOUNCER, [path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asUser ?? {}),
  });
  child.stdout?.on('data', (d) => log.push(String(d)));
  child.stderr?.on('data', (d) => log.push(String(d)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, 10_000);
  } catch (err) {
    await stop();
    throw new Error(`pgbouncer did not start: ${String(err)}\n${log.join('')}`);
  }
  const via = new URL(direct.toString());
  via.port = String(port);
  return { url: via.toString(), log, stop };
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (let attempt = 0; attempt < 200 && Date.now() < until; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
}

function userIds(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}
