import https from 'node:https';
import { randomUUID } from 'node:crypto';
import type { SvcServer } from '../src';
import {
  SECRET,
  build,
  call,
  captureLogger,
  readJson,
  selfSignedCertificate,
  sharedDatabase,
  signUp,
  start,
} from './helpers';

const db = sharedDatabase();
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('service routes', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get());
  });
  afterAll(() => server.close());

  test('GET / names the service and the version of @svc/server', async () => {
    const res = await call(server, '/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const { version } = require('../package.json');
    expect(await readJson(res)).toEqual({ name: 'svc', version });
  });

  test.each(['/health', '/health/live', '/health/ready'])('GET %s is ok', async (path) => {
    const res = await call(server, path);
    expect(res.status).toBe(200);
    expect(await readJson(res)).toEqual({ status: 'ok' });
  });

  test('every response carries a request id; a sane incoming one is kept, others replaced', async () => {
    for (const path of ['/', '/nope', '/query']) {
      const res = await call(server, path);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const mine = await call(server, '/', { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-abc.123');
    const bad = await call(server, '/', { headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('API responses carry no ETag and no X-Powered-By', async () => {
    const res = await call(server, '/health/live');
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  test('an unknown path is 404 in the envelope', async () => {
    const res = await call(server, '/no/such/route');
    expect(res.status).toBe(404);
    expect(await readJson(res)).toEqual({
      code: 'NOT_FOUND',
      error: 'NOT_FOUND: no route GET /no/such/route',
    });
  });

  test('a known path with another method is 405 in the envelope, with Allow', async () => {
    const res = await call(server, '/query');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await readJson(res)).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      error: 'METHOD_NOT_ALLOWED: GET is not allowed on /query',
    });
    const del = await call(server, '/', { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD');
  });

  test('/metrics is Prometheus text with request counts and pool figures', async () => {
    await call(server, '/health/live');
    const res = await call(server, '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(
      /svc_http_requests_total\{method="GET",route="\/health\/live",status="200"\} \d+/,
    );
    expect(text).toContain('svc_http_request_duration_seconds_bucket');
    expect(text).toContain('svc_query_compile_cache_hits_total 0');
    expect(text).toMatch(/svc_db_pool_connections\{state="total"\} \d+/);
  });

  test('/stats gives the same figures as JSON', async () => {
    await call(server, '/health/live');
    const stats = await readJson(await call(server, '/stats'));
    const live = stats.requests.byRoute.find((r: { route: string }) => r.route === '/health/live');
    expect(live.count).toBeGreaterThanOrEqual(1);
    expect(stats.latency.count).toBeGreaterThanOrEqual(stats.requests.total - 1);
    expect(stats.queryCompileCache).toEqual({ hits: 0, misses: 0 });
    expect(stats.databasePool.total).toBeGreaterThanOrEqual(1);
  });
});

describe('request bodies', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get());
  });
  afterAll(() => server.close());

  test('a body over the default 1 MiB limit is 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ query: 'select 1', variables: { x: 'a'.repeat(1024 * 1024) } });
    const res = await call(server, '/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(await readJson(res)).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      error: 'PAYLOAD_TOO_LARGE: request body exceeds 1048576 bytes',
    });
  });

  test('a body just under the limit is read', async () => {
    const body = JSON.stringify({
      query: 'select <str>$x',
      variables: { x: 'a'.repeat(1024 * 1024 - 100) },
    });
    const res = await call(server, '/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    expect((await readJson(res)).data[0]).toHaveLength(1024 * 1024 - 100);
  });

  test('malformed JSON is 400 VALIDATION_ERROR', async () => {
    const res = await call(server, '/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(res.status).toBe(400);
    expect(await readJson(res)).toEqual({
      code: 'VALIDATION_ERROR',
      error: 'VALIDATION_ERROR: request body is not valid JSON',
    });
  });

  test('a body that is not JSON is 415', async () => {
    const res = await call(server, '/query', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'select 1',
    });
    expect(res.status).toBe(415);
    expect((await readJson(res)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  test.each([
    [{}, '"query" must be a non-empty string'],
    [{ query: 42 }, '"query" must be a non-empty string'],
    [{ query: 'select 1', variables: [1] }, '"variables" must be a JSON object'],
    [
      { query: 'select 1', cardinality: 'two' },
      '"cardinality" must be one of many, atMostOne, one',
    ],
    [{ query: 'select 1', extra: true }, 'unknown field "extra" in the request body'],
    [['select 1'], 'request body must be a JSON object with a "query" string'],
  ])('/query body %j is 400: %s', async (body, message) => {
    const res = await call(server, '/query', json(body));
    expect(res.status).toBe(400);
    expect(await readJson(res)).toEqual({
      code: 'VALIDATION_ERROR',
      error: `VALIDATION_ERROR: ${message}`,
    });
  });
});

describe('request timeout', () => {
  test('a request still running past requestTimeout is 408 REQUEST_TIMEOUT', async () => {
    const server = await build(db.get(), { requestTimeout: 200 });
    try {
      const started = Date.now();
      // The body never finishes arriving, so the request is still in progress at 200 ms.
      const res = await call(server, '/query', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '100' },
        body: '{"query":',
      });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(408);
      expect(res.headers.get('connection')).toBe('close');
      expect(JSON.parse(await res.text())).toEqual({
        code: 'REQUEST_TIMEOUT',
        error: 'REQUEST_TIMEOUT: request exceeded the 200 ms timeout',
      });
    } finally {
      await server.close();
    }
  });
});

describe('route gating', () => {
  test('auth off: /auth/* is 404, even with a secret (spec rule 1)', async () => {
    const server = await build(db.get(), { jwtSecret: SECRET });
    try {
      for (const path of ['/auth/login', '/auth/register']) {
        const res = await call(server, path, json({}));
        expect(res.status).toBe(404);
        expect((await readJson(res)).code).toBe('NOT_FOUND');
      }
    } finally {
      await server.close();
    }
  });

  test('auth on: /auth routes are registered; unclassified ones are 404; wrong method 405', async () => {
    const server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
    try {
      const login = await call(
        server,
        '/auth/login',
        json({ email: 'nobody@example.com', password: 'x' }),
      );
      expect(login.status).toBe(401);
      expect((await readJson(login)).code).toBe('INVALID_CREDENTIALS');
      const unknown = await call(server, '/auth/nope', json({}));
      expect(unknown.status).toBe(404);
      const wrong = await call(server, '/auth/login');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
      // OAuth routes are 404 unless OAuth is configured.
      expect((await call(server, '/auth/oauth/github/authorize')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  test('auth on: non-bootstrap /auth routes need a valid token at the router (spec Authentication 6)', async () => {
    const server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
    try {
      const res = await call(server, '/auth/profile');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
      const bad = await call(server, '/auth/profile', {
        headers: { authorization: 'Bearer nope' },
      });
      expect(bad.status).toBe(401);
      expect((await readJson(bad)).code).toBe('INVALID_TOKEN');
      const token = await signUp(server);
      const ok = await call(server, '/auth/profile', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(ok.status).toBe(200);
      expect((await readJson(ok)).email).toMatch(/^user-.*@example\.com$/);
    } finally {
      await server.close();
    }
  });

  test('REST off: /api/* is 404; on (default): registered', async () => {
    const off = await build(db.get(), { enableRest: false });
    const on = await build(db.get());
    try {
      for (const path of ['/api/User', '/api/openapi.json']) {
        expect(await readJson(await call(off, path))).toMatchObject({
          code: 'NOT_FOUND',
          error: `NOT_FOUND: no route GET ${path}`,
        });
      }
      // On: the document is served, and the REST handler answers (this schema has no type User).
      expect((await call(on, '/api/openapi.json')).status).toBe(200);
      expect(await readJson(await call(on, '/api/User'))).toEqual({
        code: 'NOT_FOUND',
        error: 'NOT_FOUND: no type User in the schema',
      });
    } finally {
      await Promise.all([off.close(), on.close()]);
    }
  });

  test('REST requests are parsed before anything else: 400, 404 and 405 in the envelope', async () => {
    const server = await build(db.get());
    try {
      const badId = await call(server, '/api/User/not-a-uuid');
      expect(badId.status).toBe(400);
      expect(await readJson(badId)).toEqual({
        code: 'VALIDATION_ERROR',
        error: 'VALIDATION_ERROR: "not-a-uuid" is not a valid UUID',
      });
      expect((await call(server, '/api/User?limit=5000')).status).toBe(400);
      const put = await call(server, '/api/User', { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('GET, POST, HEAD');
      const emptyPatch = await call(server, '/api/User/0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b', {
        ...json({}),
        method: 'PATCH',
      });
      expect(await readJson(emptyPatch)).toEqual({
        code: 'VALIDATION_ERROR',
        error: 'VALIDATION_ERROR: a PATCH body must name at least one field',
      });
    } finally {
      await server.close();
    }
  });

  test('SVC_ENABLE_REST=false turns REST off', async () => {
    const server = await build(db.get(), { env: { SVC_ENABLE_REST: 'false' } });
    try {
      expect((await call(server, '/api/User')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  describe('requireAuth', () => {
    let server: SvcServer;
    const serviceKey = `svc-service-key-${'k'.repeat(32)}`;
    beforeAll(async () => {
      server = await build(db.get(), {
        enableAuth: true,
        jwtSecret: SECRET,
        requireAuth: true,
        serviceKey,
      });
    });
    afterAll(() => server.close());

    const gated = [
      ['POST', '/query'],
      ['GET', '/schema'],
      ['GET', '/schema/types'],
      ['GET', '/migrations'],
      ['GET', '/stats'],
      ['GET', '/metrics'],
      ['GET', '/ext/anything'],
      ['GET', '/api/User'],
    ] as const;

    test.each(gated)('%s %s without a token is 401 with WWW-Authenticate', async (method, path) => {
      const res = await call(server, path, {
        ...(method === 'POST' ? json({ query: 'select 1' }) : {}),
        method,
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
      expect((await readJson(res)).code).toBe('UNAUTHORIZED');
    });

    test('an invalid token is 401 in the envelope', async () => {
      const res = await call(server, '/stats', { headers: { authorization: 'Bearer not.a.jwt' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc", error="invalid_token"');
      expect(await readJson(res)).toEqual({
        code: 'INVALID_TOKEN',
        error: 'INVALID_TOKEN: the access token is malformed or its signature is wrong',
      });
    });

    test('a valid token passes, from the header, the cookie or ?token', async () => {
      const token = await signUp(server);
      expect(
        (await call(server, '/stats', { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(200);
      expect(
        (await call(server, '/stats', { headers: { cookie: `auth_token=${token}` } })).status,
      ).toBe(200);
      expect((await call(server, `/stats?token=${token}`)).status).toBe(200);
    });

    test('the header wins over the cookie and the cookie over ?token', async () => {
      const token = await signUp(server);
      const headerBad = await call(server, `/stats?token=${token}`, {
        headers: { authorization: 'Bearer bad', cookie: `auth_token=${token}` },
      });
      expect(headerBad.status).toBe(401);
      const cookieBad = await call(server, `/stats?token=${token}`, {
        headers: { cookie: 'auth_token=bad' },
      });
      expect(cookieBad.status).toBe(401);
    });

    test('the service key passes the gate', async () => {
      const res = await call(server, '/stats', {
        headers: { authorization: `Bearer ${serviceKey}` },
      });
      expect(res.status).toBe(200);
    });

    test('/health* and the auth bootstrap routes stay public', async () => {
      expect((await call(server, '/health')).status).toBe(200);
      expect((await call(server, '/health/ready')).status).toBe(200);
      expect((await call(server, '/')).status).toBe(200);
      // Public: a bad body is a 400, not a 401.
      expect((await call(server, '/auth/register', json({}))).status).toBe(400);
    });
  });

  test('requireAuth without an auth middleware is 503 on every gated request', async () => {
    const server = await build(db.get(), { requireAuth: true });
    try {
      for (const path of ['/stats', '/metrics', '/schema']) {
        const res = await call(server, path);
        expect(res.status).toBe(503);
        expect((await readJson(res)).code).toBe('SERVICE_UNAVAILABLE');
      }
      expect((await call(server, '/health')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test('without requireAuth, a presented token must still be valid', async () => {
    const server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
    try {
      expect((await call(server, '/stats')).status).toBe(200);
      expect(
        (await call(server, '/stats', { headers: { authorization: 'Bearer forged' } })).status,
      ).toBe(401);
    } finally {
      await server.close();
    }
  });

  test('readOnly refuses writes on routes that always write with 503 READ_ONLY', async () => {
    const server = await build(db.get(), { readOnly: true });
    try {
      for (const [method, path] of [
        ['POST', '/migrations'],
        ['POST', '/api/User'],
        ['PATCH', '/api/User/1'],
        ['DELETE', '/api/User/1'],
      ] as const) {
        const res = await call(server, path, {
          ...(method === 'DELETE' ? {} : json({ schema: '' })),
          method,
        });
        expect(res.status).toBe(503);
        expect(await readJson(res)).toEqual({
          code: 'READ_ONLY',
          error: 'READ_ONLY: the server is in read-only mode; writes are refused',
        });
      }
      // Reads pass the read-only check (and reach the REST handler: no type User here).
      expect((await readJson(await call(server, '/api/User'))).code).toBe('NOT_FOUND');
    } finally {
      await server.close();
    }
  });

  test('readOnly lets a dry run of a migration through: it plans, checks and writes nothing', async () => {
    const server = await build(db.get(), { readOnly: true });
    try {
      const schema = 'type ReadOnlyDryRun { name: str; }';
      const before = await readJson(await call(server, '/schema'));
      const dry = await call(server, '/migrations', {
        ...json({ schema, dryRun: true }),
        method: 'POST',
      });
      expect(dry.status).toBe(200);
      const body = await readJson(dry);
      expect(body.applied).toBe(false);
      expect(body.steps.map((s: { subject: string }) => s.subject)).toContain(
        'default::ReadOnlyDryRun',
      );
      expect(await readJson(await call(server, '/schema'))).toEqual(before);
      // The same migration for real is refused, a dry run that says false included.
      for (const dryRun of [false, undefined]) {
        const real = await call(server, '/migrations', {
          ...json({ schema, dryRun }),
          method: 'POST',
        });
        expect(real.status).toBe(503);
        expect((await readJson(real)).code).toBe('READ_ONLY');
      }
    } finally {
      await server.close();
    }
  });
});

describe('a migration the database refuses', () => {
  test('is 400 InvalidDefinitionError naming the step, not a 500', async () => {
    const server = await build(db.get());
    try {
      // `<json>` of a datetime compiles to to_json, which PostgreSQL marks stable: it refuses
      // the expression index (42P17), and the whole migration rolls back.
      const schema = 'type Refused { at: datetime; index on (<json>.at); }';
      const res = await call(server, '/migrations', { ...json({ schema }), method: 'POST' });
      expect(res.status).toBe(400);
      const body = await readJson(res);
      expect(body).toMatchObject({
        code: 'QUERY_ERROR',
        type: 'InvalidDefinitionError',
        extensions: { sqlState: '42P17' },
      });
      expect(body.error).toMatch(/the database refused the migration step '.*Refused.*'/);
      expect((await readJson(await call(server, '/schema'))).sdl).not.toContain('Refused');
    } finally {
      await server.close();
    }
  });
});

describe('readiness', () => {
  test('/health/ready is 503 when the database does not answer; /health/live stays 200', async () => {
    const { createTestDatabase } = await import('@svc/core/testing');
    const own = await createTestDatabase();
    const server = await build(own);
    try {
      await own.db.close();
      const res = await call(server, '/health/ready');
      expect(res.status).toBe(503);
      expect(await readJson(res)).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        error: 'SERVICE_UNAVAILABLE: the database is not answering',
      });
      expect((await call(server, '/health/live')).status).toBe(200);
    } finally {
      await server.close();
      await own.dispose().catch(() => undefined);
    }
  });
});

describe('logs', () => {
  test('never contain tokens, secrets, passwords or query strings', async () => {
    const { logger, lines } = captureLogger();
    const serviceKey = `service-key-${randomUUID()}-${randomUUID()}`;
    const server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      serviceKey,
      logger,
    });
    try {
      const token = await signUp(server);
      await call(server, '/stats', { headers: { authorization: `Bearer ${token}` } });
      await call(server, '/stats', { headers: { cookie: `auth_token=${token}` } });
      await call(server, `/stats?token=${token}`);
      await call(server, '/stats', { headers: { authorization: `Bearer ${serviceKey}` } });
      await call(
        server,
        '/auth/login',
        json({ email: 'a@example.com', password: 'hunter2-secret-pw' }),
      );
      await call(server, '/stats', { headers: { authorization: 'Bearer forged-token-value' } });
      const all = lines.join('');
      expect(lines.length).toBeGreaterThanOrEqual(6);
      for (const secret of [token, SECRET, serviceKey, 'hunter2-secret-pw', 'forged-token-value']) {
        expect(all).not.toContain(secret);
      }
      expect(all).toContain('"path":"/stats"');
    } finally {
      await server.close();
    }
  });
});

describe('TLS', () => {
  test('serves HTTPS with the given certificate', async () => {
    const { cert, key } = selfSignedCertificate();
    const server = await start(db.get(), { tls: { cert, key } });
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const body = await new Promise<string>((resolve, reject) => {
        https
          .get(`${server.url}/`, { ca: cert }, (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      expect(JSON.parse(body).name).toBe('svc');
    } finally {
      await server.close();
    }
  });
});
