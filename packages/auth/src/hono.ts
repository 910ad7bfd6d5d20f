/**
 * @svc/auth/hono: mount svc auth in a Hono app, with the client's address.
 *
 * A Fetch `Request` does not carry the address it came from, and the auth handler needs it: it is
 * what per-IP rate limits count and what a session records. Each runtime hands it to Hono in its
 * own way (`c.env`); this adapter reads it from there, so that `auth.handler` always gets it.
 * Typed structurally: this module imports nothing from hono at run time.
 *
 * @example
 * import { Hono } from 'hono';
 * import { serve } from '@hono/node-server';
 * import { authHandler } from '@svc/auth/hono';
 *
 * const app = new Hono();
 * app.all('/auth/*', authHandler(auth));
 * serve({ fetch: app.fetch, port: 3000 });
 */
import type { Auth } from './types';

/** What the adapter reads of a Hono `Context` (hono 4's `Context` is one). */
export interface HonoContextLike {
  readonly req: { readonly raw: Request };
  /** What the runtime passed to `app.fetch` after the request (Hono's `c.env`). */
  readonly env?: unknown;
}

/** The part of Hono's `ConnInfo` the adapter uses. */
export interface ConnInfoLike {
  readonly remote: { readonly address?: string | undefined };
}

export interface HonoAuthOptions<C extends HonoContextLike = HonoContextLike> {
  /**
   * Where the client's address comes from, in Hono's own shape: `getConnInfo` from
   * `@hono/node-server/conninfo`, `hono/bun`, `hono/deno` or `hono/cloudflare-workers`, or a
   * function of your own, e.g. reading the header your reverse proxy sets (and overwrites): behind
   * a proxy, the socket's address is the proxy's.
   * @default the runtime's: the socket under `@hono/node-server`, `server.requestIP(request)`
   * under `Bun.serve`, `info.remoteAddr` under `Deno.serve`
   */
  readonly getConnInfo?: (c: C) => ConnInfoLike;
}

/**
 * A Hono handler serving every `/auth/*` route of `auth` with the client's address and user
 * agent. Mount it at the handler's basePath (`/auth` unless `createAuth` was given another).
 * Where no address can be found, the handler logs one warning (see the README).
 */
export function authHandler<C extends HonoContextLike = HonoContextLike>(
  auth: Pick<Auth, 'handler'>,
  options: HonoAuthOptions<C> = {},
): (c: C) => Promise<Response> {
  const { getConnInfo } = options;
  return (c) => {
    const request = c.req.raw;
    const ip = getConnInfo ? getConnInfo(c).remote.address : runtimeAddress(c.env, request);
    return auth.handler(request, ip ? { ip } : {});
  };
}

/**
 * The client's address from what the runtime passed to `app.fetch`, read as Hono's own
 * `getConnInfo` helpers read it; undefined for a runtime that passes none.
 */
function runtimeAddress(env: unknown, request: Request): string | undefined {
  if (typeof env !== 'object' || env === null) return undefined;
  const outer = env as { server?: unknown; remoteAddr?: { hostname?: unknown } };
  // @hono/node-server and Bun may wrap their bindings in `{server}`.
  const bindings = (
    typeof outer.server === 'object' && outer.server !== null ? outer.server : env
  ) as {
    incoming?: { socket?: { remoteAddress?: unknown } };
    requestIP?: unknown;
  };
  // @hono/node-server: `{incoming, outgoing}`, node's request and response.
  const socketAddress = bindings.incoming?.socket?.remoteAddress;
  if (typeof socketAddress === 'string') return socketAddress;
  // Bun.serve: the server, whose requestIP(request) knows the connection.
  if (typeof bindings.requestIP === 'function') {
    const info = (bindings.requestIP as (r: Request) => { address?: unknown } | null).call(
      bindings,
      request,
    );
    return typeof info?.address === 'string' ? info.address : undefined;
  }
  // Deno.serve: the handler info.
  const hostname = outer.remoteAddr?.hostname;
  return typeof hostname === 'string' ? hostname : undefined;
}
