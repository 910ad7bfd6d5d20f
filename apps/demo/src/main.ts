/**
 * The svc demo: starts an svc server programmatically, the way an application embeds it.
 * It grows with svc: schema, auth and REST pages arrive as those features land.
 */
import { createServer, type CreateServerOptions, type SvcServer } from '@svc/server';

export async function startDemo(options: CreateServerOptions = {}): Promise<SvcServer> {
  const server = await createServer({ database: { dataDir: './.svc/demo-data' }, ...options });
  await server.listen();
  return server;
}

if (require.main === module) {
  startDemo().then(
    (server) => {
      server.logger.info(`svc demo running at ${server.url}`);
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
