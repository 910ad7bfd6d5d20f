/**
 * plan/names: schema names as EdgeQL text. Only names the REST model found reach here (the
 * model's lookup is the gate); they are still quoted by core's one quoting rule (`ql.quoteIdent`,
 * the EdgeQL printer's), once per name, so a property named `select` or `limit` prints as
 * `` `select` `` and a plain one stays plain.
 */
import { printTypeRef, ql, type TypeNamePrinter, type TypeRef } from '@svc/core';

const printed = new Map<string, string>();

/** A pointer name as EdgeQL text: quoted by the printer's rule when it is a keyword. */
export function ident(name: string): string {
  let text = printed.get(name);
  if (text === undefined) {
    text = ql.quoteIdent(name);
    printed.set(name, text);
  }
  return text;
}

/** A qualified type name (`default::User`, `blog::Post`) as EdgeQL text. */
export function typeName(qualified: string): string {
  // Kept apart from pointer names by the `::` prefix.
  const key = `::${qualified}`;
  let text = printed.get(key);
  if (text === undefined) {
    text = ql.quoteName(qualified);
    printed.set(key, text);
  }
  return text;
}

/** A type as the cast of a variable names it: `std::str`, `array<default::Mood>`, ... (core's
 * type printer, with the names quoted by the EdgeQL printer's rule). */
export function typeText(type: TypeRef): string {
  return printTypeRef(type, QUOTED);
}

const QUOTED: TypeNamePrinter = { type: typeName, element: ident };
