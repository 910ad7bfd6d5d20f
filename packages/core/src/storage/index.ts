/**
 * storage: how a Schema is stored in PostgreSQL — the type map (./types), the names of tables,
 * columns, domains and sequences (./names), the layout of tables, columns, junction tables,
 * domains, views and integrity triggers (./layout), and the runner that applies a migration plan
 * (./migrate). It sits below std and the query compiler, which read it; the compiler of DDL
 * expressions (defaults, checks, expression indexes) is the query compiler, handed to the layout
 * at run time (./ddl-compiler, provided by schema/).
 */
export * from './types';
export * from './layout';
