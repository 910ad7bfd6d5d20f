/**
 * std/caller: the caller's globals (docs/http.md). Every query,
 * computed, default and access policy may read them without a declaration; the server provides
 * their values per request from the caller's credentials, and no schema may declare a global of
 * one of these names, nor may a request's `globals` set one.
 *
 * Input: nothing. Output: the globals by name with their types, and the names of the auth
 * parameters a compiled query may ask the engine for (the globals, plus `roles`, which the
 * compiler passes to `std::has_role`).
 */
import type { TypeRef } from '../model/schema';

const scalar = (name: string): TypeRef => ({ kind: 'scalar', name });

export interface CallerGlobal {
  readonly type: TypeRef;
  /** Always has a value (a bool, an array); the others are empty when the caller has none. */
  readonly required: boolean;
  /** The auth parameter that holds it (query/api `QueryParam`, source `auth`). */
  readonly param: string;
}

const STRINGS: TypeRef = { kind: 'array', element: scalar('std::str') };

/**
 * `global <name>` → what it is: the caller's globals by their unqualified name (module `default`
 * when qualified), and Gel's system globals of the caller (`sys::current_role`,
 * `sys::current_permissions`) by their qualified name.
 */
export const CALLER_GLOBALS: Readonly<Record<string, CallerGlobal>> = Object.freeze({
  /** The user's id (the token's `sub`); empty when anonymous. */
  current_user_id: { type: scalar('std::uuid'), required: false, param: 'current_user_id' },
  /** The user's email (the token's `email` claim); empty when anonymous. */
  current_user_email: { type: scalar('std::str'), required: false, param: 'current_user_email' },
  /** The first role of the token; empty when it has none. */
  current_role: { type: scalar('std::str'), required: false, param: 'current_role' },
  /** True for a guest session's token (`is_anonymous` claim); false otherwise, anonymous included. */
  current_user_is_anonymous: {
    type: scalar('std::bool'),
    required: true,
    param: 'current_user_is_anonymous',
  },
  /** Gel's name for the caller's role: the token's first role, as `current_role`. */
  'sys::current_role': { type: scalar('std::str'), required: false, param: 'current_role' },
  /** The token's `permissions` claim; empty array when it has none. */
  'sys::current_permissions': { type: STRINGS, required: true, param: 'permissions' },
});

/** The caller's global a reference names (`module` null for an unqualified name), if any. */
export function callerGlobal(module: string | null, name: string): CallerGlobal | undefined {
  const key = module === null || module === 'default' ? name : `${module}::${name}`;
  return Object.hasOwn(CALLER_GLOBALS, key) ? CALLER_GLOBALS[key] : undefined;
}

/** The auth parameter `std::has_role` reads: the token's roles. */
export const ROLES_PARAM = 'roles';

/** The type of the `roles` auth parameter. */
export const ROLES_TYPE: TypeRef = STRINGS;

/**
 * True for a name a request's `globals` may not set: one of the caller's globals (written
 * `current_user_id`, `default::current_user_id` or `sys::current_role`).
 */
export function isCallerName(written: string): boolean {
  const at = written.lastIndexOf('::');
  return at < 0
    ? callerGlobal(null, written) !== undefined
    : callerGlobal(written.slice(0, at), written.slice(at + 2)) !== undefined;
}
