/**
 * Issue 8, "Idle memory": every module a server loads stays in its heap for good (its source text,
 * its compiled functions). A module needed only by some configurations, or only at the first
 * request of a kind, is loaded then: jsonwebtoken (with its ~75 modules) at the first token,
 * @svc/smtp when SMTP is configured (else with the first email). bcrypt (bcryptjs) never loads in the
 * server's own thread: it runs in @svc/auth's worker threads, which stop when idle.
 *
 * Each case runs a real server in a child process of its own (a fresh module registry), loading
 * the built packages (`dist`): build before running these.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedEmbeddedFolder } from '@svc/test-support';
import { SECRET } from './helpers';

const DIST = path.join(__dirname, '..', 'dist', 'index.js');

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * An embedded database folder made already, for a case's server: which modules a server loads
 * does not depend on its database, and one in memory would run initdb in each child process
 * (about 10 s of CPU: the image the Jest process starts PGlite from does not reach a child).
 */
function databaseFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-idle-modules-'));
  made.push(dir);
  seedEmbeddedFolder(dir);
  return dir;
}

const MODULES = {
  jsonwebtoken: /[\\/]node_modules[\\/]jsonwebtoken[\\/]/,
  bcrypt: /[\\/]node_modules[\\/]bcryptjs[\\/]/,
  smtp: /[\\/]smtp[\\/]dist[\\/]/,
} as const;
type Loaded = Record<keyof typeof MODULES, boolean>;

/**
 * Starts a server with `options` in a child process and reports which of MODULES are loaded once
 * it listens, and again after `auth.verifyToken` met a token.
 */
function loadedModules(
  options: Record<string, unknown>,
): Promise<{ atStart: Loaded; afterToken: Loaded | null }> {
  const script = `
    const { createServer } = require(process.argv[1]);
    const modules = ${JSON.stringify(Object.fromEntries(Object.entries(MODULES).map(([k, v]) => [k, v.source])))};
    const loaded = () => Object.fromEntries(Object.entries(modules).map(([name, source]) =>
      [name, Object.keys(require.cache).some((file) => new RegExp(source).test(file))]));
    (async () => {
      const server = await createServer({ env: {}, logLevel: 'silent', ...JSON.parse(process.argv[2]) });
      await server.listen({ port: 0, host: '127.0.0.1' });
      const atStart = loaded();
      let afterToken = null;
      if (server.auth) {
        await server.auth.verifyToken('not-a-token').catch(() => {});
        afterToken = loaded();
      }
      await server.close();
      process.stdout.write(JSON.stringify({ atStart, afterToken }));
    })().catch((err) => { console.error(err); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', script, DIST, JSON.stringify({ database: { dataDir: databaseFolder() }, ...options })],
      { timeout: 60_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

describe('modules a server loads only when it needs them', () => {
  test('without auth: neither bcrypt, jsonwebtoken nor @svc/smtp', async () => {
    const { atStart } = await loadedModules({});
    expect(atStart).toEqual({ jsonwebtoken: false, bcrypt: false, smtp: false });
  });

  test('with auth: jsonwebtoken with the first token, bcrypt never (worker threads), @svc/smtp not without mail', async () => {
    const { atStart, afterToken } = await loadedModules({ enableAuth: true, jwtSecret: SECRET });
    expect(atStart).toEqual({ jsonwebtoken: false, bcrypt: false, smtp: false });
    expect(afterToken).toEqual({ jsonwebtoken: true, bcrypt: false, smtp: false });
  });

  test('with SMTP configured: @svc/smtp at start (its config is validated there)', async () => {
    const { atStart } = await loadedModules({
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: {
        emailBaseUrl: 'http://127.0.0.1:5656',
        smtp: { host: '127.0.0.1', port: 2525, from: 'svc@example.com' },
      },
    });
    expect(atStart.smtp).toBe(true);
  });

  test('with emails but no SMTP: @svc/smtp waits for the first email', async () => {
    const { atStart } = await loadedModules({
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: { emailBaseUrl: 'http://127.0.0.1:5656' },
    });
    expect(atStart.smtp).toBe(false);
  });
});
