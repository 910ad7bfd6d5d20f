/**
 * schema/storage: how a Schema is stored in PostgreSQL — the type map (./types), the layout of
 * tables, columns, junction tables, domains and views (./layout), the compiler of DDL
 * expressions: defaults, checks, expression indexes (./ddl-expression), and the bootstrap SQL.
 */
export * from './types';
export * from './layout';
