import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core';
import { cleanEnv, runSvc, startSvc } from './svc';

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
    for (const flag of ['--port', '--host', '--config', '--schema', '--database-url', '--data-dir', '--enable-auth', '--jwt-secret', '--tls-cert', '--tls-key']) {
      expect(serve.stdout).toContain(flag);
    }
  });

  test('an unknown command exits 2 with the usage', async () => {
    const r = await runSvc(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });

  test('bad configuration exits 2 naming every problem, and the secret never', async () => {
    const r = await runSvc(['serve', '--enable-auth', '--jwt-secret', 'short-secret', '--port', '0'], { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('jwtSecret must be at least 32 characters (got 12)');
    expect(r.stderr).not.toContain('short-secret');
  });
});

describe('svc serve with no database configured', () => {
  test('creates ./.svc/data, says so in one log line with its URL, serves, and stops on SIGTERM', async () => {
    const cwd = tmp();
    const svc = await startSvc([], { cwd, env: cleanEnv({ SVC_PORT: '0' }) });
    try {
      expect(fs.existsSync(path.join(cwd, '.svc', 'data', 'PG_VERSION'))).toBe(true);
      const line = svc.stdout().split('\n').find((l) => l.includes('svc listening on'));
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

describe(`svc serve on ${testDatabaseKind()}`, () => {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
  });
  afterAll(async () => t?.dispose());
  const databaseArgs = (dir: string) =>
    t && 'url' in t.config ? ['--database-url', t.config.url] : ['--data-dir', path.join(dir, 'data')];

  test('SIGTERM with 50 requests in flight completes all 50, then exits 0', async () => {
    const dir = tmp();
    const svc = await startSvc(['--port', '0', ...databaseArgs(dir)], { cwd: dir });
    const { port } = new URL(svc.url);
    const body = JSON.stringify({ query: 'select 1', cardinality: 'many' });
    const half = Math.floor(body.length / 2);

    // 50 requests whose bodies are half sent: each is in flight inside the server.
    const sockets = await Promise.all(
      Array.from({ length: 50 }, () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect(Number(port), '127.0.0.1', () => {
            s.write(`POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`);
            resolve(s);
          });
          s.once('error', reject);
        }),
      ),
    );
    const responses = sockets.map(
      (s) =>
        new Promise<string>((resolve) => {
          let data = '';
          s.on('data', (d) => (data += d));
          s.on('close', () => resolve(data));
          s.on('error', () => resolve(data));
        }),
    );
    await new Promise((r) => setTimeout(r, 300));
    svc.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));

    // Stopped accepting: a new connection is refused while the 50 are still open.
    await expect(
      new Promise((resolve, reject) => {
        const s = net.connect(Number(port), '127.0.0.1', () => resolve(s.end()));
        s.once('error', reject);
      }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    for (const s of sockets) s.write(body.slice(half));
    const answers = await Promise.all(responses);
    const statuses = answers.map((a) => a.split(' ', 2)[1]);
    // /query validates the body and answers 501 until the query engine lands: a complete answer.
    expect(statuses).toEqual(Array(50).fill('501'));
    for (const a of answers) expect(a).toContain('"code":"NOT_IMPLEMENTED"');
    expect(await svc.exited).toBe(0);
  });

  test('serves HTTPS with --tls-cert and --tls-key', async () => {
    const dir = tmp();
    const { execFileSync } = await import('node:child_process');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '2',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1',
    ], { stdio: 'ignore' });
    const svc = await startSvc(['--port', '0', '--tls-cert', 'cert.pem', '--tls-key', 'key.pem', ...databaseArgs(dir)], { cwd: dir });
    try {
      expect(svc.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const https = await import('node:https');
      const status = await new Promise<number | undefined>((resolve, reject) => {
        https.get(`${svc.url}/health`, { ca: fs.readFileSync(path.join(dir, 'cert.pem')) }, (res) => {
          res.resume();
          resolve(res.statusCode);
        }).on('error', reject);
      });
      expect(status).toBe(200);
    } finally {
      svc.child.kill('SIGINT');
    }
    expect(await svc.exited).toBe(0);
  });
});
