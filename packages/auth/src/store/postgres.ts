import { commonError, type Database } from '@svc/core';
import { postgresAccountStore } from '../account/store';
import { postgresGuestStore } from '../guest/store';
import { postgresMfaStore } from '../mfa/store';
import { postgresOAuthStore } from '../oauth/store';
import { postgresPasswordResetStore } from '../password/store';
import { postgresPasswordlessStore } from '../passwordless/store';
import { postgresRateLimitStore } from '../rate-limit/store';
import { postgresRoleStore } from '../roles/store';
import { postgresSessionStore } from '../session/store';
import { postgresVerificationStore } from '../verification/store';
import { postgresWebAuthnStore } from '../webauthn/store';
import { migrateAuthSchema } from './migrations';
import { createPgRunner } from './sql';
import type { AuthStore } from './types';

export type { AuthTables } from './sql';

export interface PostgresStoreOptions {
  /** Clock. @default Date.now */
  readonly now?: () => number;
}

/**
 * The `AuthStore` over PostgreSQL or PGlite: Kysely, schema `svc_auth`, migrations in code.
 * Every feature's verbs over one shared runner (pool and clock). Atomic verbs are single
 * conditional statements (and a transaction where two tables change), so concurrent callers on a
 * real server race safely.
 */
export function createPostgresStore(
  database: Database,
  options: PostgresStoreOptions = {},
): AuthStore {
  const r = createPgRunner(database, options.now ?? Date.now);
  return refuseUnstorableText({
    async migrate() {
      await migrateAuthSchema(database);
    },
    ...postgresAccountStore(r),
    ...postgresSessionStore(r),
    ...postgresGuestStore(r),
    ...postgresPasswordResetStore(r),
    ...postgresVerificationStore(r),
    ...postgresPasswordlessStore(r),
    ...postgresRoleStore(r),
    ...postgresRateLimitStore(r),
    ...postgresWebAuthnStore(r),
    ...postgresMfaStore(r),
    ...postgresOAuthStore(r),
  });
}

/**
 * SQLSTATEs of text PostgreSQL cannot take: a NUL byte (22021), a `\u0000` escape in jsonb
 * (22P05), a value too large for an index entry (54000). They are the caller's input, not a server
 * fault, so every verb reports them as a VALIDATION_ERROR instead of letting them become a 500.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05', '54000']);

function refuseUnstorableText(store: AuthStore): AuthStore {
  const guarded: Record<string, unknown> = {};
  for (const [name, verb] of Object.entries(store) as Array<[string, unknown]>) {
    // Only the verbs: a value (the session read's SQL form) passes as it is.
    if (typeof verb !== 'function') {
      guarded[name] = verb;
      continue;
    }
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await verb(...args);
      } catch (err) {
        const code = (err as { code?: unknown })?.code;
        if (typeof code === 'string' && UNSTORABLE_TEXT.has(code)) {
          throw commonError(
            'VALIDATION_ERROR',
            'the input holds text that cannot be stored (such as a NUL character or an oversized value)',
          );
        }
        throw err;
      }
    };
  }
  return guarded as unknown as AuthStore;
}
