/*
 * POST /query as DECISIONS.md "Data plane" describes it, in-process: the envelope (`data` always
 * an array, forwarded as PostgreSQL built it), variables and globals by name, cardinality,
 * read-only mode, who runs without access policies, error classes and statuses with positions,
 * the compile-cache figures on /metrics and /stats, and a migration through POST /migrations
 * seen by the next query. The compiler is a stand-in (a table from text to the CompiledQuery of
 * @svc/core's query/api, SQL written by hand), which records the options it was called with; the
 * real compiler's results are tested in test/query-end-to-end.
 */
import {
  InvalidReferenceError,
  type CompileOptions,
  type CompileQuery,
  type Schema,
} from '@svc/core';
import type { CreateServerOptions, SvcServer } from '../src';
import { SECRET, build, call, readJson, sharedDatabase, signUp } from './helpers';

const db = sharedDatabase();
const SERVICE_KEY = 'service-key-0123456789-abcdefghijklmnopq';

const SDL = `
global tenant: str;
type Item {
  required name: str { constraint exclusive; }
}
`;
const SDL_WITH_NOTE = SDL.replace('required name: str', 'note: str;\n  required name: str');

const calls: { text: string; options: CompileOptions | undefined }[] = [];

/** The stand-in compiler: `select Item` and friends, written for the two schema versions. */
const compileQuery: CompileQuery = (schema: Schema, text, options) => {
  calls.push({ text, options });
  const hasNote = schema.objectTypes.some((t) => t.pointers.some((p) => p.name === 'note'));
  const items = (shape: string) =>
    `select coalesce(json_agg(json_build_object(${shape}) order by i."name"), '[]')::text as result from "default"."Item" i`;
  switch (text) {
    case 'select Item { name }':
      return {
        sql: items(`'name', i."name"`),
        params: [],
        cardinality: 'many',
        resultType: 'default::Item',
        writes: false,
      };
    case 'select Item { name, note }':
      if (!hasNote)
        throw new InvalidReferenceError(
          "object type 'default::Item' has no link or property 'note'",
          { position: { line: 1, column: 20 } },
        );
      return {
        sql: items(`'name', i."name", 'note', i."note"`),
        params: [],
        cardinality: 'many',
        resultType: 'default::Item',
        writes: false,
      };
    case 'insert Item { name := <str>$name }':
      return {
        sql: `with i as (insert into "default"."Item" ("name") values ($1::jsonb #>> '{}') returning *) select coalesce(json_agg(json_build_object('id', i.id, 'name', i."name")), '[]')::text as result from i`,
        params: [
          {
            source: 'variable',
            name: 'name',
            type: 'std::str',
            valueType: { kind: 'scalar', name: 'std::str' },
            required: true,
          },
        ],
        cardinality: 'one',
        resultType: 'default::Item',
        writes: true,
      };
    case 'select (global tenant, global current_user_id)':
      return {
        sql: `select json_build_array(json_build_array($1::jsonb #>> '{}', $2::jsonb #>> '{}'))::text as result`,
        params: [
          {
            source: 'global',
            name: 'default::tenant',
            type: 'std::str',
            valueType: { kind: 'scalar', name: 'std::str' },
            required: false,
          },
          {
            source: 'auth',
            name: 'current_user_id',
            type: 'std::uuid',
            valueType: { kind: 'scalar', name: 'std::uuid' },
            required: false,
          },
        ],
        cardinality: 'one',
        resultType: 'tuple<std::str, std::uuid>',
        writes: false,
      };
    default:
      throw new InvalidReferenceError(
        `object type or alias '${text.split(' ')[1]}' does not exist`,
        {
          position: { line: 1, column: 8 },
        },
      );
  }
};

const post = (
  server: SvcServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  call(server, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function serverWith(options: CreateServerOptions = {}): Promise<SvcServer> {
  return build(db.get(), { compileQuery, schema: SDL, ...options });
}

beforeEach(async () => {
  calls.length = 0;
});

describe('POST /query', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await serverWith({ serviceKey: SERVICE_KEY });
  });
  afterAll(() => server.close());
  beforeEach(() => server.database.query('delete from "default"."Item"'));

  test('answers {"data": [...]}: the array PostgreSQL built, empty or not', async () => {
    const empty = await post(server, '/query', { query: 'select Item { name }' });
    expect(empty.status).toBe(200);
    expect(empty.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await empty.text()).toBe('{"data":[]}');
    const inserted = await post(server, '/query', {
      query: 'insert Item { name := <str>$name }',
      variables: { name: 'lamp' },
    });
    expect(inserted.status).toBe(200);
    expect((await readJson(inserted)).data).toEqual([{ id: expect.any(String), name: 'lamp' }]);
    expect(await readJson(await post(server, '/query', { query: 'select Item { name }' }))).toEqual(
      {
        data: [{ name: 'lamp' }],
      },
    );
  });

  test('cardinality atMostOne and one: refused before running when possibly many; one needs an element', async () => {
    const refused = await post(server, '/query', {
      query: 'select Item { name }',
      cardinality: 'atMostOne',
    });
    expect(refused.status).toBe(400);
    expect(await readJson(refused)).toMatchObject({
      code: 'QUERY_ERROR',
      type: 'ResultCardinalityMismatchError',
    });
    const one = await post(server, '/query', {
      query: 'insert Item { name := <str>$name }',
      variables: { name: 'one' },
      cardinality: 'one',
    });
    expect((await readJson(one)).data).toHaveLength(1);
  });

  test('a missing or unknown variable is 400 VALIDATION_ERROR naming it (spec Versioning 34)', async () => {
    const missing = await post(server, '/query', { query: 'insert Item { name := <str>$name }' });
    expect(missing.status).toBe(400);
    expect(await readJson(missing)).toEqual({
      code: 'VALIDATION_ERROR',
      error: 'VALIDATION_ERROR: missing variable $name (std::str)',
    });
    const unknown = await post(server, '/query', {
      query: 'insert Item { name := <str>$name }',
      variables: { name: 'x', extra: 1 },
    });
    expect(unknown.status).toBe(400);
    expect((await readJson(unknown)).error).toContain('$extra');
    expect(
      (await readJson(await post(server, '/query', { query: 'select Item { name }' }))).data,
    ).toEqual([]);
  });

  test('a compile error is 400 QUERY_ERROR with its class and position', async () => {
    const res = await post(server, '/query', { query: 'select Nope' });
    expect(res.status).toBe(400);
    expect(await readJson(res)).toEqual({
      code: 'QUERY_ERROR',
      error: "QUERY_ERROR: object type or alias 'Nope' does not exist",
      type: 'InvalidReferenceError',
      extensions: { position: { line: 1, column: 8 } },
    });
  });

  test('a constraint violation is 409 CONSTRAINT_VIOLATION with the schema constraint message', async () => {
    const body = { query: 'insert Item { name := <str>$name }', variables: { name: 'twice' } };
    expect((await post(server, '/query', body)).status).toBe(200);
    const res = await post(server, '/query', body);
    expect(res.status).toBe(409);
    expect(await readJson(res)).toEqual({
      code: 'CONSTRAINT_VIOLATION',
      error: 'CONSTRAINT_VIOLATION: name violates exclusivity constraint',
      type: 'ConstraintViolationError',
      extensions: { sqlState: '23505' },
    });
  });

  test('globals from the body; the caller globals never', async () => {
    const query = 'select (global tenant, global current_user_id)';
    expect(
      await readJson(await post(server, '/query', { query, globals: { tenant: 'acme' } })),
    ).toEqual({
      data: [['acme', null]],
    });
    const refused = await post(server, '/query', {
      query,
      globals: { current_user_id: '018f0000-0000-7000-8000-000000000001' },
    });
    expect(refused.status).toBe(400);
    expect((await readJson(refused)).code).toBe('VALIDATION_ERROR');
  });

  test('the access mode: anonymous callers compile with policies, the service key without', async () => {
    const fresh = await serverWith({ serviceKey: SERVICE_KEY });
    try {
      await post(fresh, '/query', { query: 'select Item { name }' });
      await post(
        fresh,
        '/query',
        { query: 'select Item { name }' },
        { authorization: `Bearer ${SERVICE_KEY}` },
      );
      expect(calls.map((c) => c.options)).toEqual([
        { cardinality: 'many', access: { policies: true, defaultAccess: 'open' } },
        { cardinality: 'many', access: { policies: false, defaultAccess: 'open' } },
      ]);
    } finally {
      await fresh.close();
    }
  });

  test("defaultAccess: 'deny' reaches the compiler of callers under access policies", async () => {
    const fresh = await serverWith({ serviceKey: SERVICE_KEY, defaultAccess: 'deny' });
    try {
      await post(fresh, '/query', { query: 'select Item { name }' });
      expect(calls.map((c) => c.options?.access)).toEqual([
        { policies: true, defaultAccess: 'deny' },
      ]);
    } finally {
      await fresh.close();
    }
  });

  test('/metrics and /stats count compile-cache hits and misses', async () => {
    const before = (await readJson(await call(server, '/stats'))).queryCompileCache;
    await post(server, '/query', { query: 'select Item { name }', cardinality: 'many' });
    await post(server, '/query', { query: 'select Item { name }', cardinality: 'many' });
    const after = (await readJson(await call(server, '/stats'))).queryCompileCache;
    expect(after.hits - before.hits).toBe(2); // compiled by an earlier test
    expect(after.misses).toBe(before.misses);
    const text = await (await call(server, '/metrics')).text();
    expect(text).toContain(`svc_query_compile_cache_hits_total ${after.hits}`);
    expect(text).toContain(`svc_query_compile_cache_misses_total ${after.misses}`);
  });

  test('after POST /migrations the next query compiles against the new schema', async () => {
    const before = await post(server, '/query', { query: 'select Item { name, note }' });
    expect(before.status).toBe(400);
    const migrated = await post(
      server,
      '/migrations',
      { schema: SDL_WITH_NOTE },
      { authorization: `Bearer ${SERVICE_KEY}` },
    );
    expect((await readJson(migrated)).applied).toBe(true);
    const after = await post(server, '/query', { query: 'select Item { name, note }' });
    expect(after.status).toBe(200);
    await post(
      server,
      '/migrations',
      { schema: SDL, allowDataLoss: true },
      { authorization: `Bearer ${SERVICE_KEY}` },
    );
  });
});

describe('POST /query: who runs without access policies', () => {
  test('the simple protocol compiles without policies for everyone', async () => {
    const server = await serverWith({ protocol: 'simple' });
    try {
      await post(server, '/query', { query: 'select Item { name }' });
      expect(calls[0]?.options?.access).toEqual({ policies: false, defaultAccess: 'open' });
    } finally {
      await server.close();
    }
  });

  test('a superuser runs without policies, another user with them and sees its own id', async () => {
    const server = await serverWith({ enableAuth: true, jwtSecret: SECRET });
    try {
      const admin = await signUp(server, ['superuser']);
      const member = await signUp(server);
      await post(
        server,
        '/query',
        { query: 'select Item { name }' },
        { authorization: `Bearer ${admin}` },
      );
      await post(
        server,
        '/query',
        { query: 'select Item { name }' },
        { authorization: `Bearer ${member}` },
      );
      expect(calls.map((c) => c.options?.access?.policies)).toEqual([false, true]);
      const who = await post(
        server,
        '/query',
        { query: 'select (global tenant, global current_user_id)' },
        { authorization: `Bearer ${member}` },
      );
      const [[tenant, userId]] = (await readJson(who)).data;
      expect(tenant).toBeNull();
      expect(userId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await server.close();
    }
  });
});

describe('POST /query in read-only mode', () => {
  test('a read runs; a compiled write is 503 READ_ONLY and writes nothing', async () => {
    const server = await serverWith({ readOnly: true });
    try {
      expect((await post(server, '/query', { query: 'select Item { name }' })).status).toBe(200);
      const res = await post(server, '/query', {
        query: 'insert Item { name := <str>$name }',
        variables: { name: 'nope' },
      });
      expect(res.status).toBe(503);
      expect((await readJson(res)).code).toBe('READ_ONLY');
      const { rows } = await server.database.query(
        `select 1 from "default"."Item" where name = 'nope'`,
      );
      expect(rows).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
