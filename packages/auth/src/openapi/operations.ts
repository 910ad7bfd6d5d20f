/**
 * What an `/auth/*` operation documents: the types a route declaration (`../routes/define.ts`)
 * fills in, and `AUTH_OPERATION_DOCS`, the declarations' documentation by `METHOD path`, derived
 * from the one list of routes (`../routes/index.ts`). `./index.ts` adds what every route of a
 * kind answers (the token errors of protected routes, the body errors of routes that read JSON,
 * 429 on rate-limited routes, captcha, 500).
 */
import { AUTH_ROUTE_DECLARATIONS } from '../routes';
import { type AuthRouteDeclaration, routeKey } from '../routes/define';
import type { AuthSchemaName, JsonSchema } from './schemas';

/** How the route answers when it succeeds. */
export type Success =
  | {
      readonly status: 200 | 201;
      /** A component schema name. */
      readonly schema: AuthSchemaName;
      readonly description: string;
      /** The answer starts a session (`issue`) or ends the caller's (`clear`): the cookie changes. */
      readonly session?: 'issue' | 'clear';
    }
  | { readonly status: 302 | 303; readonly description: string };

export interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly required: boolean;
  readonly description: string;
  readonly schema: JsonSchema;
}

export interface OperationDoc {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  /** A JSON request body: its component schema name, and whether the route needs one at all. */
  readonly body?: { readonly schema: string; readonly required: boolean };
  /** `application/x-www-form-urlencoded` (or JSON) body of a provider's form_post callback. */
  readonly form?: string;
  /** Path and query parameters. */
  readonly parameters?: readonly Parameter[];
  readonly success: Success;
  /** The operation's own error codes by HTTP status. */
  readonly errors?: Readonly<Record<number, readonly string[]>>;
  /** Counted by a rate-limit rule: 429 with Retry-After. */
  readonly rateLimited?: true;
}

/** The documentation a route declaration states, as one `OperationDoc`. */
export function operationDocOf(route: AuthRouteDeclaration): OperationDoc {
  const body =
    route.body === undefined
      ? undefined
      : typeof route.body === 'string'
        ? { schema: route.body, required: true }
        : { schema: route.body.schema, required: false };
  return Object.freeze({
    ...route.doc,
    ...(body ? { body } : {}),
    ...(route.form ? { form: route.form } : {}),
    ...(route.parameters ? { parameters: route.parameters } : {}),
    success: route.responses.success,
    ...(route.responses.errors ? { errors: route.responses.errors } : {}),
    ...(route.rateLimited ? { rateLimited: route.rateLimited } : {}),
  });
}

/** Every route's documentation by `METHOD path`: a view of the declarations, for lookups. */
export const AUTH_OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = Object.freeze(
  Object.fromEntries(AUTH_ROUTE_DECLARATIONS.map((r) => [routeKey(r), operationDocOf(r)])),
);
