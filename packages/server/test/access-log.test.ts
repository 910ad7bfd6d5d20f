/**
 * Issue 31 (logs): the access-log line of a refused request names its envelope's `code`, so a
 * log alone says why, in both log formats, and never carries the body, the password or a token.
 *
 * The attack this guards against: a log line that copies the request (a login's body, a bearer
 * header, `?token=`) hands whoever reads the logs the passwords and tokens of every caller.
 */
import { Writable } from 'node:stream';
import { createLogger } from '../src';
import { request } from '../src/testing';
import { SECRET, build, call, sharedDatabase } from './helpers';

const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';
const WRONG = 'wrong-password-never-logged-7f3a';

/** A server whose log lines (in `format`) land in `lines`. */
async function serverLogging(format: 'json' | 'pretty') {
  const lines: string[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger('info', out as never, format);
  const server = await build(db.get(), {
    logger,
    enableAuth: true,
    jwtSecret: SECRET,
    schema: 'module default { type Note { required body: str; } }',
  });
  return { server, lines };
}

const post = (server: Parameters<typeof call>[0], path: string, body: unknown) =>
  call(server, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Waits for the response's `close`, on which the line is written. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('JSON log lines', () => {
  test('a refused query, a wrong password and a missing token each log their code', async () => {
    const { server, lines } = await serverLogging('json');
    try {
      const email = 'ann@example.com';
      expect((await post(server, '/auth/register', { email, password: PASSWORD })).status).toBe(
        201,
      );
      const query = await post(server, '/query', {
        query: 'select Nope',
        variables: { secret: 'variable-never-logged' },
      });
      expect(query.status).toBe(400);
      const queryCode = ((await query.json()) as { code: string }).code;
      const login = await post(server, '/auth/login', { email, password: WRONG });
      expect(login.status).toBe(401);
      const loginCode = ((await login.json()) as { code: string }).code;
      const me = await call(server, '/auth/sessions?token=query-token-never-logged', {
        headers: { authorization: 'Bearer header-token-never-logged' },
      });
      expect(me.status).toBe(401);
      // A hosted page's refusal (HTML, no envelope in the body) logs its code too. (Sent
      // without `call`'s check against the document, which describes the JSON answers only.)
      const page = await request(server.app, '/auth/verify?token=not-a-verification-token', {
        headers: { accept: 'text/html' },
      });
      expect(page.status).toBe(400);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const ok = await call(server, '/health');
      expect(ok.status).toBe(200);
      await settled();

      const requests = lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'request');
      const byPath = (path: string) => requests.filter((r) => r.path === path);
      expect(byPath('/query').map((r) => [r.status, r.code])).toEqual([[400, queryCode]]);
      expect(queryCode).toMatch(/^[A-Z_]+$/);
      expect(byPath('/auth/login').map((r) => [r.status, r.code])).toEqual([
        [401, 'INVALID_CREDENTIALS'],
      ]);
      expect(loginCode).toBe('INVALID_CREDENTIALS');
      expect(byPath('/auth/sessions').map((r) => [r.status, r.code])).toEqual([
        [401, 'INVALID_TOKEN'],
      ]);
      // The code the page chose for its refusal (auth/src/pages `page`).
      expect(byPath('/auth/verify').map((r) => [r.status, r.code])).toEqual([
        [400, 'VALIDATION_ERROR'],
      ]);
      // A request that succeeded has no code.
      expect(requests.filter((r) => r.status === 201).every((r) => !('code' in r))).toBe(true);

      const all = lines.join('\n');
      for (const secret of [
        WRONG,
        PASSWORD,
        'variable-never-logged',
        'query-token-never-logged',
        'header-token-never-logged',
        'select Nope',
        'not-a-verification-token',
      ]) {
        expect(all).not.toContain(secret);
      }
    } finally {
      await server.close();
    }
  });
});

describe('text (pretty) log lines', () => {
  test('a wrong password logs `code=INVALID_CREDENTIALS`, not the password', async () => {
    const { server, lines } = await serverLogging('pretty');
    try {
      const email = 'bob@example.com';
      expect((await post(server, '/auth/register', { email, password: PASSWORD })).status).toBe(
        201,
      );
      expect((await post(server, '/auth/login', { email, password: WRONG })).status).toBe(401);
      expect((await post(server, '/query', { query: 'select Nope' })).status).toBe(400);
      await settled();
      const login = lines.filter((l) => l.includes('POST /auth/login '));
      expect(login).toHaveLength(1);
      expect(login[0]).toMatch(/POST \/auth\/login 401 [\d.]+ ms {2}.*code=INVALID_CREDENTIALS/);
      expect(lines.filter((l) => l.includes('POST /query '))[0]).toMatch(
        /POST \/query 400 [\d.]+ ms {2}.*code=[A-Z_]+/,
      );
      expect(lines.join('')).not.toContain(WRONG);
    } finally {
      await server.close();
    }
  });
});
