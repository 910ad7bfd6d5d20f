import http from 'node:http';
import type { Express } from 'express';

/**
 * The request and response classes for a Node server in front of `app`, whose instances are
 * born with the prototypes Express gives them.
 *
 * For every request Express sets the prototype of Node's request and response objects to its
 * own (`app.request`, `app.response`). Changing an object's prototype after it is built gives it
 * a new hidden class, and every function of Node's HTTP and stream code that touches those
 * objects afterwards runs on its slow, polymorphic path: on a 100-row REST page that cost more
 * CPU than the rest of svc's request handling together (bench/rest README). Built from these
 * classes, the objects already have Express's prototypes, so Express's `setPrototypeOf` changes
 * nothing and the objects keep one stable shape.
 *
 * Node calls the constructors with `new` (`IncomingMessage(socket)`,
 * `ServerResponse(req, options)`); the `http.createServer` options `IncomingMessage` and
 * `ServerResponse` take them.
 */
export function expressShapedClasses(app: Express): {
  readonly IncomingMessage: typeof http.IncomingMessage;
  readonly ServerResponse: typeof http.ServerResponse;
} {
  function IncomingMessage(this: http.IncomingMessage, socket: never): void {
    (http.IncomingMessage as unknown as (this: unknown, socket: never) => void).call(this, socket);
  }
  IncomingMessage.prototype = app.request;
  function ServerResponse(this: http.ServerResponse, req: never, options: never): void {
    (http.ServerResponse as unknown as (this: unknown, req: never, options: never) => void).call(
      this,
      req,
      options,
    );
  }
  ServerResponse.prototype = app.response;
  return {
    IncomingMessage: IncomingMessage as unknown as typeof http.IncomingMessage,
    ServerResponse: ServerResponse as unknown as typeof http.ServerResponse,
  };
}
