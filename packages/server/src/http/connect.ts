import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { commonError, renderError } from '@svc/core';

/**
 * CONNECT asks a proxy for a tunnel. Node hands it to the server's `connect` event, never to the
 * request listener (and without a listener it drops the socket with no answer); svc is not a
 * proxy, so it answers 405 in the envelope. The target is an authority, not one of our
 * resources, so `Allow` is empty (RFC 9110 §10.2.1: the resource allows no methods).
 */
export function refuseConnect(req: IncomingMessage, socket: Duplex): void {
  const rendered = renderError(
    commonError('METHOD_NOT_ALLOWED', 'CONNECT is not allowed: svc is not a proxy', {
      headers: { Allow: '' },
    }),
  );
  const body = JSON.stringify(rendered.body);
  const headers = {
    ...rendered.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/${req.httpVersion === '1.0' ? '1.0' : '1.1'} ${rendered.status} Method Not Allowed\r\n${head}\r\n${body}`,
  );
}
