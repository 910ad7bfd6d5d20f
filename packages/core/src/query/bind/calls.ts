/**
 * bind/calls: operators, function calls and scalar casts. Every std operator, function and cast
 * resolves through std (std/resolve: one table, one overload resolution); SDL functions are
 * inlined: the body is bound with each parameter bound to its argument, a possibly-many
 * or possibly-empty argument iterated (`for`), so the call is element-wise as Gel's is.
 * `assert_single`, `assert_exists` and `assert_distinct` become `Assert` nodes (a runtime check
 * the planner emits, SQLSTATE 21000).
 *
 * Input: syntax nodes and the Scope. Output: IR `Call`, `Cast`, `Assert`, or the inlined body.
 * Errors from std carry no position; they are re-raised here with the call's.
 */
import type * as ql from '../../syntax';
import {
  InvalidDefinitionError,
  InvalidReferenceError,
  InvalidTypeError,
  QueryError,
  type QueryErrorClass,
} from '../../errors';
import type { FunctionDef, TypeRef } from '../../model/schema';
import { ROLES_PARAM, ROLES_TYPE } from '../../std/caller';
import { implicitDistance } from '../../std/casts';
import type { TypeEnv } from '../../std/model';
import {
  isStdFunction,
  resolveCast,
  resolveFunction,
  resolveOperator,
  type CallArg,
  type ResolvedCall,
} from '../../std/resolve';
import {
  ONE,
  cardEither,
  cardProduct,
  typeEnv,
  type ArgMode,
  type Binding,
  type Card,
  type IrExpr,
} from '../ir';
import type { SchemaIndex } from '../schema-index';
import { fail, position, type BindContext, type Scope } from './context';
import { bindExpr } from './dispatch';
import { bindingRef } from './names';
import { closest } from './context';
import { APPROXIMATE_COUNT, bindApproximateCount } from './approximate-count';
import { bindSequenceCall, SEQUENCE_FUNCTIONS } from './sequence';
import { bindableType, moduleOf, printIrType, asTypeRef } from './types';

/** The type of a literal as the parser classified it. */
export function literalType(scalar: ql.ConstantScalar): TypeRef {
  return { kind: 'scalar', name: `std::${scalar}` };
}

const UUID: TypeRef = { kind: 'scalar', name: 'std::uuid' };
const resolutions = new WeakMap<SchemaIndex, Map<string, ResolvedCall>>();

/**
 * std's overload resolution, memoised per schema: a resolution depends only on the name, the
 * argument types and names, and the schema's scalars.
 */
function memoised(index: SchemaIndex, key: string, resolve: () => ResolvedCall): ResolvedCall {
  let cache = resolutions.get(index);
  if (!cache) {
    cache = new Map();
    resolutions.set(index, cache);
  }
  const known = cache.get(key);
  if (known) return known;
  const resolved = resolve();
  cache.set(key, resolved);
  return resolved;
}

/** Runs a std lookup, giving its errors the position of the node that asked. */
function located<T>(span: ql.Span, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof QueryError && err.position === undefined) {
      const cls = err.constructor as QueryErrorClass;
      throw new cls(err.message, { position: position(span), hint: err.hint });
    }
    throw err;
  }
}

export function callArg(expr: IrExpr, span: ql.Span, name?: string): CallArg {
  const type = expr.type.kind === 'empty' ? null : asTypeRef(expr.type, span);
  return name === undefined ? { type } : { type, name };
}

/** std's name for the type of free objects (`{a := 1}`, group results): an object type. */
const FREE_OBJECT_NAME = 'std::FreeObject';
const FREE_OBJECT: TypeRef = { kind: 'object', name: FREE_OBJECT_NAME };

/**
 * A std function's argument: free objects take part as `std::FreeObject`, an object type as in
 * Gel, so `count((group X by .a))` or `exists {a := 1}` resolve like any set of objects.
 */
function functionArg(expr: IrExpr, span: ql.Span, name?: string): CallArg {
  if (expr.type.kind !== 'free') return callArg(expr, span, name);
  return name === undefined ? { type: FREE_OBJECT } : { type: FREE_OBJECT, name };
}

/**
 * A call resolved with free-object arguments: one whose result is computed from other types
 * (`count`, `exists`) is fine; one whose result would be the free objects themselves (`min`,
 * `max`) or hold them (`enumerate`) is refused, as a free object has no stored value to compute
 * it from.
 */
function refuseFreeResult(
  name: string,
  resolved: ResolvedCall,
  args: readonly IrExpr[],
  span: ql.Span,
): void {
  const result = resolved.returnType;
  if (!args.some((a) => a.type.kind === 'free') || result === null) return;
  if (JSON.stringify(result).includes(JSON.stringify(FREE_OBJECT_NAME))) {
    fail(InvalidTypeError, `${name}() cannot compute a value from free objects`, span);
  }
}

function modesOf(resolved: ResolvedCall): ArgMode[] {
  return resolved.argParams.map((p) => {
    const mod = resolved.overload.params[p]?.typemod;
    return mod === 'set-of' ? 'set' : mod === 'optional' ? 'optional' : 'element';
  });
}

export function callNode(name: string, resolved: ResolvedCall, args: IrExpr[]): IrExpr {
  const card: Card = resolved.card(args.map((a) => a.card));
  return {
    kind: 'Call',
    type: resolved.returnType ?? { kind: 'empty' },
    card,
    name,
    overload: resolved,
    args,
    modes: modesOf(resolved),
    callKind: resolved.overload.kind,
  };
}

/** An operator application; `null` arguments (an open slice bound) are left out. */
export function bindOperator(
  ctx: BindContext,
  scope: Scope,
  op: string,
  operands: readonly (ql.Expr | null)[],
  span: ql.Span,
): IrExpr {
  const args = operands.map((o) => (o === null ? null : bindExpr(ctx, scope, o)));
  return bindOperatorOn(ctx, op, args, span);
}

/** An operator over operands already bound (null: not given). */
export function bindOperatorOn(
  ctx: BindContext,
  op: string,
  args: readonly (IrExpr | null)[],
  span: ql.Span,
): IrExpr {
  const given = args.filter((a): a is IrExpr => a !== null);
  // Objects compare by identity: the operator sees their ids.
  const byId =
    given.length > 0 && given.every((a) => a.type.kind === 'object' || a.type.kind === 'empty');
  const callArgs = args.map((a) =>
    a === null
      ? { type: null }
      : byId && a.type.kind === 'object'
        ? { type: UUID }
        : callArg(a, span),
  );
  const resolved = located(span, () =>
    memoised(ctx.index, `op ${op} ${JSON.stringify(callArgs)}`, () =>
      resolveOperator(op, callArgs, { env: typeEnv(ctx.index) }),
    ),
  );
  if (given.length !== args.length) {
    return fail(QueryError, `operator '${op}' needs all its operands`, span);
  }
  return callNode(`std::${op}`, resolved, given);
}

/** `x[i:j]`: std's `[:]` with the bounds given as its named `start` / `stop`. */
export function bindSlice(ctx: BindContext, scope: Scope, node: ql.Slice): IrExpr {
  const subject = bindExpr(ctx, scope, node.subject);
  const bounds = (
    [
      ['start', node.start],
      ['stop', node.stop],
    ] as const
  ).flatMap(([name, e]) => (e === null ? [] : [{ name, expr: bindExpr(ctx, scope, e) }]));
  const resolved = located(node.span, () =>
    resolveOperator(
      '[:]',
      [callArg(subject, node.span), ...bounds.map((b) => callArg(b.expr, node.span, b.name))],
      { env: typeEnv(ctx.index) },
    ),
  );
  const call = callNode('std::[:]', resolved, [subject, ...bounds.map((b) => b.expr)]);
  // A bound that is given is an operand: when it is empty, so is the slice (Gel).
  return bounds.some((b) => b.expr.card.min === 0) && call.card.min === 1
    ? { ...call, card: { ...call.card, min: 0 } }
    : call;
}

/** `<T>expr` for a scalar, array or tuple T. */
export function bindCast(ctx: BindContext, expr: IrExpr, to: TypeRef, span: ql.Span): IrExpr {
  if (expr.type.kind === 'empty') return { ...expr, type: to };
  // `<json>` of objects: each object as the result shows it (Gel serialises its shape).
  // A tuple literal holding objects casts element by element (`<tuple<json>>(obj,)` shows obj).
  if (
    expr.kind === 'TupleLiteral' &&
    to.kind === 'tuple' &&
    to.elements.length === expr.elements.length &&
    holdsObjects(expr.type)
  ) {
    const elements = expr.elements.map((e, i) => {
      const target = (to.elements[i] as { type: TypeRef }).type;
      return printIrType(e.type) === printIrType(target) ? e : bindCast(ctx, e, target, span);
    });
    const named = to.elements.every((e) => e.name !== null);
    return {
      ...expr,
      type: to,
      card: elements.reduce<Card>((c, e) => cardProduct(c, e.card), { min: 1, max: 1 }),
      elements,
      names: named ? to.elements.map((e) => e.name as string) : null,
    };
  }
  if (holdsObjects(expr.type) && to.kind === 'scalar' && to.name === 'std::json') {
    return { kind: 'ObjectJson', type: to, card: expr.card, expr };
  }
  if (expr.type.kind === 'free' || expr.type.kind === 'object') {
    return fail(
      InvalidTypeError,
      `cannot cast '${printIrType(expr.type)}' to '${printIrType(to)}'`,
      span,
    );
  }
  const from = expr.type;
  const cast = located(span, () => resolveCast(from, to, typeEnv(ctx.index)));
  const card = cast.mayBeEmpty ? { ...expr.card, min: 0 as const } : expr.card;
  return { kind: 'Cast', type: to, card, expr, overload: cast };
}

/** Objects, free objects, or arrays and tuples of them: `<json>` shows them as output does. */
function holdsObjects(type: IrExpr['type']): boolean {
  if (type.kind === 'free' || type.kind === 'object') return true;
  if (type.kind === 'array') return holdsObjects(type.element);
  if (type.kind === 'tuple') return type.elements.some((e) => holdsObjects(e.type));
  return false;
}

const ASSERTS: Readonly<Record<string, 'single' | 'exists' | 'distinct'>> = {
  'std::assert_single': 'single',
  'std::assert_exists': 'exists',
  'std::assert_distinct': 'distinct',
};

export function bindCall(ctx: BindContext, scope: Scope, node: ql.FunctionCall): IrExpr {
  const ref = node.func;
  const candidates =
    ref.module === null
      ? [`${scope.module}::${ref.name}`, `std::${ref.name}`]
      : [`${moduleOf(ctx.index, scope, ref.module, ref.span)}::${ref.name}`];
  for (const name of candidates) {
    const check = ASSERTS[name];
    if (check) return bindAssert(ctx, scope, node, check);
    if (SEQUENCE_FUNCTIONS.has(name)) return bindSequenceCall(ctx, scope, node, name);
    if (name === APPROXIMATE_COUNT) return bindApproximateCount(ctx, scope, node);
    const defs = ctx.index.functions(name);
    if (defs.length) return inlineFunction(ctx, scope, node, name, defs);
    if (isStdFunction(name)) return bindStdFunction(ctx, scope, node, name);
  }
  const shown = ref.module ? `${ref.module}::${ref.name}` : ref.name;
  const near = closest(ref.name, [
    ...ctx.index.schema.functions.map((f) => f.name.split('::').pop() as string),
  ]);
  throw new InvalidReferenceError(`function '${shown}' does not exist`, {
    position: position(ref.span),
    hint: near ? `did you mean '${near}'?` : undefined,
  });
}

function bindStdFunction(
  ctx: BindContext,
  scope: Scope,
  node: ql.FunctionCall,
  name: string,
): IrExpr {
  const untyped = (a: ql.Expr) => a.kind === 'ArrayLiteral' && a.elements.length === 0;
  const bound = node.args.map((a) => (untyped(a) ? null : bindExpr(ctx, scope, a)));
  const named = node.namedArgs.map((a) => ({ name: a.name, expr: bindExpr(ctx, scope, a.value) }));
  if (name === 'std::has_role') named.push(...callerRoles(ctx, node));
  const resolve = (positional: readonly (IrExpr | null)[]) => {
    const callArgs: CallArg[] = [
      ...positional.map((a) => (a ? functionArg(a, node.span) : { type: null, emptyArray: true })),
      ...named.map((n) => functionArg(n.expr, node.span, n.name)),
    ];
    return located(node.span, () =>
      memoised(ctx.index, `fn ${name} ${JSON.stringify(callArgs)}`, () =>
        resolveFunction(name, callArgs, { env: typeEnv(ctx.index) }),
      ),
    );
  };
  let resolved = resolve(bound);
  // `[]` takes its type from the overload it meets (Gel: `array<anytype>`, bound by the other
  // arguments): `len([])`, `array_join([], ',')`, `array_insert(<array<int64>>[], 0, 9)`.
  const positional = bound.map((a, i) => a ?? emptyArgument(resolved, i, node));
  if (bound.includes(null)) resolved = resolve(positional);
  const args = [...positional, ...named.map((n) => n.expr)];
  if (ctx.mode === 'ddl' && !resolved.overload.ddl) {
    return fail(
      InvalidDefinitionError,
      `${name}() works on sets and cannot be used in a schema default, check or index`,
      node.span,
    );
  }
  refuseFreeResult(name, resolved, args, node.span);
  return callNode(name, resolved, args);
}

/**
 * Argument i, an untyped `[]`, as the empty array of the type its parameter has in `resolved`.
 * An element type nothing binds (`len([])`: `array<anytype>` alone) never shows in the result
 * unless the result type has it (Gel: "indeterminate type"); the array is then typed
 * `array<std::str>`, which PostgreSQL needs and no value of it reveals.
 */
function emptyArgument(resolved: ResolvedCall, i: number, node: ql.FunctionCall): IrExpr {
  const type = resolved.paramTypes[resolved.argParams[i] as number] ?? null;
  if (type?.kind === 'array') return { kind: 'ArrayLiteral', type, card: ONE, elements: [] };
  if (resolved.returnType === null) {
    return fail(QueryError, 'expression returns value of indeterminate type', node.span);
  }
  return {
    kind: 'ArrayLiteral',
    type: { kind: 'array', element: { kind: 'scalar', name: 'std::str' } },
    card: ONE,
    elements: [],
  };
}

/**
 * `has_role('<name>')` reads the caller's roles, which come only from the request's credentials
 * (docs/http.md): the compiler passes them as the named argument `roles`, the auth parameter the
 * engine fills from the token. A query
 * cannot pass its own. Schema inference (`schema` mode) types the call without them.
 */
function callerRoles(ctx: BindContext, node: ql.FunctionCall): { name: string; expr: IrExpr }[] {
  const given = node.namedArgs.find((a) => a.name === ROLES_PARAM);
  if (given) {
    return fail(
      QueryError,
      "has_role() takes the role's name only; the caller's roles come from their credentials",
      given.span,
    );
  }
  if (ctx.mode !== 'query') return [];
  const slot = ctx.param('auth', ROLES_PARAM, ROLES_TYPE, true, node.span);
  const roles: IrExpr = {
    kind: 'Param',
    type: ROLES_TYPE,
    card: { min: 1, max: 1 },
    index: slot.index,
    source: 'auth',
    name: ROLES_PARAM,
  };
  return [{ name: ROLES_PARAM, expr: roles }];
}

function bindAssert(
  ctx: BindContext,
  scope: Scope,
  node: ql.FunctionCall,
  check: 'single' | 'exists' | 'distinct',
): IrExpr {
  const [first, ...extra] = node.args;
  if (!first || extra.length) {
    return fail(QueryError, `assert_${check} takes one set and an optional message`, node.span);
  }
  const expr = bindExpr(ctx, scope, first);
  let message =
    check === 'single'
      ? 'assert_single violation: more than one element returned by an expression'
      : check === 'exists'
        ? 'assert_exists violation: expression returned an empty set'
        : 'assert_distinct violation: expression returned a set with duplicate elements';
  let messageExpr: IrExpr | undefined;
  for (const arg of node.namedArgs) {
    if (arg.name !== 'message') {
      return fail(QueryError, `assert_${check} takes only \`message := ...\``, arg.span);
    }
    if (arg.value.kind === 'Constant' && arg.value.scalar === 'str') {
      message = arg.value.value;
      continue;
    }
    // Any other str expression: the call runs once per message (an optional parameter).
    messageExpr = bindExpr(ctx, scope, arg.value);
    const t = messageExpr.type;
    if (t.kind !== 'empty' && !(t.kind === 'scalar' && t.name === 'std::str')) {
      return fail(
        InvalidTypeError,
        `assert_${check}'s message must be a str, not ${printIrType(t)}`,
        arg.span,
      );
    }
  }
  const own: Card =
    check === 'single'
      ? { min: expr.card.min, max: expr.card.max === 'many' ? 1 : expr.card.max }
      : check === 'exists'
        ? { min: 1, max: expr.card.max === 0 ? 1 : expr.card.max }
        : expr.card;
  // A set of messages multiplies the calls; an empty one is one call with the default.
  const card: Card =
    messageExpr && messageExpr.card.max === 'many' ? { min: own.min, max: 'many' } : own;
  return {
    kind: 'Assert',
    type: expr.type,
    card,
    check,
    expr,
    message,
    ...(messageExpr ? { messageExpr } : {}),
  };
}

/**
 * An SDL function call, inlined: the overload whose parameters accept the arguments (fewest
 * implicit casts), its body bound in the function's module with each parameter bound to its
 * argument (iterated when the argument is not exactly one value and the parameter not optional).
 */
function inlineFunction(
  ctx: BindContext,
  scope: Scope,
  node: ql.FunctionCall,
  name: string,
  defs: readonly FunctionDef[],
): IrExpr {
  const positional = node.args.map((a) => bindExpr(ctx, scope, a));
  const named = new Map(node.namedArgs.map((a) => [a.name, bindExpr(ctx, scope, a.value)]));
  const env = typeEnv(ctx.index);
  let best: { def: FunctionDef; args: (IrExpr | null)[]; cost: number } | null = null;
  for (const def of defs) {
    const match = matchArgs(ctx.index, def, positional, named, env);
    if (match && (!best || match.cost < best.cost)) best = { def, ...match };
  }
  if (!best) {
    const types = positional.map((a) => printIrType(a.type)).join(', ');
    throw new InvalidReferenceError(`function "${name}(${types})" does not exist`, {
      position: position(node.span),
      hint: `the signatures are: ${defs.map((d) => `${name}(${d.params.map((p) => `${p.name}: ${printIrType(p.type)}`).join(', ')})`).join('; ')}`,
    });
  }
  const dispatch = specializations(ctx.index, defs, best.def, best.args);
  if (dispatch) return bindDispatch(ctx, scope, name, best.def, best.args, dispatch);
  return inlineBody(ctx, scope, name, best.def, best.args);
}

/**
 * Gel's dispatch of an object-typed argument: overloads of the function taking a subtype of the
 * argument's static type in that position (the other parameters alike) apply to the objects of
 * that subtype (`is_active(x: User)` beside `is_active(x: Named)`, called with a Named).
 * The position and those overloads, most specific first; null when there are none.
 */
function specializations(
  index: SchemaIndex,
  defs: readonly FunctionDef[],
  def: FunctionDef,
  args: readonly (IrExpr | null)[],
): { at: number; overloads: { def: FunctionDef; type: string }[] } | null {
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    const param = def.params[at];
    if (!arg || !param || arg.type.kind !== 'object' || param.type.kind !== 'object') continue;
    const argType = arg.type.name;
    const overloads = defs.flatMap((other) => {
      if (other === def || other.params.length !== def.params.length) return [];
      const mine = other.params[at];
      if (!mine || mine.type.kind !== 'object' || mine.type.name === argType) return [];
      if (!index.isSubtype(mine.type.name, argType)) return [];
      const alike = other.params.every(
        (p, i) =>
          i === at ||
          (p.kind === def.params[i]?.kind &&
            JSON.stringify(p.type) === JSON.stringify(def.params[i]?.type)),
      );
      return alike ? [{ def: other, type: mine.type.name }] : [];
    });
    if (overloads.length === 0) continue;
    const depth = (t: string) => index.objectType(t)?.ancestors.length ?? 0;
    overloads.sort((a, b) => depth(b.type) - depth(a.type));
    return { at, overloads };
  }
  return null;
}

/**
 * A call dispatched on the type of its argument at `dispatch.at`: per element of the argument,
 * `if x is S1 then f_S1(x[is S1]) else if x is S2 then ... else f(x)`.
 */
function bindDispatch(
  ctx: BindContext,
  scope: Scope,
  name: string,
  def: FunctionDef,
  args: readonly (IrExpr | null)[],
  dispatch: { at: number; overloads: { def: FunctionDef; type: string }[] },
): IrExpr {
  const arg = args[dispatch.at] as IrExpr;
  const binding: Binding = { id: ctx.freshId(), name: '~dispatch', expr: arg, iteration: true };
  const each = bindingRef(binding);
  const withArg = (value: IrExpr) => args.map((a, i) => (i === dispatch.at ? value : a));
  let body = inlineBody(ctx, scope, name, def, withArg(each));
  for (const { def: special, type } of [...dispatch.overloads].reverse()) {
    const narrowed: IrExpr = {
      kind: 'Intersection',
      type: { kind: 'object', name: type },
      card: { min: 0, max: 1 },
      source: each,
      objectType: type,
      pathId: `${each.pathId}[is ${type}]`,
    };
    const then = inlineBody(ctx, scope, name, special, withArg(narrowed));
    // Where the branch runs the object is a `type`: the overload's result is what its return
    // type says (an empty `x[is T]` only where the branch does not run).
    const declared: Card =
      special.returnModifier === 'set of'
        ? { min: 0, max: 'many' }
        : special.returnModifier === 'optional'
          ? { min: 0, max: 1 }
          : { min: 1, max: 1 };
    body = {
      kind: 'IfElse',
      type: body.type,
      card: cardEither({ min: declared.min, max: then.card.max }, body.card),
      condition: {
        kind: 'TypeCheck',
        type: { kind: 'scalar', name: 'std::bool' },
        card: { min: 1, max: 1 },
        expr: each,
        objectType: type,
        negated: false,
      },
      then,
      else: body,
    };
  }
  return {
    kind: 'For',
    type: body.type,
    // One result per element of the argument.
    card: cardProduct(arg.card, body.card),
    binding,
    iterator: arg,
    body,
    optional: false,
  };
}

/** The body of overload `def` bound with its parameters bound to `args` (see `inlineFunction`). */
function inlineBody(
  ctx: BindContext,
  scope: Scope,
  name: string,
  def: FunctionDef,
  args: readonly (IrExpr | null)[],
): IrExpr {
  const module = name.slice(0, name.lastIndexOf('::'));
  const names = new Map<string, Binding>();
  const iterations: { binding: Binding; optional: boolean }[] = [];
  def.params.forEach((p, i) => {
    let arg = args[i] ?? null;
    if (arg === null) {
      arg = p.default
        ? bindExpr(
            ctx,
            { ...scope, module, names: new Map(), subject: null, link: null },
            p.default,
          )
        : {
            kind: 'SetLiteral',
            type: bindableType(ctx.index, p.type),
            card: { min: 0, max: 0 },
            elements: [],
          };
    }
    // In a DDL expression (one row, element-wise) a parameter is its argument's value in place,
    // as PostgreSQL evaluates it: no iteration, no set of its own.
    const ddl = ctx.mode === 'ddl';
    const iterate =
      !ddl && p.typeModifier !== 'optional' && (arg.card.min !== 1 || arg.card.max !== 1);
    const binding: Binding = {
      id: ctx.freshId(),
      name: p.name,
      expr: arg,
      iteration: iterate,
      parameter: true,
      ...(ddl ? { transparent: true } : {}),
    };
    names.set(p.name, binding);
    if (iterate) iterations.push({ binding, optional: false });
  });
  const bodyScope: Scope = {
    module,
    moduleAliases: new Map(),
    names,
    subject: null,
    link: null,
    singletons: new Set(),
    pathAliases: new Map(),
    views: new Map(),
    aliasNamespace: '',
    namespace: `${scope.namespace}~fn${ctx.freshId()}`,
  };
  let body = ctx.computedExpr(name, '()', () => bindExpr(ctx, bodyScope, def.body));
  if (def.returnModifier !== 'set of' && body.card.max === 'many') {
    body = { ...body, card: { min: body.card.min, max: 1 } };
  }
  for (const { binding } of iterations.reverse()) {
    const card: Card = {
      min: binding.expr.card.min === 1 && body.card.min === 1 ? 1 : 0,
      max:
        binding.expr.card.max === 0
          ? 0
          : binding.expr.card.max === 'many' || body.card.max === 'many'
            ? 'many'
            : 1,
    };
    body = {
      kind: 'For',
      type: body.type,
      card,
      binding,
      iterator: binding.expr,
      body,
      optional: false,
    };
  }
  return body;
}

function matchArgs(
  index: SchemaIndex,
  def: FunctionDef,
  positional: readonly IrExpr[],
  named: ReadonlyMap<string, IrExpr>,
  env: TypeEnv,
): { args: (IrExpr | null)[]; cost: number } | null {
  const args: (IrExpr | null)[] = [];
  let next = 0;
  let cost = 0;
  for (const p of def.params) {
    let arg: IrExpr | null = null;
    if (p.kind === 'named only') arg = named.get(p.name) ?? null;
    else if (next < positional.length) arg = positional[next++] as IrExpr;
    if (arg === null && !p.default && p.typeModifier !== 'optional') return null;
    if (arg !== null && arg.type.kind !== 'empty') {
      if (arg.type.kind === 'free') return null;
      const type = bindableType(index, p.type);
      const d =
        arg.type.kind === 'object' && type.kind === 'object'
          ? arg.type.name === type.name
            ? 0
            : index.isSubtype(arg.type.name, type.name)
              ? 1
              : null
          : implicitDistance(arg.type, type, env);
      if (d === null) return null;
      cost += d;
    }
    args.push(arg);
  }
  if (next !== positional.length) return null;
  for (const key of named.keys())
    if (!def.params.some((p) => p.name === key && p.kind === 'named only')) return null;
  return { args, cost };
}
