import { randomUUID } from 'node:crypto';
import type { SvcServer } from '../src';
import { SECRET, readJson, sharedDatabase, signUp, start } from './helpers';

const db = sharedDatabase();
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const V1 = `
module default {
  type User {
    required name: str { constraint exclusive; }
    email: str;
    multi friends: User;
  }
  type Post {
    required title: str;
    author: User;
  }
}
`;
const V2 = V1.replace('email: str;', 'email: str;\n    bio: str;');

async function resetSchema(server: SvcServer) {
  // Each test starts from an empty schema in the shared database.
  await server.database.query('drop schema if exists "default" cascade');
  await server.database.query('drop schema if exists svc_meta cascade');
}

describe('schema and migrations over HTTP', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await start(db.get());
  });
  afterAll(() => server.close());
  beforeEach(() => resetSchema(server));

  test('an empty database has the empty schema', async () => {
    const res = await fetch(`${server.url}/schema`);
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(body.sdl).toBe('');
    expect(body.version).toMatch(/^[0-9a-f]{64}$/);
    expect(await readJson(await fetch(`${server.url}/migrations`))).toEqual([]);
  });

  test('a dry run shows the steps and changes nothing', async () => {
    const res = await post(`${server.url}/migrations`, { schema: V1, dryRun: true });
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(body.applied).toBe(false);
    expect(body.steps.length).toBeGreaterThan(0);
    expect(body.sql.length).toBeGreaterThan(0);
    expect((await readJson(await fetch(`${server.url}/schema`))).sdl).toBe('');
  });

  test('migrating applies, shows in /schema, /schema/types and /migrations; again is a no-op', async () => {
    const first = await readJson(await post(`${server.url}/migrations`, { schema: V1 }));
    expect(first.applied).toBe(true);
    expect(first.steps.map((s: { subject: string }) => s.subject)).toEqual(
      expect.arrayContaining(['default::User', 'default::Post']),
    );
    const schema = await readJson(await fetch(`${server.url}/schema`));
    expect(schema).toEqual({ version: first.version, sdl: V1 });

    const types = await readJson(await fetch(`${server.url}/schema/types`));
    const user = types.types.find((t: { name: string }) => t.name === 'default::User');
    expect(user.properties.map((p: { name: string }) => p.name)).toEqual(['id', 'name', 'email']);
    expect(user.properties[1]).toMatchObject({
      target: 'std::str',
      required: true,
      cardinality: 'One',
    });
    expect(user.links).toEqual([
      expect.objectContaining({ name: 'friends', target: 'default::User', cardinality: 'Many' }),
    ]);

    const again = await readJson(await post(`${server.url}/migrations`, { schema: V1 }));
    expect(again).toEqual({ version: first.version, applied: false, steps: [], sql: [] });

    const second = await readJson(await post(`${server.url}/migrations`, { schema: V2 }));
    expect(second.applied).toBe(true);
    const history = await readJson(await fetch(`${server.url}/migrations`));
    expect(history.map((h: { version: string }) => h.version)).toEqual([
      second.version,
      first.version,
    ]);
  });

  test('a schema error is 400 with its class and position', async () => {
    const res = await post(`${server.url}/migrations`, {
      schema: 'type User {\n  required name: strr;\n}\n',
    });
    expect(res.status).toBe(400);
    const body = await readJson(res);
    expect(body).toMatchObject({
      code: 'QUERY_ERROR',
      type: 'InvalidReferenceError',
      extensions: { position: { line: 2 } },
    });
  });

  test('dropping data needs allowDataLoss', async () => {
    await post(`${server.url}/migrations`, { schema: V2 });
    await server.database.query(
      `insert into "default"."User" (name, bio) values ('ada', 'mathematician')`,
    );
    const refused = await post(`${server.url}/migrations`, { schema: V1 });
    expect(refused.status).toBe(400);
    expect(await readJson(refused)).toMatchObject({ code: 'QUERY_ERROR', type: 'DataLossError' });
    const allowed = await post(`${server.url}/migrations`, { schema: V1, allowDataLoss: true });
    expect((await readJson(allowed)).applied).toBe(true);
  });

  test('renames keep data and fills fill it', async () => {
    await post(`${server.url}/migrations`, { schema: V2 });
    await server.database.query(
      `insert into "default"."User" (name, bio) values ('ada', 'mathematician')`,
    );
    const V3 = V2.replace('bio: str;', 'about: str;\n    required handle: str;');
    const res = await post(`${server.url}/migrations`, {
      schema: V3,
      renames: [{ kind: 'pointer', type: 'User', from: 'bio', to: 'about' }],
      fills: { 'default::User.handle': `'@' ++ .name` },
    });
    expect(res.status).toBe(200);
    const { rows } = await server.database.query(`select about, handle from "default"."User"`);
    expect(rows).toEqual([{ about: 'mathematician', handle: '@ada' }]);
    const wrong = await post(`${server.url}/migrations`, {
      schema: V2,
      renames: [{ kind: 'type', from: 'Nobody', to: 'User' }],
    });
    expect(wrong.status).toBe(400);
    expect(await readJson(wrong)).toMatchObject({ code: 'QUERY_ERROR', type: 'MigrationError' });
  });

  test.each([
    [{}, '"schema" must be SDL text (a string)'],
    [
      { schema: V1, renames: [{ from: 'a', to: 'b' }] },
      '"renames" must be a list of {"kind": "type", "from", "to"} or {"kind": "pointer", "type", "from", "to"}',
    ],
    [
      { schema: V1, renames: { a: 'b' } },
      '"renames" must be a list of {"kind": "type", "from", "to"} or {"kind": "pointer", "type", "from", "to"}',
    ],
    [
      { schema: V1, fills: { 'User.x': 1 } },
      '"fills" must be an object of pointer → EdgeQL expression (strings)',
    ],
    [{ schema: V1, dryRun: 'yes' }, '"dryRun" must be true or false'],
    [{ schema: V1, force: true }, 'unknown field "force" in the request body'],
    [[V1], 'request body must be a JSON object with a "schema" string'],
  ])('POST /migrations %j is 400', async (body, message) => {
    const res = await post(`${server.url}/migrations`, body);
    expect(res.status).toBe(400);
    expect(await readJson(res)).toEqual({
      code: 'VALIDATION_ERROR',
      error: `VALIDATION_ERROR: ${message}`,
    });
  });
});

describe('who may migrate', () => {
  const serviceKey = `service-${randomUUID()}-${randomUUID()}`;
  let server: SvcServer;
  beforeAll(async () => {
    server = await start(db.get(), { enableAuth: true, jwtSecret: SECRET, serviceKey });
  });
  afterAll(() => server.close());
  beforeEach(() => resetSchema(server));

  test('with auth on, an anonymous caller or a plain user is 403', async () => {
    expect((await post(`${server.url}/migrations`, { schema: V1 })).status).toBe(403);
    const res = await post(
      `${server.url}/migrations`,
      { schema: V1 },
      { authorization: `Bearer ${await signUp(server, ['editor'])}` },
    );
    expect(res.status).toBe(403);
    expect(await readJson(res)).toEqual({
      code: 'ACCESS_DENIED',
      error: 'ACCESS_DENIED: migrations need the service key or a superuser',
    });
  });

  test('the service key and a superuser may migrate', async () => {
    expect(
      (
        await post(
          `${server.url}/migrations`,
          { schema: V1, dryRun: true },
          { authorization: `Bearer ${serviceKey}` },
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await post(
          `${server.url}/migrations`,
          { schema: V1, dryRun: true },
          { authorization: `Bearer ${await signUp(server, ['superuser'])}` },
        )
      ).status,
    ).toBe(200);
  });
});

describe('schema at start', () => {
  test('createServer({schema}) migrates before serving; a bad schema fails the start', async () => {
    const server = await start(db.get(), { schema: V1 });
    try {
      expect((await readJson(await fetch(`${server.url}/schema`))).sdl).toBe(V1);
    } finally {
      await resetSchema(server);
      await server.close();
    }
    await expect(start(db.get(), { schema: 'type X { p: nope; }' })).rejects.toMatchObject({
      type: 'InvalidReferenceError',
    });
  });
});
