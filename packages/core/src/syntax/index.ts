/**
 * syntax: the language front end of svc — one lexer and one parser for EdgeQL and SDL, the AST,
 * and a printer back to text.
 *
 * Input: query or schema text. Output: AST nodes with `kind` and `span` (1-based line/column).
 * Errors: `EdgeQLSyntaxError` (queries) or `SchemaSyntaxError` (SDL) with `position` and, where
 * a likely mistake is known, `hint`.
 * Invariant: `parse(print(ast))` equals `ast` apart from spans (see printer.property.nodb.test.ts).
 *
 * @example
 * import * as ql from './syntax';
 * const [stmt] = ql.parseQuery('select User { name } filter .id = <uuid>$id');
 * ql.printQuery(stmt); // "select User { name } filter .id = <uuid>$id;"
 */
import { EdgeQLSyntaxError, SchemaSyntaxError, UnsupportedFeatureError } from '../errors';
import type { Expr, Schema, Statement, TypeExpr } from './ast';
import { checkNestingDepth } from './depth';
import type { DdlCommand } from './ddl-ast';
import { DdlParser } from './ddl-parser';
import { Parser } from './parser';
import { SchemaParser } from './sdl-parser';

export * from './ast';
export type * from './ddl-ast';
export {
  declarationRefText,
  memberKey,
  memberWhat,
  printDdl,
  signatureText,
} from './ddl-printer';
export { printExpression, printQuery, printSchema, printType } from './printer';
export { tokenize } from './lexer';
export type { Position, Token, TokenKind } from './tokens';
export { BINARY_OPERATORS, Precedence, UNARY_OPERATORS } from './precedence';
export { MAX_NESTING_DEPTH } from './depth';

// Every entry point bounds the tree's depth (syntax/depth): operator chains such as
// `1 + 1 + ... + 1` nest without nesting the parser, and every later stage recurses over them.
// Nesting the parser itself refuses is a syntax error; a query the parser took whole but that is
// too deep for the compiler's stages is valid EdgeQL svc does not compile (Gel's
// UnsupportedFeatureError for a query that overflows its compiler).
function bounded<T>(tree: T, errorClass: typeof EdgeQLSyntaxError): T {
  checkNestingDepth(tree, errorClass);
  return tree;
}

/** Parses an EdgeQL script: statements separated by `;`. Throws `EdgeQLSyntaxError` (and
 * `UnsupportedFeatureError` for an operator chain too deep to compile). */
export function parseQuery(text: string): Statement[] {
  return bounded(new Parser(text).parseScript(), UnsupportedFeatureError);
}

/** Parses one EdgeQL expression (or query), e.g. a default or a filter. Throws `EdgeQLSyntaxError`. */
export function parseExpression(text: string): Expr {
  return bounded(new Parser(text).parseStandaloneExpression(), UnsupportedFeatureError);
}

/** Parses a type expression such as `array<str>` or `A | B`. Throws `EdgeQLSyntaxError`. */
export function parseType(text: string): TypeExpr {
  return bounded(new Parser(text).parseStandaloneType(), EdgeQLSyntaxError);
}

/** Parses EdgeQL DDL (a migration's statements). Throws `SchemaSyntaxError`. */
export function parseDdl(text: string): DdlCommand[] {
  return bounded(new DdlParser(text).parseDdl(), SchemaSyntaxError);
}

/** Parses an SDL document. Throws `SchemaSyntaxError`. */
export function parseSchema(sdl: string): Schema {
  return bounded(new SchemaParser(sdl).parseSchema(), SchemaSyntaxError);
}
