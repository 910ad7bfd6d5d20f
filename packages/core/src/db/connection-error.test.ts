import net from 'node:net';
import { testDatabaseKind } from '../testing';
import { DatabaseConnectionError, openDatabase } from './index';

// Issue 8 ("First-run care"): a bad database URL or a server that cannot be reached surfaced as
// pg-pool's stack. openDatabase now throws one DatabaseConnectionError saying what failed, with
// the driver's error as its cause and never the password.

async function failure(url: string): Promise<DatabaseConnectionError> {
  const err = await openDatabase({ url, poolSize: 1 }).then(
    async (db) => {
      await db.close();
      throw new Error(`expected ${url} to fail`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DatabaseConnectionError);
  const e = err as DatabaseConnectionError;
  expect(e.code).toBe('SERVICE_UNAVAILABLE');
  expect(e.status).toBe(503);
  expect(e.message).not.toMatch(/\n/);
  expect(e.message).not.toContain('s3cret');
  return e;
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe('openDatabase refuses a URL that is not a PostgreSQL URL, before connecting', () => {
  test.each([
    ['not a URL at all', 'not a url'],
    ['a port out of range', 'postgres://app:s3cret@127.0.0.1:99999/db'],
    ['an unclosed IPv6 bracket', 'postgres://app:s3cret@[::1/db'],
  ])('%s', async (_name, url) => {
    const e = await failure(url);
    expect(e.problem).toBe('malformed-url');
    expect(e.message).toBe('the database URL is not a valid URL');
    expect(e.hint).toBe('write it as postgres://user:password@host:port/database');
  });

  test('another scheme', async () => {
    const e = await failure('mysql://app:s3cret@127.0.0.1/db');
    expect(e).toMatchObject({
      problem: 'malformed-url',
      message: 'the database URL starts with mysql:// where postgres:// is expected',
    });
  });
});

describe('openDatabase says why a server cannot be reached', () => {
  test('connection refused names the host and port, not the password', async () => {
    const port = await closedPort();
    const e = await failure(`postgres://app:s3cret@127.0.0.1:${port}/db`);
    expect(e.problem).toBe('unreachable');
    expect(e.message).toBe(
      `cannot connect to PostgreSQL at 127.0.0.1:${port} (connection refused)`,
    );
    expect((e.cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  test('a server that accepts the connection and never answers times out as unreachable', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const started = Date.now();
      const e = await openDatabase(
        { url: `postgres://app:s3cret@127.0.0.1:${port}/db` },
        { connectTimeoutMs: 300 },
      ).then(
        () => {
          throw new Error('opened a database that never answered');
        },
        (err: unknown) => err as DatabaseConnectionError,
      );
      expect(e).toBeInstanceOf(DatabaseConnectionError);
      expect(e.problem).toBe('unreachable');
      expect(e.message).toBe(`cannot connect to PostgreSQL at 127.0.0.1:${port} (timed out)`);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('an unknown host', async () => {
    const e = await failure('postgres://app:s3cret@no-such-host.invalid:5432/db');
    expect(e.problem).toBe('unreachable');
    expect(e.message).toMatch(
      /^cannot connect to PostgreSQL at no-such-host\.invalid:5432 \((host not found|host name lookup failed)\)$/,
    );
  });
});

// The server's own answers need a server: they run in the PostgreSQL pass (.ci/run runs both).
if (testDatabaseKind() === 'postgres') {
  describe('openDatabase on a real PostgreSQL server', () => {
    const base = new URL(process.env.SVC_TEST_DATABASE_URL as string);

    test('an unknown database', async () => {
      const url = new URL(base);
      url.pathname = '/svc_no_such_database';
      const e = await failure(url.toString());
      expect(e.problem).toBe('unknown-database');
      expect(e.message).toBe(
        `PostgreSQL at ${base.hostname}:${base.port || 5432} has no database "svc_no_such_database"`,
      );
      expect(e.hint).toBe(
        'create it (createdb "svc_no_such_database") or name an existing database in the URL',
      );
    });

    test('an unknown user is an authentication failure; the password is not shown', async () => {
      const url = new URL(base);
      url.username = 'svc_no_such_role';
      url.password = 's3cret';
      const e = await failure(url.toString());
      expect(e.problem).toBe('authentication');
      expect(e.message).toMatch(/^PostgreSQL at [^ ]+ refused the login \(.*svc_no_such_role.*\)$/);
    });
  });
}
