/**
 * Issue 33, read replicas, on a real streaming replica: the test starts its own PostgreSQL
 * primary (`wal_level=replica`) and a standby made by `pg_basebackup -R`, both from Debian's
 * binaries on loopback ports in a temporary folder, as the `postgres` user when run as root.
 *
 * Which pool served a read is proven by what it sees, not only by `X-Svc-Served-By`: with WAL
 * replay paused on the standby, a row written since is missing from a replica's answer and
 * present in the primary's.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '@svc/core';
import { createServer, type SvcServer } from '../src';
import { freePort } from '@svc/test-support';
import { serverEnv } from './helpers';

/** The newest Debian PostgreSQL's programs, as .ci/run picks them. */
const PGBIN = (() => {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).pop();
  return newest === undefined ? undefined : path.join(root, newest, 'bin');
})();

const SCHEMA = 'type Note { required text: str; }';

/** As `postgres` when this process is root (initdb refuses root). */
function asPostgres(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
}

/** Runs a PostgreSQL program, bounded, and waits for it. */
function pg(program: string, args: string[]): string {
  return execFileSync(path.join(PGBIN as string, program), args, {
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...asPostgres(),
  });
}

/** The same without blocking the event loop: requests keep flowing while it runs. */
function pgAsync(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      path.join(PGBIN as string, program),
      args,
      { timeout: 60_000, ...asPostgres() },
      (err) => (err ? reject(err) : resolve()),
    );
  });
}

/** Polls `check` every 100 ms until it returns true; fails past `ms`. */
async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

interface Answer {
  status: number;
  servedBy: string | null;
  body: any;
}

(PGBIN || process.env.CI ? describe : describe.skip)(
  'read replicas (a real streaming replica)',
  () => {
    let dir: string;
    let primaryUrl: string;
    let replicaUrl: string;
    let replicaData: string;
    let replicaStart: string[];
    let server: SvcServer;
    let replicaDb: Database;

    const post = async (body: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
      const res = await fetch(`${server.url}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return {
        status: res.status,
        servedBy: res.headers.get('x-svc-served-by'),
        body: await res.json(),
      };
    };
    const texts = async (headers: Record<string, string> = {}) => {
      const a = await post({ query: 'select Note.text' }, headers);
      expect(a.status).toBe(200);
      return { servedBy: a.servedBy, texts: (a.body.data as string[]).slice().sort() };
    };

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-replicas-'));
      fs.chmodSync(dir, 0o777);
      const [primaryPort, replicaPort] = [await freePort(), await freePort()];
      const primaryData = path.join(dir, 'primary');
      replicaData = path.join(dir, 'replica');
      pg('initdb', ['-D', primaryData, '-A', 'trust', '-U', 'postgres']);
      const options = (port: number) =>
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
      pg('pg_ctl', [
        '-D',
        primaryData,
        '-l',
        path.join(dir, 'primary.log'),
        '-w',
        '-t',
        '30',
        '-o',
        `${options(primaryPort)} -c wal_level=replica -c max_wal_senders=4`,
        'start',
      ]);
      pg('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(primaryPort),
        '-U',
        'postgres',
        '-D',
        replicaData,
        '-R',
        '-X',
        'stream',
      ]);
      replicaStart = [
        '-D',
        replicaData,
        '-l',
        path.join(dir, 'replica.log'),
        '-w',
        '-t',
        '30',
        '-o',
        `${options(replicaPort)} -c hot_standby=on`,
        'start',
      ];
      pg('pg_ctl', replicaStart);
      primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
      replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
      replicaDb = await openDatabase({ url: replicaUrl, poolSize: 1 });
      const { rows } = await replicaDb.query<{ r: boolean }>('select pg_is_in_recovery() as r');
      expect(rows[0]?.r).toBe(true);

      server = await createServer({
        env: serverEnv(),
        logLevel: 'silent',
        database: { url: primaryUrl, replicas: [replicaUrl], maxReplicaLag: 30 },
        schema: SCHEMA,
      });
      await server.listen({ port: 0, host: '127.0.0.1' });
      // The schema the server migrated reaches the replica.
      await until('the migrated schema replayed on the replica', 15_000, async () => {
        const a = await post({ query: 'select Note.text' });
        return a.status === 200 && a.servedBy === 'replica';
      });
    }, 120_000);

    afterAll(async () => {
      await server?.close();
      await replicaDb?.close();
      for (const data of ['replica', 'primary']) {
        try {
          pg('pg_ctl', ['-D', path.join(dir, data), '-m', 'immediate', '-w', '-t', '30', 'stop']);
        } catch {
          // stopped already (the replica, by the last test)
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    test('a read runs on the replica, with the same answer once replayed; a write runs on the primary', async () => {
      const write = await post({ query: "insert Note { text := 'one' }" });
      expect(write.status).toBe(200);
      expect(write.servedBy).toBe('primary');
      await until('the row replayed', 10_000, async () => (await texts()).texts.includes('one'));
      expect(await texts()).toEqual({ servedBy: 'replica', texts: ['one'] });
    });

    test('with replay paused: the replica answers without the new row, the primary (asked for) with it', async () => {
      await replicaDb.query('select pg_wal_replay_pause()');
      try {
        // A write whose result reads what it wrote: one statement, on the primary.
        const write = await post({ query: "select (insert Note { text := 'two' }) { text }" });
        expect(write).toMatchObject({
          status: 200,
          servedBy: 'primary',
          body: { data: [{ text: 'two' }] },
        });
        // Served where the header says: the replica has not replayed the insert.
        expect(await texts()).toEqual({ servedBy: 'replica', texts: ['one'] });
        expect(await texts({ 'X-Svc-Read': 'primary' })).toEqual({
          servedBy: 'primary',
          texts: ['one', 'two'],
        });
        // The body's option does the same on POST /query.
        const asked = await post({ query: 'select Note.text', read: 'primary' });
        expect(asked.servedBy).toBe('primary');
        expect((asked.body.data as string[]).sort()).toEqual(['one', 'two']);
        // A REST write reads its row back in the same request: on the primary, so it sees it.
        const created = await fetch(`${server.url}/api/Note`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'three' }),
        });
        expect(created.status).toBe(201);
        expect(created.headers.get('x-svc-served-by')).toBe('primary');
        expect(await created.json()).toMatchObject({ text: 'three' });
        // A REST GET reads on the replica.
        const listed = await fetch(`${server.url}/api/Note`);
        expect(listed.headers.get('x-svc-served-by')).toBe('replica');
        expect(((await listed.json()) as { text: string }[]).map((n) => n.text)).toEqual(['one']);
      } finally {
        await replicaDb.query('select pg_wal_replay_resume()');
      }
      await until('replay caught up', 10_000, async () => (await texts()).texts.length === 3);
    });

    test('a bad X-Svc-Read or "read" is a 400 in the envelope', async () => {
      const a = await post({ query: 'select 1' }, { 'X-Svc-Read': 'sometimes' });
      expect(a.status).toBe(400);
      expect(a.body).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(a.body.error).toContain('X-Svc-Read');
      const b = await post({ query: 'select 1', read: 'replica' });
      expect(b.status).toBe(400);
      expect(b.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        error: expect.stringContaining('"read"'),
      });
    });

    test('/stats and /metrics show the replica pool', async () => {
      const stats = (await (await fetch(`${server.url}/stats`)).json()) as any;
      expect(stats.replicas).toEqual([
        expect.objectContaining({
          replica: `PostgreSQL at ${replicaUrl}`,
          healthy: true,
          lagSeconds: expect.any(Number),
          inUse: expect.any(Number),
          waiting: 0,
          errors: 0,
        }),
      ]);
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain(`svc_db_replica_healthy{replica="PostgreSQL at ${replicaUrl}"} 1`);
      expect(metrics).toMatch(/svc_db_replica_lag_seconds\{replica="[^"]+"\} \d/);
      expect(metrics).toContain('svc_db_replica_connections{replica=');
      expect(metrics).toContain('svc_db_replica_errors{replica=');
    });

    test('the replica stopped mid-run costs no failed request: reads fall back to the primary', async () => {
      let stop = false;
      const failures: unknown[] = [];
      let served = 0;
      const reader = async () => {
        for (let i = 0; i < 2000 && !stop; i++) {
          const a = await post({ query: 'select count(Note)' });
          if (a.status !== 200) failures.push(a.body);
          served++;
        }
      };
      const readers = [reader(), reader(), reader()];
      await until('reads under way', 10_000, async () => served > 20);
      const before = (await (await fetch(`${server.url}/stats`)).json()) as any;
      expect(before.replicas[0].errors).toBe(0);
      await pgAsync('pg_ctl', ['-D', replicaData, '-m', 'immediate', '-w', '-t', '30', 'stop']);
      const stoppedAt = served;
      await until('reads after the stop', 20_000, async () => served > stoppedAt + 60);
      stop = true;
      await Promise.all(readers);
      expect(failures).toEqual([]);
      expect((await texts()).servedBy).toBe('primary');
      const stats = (await (await fetch(`${server.url}/stats`)).json()) as any;
      expect(stats.replicas[0]).toMatchObject({ healthy: false, lagSeconds: null });
      expect(stats.replicas[0].errors).toBeGreaterThan(0);
    }, 60_000);

    test('a replica lagging beyond max_replica_lag is skipped', async () => {
      // Started again, with replay paused: the replica falls behind while the primary writes.
      pg('pg_ctl', replicaStart);
      const lagging = await createServer({
        env: serverEnv(),
        logLevel: 'silent',
        database: { url: primaryUrl, replicas: [replicaUrl], maxReplicaLag: 1 },
      });
      const reopened = await openDatabase({ url: replicaUrl, poolSize: 1 });
      try {
        await lagging.listen({ port: 0, host: '127.0.0.1' });
        const read = async () => {
          const res = await fetch(`${lagging.url}/query`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: 'select count(Note)' }),
          });
          expect(res.status).toBe(200);
          return res.headers.get('x-svc-served-by');
        };
        await until('the replica in use', 15_000, async () => (await read()) === 'replica');
        await reopened.query('select pg_wal_replay_pause()');
        await post({ query: "insert Note { text := 'four' }" });
        // Past 1 s behind, the next check (every 2 s) skips it.
        await until(
          'the lagging replica skipped',
          15_000,
          async () => (await read()) === 'primary',
        );
        await reopened.query('select pg_wal_replay_resume()');
        await until('the replica back in use', 15_000, async () => (await read()) === 'replica');
      } finally {
        await reopened.close();
        await lagging.close();
      }
    }, 60_000);
  },
);

test('replicas need PostgreSQL: refused with a config error on embedded PGlite', async () => {
  await expect(
    createServer({
      env: { SVC_DATABASE_REPLICA_URLS: 'postgres://postgres@127.0.0.1:1/postgres' },
      database: { memory: true },
      logLevel: 'silent',
    }),
  ).rejects.toThrow(
    /replica_urls needs a PostgreSQL database \(url\): embedded PGlite has no replicas/,
  );
});
