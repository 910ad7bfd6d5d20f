/**
 * sql: the only place SQL text is generated — the PostgreSQL expression and statement AST (./ast,
 * built by ./build, walked and rewritten by ./transform) and its printer (./print), quoting (./codegen/quote), content-derived names (./codegen/names), DDL and
 * data-check statements (./codegen/ddl) and the bootstrap SQL (./codegen/bootstrap). It knows
 * nothing of the schema model: `schema/` imports `sql/`, never the reverse.
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
export { STORAGE_BOOTSTRAP_SQL } from './codegen/bootstrap';
export {
  mapChildren,
  someExpr,
  transformSql,
  type ChildMapper,
  type SqlNode,
  type SqlTransform,
} from './transform';
