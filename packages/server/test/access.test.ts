/*
 * Access policies over HTTP (issue 25): `/query` and REST as user A, user B, a guest, an
 * anonymous caller, a superuser and the service key, with real tokens from the server's own auth
 * routes, on the engine the suite runs on (PGlite or PostgreSQL). After every refused write, the
 * rows are counted with the service key: nothing written, nothing lost. The README's worked
 * example runs here as the README shows it.
 */
import type { SvcServer } from '../src';
import { SECRET, build, call, postQuery, sharedDatabase, signUp } from './helpers';
import { api, envelope } from './rest-helpers';

const db = sharedDatabase();
const SERVICE_KEY = `svc-service-key-${'k'.repeat(32)}`;

const SDL = `
type Note {
  required body: str;
  required owner_id: uuid {
    default := global current_user_id;
    readonly := true;
  };
  access policy owner_only
    allow all
    using (.owner_id ?= global current_user_id);
}

type Post {
  required title: str;
  multi notes: Note;
  access policy anyone_reads
    allow select
    using (true);
  access policy editors_write
    allow insert, update, delete
    using (has_role('editor'));
  access policy no_guests
    deny insert
    using (global current_user_is_anonymous) { errmessage := 'guests may not post' };
}
`;

async function data(server: SvcServer, text: string, token?: string): Promise<unknown[]> {
  const res = await postQuery(server, text, token);
  if (res.status !== 200) throw new Error(`${text}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as unknown[];
}

/** Every row, read with the service key. */
async function rows(server: SvcServer): Promise<unknown> {
  return data(
    server,
    `select {
      notes := (select Note { body, owner_id } order by .body),
      posts := (select Post { title, notes: { body } order by .body } order by .title),
    }`,
    SERVICE_KEY,
  );
}

describe('access policies over /query and REST', () => {
  let server: SvcServer;
  let a: string;
  let b: string;
  let editor: string;
  let superuser: string;
  let guest: string;
  let aNote: string;
  let bNote: string;
  let post: string;

  beforeAll(async () => {
    server = await build(db.get(), {
      schema: SDL,
      enableAuth: true,
      jwtSecret: SECRET,
      serviceKey: SERVICE_KEY,
    });
    [a, b, editor, superuser] = await Promise.all([
      signUp(server),
      signUp(server),
      signUp(server, ['editor']),
      signUp(server, ['superuser']),
    ]);
    const anon = await call(server, '/auth/anonymous', { method: 'POST' });
    guest = ((await anon.json()) as { token: string }).token;
    aNote = (
      (await api(server, 'POST', '/api/Note', { body: 'a-note' }, { token: a })).body as {
        id: string;
      }
    ).id;
    bNote = (
      (await api(server, 'POST', '/api/Note', { body: 'b-note' }, { token: b })).body as {
        id: string;
      }
    ).id;
    post = (
      (await api(server, 'POST', '/api/Post', { title: 'Hello' }, { token: editor })).body as {
        id: string;
      }
    ).id;
    await data(server, `update Post filter .title = 'Hello' set { notes := Note }`, SERVICE_KEY);
  });
  afterAll(() => server.close());

  test('reads: each caller sees what the policies allow, through /query and REST alike', async () => {
    const notes = async (token?: string) => ({
      query: await data(server, 'select Note.body order by Note.body', token),
      rest: (
        (await api(server, 'GET', '/api/Note?order_by=body', undefined, { token })).body as {
          body: string;
        }[]
      ).map((n) => n.body),
    });
    expect(await notes(a)).toEqual({ query: ['a-note'], rest: ['a-note'] });
    expect(await notes(b)).toEqual({ query: ['b-note'], rest: ['b-note'] });
    expect(await notes()).toEqual({ query: [], rest: [] });
    expect(await notes(guest)).toEqual({ query: [], rest: [] });
    expect(await notes(superuser)).toEqual({
      query: ['a-note', 'b-note'],
      rest: ['a-note', 'b-note'],
    });
    expect(await notes(SERVICE_KEY)).toEqual({
      query: ['a-note', 'b-note'],
      rest: ['a-note', 'b-note'],
    });
    // Anyone reads posts; a post's notes are filtered as notes are.
    expect(await data(server, 'select Post { title, notes: { body } }')).toEqual([
      { title: 'Hello', notes: [] },
    ]);
    expect(await data(server, 'select Post { title, notes: { body } }', a)).toEqual([
      { title: 'Hello', notes: [{ body: 'a-note' }] },
    ]);
    const linked = await api(server, 'GET', `/api/Post/${post}/notes`, undefined, { token: b });
    expect(linked.status).toBe(200);
    expect((linked.body as { body: string }[]).map((n) => n.body)).toEqual(['b-note']);
  });

  test('a hidden row by id is 404, as a missing one', async () => {
    const hidden = await api(server, 'GET', `/api/Note/${bNote}`, undefined, { token: a });
    expect(hidden.status).toBe(404);
    expect(envelope(hidden).code).toBe('NOT_FOUND');
    expect((await api(server, 'GET', `/api/Note/${aNote}`, undefined, { token: a })).status).toBe(
      200,
    );
  });

  test('a denied write is 403 ACCESS_DENIED and writes nothing', async () => {
    const before = await rows(server);
    const denied = await api(server, 'POST', '/api/Post', { title: 'Mine' }, { token: a });
    expect(denied.status).toBe(403);
    expect(envelope(denied)).toMatchObject({
      code: 'ACCESS_DENIED',
      type: 'AccessPolicyError',
      error: 'ACCESS_DENIED: access policy violation on insert of default::Post',
    });
    const viaQuery = await postQuery(server, `insert Post { title := 'Mine' }`, a);
    expect(viaQuery.status).toBe(403);
    expect(viaQuery.body.code).toBe('ACCESS_DENIED');
    const guestPost = await postQuery(server, `insert Post { title := 'Guest' }`, guest);
    expect(guestPost.status).toBe(403);
    // A guest is refused even with the role: the deny names itself.
    const anonymous = await api(server, 'POST', '/api/Post', { title: 'Anon' });
    expect(anonymous.status).toBe(403);
    // A note owned by someone else cannot be made (owner_id is B's, the policy says A's).
    const forged = await postQuery(
      server,
      'insert Note { body := <str>$body, owner_id := <uuid>$owner }',
      a,
      { variables: { body: 'forged', owner: await userId(b) } },
    );
    expect(forged.status).toBe(403);
    expect(await rows(server)).toEqual(before);
  });

  test('PATCH and DELETE of a row the caller cannot reach change nothing', async () => {
    const before = await rows(server);
    const patched = await api(
      server,
      'PATCH',
      `/api/Note/${bNote}`,
      { body: 'mine now' },
      {
        token: a,
      },
    );
    expect(patched.status).toBe(404);
    const deleted = await api(server, 'DELETE', `/api/Note/${bNote}`, undefined, { token: a });
    expect(deleted.status).toBe(204);
    const postPatch = await api(server, 'PATCH', `/api/Post/${post}`, { title: 'x' }, { token: a });
    expect(postPatch.status).toBe(404);
    expect((await api(server, 'DELETE', `/api/Post/${post}`)).status).toBe(204);
    // An anonymous caller's delete reaches nothing; B's, only B's note (put back below).
    expect(await data(server, 'delete Note')).toEqual([]);
    expect(await data(server, 'delete Post', a)).toEqual([]);
    expect(await rows(server)).toEqual(before);
  });

  test("the caller's globals come from the token, never from the body", async () => {
    expect(await data(server, 'select global current_user_id', a)).toEqual([await userId(a)]);
    expect(await data(server, 'select global current_user_id')).toEqual([]);
    expect(await data(server, 'select global current_user_is_anonymous', guest)).toEqual([true]);
    expect(await data(server, 'select global current_user_is_anonymous', a)).toEqual([false]);
    expect(await data(server, "select has_role('editor')", editor)).toEqual([true]);
    expect(await data(server, 'select global current_role', editor)).toEqual(['editor']);
    for (const name of ['current_user_id', 'current_user_is_anonymous', 'sys::current_role']) {
      const res = await postQuery(server, 'select 1', undefined, { globals: { [name]: 'x' } });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
  });

  async function userId(token: string): Promise<string> {
    const res = await call(server, '/auth/profile', {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await res.json()) as { id: string }).id;
  }
});

describe("the README's worked example", () => {
  test('an anonymous read, a denied write, a role that shows only in tokens issued after it', async () => {
    const server = await build(db.get(), {
      schema: SDL,
      enableAuth: true,
      jwtSecret: SECRET,
      serviceKey: SERVICE_KEY,
    });
    try {
      const json = { 'content-type': 'application/json' };
      const post = (path: string, body: unknown, token?: string) =>
        call(server, path, {
          method: 'POST',
          headers: { ...json, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
      expect((await post('/api/Post', { title: 'Readme' }, SERVICE_KEY)).status).toBe(201);
      const list = await call(server, '/api/Post?title=Readme');
      expect(await list.json()).toMatchObject([{ title: 'Readme' }]);
      const email = `ann-${Date.now()}@example.com`;
      const password = 'a long passphrase';
      let ann = (
        (await (await post('/auth/register', { email, password })).json()) as {
          token: string;
        }
      ).token;
      expect((await post('/api/Post', { title: 'Mine' }, ann)).status).toBe(403);
      const auth = server.auth as NonNullable<SvcServer['auth']>;
      if (!(await auth.roles.list()).some((r) => r.name === 'editor'))
        await auth.roles.create('editor');
      await auth.roles.assign(email, 'editor');
      // The token issued before the assignment keeps its roles.
      expect((await post('/api/Post', { title: 'Mine' }, ann)).status).toBe(403);
      ann = ((await (await post('/auth/login', { email, password })).json()) as { token: string })
        .token;
      const mine = await post('/api/Post', { title: 'Mine' }, ann);
      expect(mine.status).toBe(201);
      const note = await post(
        '/query',
        { query: 'insert Note { body := <str>$body }', variables: { body: 'draft' } },
        ann,
      );
      expect(note.status).toBe(200);
      const anonymous = await post('/query', { query: 'select Note { body }' });
      expect(await anonymous.json()).toEqual({ data: [] });
      const forged = await post('/query', {
        query: 'select Note { body }',
        globals: { current_user_id: '0193a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b' },
      });
      expect(forged.status).toBe(400);
    } finally {
      await server.close();
    }
  });
});
