/**
 * Issue 8, "Several processes on one database": three svc processes started at once through
 * pgbouncer in transaction mode; in 4 of 14 runs one never became ready. The auth migrations took
 * a session-level pg_advisory_lock and released it in a separate statement, which a
 * transaction-mode pooler may run on another server connection: the lock leaked and the next
 * start waited for it forever, even with nothing to migrate.
 *
 * Here servers with auth enabled start at once on one fresh database (each with its own pool on
 * PostgreSQL, as separate processes would), directly and through a pgbouncer in transaction
 * mode that the test runs itself on a loopback port. Also `[database] pool_size`.
 */
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { AUTH_MIGRATIONS } from '@svc/auth';
import { createServer, type CreateServerOptions, type SvcServer } from '../src';
import { SECRET, serverEnv } from './helpers';
import { describeWithPgbouncer, type Pgbouncer, startPgbouncer } from './pgbouncer';

const READY_WITHIN_MS = 20_000;

/** Starts a server and waits for /health/ready, failing (not hanging) past the deadline. */
async function startReady(options: CreateServerOptions): Promise<SvcServer> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`a server did not become ready within ${READY_WITHIN_MS} ms`)),
      READY_WITHIN_MS,
    );
  });
  try {
    const server = await Promise.race([
      (async () => {
        const s = await createServer({
          env: serverEnv(),
          logLevel: 'silent',
          enableAuth: true,
          jwtSecret: SECRET,
          ...options,
        });
        await s.listen({ port: 0, host: '127.0.0.1' });
        return s;
      })(),
      deadline,
    ]);
    const res = await fetch(`${server.url}/health/ready`);
    expect(res.status).toBe(200);
    return server;
  } finally {
    clearTimeout(timer);
  }
}

/** Starts `n` servers at once; all must become ready. Closes them before returning. */
async function startTogether(n: number, options: () => CreateServerOptions): Promise<void> {
  const results = await Promise.allSettled(Array.from({ length: n }, () => startReady(options())));
  await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
  const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
  expect(failed.map((f) => String(f.reason))).toEqual([]);
}

/**
 * Migration locks held in this database (a leaked one shows here): rows of `svc_meta.locks` some
 * transaction still holds (core's storage/lock), and any advisory lock.
 */
async function locksHeld(t: TestDatabase): Promise<number> {
  return t.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ n: number }>(
      `select (select count(*)::int from svc_meta.locks)
            - (select count(*)::int from (select name from svc_meta.locks for update skip locked) as free)
            + (select count(*)::int from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database()))
          as n`,
    );
    return rows[0]?.n ?? -1;
  });
}

describe(`several servers starting at once on one fresh database (${testDatabaseKind()})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());

  test('all become ready, the first start and the next ones', async () => {
    const options = (): CreateServerOptions =>
      testDatabaseKind() === 'postgres'
        ? { database: { ...(t.config as { url: string }), poolSize: 3 } }
        : { databaseInstance: t.db };
    for (let round = 0; round < 3; round++) await startTogether(4, options);
    const { rows } = await t.db.query<{ name: string }>(
      'select name from svc_auth.kysely_migration order by name',
    );
    expect(rows.map((r) => r.name)).toEqual(Object.keys(AUTH_MIGRATIONS).sort());
  }, 90_000);
});

if (testDatabaseKind() === 'postgres') {
  describe('[database] pool_size on PostgreSQL', () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase();
    });
    afterAll(() => t.dispose());

    test('SVC_DATABASE_POOL_SIZE caps the connections the server opens', async () => {
      const server = await createServer({
        env: { DATABASE_URL: (t.config as { url: string }).url, SVC_DATABASE_POOL_SIZE: '2' },
        logLevel: 'silent',
      });
      try {
        expect(server.config.database).toEqual({
          url: (t.config as { url: string }).url,
          poolSize: 2,
        });
        const sleeping = Array.from({ length: 4 }, () =>
          server.database.query('select pg_sleep(0.4)'),
        );
        await new Promise((r) => setTimeout(r, 200));
        expect(server.database.stats()).toMatchObject({ total: 2, waiting: 2 });
        await Promise.all(sleeping);
      } finally {
        await server.close();
      }
    });
  });

  describeWithPgbouncer('through pgbouncer in transaction mode', () => {
    let t: TestDatabase;
    let bouncer: Pgbouncer | undefined;
    let bouncerUrl: string;

    beforeAll(async () => {
      t = await createTestDatabase();
      // Few server connections for many clients: consecutive statements of one client land on
      // different server connections, as in the report.
      bouncer = await startPgbouncer((t.config as { url: string }).url, {
        serverConnections: 3,
      });
      bouncerUrl = bouncer.url;
    }, 30_000);
    afterAll(async () => {
      await bouncer?.stop();
      await t?.dispose();
    });

    test('three servers started at once, five times over: every one becomes ready and no lock is left behind', async () => {
      for (let round = 0; round < 5; round++) {
        await startTogether(3, () => ({ database: { url: bouncerUrl, poolSize: 4 } }));
        expect(await locksHeld(t)).toBe(0);
      }
      const { rows } = await t.db.query<{ name: string }>(
        'select name from svc_auth.kysely_migration order by name',
      );
      expect(rows.map((r) => r.name)).toEqual(Object.keys(AUTH_MIGRATIONS).sort());
    }, 120_000);

    test('the rate limits count correctly through the pooler', async () => {
      const servers = await Promise.all(
        [0, 1].map(() =>
          startReady({
            database: { url: bouncerUrl, poolSize: 4 },
            authConfig: { bcryptRounds: 4, rateLimits: { login: { perEmail: 6 } } },
          }),
        ),
      );
      try {
        const all = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            fetch(`${servers[i % 2]!.url}/auth/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email: 'pooled@example.com', password: 'not the password' }),
            }).then((r) => r.status),
          ),
        );
        expect(all.filter((s) => s === 401)).toHaveLength(6);
        expect(all.filter((s) => s === 429)).toHaveLength(10);
      } finally {
        await Promise.all(servers.map((s) => s.close()));
      }
    }, 60_000);
  });
}
