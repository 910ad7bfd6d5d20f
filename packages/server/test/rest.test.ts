/*
 * The REST API through @svc/server with the real compiler and database (spec "REST routes",
 * "REST statuses", "REST default shape"; DECISIONS "REST", "Service defaults", the envelope):
 * the five verbs and linked collections, every list parameter and its 400s, bodies, the
 * default shape in every answer, compiler errors with their class, and hostile values that stay
 * data. Every request goes through `api` (rest-helpers), which records the answers.
 */
import type { SvcServer } from '../src';
import { build, sharedDatabase } from './helpers';
import { api, envelope, type ApiAnswer } from './rest-helpers';

const db = sharedDatabase();

export const REST_SDL = `
scalar type Mood extending enum<happy, sad, 'so-so'>;
type User {
  required name: str { constraint exclusive; }
  email: str { annotation rest::hidden := 'true'; }
  age: int32;
  active: bool;
  born: datetime;
  mood: Mood;
  multi friends: User;
  best: User { annotation rest::expand := 'true'; }
  multi posts := .<author[is Post];
  shout := str_upper(.name);
}
type Tag { required label: str { constraint exclusive; } }
type Post {
  required title: str;
  body: str;
  secret: str { annotation rest::hidden := 'true'; }
  author: User { annotation rest::expand := 'true'; }
  multi tags: Tag;
  upper := str_upper(.title);
}
type Comment {
  required text: str;
  post: Post { annotation rest::expand := 'true'; }
  multi likes: Tag { annotation rest::expand := 'true'; }
  stamp: str { readonly := true; }
}
`;

const MISSING = '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Row = Record<string, unknown> & { id: string };

let server: SvcServer;
beforeAll(async () => {
  server = await build(db.get(), { schema: REST_SDL });
});
afterAll(() => server.close());

/** A 201 insert's object. */
async function insert(type: string, body: Record<string, unknown>): Promise<Row> {
  const res = await api(server, 'POST', `/api/${type}`, body);
  if (res.status !== 201) throw new Error(`insert ${type}: ${res.status} ${res.text}`);
  return res.body as Row;
}

function expectError(res: ApiAnswer, status: number, code: string, message?: string | RegExp) {
  expect(res.status).toBe(status);
  const body = envelope(res);
  expect(body.code).toBe(code);
  if (typeof message === 'string') expect(body.error).toContain(message);
  else if (message) expect(body.error).toMatch(message);
  return body;
}

describe('the five verbs', () => {
  test('POST inserts (201) and answers the default shape; GET reads the same object', async () => {
    const res = await api(server, 'POST', '/api/User', { name: 'Verb Ann', age: 36 });
    expect(res.status).toBe(201);
    expect(res.contentType).toMatch(/^application\/json/);
    const ann = res.body as Row;
    expect(ann).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Verb Ann',
      age: 36,
      active: null,
      born: null,
      mood: null,
      friends: [],
      best: null,
      posts: [],
      shout: 'VERB ANN',
    });
    const got = await api(server, 'GET', `/api/User/${ann.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(ann);
  });

  test('PATCH updates the fields given (200, the whole shape); null unsets an optional field', async () => {
    const ann = await insert('User', { name: 'Patch Ann', age: 1, mood: 'happy' });
    const res = await api(server, 'PATCH', `/api/User/${ann.id}`, { age: 2, mood: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...ann, age: 2, mood: null });
    expect((await api(server, 'GET', `/api/User/${ann.id}`)).body).toEqual(res.body);
  });

  test('DELETE is 204 with no body, whether or not the row existed', async () => {
    const tag = await insert('Tag', { label: 'delete me' });
    const first = await api(server, 'DELETE', `/api/Tag/${tag.id}`);
    expect(first.status).toBe(204);
    expect(first.text).toBe('');
    const again = await api(server, 'DELETE', `/api/Tag/${tag.id}`);
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
    expectError(await api(server, 'GET', `/api/Tag/${tag.id}`), 404, 'NOT_FOUND');
  });

  test('GET and PATCH of a missing id are 404 NOT_FOUND', async () => {
    expectError(await api(server, 'GET', `/api/User/${MISSING}`), 404, 'NOT_FOUND', MISSING);
    expectError(
      await api(server, 'PATCH', `/api/User/${MISSING}`, { age: 3 }),
      404,
      'NOT_FOUND',
      MISSING,
    );
  });

  test('GET lists (200, a bare array)', async () => {
    await insert('Tag', { label: 'list one' });
    const res = await api(server, 'GET', '/api/Tag?label__contains=list%20one');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: expect.stringMatching(UUID), label: 'list one' }]);
  });

  test('HEAD answers like GET without a body', async () => {
    const res = await api(server, 'HEAD', '/api/Tag');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  test('an unknown or abstract type is 404; a malformed id is 400; a wrong method 405 with Allow', async () => {
    expectError(await api(server, 'GET', '/api/Nope'), 404, 'NOT_FOUND', 'Nope');
    expectError(await api(server, 'POST', '/api/Nope', { a: 1 }), 404, 'NOT_FOUND');
    expectError(await api(server, 'GET', '/api/User/not-a-uuid'), 400, 'VALIDATION_ERROR');
    const put = await api(server, 'PUT', `/api/User/${MISSING}`, { name: 'x' });
    expectError(put, 405, 'METHOD_NOT_ALLOWED');
    expect(put.headers.get('allow')).toBe('GET, PATCH, DELETE, HEAD');
    const post = await api(server, 'POST', `/api/User/${MISSING}`, { name: 'x' });
    expectError(post, 405, 'METHOD_NOT_ALLOWED');
    expect((await api(server, 'DELETE', '/api/User')).headers.get('allow')).toBe('GET, POST, HEAD');
  });
});

describe('the default shape', () => {
  let ann: Row;
  let bob: Row;
  let tags: Row[];
  let post: Row;
  let inserted: Row;
  beforeAll(async () => {
    ann = await insert('User', { name: 'Shape Ann' });
    bob = await insert('User', { name: 'Shape Bob', best: ann.id, friends: [ann.id] });
    tags = [await insert('Tag', { label: 'shape-a' }), await insert('Tag', { label: 'shape-b' })];
    inserted = await insert('Post', {
      title: 'Shape post',
      author: bob.id,
      tags: tags.map((t) => t.id),
    });
    post = (await api(server, 'GET', `/api/Post/${inserted.id}`)).body as Row;
  });

  test('the POST answer is the GET shape, the statement’s own write included', () => {
    // The author's backlink `posts` is read as the statement's writes leave the rows (Gel's
    // overlays: a backlink followed from a mutation's result sees that mutation), so the new
    // post is in it, as a GET afterwards shows.
    expect(inserted).toEqual(post);
    expect((inserted.author as Row).posts).toEqual([inserted.id]);
  });

  test('links read as ids (multi: an array), expand inlines the target; the cycle guard reads ids', async () => {
    // User.best expands to User: already on the way down, so bob.best is an id.
    expect(bob).toMatchObject({ best: ann.id, friends: [ann.id] });
    expect(post).toEqual({
      id: expect.stringMatching(UUID),
      title: 'Shape post',
      body: null,
      author: {
        id: bob.id,
        name: 'Shape Bob',
        age: null,
        active: null,
        born: null,
        mood: null,
        friends: [ann.id],
        best: ann.id,
        posts: [post.id],
        shout: 'SHAPE BOB',
      },
      tags: expect.arrayContaining(tags.map((t) => t.id)),
      upper: 'SHAPE POST',
    });
    expect(post.tags).toHaveLength(2);
  });

  test('expansion is recursive (Comment → Post → User) and hidden fields stay out of it', async () => {
    const comment = await insert('Comment', { text: 'c', post: post.id });
    expect(comment.post).toEqual(post);
    expect((await api(server, 'GET', `/api/Comment/${comment.id}`)).body).toEqual(comment);
    const body = JSON.stringify(comment);
    expect(body).not.toContain('secret');
    expect(body).not.toContain('email');
  });

  test('the same shape in GET, POST, PATCH answers, lists and linked collections', async () => {
    const got = await api(server, 'GET', `/api/Post/${post.id}`);
    expect(got.body).toEqual(post);
    const patched = await api(server, 'PATCH', `/api/Post/${post.id}`, { body: 'text' });
    expect(patched.body).toEqual({ ...post, body: 'text' });
    await api(server, 'PATCH', `/api/Post/${post.id}`, { body: null });
    const listed = await api(server, 'GET', `/api/Post?title=Shape%20post`);
    expect(listed.body).toEqual([post]);
    const linked = await api(server, 'GET', `/api/User/${bob.id}/posts`);
    expect(linked.body).toEqual([post]);
  });

  test('hidden fields are absent from answers and unknown to filters, order and bodies', async () => {
    const all = await api(server, 'GET', '/api/User?limit=1000');
    for (const row of all.body as Row[]) expect(Object.keys(row)).not.toContain('email');
    expectError(await api(server, 'GET', '/api/User?email=x'), 400, 'VALIDATION_ERROR', '"email"');
    expectError(
      await api(server, 'GET', '/api/User?order_by=email'),
      400,
      'VALIDATION_ERROR',
      '"email"',
    );
    expectError(
      await api(server, 'POST', '/api/User', { name: 'Hidden', email: 'a@b' }),
      400,
      'VALIDATION_ERROR',
      '"email"',
    );
    expectError(
      await api(server, 'PATCH', `/api/Post/${post.id}`, { secret: 's' }),
      400,
      'VALIDATION_ERROR',
      '"secret"',
    );
  });
});

describe('more of the shape', () => {
  test('an unset expanded single link is null, an empty expanded multi link []', async () => {
    const c = await insert('Comment', { text: 'bare' });
    expect(c).toEqual({ id: c.id, text: 'bare', post: null, likes: [], stamp: null });
    expect((await api(server, 'GET', `/api/Comment/${c.id}`)).body).toEqual(c);
  });

  test('an expanded multi link is an array of the targets in their shape', async () => {
    const a = await insert('Tag', { label: 'like-a' });
    const b = await insert('Tag', { label: 'like-b' });
    const c = await insert('Comment', { text: 'liked', likes: [a.id, b.id] });
    const byId = (rows: unknown) => [...(rows as Row[])].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(byId(c.likes)).toEqual(byId([a, b]));
    const listed = await api(server, 'GET', '/api/Comment?text=liked');
    expect(listed.body).toEqual([c]);
    const linked = await api(server, 'GET', `/api/Comment/${c.id}/likes`);
    expect(linked.body).toEqual(byId([a, b]));
  });

  test('a readonly property is written on insert and refused by the compiler on update', async () => {
    const c = await insert('Comment', { text: 'ro', stamp: 'first' });
    expect(c.stamp).toBe('first');
    const res = await api(server, 'PATCH', `/api/Comment/${c.id}`, { stamp: 'second' });
    expect(res.status).toBe(400);
    expect(envelope(res).code).toBe('QUERY_ERROR');
    expect((await api(server, 'GET', `/api/Comment/${c.id}`)).body).toEqual(c);
  });

  test('HEAD of one object and of a linked collection: the GET status, no body', async () => {
    const c = await insert('Comment', { text: 'head' });
    const one = await api(server, 'HEAD', `/api/Comment/${c.id}`);
    expect([one.status, one.text]).toEqual([200, '']);
    const missing = await api(server, 'HEAD', `/api/Comment/${MISSING}`);
    expect([missing.status, missing.text]).toEqual([404, '']);
    const linked = await api(server, 'HEAD', `/api/Comment/${c.id}/likes`);
    expect([linked.status, linked.text]).toEqual([200, '']);
  });
});

describe('linked collections', () => {
  let hub: Row;
  let friends: Row[];
  beforeAll(async () => {
    friends = [];
    for (let i = 0; i < 5; i++) friends.push(await insert('User', { name: `Linked ${i}` }));
    hub = await insert('User', { name: 'Linked hub', friends: friends.map((f) => f.id) });
  });

  test('the targets in their default shape, ordered by id, with offset and limit', async () => {
    const ids = friends.map((f) => f.id).sort();
    const all = await api(server, 'GET', `/api/User/${hub.id}/friends`);
    expect(all.status).toBe(200);
    expect((all.body as Row[]).map((r) => r.id)).toEqual(ids);
    expect((all.body as Row[])[0]).toEqual(friends.find((f) => f.id === ids[0]));
    const page = await api(server, 'GET', `/api/User/${hub.id}/friends?offset=1&limit=2`);
    expect((page.body as Row[]).map((r) => r.id)).toEqual(ids.slice(1, 3));
    const past = await api(server, 'GET', `/api/User/${hub.id}/friends?offset=10`);
    expect(past.body).toEqual([]);
  });

  test('an empty collection of an existing object is [], of a missing one 404', async () => {
    expect((await api(server, 'GET', `/api/User/${friends[0]?.id}/friends`)).body).toEqual([]);
    expectError(
      await api(server, 'GET', `/api/User/${MISSING}/friends`),
      404,
      'NOT_FOUND',
      MISSING,
    );
  });

  test('a single link is a collection of at most one', async () => {
    const post = await insert('Post', { title: 'Linked post', author: hub.id });
    const author = await api(server, 'GET', `/api/Post/${post.id}/author`);
    expect(author.body).toEqual([(await api(server, 'GET', `/api/User/${hub.id}`)).body]);
  });

  test('not a link, a hidden or unknown name: 404; order_by or filters: 400; other methods: 405', async () => {
    expectError(await api(server, 'GET', `/api/User/${hub.id}/name`), 404, 'NOT_FOUND');
    expectError(await api(server, 'GET', `/api/User/${hub.id}/nope`), 404, 'NOT_FOUND');
    expectError(
      await api(server, 'GET', `/api/User/${hub.id}/friends?order_by=name`),
      400,
      'VALIDATION_ERROR',
      '"order_by"',
    );
    expectError(
      await api(server, 'GET', `/api/User/${hub.id}/friends?name=x`),
      400,
      'VALIDATION_ERROR',
      '"name"',
    );
    expectError(
      await api(server, 'POST', `/api/User/${hub.id}/friends`, {}),
      405,
      'METHOD_NOT_ALLOWED',
    );
  });
});

describe('list parameters', () => {
  const names = ['Param A', 'Param B', 'Param C', 'Param D'];
  let rows: Row[];
  beforeAll(async () => {
    rows = [];
    for (const [i, name] of names.entries()) {
      rows.push(
        await insert('User', {
          name,
          age: 20 + i,
          active: i % 2 === 0,
          mood: i < 2 ? 'happy' : 'so-so',
          born: `200${i}-01-02T03:04:05Z`,
        }),
      );
    }
  });
  const list = async (query: string) => {
    const res = await api(server, 'GET', `/api/User?${query}`);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
    return (res.body as Row[]).map((r) => r.name);
  };

  test('equality, converted by the property type', async () => {
    expect(await list('age=21')).toEqual(['Param B']);
    expect(await list('active=true&name__contains=param')).toEqual(['Param A', 'Param C']);
    expect(await list('mood=so-so')).toEqual(['Param C', 'Param D']);
    expect(await list('born=2002-01-02T03:04:05Z')).toEqual(['Param C']);
    expect(await list('born=2002-01-02T04:04:05%2B01:00')).toEqual(['Param C']);
  });

  test('__in, every element converted', async () => {
    expect(await list('age__in=20,23,99&order_by=age')).toEqual(['Param A', 'Param D']);
    expect(await list('mood__in=happy&name__contains=param&order_by=-name')).toEqual([
      'Param B',
      'Param A',
    ]);
  });

  test('__contains is a case-insensitive substring, on text and enums', async () => {
    expect(await list('name__contains=ARAM%20c')).toEqual(['Param C']);
    expect(await list('mood__contains=SO-&name__contains=param')).toEqual(['Param C', 'Param D']);
  });

  test('several filters AND together', async () => {
    expect(await list('name__contains=param&active=false&mood=happy')).toEqual(['Param B']);
    expect(await list('name__contains=param&age=20&age__in=21')).toEqual([]);
  });

  test('order_by ascending, descending, several; a computed orders', async () => {
    const q = 'name__contains=param';
    expect(await list(`${q}&order_by=-age`)).toEqual([...names].reverse());
    expect(await list(`${q}&order_by=mood,-age`)).toEqual([
      'Param B',
      'Param A',
      'Param D',
      'Param C',
    ]);
    expect(await list(`${q}&order_by=-shout`)).toEqual([...names].reverse());
  });

  test('limit and offset; pages are stable (id is the last order term)', async () => {
    const q = 'name__contains=param&order_by=mood';
    expect(await list(`${q}&limit=2`)).toHaveLength(2);
    const pages = [...(await list(`${q}&limit=2`)), ...(await list(`${q}&limit=2&offset=2`))];
    expect([...pages].sort()).toEqual(names);
    expect(await list(`${q}&offset=4`)).toEqual([]);
  });

  test('limit defaults to 100 and is at most 1000', async () => {
    for (let i = 0; i < 105; i++) await insert('Tag', { label: `page-${i}` });
    const res = await api(server, 'GET', '/api/Tag?label__contains=page-');
    expect(res.body).toHaveLength(100);
    expect(
      (await api(server, 'GET', '/api/Tag?label__contains=page-&limit=1000')).body,
    ).toHaveLength(105);
    expectError(
      await api(server, 'GET', '/api/Tag?limit=1001'),
      400,
      'VALIDATION_ERROR',
      '"limit"',
    );
    expectError(
      await api(server, 'GET', '/api/Tag?offset=-1'),
      400,
      'VALIDATION_ERROR',
      '"offset"',
    );
  });

  test('a single link filters by the target id', async () => {
    const author = rows[0] as Row;
    const post = await insert('Post', { title: 'By A', author: author.id });
    const res = await api(server, 'GET', `/api/Post?author=${author.id}`);
    expect((res.body as Row[]).map((r) => r.id)).toEqual([post.id]);
    const within = await api(server, 'GET', `/api/Post?author__in=${author.id},${MISSING}`);
    expect((within.body as Row[]).map((r) => r.id)).toEqual([post.id]);
  });

  test.each([
    ['nope=1', '"nope"'],
    ['nope__in=1', '"nope__in"'],
    ['order_by=nope', '"order_by"'],
    ['order_by=best', '"order_by"'],
    ['order_by=friends', '"order_by"'],
    ['friends=0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b', '"friends"'],
    ['best__contains=x', '"best__contains"'],
    ['best=ann', '"best"'],
    ['age=ten', '"age"'],
    ['age=1.5', '"age"'],
    ['age=3000000000', '"age"'],
    ['age__in=1,x', '"age__in"'],
    ['age__contains=1', '"age__contains"'],
    ['active=yes', '"active"'],
    ['born=yesterday', '"born"'],
    ['born=2024-01-01T00:00:00', '"born"'],
    ['mood=angry', '"mood"'],
    ['id=1', '"id"'],
    ['name__startswith=a', '"name__startswith"'],
    ['best__name=a', '"best__name"'],
    ['limit=ten', '"limit"'],
  ])('?%s is 400 VALIDATION_ERROR naming %s', async (query, name) => {
    expectError(await api(server, 'GET', `/api/User?${query}`), 400, 'VALIDATION_ERROR', name);
  });
});

describe('bodies', () => {
  test('links are written as id strings, multi links as arrays of them; [] clears', async () => {
    const a = await insert('User', { name: 'Body A' });
    const b = await insert('User', { name: 'Body B' });
    const c = await insert('User', { name: 'Body C', best: a.id, friends: [a.id, b.id] });
    expect(c.best).toBe(a.id);
    expect([...(c.friends as string[])].sort()).toEqual([a.id, b.id].sort());
    const cleared = await api(server, 'PATCH', `/api/User/${c.id}`, { friends: [], best: null });
    expect(cleared.body).toMatchObject({ friends: [], best: null });
  });

  test('a link to a missing id is CardinalityViolationError (400, spec Versioning 12)', async () => {
    const single = expectError(
      await api(server, 'POST', '/api/Post', { title: 'x', author: MISSING }),
      400,
      'QUERY_ERROR',
      MISSING,
    );
    expect(single.type).toBe('CardinalityViolationError');
    const tag = await insert('Tag', { label: 'body-tag' });
    const multi = expectError(
      await api(server, 'POST', '/api/Post', { title: 'x', tags: [tag.id, MISSING] }),
      400,
      'QUERY_ERROR',
    );
    expect(multi.type).toBe('CardinalityViolationError');
    const user = await insert('User', { name: 'Body D' });
    const patch = expectError(
      await api(server, 'PATCH', `/api/User/${user.id}`, { best: MISSING }),
      400,
      'QUERY_ERROR',
    );
    expect(patch.type).toBe('CardinalityViolationError');
    // Nothing was written.
    expect((await api(server, 'GET', '/api/Post?title=x')).body).toEqual([]);
  });

  test('another type’s id is refused the same way', async () => {
    const tag = await insert('Tag', { label: 'not-a-user' });
    const res = await api(server, 'POST', '/api/Post', { title: 'x', author: tag.id });
    expect(expectError(res, 400, 'QUERY_ERROR').type).toBe('CardinalityViolationError');
  });

  test.each([
    [{ name: 'u', nope: 1 }, '"nope"'],
    [{ name: 'u', shout: 'U' }, '"shout"'],
    [{ name: 'u', posts: [] }, '"posts"'],
  ])('POST %j is 400 VALIDATION_ERROR naming %s', async (body, name) => {
    const error = expectError(
      await api(server, 'POST', '/api/User', body),
      400,
      'VALIDATION_ERROR',
      name,
    );
    expect(error.type).toBeUndefined();
  });

  // Type errors of a body are the query compiler's (the spec's write bodies): the 400 names the
  // field, and `type` is the class the compiler gives the same value.
  test.each([
    [{ name: null }, '"name"', 'MissingRequiredError'],
    [{ name: 5 }, '"name"', 'QueryArgumentError'],
    [{ name: 'u', age: '3' }, '"age"', 'QueryArgumentError'],
    [{ name: 'u', age: 2 ** 40 }, '"age"', 'QueryArgumentError'],
    [{ name: 'u', age: 1.5 }, '"age"', 'QueryArgumentError'],
    [{ name: 'u', active: 'true' }, '"active"', 'QueryArgumentError'],
    [{ name: 'u', best: 'ann' }, '"best"', 'InvalidValueError'],
    [{ name: 'u', best: { id: MISSING } }, '"best"', 'QueryArgumentError'],
    [{ name: 'u', friends: MISSING }, '"friends"', 'QueryArgumentError'],
    [{ name: 'u', friends: [MISSING, 1] }, '"friends"', 'QueryArgumentError'],
    [{ name: 'u', mood: 'angry' }, /"mood".*happy, sad, so-so/, 'InvalidValueError'],
  ])('POST %j is 400 VALIDATION_ERROR naming %s, of type %s', async (body, name, type) => {
    const error = expectError(
      await api(server, 'POST', '/api/User', body),
      400,
      'VALIDATION_ERROR',
      name,
    );
    expect(error.type).toBe(type);
  });

  test('an empty PATCH body, a non-object body and a body that is not JSON are 400', async () => {
    const user = await insert('User', { name: 'Body E' });
    expectError(await api(server, 'PATCH', `/api/User/${user.id}`, {}), 400, 'VALIDATION_ERROR');
    expectError(await api(server, 'POST', '/api/User', [1]), 400, 'VALIDATION_ERROR');
    expectError(
      await api(server, 'POST', '/api/User', undefined, { raw: '{"name":' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  test('a required field left out and a malformed datetime are the compiler’s errors (400)', async () => {
    const missing = expectError(
      await api(server, 'POST', '/api/User', { age: 1 }),
      400,
      'QUERY_ERROR',
    );
    expect(missing.type).toBe('MissingRequiredError');
    const born = expectError(
      await api(server, 'POST', '/api/User', { name: 'Body F', born: 'yesterday' }),
      400,
      'QUERY_ERROR',
    );
    expect(born.type).toBe('InvalidValueError');
  });

  test('id in a body is left to the compiler, which refuses it (400)', async () => {
    const res = await api(server, 'POST', '/api/Tag', { id: MISSING, label: 'with id' });
    expectError(res, 400, 'QUERY_ERROR', 'id');
  });

  test('a constraint violation is 409 CONSTRAINT_VIOLATION', async () => {
    await insert('User', { name: 'Unique' });
    const res = await api(server, 'POST', '/api/User', { name: 'Unique' });
    expect(expectError(res, 409, 'CONSTRAINT_VIOLATION').type).toBe('ConstraintViolationError');
    const other = await insert('User', { name: 'Unique 2' });
    expectError(
      await api(server, 'PATCH', `/api/User/${other.id}`, { name: 'Unique' }),
      409,
      'CONSTRAINT_VIOLATION',
    );
  });
});

describe('hostile values stay data', () => {
  const hostile = [
    'O\'Brien "quoted"',
    '100% _real_',
    'back\\slash \\\\ \\n',
    "'); delete default::User; select ('",
    '`select` } { name',
    '$f0 <str>$name',
  ];

  test.each(hostile)(
    '%j round-trips through POST, equality, __in and __contains',
    async (value) => {
      const tag = await insert('Tag', { label: `hostile ${value}` });
      expect(tag.label).toBe(`hostile ${value}`);
      const q = encodeURIComponent(`hostile ${value}`);
      expect((await api(server, 'GET', `/api/Tag?label=${q}`)).body).toEqual([tag]);
      expect(
        (await api(server, 'GET', `/api/Tag?label__contains=${encodeURIComponent(value)}`)).body,
      ).toEqual([tag]);
      const patched = await api(server, 'PATCH', `/api/Tag/${tag.id}`, {
        label: `hostile2 ${value}`,
      });
      expect((patched.body as Row).label).toBe(`hostile2 ${value}`);
    },
  );

  test('% and _ in __contains match themselves, not any text', async () => {
    await insert('Tag', { label: 'wild abc' });
    await insert('Tag', { label: 'wild a_c' });
    await insert('Tag', { label: 'wild 50% off' });
    const labels = async (needle: string) =>
      (
        (
          await api(
            server,
            'GET',
            `/api/Tag?label__contains=${encodeURIComponent(needle)}&order_by=label`,
          )
        ).body as Row[]
      ).map((r) => r.label);
    expect(await labels('a_c')).toEqual(['wild a_c']);
    expect(await labels('wild %')).toEqual([]);
    expect(await labels('0% o')).toEqual(['wild 50% off']);
    await insert('Tag', { label: 'wild back\\slash' });
    const slashed = await labels('\\');
    expect(slashed).toContain('wild back\\slash');
    for (const label of slashed) expect(label).toContain('\\');
  });

  test('a NUL in a str is a clear 400 (PostgreSQL refuses it), never a 500', async () => {
    const body = expectError(
      await api(server, 'POST', '/api/Tag', { label: 'nul\u0000byte' }),
      400,
      'QUERY_ERROR',
    );
    expect(body.type).toBe('InvalidValueError');
    const filter = await api(server, 'GET', '/api/Tag?label=nul%00byte');
    expect(expectError(filter, 400, 'QUERY_ERROR').type).toBe('InvalidValueError');
    const contains = await api(server, 'GET', '/api/Tag?label__contains=%00');
    expect(contains.status).toBe(400);
  });

  test('hostile field names are unknown fields, never text', async () => {
    expectError(
      await api(server, 'POST', '/api/Tag', { label: 'x', 'label := "y", id': 1 }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await api(server, 'GET', '/api/Tag?order_by=label%20desc'),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await api(server, 'GET', '/api/Tag%20filter%20true'), 400, 'VALIDATION_ERROR');
  });
});

describe('schema changes', () => {
  test('a migration is seen by the next REST request without a restart; other modules route as module::Name', async () => {
    const extra = `module default {\n${REST_SDL}\ntype Late { required note: str; }\n}\nmodule blog { type Note { body: str; } }`;
    expectError(await api(server, 'GET', '/api/Late'), 404, 'NOT_FOUND');
    const migrated = await api(server, 'POST', '/migrations', { schema: extra });
    expect(migrated.status).toBe(200);
    const late = await api(server, 'POST', '/api/Late', { note: 'here' });
    expect(late.status).toBe(201);
    expect((await api(server, 'GET', '/api/Late')).body).toEqual([late.body]);
    const note = await api(server, 'POST', '/api/blog::Note', { body: 'elsewhere' });
    expect(note.status).toBe(201);
    const id = (note.body as Row).id;
    expect((await api(server, 'GET', `/api/blog::Note/${id}`)).body).toEqual(note.body);
    expect((await api(server, 'GET', '/api/blog%3A%3ANote?body=elsewhere')).body).toEqual([
      note.body,
    ]);
    expectError(await api(server, 'GET', '/api/Note'), 404, 'NOT_FOUND');
  });
});

describe('links to several types', () => {
  test('are written as the id of an object of any of them; a missing id or another type’s is 400', async () => {
    // After "schema changes": its types stay, and Pin is added.
    const extra = `module default {\n${REST_SDL}\ntype Late { required note: str; }\ntype Pin { one: Tag | User; multi many: Tag | User; }\n}\nmodule blog { type Note { body: str; } }`;
    expect((await api(server, 'POST', '/migrations', { schema: extra })).status).toBe(200);
    const tag = await insert('Tag', { label: 'pinned-tag' });
    const user = await insert('User', { name: 'Pinned User' });
    const pin = await insert('Pin', { one: tag.id, many: [tag.id, user.id] });
    expect(pin.one).toBe(tag.id);
    expect([...(pin.many as string[])].sort()).toEqual([tag.id, user.id].sort());
    const moved = await api(server, 'PATCH', `/api/Pin/${pin.id}`, { one: user.id, many: [] });
    expect(moved.body).toMatchObject({ one: user.id, many: [] });
    expect((await api(server, 'GET', `/api/Pin?one=${user.id}`)).body).toEqual([moved.body]);
    const linked = await api(server, 'GET', `/api/Pin/${pin.id}/one`);
    expect(linked.body).toEqual([{ id: user.id }]);
    for (const body of [{ one: MISSING }, { many: [tag.id, MISSING] }, { one: pin.id }]) {
      const res = await api(server, 'PATCH', `/api/Pin/${pin.id}`, body);
      expect(expectError(res, 400, 'QUERY_ERROR').type).toBe('CardinalityViolationError');
    }
    // Nothing of the refused writes stayed.
    expect((await api(server, 'GET', `/api/Pin/${pin.id}`)).body).toEqual(moved.body);
  });
});
