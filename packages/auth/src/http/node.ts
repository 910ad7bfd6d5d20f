import type { IncomingMessage, ServerResponse } from 'node:http';
import { commonError, errorCodeOf, noteErrorCode, renderError } from '@svc/core';
import { answererOf, type Answer, type AuthHandler } from './handler';
import { DEFAULT_BODY_LIMIT } from './body';

/** What Express (or another framework) adds to a Node request, used when present. */
export interface FrameworkRequest extends IncomingMessage {
  /** Express: the client address honouring `trust proxy`. */
  readonly ip?: string;
  /** Express: the URL before mounting stripped the prefix. */
  readonly originalUrl?: string;
  /** Express: `https` under TLS or a trusted proxy. */
  readonly protocol?: string;
  /** A body some earlier middleware already parsed (express.json()). */
  readonly body?: unknown;
}

/**
 * Methods the Fetch standard forbids in a `Request` (`new Request` throws on them). Node's HTTP
 * parser hands TRACE (and TRACK, where it parses it) to the request listener; CONNECT goes to the
 * server's `connect` event instead and never reaches an adapter.
 */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

export interface NodeAdapterOptions {
  /** @default 1 MiB */
  readonly bodyLimit?: number;
}

/**
 * Runs the Fetch handler for a Node request: builds a `Request` (the raw body, or a body an
 * earlier JSON parser consumed, re-serialised), passes the client's address and user-agent, and
 * writes the `Response` back, cookies included. Works with node:http, Express and Connect.
 */
export function toNodeListener(handler: AuthHandler, options: NodeAdapterOptions = {}) {
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  // A handler of this package answers without a `Response` when it can (handler.ts `Answer`).
  const answerer = answererOf(handler);
  return async (
    req: FrameworkRequest,
    res: ServerResponse,
    next?: (err?: unknown) => void,
  ): Promise<void> => {
    try {
      const protocol =
        req.protocol ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
      const url = `${protocol}://${req.headers.host ?? 'localhost'}${req.originalUrl ?? req.url ?? '/'}`;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value !== undefined) headers.set(name, value);
      }
      const method = (req.method ?? 'GET').toUpperCase();
      // The handler answers a forbidden method (405 with Allow, or 404) from `info.method`; the
      // Request it gets is a body-less GET, since a Request cannot carry that method.
      const forbidden = FORBIDDEN_METHODS.has(method);
      let body: Uint8Array | undefined;
      if (!forbidden && method !== 'GET' && method !== 'HEAD') {
        if (req.body !== undefined && typeof req.body === 'object' && !Buffer.isBuffer(req.body)) {
          body = Buffer.from(JSON.stringify(req.body));
          headers.set('content-type', 'application/json');
          headers.delete('content-length');
        } else {
          body = await readBody(req, limit);
        }
      }
      const request = new Request(url, {
        method: forbidden ? 'GET' : (req.method ?? 'GET'),
        headers,
        ...(body ? { body } : {}),
      });
      const info = {
        ...((req.ip ?? req.socket.remoteAddress) ? { ip: req.ip ?? req.socket.remoteAddress } : {}),
        ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
        ...(forbidden ? { method } : {}),
      };
      const answer: Answer = answerer
        ? await answerer(request, info)
        : { response: await handler(request, info) };
      if ('response' in answer) await writeResponse(res, answer.response);
      else writeAnswer(res, answer);
    } catch (err) {
      if (next) return next(err);
      const rendered = renderError(err);
      noteErrorCode(res, rendered.body.code);
      if (!res.headersSent) {
        res.writeHead(rendered.status, {
          ...rendered.headers,
          'Content-Type': 'application/json; charset=utf-8',
        });
      }
      res.end(JSON.stringify(rendered.body));
    }
  };
}

async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit)
    throw commonError('PAYLOAD_TOO_LARGE', `request body exceeds ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw commonError('PAYLOAD_TOO_LARGE', `request body exceeds ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  // The handler's envelope code travels to the Node response, for the host's access log.
  writeHead(res, response.status, response.headers, errorCodeOf(response));
  const body = Buffer.from(await response.arrayBuffer());
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/** A JSON answer, its text written as it is: what `writeResponse` writes for its `Response`. */
function writeAnswer(res: ServerResponse, answer: Exclude<Answer, { response: Response }>): void {
  writeHead(res, answer.status, answer.headers, answer.code);
  const text = answer.text ?? '';
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

function writeHead(
  res: ServerResponse,
  status: number,
  headers: Headers,
  code: string | undefined,
): void {
  res.statusCode = status;
  if (code !== undefined) noteErrorCode(res, code);
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = headers.getSetCookie();
  if (cookies.length) res.setHeader('Set-Cookie', cookies);
}
