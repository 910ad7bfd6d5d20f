/**
 * Issue 34, the hot lane (routes/lane.ts): `POST /query`, `/api/*` and `/auth/*` are taken before
 * Express's router, through the same steps and handlers. Two servers over one database, the lane on and
 * off, are sent the same requests, and every answer must be the same byte for byte: status,
 * body and headers (each request sends its own `X-Request-Id`, so that header is compared too;
 * only `Date` is left out). Each case also says whether the lane takes it, checked by counting
 * the calls of Express's router, so the comparison cannot pass with the lane never used.
 */
import { randomUUID } from 'node:crypto';
import { ANONYMOUS_AUTH } from '@svc/core';
import { testDatabaseKind } from '@svc/core/testing';
import { resolveConfig, type CreateServerOptions, type SvcServer } from '../src';
import { request, type InProcessInit } from '../src/testing';
import { SECRET, build, sharedDatabase, signUp } from './helpers';

const SDL = `
type Book {
  required title: str;
}
type Heavy {
  required n: int64;
  property work := sum(range_unpack(range(0, .n)) + range_unpack(range(0, .n)));
}
`;
// n² additions: about 16 s on PostgreSQL for 10,000, 3 s on PGlite for 2,500.
const N = testDatabaseKind() === 'postgres' ? 10_000 : 2_500;
const SERVICE_KEY = 'lane-service-key-0123456789-abcdefghijklmnop';
const ORIGIN = 'https://app.example.test';
const JSON_TYPE = { 'content-type': 'application/json' };
const BEARER = { authorization: `Bearer ${SERVICE_KEY}` };

const db = sharedDatabase();

beforeAll(async () => {
  const setup = await build(db.get(), { schema: SDL });
  try {
    const admin = { access: { policies: false, readOnly: false }, auth: ANONYMOUS_AUTH };
    await setup.queryEngine.run(
      { query: 'insert Heavy { n := <int64>$n }', variables: { n: N } },
      admin,
    );
    for (const title of ['Dune', 'Emma', 'Ulysses'])
      await setup.queryEngine.run(
        { query: 'insert Book { title := <str>$title }', variables: { title } },
        admin,
      );
  } finally {
    await setup.close();
  }
});

interface Case {
  readonly name: string;
  readonly path: string | ((ctx: { bookId: string }) => string);
  readonly init?: InProcessInit;
  /** Sent with a signed-in user's bearer token (the session read with the query: pending-session). */
  readonly signedIn?: true;
  /** Whether the lane takes it (Express's router is not called), when the lane is on. */
  readonly lane: boolean;
  readonly status: number;
}

const query = (body: unknown, headers: Record<string, string> = BEARER): InProcessInit => ({
  method: 'POST',
  headers: { ...JSON_TYPE, ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** A server with auth, requireAuth, CORS, the service key and a 1 s requestTimeout. */
const GUARDED: CreateServerOptions = {
  enableAuth: true,
  jwtSecret: SECRET,
  requireAuth: true,
  serviceKey: SERVICE_KEY,
  cors: { origins: [ORIGIN], credentials: true },
  requestTimeout: 1000,
  bodyLimit: 4096,
  // One name for both, so that a misrouted transaction id is refused in the same words.
  instanceId: 'lane',
};

const GUARDED_CASES: Case[] = [
  {
    name: '/query ok',
    path: '/query',
    init: query({ query: 'select Book { title } order by .title' }),
    lane: true,
    status: 200,
  },
  {
    name: '/query with a query string, describe',
    path: '/query?x=1',
    init: query({ query: 'select Book { title }', describe: true }),
    lane: true,
    status: 200,
  },
  { name: '/query bad JSON', path: '/query', init: query('{"query": '), lane: true, status: 400 },
  {
    name: '/query too large',
    path: '/query',
    init: query({ query: `select '${'x'.repeat(5000)}'` }),
    lane: true,
    status: 413,
  },
  {
    name: '/query not JSON',
    path: '/query',
    init: { method: 'POST', headers: { ...BEARER, 'content-type': 'text/plain' }, body: 'x' },
    lane: true,
    status: 415,
  },
  {
    name: '/query unauthenticated (requireAuth)',
    path: '/query',
    init: query({ query: 'select 1' }, {}),
    lane: true,
    status: 401,
  },
  {
    name: '/query bad token',
    path: '/query',
    init: query({ query: 'select 1' }, { authorization: 'Bearer not-a-token' }),
    lane: true,
    status: 401,
  },
  {
    name: '/query query error',
    path: '/query',
    init: query({ query: 'select Nope' }),
    lane: true,
    status: 400,
  },
  {
    name: '/query bad field',
    path: '/query',
    init: query({ query: 'select 1', extra: true }),
    lane: true,
    status: 400,
  },
  {
    name: '/query timeout',
    path: '/query',
    init: query({ query: 'select Heavy { n, work }' }),
    lane: true,
    status: 408,
  },
  {
    name: '/query simple CORS from a listed origin',
    path: '/query',
    init: query({ query: 'select 1' }, { ...BEARER, origin: ORIGIN }),
    lane: true,
    status: 200,
  },
  {
    name: '/query from an origin not listed',
    path: '/query',
    init: query({ query: 'select 1' }, { ...BEARER, origin: 'https://other.example.test' }),
    lane: true,
    status: 200,
  },
  {
    name: '/query cookie write from a foreign page (CSRF)',
    path: '/query',
    init: query(
      { query: 'select 1' },
      { cookie: `auth_token=${SERVICE_KEY}`, origin: 'https://evil.example.test' },
    ),
    lane: true,
    status: 403,
  },
  {
    name: '/query preflight (Express answers: OPTIONS is not the lane’s)',
    path: '/query',
    init: {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization, x-evil',
      },
    },
    lane: false,
    status: 204,
  },
  { name: 'GET /query (405)', path: '/query', init: { headers: BEARER }, lane: false, status: 405 },
  {
    name: '/query in a transaction that does not exist (Express)',
    path: '/query',
    init: query({ query: 'select 1' }, { ...BEARER, 'x-svc-transaction': 'nope.nope' }),
    lane: false,
    status: 421,
  },
  {
    name: '/query signed in',
    path: '/query',
    init: query({ query: 'select Book { title } order by .title' }, {}),
    signedIn: true,
    lane: true,
    status: 200,
  },
  {
    name: '/query signed in, a query error (the session confirmed first)',
    path: '/query',
    init: query({ query: 'select Nope' }, {}),
    signedIn: true,
    lane: true,
    status: 400,
  },
  {
    name: 'REST by id signed in',
    path: ({ bookId }) => `/api/Book/${bookId}`,
    signedIn: true,
    lane: true,
    status: 200,
  },
  {
    name: 'REST 404 signed in',
    path: `/api/Book/${randomUUID()}`,
    signedIn: true,
    lane: true,
    status: 404,
  },
  {
    name: 'REST list',
    path: '/api/Book?order_by=title',
    init: { headers: BEARER },
    lane: true,
    status: 200,
  },
  {
    name: 'REST by id',
    path: ({ bookId }) => `/api/Book/${bookId}`,
    init: { headers: BEARER },
    lane: true,
    status: 200,
  },
  {
    name: 'REST HEAD',
    path: '/api/Book?order_by=title',
    init: { method: 'HEAD', headers: BEARER },
    lane: true,
    status: 200,
  },
  {
    name: 'REST 404 row',
    path: `/api/Book/${randomUUID()}`,
    init: { headers: BEARER },
    lane: true,
    status: 404,
  },
  { name: 'REST 404 type', path: '/api/Nope', init: { headers: BEARER }, lane: true, status: 404 },
  { name: 'REST bare /api', path: '/api', init: { headers: BEARER }, lane: true, status: 404 },
  {
    name: 'REST bad limit',
    path: '/api/Book?limit=1001',
    init: { headers: BEARER },
    lane: true,
    status: 400,
  },
  { name: 'REST unauthenticated', path: '/api/Book', lane: true, status: 401 },
  {
    name: 'REST bad token',
    path: '/api/Book',
    init: { headers: { authorization: 'Bearer nope' } },
    lane: true,
    status: 401,
  },
  {
    name: 'REST preflight (the lane’s CORS step answers)',
    path: '/api/Book',
    init: {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'PATCH' },
    },
    lane: true,
    status: 204,
  },
  {
    name: 'REST timeout',
    path: '/api/Heavy',
    init: { headers: BEARER },
    lane: true,
    status: 408,
  },
  {
    name: 'REST in a transaction (refused)',
    path: '/api/Book',
    init: { headers: { ...BEARER, 'x-svc-transaction': 'a.b' } },
    lane: true,
    status: 400,
  },
  {
    name: 'REST write with an empty body',
    path: '/api/Book',
    init: { method: 'POST', headers: { ...BEARER, ...JSON_TYPE }, body: '{}' },
    lane: true,
    status: 400,
  },
  {
    name: 'OpenAPI document (Express)',
    path: '/api/openapi.json',
    init: { headers: BEARER },
    lane: false,
    status: 200,
  },
  { name: 'API reference (Express)', path: '/api/Docs', lane: false, status: 200 },
  {
    name: 'a case variant (Express)',
    path: '/API/Book',
    init: { headers: BEARER },
    lane: false,
    status: 200,
  },
  { name: 'health', path: '/health', lane: true, status: 200 },
  { name: 'liveness', path: '/health/live', lane: true, status: 200 },
  { name: 'liveness with a query string', path: '/health/live?x=1', lane: true, status: 200 },
  {
    name: 'liveness, HEAD (Express)',
    path: '/health/live',
    init: { method: 'HEAD' },
    lane: false,
    status: 200,
  },
  {
    name: 'liveness, POST (Express: 405)',
    path: '/health/live',
    init: { method: 'POST' },
    lane: false,
    status: 405,
  },
  {
    name: 'auth: the profile signed in',
    path: '/auth/profile',
    signedIn: true,
    lane: true,
    status: 200,
  },
  { name: 'auth: the profile without a token', path: '/auth/profile', lane: true, status: 401 },
  {
    name: 'auth: a bad token, with a query string',
    path: '/auth/profile?x=1',
    init: { headers: { authorization: 'Bearer not-a-token' } },
    lane: true,
    status: 401,
  },
  {
    name: 'auth: a body over the limit',
    path: '/auth/login',
    init: query({ email: 'a@example.com', password: 'x'.repeat(5000) }, {}),
    lane: true,
    status: 413,
  },
  { name: 'auth: a method not allowed', path: '/auth/login', lane: true, status: 405 },
  { name: 'auth: no such route', path: '/auth/nope', lane: true, status: 404 },
  { name: 'auth: the mount itself', path: '/auth', lane: true, status: 404 },
  { name: 'auth: a case variant (Express)', path: '/AUTH/profile', lane: false, status: 404 },
  { name: 'liveness, a trailing slash (Express)', path: '/health/live/', lane: false, status: 200 },
  { name: 'readiness (Express)', path: '/health/ready', lane: false, status: 200 },
];

/** A read-only server without auth: anonymous callers, writes refused. */
const READ_ONLY: CreateServerOptions = { readOnly: true };

const READ_ONLY_CASES: Case[] = [
  {
    name: 'anonymous /query read',
    path: '/query',
    init: query({ query: 'select count(Book)' }, {}),
    lane: true,
    status: 200,
  },
  {
    name: '/query write refused (read-only)',
    path: '/query',
    init: query({ query: "insert Book { title := 'x' }" }, {}),
    lane: true,
    status: 503,
  },
  {
    name: 'REST write refused (read-only)',
    path: '/api/Book',
    init: { method: 'POST', headers: JSON_TYPE, body: '{"title":"x"}' },
    lane: true,
    status: 503,
  },
  {
    name: 'REST delete refused (read-only)',
    path: ({ bookId }) => `/api/Book/${bookId}`,
    init: { method: 'DELETE' },
    lane: true,
    status: 503,
  },
  { name: 'anonymous REST list', path: '/api/Book?order_by=title', lane: true, status: 200 },
  { name: 'unknown route (Express)', path: '/nope', lane: false, status: 404 },
];

interface Answer {
  readonly status: number;
  readonly headers: string;
  readonly body: string;
  /** Calls of Express's router while answering. */
  readonly routed: number;
}

/** Express's router, counted: whether a request reached it. */
function countRouting(server: SvcServer): { calls: number } {
  const counter = { calls: 0 };
  const router = (server.app as unknown as { router: { handle: (...a: unknown[]) => unknown } })
    .router;
  const handle = router.handle.bind(router);
  router.handle = (...args: unknown[]) => {
    counter.calls++;
    return handle(...args);
  };
  return counter;
}

async function answer(
  server: SvcServer,
  counter: { calls: number },
  path: string,
  init: InProcessInit,
): Promise<Answer> {
  const before = counter.calls;
  const res = await request(server.app, path, init);
  const headers = [...res.headers.entries()]
    .filter(([name]) => name !== 'date')
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  const body = Buffer.from(await res.arrayBuffer()).toString('utf8');
  return { status: res.status, headers, body, routed: counter.calls - before };
}

describe.each([
  ['auth, requireAuth, CORS, timeout', GUARDED, GUARDED_CASES],
  ['read-only, anonymous', READ_ONLY, READ_ONLY_CASES],
] as const)('%s: the lane on and off answer alike', (_name, options, cases) => {
  let on: SvcServer;
  let off: SvcServer;
  let onRouted: { calls: number };
  let offRouted: { calls: number };
  let bookId: string;
  let userToken = '';

  beforeAll(async () => {
    on = await build(db.get(), { ...options, hotLane: true });
    off = await build(db.get(), { ...options, hotLane: false });
    onRouted = countRouting(on);
    offRouted = countRouting(off);
    const res = await request(
      on.app,
      '/query',
      query(
        { query: "select (select Book filter .title = 'Dune').id" },
        options.serviceKey ? BEARER : {},
      ),
    );
    bookId = ((await res.json()) as { data: string[] }).data[0] as string;
    if (options.enableAuth) userToken = await signUp(on);
  });
  afterAll(async () => {
    await on?.close();
    await off?.close();
  });

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_case, c) => {
    const path = typeof c.path === 'string' ? c.path : c.path({ bookId });
    const id = randomUUID();
    const signedIn: Record<string, string> = c.signedIn
      ? { authorization: `Bearer ${userToken}` }
      : {};
    const init = { ...c.init, headers: { ...c.init?.headers, ...signedIn, 'x-request-id': id } };
    const a = await answer(on, onRouted, path, init);
    const b = await answer(off, offRouted, path, init);
    expect(a.status).toBe(c.status);
    expect({ status: a.status, headers: a.headers, body: a.body }).toEqual({
      status: b.status,
      headers: b.headers,
      body: b.body,
    });
    expect(a.headers).toContain(`x-request-id: ${id}`);
    // The lane on: Express's router only for what the lane leaves; off: always.
    expect(a.routed).toBe(c.lane ? 0 : 1);
    expect(b.routed).toBe(1);
  });
});

describe('the setting', () => {
  test('on by default; SVC_SERVER_HOT_LANE and the option turn it off', () => {
    expect(resolveConfig({ env: {} }).hotLane).toBe(true);
    expect(resolveConfig({ env: { SVC_SERVER_HOT_LANE: 'false' } }).hotLane).toBe(false);
    expect(resolveConfig({ env: { SVC_SERVER_HOT_LANE: 'true' }, hotLane: false }).hotLane).toBe(
      false,
    );
  });

  test("a test run's servers follow SVC_SERVER_HOT_LANE (.ci/run runs the data plane both ways)", async () => {
    const server = await build(db.get());
    try {
      expect(server.config.hotLane).toBe(process.env.SVC_SERVER_HOT_LANE !== 'false');
      const counter = countRouting(server);
      await answer(server, counter, '/query', query({ query: 'select 1' }, {}));
      expect(counter.calls).toBe(server.config.hotLane ? 0 : 1);
    } finally {
      await server.close();
    }
  });
});
