/**
 * schema/diff: `planMigration(from, to)` — what SQL takes a database from one schema model to
 * another (./plan).
 */
export { planMigration } from './plan';
export { typeChangeWanting, type TypeChangeWantingFill } from './pointers';
