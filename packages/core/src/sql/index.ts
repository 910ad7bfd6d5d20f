/**
 * sql: the only place SQL text is generated — the PostgreSQL expression and statement AST (./ast,
 * built by ./build, walked and rewritten by ./transform), its printer (./print), quoting
 * (./codegen/quote), content-derived names (./codegen/names), DDL and data-check statements
 * (./codegen/ddl). It knows nothing of the schema model, std or storage: they import `sql/`,
 * never the reverse.
 */
export * from './ast';
export { printSql, printStatement, printType as printPgType, type PrintOptions } from './print';
export * from './codegen/quote';
export * from './codegen/names';
export { ddl, checks as dataChecks, q as quoteQName } from './codegen/ddl';
export type {
  CheckSpec,
  ColumnSpec,
  DomainSpec,
  ForeignKeySpec,
  IndexSpec,
  OnDelete,
  QName,
  ViewBranch,
  ViewSpec,
} from './codegen/ddl';
export {
  mapChildren,
  someExpr,
  transformSql,
  type ChildMapper,
  type SqlNode,
  type SqlTransform,
} from './transform';
