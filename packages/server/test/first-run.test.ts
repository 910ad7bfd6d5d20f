/**
 * Issue 8 ("First-run care"), through the real server: with no SMTP configured a developer sees
 * each email's link in the log (and a warning at start), logs can be rendered for a person, and
 * shutdown is logged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  createLogger,
  createServer,
  resolveConfig,
  resolveLogFormat,
  type SvcServer,
} from '../src';
import { captureLogger, readJson, SECRET, sharedDatabase, start } from './helpers';

const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';

const post = (server: SvcServer, path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const entries = (lines: string[]) =>
  lines.map((l) => JSON.parse(l) as Record<string, unknown> & { level: number; msg: string });

/** Resolves once `lines` holds a line matching `test`, polling for at most `ms`. */
async function lineWhere(
  lines: string[],
  test: (e: Record<string, unknown> & { msg: string }) => boolean,
  ms = 5000,
) {
  const started = Date.now();
  for (;;) {
    const found = entries(lines).find(test);
    if (found) return found;
    if (Date.now() - started > ms) throw new Error(`no such log line in:\n${lines.join('')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('with auth on and no SMTP configured (development)', () => {
  test('a warning at start; POST /auth/reset logs the reset link, which works', async () => {
    const { logger, lines } = captureLogger();
    const server = await start(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      logger,
      authConfig: { emailBaseUrl: 'http://127.0.0.1:3000' },
    });
    try {
      const warning = entries(lines).find((e) => e.level === 40);
      expect(warning?.msg).toMatch(
        /^auth email is not delivered: no SMTP server is configured .*; each email is logged here instead, with its links$/,
      );

      const email = `dev-${Date.now()}@example.com`;
      expect((await post(server, '/auth/register', { email, password: PASSWORD })).status).toBe(
        201,
      );
      const asked = await post(server, '/auth/reset', { email });
      expect(asked.status).toBe(200);
      await server.auth!.settle();
      const mail = await lineWhere(lines, (e) => e.msg.startsWith('auth email not sent'));
      expect(mail).toMatchObject({
        level: 30,
        to: email,
        subject: 'Your account: reset your password',
        eventType: 'PasswordResetRequested',
      });
      const links = mail.links as string[];
      expect(links).toHaveLength(1);
      expect(mail.msg).toBe(
        `auth email not sent (no SMTP configured) to ${email}: "Your account: reset your password" ${links[0]}`,
      );
      const link = new URL(links[0] as string);
      expect(`${link.origin}${link.pathname}`).toBe('http://127.0.0.1:3000/auth/reset');

      // The logged link is the real one: its token resets the password.
      const token = link.searchParams.get('token');
      const confirmed = await post(server, '/auth/reset/confirm', {
        reset_token: token,
        new_password: `${PASSWORD} 2`,
      });
      expect(confirmed.status).toBe(200);
      expect((await post(server, '/auth/login', { email, password: `${PASSWORD} 2` })).status).toBe(
        200,
      );
      // the token shows inside the link only
      expect(lines.join('').split(token as string)).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  test('no warning when auth is off; with SMTP configured, no recipient or link is ever logged', async () => {
    const off = captureLogger();
    const plain = await start(db.get(), { logger: off.logger });
    await plain.close();
    expect(entries(off.lines).filter((e) => e.level >= 40)).toEqual([]);

    const { logger, lines } = captureLogger();
    // An SMTP server that refuses connections: delivery fails and is logged, without the address.
    const server = await start(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      logger,
      authConfig: {
        emailBaseUrl: 'http://127.0.0.1:3000',
        smtp: { host: '127.0.0.1', port: 1, from: 'svc@example.com', timeoutMs: 2000 },
      },
    });
    try {
      const email = `prod-${Date.now()}@example.com`;
      await post(server, '/auth/register', { email, password: PASSWORD });
      await post(server, '/auth/reset', { email });
      await server.auth!.settle();
      await lineWhere(lines, (e) => e.msg === 'auth email could not be sent');
      expect(lines.join('')).not.toContain(email);
      expect(lines.join('')).not.toContain('/auth/reset?token=');
      // No email warning; the one naming the open operational routes (issue 26, 9) is about
      // require_auth, not email.
      expect(entries(lines).filter((e) => e.level === 40 && !('openRoutes' in e))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('log format', () => {
  test('logFormat resolves from SVC_LOG_FORMAT and [server] log_format; default auto; bad values refused', () => {
    expect(resolveConfig({ env: {} }).logFormat).toBe('auto');
    expect(resolveConfig({ env: { SVC_LOG_FORMAT: 'pretty' } }).logFormat).toBe('pretty');
    expect(resolveConfig({ env: { SVC_LOG_FORMAT: 'pretty' }, logFormat: 'json' }).logFormat).toBe(
      'json',
    );
    expect(() => resolveConfig({ env: { SVC_LOG_FORMAT: 'xml' } })).toThrow(
      /SVC_LOG_FORMAT must be one of auto, json, pretty, got "xml"/,
    );
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-logfmt-')), 'svc.toml');
    fs.writeFileSync(file, '[server]\nlog_format = "json"\n');
    expect(resolveConfig({ env: {}, configFile: file }).logFormat).toBe('json');
    expect(resolveConfig({ env: { SVC_LOG_FORMAT: 'pretty' }, configFile: file }).logFormat).toBe(
      'pretty',
    );
  });

  test('auto is pretty on a terminal, JSON otherwise', () => {
    expect(resolveLogFormat('auto', { isTTY: true })).toBe('pretty');
    expect(resolveLogFormat('auto', { isTTY: false })).toBe('json');
    expect(resolveLogFormat('auto', {})).toBe('json');
    expect(resolveLogFormat('json', { isTTY: true })).toBe('json');
    expect(resolveLogFormat('pretty', {})).toBe('pretty');
  });

  test('pretty: time, level, message, then fields; requests as one short line; redaction still applies; no colour off a terminal', async () => {
    const lines: string[] = [];
    const out = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('debug', out as never, 'pretty');
    logger.info({ steps: 3, note: 'two words' }, 'schema migrated');
    logger.warn({ password: 'hunter2', nested: { token: 'abc' } }, 'careful');
    logger.info(
      { reqId: 'r1', method: 'GET', route: '/schema', path: '/schema', status: 200, ms: 1.2 },
      'request',
    );
    logger.error({ err: Object.assign(new Error('boom'), { code: 'E42' }) }, 'failed');
    const text = lines.join('');
    expect(text).not.toMatch(/\u001b\[/);
    expect(text).not.toMatch(/^\{/m);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}schema migrated {2}steps=3 note="two words"\n$/,
    );
    expect(lines[1]).toMatch(
      /^\S+ WARN {2}careful {2}password=\[redacted\] nested=\{"token":"\[redacted\]"\}\n$/,
    );
    expect(text).not.toContain('hunter2');
    expect(lines[2]).toMatch(/^\S+ INFO {2}GET \/schema 200 1\.2 ms\n$/);
    expect(lines[3]).toMatch(/^\S+ ERROR failed {2}err\.code=E42\n {4}Error: boom\n {8}at /);
  });

  // It opens and migrates an embedded database of its own: about 6 s on a quiet machine, past
  // jest's 30 s once CI runs three packages' suites at once.
  test('close() logs shutting down and stopped', async () => {
    const { logger, lines } = captureLogger();
    const server = await createServer({ env: {}, database: { memory: true }, logger });
    await server.listen({ port: 0, host: '127.0.0.1' });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    await server.close();
    const msgs = entries(lines).map((e) => e.msg);
    expect(msgs.slice(-2)).toEqual(['shutting down: 0 requests in flight', 'stopped']);
    expect(
      await readJson(
        await fetch(`${server.url}/health`).catch(() => new Response('{"closed":true}')),
      ),
    ).toEqual({ closed: true });
  }, 90_000);
});
