/**
 * A real SMTP server (npm smtp-server) on 127.0.0.1, port 0, capturing every message, and a small
 * parser for what @svc/smtp sends (text/plain or multipart/alternative, quoted-printable, RFC 2047
 * subjects). smtp-server waits about 100 ms before greeting each connection.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface Received {
  readonly from: string;
  readonly to: string[];
  readonly raw: Buffer;
}

export interface Peer {
  readonly port: number;
  readonly received: Received[];
  close(): Promise<void>;
}

export async function startPeer(options: SMTPServerOptions = {}): Promise<Peer> {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 500,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
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
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface ParsedMail {
  readonly headers: Map<string, string>;
  readonly subject: string;
  readonly text: string;
  readonly html: string | undefined;
}

function decodeQuotedPrintable(body: string): string {
  const soft = body.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(c.charCodeAt(0));
    }
  }
  return Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n');
}

function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
      enc.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const headers = new Map<string, string>();
  for (const field of head.split(/\r\n(?![ \t])/)) {
    const colon = field.indexOf(':');
    headers.set(field.slice(0, colon).toLowerCase(), field.slice(colon + 1).replace(/\r\n/g, '').trim());
  }
  return { headers, body: end === -1 ? '' : raw.slice(end + 4) };
}

export function parseMail(raw: Buffer): ParsedMail {
  const { headers, body } = splitHeaders(raw.toString('latin1'));
  const contentType = headers.get('content-type') ?? '';
  const subject = decodeEncodedWords(headers.get('subject') ?? '');
  if (!contentType.startsWith('multipart/alternative')) return { headers, subject, text: decodeQuotedPrintable(body), html: undefined };
  const boundary = /boundary="([^"]+)"/.exec(contentType)?.[1] ?? '';
  const parts = `\r\n${body}`.split(`\r\n--${boundary}`).slice(1, -1).map((part) => splitHeaders(part.replace(/^\r\n/, '')));
  const find = (type: string) => {
    const part = parts.find((p) => (p.headers.get('content-type') ?? '').startsWith(type));
    return part === undefined ? undefined : decodeQuotedPrintable(part.body);
  };
  return { headers, subject, text: find('text/plain') ?? '', html: find('text/html') };
}
