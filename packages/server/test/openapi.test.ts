/**
 * `GET /api/openapi.json` through @svc/server on the fixture schema of @svc/rest's document
 * tests (every feature): served as OpenAPI 3.1.0, one path set per non-abstract type, hidden
 * fields nowhere, bearerAuth iff requireAuth (and the gate applies to it), withheld when REST is
 * off, rebuilt when `POST /migrations` changes the schema (no restart; that it is built once
 * per schema version is src/handlers/openapi.nodb.test.ts). Its own answers validate against it.
 */
import type { SvcServer } from '../src';
import { build, call, readJson, SECRET, sharedDatabase } from './helpers';
import { FIXTURE_SDL } from './openapi-fixture';
import { openApiValidator } from '@svc/test-support';

const db = sharedDatabase();
// biome-ignore lint/suspicious/noExplicitAny: walking a JSON document in assertions
type Any = any;

async function served(server: SvcServer, token?: string): Promise<{ res: Response; text: string }> {
  const res = await call(server, '/api/openapi.json', {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { res, text: await res.text() };
}

describe('the served document', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), { schema: FIXTURE_SDL });
  });
  afterAll(() => server.close());

  test('3.1.0, every non-abstract type and none else, hidden fields absent, validates its own answer', async () => {
    const { res, text } = await served(server);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const doc = JSON.parse(text);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(JSON.parse(await (await call(server, '/')).text()).version);
    const routes = Object.keys(doc.paths)
      .filter((p) => /^\/api\/[^/]+$/.test(p) && p !== '/api/openapi.json')
      .sort();
    expect(routes).toEqual([
      '/api/Author',
      '/api/Error',
      '/api/Everything',
      '/api/Limited',
      '/api/Post',
      '/api/Tag',
      '/api/blog::Note',
    ]);
    expect(routes).not.toContain('/api/Named');
    expect(doc.components.schemas.Named).toBeUndefined();
    expect(doc.components.schemas.Author.properties.email).toBeUndefined();
    expect(doc.components.schemas['Author-insert'].properties.email).toBeUndefined();
    expect(doc.components.schemas.Post.properties.secret_note).toBeUndefined();
    expect(doc.paths['/api/Post/{id}/secret_note']).toBeUndefined();
    expect(text).not.toContain('"email"');
    expect(doc.components.securitySchemes).toBeUndefined();

    openApiValidator(doc).check({
      method: 'GET',
      path: '/api/openapi.json',
      status: 200,
      contentType: res.headers.get('content-type'),
      body: text,
    });
  });

  test('rebuilt after POST /migrations, without a restart', async () => {
    {
      const before = (await served(server)).text;
      expect((await served(server)).text).toBe(before);

      const migrated = await call(server, '/migrations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          schema: FIXTURE_SDL.replace(
            'module blog {',
            "module blog {\n  type Draft { required text: str; secret: str { annotation rest::hidden := 'true'; } }",
          ),
        }),
      });
      expect(migrated.status).toBe(200);
      const after = JSON.parse((await served(server)).text);
      expect(after.paths['/api/blog::Draft']).toBeDefined();
      expect(Object.keys(after.components.schemas['blog.Draft'].properties)).toEqual([
        'id',
        'text',
      ]);
      expect(after.info['x-schema-version']).not.toBe(JSON.parse(before).info['x-schema-version']);
    }
  });

  test('another method is 405 in the envelope', async () => {
    const res = await call(server, '/api/openapi.json', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(await readJson(res)).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });
});

describe('requireAuth', () => {
  const serviceKey = `svc-service-key-${'k'.repeat(32)}`;
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      requireAuth: true,
      serviceKey,
    });
  });
  afterAll(() => server.close());

  test('behind the gate: 401 without a token, in the documented envelope', async () => {
    const withKey = JSON.parse((await served(server, serviceKey)).text);
    const { res, text } = await served(server);
    expect(res.status).toBe(401);
    openApiValidator(withKey).check({
      method: 'GET',
      path: '/api/openapi.json',
      status: 401,
      contentType: res.headers.get('content-type'),
      body: text,
    });
  });

  test('bearerAuth (or the cookie, or ?token) declared and required by every data operation', async () => {
    const doc = JSON.parse((await served(server, serviceKey)).text);
    expect(doc.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    );
    // The data routes and the document (the `/auth/*` fragment sets its own, per route).
    const api = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/'));
    const operations = api.flatMap(([path, item]: [string, Any]) =>
      ['get', 'post', 'patch', 'delete'].filter((m) => item[m]).map((m) => [path, item[m]]),
    );
    expect(operations.length).toBeGreaterThan(20);
    for (const [, op] of operations) {
      expect(op.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }, { tokenQuery: [] }]);
    }
    expect(doc.components.securitySchemes.tokenQuery).toMatchObject({ in: 'query', name: 'token' });
    expect(doc.components.securitySchemes.cookieAuth).toMatchObject({
      in: 'cookie',
      name: 'auth_token',
    });
  });

  test('each documented scheme passes the gate: header, cookie, query', async () => {
    const ok = async (path: string, headers: Record<string, string> = {}) =>
      (await call(server, path, { headers })).status;
    expect(await ok('/api/openapi.json', { authorization: `Bearer ${serviceKey}` })).toBe(200);
    expect(await ok('/api/openapi.json', { cookie: `auth_token=${serviceKey}` })).toBe(200);
    expect(await ok(`/api/openapi.json?token=${serviceKey}`)).toBe(200);
  });
});

test('REST off: the document is withheld (404)', async () => {
  const server = await build(db.get(), { enableRest: false });
  try {
    const { res, text } = await served(server);
    expect(res.status).toBe(404);
    expect(JSON.parse(text)).toMatchObject({ code: 'NOT_FOUND' });
  } finally {
    await server.close();
  }
});
