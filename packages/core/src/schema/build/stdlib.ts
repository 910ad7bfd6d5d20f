/**
 * build/stdlib: what the server provides to schema expressions beyond the std table (std/):
 * the built-in globals of the auth context.
 *
 * Input: nothing. Output: `BUILTIN_GLOBALS` by name.
 * Invariant: std functions, operators and casts live in std/ only; this file holds no function.
 */
import type { TypeRef } from '../model';
import { STR, UUID } from './types';

/** The globals the server provides, usable in expressions without being declared (DECISIONS). */
export const BUILTIN_GLOBALS: Readonly<Record<string, TypeRef>> = {
  current_user_id: UUID,
  current_user_email: STR,
  current_role: STR,
};
