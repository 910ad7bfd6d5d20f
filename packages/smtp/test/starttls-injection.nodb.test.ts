// Security: STARTTLS command/response injection (CVE-2011-0411 and the 2021 "NO STARTTLS"
// family). A man in the middle appends plaintext replies right after the server's 220 to
// STARTTLS; a client that keeps its receive buffer across the TLS upgrade would read them as
// replies that came through TLS (here: a fake reply to the EHLO after the handshake). The
// client must drop everything received before the handshake completes.
import net, { type AddressInfo } from 'node:net';

import { SmtpError, SmtpMailer } from '../src';
import { makeCertificates, type TestCertificates } from './helpers/certs';
import { startPeer, type Peer } from '../src/testing';

const INJECTED = '250-injected.example.com\r\n250 AUTH PLAIN\r\n';

interface Proxy {
  port: number;
  injected: boolean;
  close(): Promise<void>;
}

/**
 * A transparent TCP proxy to the peer that, after the client says STARTTLS, writes INJECTED
 * right after the server's 220 reply: in the same write (`sameWrite`), or as a separate write
 * before any byte of the server's TLS handshake.
 */
async function injectingProxy(upstreamPort: number, sameWrite: boolean): Promise<Proxy> {
  const sockets: net.Socket[] = [];
  const proxy = { port: 0, injected: false, close: async () => undefined } as Proxy;
  const server = net.createServer((client) => {
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    sockets.push(client, upstream);
    let startTlsSeen = false;
    let pending = Buffer.alloc(0);
    let done = false;
    client.on('data', (chunk: Buffer) => {
      if (!startTlsSeen && chunk.toString('latin1').includes('STARTTLS\r\n')) startTlsSeen = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (done || !startTlsSeen) {
        client.write(chunk);
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      const end = pending.indexOf('\r\n');
      if (end === -1) return;
      const reply = pending.subarray(0, end + 2);
      const rest = pending.subarray(end + 2);
      done = true;
      proxy.injected = true;
      if (sameWrite) {
        client.write(Buffer.concat([reply, Buffer.from(INJECTED)]));
        if (rest.length > 0) client.write(rest);
      } else {
        client.write(reply);
        upstream.pause();
        setTimeout(() => {
          client.write(INJECTED);
          if (rest.length > 0) client.write(rest);
          upstream.resume();
        }, 30);
      }
    });
    const closeBoth = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

describe('STARTTLS injection', () => {
  let certs: TestCertificates;
  let peer: Peer;
  let proxy: Proxy | undefined;

  beforeAll(async () => {
    certs = makeCertificates();
    peer = await startPeer({ disabledCommands: [], key: certs.key, cert: certs.cert });
  });

  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  afterAll(async () => {
    await peer.close();
  });

  function send(port: number, lines: string[]) {
    return new SmtpMailer({
      host: '127.0.0.1',
      port,
      from: 's@example.com',
      tls: { ca: certs.ca },
      timeoutMs: 5000,
      transcript: (direction, line) => lines.push(`${direction}: ${line}`),
    }).send({ to: 'ann@example.com', subject: 'Hello', text: 'Hi' });
  }

  test('replies pipelined after the 220 in the same packet are discarded, not parsed', async () => {
    proxy = await injectingProxy(peer.port, true);
    const before = peer.received.length;
    const lines: string[] = [];
    const result = await send(proxy.port, lines);
    expect(proxy.injected).toBe(true);
    expect(result.accepted).toEqual(['ann@example.com']);
    expect(lines.join('\n')).not.toContain('injected');
    // The EHLO after the handshake got the server's real reply, then the dialogue stayed in step.
    const afterTls = lines.slice(lines.indexOf('client: STARTTLS'));
    expect(afterTls.filter((l) => l === 'client: EHLO localhost')).toHaveLength(1);
    expect(peer.received.length).toBe(before + 1);
    expect(peer.received.at(-1)?.secure).toBe(true);
  });

  test('plaintext arriving after the 220 but before the handshake never becomes a reply', async () => {
    proxy = await injectingProxy(peer.port, false);
    const lines: string[] = [];
    let outcome: string;
    try {
      await send(proxy.port, lines);
      outcome = 'sent';
    } catch (error) {
      // Usually the plaintext hits the TLS layer and breaks the handshake.
      expect(error).toBeInstanceOf(SmtpError);
      outcome = (error as SmtpError).code;
    }
    expect(proxy.injected).toBe(true);
    expect(['ETLS', 'sent']).toContain(outcome);
    expect(lines.join('\n')).not.toContain('injected');
  });
});
