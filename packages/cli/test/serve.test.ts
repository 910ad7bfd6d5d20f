import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MIGRATION_LOCK, openDatabase, withLock } from '@svc/core';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { cleanEnv, runInTerminal, runSvc, spawnSvc, startSvc, withoutFirstStart } from './svc';

const { version } = require('../package.json');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'svc-serve-'));

describe('svc', () => {
  test('--version prints the version of @svc/cli', async () => {
    const r = await runSvc(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  test('--help lists the commands; serve --help lists its flags', async () => {
    const top = await runSvc(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('serve');
    const serve = await runSvc(['serve', '--help']);
    expect(serve.code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--config',
      '--schema',
      '--database-url',
      '--data-dir',
      '--enable-auth',
      '--jwt-secret',
      '--tls-cert',
      '--tls-key',
    ]) {
      expect(serve.stdout).toContain(flag);
    }
  });

  test('an unknown command exits 2 with the usage', async () => {
    const r = await runSvc(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });

  test('bad configuration exits 2 naming every problem, and the secret never', async () => {
    const r = await runSvc(
      ['serve', '--enable-auth', '--jwt-secret', 'short-secret', '--port', '0'],
      { cwd: tmp() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('  - --jwt-secret must be at least 32 characters (got 12)');
    expect(r.stderr).not.toContain('short-secret');
  });
});

describe('svc serve with no database configured', () => {
  test('creates ./.svc/data, says so in one log line with its URL, serves, and stops on SIGTERM', async () => {
    const cwd = tmp();
    const svc = await startSvc([], { cwd, env: cleanEnv({ SVC_PORT: '0' }) });
    try {
      expect(fs.existsSync(path.join(cwd, '.svc', 'data', 'PG_VERSION'))).toBe(true);
      const line = svc
        .stdout()
        .split('\n')
        .find((l) => l.includes('svc listening on'));
      expect(line).toContain(svc.url);
      expect(line).toContain(path.join(cwd, '.svc', 'data'));
      expect(await (await fetch(`${svc.url}/`)).json()).toEqual({ name: 'svc', version });
      expect((await fetch(`${svc.url}/health/ready`)).status).toBe(200);
    } finally {
      svc.child.kill('SIGTERM');
    }
    expect(await svc.exited).toBe(0);
  });
});

// Issue 8 ("First-run care"): in a terminal, a banner and lines a person reads; JSON for programs.
describe('svc serve logs for people and for programs', () => {
  const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');

  test('in a terminal: a banner (URL, database, schema, auth), pretty coloured lines, and Ctrl-C logs shutting down and stopped', async () => {
    const cwd = tmp();
    fs.mkdirSync(path.join(cwd, 'dbschema'));
    fs.writeFileSync(path.join(cwd, 'dbschema', 'default.esdl'), 'type User;\n');
    const term = runInTerminal(['serve', '--port', '0', '--data-dir', 'data'], { cwd });
    try {
      const shown = plain(await term.waitFor(/Ctrl-C stops it/, 60000));
      const url = /^ {2}URL {7}(http:\/\/127\.0\.0\.1:\d+)$/m.exec(shown)?.[1];
      expect(url).toBeDefined();
      expect(shown).toMatch(new RegExp(`^svc ${version.replace(/\./g, '\\.')}$`, 'm'));
      expect(shown).toContain(
        `  database  embedded PGlite at ${path.join(cwd, 'data')} (created)\n`,
      );
      expect(shown).toContain('  schema    dbschema/ (1 file)\n');
      expect(shown).toContain('  auth      off (--enable-auth to turn it on)\n');
      expect(shown).toContain(`  admin UI  ${url}/_/ (needs auth and a superuser)\n`);
      expect(shown).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}schema migrated: /m);
      expect(term.output()).toMatch(/\u001b\[32mINFO/); // coloured on a terminal
      expect(shown).not.toMatch(/^\{/m); // no JSON line

      expect((await fetch(`${url}/schema`)).status).toBe(200);
      await term.waitFor(/GET \/schema 200 [\d.]+ ms/);
      term.type('\x03'); // Ctrl-C: SIGINT to the foreground process
      expect(await term.exited).toBe(0);
      const after = plain(term.output());
      expect(after).toMatch(/INFO {2}shutting down: 0 requests in flight {2}inFlight=0\n/);
      expect(after).toMatch(/INFO {2}stopped {2}ms=\d+\n/);
    } finally {
      term.kill();
    }
  });

  test('in a terminal with --log-format json: JSON lines and no banner', async () => {
    const cwd = tmp();
    const term = runInTerminal(
      ['serve', '--port', '0', '--data-dir', 'data', '--log-format', 'json'],
      { cwd },
    );
    try {
      await term.waitFor(/"msg":"svc listening on http/, 60000);
      term.type('\x03');
      expect(await term.exited).toBe(0);
      // the terminal echoes Ctrl-C as ^C before the next line; stderr's first-start lines come first
      const lines = withoutFirstStart(plain(term.output()))
        .split('\n')
        .map((l) => l.replace(/^\^C/, ''))
        .filter((l) => l.trim() !== '');
      for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
      expect(lines.map((l) => JSON.parse(l).msg).slice(-2)).toEqual([
        'shutting down: 0 requests in flight',
        'stopped',
      ]);
      expect(term.output()).not.toContain('Ctrl-C stops it');
    } finally {
      term.kill();
    }
  });

  test('not in a terminal: JSON lines, SIGTERM logged; --log-format pretty forces lines for people, without colour', async () => {
    const cwd = tmp();
    const svc = await startSvc(['--port', '0', '--data-dir', 'data'], { cwd });
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
    const msgs = svc
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).msg);
    expect(msgs.slice(-2)).toEqual(['shutting down: 0 requests in flight', 'stopped']);

    const pretty = await new Promise<string>((resolve, reject) => {
      const child = spawnSvc(
        ['serve', '--port', '0', '--data-dir', 'data', '--log-format', 'pretty'],
        { cwd, env: cleanEnv() },
      );
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no banner:\n${out}`)), 60000);
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Ctrl-C stops it')) child.kill('SIGTERM');
      });
      child.on('exit', () => {
        clearTimeout(timer);
        resolve(out);
      });
    });
    expect(pretty).toMatch(/^svc \d+\.\d+\.\d+\n {2}URL {7}http:\/\/127\.0\.0\.1:\d+\n/m);
    expect(pretty).toContain('(existing data)');
    expect(pretty).toMatch(/^\S+ INFO {2}stopped {2}ms=\d+$/m);
    expect(pretty).not.toMatch(/\u001b\[/);
  });
});

describe(`svc serve on ${testDatabaseKind()}`, () => {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
  });
  afterAll(async () => t?.dispose());
  const databaseArgs = (dir: string) =>
    t && 'url' in t.config
      ? ['--database-url', t.config.url]
      : ['--data-dir', path.join(dir, 'data')];

  test('SIGTERM with 50 requests in flight completes all 50, then exits 0', async () => {
    const dir = tmp();
    const svc = await startSvc(['--port', '0', ...databaseArgs(dir)], { cwd: dir });
    const { port } = new URL(svc.url);
    const body = JSON.stringify({ query: 'select 1', cardinality: 'many' });
    const half = Math.floor(body.length / 2);

    // 50 requests whose bodies are half sent: each is in flight inside the server. Each asks
    // `Expect: 100-continue`, so its interim answer says the server has parsed it; SIGTERM
    // comes only once all 50 are known to the server (under CI's load a fixed pause left some
    // still in the accept queue or unparsed, and closing the server reset them).
    const continued: Array<Promise<void>> = [];
    const responses: Array<Promise<string>> = [];
    const sockets = await Promise.all(
      Array.from(
        { length: 50 },
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            let answer = '';
            const s = net.connect(Number(port), '127.0.0.1', () => {
              s.write(
                `POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n${body.slice(0, half)}`,
              );
              resolve(s);
            });
            s.once('error', reject);
            s.on('data', (d) => (answer += d));
            continued.push(
              new Promise<void>((ok) => {
                const check = (): void => {
                  if (!answer.includes('\r\n\r\n')) return;
                  s.off('data', check);
                  ok();
                };
                s.on('data', check);
              }),
            );
            responses.push(
              new Promise<string>((done) => {
                s.on('close', () => done(answer));
                s.on('error', () => done(answer));
              }),
            );
          }),
      ),
    );
    await Promise.all(continued);
    svc.child.kill('SIGTERM');
    // The server logs its shutdown in the same turn as it closes its listening socket; wait for
    // that line (bounded), not for a fixed pause.
    for (let waited = 0; !/shutting down/.test(svc.stdout()) && waited < 15000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    expect(svc.stdout()).toMatch(/shutting down: 50 requests in flight/);

    // Stopped accepting: a new connection is refused while the 50 are still open.
    await expect(
      new Promise((resolve, reject) => {
        const s = net.connect(Number(port), '127.0.0.1', () => resolve(s.end()));
        s.once('error', reject);
      }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    for (const s of sockets) s.write(body.slice(half));
    const answers = await Promise.all(responses);
    // Each answer is the interim 100, then the final answer.
    for (const a of answers) expect(a.startsWith('HTTP/1.1 100 Continue\r\n\r\n')).toBe(true);
    const statuses = answers.map((a) => (a.split('\r\n\r\n', 2)[1] ?? '').split(' ', 2)[1]);
    // Each query runs to its end during the drain: 50 complete answers.
    expect(statuses).toEqual(Array(50).fill('200'));
    for (const a of answers) expect(a).toContain('{"data":[1]}');
    expect(await svc.exited).toBe(0);
  });

  // Issue 8: a signal that came while the server was starting killed it halfway (no handler
  // yet); now it is stopped as soon as it has started. The migration's lock row, held here,
  // keeps the server deterministically in the middle of starting (a PostgreSQL lock: this runs
  // in the PostgreSQL pass).
  if (testDatabaseKind() === 'postgres') {
    test('SIGTERM while starting stops the server once started: exit 0, shutdown logged', async () => {
      const dir = tmp();
      fs.writeFileSync(path.join(dir, 'schema.esdl'), 'type Starting;\n');
      const url = (t!.config as { url: string }).url;
      // core's migration lock row (storage/lock), held by an open transaction of another session.
      const lock = await openDatabase({ url, poolSize: 1 });
      const watch = await openDatabase({ url, poolSize: 1 });
      let release = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      let holderPid = 0;
      const held = new Promise<void>((r) => {
        void withLock(lock, MIGRATION_LOCK, async (tx) => {
          holderPid = (await tx.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!
            .pid;
          r();
          await released;
        });
      });
      await held;
      const child = spawnSvc(
        ['serve', '--port', '0', '--schema', 'schema.esdl', '--database-url', url],
        { cwd: dir, env: cleanEnv() },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        const waiting = async () =>
          (
            await watch.query<{ n: number }>(
              // The sessions the holder's transaction blocks (other packages' tests migrate
              // other databases at the same time: only this holder's waiters count).
              'select count(*)::int as n from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))',
              [holderPid],
            )
          ).rows[0]!.n;
        for (let i = 0; i < 300 && (await waiting()) === 0; i++)
          await new Promise((r) => setTimeout(r, 100));
        expect(await waiting()).toBe(1);
        child.kill('SIGTERM');
        for (let i = 0; i < 100 && !stderr.includes('stopping once started'); i++)
          await new Promise((r) => setTimeout(r, 50));
        expect(stderr).toBe('svc: SIGTERM: stopping once started (again to exit now)\n');
      } finally {
        release();
        await watch.close();
        await lock.close();
      }
      expect(await exited).toBe(0);
      const msgs = stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).msg);
      expect(msgs[msgs.length - 1]).toBe('stopped');
      expect(msgs.some((m) => m.startsWith('svc listening on'))).toBe(true);
    });
  }

  test('serves HTTPS with --tls-cert and --tls-key', async () => {
    const dir = tmp();
    const { execFileSync } = await import('node:child_process');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const svc = await startSvc(
      ['--port', '0', '--tls-cert', 'cert.pem', '--tls-key', 'key.pem', ...databaseArgs(dir)],
      { cwd: dir },
    );
    try {
      expect(svc.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const https = await import('node:https');
      const status = await new Promise<number | undefined>((resolve, reject) => {
        https
          .get(`${svc.url}/health`, { ca: fs.readFileSync(path.join(dir, 'cert.pem')) }, (res) => {
            res.resume();
            resolve(res.statusCode);
          })
          .on('error', reject);
      });
      expect(status).toBe(200);
    } finally {
      svc.child.kill('SIGINT');
    }
    expect(await svc.exited).toBe(0);
  });
});
