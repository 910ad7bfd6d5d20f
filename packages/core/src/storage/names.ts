/**
 * storage/names: where a Schema's objects are named in PostgreSQL (tables, junction
 * tables, columns, domains, sequences). Split from ./layout so the query compiler's schema index
 * (query/schema-index) can name storage without depending on the layout, whose expressions
 * (defaults, checks, indexes) are compiled by the query compiler itself (./ddl-expression).
 * Pure.
 */
import type { QName } from '../sql/codegen/ddl';
import { pgName } from '../sql/codegen/names';
import { splitName } from './types';

/** `default::User` → `{schema: 'default', name: 'User'}`. */
export function tableName(type: string): QName {
  const [schema, short] = splitName(type);
  return { schema, name: pgName(short) };
}

/** The table of a multi pointer: `"default"."User.friends"`. */
export function pointerTableName(type: string, pointer: string): QName {
  const [schema, short] = splitName(type);
  return { schema, name: pgName(`${short}.${pointer}`) };
}

export function domainName(scalar: string): QName {
  const [schema, short] = splitName(scalar);
  return { schema, name: pgName(short) };
}

export function sequenceName(scalar: string): QName {
  const [schema, short] = splitName(scalar);
  return { schema, name: pgName(`${short}.seq`) };
}

/** The column of a stored single pointer (link properties of single links: `link@prop`). */
export function columnName(pointer: string, linkProperty?: string): string {
  return linkProperty === undefined ? pointer : `${pointer}@${linkProperty}`;
}
