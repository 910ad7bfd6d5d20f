/**
 * The server settings in force as an administrator may see them (the admin UI's settings page,
 * `GET /_/api/settings`): every field of `fields.ts` by its key, a secret one (`isSecretField`)
 * only as set or not, never its value.
 */
import { SECRET_SHOWN } from '@svc/auth';
import { DATABASE_FIELDS, type FieldSpec, isSecretField, SERVER_FIELDS } from './fields';
import type { ResolvedConfig } from './index';

function shown(fields: readonly FieldSpec[], values: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (value === undefined || value === null) out[field.key] = null;
    else if (isSecretField(field)) out[field.key] = SECRET_SHOWN;
    else out[field.key] = typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value;
  }
  return out;
}

export function describeSettings(config: ResolvedConfig): {
  server: Record<string, unknown>;
  database: Record<string, unknown>;
} {
  const database = config.database as Record<string, unknown>;
  return {
    server: shown(SERVER_FIELDS, config as unknown as Record<string, unknown>),
    database: {
      ...shown(DATABASE_FIELDS, database),
      ...('memory' in database ? { memory: true } : {}),
    },
  };
}
