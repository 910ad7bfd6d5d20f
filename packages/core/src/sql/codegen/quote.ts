/**
 * sql/codegen/quote: the one place identifiers and literal values become SQL text.
 *
 * Input: a name or a value. Output: its SQL spelling.
 * Invariants:
 * - `quoteIdent` always double-quotes (so case and reserved words never matter) and doubles `"`;
 * - `quoteLiteral` assumes `standard_conforming_strings = on` (the default since PostgreSQL 9.1):
 *   a backslash is an ordinary character, only `'` is doubled, and `E'...'` is never needed;
 * - NUL cannot be stored in PostgreSQL text, so both functions refuse it.
 *
 * Queries bind values as `$n` parameters. DDL cannot take parameters, so literals in DDL
 * (column defaults, CHECK expressions, enum values, data checks) are the one place values are
 * inlined into SQL text — and only through `quoteLiteral`/`quoteBytea`.
 */
import { InvalidValueError } from '../../errors';

export function quoteIdent(name: string): string {
  if (name.includes('\u0000')) throw new InvalidValueError('an identifier cannot contain NUL');
  return `"${name.replace(/"/g, '""')}"`;
}

/** `schema.name`, each part quoted. */
export function quoteQualified(schema: string | null, name: string): string {
  return schema === null ? quoteIdent(name) : `${quoteIdent(schema)}.${quoteIdent(name)}`;
}

export function quoteLiteral(value: string): string {
  if (value.includes('\u0000')) {
    throw new InvalidValueError(
      'a string value cannot contain NUL (PostgreSQL text cannot hold it)',
    );
  }
  return `'${value.replace(/'/g, "''")}'`;
}

/** Bytes as a bytea literal in hex form: `'\x0aff'::bytea`. */
export function quoteBytea(value: Uint8Array): string {
  return `'\\x${Buffer.from(value).toString('hex')}'::bytea`;
}

/** Inverse of quoteIdent, for tests and introspection: `"a""b"` → `a"b`. */
export function unquoteIdent(text: string): string {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) {
    throw new Error(`not a quoted identifier: ${text}`);
  }
  const inner = text.slice(1, -1);
  if (/(^|[^"])"("")*([^"]|$)/.test(inner.replace(/""/g, '')))
    throw new Error(`unbalanced quotes: ${text}`);
  return inner.replace(/""/g, '"');
}

/** Inverse of quoteLiteral. */
export function unquoteLiteral(text: string): string {
  if (text.length < 2 || !text.startsWith("'") || !text.endsWith("'")) {
    throw new Error(`not a quoted literal: ${text}`);
  }
  const inner = text.slice(1, -1);
  if (inner.replace(/''/g, '').includes("'")) throw new Error(`unbalanced quotes: ${text}`);
  return inner.replace(/''/g, "'");
}
