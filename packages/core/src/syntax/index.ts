/**
 * syntax: the language front end of svc — one lexer and one parser for EdgeQL and SDL, the AST,
 * and a printer back to text.
 *
 * Input: query or schema text. Output: AST nodes with `kind` and `span` (1-based line/column).
 * Errors: `EdgeQLSyntaxError` (queries) or `SchemaSyntaxError` (SDL) with `position` and, where
 * a likely mistake is known, `hint`.
 * Invariant: `parse(print(ast))` equals `ast` apart from spans (see printer.property.test.ts).
 *
 * @example
 * import * as ql from './syntax';
 * const [stmt] = ql.parseQuery('select User { name } filter .id = <uuid>$id');
 * ql.printQuery(stmt); // "select User { name } filter .id = <uuid>$id;"
 */
import type { Expr, Schema, Statement, TypeExpr } from './ast';
import { Parser } from './parser';
import { SchemaParser } from './sdl-parser';

export * from './ast';
export { printExpression, printQuery, printSchema, printType } from './printer';
export { tokenize } from './lexer';
export type { Position, Token, TokenKind } from './tokens';
export { BINARY_OPERATORS, Precedence, UNARY_OPERATORS } from './precedence';

/** Parses an EdgeQL script: statements separated by `;`. Throws `EdgeQLSyntaxError`. */
export function parseQuery(text: string): Statement[] {
  return new Parser(text).parseScript();
}

/** Parses one EdgeQL expression (or query), e.g. a default or a filter. Throws `EdgeQLSyntaxError`. */
export function parseExpression(text: string): Expr {
  return new Parser(text).parseStandaloneExpression();
}

/** Parses a type expression such as `array<str>` or `A | B`. Throws `EdgeQLSyntaxError`. */
export function parseType(text: string): TypeExpr {
  const parser = new Parser(text);
  return parser.parseStandaloneType();
}

/** Parses an SDL document. Throws `SchemaSyntaxError`. */
export function parseSchema(sdl: string): Schema {
  return new SchemaParser(sdl).parseSchema();
}
