/**
 * bind/operators: type casts (`<T>e`, of scalars, objects, json and parameters), binary and unary
 * operators (through std's operator resolution, bind/calls), `if ... else` branches (each bound
 * under its condition, for conditional DML), `is`, and the unification of operand types.
 * Errors: InvalidTypeError for operands and casts that do not fit; QueryError for what the
 * compiler does not do yet.
 */
import type * as ql from '../../syntax';
import { InvalidDefinitionError, InvalidTypeError, QueryError } from '../../errors';
import type { TypeRef } from '../../model/schema';
import { implicitJoin } from '../../std/casts';
import {
  AT_MOST_ONE,
  ONE,
  cardOptional,
  cardUnion,
  cardEither,
  type Card,
  type IrExpr,
  type IrType,
} from '../ir';
import { type BindContext, fail, type Scope } from './context';
import {
  asTypeRef,
  isObjectType,
  lookupSchemaName,
  printIrType,
  resolveTypeExpr,
  sameType,
} from './types';
import { polyTypeName } from '../../std/resolve';
import { matchesPattern, resolveTypePattern } from './type-pattern';
import { bindCast, bindOperator, bindOperatorOn } from './calls';
import { checkUnionOperands, checkUnionType } from './union-check';
import { bindExpr } from './dispatch';

const BOOL: TypeRef = { kind: 'scalar', name: 'std::bool' };

/** Gel's limit on the tuples and arrays nested in a parameter's type. */
const MAX_PARAM_NESTING = 20;

/** How many tuples and arrays enclose the deepest scalar of `type`. */
function nestingDepth(type: TypeRef): number {
  if (type.kind === 'array') return 1 + nestingDepth(type.element);
  if (type.kind === 'tuple')
    return 1 + Math.max(0, ...type.elements.map((e) => nestingDepth(e.type)));
  return 0;
}

/** Abstract scalars a value cannot be cast into (Gel: only a concrete type extending one). */
const GENERIC_SCALARS: ReadonlySet<string> = new Set(['std::sequence']);

/**
 * `<anytype>x`, `<array<anyint>>$p`, `<sequence>x`: Gel's QueryError, casting into a generic
 * type: one of std's pseudo-types (named where no schema type of that name is in scope) or an
 * abstract scalar. A parameter's type says so in Gel's words.
 */
function refuseGenericCast(
  ctx: BindContext,
  scope: Scope,
  texpr: ql.TypeExpr,
  type: TypeRef | null,
  parameter: boolean,
): void {
  const generic = type ? abstractScalarOf(type) : pseudoTypeOf(ctx, scope, texpr);
  if (generic === null) return;
  fail(
    QueryError,
    parameter
      ? `parameter cannot be a generic type '${generic}'`
      : `cannot cast into generic type '${generic}'`,
    texpr.span,
    `don't use generic "any" types or abstract scalars`,
  );
}

/** The first std pseudo-type (`anytype`, `anyint`...) a type expression names, or null. */
function pseudoTypeOf(ctx: BindContext, scope: Scope, texpr: ql.TypeExpr): string | null {
  if (texpr.kind !== 'TypeName') return null;
  const { name, subtypes } = texpr;
  const bare = name.module === null || name.module === 'std' ? name.name : null;
  const poly = bare !== null && subtypes.length === 0 ? polyTypeName(bare) : null;
  if (poly && !lookupSchemaName(ctx.index, scope, name)) return poly;
  for (const s of subtypes) {
    const found = pseudoTypeOf(ctx, scope, s.kind === 'NamedSubtype' ? s.type : s);
    if (found) return found;
  }
  return null;
}

/** The first abstract scalar (`std::sequence`) in a resolved type, or null. */
function abstractScalarOf(type: TypeRef): string | null {
  if (type.kind === 'scalar') return GENERIC_SCALARS.has(type.name) ? type.name : null;
  if (type.kind === 'array' || type.kind === 'range') return abstractScalarOf(type.element);
  if (type.kind !== 'tuple') return null;
  for (const e of type.elements) {
    const found = abstractScalarOf(e.type);
    if (found) return found;
  }
  return null;
}

export function bindTypeCast(ctx: BindContext, scope: Scope, node: ql.TypeCast): IrExpr {
  const parameter = node.expr.kind === 'Parameter';
  refuseGenericCast(ctx, scope, node.type, null, parameter);
  const type = resolveTypeExpr(ctx.index, scope, node.type);
  refuseGenericCast(ctx, scope, node.type, type, parameter);
  if (node.expr.kind === 'Parameter') {
    if (ctx.mode !== 'query') {
      return fail(
        ctx.mode === 'ddl' ? InvalidDefinitionError : QueryError,
        `query parameters ($${node.expr.name}) cannot be used here`,
        node.expr.span,
      );
    }
    if (nestingDepth(type) > MAX_PARAM_NESTING) {
      return fail(QueryError, 'type of parameter is too deeply nested', node.span);
    }
    const required = node.cardinality !== 'optional';
    if (type.kind === 'object') {
      // `<T>$p` of an object type: the parameter is the id, as `<T><uuid>$p` (as Gel).
      const uuid: TypeRef = { kind: 'scalar', name: 'std::uuid' };
      const slot = ctx.param('variable', node.expr.name, uuid, required, node.expr.span);
      const id: IrExpr = {
        kind: 'Param',
        type: uuid,
        card: required ? ONE : AT_MOST_ONE,
        index: slot.index,
        source: 'variable',
        name: node.expr.name,
      };
      return {
        kind: 'ObjectCast',
        type,
        card: id.card,
        expr: id,
        objectType: type.name,
        pathId: `<${type.name}>#${ctx.freshId()}`,
      };
    }
    const slot = ctx.param('variable', node.expr.name, type, required, node.expr.span);
    return {
      kind: 'Param',
      type,
      card: required ? ONE : AT_MOST_ONE,
      index: slot.index,
      source: 'variable',
      name: node.expr.name,
    };
  }
  // `<array<T>>[]`: the cast gives the empty array its type.
  const empty = emptyArrayOf(node.expr, type);
  if (empty) return empty;
  const expr = bindExpr(ctx, scope, node.expr);
  if (type.kind === 'object') {
    if (expr.type.kind === 'empty') return { ...expr, type };
    if (isObjectType(expr.type)) {
      if (!ctx.index.isSubtype(expr.type.name, type.name)) {
        return fail(
          InvalidTypeError,
          `cannot cast '${expr.type.name}' to '${type.name}'`,
          node.span,
          'use [is T] to keep only the objects of a subtype',
        );
      }
      return expr;
    }
    if (expr.type.kind !== 'scalar' || expr.type.name !== 'std::uuid') {
      return fail(
        InvalidTypeError,
        `cannot cast '${printIrType(expr.type)}' to '${type.name}'`,
        node.span,
      );
    }
    return {
      kind: 'ObjectCast',
      type,
      card: expr.card,
      expr,
      objectType: type.name,
      pathId: `<${type.name}>#${ctx.freshId()}`,
    };
  }
  return castFromJsonMayBeEmpty(bindCast(ctx, expr, type, node.span), expr, node.cardinality);
}

/**
 * Gel: a JSON `null` casts to the empty set, so `<T>json` may be empty (unless written
 * `<required T>`): its minimum cardinality is 0, and `exists` / `??` evaluate it.
 */
function castFromJsonMayBeEmpty(
  cast: IrExpr,
  from: IrExpr,
  mod: 'optional' | 'required' | null,
): IrExpr {
  const json = from.type.kind === 'scalar' && from.type.name === 'std::json';
  if (!json || mod === 'required' || cast.card.min === 0 || cast.kind !== 'Cast') return cast;
  return { ...cast, card: { ...cast.card, min: 0 } };
}

export function bindBinOp(ctx: BindContext, scope: Scope, node: ql.BinOp): IrExpr {
  switch (node.op) {
    case 'union':
    case 'except':
    case 'intersect': {
      const [left, right] = bindOperands(ctx, scope, node.left, node.right);
      const type = unifyTypes(ctx, left.type, right.type, node.span);
      if (node.op === 'union') checkUnionOperands(ctx, [left, right], node.span);
      const card =
        node.op === 'union'
          ? cardUnion(left.card, right.card)
          : node.op === 'except'
            ? cardOptional(left.card)
            : {
                min: 0 as const,
                max:
                  left.card.max === 'many' && right.card.max === 'many'
                    ? ('many' as const)
                    : left.card.max === 0 || right.card.max === 0
                      ? (0 as const)
                      : (1 as const),
              };
      return { kind: 'SetOp', type, card, op: node.op, left, right };
    }
    case '??': {
      // The right side is evaluated only where the left is empty (a mutation there is guarded).
      const [left, right] = bindOperands(ctx, scope, node.left, node.right, (l) =>
        guardedScope(
          scope,
          { kind: 'Exists', type: BOOL, card: ONE, expr: l, negated: false },
          false,
        ),
      );
      const type = unifyTypes(ctx, left.type, right.type, node.span);
      const card: Card = {
        min: left.card.min === 1 || right.card.min === 1 ? 1 : 0,
        max: cardEither(left.card, right.card).max,
      };
      return { kind: 'Coalesce', type, card, left, right };
    }
    default:
      if (isEmptyArray(node.left) !== isEmptyArray(node.right)) {
        // `x ++ []`: the empty array takes the other operand's array type.
        const operands = bindOperands(ctx, scope, node.left, node.right);
        return bindOperatorOn(ctx, node.op, operands, node.span);
      }
      return bindOperator(ctx, scope, node.op, [node.left, node.right], node.span);
  }
}

/** The scope of a conditional branch: a mutation bound in it runs only where `condition` is
 * `when` (Gel's conditional DML; see query/ir `Guard`). */
function guardedScope(scope: Scope, condition: IrExpr, when: boolean): Scope {
  return { ...scope, guards: [...(scope.guards ?? []), { expr: condition, when }] };
}

/** `[]` where an array of `type` is expected: an empty array of that type; else null. */
const isEmptyArray = (n: ql.Expr) => n.kind === 'ArrayLiteral' && n.elements.length === 0;

/** The branches of `a if c else b`, each under its condition; an empty array literal takes the
 * other branch's array type (`if c then [10] else []`). */
export function bindBranches(
  ctx: BindContext,
  scope: Scope,
  condition: IrExpr,
  node: ql.IfElse,
): { then: IrExpr; otherwise: IrExpr } {
  const bindThen = () => bindExpr(ctx, guardedScope(scope, condition, true), node.ifExpr);
  const bindElse = () => bindExpr(ctx, guardedScope(scope, condition, false), node.elseExpr);
  if (isEmptyArray(node.ifExpr) && !isEmptyArray(node.elseExpr)) {
    const otherwise = bindElse();
    return { then: emptyArrayOf(node.ifExpr, otherwise.type) ?? bindThen(), otherwise };
  }
  const then = bindThen();
  return { then, otherwise: emptyArrayOf(node.elseExpr, then.type) ?? bindElse() };
}

/** `[]` given the array type its context expects (an operand's, a pointer's), or null. */
export function emptyArrayOf(node: ql.Expr, type: IrType): IrExpr | null {
  if (node.kind !== 'ArrayLiteral' || node.elements.length !== 0 || type.kind !== 'array')
    return null;
  return { kind: 'ArrayLiteral', type, card: ONE, elements: [] };
}

/**
 * Two operands of one set (`??`, `union`, ...): an empty array literal takes the array type of
 * the other operand (`x ?? []`), as Gel infers it; anything else is bound on its own (the right
 * one in `rightScope(left)` when given).
 */
function bindOperands(
  ctx: BindContext,
  scope: Scope,
  a: ql.Expr,
  b: ql.Expr,
  rightScope?: (left: IrExpr) => Scope,
): [IrExpr, IrExpr] {
  if (isEmptyArray(a) && !isEmptyArray(b)) {
    const right = bindExpr(ctx, scope, b);
    return [emptyArrayOf(a, right.type) ?? bindExpr(ctx, scope, a), right];
  }
  const left = bindExpr(ctx, scope, a);
  const inRight = rightScope ? rightScope(left) : scope;
  return [left, emptyArrayOf(b, left.type) ?? bindExpr(ctx, inRight, b)];
}

export function bindUnary(ctx: BindContext, scope: Scope, node: ql.UnaryOp): IrExpr {
  switch (node.op) {
    case 'exists': {
      const expr = bindExpr(ctx, scope, node.operand);
      return { kind: 'Exists', type: BOOL, card: ONE, expr, negated: false };
    }
    case 'distinct': {
      const expr = bindExpr(ctx, scope, node.operand);
      return { kind: 'Distinct', type: expr.type, card: expr.card, expr };
    }
    default:
      return bindOperator(ctx, scope, node.op, [node.operand], node.span);
  }
}

export function bindIs(ctx: BindContext, scope: Scope, node: ql.IsOp): IrExpr {
  const expr = bindExpr(ctx, scope, node.left);
  const pattern = resolveTypePattern(ctx.index, scope, node.type);
  // The object types a pattern names (`A | FreeObject`: A); an object is never a free object.
  const objectTypes = (pattern.kind === 'anyOf' ? pattern.patterns : [pattern]).flatMap((p) =>
    p.kind === 'type' && p.type.kind === 'object' ? [p.type.name] : [],
  );
  if (isObjectType(expr.type) && objectTypes.length > 0) {
    return {
      kind: 'TypeCheck',
      type: BOOL,
      card: expr.card,
      expr,
      objectType:
        objectTypes.length === 1 ? (objectTypes[0] as string) : ctx.index.unionOf(objectTypes),
      negated: node.negated,
    };
  }
  // An array of objects against `array<T>` of an object type: whether every element is a T is
  // known per array when it runs, as `x is T` is per object (`[Text] is array<Issue>`).
  const elementType = objectArrayPattern(node.type);
  if (
    elementType &&
    expr.type.kind === 'array' &&
    isObjectType(expr.type.element) &&
    pattern.kind === 'array' &&
    pattern.element.kind === 'type' &&
    pattern.element.type.kind === 'object' &&
    !ctx.index.isSubtype(expr.type.element.name, pattern.element.type.name)
  ) {
    return bindExpr(ctx, scope, everyElementIs(node, elementType));
  }
  // Scalars, collections and pseudo-types (`5 is anyint`): the answer is known statically.
  const same = matchesPattern(ctx.index, expr.type, pattern);
  return {
    kind: 'Literal',
    type: BOOL,
    card: expr.card,
    value: String(same !== node.negated),
  };
}

/** `T` of the type expression `array<T>`, if it is one. */
function objectArrayPattern(texpr: ql.TypeExpr): ql.TypeExpr | null {
  if (texpr.kind !== 'TypeName' || texpr.subtypes.length !== 1) return null;
  const { module, name } = texpr.name;
  if (name !== 'array' || (module !== null && module !== 'std')) return null;
  const [element] = texpr.subtypes;
  return element && element.kind !== 'NamedSubtype' ? element : null;
}

/**
 * `a is [not] array<T>` as `for x in a union [not] all(array_unpack(x) is T)`: one answer per
 * array (an empty array is every element a T). `~` keeps the iteration name out of the query's.
 */
function everyElementIs(node: ql.IsOp, element: ql.TypeExpr): ql.Expr {
  const span = node.span;
  const ref = (module: string | null, name: string): ql.ObjectRef => ({
    kind: 'ObjectRef',
    span,
    module,
    name,
  });
  const call = (name: string, arg: ql.Expr): ql.FunctionCall => ({
    kind: 'FunctionCall',
    span,
    func: ref('std', name),
    args: [arg],
    namedArgs: [],
  });
  const each = call('array_unpack', ref(null, '~array'));
  const test: ql.IsOp = { kind: 'IsOp', span, left: each, negated: false, type: element };
  const all = call('all', test);
  const body: ql.Expr = node.negated ? { kind: 'UnaryOp', span, op: 'not', operand: all } : all;
  return {
    kind: 'ForQuery',
    span,
    aliases: [],
    optional: false,
    iteratorAlias: '~array',
    iterator: node.left,
    body,
    union: true,
  };
}

/** The type of a set holding values of `a` and of `b` (union, `??`, if/else, set literals). */
export function unifyTypes(ctx: BindContext, a: IrType, b: IrType, span: ql.Span): IrType {
  if (a.kind === 'empty') return b;
  if (b.kind === 'empty') return a;
  if (sameType(a, b)) return a;
  if (a.kind === 'object' && b.kind === 'object') {
    const name = ctx.index.unionOf([a.name, b.name]);
    checkUnionType(ctx.index, name, span);
    return { kind: 'object', name };
  }
  const common = numericCommon(a, b);
  if (common) return common;
  if (a.kind === 'array' && b.kind === 'array') {
    return { kind: 'array', element: asTypeRef(unifyTypes(ctx, a.element, b.element, span), span) };
  }
  if (a.kind === 'tuple' && b.kind === 'tuple' && a.elements.length === b.elements.length) {
    const sameNames = a.elements.every((e, i) => e.name === b.elements[i]?.name);
    return {
      kind: 'tuple',
      elements: a.elements.map((e, i) => ({
        name: sameNames ? e.name : null,
        type: asTypeRef(
          unifyTypes(ctx, e.type, (b.elements[i] as { type: TypeRef }).type, span),
          span,
        ),
      })),
    };
  }
  return fail(
    InvalidTypeError,
    `cannot combine '${printIrType(a)}' and '${printIrType(b)}' in one set`,
    span,
  );
}

/** The implicit-cast join of two std scalars (int64 ∪ float32 is float64), or null. */
function numericCommon(a: IrType, b: IrType): IrType | null {
  if (a.kind !== 'scalar' || b.kind !== 'scalar') return null;
  const joined = implicitJoin(a.name, b.name);
  return joined === null ? null : { kind: 'scalar', name: joined };
}

export function expectBool(expr: IrExpr, span: ql.Span): void {
  if (
    expr.type.kind !== 'empty' &&
    !(expr.type.kind === 'scalar' && expr.type.name === 'std::bool')
  ) {
    fail(InvalidTypeError, `expected a bool, got '${printIrType(expr.type)}'`, span);
  }
}
