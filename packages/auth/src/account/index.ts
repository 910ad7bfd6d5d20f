import { commonError, jsonDepthProblem } from '@svc/core';
import type { User } from '../types';
import type { UserRecord } from '../store/types';
import { nfkc, refuseUnstorableText } from './text';

/**
 * RFC 5321 §4.5.3.1: a local part of at most 64 octets, a domain of at most 255 (253 as a DNS
 * name), and a path of 256 octets including its angle brackets, so an address of at most 254.
 * Octets are counted in UTF-8 (RFC 6531 keeps the limits for internationalised addresses).
 */
export const EMAIL_MAX_OCTETS = 254;
export const EMAIL_LOCAL_PART_MAX_OCTETS = 64;
export const EMAIL_DOMAIN_MAX_OCTETS = 253;
const USERNAME_RE = /^[A-Za-z0-9_.-]{3,30}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// eslint-disable-next-line no-control-regex
const EMAIL_BAD_CHARS = /[\s\u0000-\u001f\u007f]/u;

/**
 * The one spelling of an email address: NFKC (fullwidth and other compatibility forms fold into
 * their plain letters; NFC and NFD spellings of `é` become one), lower-cased, NFKC again (lower
 * casing can leave text unnormalised). Idempotent. The svc_auth migration 0003 applies it to
 * stored addresses, so it never changes without a migration.
 */
export function canonicalEmail(text: string): string {
  return text.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/**
 * The canonical email (see `canonicalEmail`), or VALIDATION_ERROR: one `@` with text either side,
 * no spaces or control characters, within RFC 5321's limits, Unicode text only.
 */
export function normalizeEmail(email: unknown, field = 'email'): string {
  if (typeof email !== 'string' || email.length === 0)
    throw commonError('VALIDATION_ERROR', `${field} is required`);
  // A cheap bound before normalising: NFKC never shrinks UTF-16 text by more than this.
  if (email.length > 4 * EMAIL_MAX_OCTETS) {
    throw commonError('VALIDATION_ERROR', `${field} must be at most ${EMAIL_MAX_OCTETS} octets`);
  }
  const canonical = canonicalEmail(nfkc(email, field));
  const at = canonical.indexOf('@');
  if (
    at <= 0 ||
    at !== canonical.lastIndexOf('@') ||
    at === canonical.length - 1 ||
    EMAIL_BAD_CHARS.test(canonical)
  ) {
    throw commonError(
      'VALIDATION_ERROR',
      `${field} must be an email address (one @, no spaces or control characters)`,
    );
  }
  if (Buffer.byteLength(canonical.slice(0, at)) > EMAIL_LOCAL_PART_MAX_OCTETS) {
    throw commonError(
      'VALIDATION_ERROR',
      `${field}: the local part (before @) must be at most ${EMAIL_LOCAL_PART_MAX_OCTETS} octets`,
    );
  }
  if (Buffer.byteLength(canonical.slice(at + 1)) > EMAIL_DOMAIN_MAX_OCTETS) {
    throw commonError(
      'VALIDATION_ERROR',
      `${field}: the domain (after @) must be at most ${EMAIL_DOMAIN_MAX_OCTETS} octets`,
    );
  }
  if (Buffer.byteLength(canonical) > EMAIL_MAX_OCTETS) {
    throw commonError('VALIDATION_ERROR', `${field} must be at most ${EMAIL_MAX_OCTETS} octets`);
  }
  return canonical;
}

/**
 * A username NFKC-normalised (fullwidth `Ａｄａ` is `Ada`), then checked: 3 to 30 letters, digits,
 * `_`, `.` or `-`. Case is kept for display; uniqueness and login ignore it (the store compares
 * lower-cased).
 */
export function checkUsername(username: unknown): string {
  const name = typeof username === 'string' ? nfkc(username, 'username') : undefined;
  if (name === undefined || !USERNAME_RE.test(name)) {
    throw commonError('VALIDATION_ERROR', 'username must be 3 to 30 letters, digits, _, . or -');
  }
  return name;
}

/**
 * A copy of `metadata` (a JSON object), or VALIDATION_ERROR naming it: not an object, text that
 * cannot be stored, nested deeper than core's `MAX_JSON_DEPTH` (measured before the recursive
 * `JSON.stringify` below), or more than `maxBytes` bytes as UTF-8 JSON
 * (`authConfig.maxMetadataBytes`).
 */
export function checkMetadata(metadata: unknown, maxBytes: number): Record<string, unknown> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw commonError('VALIDATION_ERROR', 'metadata must be a JSON object');
  }
  const tooDeep = jsonDepthProblem(metadata);
  if (tooDeep !== undefined) throw commonError('VALIDATION_ERROR', `metadata is ${tooDeep}`);
  refuseUnstorableText(metadata, 'metadata');
  let json: string;
  try {
    json = JSON.stringify(metadata);
  } catch {
    throw commonError('VALIDATION_ERROR', 'metadata must be a JSON object');
  }
  const size = Buffer.byteLength(json);
  if (size > maxBytes) {
    throw commonError(
      'VALIDATION_ERROR',
      `metadata must be at most ${maxBytes} bytes as JSON (got ${size})`,
    );
  }
  return JSON.parse(json) as Record<string, unknown>;
}

/**
 * The canonical form of an email to look an account up by, or null when the text cannot be an
 * address (it finds no account; a lookup never refuses).
 */
export function emailForLookup(email: unknown): string | null {
  try {
    return normalizeEmail(email);
  } catch {
    return null;
  }
}

/** Longest login identifier read before normalising (an email is at most 254 octets anyway). */
const LOGIN_IDENTIFIER_MAX_LENGTH = 320;

/** Who a login names: an email (null when it cannot be an address, so no account) or a username. */
export type LoginIdentifier =
  | { readonly by: 'email'; readonly email: string | null; readonly given: string }
  | { readonly by: 'username'; readonly username: string; readonly given: string };

/**
 * The account a login names: `email` when given (any spelling finds the account), else
 * `username` (NFKC). VALIDATION_ERROR when the one given is not a non-empty string (of at most
 * 320 characters), or neither is given. `given` is the text as sent (the rate limiter's key when
 * no account matches).
 */
export function loginIdentifier(input: {
  readonly email?: unknown;
  readonly username?: unknown;
}): LoginIdentifier {
  const { email, username } = input;
  if (email !== undefined && email !== null) {
    if (
      typeof email !== 'string' ||
      email.length === 0 ||
      email.length > LOGIN_IDENTIFIER_MAX_LENGTH
    ) {
      throw commonError('VALIDATION_ERROR', 'email must be a string');
    }
    return { by: 'email', email: emailForLookup(email), given: email };
  }
  if (username !== undefined && username !== null) {
    if (
      typeof username !== 'string' ||
      username.length === 0 ||
      username.length > LOGIN_IDENTIFIER_MAX_LENGTH
    ) {
      throw commonError('VALIDATION_ERROR', 'username must be a string');
    }
    return { by: 'username', username: nfkc(username, 'username'), given: username };
  }
  throw commonError('VALIDATION_ERROR', 'email or username is required');
}

/** `emailOrId`: a UUID names the user by id, anything else by email. */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/** The User object of the HTTP answers (docs/http.md): camelCase, ISO timestamps with milliseconds, never the hash. */
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
