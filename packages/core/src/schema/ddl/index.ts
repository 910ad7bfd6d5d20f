/**
 * schema/ddl: EdgeQL DDL as edits of an SDL schema — `applyDdl` reads a migration's DDL onto the
 * schema before it, `generateDdl` writes the DDL between two schemas. The syntax is in
 * ../../syntax (parseDdl, printDdl).
 */
export { applyDdl, type AppliedDdl } from './apply';
export { generateDdl, pointerKindsOf, type PointerKindOf } from './generate';
