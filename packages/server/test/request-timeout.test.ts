/**
 * Issue 26, point 8: a timed-out query kept running in PostgreSQL.
 *
 * The attack: a caller sends a query that runs for minutes (here a computed property summing a
 * cross product of two ranges) behind a short requestTimeout. The client got 408, but the
 * statement went on running, so any caller could keep the database busy past requestTimeout,
 * one connection of the pool per request. Now the request's abort signal reaches the statement:
 * PostgreSQL is sent a cancel request and the statement is gone within a second of the 408;
 * `/metrics` counts it. Embedded PGlite cannot interrupt a statement (it runs on the JavaScript
 * thread): the request still answers 408, and the server goes on answering.
 */
import { ANONYMOUS_AUTH, openDatabase, type Database } from '@svc/core';
import { testDatabaseKind } from '@svc/core/testing';
import { createServer, type SvcServer } from '../src';
import { build, serverEnv, sharedDatabase, start } from './helpers';

const SDL = `
type Heavy {
  required n: int64;
  # n² additions: about 16 s for n = 10,000 on PostgreSQL, 1.2 s for n = 1,500 on PGlite.
  property work := sum(range_unpack(range(0, .n)) + range_unpack(range(0, .n)));
}
`;
const N = testDatabaseKind() === 'postgres' ? 10_000 : 1_500;
const TIMEOUT_MS = 300;
const JSON_HEADERS = { 'content-type': 'application/json' };

const db = sharedDatabase();

beforeAll(async () => {
  const setup = await build(db.get(), { schema: SDL });
  try {
    await setup.queryEngine.run(
      { query: 'insert Heavy { n := <int64>$n }', variables: { n: N } },
      { access: { policies: false, readOnly: false }, auth: ANONYMOUS_AUTH },
    );
  } finally {
    await setup.close();
  }
});

/** Polls `probe` every 25 ms until it is true; fails naming `what` after `ms`. */
async function waitFor(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The cancelled-statements counter, as `/metrics` prints it and `/stats` gives it. */
async function cancelledStatements(server: SvcServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const printed = /^svc_db_statements_cancelled_total (\d+)$/m.exec(text);
  if (!printed) throw new Error('svc_db_statements_cancelled_total is not in /metrics');
  const stats = (await (await fetch(`${server.url}/stats`)).json()) as {
    cancelledStatements: number;
  };
  expect(stats.cancelledStatements).toBe(Number(printed[1]));
  return stats.cancelledStatements;
}

/**
 * Each route: the slow request, and a quick one warming what the first request of a server
 * builds (the REST model, the compiler's first run), so the slow one reaches the database well
 * within the 300 ms.
 */
const routes: Array<[string, (server: SvcServer) => Promise<Response>, string]> = [
  [
    'POST /query',
    (server) =>
      fetch(`${server.url}/query`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ query: 'select Heavy { n, work }' }),
      }),
    '/query',
  ],
  ['GET /api/Heavy (REST)', (server) => fetch(`${server.url}/api/Heavy`), '/api/Heavy?n=-1'],
];

/**
 * A quick request's status and body. On a loaded machine the first request of a server or of a
 * query (compiling it, building the REST model) may itself pass the 300 ms and answer 408; what
 * it built stays cached, so it is sent again while it answers 408, for at most 10 s and 40 tries.
 * Status and body are compared together, so a failure shows both.
 */
async function answered(
  server: SvcServer,
  queryOrPath: string,
): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + 10_000;
  for (let attempt = 1; ; attempt++) {
    const res = queryOrPath.startsWith('/')
      ? await fetch(`${server.url}${queryOrPath}`)
      : await fetch(`${server.url}/query`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ query: queryOrPath }),
        });
    if (res.status !== 408 || attempt === 40 || Date.now() > deadline) {
      return { status: res.status, body: await res.json() };
    }
    await res.body?.cancel();
  }
}

/** The warm-up request of a route: answered at once, nothing of the slow work. */
async function warm(server: SvcServer, path: string): Promise<void> {
  const query = path === '/query' ? 'select Heavy { n, work } filter .n < 0' : path;
  expect(await answered(server, query)).toEqual({
    status: 200,
    body: path === '/query' ? { data: [] } : [],
  });
}

if (testDatabaseKind() === 'postgres') {
  describe('past requestTimeout on PostgreSQL the statement is cancelled', () => {
    let observer: Database;
    beforeAll(async () => {
      observer = await openDatabase({ ...(db.get().config as { url: string }), poolSize: 1 });
    });
    afterAll(() => observer.close());

    /**
     * Statements running in the suite's own database, seen from a connection of its own (the
     * text is not matched: pg_stat_activity keeps only its first 1024 bytes).
     */
    const running = async () =>
      Number(
        (
          await observer.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()",
          )
        ).rows[0]?.n,
      );

    test.each(routes)(
      '%s: 408, and the statement is gone from pg_stat_activity within a second',
      async (_route, send, warmUp) => {
        const server = await start(db.get(), {
          requestTimeout: TIMEOUT_MS,
          shutdownTimeout: 2000,
        });
        try {
          await warm(server, warmUp);
          const before = await cancelledStatements(server);
          const answer = send(server);
          await waitFor('the statement to start', 5000, async () => (await running()) === 1);
          const res = await answer;
          expect(res.status).toBe(408);
          expect(await res.json()).toMatchObject({ code: 'REQUEST_TIMEOUT' });
          await waitFor('the statement to be gone', 1000, async () => (await running()) === 0);
          await waitFor(
            'the cancelled statement to be counted',
            1000,
            async () => (await cancelledStatements(server)) === before + 1,
          );
          // The pool goes on: the next request is answered.
          expect(await answered(server, 'select Heavy { n }')).toEqual({
            status: 200,
            body: { data: [{ n: N }] },
          });
        } finally {
          await server.close();
        }
      },
    );

    test('a server that opens its database gives every connection requestTimeout as statement_timeout', async () => {
      // The backstop when a cancel request is lost (or this process dies mid-statement).
      const server = await createServer({
        env: serverEnv(),
        logLevel: 'silent',
        database: db.get().config,
        requestTimeout: TIMEOUT_MS,
      });
      try {
        const { rows } = await server.database.query<{ statement_timeout: string }>(
          'show statement_timeout',
        );
        expect(rows[0]?.statement_timeout).toBe(`${TIMEOUT_MS}ms`);
        await expect(server.database.query('select pg_sleep(3)')).rejects.toMatchObject({
          code: '57014',
        });
      } finally {
        await server.close();
      }
    });
  });
} else {
  describe('past requestTimeout on embedded PGlite', () => {
    test.each(routes)(
      '%s: 408 once the statement ends, and the next request is answered',
      async (_route, send, warmUp) => {
        const server = await start(db.get(), { requestTimeout: TIMEOUT_MS });
        try {
          await warm(server, warmUp);
          const res = await send(server);
          expect(res.status).toBe(408);
          expect(await res.json()).toMatchObject({ code: 'REQUEST_TIMEOUT' });
          expect(await answered(server, 'select Heavy { n }')).toEqual({
            status: 200,
            body: { data: [{ n: N }] },
          });
        } finally {
          await server.close();
        }
      },
    );
  });
}
