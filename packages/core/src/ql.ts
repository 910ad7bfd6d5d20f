/**
 * ql: the EdgeQL and SDL front end as users of @svc/core see it: parse text into syntax trees
 * (`kind` + `span` nodes, 1-based line/column) and print trees back to text. The lexer, the
 * precedence tables and the node constructors stay inside core (`syntax/`).
 *
 * @example
 * import { ql } from '@svc/core';
 * const [stmt] = ql.parseQuery('select User { name } filter .id = <uuid>$id');
 * ql.printQuery(stmt); // "select User { name } filter .id = <uuid>$id;"
 */
export type * from './syntax/ast';
export { parseExpression, parseQuery, parseSchema, parseType } from './syntax';
export {
  printExpression,
  printQuery,
  printSchema,
  printType,
  quoteIdent,
  quoteName,
} from './syntax/printer';
