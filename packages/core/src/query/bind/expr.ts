/**
 * bind/expr: EdgeQL expressions → IR sets with types and cardinality: the binder of each kind of
 * syntax node (the table bind/dispatch's `bindExpr` dispatches on), and those of literals,
 * collections, `if ... else`, `detached` and anchors. Names are bind/names, paths bind/paths and
 * bind/links, casts and operators bind/operators, calls bind/calls, statements bind/statement and
 * bind/mutation, shapes bind/shape.
 *
 * Input: a syntax node, the BindContext and a Scope. Output: an `IrExpr`.
 * Errors: InvalidReferenceError (unknown names, with positions), InvalidTypeError (types that do
 * not fit), QueryError for what the compiler does not do yet; never anything else.
 */
import type * as ql from '../../syntax';
import {
  InvalidDefinitionError,
  InvalidReferenceError,
  InvalidTypeError,
  QueryError,
  QueryArgumentError,
} from '../../errors';
import {
  EMPTY,
  ONE,
  cardProduct,
  cardUnion,
  cardEither,
  type Binding,
  type Card,
  type IrExpr,
  type IrType,
} from '../ir';
import { BindContext, fail, type Scope } from './context';
import { isObjectType, registerTypeOfBinder, asTypeRef } from './types';
import { bindShape } from './shape';
import { bindFor, bindGroup, bindInternalGroup, bindSelect } from './statement';
import { bindMutation } from './mutation';
import { bindCall, bindOperator, bindSlice, literalType } from './calls';
import { refuseCorrelatedWrites } from './dml-correlation';
import { checkComputedElement } from './shape-checks';
import { checkUnionOperands } from './union-check';
import { bindGlobal, bindIntrospect, bindName, bindingRef, inScope } from './names';
import {
  bindBinOp,
  bindBranches,
  bindIs,
  bindTypeCast,
  bindUnary,
  expectBool,
  unifyTypes,
} from './operators';
import { bindPath } from './paths';
import { bindExpr, registerBinders, type BinderTable } from './dispatch';

// What other modules (schema/build/bound.ts) take from here.
export { bindExpr } from './dispatch';
export { bindingRef, subjectScope } from './names';
export { pointerStep } from './paths';

// `typeof e` in a type position (bind/types): e's static type, bound apart (its parameters and
// sets are never evaluated, so a context of its own).
registerTypeOfBinder((index, scope, expr) =>
  asTypeRef(bindExpr(new BindContext(index, 'query'), scope, expr).type, expr.span),
);

/** The binder of each kind of syntax node (bind/dispatch). */
const BINDERS: BinderTable = {
  Constant: (_ctx, _scope, node) => ({
    kind: 'Literal',
    type: literalType(node.scalar),
    card: ONE,
    value: node.value,
  }),
  BytesConstant: (_ctx, _scope, node) => ({
    kind: 'Literal',
    type: { kind: 'scalar', name: 'std::bytes' },
    card: ONE,
    value: node.value,
  }),
  Parameter: (ctx, _scope, node) =>
    fail(
      ctx.mode === 'ddl' ? InvalidDefinitionError : QueryArgumentError,
      `parameter $${node.name} needs a type: write <type>$${node.name}`,
      node.span,
    ),
  TypeCast: bindTypeCast,
  ObjectRef: bindName,
  Path: bindPath,
  Shape: (ctx, scope, node) => {
    if (node.subject === null) return bindFreeObject(ctx, scope, node.elements);
    const subject = bindExpr(ctx, scope, node.subject);
    return bindShape(ctx, scope, subject, node.elements, node.span);
  },
  BinOp: bindBinOp,
  UnaryOp: bindUnary,
  IsOp: bindIs,
  IfElse: (ctx, scope, node) => {
    const condition = bindExpr(ctx, scope, node.condition);
    const { then, otherwise } = bindBranches(ctx, scope, condition, node);
    expectBool(condition, node.condition.span);
    const type = unifyTypes(ctx, then.type, otherwise.type, node.span);
    const branches = cardEither(then.card, otherwise.card);
    return {
      kind: 'IfElse',
      type,
      card: cardProduct(condition.card, branches),
      condition,
      then,
      else: otherwise,
    };
  },
  FunctionCall: bindCall,
  Index: (ctx, scope, node) =>
    bindOperator(ctx, scope, '[]', [node.subject, node.index], node.span),
  Slice: bindSlice,
  SetLiteral: bindSetLiteral,
  ArrayLiteral: (ctx, scope, node) => {
    const elements = node.elements.map((e) => bindExpr(ctx, scope, e));
    refuseCorrelatedWrites(elements, node.span);
    if (elements.length === 0) {
      return fail(InvalidTypeError, 'an empty array needs a type: write <array<T>>[]', node.span);
    }
    let element: IrType = (elements[0] as IrExpr).type;
    for (const e of elements.slice(1)) element = unifyTypes(ctx, element, e.type, node.span);
    if (element.kind === 'free' || element.kind === 'empty') {
      return fail(InvalidTypeError, 'array elements must have a type', node.span);
    }
    return {
      kind: 'ArrayLiteral',
      type: { kind: 'array', element },
      card: elements.reduce<Card>((c, e) => cardProduct(c, e.card), ONE),
      elements,
    };
  },
  TupleLiteral: bindTupleLiteral,
  NamedTupleLiteral: bindTupleLiteral,
  Detached: (ctx, scope, node) =>
    bindExpr(
      ctx,
      {
        ...scope,
        namespace: `${scope.namespace}~${ctx.freshId()}`,
        inserting: undefined,
        names: detachedNames(scope.names),
      },
      node.expr,
    ),
  GlobalRef: bindGlobal,
  Introspect: bindIntrospect,
  Anchor: (_ctx, scope, node) => {
    if (node.name === '__subject__' && scope.subject) return scope.subject;
    if (node.name === '__source__') {
      // A computed's source: the object it is read from (bound by name where it is not the
      // subject: a link property's computed, schema/build/bound.ts).
      const source = scope.names.get(node.name);
      if (source) return inScope(scope, bindingRef(source));
      if (scope.subject && isObjectType(scope.subject.type)) return scope.subject;
    }
    if (node.name === '__default__' && scope.dunderDefault) return scope.dunderDefault;
    return fail(InvalidReferenceError, `'${node.name}' cannot be used here`, node.span);
  },
  SelectQuery: bindSelect,
  ForQuery: bindFor,
  GroupQuery: bindGroup,
  InternalGroupQuery: bindInternalGroup,
  InsertQuery: bindMutation,
  UpdateQuery: bindMutation,
  DeleteQuery: bindMutation,
};

registerBinders(BINDERS);

function bindTupleLiteral(
  ctx: BindContext,
  scope: Scope,
  node: Extract<ql.Expr, { kind: 'TupleLiteral' | 'NamedTupleLiteral' }>,
): IrExpr {
  const named = node.kind === 'NamedTupleLiteral';
  const parts = named
    ? node.elements.map((e) => ({ name: e.name as string | null, value: e.value }))
    : node.elements.map((e) => ({ name: null as string | null, value: e }));
  if (named) refuseDuplicateFields(node.elements);
  const elements = parts.map((p) => bindExpr(ctx, scope, p.value));
  refuseCorrelatedWrites(elements, node.span);
  const types = elements.map((e, i) => ({
    name: parts[i]?.name ?? null,
    type: asTypeRef(e.type, node.span),
  }));
  return {
    kind: 'TupleLiteral',
    type: { kind: 'tuple', elements: types },
    card: elements.reduce<Card>((c, e) => cardProduct(c, e.card), ONE),
    elements,
    names: named ? parts.map((p) => p.name as string) : null,
  };
}

/** `(a := 1, a := 2)`: a named tuple's fields are distinct (Gel: QueryError). */
function refuseDuplicateFields(elements: readonly ql.TupleElement[]): void {
  const seen = new Set<string>();
  for (const e of elements) {
    if (seen.has(e.name)) fail(QueryError, `named tuple has duplicate field '${e.name}'`, e.span);
    seen.add(e.name);
  }
}

function bindSetLiteral(ctx: BindContext, scope: Scope, node: ql.SetLiteral): IrExpr {
  const elements = node.elements.map((e) => bindExpr(ctx, scope, e));
  if (elements.length === 0)
    return { kind: 'SetLiteral', type: { kind: 'empty' }, card: EMPTY, elements };
  if (elements.length === 1) return elements[0] as IrExpr;
  let type: IrType = (elements[0] as IrExpr).type;
  let card: Card = (elements[0] as IrExpr).card;
  for (const e of elements.slice(1)) {
    type = unifyTypes(ctx, type, e.type, node.span);
    card = cardUnion(card, e.card);
  }
  checkUnionOperands(ctx, elements, node.span);
  return { kind: 'SetLiteral', type, card, elements };
}

function bindFreeObject(
  ctx: BindContext,
  scope: Scope,
  elements: readonly ql.ShapeElement[],
): IrExpr {
  const bound = elements.map((el) => {
    const [step] = el.path;
    if (el.path.length !== 1 || step?.kind !== 'Ptr' || step.via !== '.' || !el.compExpr) {
      return fail(QueryError, 'a free object holds only `name := expr` elements', el.span);
    }
    let expr = bindExpr(ctx, scope, el.compExpr);
    if (el.elements) expr = bindShape(ctx, scope, expr, el.elements, el.span);
    // `multi x := ...` is a list even when it holds one value or none.
    if (el.cardinality === 'multi' && expr.card.max !== 'many')
      expr = { ...expr, card: { min: expr.card.min, max: 'many' } };
    checkComputedElement(
      ctx.index,
      {
        name: step.name,
        owner: 'std::FreeObject',
        base: null,
        computed: true,
        required: el.required,
        cardinality: el.cardinality,
        span: el.span,
        exprSpan: el.compExpr.span,
      },
      expr,
    );
    return { name: step.name, expr, onlyFor: null };
  });
  return {
    kind: 'FreeObject',
    type: {
      kind: 'free',
      elements: bound.map((b) => ({ name: b.name, type: b.expr.type, card: b.expr.card })),
    },
    card: ONE,
    elements: bound,
  };
}

/**
 * The names a `detached` expression sees: not the aliases around it (`with`, `for`, select
 * aliases), so `detached Card` under `with Card := ...` is every Card, as in Gel; an inlined
 * function's parameters stay (they are the function's inputs, not aliases).
 */
function detachedNames(names: ReadonlyMap<string, Binding>): ReadonlyMap<string, Binding> {
  return new Map([...names].filter(([, b]) => b.parameter === true));
}
