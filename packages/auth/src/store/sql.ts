/**
 * The plumbing every feature's Postgres storage shares: the `svc_auth` tables as Kysely sees them,
 * the runner a feature's verbs are built over (one per store), and the few statements and row
 * mappers more than one feature needs.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '@svc/core';
import type { AuthAssuranceLevel } from '../token/verify';
import { AUTH_SCHEMA } from './migrations';
import type { NewUser, SessionRecord, UserRecord, WebAuthnCeremony } from './types';

/** The `svc_auth` tables as Kysely sees them. */
export interface AuthTables {
  users: {
    id: string;
    email: string;
    username: string | null;
    password_hash: string | null;
    email_verified: boolean;
    active: boolean;
    is_anonymous: boolean;
    metadata: Record<string, unknown>;
    created_at: Date;
    updated_at: Date;
  };
  sessions: {
    id: string;
    user_id: string;
    access_jti: string;
    refresh_token_hash: string;
    ip: string | null;
    user_agent: string | null;
    created_at: Date;
    expires_at: Date;
    last_activity_at: Date;
    revoked_at: Date | null;
    /** Migration 0008; null on rows a previous release inserted (reads as `id`). */
    family_id: string | null;
    rotated_at: Date | null;
    /** Migration 0009 (default `aal1`). */
    aal: AuthAssuranceLevel;
  };
  reset_tokens: OneTimeTable;
  verification_tokens: OneTimeTable;
  roles: { name: string; description: string | null; created_at: Date };
  user_roles: { user_id: string; role_name: string; created_at: Date };
  rate_limits: { key: string; hits: Date[]; expires_at: Date };
  magic_link_tokens: OneTimeTable;
  magic_link_signup_tokens: Omit<OneTimeTable, 'user_id'> & { email: string };
  magic_codes: {
    user_id: string;
    code_hash: string;
    attempts: number;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
  };
  oauth_states: {
    state_hash: string;
    provider: string;
    redirect_uri: string;
    callback_url: string;
    nonce_hash: string | null;
    verifier_sealed: string;
    code_challenge: string | null;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
  };
  oauth_identities: {
    provider: string;
    subject: string;
    user_id: string;
    email: string | null;
    created_at: Date;
  };
  oauth_codes: {
    code_hash: string;
    user_id: string;
    provider: string;
    code_challenge: string | null;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
  };
  webauthn_credentials: {
    credential_id: string;
    user_id: string;
    public_key: Uint8Array;
    sign_count: string | number;
    name: string;
    aaguid: string;
    backup_eligible: boolean;
    created_at: Date;
    last_used_at: Date | null;
  };
  webauthn_challenges: {
    id: string;
    ceremony: WebAuthnCeremony;
    user_id: string | null;
    challenge_hash: string;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
    /** Migration 0009 (default false). */
    second_factor: boolean;
  };
  totp_factors: {
    user_id: string;
    secret_ciphertext: string;
    confirmed_at: Date | null;
    last_used_step: string | number | null;
    created_at: Date;
  };
  recovery_codes: { user_id: string; code_hash: string; created_at: Date; used_at: Date | null };
  mfa_challenges: {
    token_hash: string;
    user_id: string;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
    attempts: number;
  };
}
interface OneTimeTable {
  token_hash: string;
  user_id: string;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

/** What a feature's Postgres verbs run over: one per store, shared by every feature. */
export interface PgRunner {
  readonly database: Database;
  /** The pool (or PGlite), for statements outside a transaction and to open transactions on. */
  readonly root: Kysely<AuthTables>;
  /** `db` (the root, or a transaction) with schema `svc_auth` selected. */
  k(db?: Kysely<AuthTables>): Kysely<AuthTables>;
  /** The store's clock. */
  now(): Date;
}

export function createPgRunner(database: Database, clock: () => number): PgRunner {
  const root = database.kysely<AuthTables>();
  return {
    database,
    root,
    k: (db = root) => db.withSchema(AUTH_SCHEMA),
    now: () => new Date(clock()),
  };
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Revokes every live session of the user; returns how many. */
export async function revokeUserSessionsIn(
  db: Kysely<AuthTables>,
  userId: string,
  at: Date,
): Promise<number> {
  const r = await db
    .withSchema(AUTH_SCHEMA)
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The `users` row a new user is inserted as. */
export function newUserRow(input: NewUser, at: Date, isAnonymous: boolean): AuthTables['users'] {
  return {
    id: randomUUID(),
    email: input.email.toLowerCase(),
    username: input.username ?? null,
    password_hash: input.passwordHash,
    email_verified: input.emailVerified ?? false,
    active: input.active ?? true,
    is_anonymous: isAnonymous,
    metadata: JSON.stringify(input.metadata ?? {}) as never,
    created_at: at,
    updated_at: at,
  };
}

/** Code-point order (the memory store's and `collate "C"`'s). */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function toUser(r: Selectable<AuthTables['users']>): UserRecord {
  return {
    id: r.id,
    email: r.email,
    username: r.username,
    passwordHash: r.password_hash,
    emailVerified: r.email_verified,
    active: r.active,
    isAnonymous: r.is_anonymous,
    metadata: typeof r.metadata === 'string' ? JSON.parse(r.metadata) : (r.metadata ?? {}),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

export function toSession(r: Selectable<AuthTables['sessions']>): SessionRecord {
  return {
    id: r.id,
    userId: r.user_id,
    accessJti: r.access_jti,
    ip: r.ip,
    userAgent: r.user_agent,
    createdAt: new Date(r.created_at),
    expiresAt: new Date(r.expires_at),
    lastActivityAt: new Date(r.last_activity_at),
    revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
    familyId: r.family_id ?? r.id,
    aal: r.aal,
  };
}

export function isPgError(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

export function pgErrorText(err: unknown): string {
  const e = err as { constraint?: string; detail?: string; message?: string };
  return `${e.constraint ?? ''} ${e.detail ?? ''} ${e.message ?? ''}`;
}
