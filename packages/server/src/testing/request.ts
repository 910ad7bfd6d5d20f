/**
 * In-process requests for tests (Hono's `app.request`): one HTTP/1.1 exchange between node's own
 * client and server over an in-memory stream pair. No port is bound and no socket opened, yet the
 * request and the response go through node's real HTTP parsers, so status, headers, chunked
 * bodies, `Connection: close` and a body that never finishes arriving behave as on the wire.
 * What needs a real socket stays on real HTTP: TLS, CONNECT (the server's `connect` event),
 * graceful drain and keep-alive across requests.
 *
 * Internal to the package's tests: excluded from the build.
 */
import http from 'node:http';
import { Duplex } from 'node:stream';

export interface InProcessInit {
  /** @default 'GET' */
  readonly method?: string;
  /** Sent as given; `Host` may be set, unlike with fetch. @default host: localhost, connection: keep-alive */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Sent with its `Content-Length` unless the headers give one: a larger `content-length` leaves
   * the body unfinished, the request still in progress until the server answers.
   */
  readonly body?: string | Buffer;
  /** The client address the server sees (`req.ip`). @default '127.0.0.1' */
  readonly remoteAddress?: string;
}

/** Anything node's HTTP server can dispatch to: an Express app, a plain listener. */
export type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const servers = new WeakMap<RequestListener, http.Server>();

/**
 * Sends one request to `app` and resolves with the answer as a Fetch `Response`, so a test reads
 * it as it would one from `fetch`. `path` is the request target (`/query?x=1`).
 *
 * @example
 * const res = await request(server.app, '/health');
 * expect(await res.json()).toEqual({ status: 'ok' });
 */
export function request(
  app: RequestListener,
  path: string,
  init: InProcessInit = {},
): Promise<Response> {
  let server = servers.get(app);
  if (!server) {
    server = http.createServer(app);
    servers.set(app, server);
  }
  const [client, peer] = streamPair();
  Object.assign(peer, {
    remoteAddress: init.remoteAddress ?? '127.0.0.1',
    remotePort: 40000,
    remoteFamily: 'IPv4',
  });
  server.emit('connection', peer);

  const headers: Record<string, string> = { host: 'localhost', connection: 'keep-alive' };
  for (const [name, value] of Object.entries(init.headers ?? {}))
    headers[name.toLowerCase()] = value;
  if (init.body !== undefined && headers['content-length'] === undefined) {
    headers['content-length'] = String(Buffer.byteLength(init.body));
  }

  return new Promise<Response>((resolve, reject) => {
    const req = http.request({
      method: init.method ?? 'GET',
      path,
      headers,
      createConnection: () => client as never,
    });
    req.on('error', (err) => {
      peer.destroy();
      reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        // One exchange per connection: hang up as a client would when done.
        client.destroy();
        const out = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const status = res.statusCode ?? 0;
        const body =
          chunks.length === 0 || status === 204 || status === 304 ? null : Buffer.concat(chunks);
        resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: out }));
      });
    });
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

/** Two connected in-memory sockets: what one writes, the other reads; ending or closing one ends the other. */
function streamPair(): [Duplex, Duplex] {
  const a = new Side();
  const b = new Side();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class Side extends Duplex {
  peer!: Side;
  // What node's HTTP code asks of a socket beyond a Duplex.
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  override _read(): void {}
  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (err?: Error | null) => void,
  ): void {
    this.peer.push(chunk);
    done();
  }
  override _final(done: (err?: Error | null) => void): void {
    this.peer.push(null);
    done();
  }
  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    if (!this.peer.destroyed) {
      this.peer.push(null);
      this.peer.destroy();
    }
    done(err);
  }
}
