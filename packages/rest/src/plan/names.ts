/**
 * plan/names: schema names as EdgeQL text. Only names the REST model found reach here (the
 * model's lookup is the gate); they are still quoted by core's one quoting rule (`ql.quoteIdent`,
 * the EdgeQL printer's), so a property named `select` or `limit` prints as `` `select` `` and a
 * plain one stays plain.
 */
import { printTypeRef, ql, type TypeNamePrinter, type TypeRef } from '@svc/core';

/** A pointer name as EdgeQL text: quoted by the printer's rule when it is a keyword. */
export const ident: (name: string) => string = ql.quoteIdent;

/** A qualified type name (`default::User`, `blog::Post`) as EdgeQL text. */
export const typeName: (qualified: string) => string = ql.quoteName;

/** A type as the cast of a variable names it: `std::str`, `array<default::Mood>`, ... (core's
 * type printer, with the names quoted by the EdgeQL printer's rule). */
export function typeText(type: TypeRef): string {
  return printTypeRef(type, QUOTED);
}

const QUOTED: TypeNamePrinter = { type: ql.quoteName, element: ql.quoteIdent };
