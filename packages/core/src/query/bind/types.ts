/**
 * bind/types: names → schema things, as EdgeQL resolves them in a query: a qualified name in
 * its module (through module aliases), an unqualified one in the current module and then `std`
 * (object types, scalars, aliases, functions); type expressions (`array<str>`, `tuple<a: int64>`)
 * → TypeRef; and small helpers over IR types.
 *
 * Input: a syntax node and a Scope. Output: fully qualified names / TypeRefs.
 * Errors: InvalidReferenceError (unknown name, with a hint when one is close), InvalidTypeError,
 * UnsupportedFeatureError (`|` or `&` over non-object types, as Gel). `typeof e` is bound by ./expr
 * (registerTypeOfBinder).
 */
import type * as ql from '../../syntax';
import { InvalidTypeError, UnknownModuleError, UnsupportedFeatureError } from '../../errors';
import { printTypeRef, rangeElementProblem, STD_SCALARS, type TypeRef } from '../../model/schema';
import { printIrType, type IrType } from '../ir';
import type { SchemaIndex } from '../schema-index';
import { closest, fail, unknownName, type Scope } from './context';
import { checkUnionType } from './union-check';
import { isStdSubmodule } from '../../std';

const STD_SCALAR_SET: ReadonlySet<string> = new Set(STD_SCALARS);

/**
 * `typeof e` in a type position: the static type of `e` (bound, never evaluated). The binder of
 * expressions (./expr) registers itself here: it imports this module, so this one cannot import it.
 */
let typeOfBinder: ((index: SchemaIndex, scope: Scope, expr: ql.Expr) => TypeRef) | null = null;
export function registerTypeOfBinder(
  bind: (index: SchemaIndex, scope: Scope, expr: ql.Expr) => TypeRef,
): void {
  typeOfBinder = bind;
}

/** The module a written module name means in this scope. */
export function moduleOf(index: SchemaIndex, scope: Scope, module: string, span: ql.Span): string {
  const aliased = scope.moduleAliases.get(module);
  if (aliased) return aliased;
  if (module === '__std__') return 'std';
  // Gel's spelling of the standard library's submodules (`std::cal`, `std::math`).
  if (module.startsWith('std::') && index.modules.has(module.slice(5))) return module.slice(5);
  // A submodule of the std table's own (`std::enc`): its functions are named under it.
  if (isStdSubmodule(module)) return module;
  if (!index.modules.has(module))
    fail(UnknownModuleError, `module '${module}' does not exist`, span);
  return module;
}

/** Candidate qualified names for `ref`, most specific first. */
export function candidateNames(index: SchemaIndex, scope: Scope, ref: ql.ObjectRef): string[] {
  if (ref.module !== null) return [`${moduleOf(index, scope, ref.module, ref.span)}::${ref.name}`];
  return [`${scope.module}::${ref.name}`, `std::${ref.name}`];
}

export type NamedThing =
  | { readonly kind: 'object'; readonly name: string }
  | { readonly kind: 'scalar'; readonly name: string }
  | { readonly kind: 'alias'; readonly name: string };

/** What a name refers to among schema things (not scope names), or null. */
export function lookupSchemaName(
  index: SchemaIndex,
  scope: Scope,
  ref: ql.ObjectRef,
): NamedThing | null {
  for (const name of candidateNames(index, scope, ref)) {
    if (index.objectType(name)) return { kind: 'object', name };
    if (STD_SCALAR_SET.has(name) || index.scalar(name)) return { kind: 'scalar', name };
    if (index.alias(name)) return { kind: 'alias', name };
  }
  return null;
}

/**
 * The "did you mean" of a type name `ref` that resolves to nothing: the schema's object type,
 * scalar or alias, or std's scalar, whose own name is closest to the one written (at most two
 * edits, context `closest`), as the scope would write it (unqualified in its module or std), or
 * undefined when none is close. A qualified `ref` looks only in its module.
 */
export function typeNameHint(
  index: SchemaIndex,
  scope: Scope,
  ref: ql.ObjectRef,
): string | undefined {
  const module = ref.module === null ? null : (scope.moduleAliases.get(ref.module) ?? ref.module);
  const written = new Map<string, string>();
  const names = [
    ...index.objectTypes.map((t) => t.name),
    ...index.schema.scalarTypes.map((t) => t.name),
    ...index.schema.aliases.map((a) => a.name),
    ...STD_SCALARS,
  ];
  for (const name of names) {
    const at = name.lastIndexOf('::');
    if (at < 0 || /[|&]/.test(name)) continue;
    const [owner, short] = [name.slice(0, at), name.slice(at + 2)];
    if (module !== null && owner !== module) continue;
    const shown =
      module !== null
        ? `${ref.module}::${short}`
        : owner === scope.module || owner === 'std'
          ? short
          : name;
    if (!written.has(short)) written.set(short, shown);
  }
  // The same name in another module is the best hint (`with module dummy select User`).
  const best = closest(ref.name, [...written.keys()]);
  const shown = best === null ? undefined : written.get(best);
  return shown === undefined || shown === ref.name ? undefined : `did you mean '${shown}'?`;
}

/**
 * A schema TypeRef as the binder types values: a stored union (`File | URL`, an SDL function's
 * parameter or result) is the object type the index presents for it (see schema-index).
 */
export function bindableType(index: SchemaIndex, type: TypeRef): TypeRef {
  switch (type.kind) {
    case 'union':
      return { kind: 'object', name: index.unionOf(type.members) };
    case 'array': {
      const element = bindableType(index, type.element);
      return element === type.element ? type : { kind: 'array', element };
    }
    default:
      return type;
  }
}

/**
 * A type expression as a TypeRef. `A | B` and `A & B` on object types are their union and
 * intersection types (see schema-index).
 */
export function resolveTypeExpr(index: SchemaIndex, scope: Scope, texpr: ql.TypeExpr): TypeRef {
  switch (texpr.kind) {
    case 'TypeOf':
      if (!typeOfBinder) {
        return fail(UnsupportedFeatureError, '`typeof` is not supported here', texpr.span);
      }
      return typeOfBinder(index, scope, texpr.expr);
    case 'TypeOp': {
      const left = resolveTypeExpr(index, scope, texpr.left);
      const right = resolveTypeExpr(index, scope, texpr.right);
      if (left.kind !== 'object' || right.kind !== 'object') {
        return fail(
          UnsupportedFeatureError,
          `cannot use type operator '${texpr.op}' with non-object type ${printTypeRef(left.kind !== 'object' ? left : right)}`,
          texpr.span,
        );
      }
      const name =
        texpr.op === '|'
          ? index.unionOf([left.name, right.name])
          : index.intersectionOf(left.name, right.name);
      if (texpr.op === '|') checkUnionType(index, name, texpr.span);
      return { kind: 'object', name };
    }
    case 'TypeName':
      return resolveTypeName(index, scope, texpr);
  }
}

function resolveTypeName(index: SchemaIndex, scope: Scope, texpr: ql.TypeName): TypeRef {
  const { name, subtypes } = texpr;
  const bare = name.module === null || name.module === 'std' ? name.name : null;
  if (bare === 'array') {
    const [element, ...rest] = subtypes;
    if (!element || rest.length || element.kind === 'NamedSubtype') {
      return fail(InvalidTypeError, 'array<...> takes one element type', texpr.span);
    }
    return { kind: 'array', element: resolveTypeExpr(index, scope, element) };
  }
  if (bare === 'range' || bare === 'multirange') {
    const [element, ...rest] = subtypes;
    if (!element || rest.length || element.kind === 'NamedSubtype') {
      return fail(InvalidTypeError, `${bare}<...> takes one element type`, texpr.span);
    }
    const resolved = resolveTypeExpr(index, scope, element);
    // Gel: a range of a type that is not `anypoint` is an unsupported feature.
    const problem = rangeElementProblem(resolved);
    if (problem) return fail(UnsupportedFeatureError, problem.message, texpr.span, problem.hint);
    return { kind: bare, element: resolved };
  }
  if (bare === 'tuple') {
    const named = subtypes.filter((s) => s.kind === 'NamedSubtype').length;
    if (named !== 0 && named !== subtypes.length) {
      return fail(InvalidTypeError, 'tuple elements must be all named or all unnamed', texpr.span);
    }
    return {
      kind: 'tuple',
      elements: subtypes.map((s) =>
        s.kind === 'NamedSubtype'
          ? { name: s.name, type: resolveTypeExpr(index, scope, s.type) }
          : { name: null, type: resolveTypeExpr(index, scope, s) },
      ),
    };
  }
  if (subtypes.length) {
    return fail(InvalidTypeError, `type '${name.name}' takes no type arguments`, texpr.span);
  }
  const found = lookupSchemaName(index, scope, name);
  if (!found) {
    const shown = name.module ? `${name.module}::${name.name}` : name.name;
    return unknownName('type', shown, name.span, typeNameHint(index, scope, name));
  }
  if (found.kind === 'alias') {
    return fail(InvalidTypeError, `'${found.name}' is an alias, not a type`, name.span);
  }
  return found;
}

export function isObjectType(type: IrType): type is { kind: 'object'; name: string } {
  return type.kind === 'object';
}

export { printIrType } from '../ir';

export function sameType(a: IrType, b: IrType): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `type` as a schema type: a free object or the type of `{}` cannot be stored in a tuple or array. */
export function asTypeRef(type: IrType, span: ql.Span): TypeRef {
  if (type.kind === 'free' || type.kind === 'empty') {
    return fail(
      InvalidTypeError,
      `'${printIrType(type)}' cannot be stored in a tuple or array`,
      span,
    );
  }
  return type;
}
