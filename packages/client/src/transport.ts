/**
 * client/transport: one HTTP exchange with a svc server over the web platform's `fetch`, shared by
 * the query methods (client.ts), transactions and auth. A 2xx answer resolves with its text and
 * headers; every other outcome is an `SvcError` (errors.ts): the server's envelope as its class,
 * a request that failed as `NetworkError`, an answer that is not svc's JSON as `ProtocolError`.
 * The credential is asked for on every request, so a session that refreshes its access token is
 * sent as it is now.
 */
import { errorFromEnvelope, NetworkError, ProtocolError } from './errors';

export interface TransportOptions {
  /** The server's base URL (`http://127.0.0.1:5656`); a trailing `/` is dropped. */
  readonly url: string;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** The bearer credential for the next request (undefined: none sent). */
  readonly credential?: () => string | undefined | Promise<string | undefined>;
}

export interface TransportRequest {
  readonly method?: 'GET' | 'POST' | 'DELETE';
  /** JSON-encoded as the body. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Send no credential (auth routes that take none, such as sign-in). @default false */
  readonly anonymous?: boolean;
}

export interface TransportAnswer {
  readonly status: number;
  readonly text: string;
  readonly headers: Headers;
}

export interface Transport {
  /** The base URL, without a trailing `/`. */
  readonly url: string;
  /** One request to `path` (`/query`, `/auth/token`, ...). */
  request(path: string, request?: TransportRequest): Promise<TransportAnswer>;
}

export function createTransport(options: TransportOptions): Transport {
  const base = options.url.replace(/\/+$/, '');
  const fetcher = options.fetch ?? globalThis.fetch;
  if (typeof fetcher !== 'function')
    throw new TypeError('no fetch: pass `fetch` to createClient on this runtime');

  async function request(path: string, req: TransportRequest = {}): Promise<TransportAnswer> {
    const url = `${base}${path}`;
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    const credential = req.anonymous ? undefined : await options.credential?.();
    if (credential) headers.authorization = `Bearer ${credential}`;
    let response: Response;
    try {
      response = await fetcher(url, {
        method: req.method ?? (req.body === undefined ? 'GET' : 'POST'),
        headers,
        ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
      });
    } catch (cause) {
      throw new NetworkError(
        `the request to ${url} failed: ${(cause as Error)?.message ?? cause}`,
        { cause },
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      throw new NetworkError(`the answer from ${url} did not arrive whole`, { cause });
    }
    if (!response.ok) {
      let envelope: unknown;
      try {
        envelope = JSON.parse(text);
      } catch {
        throw new ProtocolError(
          `the server answered ${response.status} with a body that is not JSON`,
          { status: response.status },
        );
      }
      throw errorFromEnvelope(response.status, envelope);
    }
    return { status: response.status, text, headers: response.headers };
  }

  return { url: base, request };
}
