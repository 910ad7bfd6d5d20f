/**
 * sql/codegen/quote: the one place identifiers and literal values become SQL text.
 *
 * Input: a name or a value. Output: its SQL spelling.
 * Invariants:
 * - `quoteIdent` always double-quotes (so case and reserved words never matter) and doubles `"`;
 * - literals read the same whatever the session's `standard_conforming_strings` (a pooler may
 *   hand svc a connection with it off): a value with a backslash is written `E'...'` with the
 *   backslash doubled (an escape string reads backslashes the same under both settings); any
 *   other value is a plain `'...'`; `'` is always doubled;
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
  const quoted = value.replace(/'/g, "''");
  return value.includes('\\') ? `E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** Bytes as a bytea literal in hex form: `E'\\x0aff'::bytea` (an escape string: see above). */
export function quoteBytea(value: Uint8Array): string {
  return `E'\\\\x${Buffer.from(value).toString('hex')}'::bytea`;
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

/** Inverse of quoteLiteral (`'...'`, or `E'...'` with only `\\` and `''` escaped). */
export function unquoteLiteral(text: string): string {
  const escaped = text.startsWith("E'");
  const body = escaped ? text.slice(1) : text;
  if (body.length < 2 || !body.startsWith("'") || !body.endsWith("'")) {
    throw new Error(`not a quoted literal: ${text}`);
  }
  const inner = body.slice(1, -1);
  if (inner.replace(/''/g, '').includes("'")) throw new Error(`unbalanced quotes: ${text}`);
  const value = inner.replace(/''/g, "'");
  return escaped ? value.replace(/\\\\/g, '\\') : value;
}
