/*
 * Issue 26, point 7: JSON nested deeper than anything parses it safely. The attack: a `json`
 * variable nested 5,000 levels deep (`{"x": [[[[...]]]]}`, 10 KB) overflowed the stack of the
 * parameter encoder and answered 500; so did a REST read of a stored value that deep. Every JSON
 * value a caller sends (a `/query` variable or global, a REST body field, an auth `metadata`)
 * may nest MAX_JSON_DEPTH levels: deeper is 400 VALIDATION_ERROR naming the value, never a 500;
 * up to the limit the value is stored and read back unchanged. Whole bodies of any depth are
 * refused by their shape, in the envelope.
 */
import { MAX_JSON_DEPTH } from '@svc/core';
import type { SvcServer } from '../src';
import { SECRET, build, call, readJson, sharedDatabase } from './helpers';

const db = sharedDatabase();

const SDL = `
global settings: json;
type Holder { required name: str; }
type Doc {
  required title: str;
  data: json;
  holder: Holder { annotation rest::expand := 'true'; }
}
`;

/** A JSON text nested `depth` arrays deep, with one number at the bottom. */
const nestedText = (depth: number) => `${'['.repeat(depth)}7${']'.repeat(depth)}`;
/** The same as a value (JSON.parse builds it without recursion). */
const nested = (depth: number): unknown => JSON.parse(nestedText(depth));
/** A body with `fields` written as raw JSON texts, so no serialiser has to walk them. */
const rawBody = (fields: Record<string, string>) =>
  `{${Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(',')}}`;

const post = (
  server: SvcServer,
  path: string,
  body: string,
  headers: Record<string, string> = {},
) =>
  call(server, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

async function expectRefused(res: Response, ...named: string[]) {
  const body = await readJson(res);
  expect({ status: res.status, code: body.code }).toEqual({
    status: 400,
    code: 'VALIDATION_ERROR',
  });
  expect(body.error).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  for (const name of named) expect(body.error).toContain(name);
}

describe('deeply nested JSON input (issue 26, 7)', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), { schema: SDL });
  });
  afterAll(() => server.close());

  test('a json variable nested 5,000 levels deep is 400 naming the variable, not 500', async () => {
    const res = await post(
      server,
      '/query',
      rawBody({
        query: '"select <json>$payload"',
        variables: rawBody({ payload: nestedText(5000) }),
      }),
    );
    await expectRefused(res, '$payload');
  });

  test('one level past the limit is refused; at the limit the value round-trips', async () => {
    const over = await post(
      server,
      '/query',
      rawBody({
        query: '"select <json>$payload"',
        variables: rawBody({ payload: nestedText(MAX_JSON_DEPTH + 1) }),
      }),
    );
    await expectRefused(over, '$payload');
    const at = await post(
      server,
      '/query',
      rawBody({
        query: '"select <json>$payload"',
        variables: rawBody({ payload: nestedText(MAX_JSON_DEPTH) }),
      }),
    );
    expect(at.status).toBe(200);
    expect(await readJson(at)).toEqual({ data: [nested(MAX_JSON_DEPTH)] });
  });

  test('a deep object inside an array<json> variable is refused by naming the variable', async () => {
    const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const inArray = await post(
      server,
      '/query',
      rawBody({
        query: '"select <array<json>>$items"',
        variables: rawBody({ items: `[1, ${deepObject}]` }),
      }),
    );
    await expectRefused(inArray, '$items');
  });

  test('a json global nested 5,000 levels deep is 400 naming the global', async () => {
    const res = await post(
      server,
      '/query',
      rawBody({
        query: '"select global settings"',
        globals: rawBody({ settings: nestedText(5000) }),
      }),
    );
    await expectRefused(res, 'settings');
    const at = await post(
      server,
      '/query',
      rawBody({
        query: '"select global settings"',
        globals: rawBody({ settings: nestedText(MAX_JSON_DEPTH) }),
      }),
    );
    expect(at.status).toBe(200);
    expect(await readJson(at)).toEqual({ data: [nested(MAX_JSON_DEPTH)] });
  });

  test('whole bodies nested 5,000 levels deep are 400 in the envelope on every route', async () => {
    for (const path of ['/query', '/migrations', '/api/Doc']) {
      const res = await post(server, path, nestedText(5000));
      expect({ path, status: res.status, code: (await readJson(res)).code }).toEqual({
        path,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    const variables = await post(
      server,
      '/query',
      rawBody({ query: '"select 1"', variables: nestedText(5000) }),
    );
    expect(variables.status).toBe(400);
    expect((await readJson(variables)).error).toContain('"variables" must be a JSON object');
  });

  test('a REST body field nested 5,000 levels deep is 400 naming the field', async () => {
    await expectRefused(
      await post(server, '/api/Doc', rawBody({ title: '"deep"', data: nestedText(5000) })),
      '"data"',
    );
    const created = await post(
      server,
      '/api/Doc',
      rawBody({ title: '"shallow"', data: nestedText(MAX_JSON_DEPTH) }),
    );
    expect(created.status).toBe(201);
    const { id } = await readJson(created);
    const patched = await call(server, `/api/Doc/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: rawBody({ data: nestedText(5000) }),
    });
    await expectRefused(patched, '"data"');
    const read = await call(server, `/api/Doc/${id}`);
    expect(read.status).toBe(200);
    expect((await readJson(read)).data).toEqual(nested(MAX_JSON_DEPTH));
  });

  test('a stored value deeper than any input, read through REST with an expanded link, answers 200', async () => {
    // Built by the database from a string, so no input limit applies to it; 4,500 levels is
    // within what PostgreSQL and PGlite parse, and past what JSON.stringify writes.
    const depth = 4500;
    const inserted = await post(
      server,
      '/query',
      JSON.stringify({
        query:
          "insert Doc { title := 'stored', data := to_json(<str>$text), holder := (insert Holder { name := 'h' }) }",
        variables: { text: nestedText(depth) },
      }),
    );
    expect(inserted.status).toBe(200);
    const [{ id }] = (await readJson(inserted)).data;
    const one = await call(server, `/api/Doc/${id}`);
    expect(one.status).toBe(200);
    const text = await one.text();
    expect(text).toContain(nestedText(depth));
    expect(text).toContain('"holder":{');
    const list = await call(server, '/api/Doc?title=stored');
    expect(list.status).toBe(200);
    expect(await list.text()).toContain(nestedText(depth));
  });
});

describe('deeply nested auth metadata (issue 26, 7)', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), { enableAuth: true, jwtSecret: SECRET });
  });
  afterAll(() => server.close());

  const register = (email: string, metadata: string) =>
    post(
      server,
      '/auth/register',
      rawBody({ email: JSON.stringify(email), password: '"correct-horse-9!"', metadata }),
    );

  test('metadata nested 5,000 levels deep is 400 naming metadata; at the limit it is stored', async () => {
    await expectRefused(
      await register('deep@example.com', `{"a":${nestedText(5000)}}`),
      'metadata',
    );
    const ok = await register('limit@example.com', `{"a":${nestedText(MAX_JSON_DEPTH - 1)}}`);
    expect(ok.status).toBe(201);
    expect((await readJson(ok)).user.metadata).toEqual({ a: nested(MAX_JSON_DEPTH - 1) });
  });
});
