/**
 * build/infer: a small, honest type and cardinality inference over schema expressions
 * (computeds, defaults, constraint and index expressions, policies, function bodies).
 *
 * Input: an expression and a `Scope` (the module names resolve in, what a partial path `.x` and
 * `__subject__` mean, bound variables). Output: `Inferred` — the result type (null when it cannot
 * be told, e.g. `{}`) and bounds on how many values it yields. Every name met on the way is
 * resolved, so this is also where "unknown name in an expression" errors come from.
 * Cardinality is conservative (item 14): a bound is tightened only where the rule is certain —
 * a single pointer, an aggregate, `assert_single`, `limit 1`, a filter on `.id` or on an
 * exclusive pointer compared with a single value. Everything else "may be many".
 * Invariant: pure apart from memoising computeds, aliases and globals in the context.
 */
import { isSchemaModuleType } from '../introspection';
import { printTypeRef, ROOT_OBJECT_TYPES, targetObjectTypes } from '../model';
import type * as ql from '../../syntax';
import { InvalidDefinitionError, InvalidReferenceError, QueryError } from '../../errors';
import type { TypeRef } from '../model';
import {
  AT_MOST_ONE,
  EMPTY,
  MANY,
  ONE,
  fail,
  type BuildContext,
  type Card,
  type Inferred,
  type ObjectDraft,
  type PointerDraft,
} from './context';
import {
  candidates,
  commonAncestor,
  hintFor,
  lookupType,
  resolveType,
  unionOf,
  unknownType,
} from './resolve';
import { BUILTIN_GLOBALS } from './stdlib';
import {
  commonType,
  isStdFunction,
  resolveFunction as resolveStdFunction,
  resolveCast,
  resolveOperator,
  stdFunctionNames,
  type CallArg,
  type TypeEnv,
} from '../../std';
import {
  BOOL,
  BYTES,
  FLOAT64,
  containsObject,
  INT64,
  STR,
  objectRef,
  scalar,
  stdBaseOf,
} from './types';
import { finishComputed, finishGlobal } from './computed';
import { idPointer } from './pointers';
import { BUILTIN_ENUMS } from '../fts';

export interface Scope {
  readonly module: string;
  /** What `.x` and `__subject__` refer to; null where a partial path makes no sense. */
  readonly subject: Inferred | null;
  readonly source: Inferred | null;
  /** The link whose properties `@x` reads. */
  readonly link: PointerDraft | null;
  readonly vars: ReadonlyMap<string, Inferred>;
  /** Told about every call of an SDL function (the recursion check of item 6). */
  readonly onCall?: (name: string, call: ql.FunctionCall) => void;
}

export function rootScope(module: string, subject: Inferred | null = null): Scope {
  return { module, subject, source: null, link: null, vars: new Map() };
}

// ---------------------------------------------------------------------------------------------
// Cardinality arithmetic

const maxOf = (a: Card['max'], b: Card['max']): Card['max'] =>
  a === 'many' || b === 'many' ? 'many' : a === 1 || b === 1 ? 1 : 0;

/** One result per combination of inputs (a path step, an element-wise operator). */
export function product(a: Card, b: Card): Card {
  const max = a.max === 0 || b.max === 0 ? 0 : a.max === 'many' || b.max === 'many' ? 'many' : 1;
  return { min: a.min === 1 && b.min === 1 ? 1 : 0, max };
}

function unionCard(a: Card, b: Card): Card {
  const max = a.max === 0 ? b.max : b.max === 0 ? a.max : 'many';
  return { min: a.min === 1 || b.min === 1 ? 1 : 0, max };
}

const optional = (c: Card): Card => ({ min: 0, max: c.max });
const atMostOne = (c: Card): Card => ({ min: c.min, max: c.max === 'many' ? 1 : c.max });

// ---------------------------------------------------------------------------------------------
// Pointers

export function pointerCard(p: PointerDraft): Card {
  return { min: p.required ? 1 : 0, max: p.cardinality === 'many' ? 'many' : 1 };
}

function objectDraft(ctx: BuildContext, name: string): ObjectDraft {
  return ctx.objectTypes.get(name) as ObjectDraft;
}

/** The pointers of an object type (of a root: `id` alone). */
function pointersOf(ctx: BuildContext, type: string): readonly PointerDraft[] {
  // A schema-module type's pointers are the query compiler's (schema inference sees its `id`).
  const root = (ROOT_OBJECT_TYPES as readonly string[]).includes(type) || isSchemaModuleType(type);
  return root ? [idPointer(type, 'std')] : objectDraft(ctx, type).pointers;
}

/** The pointer `name` of object type `type`, its computed inferred first. */
export function pointerOf(ctx: BuildContext, type: string, step: ql.Ptr): PointerDraft {
  const pointers = pointersOf(ctx, type);
  const pointer = pointers.find((p) => p.name === step.name);
  if (!pointer) {
    return fail(
      InvalidReferenceError,
      `object type '${type}' has no link or property '${step.name}'`,
      step.span,
      hintFor(
        step.name,
        pointers.map((p) => p.name),
      ),
    );
  }
  if (pointer.inference !== 'done') finishComputed(ctx, pointer);
  return pointer;
}

/**
 * The pointer `name` read through a link target: every member of a union must have it (with the
 * same kind); the result's type is the union of the members' object targets, or the first
 * member's target for a property.
 */
function pointerThrough(ctx: BuildContext, type: TypeRef, step: ql.Ptr): PointerDraft {
  const [first, ...rest] = targetObjectTypes(type).map((t) => pointerOf(ctx, t, step));
  const pointer = first as PointerDraft;
  if (rest.length === 0 || pointer.kind !== 'link') return pointer;
  const targets = [pointer, ...rest].flatMap((p) => (p.target ? targetObjectTypes(p.target) : []));
  return { ...pointer, target: unionOf(ctx, targets) };
}

/**
 * `@name` on `link`: one of its properties, or (unless a property shadows them) `@source`, the
 * object the link starts from, and `@target`, the object it reaches.
 */
function linkProperty(ctx: BuildContext, link: PointerDraft | null, step: ql.Ptr): Inferred {
  const prop = link?.properties.find((p) => p.name === step.name);
  if (link && !prop && step.name === 'source') return { type: objectRef(link.home), card: ONE };
  if (link && !prop && step.name === 'target') return { type: link.target, card: ONE };
  if (!link || !prop) {
    return fail(
      InvalidReferenceError,
      link
        ? `link '${link.name}' has no property '${step.name}'`
        : `'@${step.name}' is used outside of a link`,
      step.span,
      link
        ? hintFor(
            step.name,
            link.properties.map((p) => p.name),
          )
        : undefined,
    );
  }
  if (prop.inference !== 'done') finishComputed(ctx, prop);
  return { type: prop.target, card: pointerCard(prop) };
}

/** `.<name`: every type with a link `name`; the source type is their common base. */
function backlink(ctx: BuildContext, step: ql.Ptr, next: ql.PathStep | undefined): TypeRef {
  const sources = [...ctx.objectTypes.values()]
    .filter((t) => t.pointers.some((p) => p.name === step.name && p.kind === 'link'))
    .map((t) => t.pointers.find((p) => p.name === step.name)?.declaredIn as string);
  if (sources.length === 0) {
    return fail(InvalidReferenceError, `no object type has a link '${step.name}'`, step.span);
  }
  if (next?.kind === 'TypeIntersection') return objectRef(sources[0] as string);
  return unionOf(ctx, sources);
}

/**
 * `.<name` (from types related to `only`, if given) comes through one link with an exclusive
 * constraint: each target has at most one source.
 */
function exclusiveBacklink(ctx: BuildContext, name: string, only: string | null): boolean {
  const related = (t: string): boolean =>
    only === null ||
    t === only ||
    (ctx.objectTypes.get(t)?.ancestors.includes(only) ?? false) ||
    (ctx.objectTypes.get(only)?.ancestors.includes(t) ?? false);
  const links = new Map<string, PointerDraft>();
  for (const t of ctx.objectTypes.values()) {
    for (const p of t.pointers) {
      if (p.name === name && p.kind === 'link' && related(p.declaredIn)) links.set(p.declaredIn, p);
    }
  }
  const [link, ...rest] = links.values();
  return (
    link !== undefined &&
    rest.length === 0 &&
    link.constraints.some(
      (c) => c.name === 'std::exclusive' && c.subjectExpr === null && c.except === null,
    )
  );
}

// ---------------------------------------------------------------------------------------------
// Expressions

type Handler<K extends ql.Expr['kind']> = (
  ctx: BuildContext,
  expr: ql.NodeOf<K>,
  scope: Scope,
) => Inferred;

export function infer(ctx: BuildContext, expr: ql.Expr, scope: Scope): Inferred {
  const handler = HANDLERS[expr.kind] as Handler<typeof expr.kind>;
  return handler(ctx, expr as never, scope);
}

const constantType: Record<ql.ConstantScalar, TypeRef> = {
  str: STR,
  int64: INT64,
  float64: FLOAT64,
  bigint: scalar('std::bigint'),
  decimal: scalar('std::decimal'),
  bool: BOOL,
};

const typeEnvs = new WeakMap<BuildContext, TypeEnv>();

/** Custom scalars, enums and object ancestry of this schema, as std's resolver sees them. */
function typeEnv(ctx: BuildContext): TypeEnv {
  let env = typeEnvs.get(ctx);
  if (!env) {
    env = {
      stdBase: (name) => stdBaseOf(ctx.scalars, name),
      enumValues: (name) => ctx.scalars.get(name)?.enumValues ?? null,
      commonObject: (a, b) => commonAncestor(ctx, a, b),
    };
    typeEnvs.set(ctx, env);
  }
  return env;
}

/**
 * The type several values share (a union, `??`, `if/else`, a set or array literal): std's common
 * type (`{1, 2.5}` is float64); the first known type when they have none (`{}` is untyped).
 */
function commonOf(ctx: BuildContext, types: readonly (TypeRef | null)[]): TypeRef | null {
  const known = types.filter((t): t is TypeRef => t !== null);
  if (known.length === 0) return null;
  return commonType(known, typeEnv(ctx)) ?? (known[0] as TypeRef);
}

const positionOf = (span: ql.Span | null | undefined) =>
  span ? { line: span.start.line, column: span.start.column } : undefined;

/** An operator over inferred operands, typed by the std table (the result type, or an error). */
function operatorType(
  ctx: BuildContext,
  op: string,
  operands: readonly Inferred[],
  span: ql.Span | null | undefined,
): TypeRef | null {
  return resolveOperator(
    op,
    operands.map((o) => ({ type: o.type })),
    { env: typeEnv(ctx), position: positionOf(span) },
  ).returnType;
}

function bindAliases(ctx: BuildContext, items: readonly ql.WithItem[], scope: Scope): Scope {
  let current = scope;
  for (const item of items) {
    if (item.kind === 'ModuleAlias') {
      if (item.alias === null) current = { ...current, module: item.module };
      continue;
    }
    const value = infer(ctx, item.expr, current);
    current = { ...current, vars: new Map([...current.vars, [item.alias, value]]) };
  }
  return current;
}

const withSubject = (scope: Scope, subject: Inferred | null): Scope => ({
  ...scope,
  subject: subject && { type: subject.type, card: ONE },
});

/** `.id = x` or `.exclusive_ptr = x` with a single `x`, possibly inside `and`. */
function uniqueFilter(
  ctx: BuildContext,
  filter: ql.Expr,
  subject: TypeRef | null,
  scope: Scope,
): boolean {
  if (subject?.kind !== 'object') return false;
  if (filter.kind !== 'BinOp') return false;
  if (filter.op === 'and') {
    return (
      uniqueFilter(ctx, filter.left, subject, scope) ||
      uniqueFilter(ctx, filter.right, subject, scope)
    );
  }
  if (filter.op !== '=') return false;
  const sides: [ql.Expr, ql.Expr][] = [
    [filter.left, filter.right],
    [filter.right, filter.left],
  ];
  return sides.some(([path, value]) => {
    const name = singleStep(path);
    if (name === null) return false;
    const draft = ctx.objectTypes.get(subject.name);
    if (!draft) return name === 'id';
    const pointer = draft.pointers.find((p) => p.name === name);
    if (!pointer || pointer.cardinality !== 'one') return false;
    const exclusive =
      pointer.constraints.some(
        (c) => c.name === 'std::exclusive' && c.subjectExpr === null && c.except === null,
      ) ||
      draft.constraints.some(
        (c) =>
          c.name === 'std::exclusive' &&
          c.except === null &&
          c.subjectExpr !== null &&
          singleStep(c.subjectExpr) === name,
      );
    return exclusive && infer(ctx, value, scope).card.max !== 'many';
  });
}

/** `.name` (a partial path of one pointer step) → `name`. */
function singleStep(expr: ql.Expr): string | null {
  if (expr.kind !== 'Path' || expr.subject !== null || expr.steps.length !== 1) return null;
  const step = expr.steps[0];
  return step?.kind === 'Ptr' && step.via === '.' ? step.name : null;
}

function limitCard(card: Card, limit: ql.Expr | null): Card {
  if (!limit) return card;
  if (limit.kind === 'Constant' && limit.scalar === 'int64') {
    if (limit.value === '0') return EMPTY;
    if (limit.value === '1') return optional(atMostOne(card));
  }
  return optional(card);
}

function inferShape(
  ctx: BuildContext,
  type: TypeRef | null,
  link: PointerDraft | null,
  elements: readonly ql.ShapeElement[],
  scope: Scope,
): void {
  for (const element of elements) {
    let current = type;
    let currentLink = link;
    let pointer: PointerDraft | null = null;
    let inner: TypeRef | null = null;
    for (const step of element.path) {
      if (step.kind === 'Splat') continue;
      if (step.kind === 'TypeIntersection') {
        current = resolveType(ctx, step.type, scope.module, {
          nestedArray: InvalidDefinitionError,
        });
        continue;
      }
      if (element.compExpr !== null) break;
      if (step.via === '@') {
        pointer = null;
        inner = linkProperty(ctx, currentLink, step).type;
      } else if (current?.kind === 'object' || current?.kind === 'union') {
        pointer = pointerThrough(ctx, current, step);
        inner = pointer.target;
      } else {
        break;
      }
    }
    const elementScope = withSubject(scope, type ? { type, card: ONE } : null);
    if (element.compExpr !== null)
      infer(ctx, element.compExpr, { ...elementScope, link: currentLink });
    currentLink = pointer?.kind === 'link' ? pointer : null;
    const innerScope = withSubject(scope, inner ? { type: inner, card: ONE } : null);
    if (element.filter) infer(ctx, element.filter, innerScope);
    for (const sort of element.orderBy) infer(ctx, sort.expr, innerScope);
    if (element.elements) inferShape(ctx, inner, currentLink, element.elements, scope);
  }
}

/**
 * `Color.Red`: a path whose subject names an enum scalar and whose first step is one of its
 * values is that enum's literal, not a path (EdgeQL's enum member access).
 */
function enumMember(ctx: BuildContext, path: ql.Path, scope: Scope): Inferred | null {
  const first = path.steps[0];
  if (path.subject?.kind !== 'ObjectRef' || first?.kind !== 'Ptr' || first.via !== '.') return null;
  if (path.subject.module === null && scope.vars.has(path.subject.name)) return null;
  const found = lookupType(ctx, path.subject, scope.module);
  if (found?.kind !== 'scalar') return null;
  const values = ctx.scalars.get(found.name)?.enumValues ?? BUILTIN_ENUMS[found.name];
  if (!values) return null;
  if (!values.includes(first.name)) {
    return fail(
      InvalidReferenceError,
      `'${first.name}' is not a member of the enum '${found.name}'`,
      first.span,
      `its members are ${values.join(', ')}`,
    );
  }
  return { type: { kind: 'scalar', name: found.name }, card: ONE };
}

/** The cardinality left after a filter: at most one when it pins an exclusive pointer. */
function filteredCard(
  ctx: BuildContext,
  filter: ql.Expr | null,
  subject: Inferred,
  clauses: Scope,
): Card {
  if (!filter) return subject.card;
  infer(ctx, filter, clauses);
  return uniqueFilter(ctx, filter, subject.type, clauses)
    ? optional(atMostOne(subject.card))
    : optional(subject.card);
}

function inferPath(ctx: BuildContext, path: ql.Path, scope: Scope): Inferred {
  let cur: Inferred;
  let link: PointerDraft | null = null;
  let steps = path.steps;
  if (path.subject === null) {
    const first = steps[0];
    if (first?.kind === 'Ptr' && first.via === '@') {
      cur = linkProperty(ctx, scope.link, first);
      steps = steps.slice(1);
    } else if (scope.subject === null) {
      return fail(
        InvalidReferenceError,
        'could not resolve partial path',
        path.span,
        'a path starting with . needs an object to start from here; name the type',
      );
    } else {
      cur = scope.subject;
    }
  } else {
    const member = enumMember(ctx, path, scope);
    if (member) {
      cur = member;
      steps = steps.slice(1);
    } else {
      cur = infer(ctx, path.subject, scope);
      // `__subject__@prop` in a link's constraint reads the link's own properties.
      if (path.subject.kind === 'Anchor' && path.subject.name === '__subject__') link = scope.link;
    }
  }
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as ql.PathStep;
    if (step.kind === 'TypeIntersection') {
      const type = resolveType(ctx, step.type, scope.module, {
        nestedArray: InvalidDefinitionError,
      });
      cur = { type, card: optional(cur.card) };
      continue;
    }
    if (step.via === '@') {
      const prop = linkProperty(ctx, link, step);
      cur = { type: prop.type, card: product(cur.card, prop.card) };
      link = null;
      continue;
    }
    if (step.via === '.<') {
      const next = steps[i + 1];
      const only =
        next?.kind === 'TypeIntersection'
          ? resolveType(ctx, next.type, scope.module, { nestedArray: InvalidDefinitionError })
          : null;
      cur = {
        type: backlink(ctx, step, next),
        card: exclusiveBacklink(ctx, step.name, only?.kind === 'object' ? only.name : null)
          ? product(cur.card, AT_MOST_ONE)
          : MANY,
      };
      link = null;
      continue;
    }
    const type = cur.type;
    if (type === null) {
      cur = { type: null, card: product(cur.card, MANY) };
      continue;
    }
    if (type.kind === 'object' || type.kind === 'union') {
      const pointer = pointerThrough(ctx, type, step);
      cur = { type: pointer.target, card: product(cur.card, pointerCard(pointer)) };
      link = pointer.kind === 'link' ? pointer : null;
      continue;
    }
    if (type.kind === 'tuple') {
      const index = /^\d+$/.test(step.name)
        ? Number(step.name)
        : type.elements.findIndex((e) => e.name === step.name);
      const element = type.elements[index];
      if (!element) {
        return fail(
          InvalidReferenceError,
          `tuple '${printTypeRef(type)}' has no element '${step.name}'`,
          step.span,
        );
      }
      cur = { type: element.type, card: cur.card };
      continue;
    }
    return fail(
      InvalidReferenceError,
      `type '${printTypeRef(type)}' has no link or property '${step.name}'`,
      step.span,
    );
  }
  return cur;
}

function resolveFunction(
  ctx: BuildContext,
  call: ql.FunctionCall,
  scope: Scope,
): { sdl: string } | { std: string } {
  for (const name of candidates(call.func, scope.module)) {
    if (ctx.functions.has(name)) return { sdl: name };
    if (isStdFunction(name)) return { std: name };
  }
  const written =
    call.func.module === null ? call.func.name : `${call.func.module}::${call.func.name}`;
  return fail(
    InvalidReferenceError,
    `function '${written}' does not exist`,
    call.func.span,
    hintFor(call.func.name, [...stdFunctionNames(), ...ctx.functions.keys()]),
  );
}

function inferCall(ctx: BuildContext, call: ql.FunctionCall, scope: Scope): Inferred {
  const target = resolveFunction(ctx, call, scope);
  const args = call.args.map((a) => infer(ctx, a, scope));
  const named = call.namedArgs.map((a) => infer(ctx, a.value, scope));
  const all = [...args, ...named];
  const elementwise = all.reduce<Card>((acc, a) => product(acc, a.card), ONE);
  if ('sdl' in target) {
    scope.onCall?.(target.sdl, call);
    const overloads = ctx.functions.get(target.sdl) ?? [];
    const fn = overloads.find((f) => {
      const positional = f.params.filter((p) => p.kind === 'positional');
      const required = positional.filter((p) => p.default === null).length;
      const variadic = f.params.some((p) => p.kind === 'variadic');
      return call.args.length >= required && (variadic || call.args.length <= positional.length);
    });
    if (!fn) {
      return fail(
        InvalidReferenceError,
        `function '${target.sdl}' has no overload taking ${call.args.length} argument${call.args.length === 1 ? '' : 's'}`,
        call.func.span,
      );
    }
    const card =
      fn.returnModifier === 'set of'
        ? MANY
        : fn.returnModifier === 'optional'
          ? optional(elementwise)
          : elementwise;
    return { type: fn.returnType, card };
  }
  const callArgs: CallArg[] = [
    ...args.map((a) => ({ type: a.type })),
    ...call.namedArgs.map((a, i) => ({ type: named[i]?.type ?? null, name: a.name })),
  ];
  const resolved = resolveStdFunction(target.std, callArgs, {
    env: typeEnv(ctx),
    position: positionOf(call.func.span),
  });
  return { type: resolved.returnType, card: resolved.card(all.map((a) => a.card)) };
}

function inferGlobal(ctx: BuildContext, ref: ql.GlobalRef, scope: Scope): Inferred {
  for (const name of candidates(ref.name, scope.module)) {
    const global = ctx.globals.get(name);
    if (!global) continue;
    if (global.inference !== 'done') finishGlobal(ctx, global);
    return {
      type: global.target,
      card: { min: global.required ? 1 : 0, max: global.cardinality === 'many' ? 'many' : 1 },
    };
  }
  const builtin =
    ref.name.module === null || ref.name.module === 'default'
      ? BUILTIN_GLOBALS[ref.name.name]
      : undefined;
  if (builtin) return { type: builtin, card: AT_MOST_ONE };
  return fail(
    InvalidReferenceError,
    `global '${candidates(ref.name, scope.module)[0] ?? ref.name.name}' does not exist`,
    ref.name.span,
    hintFor(ref.name.name, [...ctx.globals.keys(), ...Object.keys(BUILTIN_GLOBALS)]),
  );
}

function inferName(ctx: BuildContext, ref: ql.ObjectRef, scope: Scope): Inferred {
  if (ref.module === null) {
    const bound = scope.vars.get(ref.name);
    if (bound) return bound;
  }
  const found = lookupType(ctx, ref, scope.module);
  if (found?.kind === 'object') return { type: objectRef(found.name), card: MANY };
  if (found?.kind === 'alias') {
    const alias = ctx.aliases.get(found.name);
    if (alias) {
      if (alias.inference === 'running') {
        return fail(
          InvalidDefinitionError,
          `alias '${alias.name}' is defined recursively`,
          ref.span,
        );
      }
      if (alias.inference === 'pending') {
        alias.inference = 'running';
        alias.inferred = infer(ctx, alias.expr, rootScope(alias.module));
        alias.inference = 'done';
      }
      return alias.inferred as Inferred;
    }
  }
  if (found?.kind === 'scalar') {
    return fail(
      InvalidReferenceError,
      `'${found.name}' is a scalar type, not a set of objects`,
      ref.span,
    );
  }
  return fail(
    InvalidReferenceError,
    `object type or alias '${candidates(ref, scope.module)[0] ?? ref.name}' does not exist`,
    ref.span,
    hintFor(ref.name, [...scope.vars.keys(), ...ctx.objectTypes.keys(), ...ctx.aliases.keys()]),
  );
}

function objectSubject(ctx: BuildContext, ref: ql.ObjectRef, scope: Scope): TypeRef {
  const found = lookupType(ctx, ref, scope.module);
  if (!found) return unknownType(ctx, ref, scope.module);
  if (found.kind !== 'object') {
    return fail(InvalidReferenceError, `'${found.name}' is not an object type`, ref.span);
  }
  return objectRef(found.name);
}

const HANDLERS: { [K in ql.Expr['kind']]: Handler<K> } = {
  Constant: (_ctx, e) => ({ type: constantType[e.scalar], card: ONE }),
  BytesConstant: () => ({ type: BYTES, card: ONE }),
  Parameter: (_ctx, e) =>
    fail(QueryError, 'query parameters are not allowed in schemas', e.span, 'use a global instead'),
  Anchor: (_ctx, e, scope) => {
    if (e.name === '__subject__' || e.name === '__new__' || e.name === '__old__') {
      if (scope.subject) return scope.subject;
    } else if (e.name === '__source__') {
      if (scope.source) return scope.source;
    } else {
      return { type: null, card: ONE };
    }
    return fail(InvalidReferenceError, `${e.name} cannot be used here`, e.span);
  },
  ObjectRef: (ctx, e, scope) => inferName(ctx, e, scope),
  Path: (ctx, e, scope) => inferPath(ctx, e, scope),
  Shape: (ctx, e, scope) => {
    if (e.subject === null) {
      return fail(
        InvalidDefinitionError,
        'a free object cannot be stored in a schema; select an object type',
        e.span,
      );
    }
    const subject = infer(ctx, e.subject, scope);
    inferShape(ctx, subject.type, null, e.elements, scope);
    return subject;
  },
  BinOp: (ctx, e, scope) => {
    const l = infer(ctx, e.left, scope);
    const r = infer(ctx, e.right, scope);
    switch (e.op) {
      case 'union':
        return { type: commonOf(ctx, [l.type, r.type]), card: unionCard(l.card, r.card) };
      case 'except':
      case 'intersect':
        return { type: l.type, card: optional(l.card) };
      case '??':
        return {
          type: commonOf(ctx, [l.type, r.type]),
          card: {
            min: l.card.min === 1 || r.card.min === 1 ? 1 : 0,
            max: maxOf(l.card.max, r.card.max),
          },
        };
      case 'in':
      case 'not in':
        operatorType(ctx, e.op, [l, r], e.span);
        return { type: BOOL, card: l.card };
      case '?=':
      case '?!=':
        operatorType(ctx, e.op, [l, r], e.span);
        return { type: BOOL, card: ONE };
      default:
        return {
          type: operatorType(ctx, e.op, [l, r], e.span),
          card: product(l.card, r.card),
        };
    }
  },
  UnaryOp: (ctx, e, scope) => {
    const operand = infer(ctx, e.operand, scope);
    if (e.op === 'exists') return { type: BOOL, card: ONE };
    if (e.op === 'distinct') return operand;
    return { type: operatorType(ctx, e.op, [operand], e.span), card: operand.card };
  },
  IsOp: (ctx, e, scope) => {
    const left = infer(ctx, e.left, scope);
    resolveType(ctx, e.type, scope.module, { nestedArray: InvalidDefinitionError });
    return { type: BOOL, card: left.card };
  },
  TypeCast: (ctx, e, scope) => {
    const type = resolveType(ctx, e.type, scope.module, { nestedArray: InvalidDefinitionError });
    const inner = infer(ctx, e.expr, scope);
    // Casts between values are std's (`<bytes>'x'` is refused, item 4); object casts are not.
    if (inner.type && !containsObject(inner.type) && !containsObject(type)) {
      resolveCast(inner.type, type, typeEnv(ctx), positionOf(e.span));
    }
    return {
      type,
      card: e.cardinality === 'required' ? { min: 1, max: inner.card.max } : inner.card,
    };
  },
  IfElse: (ctx, e, scope) => {
    const cond = infer(ctx, e.condition, scope);
    const a = infer(ctx, e.ifExpr, scope);
    const b = infer(ctx, e.elseExpr, scope);
    const branches: Card = {
      min: a.card.min === 1 && b.card.min === 1 ? 1 : 0,
      max: maxOf(a.card.max, b.card.max),
    };
    return { type: commonOf(ctx, [a.type, b.type]), card: product(cond.card, branches) };
  },
  FunctionCall: (ctx, e, scope) => inferCall(ctx, e, scope),
  Index: (ctx, e, scope) => {
    const subject = infer(ctx, e.subject, scope);
    const index = infer(ctx, e.index, scope);
    return {
      type: operatorType(ctx, '[]', [subject, index], e.span),
      card: product(subject.card, index.card),
    };
  },
  Slice: (ctx, e, scope) => {
    const subject = infer(ctx, e.subject, scope);
    const bounds = [e.start, e.stop]
      .filter((x): x is ql.Expr => x !== null)
      .map((x) => infer(ctx, x, scope));
    const named = (['start', 'stop'] as const).flatMap((name, i) =>
      [e.start, e.stop][i] === null ? [] : [name],
    );
    const resolved = resolveOperator(
      '[:]',
      [{ type: subject.type }, ...bounds.map((b, i) => ({ type: b.type, name: named[i] }))],
      { env: typeEnv(ctx), position: positionOf(e.span) },
    );
    return {
      type: resolved.returnType,
      card: bounds.reduce((acc, b) => product(acc, b.card), subject.card),
    };
  },
  SetLiteral: (ctx, e, scope) =>
    e.elements
      .map((x) => infer(ctx, x, scope))
      .reduce<Inferred>(
        (acc, x) => ({
          type: commonOf(ctx, [acc.type, x.type]),
          card: unionCard(acc.card, x.card),
        }),
        { type: null, card: EMPTY },
      ),
  ArrayLiteral: (ctx, e, scope) => {
    const elements = e.elements.map((x) => infer(ctx, x, scope));
    const element = commonOf(
      ctx,
      elements.map((x) => x.type),
    );
    return {
      type: element ? { kind: 'array', element } : null,
      card: elements.reduce<Card>((acc, x) => product(acc, x.card), ONE),
    };
  },
  TupleLiteral: (ctx, e, scope) => {
    const elements = e.elements.map((x) => infer(ctx, x, scope));
    const known = elements.every((x) => x.type !== null);
    return {
      type: known
        ? {
            kind: 'tuple',
            elements: elements.map((x) => ({ name: null, type: x.type as TypeRef })),
          }
        : null,
      card: elements.reduce<Card>((acc, x) => product(acc, x.card), ONE),
    };
  },
  NamedTupleLiteral: (ctx, e, scope) => {
    const elements = e.elements.map((x) => ({ name: x.name, value: infer(ctx, x.value, scope) }));
    const known = elements.every((x) => x.value.type !== null);
    return {
      type: known
        ? {
            kind: 'tuple',
            elements: elements.map((x) => ({ name: x.name, type: x.value.type as TypeRef })),
          }
        : null,
      card: elements.reduce<Card>((acc, x) => product(acc, x.value.card), ONE),
    };
  },
  Detached: (ctx, e, scope) => infer(ctx, e.expr, { ...scope, subject: null, link: null }),
  GlobalRef: (ctx, e, scope) => inferGlobal(ctx, e, scope),
  Introspect: (_ctx, e) =>
    fail(InvalidDefinitionError, 'introspect is not supported in schema expressions', e.span),
  SelectQuery: (ctx, e, scope) => {
    const inner = bindAliases(ctx, e.aliases, scope);
    const result = infer(ctx, e.result, inner);
    const row: Inferred = { type: result.type, card: ONE };
    const vars =
      e.resultAlias === null ? inner.vars : new Map([...inner.vars, [e.resultAlias, row]]);
    const clauses: Scope = {
      ...inner,
      vars,
      subject: result.type?.kind === 'object' ? row : inner.subject,
    };
    let card = result.card;
    if (e.filter) {
      infer(ctx, e.filter, clauses);
      card = uniqueFilter(ctx, e.filter, result.type, clauses)
        ? optional(atMostOne(card))
        : optional(card);
    }
    for (const sort of e.orderBy) infer(ctx, sort.expr, clauses);
    if (e.offset) {
      infer(ctx, e.offset, inner);
      card = optional(card);
    }
    if (e.limit) infer(ctx, e.limit, inner);
    return { type: result.type, card: limitCard(card, e.limit) };
  },
  InsertQuery: (ctx, e, scope) => {
    const inner = bindAliases(ctx, e.aliases, scope);
    const type = objectSubject(ctx, e.subject, inner);
    inferShape(ctx, type, null, e.shape, { ...inner, subject: null });
    if (e.unlessConflict?.on)
      infer(ctx, e.unlessConflict.on, withSubject(inner, { type, card: ONE }));
    if (e.unlessConflict?.elseExpr) infer(ctx, e.unlessConflict.elseExpr, inner);
    return { type, card: ONE };
  },
  UpdateQuery: (ctx, e, scope) => {
    const inner = bindAliases(ctx, e.aliases, scope);
    const subject = infer(ctx, e.subject, inner);
    const clauses = withSubject(inner, subject);
    const card = filteredCard(ctx, e.filter, subject, clauses);
    inferShape(ctx, subject.type, null, e.shape, clauses);
    return { type: subject.type, card };
  },
  DeleteQuery: (ctx, e, scope) => {
    const inner = bindAliases(ctx, e.aliases, scope);
    const subject = infer(ctx, e.subject, inner);
    const clauses = withSubject(inner, subject);
    let card = filteredCard(ctx, e.filter, subject, clauses);
    for (const sort of e.orderBy) infer(ctx, sort.expr, clauses);
    if (e.offset) card = optional(card);
    return { type: subject.type, card: limitCard(card, e.limit) };
  },
  ForQuery: (ctx, e, scope) => {
    const inner = bindAliases(ctx, e.aliases, scope);
    const iterator = infer(ctx, e.iterator, inner);
    const body = infer(ctx, e.body, {
      ...inner,
      vars: new Map([...inner.vars, [e.iteratorAlias, { type: iterator.type, card: ONE }]]),
    });
    return {
      type: body.type,
      card: product(e.optional ? { min: 1, max: iterator.card.max } : iterator.card, body.card),
    };
  },
  GroupQuery: (_ctx, e) =>
    fail(InvalidDefinitionError, 'group is not supported in schema expressions', e.span),
  InternalGroupQuery: (_ctx, e) =>
    fail(InvalidDefinitionError, 'for group is not supported in schema expressions', e.span),
};
