import net from 'node:net';

/**
 * A TCP port free on 127.0.0.1 now, for a process a test starts that takes its port as an
 * argument (PostgreSQL, PgBouncer, a server under test). Another process could take it before it
 * is used; tests on one machine start their processes one at a time, so in practice it holds.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
