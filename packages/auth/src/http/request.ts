/**
 * What the handler reads of a request. A Fetch `Request` has all of it, and is what the handler
 * takes (`auth.handler`); the Node adapter gives it a plain one instead (`NodeRequest` in
 * http/node), since on Node 20 making a `Request` costs about 20 µs, a tenth of a signed-in
 * `/auth/profile` in Node.
 */
export interface AuthRequest {
  /** The absolute URL (`http://host/auth/...`). */
  readonly url: string;
  readonly method: string;
  /** A header's value as Fetch's `Headers.get` gives it; null when absent. */
  readonly headers: { get(name: string): string | null };
  /** Null when the request carries no body; else anything not null. */
  readonly body: unknown;
  /** The body as UTF-8 text, a byte-order mark dropped (as Fetch's `text()`). */
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}
