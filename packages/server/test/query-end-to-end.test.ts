/*
 * POST /query end to end: the real EdgeQL compiler (@svc/core's compileQuery, the server's
 * default), the engine, and the database, through the HTTP route. What test/query.test.ts checks
 * with a stand-in compiler (envelope, binding, access, read-only, cache) is checked here once
 * more on queries as a user writes them, with the result conventions of the spec's Versioning.
 */
import { randomUUID } from 'node:crypto';
import type { SvcServer } from '../src';
import { build, call, readJson, sharedDatabase } from './helpers';

const db = sharedDatabase();

const SDL = `
type User {
  required name: str { constraint exclusive; }
  email: str;
  age: int32;
  multi friends: User;
}
type Post {
  required title: str;
  author: User;
}
`;

const query = (server: SvcServer, body: Record<string, unknown>) =>
  call(server, '/query', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('POST /query with the EdgeQL compiler', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), { schema: SDL });
  });
  afterAll(() => server.close());

  test('an insert answers the objects it wrote; a select the shape asked (spec Versioning 16)', async () => {
    const inserted = await query(server, {
      query: 'insert User { name := <str>$name, age := <int32>$age }',
      variables: { name: 'Ann', age: 36 },
    });
    expect(inserted.status).toBe(200);
    const written = (await readJson(inserted)).data;
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ id: expect.any(String), name: 'Ann' });
    const selected = await query(server, {
      query: 'select User { name, age } filter .name = <str>$name',
      variables: { name: 'Ann' },
    });
    expect(await readJson(selected)).toEqual({ data: [{ name: 'Ann', age: 36 }] });
  });

  test('a select of non-objects answers the values (spec Versioning 17)', async () => {
    expect(await readJson(await query(server, { query: 'select 1 + 1' }))).toEqual({ data: [2] });
    expect(await readJson(await query(server, { query: 'select {1, 2, 3}' }))).toEqual({
      data: [1, 2, 3],
    });
  });

  test('atMostOne refuses a possibly-many select before running it (spec Versioning 2, 11)', async () => {
    const res = await query(server, { query: 'select User { name }', cardinality: 'atMostOne' });
    expect(res.status).toBe(400);
    expect((await readJson(res)).type).toBe('ResultCardinalityMismatchError');
    const byId = await query(server, {
      query: 'select User { name } filter .name = <str>$name',
      variables: { name: 'nobody' },
      cardinality: 'atMostOne',
    });
    expect(await readJson(byId)).toEqual({ data: [] });
  });

  test('one with nothing found is NoDataError', async () => {
    const res = await query(server, {
      query: 'select User { name } filter .name = <str>$name',
      variables: { name: 'nobody' },
      cardinality: 'one',
    });
    expect(res.status).toBe(400);
    expect((await readJson(res)).type).toBe('NoDataError');
  });

  test('a missing and an unknown variable are 400 VALIDATION_ERROR naming them (spec Versioning 34)', async () => {
    const missing = await query(server, { query: 'select <str>$greeting' });
    expect(missing.status).toBe(400);
    expect((await readJson(missing)).error).toContain('$greeting');
    const unknown = await query(server, {
      query: 'select <str>$greeting',
      variables: { greeting: 'hi', other: 1 },
    });
    expect(unknown.status).toBe(400);
    expect((await readJson(unknown)).error).toContain('$other');
  });

  test('a syntax error is EdgeQLSyntaxError with its position', async () => {
    const res = await query(server, { query: 'select User {' });
    expect(res.status).toBe(400);
    const body = await readJson(res);
    expect(body.code).toBe('QUERY_ERROR');
    expect(body.type).toBe('EdgeQLSyntaxError');
    expect(body.extensions.position).toEqual({ line: 1, column: expect.any(Number) });
  });

  test('an unknown name is InvalidReferenceError with its position', async () => {
    const res = await query(server, { query: 'select Nope' });
    expect(res.status).toBe(400);
    const body = await readJson(res);
    expect(body.type).toBe('InvalidReferenceError');
    expect(body.extensions.position).toEqual({ line: 1, column: 8 });
  });

  test('an exclusive violation is 409 with the constraint message', async () => {
    const body = { query: 'insert User { name := <str>$name }', variables: { name: 'Twin' } };
    expect((await query(server, body)).status).toBe(200);
    const res = await query(server, body);
    expect(res.status).toBe(409);
    expect(await readJson(res)).toEqual({
      code: 'CONSTRAINT_VIOLATION',
      error: 'CONSTRAINT_VIOLATION: name violates exclusivity constraint',
      type: 'ConstraintViolationError',
      extensions: { sqlState: '23505' },
    });
  });

  test('a division by zero is DivisionByZeroError, never a 500', async () => {
    const res = await query(server, { query: 'select 1 // <int64>$d', variables: { d: 0 } });
    expect(res.status).toBe(400);
    expect((await readJson(res)).type).toBe('DivisionByZeroError');
  });

  test('the second run of a query is a cache hit', async () => {
    const before = (await readJson(await call(server, '/stats'))).queryCompileCache;
    await query(server, { query: 'select count(User)' });
    await query(server, { query: 'select count(User)' });
    const after = (await readJson(await call(server, '/stats'))).queryCompileCache;
    expect(after.misses - before.misses).toBe(1);
    expect(after.hits - before.hits).toBe(1);
  });
});

describe('POST /query with the EdgeQL compiler, read-only', () => {
  test('a select runs, an insert is 503 READ_ONLY', async () => {
    const server = await build(db.get(), { schema: SDL, readOnly: true });
    try {
      expect((await query(server, { query: 'select count(User)' })).status).toBe(200);
      const res = await query(server, { query: "insert User { name := 'ro' }" });
      expect(res.status).toBe(503);
      expect((await readJson(res)).code).toBe('READ_ONLY');
    } finally {
      await server.close();
    }
  });

  // Spec Authentication 12: read-only mode rejects writes, including nested writes.
  test.each([
    ['update', "update User filter .name = 'ro-kept' set { age := 1 }"],
    ['delete', "delete User filter .name = 'ro-kept'"],
    ['a select of an insert', "select (insert User { name := 'ro-nested' }) { name }"],
    ['a with-bound insert', "with u := (insert User { name := 'ro-with' }) select u { name }"],
    ['a for over inserts', "for n in {'ro-a', 'ro-b'} union (insert User { name := n })"],
    [
      'an insert in a shape',
      "select (insert Post { title := 'ro', author := (insert User { name := 'ro-in' }) }) { title }",
    ],
    ['an insert in a condition', "select 1 if exists (insert User { name := 'ro-if' }) else 2"],
  ])('%s is 503 READ_ONLY before anything runs', async (_what, text) => {
    const writer = await build(db.get(), { schema: SDL });
    const server = await build(db.get(), { schema: SDL, readOnly: true });
    try {
      await query(writer, { query: "insert User { name := 'ro-kept', age := 7 } unless conflict" });
      const count = async () =>
        (
          await readJson(
            await query(writer, { query: 'select (count(User), count(Post), sum(User.age))' }),
          )
        ).data;
      const before = await count();
      const res = await query(server, { query: text });
      expect(res.status).toBe(503);
      expect((await readJson(res)).code).toBe('READ_ONLY');
      expect(await count()).toEqual(before);
    } finally {
      await server.close();
      await writer.close();
    }
  });
});

describe('POST /query with "describe": true', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), { schema: SDL });
  });
  afterAll(() => server.close());

  test('answers the types of the variables and the result; nothing runs', async () => {
    const before = await readJson(await query(server, { query: 'select count(User)' }));
    const res = await query(server, {
      query: 'insert User { name := <str>$name, age := <optional int32>$age }',
      describe: true,
    });
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(Object.keys(body)).toEqual(['describe']);
    expect(body.describe.input).toEqual({
      kind: 'arguments',
      arguments: [
        { name: 'name', type: { kind: 'scalar', name: 'std::str' }, required: true },
        { name: 'age', type: { kind: 'scalar', name: 'std::int32' }, required: false },
      ],
    });
    expect(body.describe.output).toMatchObject({ kind: 'object', name: 'default::User' });
    expect(body.describe.cardinality).toBe('one');
    // No variables were needed, and nothing was written.
    expect(await readJson(await query(server, { query: 'select count(User)' }))).toEqual(before);
  });

  test('a shape and the cardinality the compiler infers', async () => {
    const res = await query(server, {
      query: 'select User { name, friends: { name } } filter .name = <str>$name',
      describe: true,
    });
    expect((await readJson(res)).describe).toEqual({
      input: {
        kind: 'arguments',
        arguments: [{ name: 'name', type: { kind: 'scalar', name: 'std::str' }, required: true }],
      },
      output: {
        kind: 'object',
        name: 'default::User',
        pointers: [
          { name: 'name', cardinality: 'one', type: { kind: 'scalar', name: 'std::str' } },
          {
            name: 'friends',
            cardinality: 'many',
            type: {
              kind: 'object',
              name: 'default::User',
              pointers: [
                { name: 'name', cardinality: 'one', type: { kind: 'scalar', name: 'std::str' } },
              ],
            },
          },
        ],
      },
      cardinality: 'atMostOne',
    });
  });

  test('a query that does not compile is its error; describe must be a boolean', async () => {
    const bad = await query(server, { query: 'select User { nope }', describe: true });
    expect(bad.status).toBe(400);
    expect(await readJson(bad)).toMatchObject({ type: 'InvalidReferenceError' });
    const wrong = await query(server, { query: 'select 1', describe: 'yes' });
    expect(wrong.status).toBe(400);
    expect(await readJson(wrong)).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('an insert that gives the id (allowUserSpecifiedId)', () => {
  const given = () => randomUUID();

  test('off by default: 400 QueryError naming the setting', async () => {
    const server = await build(db.get(), { schema: SDL });
    try {
      const res = await query(server, {
        query: 'insert User { id := <uuid>$id, name := <str>$name }',
        variables: { id: given(), name: 'id-off' },
      });
      expect(res.status).toBe(400);
      const body = await readJson(res);
      expect(body).toMatchObject({
        type: 'QueryError',
        error: expect.stringContaining("cannot assign to property 'id'"),
      });
      expect(body.hint).toContain('SVC_ALLOW_USER_SPECIFIED_ID');
    } finally {
      await server.close();
    }
  });

  test('on (SVC_ALLOW_USER_SPECIFIED_ID): /query and REST write the id given; a taken one is 409', async () => {
    const server = await build(db.get(), {
      schema: SDL,
      env: { SVC_ALLOW_USER_SPECIFIED_ID: 'true' },
    });
    try {
      const id = given();
      const inserted = await query(server, {
        query: 'insert User { id := <uuid>$id, name := <str>$name }',
        variables: { id, name: `id-on-${id}` },
      });
      expect(inserted.status).toBe(200);
      expect((await readJson(inserted)).data).toEqual([
        expect.objectContaining({ id, name: `id-on-${id}` }),
      ]);
      const restId = given();
      const created = await call(server, '/api/Post', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: restId, title: 'given', author: id }),
      });
      expect(created.status).toBe(201);
      expect(await readJson(created)).toMatchObject({ id: restId, title: 'given', author: id });
      // The User's id, given to a Post: ids are unique across types.
      const taken = await query(server, {
        query: "insert Post { id := <uuid>$id, title := 'again' }",
        variables: { id },
      });
      expect(taken.status).toBe(409);
      expect(await readJson(taken)).toMatchObject({
        type: 'ConstraintViolationError',
        error: expect.stringContaining('id violates exclusivity constraint'),
      });
    } finally {
      await server.close();
    }
  });
});

describe('POST /query across svc processes sharing the database', () => {
  test("another server's migration is seen by the next query", async () => {
    const a = await build(db.get(), { schema: SDL });
    const b = await build(db.get());
    try {
      // b has read the schema: it does not know Tag yet.
      expect((await query(b, { query: 'select count(User)' })).status).toBe(200);
      const unknown = await query(b, { query: 'select Tag { label }' });
      expect((await readJson(unknown)).type).toBe('InvalidReferenceError');
      const migrated = await call(a, '/migrations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ schema: `${SDL}\ntype Tag { required label: str; }\n` }),
      });
      expect((await readJson(migrated)).applied).toBe(true);
      expect(await readJson(await query(b, { query: 'select Tag { label }' }))).toEqual({
        data: [],
      });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
