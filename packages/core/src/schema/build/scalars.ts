/**
 * build/scalars: custom scalar types and enums.
 *
 * Input: the `ScalarTypeDecl`s of the context. Output: `ctx.scalars` filled, each with its
 * immediate `base`, the std scalar it is stored as (`stdBase`) and its enum values; constraints
 * are attached later by constraints.ts (they need expression inference). Only a scalar's own
 * constraints are listed; a consumer follows `base` for the inherited ones.
 * Errors: unknown base (`InvalidReferenceError`), a base that is an object type, a collection
 * (nested arrays with the nested-array hint), an enum, or a cycle (`InvalidDefinitionError`).
 */
import type * as ql from '../../syntax';
import { InvalidDefinitionError } from '../../errors';
import type { ScalarType, StdScalarName } from '../../model/schema';
import { annotationsOf } from './annotations';
import { fail, type BuildContext, type Decl } from './context';
import { lookupType, resolveType, unknownType } from './resolve';
import { STD_SCALAR_SET } from './types';

export function buildScalars(ctx: BuildContext): void {
  const building = new Set<string>();
  for (const decl of ctx.scalarDecls.values()) buildScalar(ctx, decl, building);
}

function buildScalar(
  ctx: BuildContext,
  decl: Decl<ql.ScalarTypeDecl>,
  building: Set<string>,
): ScalarType {
  const done = ctx.scalars.get(decl.name);
  if (done) return done;
  if (building.has(decl.name)) {
    return fail(
      InvalidDefinitionError,
      `'${decl.name}' is defined recursively`,
      decl.node.name.span,
    );
  }
  building.add(decl.name);
  const { base, stdBase, enumValues } = baseOf(ctx, decl, building);
  const scalar: ScalarType = {
    name: decl.name,
    abstract: decl.node.abstract,
    base,
    stdBase,
    enumValues,
    constraints: [],
    annotations: annotationsOf(ctx, decl.node.members, decl.module),
    span: decl.node.span,
  };
  building.delete(decl.name);
  ctx.scalars.set(decl.name, scalar);
  return scalar;
}

interface Base {
  base: string;
  stdBase: StdScalarName;
  enumValues: string[] | null;
}

function baseOf(ctx: BuildContext, decl: Decl<ql.ScalarTypeDecl>, building: Set<string>): Base {
  const [first, ...more] = decl.node.extending;
  if (!first) {
    return fail(
      InvalidDefinitionError,
      `scalar type '${decl.name}' must have a concrete base type`,
      decl.node.name.span,
      'extend a std scalar: scalar type Name extending str',
    );
  }
  if (more.length > 0) {
    return fail(
      InvalidDefinitionError,
      `scalar type '${decl.name}' may extend only one type`,
      more[0]?.span,
    );
  }
  const ref = first.name;
  const plain = ref.module === null || ref.module === 'std' ? ref.name : null;
  if (plain === 'enum') return enumBase(first);
  if (plain === 'array' || plain === 'tuple') {
    // Resolving first reports a nested array with its hint.
    resolveType(ctx, first, decl.module, { nestedArray: InvalidDefinitionError });
    return fail(
      InvalidDefinitionError,
      `scalar type '${decl.name}' may not extend a collection`,
      first.span,
      'use the collection type directly on the property',
    );
  }
  if (first.subtypes.length > 0) {
    return fail(InvalidDefinitionError, `type '${ref.name}' takes no type arguments`, first.span);
  }
  const found = lookupType(ctx, ref, decl.module);
  if (!found) return unknownType(ctx, ref, decl.module);
  if (found.kind !== 'scalar') {
    return fail(
      InvalidDefinitionError,
      `scalar type '${decl.name}' cannot extend ${found.kind === 'object' ? 'object type' : 'alias'} '${found.name}'`,
      first.span,
    );
  }
  if (STD_SCALAR_SET.has(found.name)) {
    return { base: found.name, stdBase: found.name as StdScalarName, enumValues: null };
  }
  const parentDecl = ctx.scalarDecls.get(found.name) as Decl<ql.ScalarTypeDecl>;
  const parent = buildScalar(ctx, parentDecl, building);
  if (parent.enumValues !== null) {
    return fail(InvalidDefinitionError, `enum '${parent.name}' cannot be extended`, first.span);
  }
  return { base: parent.name, stdBase: parent.stdBase, enumValues: null };
}

function enumBase(texpr: ql.TypeName): Base {
  const values: string[] = [];
  for (const sub of texpr.subtypes) {
    const value =
      sub.kind === 'TypeName' && sub.subtypes.length === 0 && sub.name.module === null
        ? sub.name.name
        : null;
    if (value === null) {
      return fail(
        InvalidDefinitionError,
        'enum values must be plain names: enum<Red, Green>',
        sub.span,
      );
    }
    if (values.includes(value)) {
      return fail(
        InvalidDefinitionError,
        `enum value '${value}' is listed more than once`,
        sub.span,
      );
    }
    values.push(value);
  }
  if (values.length === 0) {
    return fail(InvalidDefinitionError, 'an enum needs at least one value', texpr.span);
  }
  return { base: 'std::anyenum', stdBase: 'std::str', enumValues: values };
}
