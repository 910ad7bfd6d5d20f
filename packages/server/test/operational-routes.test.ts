/*
 * Issue 26, point 9: operational routes with auth on. The probe: with auth on and `requireAuth`
 * off (the default), anyone reads `/metrics`, `/stats`, `/schema*` and `GET /migrations`, as
 * the spec's Authentication 5 allows, and nothing said so. The default stays; the server says
 * it once at start, beside the open-types warning, and `metricsToken` (`[server]
 * metrics_token`, `SVC_METRICS_TOKEN`) makes one bearer, and only that one, read `/metrics` and
 * `/stats`: what Prometheus' `authorization` setting sends. A service key, a user's token, the
 * cookie or `?token=` do not open them, and the metrics token opens nothing else.
 */
import { Writable } from 'node:stream';
import { createLogger, type CreateServerOptions, type SvcServer } from '../src';
import {
  SECRET,
  build,
  call,
  captureLogger,
  readJson,
  sharedDatabase,
  signUp,
  start,
} from './helpers';

const db = sharedDatabase();
const SERVICE_KEY = `svc-service-key-${'s'.repeat(32)}`;
const METRICS_TOKEN = `svc-metrics-token-${'m'.repeat(32)}`;
const SDL = 'type Note { body: str; }';
const FIGURES = ['/metrics', '/stats'];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The start-up lines that name the open operational routes, as [message, routes]. */
function openRouteLines(lines: readonly string[]): [string, string[]][] {
  return lines
    .map((l) => JSON.parse(l) as { level: number; msg: string; openRoutes?: string[] })
    .filter((l) => l.openRoutes !== undefined)
    .map((l) => {
      expect(l.level).toBe(40); // warn, as the open-types warning
      return [l.msg, l.openRoutes ?? []];
    });
}

async function serve(options: CreateServerOptions = {}) {
  const { logger, lines } = captureLogger();
  const server = await build(db.get(), {
    schema: SDL,
    enableAuth: true,
    jwtSecret: SECRET,
    serviceKey: SERVICE_KEY,
    logger,
    ...options,
  });
  return { server, lines };
}

describe('metricsToken: the only bearer /metrics and /stats take', () => {
  let server: SvcServer;
  let userToken: string;
  beforeAll(async () => {
    ({ server } = await serve({ metricsToken: METRICS_TOKEN }));
    userToken = await signUp(server);
  });
  afterAll(() => server.close());

  test.each(FIGURES)('%s without a bearer is 401 with a Bearer challenge', async (path) => {
    const res = await call(server, path);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
    expect(await readJson(res)).toEqual({
      code: 'UNAUTHORIZED',
      error: `UNAUTHORIZED: ${path} needs the metrics token as its bearer (Authorization: Bearer <metricsToken>)`,
    });
  });

  test.each(FIGURES)(
    '%s refuses every other credential: a wrong token, the service key, a user, the cookie, ?token=',
    async (path) => {
      const refusals = [
        ['a wrong token', { headers: bearer(`${METRICS_TOKEN}x`) }],
        ['the token in another case', { headers: bearer(METRICS_TOKEN.toUpperCase()) }],
        ['the service key', { headers: bearer(SERVICE_KEY) }],
        ["a signed-in user's token", { headers: bearer(userToken) }],
      ] as const;
      for (const [what, init] of refusals) {
        const res = await call(server, path, init);
        expect({ what, status: res.status, code: (await readJson(res)).code }).toEqual({
          what,
          status: 401,
          code: 'UNAUTHORIZED',
        });
        expect(res.headers.get('www-authenticate')).toBe(
          'Bearer realm="svc", error="invalid_token"',
        );
      }
      // Only the Authorization header carries it: not the auth cookie, not the query string.
      for (const res of [
        await call(server, path, { headers: { cookie: `auth_token=${METRICS_TOKEN}` } }),
        await call(server, `${path}?token=${METRICS_TOKEN}`),
      ]) {
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
      }
    },
  );

  test('with the token: /metrics is Prometheus text and /stats the same figures as JSON', async () => {
    const metrics = await call(server, '/metrics', { headers: bearer(METRICS_TOKEN) });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('# TYPE ');
    const stats = await call(server, '/stats', { headers: bearer(METRICS_TOKEN) });
    expect(stats.status).toBe(200);
    expect(await readJson(stats)).toHaveProperty('queryCompileCache');
  });

  test('the metrics token opens nothing else; the other routes keep their rules', async () => {
    // With auth on, a bearer that is not a valid token is refused wherever a token is read.
    for (const path of ['/schema', '/schema/types', '/migrations']) {
      const res = await call(server, path, { headers: bearer(METRICS_TOKEN) });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
    const query = await call(server, '/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(METRICS_TOKEN) },
      body: JSON.stringify({ query: 'select 1' }),
    });
    expect(query.status).toBe(401);
    // requireAuth is off: the schema routes stay open to anonymous callers, as before.
    expect((await call(server, '/schema')).status).toBe(200);
  });
});

describe('metricsToken with requireAuth on', () => {
  test('the token replaces the requireAuth gate on /metrics and /stats, and only there', async () => {
    const { server } = await serve({ metricsToken: METRICS_TOKEN, requireAuth: true });
    try {
      const userToken = await signUp(server);
      for (const path of FIGURES) {
        expect((await call(server, path, { headers: bearer(METRICS_TOKEN) })).status).toBe(200);
        expect((await call(server, path, { headers: bearer(userToken) })).status).toBe(401);
        expect((await call(server, path, { headers: bearer(SERVICE_KEY) })).status).toBe(401);
      }
      expect((await call(server, '/schema', { headers: bearer(userToken) })).status).toBe(200);
      expect((await call(server, '/schema', { headers: bearer(METRICS_TOKEN) })).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('without a metricsToken', () => {
  test('/metrics and /stats stay open to anonymous callers with auth on, as before', async () => {
    const { server } = await serve();
    try {
      for (const path of FIGURES) expect((await call(server, path)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('the start-up line naming the open operational routes', () => {
  const ALL_OPEN = [
    'GET /metrics',
    'GET /stats',
    'GET /schema',
    'GET /schema/types',
    'GET /migrations',
    'GET /api/openapi.json',
  ];

  test('with auth on and requireAuth off: once, beside the open-types warning, naming each route', async () => {
    const { server, lines } = await serve();
    try {
      expect(openRouteLines(lines)).toEqual([
        [
          `6 operational routes answer anonymous callers (require_auth is off): ${ALL_OPEN.join(', ')}; set require_auth = true to close them, or metrics_token to close /metrics and /stats alone`,
          ALL_OPEN,
        ],
      ]);
      // Beside the open-types warning: the next line.
      const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
      const openTypes = messages.findIndex((m) => m.includes('open to anonymous callers ('));
      expect(messages[openTypes + 1]).toContain('operational routes answer anonymous callers');
      // Every route it names answers an anonymous caller.
      for (const route of ALL_OPEN) {
        const res = await call(server, route.replace('GET ', ''));
        expect({ route, status: res.status }).toEqual({ route, status: 200 });
      }
      // Traffic and migrations do not repeat it.
      await call(server, '/migrations', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(SERVICE_KEY) },
        body: JSON.stringify({ schema: `${SDL} type Tag { label: str; }` }),
      });
      await call(server, '/metrics');
      expect(openRouteLines(lines)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  test('with a metrics token it names the others; without REST no /api/openapi.json', async () => {
    const { server, lines } = await serve({ metricsToken: METRICS_TOKEN, enableRest: false });
    try {
      expect(openRouteLines(lines)).toEqual([
        [
          '3 operational routes answer anonymous callers (require_auth is off): GET /schema, GET /schema/types, GET /migrations; set require_auth = true to close them',
          ['GET /schema', 'GET /schema/types', 'GET /migrations'],
        ],
      ]);
    } finally {
      await server.close();
    }
  });

  test('nothing with requireAuth on, nor with auth off (every route is anyone’s then)', async () => {
    for (const options of [{ requireAuth: true }, { enableAuth: false }]) {
      const { server, lines } = await serve(options);
      try {
        expect(openRouteLines(lines)).toEqual([]);
      } finally {
        await server.close();
      }
    }
  });
});

describe('the metrics token in logs', () => {
  test('a logged config or field named metricsToken is redacted, as the service key is', () => {
    const lines: string[] = [];
    const out = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('info', out as never, 'json');
    logger.info({ metricsToken: METRICS_TOKEN, config: { metricsToken: METRICS_TOKEN } }, 'x');
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      metricsToken: '[redacted]',
      config: { metricsToken: '[redacted]' },
    });
  });
});

describe('a scrape over a real socket', () => {
  test('Prometheus sends Authorization: Bearer <token>; the token is never logged', async () => {
    const { logger, lines } = captureLogger();
    const server = await start(db.get(), { schema: SDL, metricsToken: METRICS_TOKEN, logger });
    try {
      const refused = await fetch(`${server.url}/metrics`);
      expect(refused.status).toBe(401);
      const scraped = await fetch(`${server.url}/metrics`, { headers: bearer(METRICS_TOKEN) });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('# TYPE ');
      expect(lines.join('\n')).not.toContain(METRICS_TOKEN);
    } finally {
      await server.close();
    }
  });
});
