/**
 * The real server the client's suites talk to: `createServer` on a fresh test database of the
 * engine under test (PGlite, or PostgreSQL with SVC_TEST_DB=postgres), listening on loopback,
 * with no environment read and no logs. `close` stops the server, then drops the database.
 */
import { createTestDatabase } from '@svc/core/testing';
import { createServer, type CreateServerOptions, type SvcServer } from '@svc/server';

export interface TestServer {
  readonly server: SvcServer;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  close(): Promise<void>;
}

export async function serveForTest(
  options: Omit<CreateServerOptions, 'databaseInstance' | 'env' | 'logLevel'>,
): Promise<TestServer> {
  const tdb = await createTestDatabase();
  let server: SvcServer | undefined;
  try {
    server = await createServer({
      env: {},
      logLevel: 'silent',
      databaseInstance: tdb.db,
      ...options,
    });
    await server.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await server?.close();
    await tdb.dispose();
    throw err;
  }
  const started = server;
  return {
    server: started,
    url: started.url,
    close: async () => {
      await started.close();
      await tdb.dispose();
    },
  };
}
