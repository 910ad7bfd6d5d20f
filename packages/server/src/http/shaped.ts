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
 * They are classes that extend Node's, and their prototypes take the place of `app.request` and
 * `app.response` (the same properties over the same prototype; Express reads them per request).
 * A plain function that calls Node's constructor on `this` (`http.ServerResponse.call(this)`)
 * gave the same prototypes but a hidden class sized for that function's own body, which sets no
 * property: V8 sizes an object's in-object slots from its constructor, so the forty-odd fields
 * Node sets went to an out-of-object store, grown as they were added, on every request. That
 * cost 5 µs a request: `/health/live` spent 25 µs of user CPU against 20 with these classes, and
 * a bare Node handler behind them spends what it does behind Node's own (14; issue 34).
 * `Reflect.construct` with a `newTarget` of Express's prototype gives the right size too, but V8
 * does not optimise it: 150 µs a request.
 *
 * Node calls the constructors with `new` (`IncomingMessage(socket)`,
 * `ServerResponse(req, options)`); the `http.createServer` options `IncomingMessage` and
 * `ServerResponse` take them. Made once per server (`listen`).
 */
export function expressShapedClasses(app: Express): {
  readonly IncomingMessage: typeof http.IncomingMessage;
  readonly ServerResponse: typeof http.ServerResponse;
} {
  class IncomingMessage extends http.IncomingMessage {}
  class ServerResponse extends http.ServerResponse {}
  const shaped = app as unknown as Record<'request' | 'response', object>;
  shaped.request = standIn(IncomingMessage.prototype, shaped.request);
  shaped.response = standIn(ServerResponse.prototype, shaped.response);
  return {
    IncomingMessage,
    ServerResponse: ServerResponse as unknown as typeof http.ServerResponse,
  };
}

/** `proto` made to stand in for `current`: its properties (but `constructor`) and prototype. */
function standIn(proto: object, current: object): object {
  Object.setPrototypeOf(proto, Object.getPrototypeOf(current));
  const { constructor: _ownConstructor, ...own } = Object.getOwnPropertyDescriptors(current);
  Object.defineProperties(proto, own);
  return proto;
}
