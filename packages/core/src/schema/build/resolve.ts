/**
 * build/resolve: names → fully qualified names, type expressions → `TypeRef`s.
 *
 * Input: a name or type expression as written, and the module it was written in.
 * Output: the fully qualified name or resolved `TypeRef`.
 * Rules: an unqualified name resolves in its own module first, then in `std` (so `str` is
 * `std::str`); `cal::` types must be qualified; a qualified name resolves in that module.
 * Errors: `InvalidReferenceError` for unknown names (with a did-you-mean hint); nested arrays
 * (a stored type may not be an array of arrays) with the class the caller gives, since the class depends on where the type is used.
 */
import type * as ql from '../../syntax';
import { editDistance } from '../../syntax/hints';
import {
  InvalidDefinitionError,
  SchemaError,
  InvalidPropertyDefinitionError,
  InvalidReferenceError,
  UnsupportedFeatureError,
  type QueryErrorClass,
} from '../../errors';
import { BUILTIN_ENUMS } from '../../model/fts';
import { isSchemaModuleType } from '../../model/introspection';
import {
  ROOT_OBJECT_TYPES,
  STD_ENUMS,
  rangeElementProblem,
  targetObjectTypes,
  type TypeRef,
} from '../../model/schema';

const ROOTS: ReadonlySet<string> = new Set(ROOT_OBJECT_TYPES);
import { fail, type BuildContext } from './context';
import { STD_SCALAR_SET, arrayOf, objectRef, scalar } from './types';

export type TypeKind = 'object' | 'scalar' | 'alias';

/** Generic pseudo types, allowed only in abstract constraint parameters. */
const GENERIC = new Set(['anytype', 'anyscalar', 'anyreal', 'anyint', 'anyfloat', 'anynumeric']);

/** The fully qualified names an unqualified or qualified reference may mean, in lookup order. */
export function candidates(ref: { module: string | null; name: string }, module: string): string[] {
  if (ref.module !== null) return [`${ref.module}::${ref.name}`];
  return [`${module}::${ref.name}`, `std::${ref.name}`];
}

/** The kind and full name a type reference resolves to, or null. */
export function lookupType(
  ctx: BuildContext,
  ref: { module: string | null; name: string },
  module: string,
): { kind: TypeKind; name: string } | null {
  for (const name of candidates(ref, module)) {
    if (ctx.objectTypes.has(name) || ROOTS.has(name) || isSchemaModuleType(name)) {
      return { kind: 'object', name };
    }
    if (
      ctx.scalarDecls.has(name) ||
      STD_SCALAR_SET.has(name) ||
      BUILTIN_ENUMS[name] ||
      STD_ENUMS[name]
    ) {
      return { kind: 'scalar', name };
    }
    if (ctx.aliases.has(name)) return { kind: 'alias', name };
  }
  return null;
}

/** The closest known name to `word` (by its last segment), for a did-you-mean hint. */
export function closest(word: string, known: Iterable<string>): string | undefined {
  const short = (n: string) => n.slice(n.lastIndexOf(':') + 1).toLowerCase();
  const target = short(word);
  if (target.length <= 2) return undefined;
  const limit = target.length >= 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const name of known) {
    const d = editDistance(target, short(name));
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

export function hintFor(word: string, known: Iterable<string>): string | undefined {
  const best = closest(word, known);
  return best === undefined ? undefined : `did you mean '${best}'?`;
}

export function allTypeNames(ctx: BuildContext): string[] {
  return [...ctx.objectTypes.keys(), ...ctx.scalarDecls.keys(), ...STD_SCALAR_SET];
}

export function unknownType(ctx: BuildContext, ref: ql.ObjectRef, module: string): never {
  const name = candidates(ref, module)[0] as string;
  return fail(
    InvalidReferenceError,
    `type '${name}' does not exist`,
    ref.span,
    hintFor(ref.name, allTypeNames(ctx)),
  );
}

export interface TypeUse {
  /** The class of a nested-array error here (a stored type is never an array of arrays). */
  readonly nestedArray: QueryErrorClass;
  /** Whether `anytype` and friends are allowed (abstract constraint parameters). */
  readonly generic?: boolean;
}

const NESTED_ARRAY_HINT =
  'store it as json, or as an array of tuples of arrays: array<tuple<array<T>>>';

/** Resolves a type expression written in `module`. */
export function resolveType(
  ctx: BuildContext,
  texpr: ql.TypeExpr,
  module: string,
  use: TypeUse,
): TypeRef {
  switch (texpr.kind) {
    case 'TypeOf':
      return fail(InvalidDefinitionError, 'typeof is not supported in schema types', texpr.span);
    case 'TypeOp':
      return resolveUnion(ctx, texpr, module, use);
    case 'TypeName':
      return resolveTypeName(ctx, texpr, module, use);
  }
}

function subtypeType(sub: ql.TypeSubtype): ql.TypeExpr {
  return sub.kind === 'NamedSubtype' ? sub.type : sub;
}

function resolveTypeName(
  ctx: BuildContext,
  texpr: ql.TypeName,
  module: string,
  use: TypeUse,
): TypeRef {
  const ref = texpr.name;
  // A collection's name without `<...>` is an ordinary name (Gel: `type 'default::array' does
  // not exist`); with `<...>` it is the collection.
  const collection =
    (ref.module === null || ref.module === 'std') && texpr.subtypes.length > 0 ? ref.name : null;
  if (collection === 'array') {
    const [only, ...rest] = texpr.subtypes;
    if (!only || rest.length > 0 || only.kind === 'NamedSubtype') {
      return fail(
        SchemaError,
        `unexpected number of subtypes, expecting 1: array takes one element type, array<T>`,
        texpr.span,
      );
    }
    const element = resolveType(ctx, only, module, use);
    if (element.kind === 'array') {
      fail(use.nestedArray, 'nested arrays are not supported', only.span, NESTED_ARRAY_HINT);
    }
    return arrayOf(element);
  }
  if (collection === 'tuple') {
    const named = texpr.subtypes.map((s) => s.kind === 'NamedSubtype');
    if (named.some((n) => n !== named[0])) {
      return fail(
        InvalidDefinitionError,
        'mixing named and unnamed tuple elements is not allowed',
        texpr.span,
      );
    }
    const names = texpr.subtypes.flatMap((s) => (s.kind === 'NamedSubtype' ? [s.name] : []));
    const duplicate = names.find((n, i) => names.indexOf(n) !== i);
    if (duplicate !== undefined) {
      return fail(
        InvalidDefinitionError,
        `named tuple has duplicate field '${duplicate}'`,
        texpr.span,
      );
    }
    return {
      kind: 'tuple',
      elements: texpr.subtypes.map((s) => ({
        name: s.kind === 'NamedSubtype' ? s.name : null,
        type: resolveType(ctx, subtypeType(s), module, use),
      })),
    };
  }
  if (collection === 'enum') {
    return fail(
      InvalidPropertyDefinitionError,
      'this type cannot be anonymous: an enum must be declared as a scalar type',
      texpr.span,
      'declare it as: scalar type Name extending enum<A, B>;',
    );
  }
  if (collection === 'range' || collection === 'multirange') {
    return resolveRangeType(ctx, texpr, collection, module, use);
  }
  if (texpr.subtypes.length > 0) {
    return fail(InvalidDefinitionError, `type '${ref.name}' takes no type arguments`, texpr.span);
  }
  if (use.generic && ref.module === null && GENERIC.has(ref.name))
    return scalar(`std::${ref.name}`);
  const found = lookupType(ctx, ref, module);
  if (!found) return unknownType(ctx, ref, module);
  if (found.kind === 'alias') {
    return fail(
      InvalidDefinitionError,
      `'${found.name}' is an alias, not a type`,
      ref.span,
      'use the alias in an expression, or name the type it selects',
    );
  }
  return found.kind === 'object' ? objectRef(found.name) : scalar(found.name);
}

/**
 * `range<T>` / `multirange<T>`: T must be one of the range element types (Gel's `anypoint`),
 * else Gel's UnsupportedFeatureError.
 */
function resolveRangeType(
  ctx: BuildContext,
  texpr: ql.TypeName,
  kind: 'range' | 'multirange',
  module: string,
  use: TypeUse,
): TypeRef {
  const [only, ...rest] = texpr.subtypes;
  if (!only || rest.length > 0 || only.kind === 'NamedSubtype') {
    return fail(
      SchemaError,
      `unexpected number of subtypes, expecting 1: ${kind} takes one element type, ${kind}<T>`,
      texpr.span,
    );
  }
  const element = resolveType(ctx, only, module, use);
  const problem = rangeElementProblem(element);
  if (problem) return fail(UnsupportedFeatureError, problem.message, only.span, problem.hint);
  return { kind, element };
}

/**
 * `A | B` as a link target: a union TypeRef of its members (flattened, sorted), a member that
 * another includes dropped (`A | SubOfA` is `A`), one member left being that object type.
 */
function resolveUnion(ctx: BuildContext, texpr: ql.TypeOp, module: string, use: TypeUse): TypeRef {
  if (texpr.op === '&') {
    return fail(
      InvalidDefinitionError,
      'type intersections are not supported in schema types',
      texpr.span,
    );
  }
  const left = resolveType(ctx, texpr.left, module, use);
  const right = resolveType(ctx, texpr.right, module, use);
  const members = [...targetObjectTypes(left), ...targetObjectTypes(right)];
  if (members.length === 0 || [left, right].some((t) => targetObjectTypes(t).length === 0)) {
    return fail(InvalidDefinitionError, 'a union type may only join object types', texpr.span);
  }
  return unionOf(ctx, members);
}

/** The union of object types: members another member includes are dropped. */
export function unionOf(ctx: BuildContext, names: readonly string[]): TypeRef {
  const unique = [...new Set(names)];
  const kept = unique.filter((n) => !unique.some((m) => m !== n && isSubtype(ctx, n, m))).sort();
  return kept.length === 1 ? objectRef(kept[0] as string) : { kind: 'union', members: kept };
}

/** True when object type `sub` is `sup` or extends it (every type extends the roots). */
export function isSubtype(ctx: BuildContext, sub: string, sup: string): boolean {
  if (sub === sup) return true;
  if (sup === 'std::BaseObject') return true;
  if (sup === 'std::Object') return sub !== 'std::BaseObject';
  return ctx.objectTypes.get(sub)?.ancestors.includes(sup) ?? false;
}
