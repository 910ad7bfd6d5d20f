import type { AddressInfo } from 'node:net';

import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** One message as the peer received it. */
export interface Received {
  readonly from: string;
  readonly to: string[];
  /** The DATA content, dot-unstuffed by smtp-server, byte for byte. */
  readonly raw: Buffer;
  /** The name the client gave in EHLO/HELO. */
  readonly clientHostname: string;
  readonly user: string | undefined;
  readonly secure: boolean;
}

export interface Peer {
  port: number;
  readonly received: Received[];
  /** How many connections the peer accepted. */
  connections: number;
  close(): Promise<void>;
}

/**
 * Starts a real SMTP server (npm smtp-server) on 127.0.0.1, port 0. Defaults: no STARTTLS, AUTH
 * optional, no reverse DNS, quiet; every message is captured. Options override what a test needs.
 * smtp-server waits about 100 ms before greeting each connection.
 */
export async function startPeer(options: SMTPServerOptions = {}): Promise<Peer> {
  const received: Received[] = [];
  const peer = { port: 0, received, connections: 0, close: async () => undefined } as Peer;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 500,
    onConnect(_session, callback) {
      peer.connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          clientHostname: session.hostNameAppearsAs,
          user: typeof session.user === 'string' ? session.user : undefined,
          secure: session.secure,
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  peer.port = (server.server.address() as AddressInfo).port;
  peer.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return peer;
}
