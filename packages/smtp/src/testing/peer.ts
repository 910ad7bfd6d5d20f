import type { AddressInfo } from 'node:net';
import type { SMTPServer, SMTPServerOptions } from 'smtp-server';

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
 * Loaded when a peer starts, not when `@svc/smtp/testing` is imported: `smtp-server` is an
 * optional peer dependency, needed only by `startPeer` (`parseMail` works without it).
 */
function loadSmtpServer(): typeof SMTPServer {
  try {
    return (require('smtp-server') as typeof import('smtp-server')).SMTPServer;
  } catch (err) {
    throw new Error('startPeer needs the smtp-server package: npm install --save-dev smtp-server', {
      cause: err,
    });
  }
}

/**
 * Starts a real SMTP server (npm smtp-server, an implementation independent of ours) on
 * 127.0.0.1, port 0. Defaults: no STARTTLS, AUTH optional, no reverse DNS, quiet; every message
 * is captured in `received`. Options override what a test needs (`onAuth`, `key`/`cert` with
 * `disabledCommands: []` for STARTTLS, `onRcptTo`...). smtp-server waits about 100 ms before
 * greeting each connection.
 *
 * @example
 * const peer = await startPeer();
 * await new SmtpMailer({ host: '127.0.0.1', port: peer.port, from: 'a@example.com' }).send(message);
 * parseMail(peer.received[0].raw).subject;
 * await peer.close();
 */
export async function startPeer(options: SMTPServerOptions = {}): Promise<Peer> {
  const Server = loadSmtpServer();
  const received: Received[] = [];
  const peer = { port: 0, received, connections: 0, close: async () => undefined } as Peer;
  const server = new Server({
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
