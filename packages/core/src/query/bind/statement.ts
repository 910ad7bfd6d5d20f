/**
 * bind/statement: statements → IR: `with` (aliases, `module`, module aliases), `select` with
 * filter / order by / offset / limit (also used for a shape element's own clauses), `for ... in
 * ... union (...)`, and `group ... using ... by ...`. Insert, update and delete are bound by the
 * mutation binder (bind/mutation); bind/expr's table sends each statement to its binder.
 *
 * Cardinality (Gel's rules, conservative): a filter makes the minimum 0; a filter that compares
 * `.id` or an exclusive pointer of the subject with at most one value makes the maximum 1;
 * `limit 0` empties, `limit 1` makes at most one; offset or limit makes the minimum 0.
 */
import { linkOf } from './links';
import type * as ql from '../../syntax';
import {
  InvalidReferenceError,
  InvalidTypeError,
  QueryError,
  UnsupportedFeatureError,
} from '../../errors';
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
  children,
  pathIdOf,
  type SortKey,
} from '../ir';
import { fail, type BindContext, type Scope } from './context';
import { bindExpr } from './dispatch';
import { bindingRef, subjectScope, withPathId } from './names';
import { expectBool } from './operators';
import { recordWrites } from './mutation-writes';
import { refuseWritingFreeObjectBinding } from './shape-writes';
import { visiblePathIds } from './factoring';
import { moduleOf, printIrType } from './types';

const STR = { kind: 'scalar', name: 'std::str' } as const;
const BOOL = { kind: 'scalar', name: 'std::bool' } as const;

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
    refuseWritingFreeObjectBinding(expr, item.expr.span);
    recordWrites(ctx, expr);
    const binding: Binding = {
      id: ctx.freshId(),
      name: item.alias,
      expr,
      iteration: false,
      withAlias: true,
    };
    current = { ...current, names: new Map([...current.names, [item.alias, binding]]) };
  }
  return current;
}

export function bindSelect(ctx: BindContext, scope: Scope, q: ql.SelectQuery): IrExpr {
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
  const subjectBase = subjectScope(scope, core, linkOf(ctx, core));
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
    refuseMutationIn(clauses.filter, 'a FILTER clause');
    filter = bindExpr(ctx, inner, clauses.filter);
    expectBool(filter, clauses.filter.span);
    // `filter {}` is never true: nothing is kept.
    if (filter.type.kind === 'empty')
      filter = { kind: 'Literal', type: BOOL, card: ONE, value: 'false' };
    card = cardOptional(card);
    // A subject shown with its link's properties has an element per link, not per object: an
    // exclusive filter still leaves one per link to it.
    if (isExclusiveFilter(ctx, filter, subjectId) && !readsOwnLinkProperties(result, subjectId))
      card = cardAtMostOne(card);
  }
  const orderBy: SortKey[] = clauses.orderBy.map((k) => {
    refuseMutationIn(k.expr, 'an ORDER BY clause');
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

/** Gel: a FILTER or ORDER BY clause only reads; an insert, update or delete written in one is refused. */
function refuseMutationIn(node: ql.Expr, clause: string): void {
  const kinds: Record<string, string> = {
    InsertQuery: 'INSERT',
    UpdateQuery: 'UPDATE',
    DeleteQuery: 'DELETE',
  };
  const find = (value: unknown): { kind: string; span: ql.Span } | null => {
    if (Array.isArray(value)) {
      for (const item of value) {
        const found = find(item);
        if (found) return found;
      }
      return null;
    }
    if (value === null || typeof value !== 'object') return null;
    const kind = (value as { kind?: unknown }).kind;
    if (typeof kind === 'string' && kind in kinds) return value as { kind: string; span: ql.Span };
    for (const [key, child] of Object.entries(value)) {
      if (key === 'span') continue;
      const found = find(child);
      if (found) return found;
    }
    return null;
  };
  const mutation = find(node);
  if (mutation) {
    fail(
      QueryError,
      `${kinds[mutation.kind]} statements cannot be used in ${clause}`,
      mutation.span,
    );
  }
}

/**
 * True when the filter pins the subject to at most one object: `.id = x`, `.p = x` for an
 * exclusive pointer `p` of the subject, the subject itself `= x`, `x = .p`, or a conjunction
 * containing one, with `x`
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
  // The subject object itself (`filter Status = x`): objects compare by their id.
  if (expr.type.kind === 'object' && pathIdOf(expr) === subjectId) return true;
  if (expr.kind !== 'PointerStep' || pathIdOf(expr.source) !== subjectId || expr.pointer.many)
    return false;
  if (expr.pointer.name === 'id') return true;
  return (expr.pointer.model?.constraints ?? []).some(
    (c) => c.name === 'std::exclusive' && c.subjectExpr === null && c.except === null,
  );
}

/** Whether a shape reads a property of the link its subject (`subjectId`) is reached by. */
function readsOwnLinkProperties(result: IrExpr, subjectId: string): boolean {
  if (result.kind !== 'Shape') return false;
  const reads = (expr: IrExpr): boolean =>
    (expr.kind === 'LinkProperty' && pathIdOf(expr.link) === subjectId) ||
    children(expr).some(reads);
  return result.elements.some((el) => reads(el.expr));
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

export function bindFor(ctx: BindContext, scope: Scope, q: ql.ForQuery): IrExpr {
  const s = withScope(ctx, scope, q.aliases);
  // The iterator names its sets afresh (`for C in Card union count(Card)`: two sets of cards).
  const iterator = bindExpr(
    ctx,
    { ...s, aliasNamespace: `${s.aliasNamespace}~f${ctx.freshId()}` },
    q.iterator,
  );
  if (iterator.type.kind === 'empty') {
    // `for x in {} ...`: the iterator's elements have no type to bind `x` with (Gel's rule).
    return fail(
      QueryError,
      'FOR statement has iterator of indeterminate type: cast the empty set, e.g. <int64>{}',
      q.iterator.span,
    );
  }
  const binding: Binding = {
    id: ctx.freshId(),
    name: q.iteratorAlias,
    expr: iterator,
    iteration: true,
    ...(q.optional ? { optional: true } : {}),
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

export function bindGroup(ctx: BindContext, scope: Scope, q: ql.GroupQuery): IrExpr {
  return groupOver(ctx, withScope(ctx, scope, q.aliases), q);
}

/**
 * `for group X using k := e by k in g [, grouping] union result [filter] [order by]`: a `for`
 * over the groups of `group X using ... by ...`, the result bound once per group with `g` the
 * group's elements, each key alias its key and `grouping` the names of the keys it groups by.
 * The filter and order by see the result (`.x`, its alias) and the key aliases.
 */
export function bindInternalGroup(
  ctx: BindContext,
  scope: Scope,
  q: ql.InternalGroupQuery,
): IrExpr {
  const s = withScope(ctx, scope, q.aliases);
  // The subject names its sets afresh: in the result, `Card` is every card again.
  const group = groupOver(
    ctx,
    { ...s, aliasNamespace: `${s.aliasNamespace}~g${ctx.freshId()}` },
    q,
  ) as Extract<IrExpr, { kind: 'Group' }>;
  const iteration: Binding = { id: ctx.freshId(), name: '(group)', expr: group, iteration: true };
  const ref = bindingRef(iteration);
  const keyNames = new Map<string, Binding>();
  group.keys.forEach((k, index) => {
    const key: IrExpr = {
      kind: 'GroupKey',
      type: k.expr.type,
      card: AT_MOST_ONE,
      group: ref,
      index,
    };
    keyNames.set(k.name, {
      id: ctx.freshId(),
      name: k.name,
      expr: key,
      iteration: false,
      transparent: true,
    });
  });
  const elements: IrExpr = {
    kind: 'GroupElements',
    type: group.elements.type,
    card: { min: 1, max: 'many' },
    group: ref,
  };
  const body = new Map([...s.names, ...keyNames]);
  body.set(q.groupAlias, {
    id: ctx.freshId(),
    name: q.groupAlias,
    expr: elements,
    iteration: false,
  });
  if (q.groupingAlias !== null) {
    body.set(q.groupingAlias, {
      id: ctx.freshId(),
      name: q.groupingAlias,
      expr: {
        kind: 'GroupGrouping',
        type: { kind: 'array', element: STR },
        card: ONE,
        group: ref,
        array: true,
      },
      iteration: false,
      transparent: true,
    });
  }
  const result = bindExpr(ctx, { ...s, names: body }, q.result);
  let over: IrExpr = {
    kind: 'For',
    type: result.type,
    card: cardProduct(group.card, result.card),
    binding: iteration,
    iterator: group,
    body: result,
    optional: false,
  };
  const clauses = new Map([...s.names, ...keyNames]);
  if (q.resultAlias !== null) {
    const binding: Binding = {
      id: ctx.freshId(),
      name: q.resultAlias,
      expr: over,
      iteration: false,
    };
    clauses.set(q.resultAlias, binding);
    over = bindingRef(binding);
  }
  return selectOver(
    ctx,
    { ...s, names: clauses },
    over,
    { filter: q.filter, orderBy: q.orderBy, offset: null, limit: null },
    q.span,
  );
}

/** `group X using ... by ...`: the groups, each {key, grouping, elements}. */
function groupOver(
  ctx: BindContext,
  scope: Scope,
  q: {
    readonly subject: ql.Expr;
    readonly subjectAlias: string | null;
    readonly using: readonly ql.AliasedExpr[] | null;
    readonly by: readonly ql.GroupingElement[];
    readonly span: ql.Span;
  },
): IrExpr {
  let s = scope;
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
  const base = subjectScope(s, core, linkOf(ctx, core));
  // `.x` in `using` reaches the computed elements of the subject's shape.
  const inner: Scope =
    subject.kind === 'Shape'
      ? { ...base, views: new Map([...base.views, [pathIdOf(core) as string, subject]]) }
      : base;
  // Each `using` alias sees the ones before it (`using x := count(.owners), n := x`).
  let usingScope = inner;
  const using = new Map<string, IrExpr>();
  for (const u of q.using ?? []) {
    if (u.alias === 'id')
      fail(UnsupportedFeatureError, "may not name a grouping alias 'id'", u.span);
    const expr = bindExpr(ctx, usingScope, u.expr);
    using.set(u.alias, expr);
    const binding: Binding = {
      id: ctx.freshId(),
      name: u.alias,
      expr,
      iteration: false,
      transparent: true,
    };
    usingScope = { ...usingScope, names: new Map([...usingScope.names, [u.alias, binding]]) };
  }
  const { keys, sets } = groupingSets(q.by, (ident) => {
    if (ident.kind === 'ObjectRef') {
      const expr = using.get(ident.name);
      if (!expr)
        return fail(
          InvalidReferenceError,
          `variable '${ident.name}' referenced in BY but not declared in USING`,
          ident.span,
        );
      return { name: ident.name, expr };
    }
    const step = ident.steps[ident.steps.length - 1];
    const name = step?.kind === 'Ptr' ? step.name : 'key';
    if (name === 'id')
      fail(
        UnsupportedFeatureError,
        'may not group by a field named id',
        ident.span,
        "try 'using id_ := .id'",
      );
    return { name, expr: bindExpr(ctx, inner, ident) };
  });
  for (const k of keys) {
    if (k.expr.card.max === 'many')
      fail(QueryError, `grouping key '${k.name}' must be a single value per element`, q.span);
    if (k.expr.type.kind === 'free')
      fail(QueryError, `grouping key '${k.name}' is a free object: group by its elements`, q.span);
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
    sets,
    elements: subject,
    pathId: `group#${ctx.freshId()}`,
  };
}

/**
 * The keys and grouping sets of `by ...` (Gel's GROUP): an element `a` or `(a, b)` is one set,
 * `{e, ...}` the sets of each `e`, `rollup(a, b)` the prefixes {(), (a), (a, b)}, `cube(a, b)`
 * every subset; elements side by side multiply (`a, {b, c}` is {(a, b), (a, c)}). Keys are
 * numbered in order of first appearance, one per name.
 */
function groupingSets(
  by: readonly ql.GroupingElement[],
  resolve: (ident: ql.GroupingIdent) => { name: string; expr: IrExpr },
): { keys: { name: string; expr: IrExpr }[]; sets: number[][] } {
  const keys: { name: string; expr: IrExpr }[] = [];
  const keyIndex = (ident: ql.GroupingIdent): number => {
    const key = resolve(ident);
    const known = keys.findIndex((k) => k.name === key.name);
    if (known >= 0) return known;
    keys.push(key);
    return keys.length - 1;
  };
  const atom = (a: ql.GroupingAtom): number[] =>
    a.kind === 'GroupingIdentList' ? a.elements.map(keyIndex) : [keyIndex(a)];
  const expand = (element: ql.GroupingElement): number[][] => {
    switch (element.kind) {
      case 'GroupingSimple':
        return [atom(element.element)];
      case 'GroupingSets':
        // Gel's grammar has no empty `{}` here: it would leave no grouping set at all.
        if (element.sets.length === 0)
          return fail(QueryError, 'a grouping set list `{...}` cannot be empty', element.span);
        return element.sets.flatMap(expand);
      case 'GroupingOperation': {
        const parts = element.elements.map(atom);
        if (element.op === 'rollup')
          return parts.map((_, i) => parts.slice(0, i).flat()).concat([parts.flat()]);
        const subsets: number[][] = [];
        for (let mask = 0; mask < 1 << parts.length; mask++)
          subsets.push(parts.filter((_, i) => (mask & (1 << i)) !== 0).flat());
        return subsets;
      }
    }
  };
  let sets: number[][] = [[]];
  for (const element of by) {
    const options = expand(element);
    sets = sets.flatMap((set) => options.map((o) => [...set, ...o]));
  }
  return { keys, sets: sets.map((set) => [...new Set(set)].sort((a, b) => a - b)) };
}
