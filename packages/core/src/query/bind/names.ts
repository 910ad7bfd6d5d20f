/**
 * bind/names: names and scopes. A name (`User`, a `with` alias, a `for` variable, a schema
 * alias, a global, `introspect T`) becomes a type root or a binding reference; a path bound to one
 * element in the scope (an enclosing subject) has cardinality one there.
 *
 * Path ids: a type root is known by its name (`default::User`) with the scope's namespace
 * appended (`detached` makes a different set), a binding reference by `@<id>`. Every path that
 * yields objects has an id; expressions that yield objects without one are given a binding
 * (`withPathId`) so shapes and partial paths can refer to their elements.
 */
import * as ql from '../../syntax';
import {
  InvalidDefinitionError,
  InvalidReferenceError,
  QueryError,
  UnsupportedFeatureError,
} from '../../errors';
import { printTypeRef, type TypeRef } from '../../model/schema';
import { callerGlobal } from '../../std/caller';
import {
  AT_MOST_ONE,
  MANY,
  ONE,
  type Binding,
  type BindingRef,
  type IrExpr,
  pathIdOf,
} from '../ir';
import { typeId } from '../schema-index';
import { catalogueRows, catalogueTypeName, catalogueTypeOf } from '../schema-index/catalogue';
import { type BindContext, closest, fail, unknownName, type Scope } from './context';
import { lookupSchemaName, resolveTypeExpr, asTypeRef, typeNameHint } from './types';
import { isMaterialized, occurrenceId, withSubjectRoot } from './scoping';
import { bindExpr } from './dispatch';
import { computedStepKey, subjectComputedSteps } from './factoring';
import { isBareBacklink } from './links';

/** A path bound to one element in this scope (an enclosing subject) has cardinality one. */
export function inScope(scope: Scope, expr: IrExpr): IrExpr {
  const id = pathIdOf(expr);
  // A computed step is looked up by its source and name too (bind/factoring `computedStepKey`).
  const key = computedStepKey(expr);
  const aliased =
    id !== null && expr.kind !== 'Shape'
      ? (scope.pathAliases.get(id) ?? (key !== null ? scope.pathAliases.get(key) : undefined))
      : undefined;
  if (aliased) return aliased;
  return id !== null && expr.kind !== 'Shape' && scope.singletons.has(id)
    ? { ...expr, card: ONE }
    : expr;
}

/** The scope inside a shape or a statement over `subject`: `.x` starts from one element of it. */
export function subjectScope(scope: Scope, subject: IrExpr, link: IrExpr | null): Scope {
  const id = pathIdOf(subject) as string;
  const computedSteps = subjectComputedSteps(subject);
  return {
    ...withSubjectRoot(scope, subject),
    // The subject's computed steps named again inside (`n := Card.owners.name` in `Card.owners
    // { ... }`) are the subject's element, as a stored path is (bind/factoring).
    ...(computedSteps.length
      ? { pathAliases: new Map([...scope.pathAliases, ...computedSteps]) }
      : {}),
    subject: { ...subject, card: ONE } as IrExpr,
    link: link ? ({ ...link, card: ONE } as IrExpr) : null,
    singletons: new Set([
      ...scope.singletons,
      id,
      ...narrowedFrom(subject),
      ...tuplePrefixIds(subject),
    ]),
  };
}

/**
 * The paths a narrowed subject (`Object[is A]`) was narrowed from: the same object, so one
 * element wherever the subject is (`Object[is A] { a := Object is B }`).
 */
function narrowedFrom(subject: IrExpr): string[] {
  const out: string[] = [];
  for (let e = subject; e.kind === 'Intersection'; e = e.source) {
    const id = pathIdOf(e.source);
    if (id !== null) out.push(id);
  }
  return out;
}

/**
 * The tuples an element of `expr` is an element of (`tup` for `tup.1`): one element of `tup.1`
 * comes from one `tup`, so inside a shape on it `tup.0` is a single value too (Gel's prefixes).
 */
function tuplePrefixIds(expr: IrExpr): string[] {
  const e = expr.kind === 'BindingRef' && expr.binding.transparent ? expr.binding.expr : expr;
  if (e.kind !== 'TupleElement') return [];
  const id = pathIdOf(e.tuple);
  return id === null ? [] : [id, ...tuplePrefixIds(e.tuple)];
}

export function bindName(ctx: BindContext, scope: Scope, ref: ql.ObjectRef): IrExpr {
  return inScope(scope, bindNameRaw(ctx, scope, ref));
}

function bindNameRaw(ctx: BindContext, scope: Scope, ref: ql.ObjectRef): IrExpr {
  if (ref.module === null) {
    const binding = scope.names.get(ref.name);
    if (binding) {
      const ref_ = bindingRef(binding);
      // A `for` variable is always its iteration; any other name is a set of its own at each
      // use, except where an enclosing shape or statement has it as its subject (bind/scoping).
      if (binding.iteration || scope.singletons.has(ref_.pathId)) return inScope(scope, ref_);
      const key = `${ref_.pathId}${scope.namespace}`;
      if (isMaterialized(binding)) return inScope(scope, { ...ref_, pathId: key });
      const aliased = scope.pathAliases.get(key);
      if (aliased) return aliased;
      return inScope(scope, { ...ref_, pathId: occurrenceId(ctx, scope, key) });
    }
  }
  const found = lookupSchemaName(ctx.index, scope, ref);
  if (found?.kind === 'object') {
    if (ctx.mode === 'ddl') {
      return fail(
        InvalidDefinitionError,
        `a schema default, check or index cannot read object type '${found.name}'`,
        ref.span,
        'PostgreSQL defaults, CHECKs and indexes see only the row',
      );
    }
    const aliased = scope.pathAliases.get(found.name);
    if (aliased) return aliased;
    if (scope.inserting === found.name) {
      return fail(
        QueryError,
        `invalid reference to ${found.name}: self-referencing INSERTs are not allowed`,
        ref.span,
        `use DETACHED if you meant to refer to an uncorrelated ${found.name} set`,
      );
    }
    // An enclosing subject is the same set wherever it is named (`User` inside `User { ... }`);
    // elsewhere each occurrence is a set of its own (bind/scoping).
    const key = found.name + scope.namespace;
    return {
      kind: 'TypeRoot',
      type: { kind: 'object', name: found.name },
      card: MANY,
      objectType: found.name,
      pathId: scope.singletons.has(found.name) ? key : occurrenceId(ctx, scope, key),
    };
  }
  if (found?.kind === 'alias') {
    const alias = ctx.index.alias(found.name);
    if (alias) {
      const module = found.name.slice(0, found.name.lastIndexOf('::'));
      const expr = ctx.aliasExpr(found.name, () =>
        bindExpr(ctx, { ...rootScopeLike(scope), module }, alias.expr),
      );
      const binding: Binding = { id: ctx.freshId(), name: found.name, expr, iteration: false };
      const key = `alias:${found.name}${scope.namespace}`;
      const aliased = scope.pathAliases.get(key);
      if (aliased) return aliased;
      return inScope(scope, { ...bindingRef(binding), pathId: occurrenceId(ctx, scope, key) });
    }
  }
  if (found?.kind === 'scalar') {
    return fail(InvalidReferenceError, `'${found.name}' is a scalar type, not a set`, ref.span);
  }
  const shown = ref.module ? `${ref.module}::${ref.name}` : ref.name;
  const names = [...scope.names.keys()];
  const near = closest(ref.name, names);
  return unknownName(
    'object type or alias',
    shown,
    ref.span,
    (ref.module === null && near !== null ? `did you mean '${near}'?` : undefined) ??
      typeNameHint(ctx.index, scope, ref) ??
      (names.length ? `in scope: ${names.join(', ')}` : undefined),
  );
}

export function rootScopeLike(scope: Scope): Scope {
  return {
    ...scope,
    names: new Map(),
    subject: null,
    link: null,
    moduleAliases: new Map(),
    singletons: new Set(),
    pathAliases: new Map(),
    roots: new Map(),
  };
}

export function bindingRef(binding: Binding): BindingRef {
  // A `for optional` variable is empty in the one iteration over an empty iterator.
  const card = binding.iteration
    ? { min: binding.optional ? (0 as const) : (1 as const), max: 1 as const }
    : binding.expr.card;
  return {
    kind: 'BindingRef',
    type: binding.expr.type,
    card,
    binding,
    pathId: `@${binding.id}`,
  };
}

/** A fresh path id for the same element as `expr` (planned in place: the same row). */
export function transparentRef(ctx: BindContext, expr: IrExpr): BindingRef {
  const binding: Binding = {
    id: ctx.freshId(),
    name: '(source)',
    expr,
    iteration: false,
    transparent: true,
  };
  return { ...bindingRef(binding), card: expr.card };
}

/** `expr` itself when it has a path id; else a reference to a fresh binding of it. */
export function withPathId(ctx: BindContext, _scope: Scope, expr: IrExpr): IrExpr {
  if (pathIdOf(expr) !== null) return expr;
  const binding: Binding = {
    id: ctx.freshId(),
    name: '(subject)',
    expr,
    iteration: false,
    transparent: true,
  };
  return bindingRef(binding);
}

/**
 * A global the caller's credentials provide (`current_user_id`, ...: std/caller): an `auth`
 * parameter the engine fills from the request's auth context, read in queries, computeds,
 * defaults and policies alike. PostgreSQL defaults, checks and indexes cannot read it.
 */
function bindCallerGlobal(ctx: BindContext, node: ql.GlobalRef): IrExpr | null {
  const global = callerGlobal(node.name.module, node.name.name);
  if (global === undefined) return null;
  if (ctx.mode === 'ddl') {
    return fail(
      InvalidDefinitionError,
      `global ${node.name.name} cannot be read here`,
      node.span,
      "the caller's globals are per-request values; PostgreSQL defaults, checks and indexes cannot see them",
    );
  }
  const slot = ctx.param('auth', global.param, global.type, global.required, node.span);
  return {
    kind: 'Param',
    type: global.type,
    card: global.required ? ONE : AT_MOST_ONE,
    index: slot.index,
    source: 'auth',
    name: global.param,
  };
}

export function bindGlobal(ctx: BindContext, scope: Scope, node: ql.GlobalRef): IrExpr {
  const candidates = node.name.module
    ? [`${node.name.module}::${node.name.name}`]
    : [`${scope.module}::${node.name.name}`, `default::${node.name.name}`];
  const global = candidates.map((n) => ctx.index.global(n)).find((g) => g !== undefined);
  if (!global) {
    return (
      bindCallerGlobal(ctx, node) ??
      unknownName('global', candidates[0] as string, node.name.span ?? node.span)
    );
  }
  if (global.computed) return bindExpr(ctx, rootScopeLike(scope), global.computed);
  // A schema expression reads a global as a query does (a policy's `global current_user`).
  if (ctx.mode === 'ddl') {
    return fail(
      InvalidDefinitionError,
      `global ${global.name} cannot be read here`,
      node.span,
      'globals are per-request values; PostgreSQL defaults, checks and indexes cannot see them',
    );
  }
  // A global the request leaves out takes its default; one it sets to null is empty, as Gel's
  // `set global x := {}` (the engine refuses null for a required global).
  const slot = ctx.param('global', global.name, global.target, global.required, node.span);
  const fallback = global.default ? bindExpr(ctx, rootScopeLike(scope), global.default) : null;
  return {
    kind: 'Param',
    type: global.target,
    card: { min: global.required && fallback && fallback.card.min === 1 ? 1 : 0, max: 1 },
    index: slot.index,
    source: 'global',
    name: global.name,
    ...(fallback ? { fallback } : {}),
  };
}

/**
 * `introspect T` / `introspect typeof e`: the type's row of the schema catalogue (its
 * `schema::ObjectType`, `schema::ScalarType`, `schema::Array`, ... by its stable id). `typeof e`
 * is the static type of `e`, which is bound but never evaluated.
 */
export function bindIntrospect(
  ctx: BindContext,
  scope: Scope,
  node: Extract<ql.Expr, { kind: 'Introspect' }>,
): IrExpr {
  let type: TypeRef;
  if (node.type.kind === 'TypeOf') {
    const expr = bindExpr(ctx, scope, node.type.expr);
    // A backlink not narrowed to a type reaches objects of any type with a link of that name:
    // Gel's opaque union, which introspects as std::BaseObject.
    type = isBareBacklink(expr)
      ? { kind: 'object', name: 'std::BaseObject' }
      : asTypeRef(expr.type, node.type.span);
  } else type = resolveTypeExpr(ctx.index, scope, node.type);
  // As Gel: a collection's type (an array, a tuple, a range) is no schema object to introspect.
  if (type.kind !== 'scalar' && type.kind !== 'object' && type.kind !== 'union') {
    return fail(QueryError, 'cannot introspect collection types', node.type.span ?? node.span);
  }
  const row = catalogueTypeOf(type);
  const id = typeId(catalogueTypeName(type));
  if (
    !catalogueRows(ctx.index, typeId, [])
      .rows.get(row)
      ?.some((r) => r.id === id)
  ) {
    return fail(
      UnsupportedFeatureError,
      `\`introspect\` of ${printTypeRef(type)}: the schema catalogue has only the types the schema uses`,
      node.span,
    );
  }
  const query = ql.parseExpression(`(select ${row} filter .id = <uuid>'${id}' limit 1)`);
  // The catalogue has exactly one row with this id.
  return { ...bindExpr(ctx, rootScopeLike(scope), query), card: ONE };
}
