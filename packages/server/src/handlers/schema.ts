import type { Request, Response } from 'express';
import {
  commonError,
  type Database,
  type MigrationRename,
  type Migrator,
  type Schema,
  type TypeCatalogue,
} from '@svc/core';
import { isAdministrator, type Caller } from '../middleware/authenticate';
import { readOnlyError } from '../middleware/read-only';
import { sendJson } from '../http/respond';
import { typeCatalogue, type ServerAccess } from '../observability/open-types';
import { jsonObjectBody } from './json-body';

/**
 * `/schema`, `/schema/types` and `/migrations` (docs/http.md, "Schemas and migrations"). The stored schema
 * is read from the database on every request, so several servers over one database agree; the
 * built model is cached by version. Each type of the catalogue says whether it is `open` to every
 * caller under this server's protocol and `defaultAccess`.
 */
export function schemaHandlers(deps: {
  readonly database: Database;
  readonly migrator: Migrator;
  readonly build: (sdl: string) => Schema;
  /** True when the server has any credential (auth or a service key): migrations then need one. */
  readonly guarded: boolean;
  /** Read-only mode: a migration is 503 READ_ONLY; a dry run, which writes nothing, runs. */
  readonly readOnly: boolean;
  readonly access: ServerAccess;
  /** Called, and awaited, after a migration changed the stored schema (the query engine's cue). */
  readonly onMigrated?: () => void | Promise<void>;
}) {
  const { database, migrator, build, guarded } = deps;
  const catalogues = new Map<string, TypeCatalogue>();

  async function catalogue(): Promise<TypeCatalogue> {
    const stored = await migrator.current(database);
    const version = stored?.version ?? migrator.emptyVersion;
    let found = catalogues.get(version);
    if (!found) {
      found = typeCatalogue(build(stored?.sdl ?? ''), version, deps.access);
      catalogues.clear(); // keep one: the current schema
      catalogues.set(version, found);
    }
    return found;
  }

  return {
    async getSchema(_req: Request, res: Response) {
      const stored = await migrator.current(database);
      sendJson(res, 200, {
        version: stored?.version ?? migrator.emptyVersion,
        sdl: stored?.sdl ?? '',
      });
    },
    async getTypes(_req: Request, res: Response) {
      sendJson(res, 200, await catalogue());
    },
    async getHistory(_req: Request, res: Response) {
      sendJson(res, 200, await migrator.history(database));
    },
    async postMigration(req: Request, res: Response) {
      const body = parseMigrationRequest(req.body);
      // A dry run rolls its transaction back: it plans and checks, and changes nothing.
      if (deps.readOnly && !body.dryRun) throw readOnlyError();
      const caller = res.locals.caller as Caller | undefined;
      if (guarded && !isAdministrator(caller)) {
        throw commonError('ACCESS_DENIED', 'migrations need the service key or a superuser');
      }
      const result = await migrator.migrate(database, body.schema, {
        dryRun: body.dryRun,
        allowDataLoss: body.allowDataLoss,
        renames: body.renames,
        fills: body.fills,
        ...(body.migration ? { migration: body.migration } : {}),
      });
      if (result.applied) await deps.onMigrated?.();
      sendJson(res, 200, result);
    },
  };
}

const MIGRATION_KEYS = new Set([
  'schema',
  'dryRun',
  'allowDataLoss',
  'renames',
  'fills',
  'migration',
]);

export function parseMigrationRequest(body: unknown): {
  schema: string;
  dryRun: boolean;
  allowDataLoss: boolean;
  renames: MigrationRename[];
  fills: Record<string, string>;
  migration: { id: string; parent: string | null } | undefined;
} {
  const b = jsonObjectBody(body, MIGRATION_KEYS, 'a "schema" string');
  if (typeof b.schema !== 'string')
    throw commonError('VALIDATION_ERROR', '"schema" must be SDL text (a string)');
  for (const flag of ['dryRun', 'allowDataLoss'] as const) {
    if (b[flag] !== undefined && typeof b[flag] !== 'boolean') {
      throw commonError('VALIDATION_ERROR', `"${flag}" must be true or false`);
    }
  }
  return {
    schema: b.schema,
    dryRun: b.dryRun === true,
    allowDataLoss: b.allowDataLoss === true,
    renames: parseRenames(b.renames),
    fills: parseFills(b.fills),
    migration: parseMigrationId(b.migration),
  };
}

const MIGRATION_ID = /^m1[0-9a-f]{64}$/;

/** `migration`: `{id, parent}` of a migration file (`svc migrate` sends it), parent null first. */
function parseMigrationId(value: unknown): { id: string; parent: string | null } | undefined {
  if (value === undefined) return undefined;
  const o = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (
    Object.keys(o).sort().join(',') === 'id,parent' &&
    typeof o.id === 'string' &&
    MIGRATION_ID.test(o.id) &&
    (o.parent === null || (typeof o.parent === 'string' && MIGRATION_ID.test(o.parent)))
  )
    return { id: o.id, parent: o.parent as string | null };
  throw commonError(
    'VALIDATION_ERROR',
    '"migration" must be {"id": "m1<64 hex>", "parent": "m1<64 hex>" | null}',
  );
}

const isName = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= 256;

/** `renames`: `[{kind: "type", from, to}, {kind: "pointer", type, from, to}]` (docs/http.md). */
function parseRenames(value: unknown): MigrationRename[] {
  if (value === undefined) return [];
  const shape =
    '"renames" must be a list of {"kind": "type", "from", "to"} or {"kind": "pointer", "type", "from", "to"}';
  if (!Array.isArray(value) || value.length > 1000) throw commonError('VALIDATION_ERROR', shape);
  return value.map((r: unknown): MigrationRename => {
    const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
    const keys = Object.keys(o).sort().join(',');
    if (o.kind === 'type' && keys === 'from,kind,to' && isName(o.from) && isName(o.to))
      return { kind: 'type', from: o.from, to: o.to };
    if (
      o.kind === 'pointer' &&
      keys === 'from,kind,to,type' &&
      isName(o.type) &&
      isName(o.from) &&
      isName(o.to)
    )
      return { kind: 'pointer', type: o.type, from: o.from, to: o.to };
    throw commonError('VALIDATION_ERROR', shape);
  });
}

/** `fills`: `{"default::User.about": "<EdgeQL expression>"}`. */
function parseFills(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  const shape = '"fills" must be an object of pointer → EdgeQL expression (strings)';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw commonError('VALIDATION_ERROR', shape);
  const entries = Object.entries(value);
  if (entries.length > 1000 || !entries.every(([k, v]) => isName(k) && typeof v === 'string'))
    throw commonError('VALIDATION_ERROR', shape);
  return Object.fromEntries(entries) as Record<string, string>;
}
