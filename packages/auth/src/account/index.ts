import { commonError } from '@svc/core';
import type { User } from '../types';
import type { UserRecord } from '../store/types';

export const EMAIL_MAX_LENGTH = 320;
const USERNAME_RE = /^[A-Za-z0-9_.-]{3,30}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// eslint-disable-next-line no-control-regex
const EMAIL_BAD_CHARS = /[\s\u0000-\u001f\u007f]/u;

/** Lower-cased email, or VALIDATION_ERROR: one `@` with text either side, no spaces or control characters, ≤ 320 characters. */
export function normalizeEmail(email: unknown, field = 'email'): string {
  if (typeof email !== 'string' || email.length === 0) throw commonError('VALIDATION_ERROR', `${field} is required`);
  if (email.length > EMAIL_MAX_LENGTH) {
    throw commonError('VALIDATION_ERROR', `${field} must be at most ${EMAIL_MAX_LENGTH} characters`);
  }
  const at = email.indexOf('@');
  if (at <= 0 || at !== email.lastIndexOf('@') || at === email.length - 1 || EMAIL_BAD_CHARS.test(email)) {
    throw commonError('VALIDATION_ERROR', `${field} must be an email address (one @, no spaces or control characters)`);
  }
  return email.toLowerCase();
}

export function checkUsername(username: unknown): string {
  if (typeof username !== 'string' || !USERNAME_RE.test(username)) {
    throw commonError('VALIDATION_ERROR', 'username must be 3 to 30 letters, digits, _, . or -');
  }
  return username;
}

export function checkMetadata(metadata: unknown): Record<string, unknown> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw commonError('VALIDATION_ERROR', 'metadata must be a JSON object');
  }
  let json: string;
  try {
    json = JSON.stringify(metadata);
  } catch {
    throw commonError('VALIDATION_ERROR', 'metadata must be a JSON object');
  }
  return JSON.parse(json) as Record<string, unknown>;
}

/** `emailOrId`: a UUID names the user by id, anything else by email. */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/** The spec's User object: camelCase, ISO timestamps with milliseconds, never the hash. */
export function toPublicUser(u: UserRecord): User {
  return {
    id: u.id,
    email: u.email,
    ...(u.username ? { username: u.username } : {}),
    emailVerified: u.emailVerified,
    active: u.active,
    metadata: u.metadata,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}
