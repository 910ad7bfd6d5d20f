/**
 * sql/codegen/names: PostgreSQL object names derived from content, within the 63-byte limit.
 *
 * Input: the readable name (`User.email.exclusive`). Output: the same name when it fits in 63
 * bytes, else its first bytes + `~` + 8 hex digits of its SHA-256 (deterministic, collision-safe
 * in practice). Invariant: same input, same name.
 */
import { createHash } from 'node:crypto';

export const PG_NAME_LIMIT = 63;

export function pgName(readable: string): string {
  if (Buffer.byteLength(readable, 'utf8') <= PG_NAME_LIMIT) return readable;
  const hash = createHash('sha256').update(readable).digest('hex').slice(0, 8);
  let prefix = '';
  for (const ch of readable) {
    if (Buffer.byteLength(prefix + ch, 'utf8') > PG_NAME_LIMIT - 9) break;
    prefix += ch;
  }
  return `${prefix}~${hash}`;
}

/** A short content hash for names (`expression` constraints, expression indexes). */
export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
