/**
 * schema/build: SDL text → the immutable `Schema` model (model.ts), with every schema error of
 * the issue reported as a Gel error class at the position of the offending node.
 *
 * Input: SDL in either syntax (current `name: str`, or arrow `property name -> str`), with or
 * without `module default { }`. Output: a `Schema` whose invariants model.ts lists.
 * Errors: `SchemaSyntaxError` from the parser, `UnsupportedFeatureError` for what svc parses but
 * does not run yet (triggers, access rewrites: refused rather than silently dropped), then,
 * phase by phase, `InvalidReferenceError`, `DuplicateDefinitionError`, `Invalid*DefinitionError`,
 * ... Every independent error is reported at once: the first is thrown with the rest in its
 * `others` (source order). Independent means: syntax errors of different files (each file is
 * parsed alone first); and within one phase, errors of different declarations (the phases with a
 * star below go on past a declaration they refuse, `attempt`/`settle` in context.ts, and the
 * build stops after a phase with errors, since later phases read what it built). The others
 * (scalars, C3, validate: inference of computeds, which reads other declarations) stop at their
 * first error. Given files, every position names its file and its
 * line there (sources.ts).
 *
 * The phases, each a pure function over one `BuildContext`:
 *   collect* (names, duplicates) → annotations → scalars → bases* + C3 → function signatures* →
 *   pointers* (flattened through inheritance) → type-level members* → validate (inference of
 *   computeds, globals and aliases; what defaults read; the SDL call graph) → assemble → bound*
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
import { QueryError, SvcError, UnsupportedFeatureError } from '../../errors';
import { joinSchemaFiles, locateIn, type SchemaFile } from './sources';
import { provideDdlCompiler } from '../../storage/ddl-compiler';
import { DDL_COMPILER } from '../ddl-expression';

export { joinSchemaFiles, type SchemaFile } from './sources';

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

/**
 * Builds the schema of one SDL text, or of several files joined as Gel joins a schema folder
 * (`joinSchemaFiles`); then each error's position names its file (`position.file`).
 */
export function buildSchema(sdl: string | readonly SchemaFile[]): Schema {
  if (typeof sdl === 'string') return buildText(sdl);
  const files = sdl;
  // Syntax errors of different files are independent: each file is parsed alone first.
  const syntax: SvcError[] = [];
  for (const file of files) {
    try {
      ql.parseSchema(file.text);
    } catch (err) {
      if (!(err instanceof QueryError) || err.position === undefined) throw err;
      syntax.push(err.with({ position: { ...err.position, file: file.name } }));
    }
  }
  const [first, ...others] = syntax;
  if (first) throw others.length === 0 ? first : first.with({ others });
  try {
    return buildText(joinSchemaFiles(files));
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    const moved = (e: SvcError) =>
      e.position === undefined ? e : e.with({ position: locateIn(files, e.position) });
    throw moved(err).with({ others: err.others.map(moved) });
  }
}

function buildText(sdl: string): Schema {
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
