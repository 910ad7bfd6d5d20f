// timeoutMs bounds the whole send with one timer: a peer that never answers, one that stalls
// after the data, and one that answers every command in time but too slowly overall.
import net, { type AddressInfo } from 'node:net';

import { SmtpError, SmtpMailer } from '../src';
import { startPeer, type Peer } from '../src/testing';

const message = { to: 'ann@example.com', subject: 'Hello', text: 'Hi' };

async function timed(promise: Promise<unknown>): Promise<{ error: SmtpError; ms: number }> {
  const start = performance.now();
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SmtpError);
    return { error: error as SmtpError, ms: performance.now() - start };
  }
  throw new Error('expected the send to fail');
}

describe('timeoutMs', () => {
  let silent: net.Server;
  const sockets: net.Socket[] = [];
  let closed = 0;
  let peer: Peer | undefined;

  beforeAll(async () => {
    // Accepts connections and never says a word.
    silent = net.createServer((socket) => {
      sockets.push(socket);
      socket.on('close', () => {
        closed += 1;
      });
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    await peer?.close();
    peer = undefined;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  test('a peer that accepts and never answers fails within timeoutMs + 1 s, and the socket is closed', async () => {
    const { port } = silent.address() as AddressInfo;
    const timeoutMs = 400;
    const { error, ms } = await timed(
      new SmtpMailer({ host: '127.0.0.1', port, from: 's@example.com', timeoutMs }).send(message),
    );
    expect(error.code).toBe('ETIMEDOUT');
    expect(error.command).toBe('CONNECT');
    expect(error.message).toMatch(/timed out after 400 ms waiting for the reply to CONNECT/);
    expect(ms).toBeGreaterThanOrEqual(timeoutMs - 20);
    expect(ms).toBeLessThan(timeoutMs + 1000);
    // The client dropped its socket: the peer sees the close soon after.
    const deadline = Date.now() + 1000;
    while (closed < 1 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toBe(1);
  });

  test('a peer that stalls after the data times out waiting for the reply to "."', async () => {
    peer = await startPeer({ onData: (stream) => stream.resume() });
    const { error, ms } = await timed(
      new SmtpMailer({
        host: '127.0.0.1',
        port: peer.port,
        from: 's@example.com',
        timeoutMs: 600,
      }).send(message),
    );
    expect(error).toMatchObject({ code: 'ETIMEDOUT', command: '.' });
    expect(ms).toBeLessThan(600 + 1000);
  });

  test('bounds the whole message, not each command: slow replies add up', async () => {
    // Each reply comes 400 ms late, well inside the 1000 ms timeout; greeting (~100 ms) + MAIL +
    // RCPT + data is 1300 ms, so only the whole message can time out. Steps are wide enough that
    // a loaded machine moves the deadline between the later steps but never before MAIL FROM.
    const slow = (_a: unknown, _s: unknown, callback: () => void): void =>
      void setTimeout(callback, 400);
    peer = await startPeer({
      onMailFrom: slow,
      onRcptTo: slow,
      onData: (stream, _session, callback) => {
        stream.resume();
        stream.on('end', () => setTimeout(callback, 400));
      },
    });
    const { error, ms } = await timed(
      new SmtpMailer({
        host: '127.0.0.1',
        port: peer.port,
        from: 's@example.com',
        timeoutMs: 1000,
      }).send(message),
    );
    expect(error.code).toBe('ETIMEDOUT');
    expect(['RCPT TO:<ann@example.com>', 'DATA', '.']).toContain(error.command);
    expect(ms).toBeGreaterThanOrEqual(1000 - 20);
    expect(ms).toBeLessThan(1000 + 1000);
  });
});
