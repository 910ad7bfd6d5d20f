/*
 * The signed-in data path at one round trip (issue 34): `/query` and REST reads carry the check
 * of the caller's session in the query's own statement (http/pending-session, @svc/core
 * `RunOptions.probe`), and nothing is answered on a dead session: not data, not an error about
 * the request, not a write. Statements are counted by wrapping the database the server is given.
 */
import { countingQueries } from '@svc/test-support';
import type { SvcServer } from '../src';
import { SECRET, build, call, postQuery, sharedDatabase, signUp } from './helpers';
import { api, envelope } from './rest-helpers';

const db = sharedDatabase();
const SERVICE_KEY = `svc-service-key-${'s'.repeat(32)}`;

const SDL = `
type Item {
  required name: str { constraint exclusive; };
  access policy everyone allow all using (true);
}
`;

/** The statements of a request that are not the schema tracker's periodic version read. */
function ofRequest(sent: string[]): string[] {
  return sent.filter((sql) => !/svc_meta\.migrations/.test(sql));
}

describe('a signed-in read is one statement; a dead session gets nothing', () => {
  let server: SvcServer;
  let sent: string[];
  let id: string;

  beforeAll(async () => {
    const counted = countingQueries(db.get().db);
    sent = counted.sent;
    server = await build(db.get(), {
      schema: SDL,
      enableAuth: true,
      jwtSecret: SECRET,
      serviceKey: SERVICE_KEY,
      databaseInstance: counted.db,
    });
    const made = await postQuery(server, `insert Item { name := 'one' }`, SERVICE_KEY);
    expect(made.status).toBe(200);
    id = ((made.body.data as { id: string }[])[0] as { id: string }).id;
  });
  afterAll(() => server.close());

  test('a /query read and a REST read by id: one statement each, the session read inside it', async () => {
    const token = await signUp(server);
    // Warm: the compile cache and the schema snapshot.
    await postQuery(server, 'select Item { name }', token);
    sent.length = 0;
    const read = await postQuery(server, 'select Item { name }', token);
    expect(read).toMatchObject({ status: 200, body: { data: [{ name: 'one' }] } });
    const statements = ofRequest(sent);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('svc_auth.sessions');

    await api(server, 'GET', `/api/Item/${id}`, undefined, { token });
    sent.length = 0;
    const rest = await api(server, 'GET', `/api/Item/${id}`, undefined, { token });
    expect(rest.status).toBe(200);
    expect(ofRequest(sent)).toHaveLength(1);
    expect(ofRequest(sent)[0]).toContain('svc_auth.sessions');
  });

  test('GET /auth/profile: one statement (the session with its user), and 401 with the challenge once the session ends', async () => {
    const token = await signUp(server);
    const profile = () =>
      call(server, '/auth/profile', { headers: { authorization: `Bearer ${token}` } });
    expect((await profile()).status).toBe(200);
    sent.length = 0;
    const me = await profile();
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toMatch(/@/);
    const statements = ofRequest(sent);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('svc_auth.sessions');
    expect(statements[0]).toContain('svc_auth.users');

    const out = await call(server, '/auth/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.status).toBeLessThan(300);
    const after = await profile();
    expect(after.status).toBe(401);
    expect(((await after.json()) as { code: string }).code).toBe('SESSION_EXPIRED');
    expect(after.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    // No token, a token that is not one: the challenge too.
    const none = await call(server, '/auth/profile');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const garbage = await call(server, '/auth/profile', {
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(garbage.status).toBe(401);
    expect(garbage.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  test('anonymous reads are untouched: one statement, no session read', async () => {
    await postQuery(server, 'select Item { name }');
    sent.length = 0;
    expect((await postQuery(server, 'select Item { name }')).status).toBe(200);
    expect(ofRequest(sent)).toHaveLength(1);
    expect(ofRequest(sent)[0]).not.toContain('svc_auth.sessions');
  });

  test('after logout: 401 SESSION_EXPIRED with the challenge, for reads, writes, describe and bad requests', async () => {
    const token = await signUp(server);
    expect((await postQuery(server, 'select Item { name }', token)).status).toBe(200);
    const out = await call(server, '/auth/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.status).toBeLessThan(300);

    const refused = (answer: { status: number; body: unknown }) => {
      expect(answer.status).toBe(401);
      expect((answer.body as { code: string }).code).toBe('SESSION_EXPIRED');
    };
    const read = await postQuery(server, 'select Item { name }', token);
    refused(read);
    expect(read.challenge).toMatch(/error="invalid_token"/);
    // A write: refused before it runs, nothing written.
    refused(await postQuery(server, `insert Item { name := 'ghost' }`, token));
    // What the request gets wrong is not told before the session is: a syntax error, an
    // unknown name, a missing variable, a describe.
    refused(await postQuery(server, 'select Item {', token));
    refused(await postQuery(server, 'select Nope', token));
    refused(await postQuery(server, 'select <str>$x', token));
    refused(await postQuery(server, 'select Item { name }', token, { describe: true }));
    // REST: a read, a missing id, a write, an unknown type.
    const rest = await api(server, 'GET', `/api/Item/${id}`, undefined, { token });
    expect(rest.status).toBe(401);
    expect(envelope(rest).code).toBe('SESSION_EXPIRED');
    expect(rest.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const missing = await api(
      server,
      'GET',
      '/api/Item/00000000-0000-0000-0000-000000000000',
      undefined,
      { token },
    );
    expect(missing.status).toBe(401);
    const write = await api(server, 'POST', '/api/Item', { name: 'ghost2' }, { token });
    expect(write.status).toBe(401);
    // (Through `call`: the document's check allows only 400 or 404 on a path it does not have.)
    const unknown = await call(server, '/api/Nope', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(unknown.status).toBe(401);

    const names = await postQuery(server, 'select Item.name order by Item.name', SERVICE_KEY);
    expect(names.body.data).toEqual(['one']);
  });

  test("a deactivated user's token: 403 USER_INACTIVE, through the carried read too", async () => {
    const token = await signUp(server);
    expect((await postQuery(server, 'select Item { name }', token)).status).toBe(200);
    const me = await call(server, '/auth/profile', {
      headers: { authorization: `Bearer ${token}` },
    });
    const userId = ((await me.json()) as { id: string }).id;
    await server.auth?.setActive(userId, false);
    const read = await postQuery(server, 'select Item { name }', token);
    expect(read.status).toBe(403);
    expect((read.body as { code: string }).code).toBe('USER_INACTIVE');
  });

  test('a live session still gets the request’s own errors', async () => {
    const token = await signUp(server);
    const bad = await postQuery(server, 'select Nope', token);
    expect(bad.status).toBe(400);
    const dup = await postQuery(server, `insert Item { name := 'one' }`, token);
    expect(dup.status).toBe(409);
  });
});
