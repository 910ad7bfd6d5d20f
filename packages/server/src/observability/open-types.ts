/**
 * Which object types every caller may read and write, made visible (`defaultAccess`,
 * docs/http.md): the warning a server with auth on logs at start and after a migration that
 * changes the list, and each type's `open` in `GET /schema/types`.
 *
 * Under the `full` protocol a type is open when it has no access policy and `defaultAccess` is
 * `open` (@svc/core `openObjectTypes`); under `simple` no policy applies to anyone, so every type is.
 */
import {
  describeSchema,
  openObjectTypes,
  type DefaultAccess,
  type Schema,
  type TypeCatalogue,
} from '@svc/core';
import type { Protocol } from '../config';
import type { Logger } from './logger';

/** The settings that decide what callers subject to access policies may reach. */
export interface ServerAccess {
  readonly protocol: Protocol;
  readonly defaultAccess: DefaultAccess;
}

/** The concrete object types every caller, anonymous ones included, may read and write. */
export function openTypes(schema: Schema, access: ServerAccess): string[] {
  return access.protocol === 'simple'
    ? schema.objectTypes.filter((t) => !t.abstract).map((t) => t.name)
    : openObjectTypes(schema, access.defaultAccess);
}

/** The type catalogue of `GET /schema/types`, each type's `open` as this server's callers meet it. */
export function typeCatalogue(
  schema: Schema,
  version: string,
  access: ServerAccess,
): TypeCatalogue {
  const catalogue = describeSchema(schema, version, { defaultAccess: access.defaultAccess });
  if (access.protocol !== 'simple') return catalogue;
  return { ...catalogue, types: catalogue.types.map((t) => ({ ...t, open: true })) };
}

/**
 * A reporter to call with each schema the server serves: it logs one warning naming the open
 * types when the list is not empty and differs from the one it saw last (so once at start, and
 * again only after a migration that changes the list).
 */
export function openTypesWarning(logger: Logger, access: ServerAccess): (schema: Schema) => void {
  let seen: string | undefined;
  return (schema) => {
    const types = openTypes(schema, access);
    const key = types.join('\n');
    if (key === seen) return;
    seen = key;
    if (types.length === 0) return;
    const why =
      access.protocol === 'simple'
        ? 'protocol "simple" applies no access policies; use "full" to apply them'
        : 'no access policy and default_access "open"; add access policies, or set default_access = "deny"';
    logger.warn(
      { openTypes: types },
      `${types.length === 1 ? '1 type is' : `${types.length} types are`} open to anonymous callers (${why}): ${types.join(', ')}`,
    );
  };
}
