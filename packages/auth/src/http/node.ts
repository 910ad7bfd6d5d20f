import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { commonError, errorCodeOf, noteErrorCode, renderError } from '@svc/core';
import { answererOf, type Answer, type AuthHandler } from './handler';
import { DEFAULT_BODY_LIMIT } from './body';
import type { AuthRequest } from './request';
import type { RequestInfo } from '../types';

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
 * Runs the Fetch handler for a Node request: gives it the request (the raw body, or a body an
 * earlier JSON parser consumed, re-serialised), the client's address and user-agent, and writes
 * its answer back, cookies included. Works with node:http, Express and Connect. A handler this
 * package made gets a plain `AuthRequest` and answers without a `Response` (http/handler
 * `Answer`); any other gets a Fetch `Request` and answers a `Response`, written the same way.
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
      const method = (req.method ?? 'GET').toUpperCase();
      // The handler answers a forbidden method (405 with Allow, or 404) from `info.method`; the
      // request it gets is a body-less GET, since a Request cannot carry that method.
      const forbidden = FORBIDDEN_METHODS.has(method);
      let body: Uint8Array | undefined;
      // An earlier JSON parser's body is sent again as JSON, its length no longer declared.
      let replaced: Readonly<Record<string, string | null>> | undefined;
      if (!forbidden && method !== 'GET' && method !== 'HEAD') {
        if (req.body !== undefined && typeof req.body === 'object' && !Buffer.isBuffer(req.body)) {
          body = Buffer.from(JSON.stringify(req.body));
          replaced = { 'content-type': 'application/json', 'content-length': null };
        } else {
          body = await readBody(req, limit);
        }
      }
      const requestMethod = forbidden ? 'GET' : (req.method ?? 'GET');
      // One literal, its keys always present (undefined when absent): a literal that starts with
      // a spread gets a hidden class of its own per request on Node 20 (ARCHITECTURE.md,
      // "A request's objects die young").
      const info: RequestInfo = {
        ip: (req.ip ?? req.socket.remoteAddress) || undefined,
        userAgent: req.headers['user-agent'] || undefined,
        method: forbidden ? method : undefined,
      };
      const answer: Answer = answerer
        ? await answerer(new NodeRequest(url, requestMethod, req.headers, body, replaced), info)
        : {
            response: await handler(
              fetchRequest(url, requestMethod, req.headers, body, replaced),
              info,
            ),
          };
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

/**
 * The request as the handler reads it (http/request `AuthRequest`), over Node's parsed headers:
 * no `Headers`, no `Request`, no stream. Node has lower-cased the names, joined repeated values
 * with `, ` (cookies with `; `) and trimmed them, as Fetch's `Headers` would.
 */
class NodeRequest implements AuthRequest {
  readonly headers: AuthRequest['headers'];
  readonly #body: Uint8Array | undefined;

  constructor(
    readonly url: string,
    readonly method: string,
    raw: IncomingHttpHeaders,
    body: Uint8Array | undefined,
    replaced: Readonly<Record<string, string | null>> | undefined,
  ) {
    this.#body = body;
    this.headers = {
      get(name) {
        const key = name.toLowerCase();
        if (replaced !== undefined && key in replaced) return replaced[key] ?? null;
        const value = raw[key];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  get body(): Uint8Array | null {
    return this.#body ?? null;
  }

  async text(): Promise<string> {
    return this.#body ? new TextDecoder().decode(this.#body) : '';
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#body ?? new Uint8Array(0);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
}

/** The same request as a Fetch `Request`, for a handler of anyone else's. */
function fetchRequest(
  url: string,
  method: string,
  raw: IncomingHttpHeaders,
  body: Uint8Array | undefined,
  replaced: Readonly<Record<string, string | null>> | undefined,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  for (const [name, value] of Object.entries(replaced ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return new Request(url, { method, headers, ...(body ? { body } : {}) });
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
