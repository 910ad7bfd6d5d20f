/**
 * bind/statement: statements → IR: `with` (aliases, `module`, module aliases), `select` with
 * filter / order by / offset / limit (also used for a shape element's own clauses), `for ... in
 * ... union (...)`, and `group ... using ... by ...`. Insert, update and delete are bound by the
 * mutation binder (query/bind/mutation*.ts, another part of the compiler).
 *
 * Cardinality (Gel's rules, conservative): a filter makes the minimum 0; a filter that compares
 * `.id` or an exclusive pointer of the subject with at most one value makes the maximum 1;
 * `limit 0` empties, `limit 1` makes at most one; offset or limit makes the minimum 0.
 */
import type * as ql from '../../syntax';
import { InvalidTypeError, QueryError } from '../../errors';
import {
  AT_MOST_ONE,
  MANY,
  ONE,
  cardAtMostOne,
  cardOptional,
  cardProduct,
  type Binding,
  type Card,
  type IrExpr,
  type SortKey,
} from '../ir';
import { fail, type BindContext, type Scope } from './context';
import { bindExpr, bindingRef, expectBool, pathIdOf, subjectScope, withPathId } from './expr';
import { mutationChildren } from '../mutation-ir';
import { bindMutation, recordWrites } from './mutation';
import { visiblePathIds } from './factoring';
import { linkOf } from './shape';
import { moduleOf, printIrType } from './types';

const STR = { kind: 'scalar', name: 'std::str' } as const;
const BOOL = { kind: 'scalar', name: 'std::bool' } as const;

export function bindStatement(ctx: BindContext, scope: Scope, node: ql.Query): IrExpr {
  switch (node.kind) {
    case 'SelectQuery':
      return bindSelect(ctx, scope, node);
    case 'ForQuery':
      return bindFor(ctx, scope, node);
    case 'GroupQuery':
      return bindGroup(ctx, scope, node);
    case 'InsertQuery':
    case 'UpdateQuery':
    case 'DeleteQuery':
      return bindMutation(ctx, scope, node);
  }
}

/** The scope inside `with ...`: module settings and aliases, each seeing the ones before it. */
export function withScope(ctx: BindContext, scope: Scope, items: readonly ql.WithItem[]): Scope {
  let current = scope;
  for (const item of items) {
    if (item.kind === 'ModuleAlias') {
      const module = moduleOf(ctx.index, current, item.module, item.span);
      if (item.alias === null) current = { ...current, module };
      else
        current = {
          ...current,
          moduleAliases: new Map([...current.moduleAliases, [item.alias, module]]),
        };
      continue;
    }
    // An alias body names sets afresh (`with U2 := User select User {...}`: two sets of users),
    // except the subjects enclosing the `with` (inside `User { x := (with U := User ...) }`).
    const body: Scope = {
      ...current,
      aliasNamespace: `${current.aliasNamespace}~w${ctx.freshId()}`,
    };
    const expr = bindExpr(ctx, body, item.expr);
    recordWrites(ctx, expr);
    const binding: Binding = { id: ctx.freshId(), name: item.alias, expr, iteration: false };
    current = { ...current, names: new Map([...current.names, [item.alias, binding]]) };
  }
  return current;
}

function bindSelect(ctx: BindContext, scope: Scope, q: ql.SelectQuery): IrExpr {
  let s = withScope(ctx, scope, q.aliases);
  let result = bindExpr(ctx, s, q.result);
  if (q.resultAlias !== null) {
    const binding: Binding = {
      id: ctx.freshId(),
      name: q.resultAlias,
      expr: result,
      iteration: false,
    };
    s = { ...s, names: new Map([...s.names, [q.resultAlias, binding]]) };
    result = bindingRef(binding);
  }
  // A select is a fence even without clauses: paths inside it are its own (Gel's scoping).
  return selectOver(ctx, s, result, q, q.span);
}

/** `result filter ... order by ... offset ... limit ...`, the clauses bound with its subject as `.`. */
export function selectOver(
  ctx: BindContext,
  scope: Scope,
  result: IrExpr,
  clauses: {
    readonly filter: ql.Expr | null;
    readonly orderBy: readonly ql.SortExpr[];
    readonly offset: ql.Expr | null;
    readonly limit: ql.Expr | null;
  },
  span: ql.Span,
): IrExpr {
  const core = withPathId(ctx, scope, result.kind === 'Shape' ? result.subject : result);
  if (result.kind !== 'Shape') result = core;
  const subjectId = pathIdOf(core) as string;
  const subjectBase = subjectScope(scope, core, linkOf(core));
  // The paths the subject reads element-wise are one element in the clauses (Gel's factoring).
  const base: Scope = {
    ...subjectBase,
    singletons: new Set([...subjectBase.singletons, ...visiblePathIds(core)]),
  };
  // `.x` in the clauses reaches the computed elements of the select's own shape.
  const inner: Scope =
    result.kind === 'Shape'
      ? { ...base, views: new Map([...base.views, [subjectId, result]]) }
      : base;
  let filter: IrExpr | null = null;
  let card: Card = result.card;
  if (clauses.filter) {
    filter = bindExpr(ctx, inner, clauses.filter);
    expectBool(filter, clauses.filter.span);
    // `filter {}` is never true: nothing is kept.
    if (filter.type.kind === 'empty')
      filter = { kind: 'Literal', type: BOOL, card: ONE, value: 'false' };
    card = cardOptional(card);
    if (isExclusiveFilter(ctx, filter, subjectId)) card = cardAtMostOne(card);
  }
  const orderBy: SortKey[] = clauses.orderBy.map((k) => {
    const expr = bindExpr(ctx, inner, k.expr);
    if (expr.card.max === 'many') {
      fail(QueryError, 'an order by key must be a single value per element', k.span ?? span);
    }
    const direction = k.direction ?? 'asc';
    return { expr, direction, empty: k.emptyOrder ?? (direction === 'asc' ? 'first' : 'last') };
  });
  const offset = clauses.offset ? bindCount(ctx, scope, clauses.offset, 'offset') : null;
  const limit = clauses.limit ? bindCount(ctx, scope, clauses.limit, 'limit') : null;
  // Gel's bounds: an offset, `limit 0` or a limit not written as a literal may leave nothing; a
  // literal positive limit keeps the lower bound.
  if (offset || (limit && limit.kind !== 'Literal')) card = cardOptional(card);
  if (limit?.kind === 'Literal') {
    if (limit.value === '0') card = { min: 0, max: 0 };
    else if (limit.value === '1') card = cardAtMostOne(card);
  }
  return {
    kind: 'Select',
    type: result.type,
    card,
    subject: core,
    subjectPathId: subjectId,
    result,
    filter,
    orderBy,
    offset,
    limit,
  };
}

function bindCount(ctx: BindContext, scope: Scope, node: ql.Expr, what: string): IrExpr {
  const expr = bindExpr(ctx, scope, node);
  const ok =
    expr.type.kind === 'scalar' &&
    ['std::int64', 'std::int32', 'std::int16'].includes(expr.type.name);
  if (!ok)
    fail(
      InvalidTypeError,
      `${what} must be an integer, not '${printIrType(expr.type)}'`,
      node.span,
    );
  if (expr.card.max === 'many') fail(QueryError, `${what} must be a single value`, node.span);
  return expr;
}

/**
 * True when the filter pins the subject to at most one object: `.id = x`, `.p = x` for an
 * exclusive pointer `p` of the subject, `x = .p`, or a conjunction containing one, with `x`
 * at most one value not read from the subject.
 */
function isExclusiveFilter(ctx: BindContext, filter: IrExpr, subjectId: string): boolean {
  if (filter.kind !== 'Call') return false;
  if (filter.name === 'std::and') {
    return filter.args.some((a) => isExclusiveFilter(ctx, a, subjectId));
  }
  if (filter.name !== 'std::=' || filter.args.length !== 2) return false;
  const [a, b] = filter.args as [IrExpr, IrExpr];
  return (
    (isExclusiveStep(a, subjectId) && isSingleOutside(b, subjectId)) ||
    (isExclusiveStep(b, subjectId) && isSingleOutside(a, subjectId))
  );
}

function isExclusiveStep(expr: IrExpr, subjectId: string): boolean {
  if (expr.kind !== 'PointerStep' || pathIdOf(expr.source) !== subjectId || expr.pointer.many)
    return false;
  if (expr.pointer.name === 'id') return true;
  return (expr.pointer.model?.constraints ?? []).some(
    (c) => c.name === 'std::exclusive' && c.subjectExpr === null && c.except === null,
  );
}

function isSingleOutside(expr: IrExpr, subjectId: string): boolean {
  if (expr.card.max === 'many') return false;
  return !mentions(expr, subjectId);
}

/** Whether a path with this id (or below it) occurs in `expr`. */
function mentions(expr: IrExpr, pathId: string): boolean {
  const id = pathIdOf(expr);
  if (id !== null && (id === pathId || id.startsWith(`${pathId}.`) || id.startsWith(`${pathId}[`)))
    return true;
  for (const child of children(expr)) if (mentions(child, pathId)) return true;
  return false;
}

/** The direct sub-expressions of a node (for analyses that walk the IR). */
export function children(expr: IrExpr): IrExpr[] {
  switch (expr.kind) {
    case 'Literal':
    case 'Param':
    case 'TypeRoot':
    case 'BindingRef':
      return [];
    case 'PointerStep':
      return [expr.source];
    case 'Backlink':
    case 'Intersection':
      return [expr.source];
    case 'LinkProperty':
      return [expr.link];
    case 'Shape':
      return [expr.subject, ...expr.elements.map((e) => e.expr)];
    case 'FreeObject':
      return expr.elements.map((e) => e.expr);
    case 'Call':
      return [...expr.args];
    case 'Cast':
    case 'ObjectCast':
    case 'Distinct':
    case 'Exists':
    case 'TypeCheck':
    case 'Assert':
      return [expr.expr];
    case 'SetLiteral':
    case 'ArrayLiteral':
    case 'TupleLiteral':
      return [...expr.elements];
    case 'TupleElement':
      return [expr.tuple];
    case 'SetOp':
    case 'Coalesce':
      return [expr.left, expr.right];
    case 'IfElse':
      return [expr.condition, expr.then, expr.else];
    case 'Select':
      return [
        expr.subject,
        expr.result,
        ...(expr.filter ? [expr.filter] : []),
        ...expr.orderBy.map((k) => k.expr),
        ...(expr.offset ? [expr.offset] : []),
        ...(expr.limit ? [expr.limit] : []),
      ];
    case 'For':
      return [expr.iterator, expr.body];
    case 'Group':
      return [expr.subject, ...expr.keys.map((k) => k.expr), expr.elements];
    case 'GroupKey':
    case 'GroupElements':
      return [expr.group];
    case 'Insert':
    case 'Update':
    case 'Delete':
      return mutationChildren(expr);
  }
}

function bindFor(ctx: BindContext, scope: Scope, q: ql.ForQuery): IrExpr {
  const s = withScope(ctx, scope, q.aliases);
  // The iterator names its sets afresh (`for C in Card union count(Card)`: two sets of cards).
  const iterator = bindExpr(
    ctx,
    { ...s, aliasNamespace: `${s.aliasNamespace}~f${ctx.freshId()}` },
    q.iterator,
  );
  const binding: Binding = {
    id: ctx.freshId(),
    name: q.iteratorAlias,
    expr: iterator,
    iteration: true,
  };
  const bodyScope: Scope = { ...s, names: new Map([...s.names, [q.iteratorAlias, binding]]) };
  const body = bindExpr(ctx, bodyScope, q.body);
  const iterations: Card = q.optional
    ? { min: 1, max: iterator.card.max === 0 ? 1 : iterator.card.max }
    : iterator.card;
  return {
    kind: 'For',
    type: body.type,
    card: cardProduct(iterations, body.card),
    binding,
    iterator,
    body,
    optional: q.optional,
  };
}

function bindGroup(ctx: BindContext, scope: Scope, q: ql.GroupQuery): IrExpr {
  let s = withScope(ctx, scope, q.aliases);
  let subject = bindExpr(ctx, s, q.subject);
  if (q.subjectAlias !== null) {
    const binding: Binding = {
      id: ctx.freshId(),
      name: q.subjectAlias,
      expr: subject,
      iteration: false,
    };
    s = { ...s, names: new Map([...s.names, [q.subjectAlias, binding]]) };
    subject = bindingRef(binding);
  }
  const core = withPathId(ctx, s, subject.kind === 'Shape' ? subject.subject : subject);
  const inner = subjectScope(s, core, linkOf(core));
  const using = new Map<string, IrExpr>();
  for (const u of q.using ?? []) using.set(u.alias, bindExpr(ctx, inner, u.expr));
  const keys: { name: string; expr: IrExpr }[] = [];
  const addKey = (ident: ql.GroupingIdent): void => {
    if (ident.kind === 'ObjectRef') {
      const expr = using.get(ident.name);
      if (!expr) return fail(QueryError, `'${ident.name}' is not a \`using\` alias`, ident.span);
      keys.push({ name: ident.name, expr });
    } else {
      const step = ident.steps[ident.steps.length - 1];
      keys.push({
        name: step?.kind === 'Ptr' ? step.name : 'key',
        expr: bindExpr(ctx, inner, ident),
      });
    }
  };
  for (const element of q.by) {
    if (element.kind !== 'GroupingSimple') {
      return fail(QueryError, 'grouping sets, rollup and cube are not supported yet', element.span);
    }
    // `by (a, b)` groups by both, as `by a, b` does.
    if (element.element.kind === 'GroupingIdentList') element.element.elements.forEach(addKey);
    else addKey(element.element);
  }
  for (const k of keys) {
    if (k.expr.card.max === 'many')
      fail(QueryError, `grouping key '${k.name}' must be a single value per element`, q.span);
  }
  return {
    kind: 'Group',
    type: {
      kind: 'free',
      elements: [
        {
          name: 'key',
          type: {
            kind: 'free',
            elements: keys.map((k) => ({ name: k.name, type: k.expr.type, card: AT_MOST_ONE })),
          },
          card: ONE,
        },
        { name: 'grouping', type: STR, card: MANY },
        { name: 'elements', type: subject.type, card: MANY },
      ],
    },
    card: { min: subject.card.min, max: subject.card.max === 0 ? 0 : 'many' },
    subject: core,
    subjectPathId: pathIdOf(core) as string,
    keys,
    elements: subject,
    pathId: `group#${ctx.freshId()}`,
  };
}
