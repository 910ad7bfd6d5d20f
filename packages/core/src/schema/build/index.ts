/**
 * schema/build: SDL text → the immutable `Schema` model (model.ts), with every schema error of
 * the issue reported as a Gel error class at the position of the offending node.
 *
 * Input: SDL in either syntax (current `name: str`, or arrow `property name -> str`), with or
 * without `module default { }`. Output: a `Schema` whose invariants model.ts lists.
 * Errors: the first one found — `SchemaSyntaxError` from the parser, `UnsupportedFeatureError`
 * for what svc parses but does not run yet (triggers, access rewrites: refused rather than
 * silently dropped), then, phase by phase, `InvalidReferenceError`,
 * `DuplicateDefinitionError`, `Invalid*DefinitionError`, ...
 *
 * The phases, each a pure function over one `BuildContext`:
 *   collect (names, duplicates) → annotations → scalars → bases + C3 → function signatures →
 *   pointers (flattened through inheritance) → type-level members → validate (inference of
 *   computeds, globals and aliases; what defaults read; the SDL call graph) → assemble → bound
 *   (defaults, constraint, index and policy expressions and function bodies bound by the query
 *   binder against the assembled schema).
 *
 * @example
 * const schema = buildSchema('type User { required name: str; multi friends: User; }');
 * schema.objectTypes[0].pointers.map((p) => p.name); // ['id', 'name', 'friends']
 */
import * as ql from '../../syntax';
import type { Schema } from '../../model/schema';
import { buildAnnotationDecls } from './annotations';
import { assemble } from './assemble';
import { checkBoundExpressions } from './bound';
import { collect } from './collect';
import { buildFunctions } from './functions';
import { resolveBases } from './inherit';
import { buildObjectMembers } from './objects';
import { buildPointers } from './pointers';
import { buildScalars } from './scalars';
import { validate } from './validate';
import { findNode } from './walk';
import { UnsupportedFeatureError } from '../../errors';
import { provideDdlCompiler } from '../../storage/ddl-compiler';
import { DDL_COMPILER } from '../ddl-expression';

/** Triggers and access rewrites: valid SDL that a later issue builds; refused until then. */
function refuseUnsupported(schema: ql.Schema): void {
  const found = findNode(schema, (n) => n.kind === 'Trigger' || n.kind === 'Rewrite');
  if (!found) return;
  const what =
    found.kind === 'Trigger' ? 'triggers are' : 'access rewrites (`rewrite ... using`) are';
  throw new UnsupportedFeatureError(`${what} not supported yet`, {
    position: { line: found.span.start.line, column: found.span.start.column },
    hint:
      found.kind === 'Trigger'
        ? 'run the follow-up writes in the same request as the statement'
        : 'compute the value in the insert or update',
  });
}

export function buildSchema(sdl: string): Schema {
  // The storage layout of the schema (read by the query compiler and the migration planner)
  // compiles its defaults, checks and index expressions with the query compiler.
  provideDdlCompiler(DDL_COMPILER);
  const parsed = ql.parseSchema(sdl);
  refuseUnsupported(parsed);
  const ctx = collect(parsed);
  buildAnnotationDecls(ctx);
  buildScalars(ctx);
  resolveBases(ctx);
  buildFunctions(ctx);
  buildPointers(ctx);
  buildObjectMembers(ctx);
  validate(ctx);
  const schema = assemble(ctx);
  checkBoundExpressions(ctx, schema);
  return schema;
}
