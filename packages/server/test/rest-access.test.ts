/*
 * REST under the server's modes (spec "REST routes": "executed through the same handler as
 * /query, so access policies, read-only mode and the requireAuth gate apply"): read-only (503
 * for writes, 200 for reads), requireAuth (401 without a token), access policies (REST answers
 * as /query does for the same caller; the service credential runs without them), REST off
 * (404), and 200 parallel POSTs over a real socket with nothing lost.
 */
import type { SvcServer } from '../src';
import { SECRET, build, call, recordCallers, sharedDatabase, signUp, start } from './helpers';
import { api, envelope } from './rest-helpers';

const db = sharedDatabase();

const SDL = `
type Item { required name: str; n: int64; }
type Secret {
  required text: str;
  access policy readable allow select using (.text != 'hidden');
  access policy writable allow insert using (.text != 'forbidden');
}
`;
const SERVICE_KEY = `svc-service-key-${'k'.repeat(32)}`;
const MISSING = '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';

describe('read-only mode', () => {
  let writer: SvcServer;
  let reader: SvcServer;
  let item: { id: string };
  beforeAll(async () => {
    writer = await build(db.get(), { schema: SDL });
    item = (await api(writer, 'POST', '/api/Item', { name: 'kept' })).body as { id: string };
    reader = await build(db.get(), { schema: SDL, readOnly: true });
  });
  afterAll(async () => {
    await reader.close();
    await writer.close();
  });

  test.each([
    ['POST', '/api/Item', { name: 'x' }],
    ['PATCH', `/api/Item/${MISSING}`, { name: 'x' }],
    ['DELETE', `/api/Item/${MISSING}`, undefined],
  ])('%s %s is 503 READ_ONLY', async (method, path, body) => {
    const res = await api(reader, method, path, body);
    expect(res.status).toBe(503);
    expect(envelope(res).code).toBe('READ_ONLY');
  });

  test('reads are 200: a list, one object, a linked collection', async () => {
    expect((await api(reader, 'GET', `/api/Item/${item.id}`)).body).toMatchObject({ name: 'kept' });
    const list = await api(reader, 'GET', '/api/Item?name=kept');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: item.id, name: 'kept', n: null }]);
    // Nothing was written by the refused requests.
    expect((await api(reader, 'GET', '/api/Item?name=x')).body).toEqual([]);
  });
});

describe('requireAuth', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), {
      schema: SDL,
      enableAuth: true,
      jwtSecret: SECRET,
      requireAuth: true,
      serviceKey: SERVICE_KEY,
    });
  });
  afterAll(() => server.close());

  test.each([
    ['GET', '/api/Item', undefined],
    ['GET', `/api/Item/${MISSING}`, undefined],
    ['POST', '/api/Item', { name: 'x' }],
    ['PATCH', `/api/Item/${MISSING}`, { name: 'x' }],
    ['DELETE', `/api/Item/${MISSING}`, undefined],
    ['GET', `/api/Item/${MISSING}/anything`, undefined],
    ['GET', '/api/Nope', undefined],
  ])('%s %s without a token is 401', async (method, path, body) => {
    const res = await api(server, method, path, body);
    expect(res.status).toBe(401);
    expect(envelope(res).code).toMatch(/^(UNAUTHORIZED|TOKEN_)/);
  });

  test('a bad token is 401; a user token and the service key pass', async () => {
    expect((await api(server, 'GET', '/api/Item', undefined, { token: 'nope' })).status).toBe(401);
    const token = await signUp(server);
    const made = await api(server, 'POST', '/api/Item', { name: 'authed' }, { token });
    expect(made.status).toBe(201);
    const listed = await api(server, 'GET', '/api/Item?name=authed', undefined, { token });
    expect(listed.body).toEqual([made.body]);
    const byKey = await api(
      server,
      'GET',
      `/api/Item/${(made.body as { id: string }).id}`,
      undefined,
      {
        token: SERVICE_KEY,
      },
    );
    expect(byKey.body).toEqual(made.body);
  });
});

describe('access policies', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), { schema: SDL, serviceKey: SERVICE_KEY });
  });
  afterAll(() => server.close());

  const viaQuery = async (query: string, token?: string) => {
    const res = await call(server, '/query', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test('a caller subject to policies gets from REST what /query gives it for the same type', async () => {
    const hidden = await api(
      server,
      'POST',
      '/api/Secret',
      { text: 'hidden' },
      { token: SERVICE_KEY },
    );
    const shown = await api(server, 'POST', '/api/Secret', { text: 'shown' });
    expect([hidden.status, shown.status]).toEqual([201, 201]);
    const query = await viaQuery('select Secret { id, text } order by .text');
    expect(query.body.data).toEqual([shown.body]);
    expect((await api(server, 'GET', '/api/Secret?order_by=text')).body).toEqual(query.body.data);
    // A hidden row by id is 404, as a missing one.
    const id = (hidden.body as { id: string }).id;
    for (const path of [`/api/Secret/${id}`, `/api/Secret/${MISSING}`]) {
      const res = await api(server, 'GET', path);
      expect([res.status, envelope(res).code]).toEqual([404, 'NOT_FOUND']);
    }
    // A denied insert is 403 through both, and writes nothing.
    const denied = await api(server, 'POST', '/api/Secret', { text: 'forbidden' });
    const deniedQuery = await viaQuery(`insert Secret { text := 'forbidden' }`);
    expect([denied.status, envelope(denied).code, envelope(denied).type]).toEqual([
      deniedQuery.status,
      deniedQuery.body.code,
      deniedQuery.body.type,
    ]);
    expect(deniedQuery.body.code).toBe('ACCESS_DENIED');
    expect((await viaQuery('select count(Secret)', SERVICE_KEY)).body.data).toEqual([2]);
    // A type without policies is unaffected.
    expect((await api(server, 'GET', '/api/Item')).status).toBe(200);
  });

  test('the service credential runs without policies', async () => {
    const made = await api(server, 'POST', '/api/Secret', { text: 'hush' }, { token: SERVICE_KEY });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    const got = await api(server, 'GET', `/api/Secret/${id}`, undefined, { token: SERVICE_KEY });
    expect(got.body).toEqual({ id, text: 'hush' });
  });
});

describe('defaultAccess', () => {
  test("REST runs a caller's queries with the server's defaultAccess, as /query does", async () => {
    const server = await build(db.get(), { schema: SDL, defaultAccess: 'deny' });
    try {
      const callers = recordCallers(server);
      await api(server, 'GET', '/api/Item');
      await api(server, 'POST', '/api/Item', { name: 'x' });
      await call(server, '/query', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'select Item { name }' }),
      });
      expect(callers.map((c) => c.access)).toEqual([
        { policies: true, readOnly: false, defaultAccess: 'deny' },
        { policies: true, readOnly: false, defaultAccess: 'deny' },
        { policies: true, readOnly: false, defaultAccess: 'deny' },
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('REST off', () => {
  test('every /api path is 404, whatever the method', async () => {
    const server = await build(db.get(), { schema: SDL, enableRest: false });
    try {
      for (const [method, path, body] of [
        ['GET', '/api/Item', undefined],
        ['POST', '/api/Item', { name: 'x' }],
        ['DELETE', `/api/Item/${MISSING}`, undefined],
      ] as const) {
        const res = await api(server, method, path, body);
        expect(res.status).toBe(404);
        expect(envelope(res).code).toBe('NOT_FOUND');
      }
    } finally {
      await server.close();
    }
  });
});

describe('parallel writes over a real socket', () => {
  test('200 parallel POSTs: every one 201, every row there afterwards', async () => {
    const server = await start(db.get(), { schema: SDL });
    try {
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          api(server, 'POST', '/api/Item', { name: 'parallel', n: i }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(200).fill(201));
      const ids = new Set(results.map((r) => (r.body as { id: string }).id));
      expect(ids.size).toBe(200);
      const listed = await api(server, 'GET', '/api/Item?name=parallel&limit=1000&order_by=n');
      const rows = listed.body as { id: string; n: number }[];
      expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 200 }, (_, i) => i));
      expect(new Set(rows.map((r) => r.id))).toEqual(ids);
    } finally {
      await server.close();
    }
  }, 60_000);
});
