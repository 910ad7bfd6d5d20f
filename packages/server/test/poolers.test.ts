/**
 * Issue 33, "Poolers": svc behind a transaction-mode PgBouncer (Debian's, older than 1.21: no
 * protocol-level prepared statements). Each statement outside a transaction may run on any
 * server connection, so nothing may rely on session state between statements; named prepared
 * statements are session state, and `[database] prepared_statements = false` turns them off.
 *
 * Two poolers, started by the test on loopback ports: one with a single server connection (what
 * that connection holds can be asked through the pooler, and two clients meet there for sure)
 * and one with three (consecutive statements of one client land on different connections).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '@svc/core';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { createServer, type CreateServerOptions, type SvcServer } from '../src';
import { SECRET, serverEnv } from './helpers';
import { describeWithPgbouncer, type Pgbouncer, startPgbouncer } from './pgbouncer';

const SDL = `
type Note {
  required title: str;
  body: str;
}
`;

/** svc's statement names (engine: `svc_` and 32 hex digits of the SQL's hash). */
const SVC_STATEMENT = '^svc_[0-9a-f]{32}$';

async function startServer(url: string, options: CreateServerOptions = {}): Promise<SvcServer> {
  const server = await createServer({
    env: serverEnv(),
    logLevel: 'silent',
    enableAuth: true,
    jwtSecret: SECRET,
    authConfig: { bcryptRounds: 4 },
    schema: SDL,
    ...options,
    ...(options.databaseInstance
      ? {}
      : { database: { url, poolSize: 4, ...(options.database as object) } }),
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return server;
}

async function post(server: SvcServer, route: string, body: unknown, token?: string) {
  const res = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Prepared statements of the one server connection behind a single-connection pooler. */
async function preparedOnServer(url: string): Promise<string[]> {
  const db = await openDatabase({ url, poolSize: 1, preparedStatements: false });
  try {
    const { rows } = await db.query<{ name: string }>(
      'select name from pg_prepared_statements where name ~ $1 order by name',
      [SVC_STATEMENT],
    );
    return rows.map((r) => r.name);
  } finally {
    await db.close();
  }
}

if (testDatabaseKind() === 'postgres') {
  describeWithPgbouncer('through pgbouncer in transaction mode (issue 33)', () => {
    let t: TestDatabase;
    let single: Pgbouncer | undefined;
    let scattered: Pgbouncer | undefined;

    beforeAll(async () => {
      t = await createTestDatabase();
      const direct = (t.config as { url: string }).url;
      single = await startPgbouncer(direct, { serverConnections: 1 });
      scattered = await startPgbouncer(direct, { serverConnections: 3 });
    }, 30_000);
    afterAll(async () => {
      await single?.stop();
      await scattered?.stop();
      await t?.dispose();
    });

    test('a named statement two clients prepare: the second meets 42P05, names no more, and answers', async () => {
      const url = single!.url;
      const warnings: string[] = [];
      const clients = await Promise.all(
        [0, 1].map(() =>
          openDatabase({ url, poolSize: 1 }, { onWarning: (message) => warnings.push(message) }),
        ),
      );
      try {
        // Both clients Parse the same name on the pooler's one server connection: the second is
        // refused (42P05), as any client that names its statements behind PgBouncer before 1.21
        // is; the database runs it again unnamed, and says so once.
        const run = () =>
          Promise.all(
            clients.map(async (db) => {
              const { rows } = await db.query<{ n: number }>('select $1::int + 1 as n', [1], {
                name: 'pooler_probe',
              });
              return rows[0]?.n;
            }),
          );
        expect(await run()).toEqual([2, 2]);
        expect(await run()).toEqual([2, 2]);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/does not keep prepared statements/);
      } finally {
        await Promise.all(clients.map((db) => db.close()));
      }
    });

    test('prepared_statements off: queries, sign-up, sign-in and REST work, statements scattered over three server connections', async () => {
      const server = await startServer(scattered!.url, {
        database: { url: scattered!.url, preparedStatements: false },
      });
      try {
        expect(server.config.database).toEqual({
          url: scattered!.url,
          poolSize: 4,
          preparedStatements: false,
        });
        expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);

        const email = 'pooled@example.com';
        const password = 'correct horse battery staple';
        const registered = await post(server, '/auth/register', { email, password });
        expect(registered.status).toBe(201);
        const login = await post(server, '/auth/login', { email, password });
        expect(login.status).toBe(200);
        let token = login.body.token as string;
        const profile = await fetch(`${server.url}/auth/profile`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(profile.status).toBe(200);
        expect(((await profile.json()) as { email: string }).email).toBe(email);
        // A refresh reads and rotates what the sign-in wrote, on whatever connection it lands.
        const refreshed = await post(server, '/auth/refresh', {
          refreshToken: login.body.refreshToken,
        });
        expect(refreshed.status).toBe(200);
        token = refreshed.body.token as string;

        // Many statements at once, each on any of the three server connections.
        const inserts = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            post(
              server,
              '/query',
              { query: 'insert Note { title := <str>$title }', variables: { title: `n${i}` } },
              token,
            ),
          ),
        );
        expect(inserts.map((r) => [r.status, r.body.error?.code])).toEqual(
          Array(12).fill([200, undefined]),
        );
        const reads = await Promise.all(
          Array.from({ length: 12 }, () =>
            post(server, '/query', { query: 'select count(Note)', cardinality: 'one' }, token),
          ),
        );
        expect(reads.map((r) => [r.status, r.body.data])).toEqual(Array(12).fill([200, [12]]));

        const created = await post(server, '/api/Note', { title: 'via REST', body: 'b' }, token);
        expect(created.status).toBe(201);
        const listed = await fetch(`${server.url}/api/Note`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(listed.status).toBe(200);
        const body = JSON.stringify(await listed.json());
        expect(body).toContain('via REST');

        // A transaction over several requests keeps its one server connection throughout.
        const opened = await post(server, '/transactions', {}, token);
        expect(opened.status).toBe(201);
        const tx = opened.body.transaction.id as string;
        const inside = await fetch(`${server.url}/query`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            'x-svc-transaction': tx,
          },
          body: JSON.stringify({ query: 'insert Note { title := "in a transaction" }' }),
        });
        expect(inside.status).toBe(200);
        expect((await post(server, `/transactions/${tx}/commit`, {}, token)).status).toBe(200);
        const { rows } = await t.db.query<{ n: number }>(
          `select count(*)::int as n from "default"."Note"`,
        );
        expect(rows[0]?.n).toBe(14);
      } finally {
        await server.close();
      }
    }, 60_000);

    test('the setting off sends no name; on (the default), the clash is met and the engine recovers', async () => {
      const query = { query: 'select Note { title } order by .title limit 1' };
      // Two at once, three times: both of the server's pooled connections, one server connection.
      const rounds = async (server: SvcServer) => {
        for (let round = 0; round < 3; round++) {
          const answers = await Promise.all([0, 1].map(() => post(server, '/query', query)));
          expect(answers.map((a) => a.status)).toEqual([200, 200]);
        }
      };
      const off = await startServer(single!.url, {
        enableAuth: false,
        database: { url: single!.url, preparedStatements: false, poolSize: 2 },
      });
      try {
        await rounds(off);
      } finally {
        await off.close();
      }
      expect(await preparedOnServer(single!.url)).toEqual([]);

      // On behind the same pooler: the second client's Parse of a name the server connection
      // already holds fails (42P05, as above; 26000 for a Bind landing where the name is unknown).
      // The database then stops naming statements for the rest of the process and runs the
      // statement again (db/open `poolRunner`), so every request answers, auth's included, at the
      // cost of a failed statement (and PgBouncer may drop that server connection).
      const warnings: string[] = [];
      const db = await openDatabase(
        { url: single!.url, poolSize: 2 },
        { onWarning: (message) => warnings.push(message) },
      );
      const on = await startServer(single!.url, { enableAuth: false, databaseInstance: db });
      try {
        await rounds(on);
      } finally {
        await on.close();
        await db.close();
      }
      expect(warnings.filter((w) => /does not keep prepared statements/.test(w))).toHaveLength(1);
    }, 60_000);
  });
}

test('no session state: no session-level lock, LISTEN, temporary table or session SET in the sources', () => {
  // What a transaction-mode pooler breaks, looked for in every package's non-test sources.
  // Transaction-scoped forms (pg_advisory_xact_lock, set local, set_config(..., true)) are fine.
  const root = path.join(__dirname, '..', '..');
  const forbidden = [
    /pg_(try_)?advisory_lock(_shared)?\s*\(/i,
    /['"`]\s*(listen|unlisten)\s/i,
    /create\s+(temp|temporary)\s+table/i,
    /['"`]\s*set\s+(session\s+)?(?!local\b|transaction\b)[a-z_]+\s*(=|to)\s/i,
    /set_config\([^)]*,\s*false\s*\)/i,
  ];
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (depth > 12) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === '__tests__') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full, depth + 1);
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
        const text = fs.readFileSync(full, 'utf8');
        for (const pattern of forbidden) {
          if (pattern.test(text)) found.push(`${path.relative(root, full)}: ${pattern}`);
        }
      }
    }
  };
  const packages = fs.readdirSync(root).map((name) => path.join(root, name, 'src'));
  for (const src of packages.filter((p) => fs.existsSync(p))) visit(src, 0);
  expect(packages.filter((p) => fs.existsSync(p)).length).toBeGreaterThan(5);
  expect(found).toEqual([]);
});
