/**
 * build/annotations: declared abstract annotations, and the values set on declarations.
 *
 * Input: `AnnotationDecl`s from the context; `AnnotationValue` members of any declaration.
 * Output: the `AbstractAnnotation` table and `Annotations` records (name → string value).
 * Rules: `title`, `description`, `deprecated` are std (`std::title`); `rest::hidden` and
 * `rest::expand` are built in; anything else must be declared (`abstract annotation x;`).
 * Errors: `InvalidReferenceError` for an unknown annotation; `InvalidDefinitionError` for a
 * value that is not a literal.
 */
import type * as ql from '../../syntax';
import { InvalidDefinitionError, InvalidReferenceError } from '../../errors';
import { BUILTIN_ANNOTATIONS, type Annotations } from '../../model/schema';
import { fail, type BuildContext } from './context';
import { candidates, hintFor } from './resolve';

const BUILTIN: ReadonlySet<string> = new Set<string>(BUILTIN_ANNOTATIONS);

export function buildAnnotationDecls(ctx: BuildContext): void {
  for (const decl of ctx.annotationDecls.values()) {
    ctx.annotations.set(decl.name, { name: decl.name, inheritable: decl.node.inheritable });
  }
}

export function resolveAnnotation(ctx: BuildContext, ref: ql.ObjectRef, module: string): string {
  const names = candidates(ref, module);
  const found = names.find((n) => BUILTIN.has(n) || ctx.annotations.has(n));
  if (found === undefined) {
    return fail(
      InvalidReferenceError,
      `annotation '${names[0] ?? ref.name}' does not exist`,
      ref.span,
      hintFor(ref.name, [...BUILTIN, ...ctx.annotations.keys()]) ??
        `declare it first: abstract annotation ${ref.name};`,
    );
  }
  return found;
}

/** Folds a literal (or a `++` of literals) to the string an annotation stores. */
function literal(expr: ql.Expr): string | null {
  if (expr.kind === 'Constant') return expr.value;
  if (expr.kind === 'BinOp' && expr.op === '++') {
    const left = literal(expr.left);
    const right = literal(expr.right);
    return left === null || right === null ? null : left + right;
  }
  return null;
}

/** The annotation values among `members`, resolved. */
export function annotationsOf(
  ctx: BuildContext,
  members: readonly ql.Node[],
  module: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const member of members) {
    if (member.kind !== 'AnnotationValue') continue;
    const name = resolveAnnotation(ctx, member.name, module);
    const value = literal(member.value);
    if (value === null) {
      fail(
        InvalidDefinitionError,
        `annotation '${name}' must be set to a literal`,
        member.value.span,
      );
    }
    out[name] = value;
  }
  return out;
}

/** The annotations a subtype inherits: only those declared `inheritable`. */
export function inheritableOf(ctx: BuildContext, annotations: Annotations): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(annotations)) {
    if (ctx.annotations.get(name)?.inheritable) out[name] = value;
  }
  return out;
}
