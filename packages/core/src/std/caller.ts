/**
 * std/caller: the caller's globals (DECISIONS.md "Access" and "Added 2026-11-29"). Every query,
 * computed, default and access policy may read them without a declaration; the server provides
 * their values per request from the caller's credentials, and no schema may declare a global of
 * one of these names, nor may a request's `globals` set one.
 *
 * Input: nothing. Output: the globals by name with their types, and the names of the auth
 * parameters a compiled query may ask the engine for (the globals, plus `roles`, which the
 * compiler passes to `std::has_role`).
 */
import type { TypeRef } from '../schema/model';

const scalar = (name: string): TypeRef => ({ kind: 'scalar', name });

export interface CallerGlobal {
  readonly type: TypeRef;
  /** Always has a value (a bool); the others are empty when the caller has none. */
  readonly required: boolean;
}

/** `global <name>` → its type. */
export const CALLER_GLOBALS: Readonly<Record<string, CallerGlobal>> = Object.freeze({
  /** The user's id (the token's `sub`); empty when anonymous. */
  current_user_id: { type: scalar('std::uuid'), required: false },
  /** The user's email (the token's `email` claim); empty when anonymous. */
  current_user_email: { type: scalar('std::str'), required: false },
  /** The first role of the token; empty when it has none. */
  current_role: { type: scalar('std::str'), required: false },
  /** True for a guest session's token (`is_anonymous` claim); false otherwise, anonymous included. */
  current_user_is_anonymous: { type: scalar('std::bool'), required: true },
});

/** The auth parameter `std::has_role` reads: the token's roles. */
export const ROLES_PARAM = 'roles';

/** The type of the `roles` auth parameter. */
export const ROLES_TYPE: TypeRef = { kind: 'array', element: scalar('std::str') };

/** True for a name only the caller's credentials provide (a global or the roles parameter). */
export function isCallerName(name: string): boolean {
  return Object.hasOwn(CALLER_GLOBALS, name) || name === ROLES_PARAM;
}
