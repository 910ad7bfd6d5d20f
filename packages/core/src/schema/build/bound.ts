/**
 * build/bound: schema expressions bound by the query binder (query/bind), the one expression
 * walker. `bindComputed` and `bindSchemaExpression` type computeds, computed globals and aliases
 * while the schema is built (./computed, against ./draft-index). `checkBoundExpressions` binds,
 * after assembly and against the finished schema, the expressions nothing else depends on:
 * pointer and global defaults, pointer, type and scalar constraints (their `on (...)` subject,
 * `except`, arguments, and a declared abstract constraint's body), index expressions, access
 * policy conditions and function bodies. Binding resolves every name and types every operator
 * and call by the same rules as a query, so a schema error is the error the expression would
 * give in a query (one binder, one std table).
 *
 * Input: the context (for declaration order, modules and constraint arguments) and the assembled
 * `Schema`. Output: nothing; throws the first error found, in declaration order.
 * Modes: `schema` for what the database stores or checks (defaults, constraints, indexes,
 * policies); a function body binds in `query` mode, as it is inlined into queries (it may write),
 * with its parameters bound to typed values. Query parameters are refused in both.
 * Each inherited item is checked once, where it was declared.
 */
import type * as ql from '../../syntax';
import { QueryError, SchemaDefinitionError } from '../../errors';
import type { Binding, IrExpr } from '../../query/ir';
import { AT_MOST_ONE, MANY, ONE } from '../../query/ir';
import { schemaIndex, type SchemaIndex } from '../../query/schema-index';
import { BindContext, rootScope, type BindMode, type Scope } from '../../query/bind/context';
import { bindExpr, bindingRef, pointerStep, subjectScope } from '../../query/bind/expr';
import { isVolatile } from '../../query/bind/scoping';
import { bindableType } from '../../query/bind/types';
import type {
  AbstractConstraint,
  AccessPolicy,
  Constraint,
  Schema,
  TypeRef,
} from '../../model/schema';
import { checkConstraint, type ConstraintSite } from './constraints';
import {
  attempt,
  fail,
  settle,
  type BuildContext,
  type Inferred,
  type ObjectDraft,
  type PointerDraft,
} from './context';
import { scalar, stdBaseOf } from './types';
import { findNode } from './walk';

/** One expression's binder: a context and the scope its names resolve in. */
interface Site {
  readonly ctx: BindContext;
  readonly scope: Scope;
}

function site(index: SchemaIndex, module: string, mode: BindMode = 'schema'): Site {
  return { ctx: new BindContext(index, mode), scope: rootScope(module) };
}

/** Binds `expr` at `at`; a query parameter is refused first (a schema has no request). */
function bind(at: Site, expr: ql.Expr): Inferred {
  const ir = bindIr(at, expr);
  return { type: modelType(ir.type), card: ir.card };
}

function bindIr(at: Site, expr: ql.Expr): IrExpr {
  const param = findNode(expr, (n) => n.kind === 'Parameter');
  if (param) {
    fail(
      QueryError,
      'query parameters are not allowed in schemas',
      param.span,
      'use a global instead',
    );
  }
  return bindExpr(at.ctx, at.scope, expr);
}

/**
 * An IR type as the schema model writes it: a union of object types (`default::A | default::B`
 * to the binder) is a `union`; a free object or `{}` has no type a pointer can have (null).
 */
function modelType(type: IrExpr['type']): TypeRef | null {
  if (type.kind === 'free' || type.kind === 'empty') return null;
  if (type.kind === 'object' && type.name.includes(' | ')) {
    return { kind: 'union', members: type.name.split(' | ') };
  }
  return type;
}

/** A global's computed expression (or any expression with no subject) in `module`. */
export function bindSchemaExpression(index: SchemaIndex, module: string, expr: ql.Expr): Inferred {
  return bind(site(index, module), expr);
}

/**
 * A computed pointer's expression: `.x`, `__subject__` and `__source__` are an object of the
 * declaring type; a link property's read the link's target (`@count * .cost`), `@x` the link's
 * properties and `__source__` (bound by name) the object the link starts from.
 */
export function bindComputed(index: SchemaIndex, p: PointerDraft): Inferred {
  const at = objectSite(index, p.module, p.home);
  if (p.ownerLink === null) return bind(at, p.computed as ql.Expr);
  // One object, as the subject is.
  const source: Binding = {
    id: at.ctx.freshId(),
    name: '__source__',
    expr: at.object,
    iteration: true,
  };
  const names = new Map(at.scope.names).set('__source__', source);
  const link = index.objectType(p.home)?.pointers.get(p.ownerLink.name);
  const base = { ...rootScope(p.module), names };
  if (!link) return bind({ ...at, scope: base }, p.computed as ql.Expr);
  const step = pointerStep(at.ctx, at.scope, at.object, `__subject__:${p.home}`, p.home, link);
  // The link starts from one object (`@source`).
  const from = { ...base, singletons: new Set([...at.scope.singletons]) };
  const scope =
    link.target.kind === 'object'
      ? subjectScope(from, step, step)
      : { ...from, link: { ...step, card: ONE } as IrExpr };
  return bind({ ...at, scope }, p.computed as ql.Expr);
}

/** A typed value bound to `name` (a scalar constraint's `__subject__`, a function parameter). */
function valueBinding(at: Site, name: string, declared: TypeRef, optional: boolean): IrExpr {
  const type = bindableType(at.ctx.index, declared);
  const binding: Binding = {
    id: at.ctx.freshId(),
    name,
    expr: { kind: 'SetLiteral', type, card: optional ? AT_MOST_ONE : ONE, elements: [] },
    iteration: false,
  };
  return { ...bindingRef(binding), card: optional ? AT_MOST_ONE : ONE };
}

/** `.x` and `__subject__` meaning one object of `type`. */
function objectSite(index: SchemaIndex, module: string, type: string): Site & { object: IrExpr } {
  const at = site(index, module);
  const object: IrExpr = {
    kind: 'TypeRoot',
    type: { kind: 'object', name: type },
    card: MANY,
    objectType: type,
    pathId: `__subject__:${type}`,
  };
  return { ...at, scope: subjectScope(at.scope, object, null), object };
}

/**
 * A pointer's constraint: `__subject__` is the pointer of one object of its type (a link's
 * constraint also sees the link's properties, `@x`); a link property's is its value, with `@x`
 * the link's other properties.
 */
function pointerSite(index: SchemaIndex, p: PointerDraft): Site {
  const owner = p.ownerLink ?? p;
  const at = objectSite(index, p.module, p.home);
  const info = index.objectType(p.home)?.pointers.get(owner.name);
  if (!info) return at;
  const step = pointerStep(at.ctx, at.scope, at.object, `__subject__:${p.home}`, p.home, info);
  if (p.ownerLink === null) {
    return { ...at, scope: subjectScope(at.scope, step, p.kind === 'link' ? step : null) };
  }
  const value = valueBinding(at, '__subject__', p.target as TypeRef, false);
  return { ...at, scope: { ...subjectScope(at.scope, value, null), link: { ...step, card: ONE } } };
}

export function checkBoundExpressions(ctx: BuildContext, schema: Schema): void {
  const index = schemaIndex(schema);
  const seen = new Set<PointerDraft>();
  for (const draft of ctx.objectTypes.values()) {
    for (const p of draft.pointers) attempt(ctx, () => checkPointer(ctx, index, p, seen));
    checkTypeMembers(ctx, index, draft);
  }
  for (const g of ctx.globals.values()) {
    if (g.default !== null) attempt(ctx, () => bind(site(index, g.module), g.default as ql.Expr));
  }
  checkScalarConstraints(ctx, index, schema);
  checkFunctionBodies(ctx, index);
  settle(ctx);
}

function checkPointer(
  ctx: BuildContext,
  index: SchemaIndex,
  p: PointerDraft,
  seen: Set<PointerDraft>,
): void {
  if (seen.has(p)) return;
  seen.add(p);
  if (p.default !== null) bind(site(index, p.module), p.default);
  for (const c of p.constraints) {
    if (c.span === null || c.declaredIn !== p.home) continue;
    const value: Inferred = { type: p.target, card: ONE };
    checkOne(ctx, index, c, 'pointer', `${p.home}.${p.name}`, value, pointerSite(index, p));
  }
  for (const lp of p.properties) checkPointer(ctx, index, lp, seen);
}

function checkOne(
  ctx: BuildContext,
  index: SchemaIndex,
  c: Constraint,
  where: ConstraintSite,
  owner: string,
  subject: Inferred,
  at: Site,
): void {
  let type: TypeRef | null = subject.type;
  const on = c.subjectExpr === null ? null : bindIr(at, c.subjectExpr);
  if (on !== null) type = modelType(on.type);
  if (c.except !== null) bind(at, c.except);
  const args = c.args.map((a) => bindIr({ ...at, scope: rootScope(at.scope.module) }, a));
  const typed = args.map((a) => ({ type: modelType(a.type), card: a.card }));
  checkConstraint(c, where, owner, type, typed, ctx);
  const abstract = index.schema.constraints.find((a) => a.name === c.name);
  if (abstract) checkAbstractBody(at, abstract, on, args);
}

/**
 * A declared abstract constraint's body, where it is used (as Gel compiles it for each concrete
 * constraint, and as storage compiles it): `__subject__` the concrete subject (its `on (...)`
 * expression, if any), each parameter the argument given for it, names in the constraint's
 * module. Its parameters may be generic (`array<anytype>`), so the body has no type of its own.
 */
function checkAbstractBody(
  at: Site,
  abstract: AbstractConstraint,
  on: IrExpr | null,
  args: readonly IrExpr[],
): void {
  const names = new Map(at.scope.names);
  abstract.params.forEach((p, i) => {
    const value = args[i];
    if (value === undefined) return;
    names.set(p.name, {
      id: at.ctx.freshId(),
      name: p.name,
      expr: value,
      iteration: false,
      transparent: true,
    });
  });
  const module = abstract.name.slice(0, abstract.name.lastIndexOf('::'));
  const scope = on === null ? at.scope : { ...at.scope, subject: { ...on, card: ONE } as IrExpr };
  bind({ ...at, scope: { ...scope, module, names } }, abstract.expr);
}

function checkTypeMembers(ctx: BuildContext, index: SchemaIndex, draft: ObjectDraft): void {
  const self: Inferred = { type: { kind: 'object', name: draft.name }, card: ONE };
  const at = () => objectSite(index, draft.module, draft.name);
  for (const c of draft.constraints) {
    if (c.declaredIn !== draft.name) continue;
    attempt(ctx, () => checkOne(ctx, index, c, 'object', draft.name, self, at()));
  }
  for (const ix of draft.indexes) {
    if (ix.declaredIn !== draft.name) continue;
    attempt(ctx, () => {
      const here = at();
      bind(here, ix.expr);
      if (ix.except) bind(here, ix.except);
    });
  }
  for (const policy of draft.policies) {
    if (policy.declaredIn !== draft.name) continue;
    attempt(ctx, () => checkPolicy(ctx, draft, policy, at));
  }
}

/** A policy's `when` and `using`: each one bool per object, the same each time it is asked. */
function checkPolicy(
  ctx: BuildContext,
  draft: ObjectDraft,
  policy: AccessPolicy,
  at: () => Site,
): void {
  for (const [what, expr] of [
    ['when', policy.when],
    ['using', policy.using],
  ] as const) {
    if (!expr) continue;
    const ir = bindIr(at(), expr);
    const t = modelType(ir.type);
    // Gel's rules: one bool per object, computed the same way each time it is asked.
    const of = `${what} expression for the access policy '${policy.name}' of object type '${draft.name}'`;
    if (t && !(t.kind === 'scalar' && stdBaseOf(ctx.scalars, t.name) === 'std::bool')) {
      fail(
        SchemaDefinitionError,
        `${what} expression of access policy '${policy.name}' must be a bool`,
        expr.span,
      );
    }
    if (ir.card.min === 0) {
      fail(
        SchemaDefinitionError,
        `possibly an empty set returned by ${of}`,
        expr.span,
        'use `?=`, `??` or `exists` so the expression has a value for every object (an empty global or link is no value)',
      );
    }
    if (ir.card.max === 'many') {
      fail(
        SchemaDefinitionError,
        `possibly more than one element returned by ${of}`,
        expr.span,
        'use `in`, `exists` or an aggregate (`any`, `all`, `count`) over a set',
      );
    }
    if (isVolatile(ir)) {
      fail(
        SchemaDefinitionError,
        `the access policy '${policy.name}' of object type '${draft.name}' has a volatile ${what} expression, which is not allowed`,
        expr.span,
      );
    }
  }
}

function checkScalarConstraints(ctx: BuildContext, index: SchemaIndex, schema: Schema): void {
  for (const [name, decl] of ctx.scalarDecls) {
    const built = schema.scalarTypes.find((s) => s.name === name);
    if (!built) continue;
    const self: Inferred = { type: scalar(name), card: ONE };
    for (const c of built.constraints)
      attempt(ctx, () => {
        const at = site(index, decl.module);
        const value = valueBinding(at, '__subject__', scalar(name), false);
        const here = { ...at, scope: subjectScope(at.scope, value, null) };
        checkOne(ctx, index, c, 'scalar', name, self, here);
      });
  }
}

/** Every body with its parameters bound to values of their types (the call graph is checked before). */
function checkFunctionBodies(ctx: BuildContext, index: SchemaIndex): void {
  for (const overloads of ctx.functions.values()) {
    for (const fn of overloads)
      attempt(ctx, () => {
        for (const p of fn.params) if (p.default) bind(site(index, fn.module), p.default);
        const at = site(index, fn.module, 'query');
        const names = new Map(at.scope.names);
        for (const p of fn.params) {
          const value = valueBinding(at, p.name, p.type, p.typeModifier === 'optional');
          if (value.kind === 'BindingRef') names.set(p.name, value.binding);
        }
        bind({ ...at, scope: { ...at.scope, names } }, fn.body);
      });
  }
}
