/**
 * plan/calls: function and operator calls — element-wise calls over their arguments' values,
 * arguments taken optionally (`optionalValue`: NULL once when empty) or as a whole set (an
 * array), aggregates (a scalar subquery over the argument's rows, in the set's order),
 * set-returning calls (a lateral function scan with ordinality), `enumerate` of objects and
 * volatile calls (computed once, in a lateral subquery: `liftVolatile`).
 *
 * `bindShared` is Gel's factoring around a call taking arguments optionally.
 */
import {
  pgArrayOf,
  pgType,
  someExpr,
  sql,
  type FromItem,
  type OrderItem,
  type SqlExpr,
} from '../../sql';
import { setItem } from '../../std/jsonb-arrays';
import type { ResolvedCall } from '../../std/resolve';
import { storedJson } from '../../std/scalars';
import type { IrExpr } from '../ir';
import { optionalCallArgs, sharedPaths } from '../ir';
import type { Rel, Bound } from './rel';
import type { PlanContext } from './context';
import { pgOf, nullable, asRef } from './common';
import { orderBy, orderAggregate } from './ordering';
import { hasObjects, dropsRowWhenEmpty, carriesShape } from './paths';
import { ownPathId } from '../ir';
import { joinObject } from './pointers';
import { liftRows } from './rows';

/**
 * An element-wise call of a volatile std form with a value (not object) result, planned where
 * there is one row so far (no relation joined in `rel` or around it): there an uncorrelated
 * lateral subquery runs once, as the call should. Where rows are already joined, PostgreSQL
 * would run an uncorrelated subquery once for all of them, so the call stays in place (its
 * value and its JSON output each evaluate it). A row expression has no relation to join.
 */
export function volatileElement(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'Call' }>,
): boolean {
  for (let r: Rel | null = rel; r; r = r.parent)
    if (r.from !== null && ctx.volatileFrom.get(r) !== r.from) return false;
  return (
    !ctx.row &&
    expr.callKind === 'element' &&
    expr.type.kind !== 'object' &&
    (expr.overload as ResolvedCall | null)?.volatility === 'Volatile'
  );
}

/** An element-wise call's SQL over its arguments' values. */
export function callSql(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'Call' }>,
): SqlExpr {
  bindShared(ctx, rel, expr);
  const args = expr.args.map((a, i) => argValue(ctx, rel, a, expr.modes[i] ?? 'element'));
  const nulls = expr.args.map(nullable);
  const form = (values: readonly SqlExpr[]) => (expr.overload as ResolvedCall).sql(values, nulls);
  // One row's expression (a DDL default, check or index) may hold no subquery.
  return ctx.row ? form(args) : argumentsOnce(ctx, args, form);
}

/**
 * A std form's SQL that evaluates each argument once. A form may name an argument several
 * times (`s[i:j]` reads `s` in its length, its bounds and the substring), and an argument
 * is a call's SQL in turn: nested calls would repeat their text at every level, growing
 * exponentially (`[1, 2][0:1][0:1][0:1][0:1]` printed 11 MB of SQL; one more level is out of
 * memory) and evaluating a volatile argument more than once. An argument that is more than a
 * column, a parameter or a literal and that the form names twice is computed once, as a
 * column of a one-row subquery the form reads it from (Gel's forms are SQL functions, which
 * take each argument once); the subquery stays where the call is, so a branch not taken
 * (`case when`) evaluates nothing.
 */
function argumentsOnce(
  ctx: PlanContext,
  args: readonly SqlExpr[],
  form: (values: readonly SqlExpr[]) => SqlExpr,
): SqlExpr {
  // How often the form names each argument: applied to stand-ins, counted by identity.
  const standIns = args.map((_, i) => sql.col(`a${i}`, null));
  const uses = new Map<SqlExpr, number>();
  someExpr(form(standIns), (e) => {
    uses.set(e, (uses.get(e) ?? 0) + 1);
    return false;
  });
  const once = args.map((a, i) => !simpleValue(a) && (uses.get(standIns[i] as SqlExpr) ?? 0) > 1);
  if (!once.some(Boolean)) return form(args);
  const alias = ctx.fresh('arg');
  const slots = args.map((_, i) => sql.col(`a${i}`, alias));
  const body = form(args.map((a, i) => (once[i] ? (slots[i] as SqlExpr) : a)));
  const bound = args.flatMap((a, i) => (once[i] ? [sql.target(a, `a${i}`)] : []));
  return sql.scalar(
    sql.select({
      targets: [sql.target(body)],
      from: [sql.subquery(sql.select({ targets: bound }), alias)],
    }),
  );
}

/** A value cheap to repeat: a column, a parameter or a literal, perhaps cast. */
function simpleValue(e: SqlExpr): boolean {
  if (e.kind === 'Cast') return simpleValue(e.expr);
  return e.kind === 'ColumnRef' || e.kind === 'Param' || e.kind === 'Literal';
}

/**
 * A volatile call (`sequence_next`, `random()`): computed once in a lateral subquery, so the
 * element's value and its JSON output read one evaluation (a side effect happens once).
 */
export function liftVolatile(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'Call' }>,
): Bound {
  const alias = ctx.fresh('vo');
  rel.join(
    'inner',
    sql.subquery(sql.select({ targets: [sql.target(callSql(ctx, rel, expr), 'v')] }), alias, {
      lateral: true,
    }),
  );
  // Still one row: a further volatile call here is lifted the same way.
  ctx.volatileFrom.set(rel, rel.from);
  return {
    kind: 'value',
    type: expr.type,
    expr: sql.col('v', alias),
    out: null,
    nullable: expr.card.min === 0,
  };
}

export function liftSetReturning(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'Call' }>,
): Bound {
  const [first] = expr.args;
  if (expr.name === 'std::enumerate' && first && hasObjects(first))
    return liftEnumerate(ctx, rel, expr, first);
  const args = expr.args.map((a, i) => argValue(ctx, rel, a, expr.modes[i] ?? 'element'));
  const call = (expr.overload as ResolvedCall).sql(args, expr.args.map(nullable));
  const alias = ctx.fresh('f');
  // The items of an array holding objects keep the shapes they were put in with: each row
  // reads its item of the array's result form (computed once per array, beside it).
  const items =
    expr.name === 'std::array_unpack' && first && hasObjects(expr) && carriesShape(first)
      ? arrayJsonItems(ctx, rel, first, alias)
      : null;
  rel.join(
    'inner',
    sql.fromFunction(call, alias, {
      lateral: true,
      withOrdinality: true,
      columns: [
        { name: 'value', type: null },
        { name: '~ord', type: null },
      ],
    }),
  );
  rel.order.push(sql.order(sql.col('~ord', alias)));
  if (expr.type.kind === 'object') {
    const bound = joinObject(ctx, rel, expr.type.name, sql.col('value', alias), 'inner', true);
    return items ? { ...bound, out: items } : bound;
  }
  return {
    kind: 'value',
    type: expr.type,
    expr: (expr.overload as ResolvedCall).rowValue(sql.col('value', alias)),
    out: items,
    nullable: false,
  };
}

/**
 * The JSON of the current item of `array_unpack(array)` (the function's rows are `alias`):
 * the array's result form, joined once per array, indexed by the item's ordinality.
 */
function arrayJsonItems(ctx: PlanContext, rel: Rel, array: IrExpr, alias: string): SqlExpr {
  const json = ctx.output(rel, array);
  const holder = ctx.fresh('aj');
  rel.join(
    'inner',
    sql.subquery(sql.select({ targets: [sql.target(json, 'j')] }), holder, { lateral: true }),
  );
  const at = sql.cast(sql.bin('-', sql.col('~ord', alias), sql.num(1)), pgType('integer'));
  return sql.bin('->', sql.col('j', holder), at);
}

/**
 * `enumerate(s)` of objects (or values holding them): each element numbered from 0 in the
 * set's order, beside the element's own result form (its shape), as std's enumerate numbers
 * them (std/functions); the tuple value is std's `[index, element]` jsonb.
 */
function liftEnumerate(ctx: PlanContext, rel: Rel, expr: IrExpr, arg: IrExpr): Bound {
  const { query, columns } = ctx.rows(rel, arg);
  const inner = ctx.fresh('en');
  const alias = ctx.fresh('f');
  const number = sql.bin(
    '-',
    sql.agg('row_number', [], {
      over: { partitionBy: [], orderBy: orderBy(columns.ord, inner) },
    }),
    sql.num(1),
  );
  const element = sql.col(columns.object ? 'id' : 'v', inner);
  const elementType = asRef(arg.type);
  const numbered = sql.select({
    targets: [
      sql.target(number, 'i'),
      sql.target(storedJson(elementType, element, ctx.env), 'v'),
      sql.target(sql.col('~json', inner), 'j'),
    ],
    from: [sql.subquery(query, inner)],
  });
  rel.join('inner', sql.subquery(numbered, alias, { lateral: true }));
  rel.order.push(sql.order(sql.col('i', alias)));
  return {
    kind: 'value',
    type: expr.type,
    expr: sql.func('jsonb_build_array', [sql.col('i', alias), sql.col('v', alias)]),
    out: sql.func('json_build_array', [sql.col('i', alias), sql.col('j', alias)]),
    nullable: false,
  };
}

/**
 * Gel's factoring around a call taking arguments optionally (bind/factoring): the paths its
 * arguments share are bound here, once per element, or once as `{}` when empty (left join).
 */
export function bindShared(ctx: PlanContext, rel: Rel, expr: IrExpr): void {
  if (!optionalCallArgs(expr)) return;
  for (const node of sharedPaths(optionalCallArgs(expr) ?? [])) {
    const id = ownPathId(node);
    if (id === null || rel.lookup(id) !== undefined) continue;
    const { query, columns } = ctx.rows(rel, node);
    rel.bind(id, liftRows(ctx, rel, node, query, columns, 'left'));
  }
}

/**
 * An argument taken optionally: each of its elements, or NULL once when it is empty. What is
 * bound here or at most one value is read in place (lifted optionally); a set that may hold
 * several, or whose lifting here would drop the row when it is empty (`dropsRowWhenEmpty`), is
 * a set of its own, left joined.
 */
export function optionalValue(ctx: PlanContext, rel: Rel, arg: IrExpr): SqlExpr {
  const id = ownPathId(arg);
  const known = id !== null ? rel.lookup(id) : rel.lookupNode(arg);
  if (known) return known.kind === 'object' ? known.id : known.expr;
  if (arg.card.max !== 'many' && !dropsRowWhenEmpty(rel, arg)) return ctx.value(rel, arg);
  const { query, columns } = ctx.rows(rel, arg);
  const bound = liftRows(ctx, rel, arg, query, columns, 'left');
  if (id !== null) rel.bind(id, bound);
  else rel.bindNode(arg, bound);
  return bound.kind === 'object' ? bound.id : bound.expr;
}

export function argValue(
  ctx: PlanContext,
  rel: Rel,
  arg: IrExpr,
  mode: 'element' | 'set' | 'optional',
): SqlExpr {
  if (mode === 'optional' && arg.kind === 'Select' && arg.card.min === 0)
    return optionalStatement(ctx, rel, arg);
  if (mode === 'optional') return optionalValue(ctx, rel, arg);
  if (mode !== 'set') return ctx.value(rel, arg);
  // One row's expression: a set literal of values (`x in {1, 2}`) is an array of them.
  // An array-typed element is its stored JSON (std/jsonb-arrays `setItem`).
  const item = (value: SqlExpr): SqlExpr =>
    arg.type.kind === 'array' ? setItem(arg.type, value, ctx.env) : value;
  const itemPg = arg.type.kind === 'array' ? pgType('jsonb') : pgOf(arg.type);
  if (ctx.row && arg.kind === 'SetLiteral' && arg.elements.every((e) => e.card.max !== 'many'))
    return {
      kind: 'ArrayExpr',
      elements: arg.elements.map((e) => item(ctx.value(rel, e))),
      type: arg.elements.length ? null : pgArrayOf(itemPg),
    };
  if (ctx.row && arg.card.max !== 'many') {
    return { kind: 'ArrayExpr', elements: [item(ctx.value(rel, arg))], type: null };
  }
  // A set-of argument of an element-wise call (`in`): the whole set as an array.
  const { query } = ctx.rows(rel, arg);
  const alias = ctx.fresh('s');
  return sql.array(
    sql.select({
      targets: [sql.target(item(sql.col(arg.type.kind === 'object' ? 'id' : 'v', alias)))],
      from: [sql.subquery(query, alias)],
    }),
  );
}

/**
 * A statement given as an optional argument (`(select ...) ?= x`): its rows left-joined, so
 * an empty statement is one row with the empty value (NULL) rather than no row.
 */
function optionalStatement(
  ctx: PlanContext,
  rel: Rel,
  arg: Extract<IrExpr, { kind: 'Select' }>,
): SqlExpr {
  let bound = rel.lookupNode(arg);
  if (!bound) {
    const { query, columns } = ctx.rows(rel, arg);
    bound = liftRows(ctx, rel, arg, query, columns, 'left');
    rel.bindNode(arg, bound);
  }
  return bound.kind === 'object' ? bound.id : bound.expr;
}

/**
 * An aggregate call: a scalar subquery aggregating the set-of argument's rows (materialised as
 * a subquery, so an argument reading only outer columns still aggregates here, not in the
 * outer query), in the set's order.
 */
export function aggregate(
  ctx: PlanContext,
  rel: Rel,
  call: Extract<IrExpr, { kind: 'Call' }>,
): SqlExpr {
  const setIndex = call.modes.indexOf('set');
  const alias = ctx.fresh('ag');
  let from: FromItem | null = null;
  let order: OrderItem[] = [];
  const args = call.args.map((a, i) => {
    if (i !== setIndex) return ctx.value(rel, a);
    const { query, columns } = ctx.rows(rel, a);
    from = sql.subquery(query, alias);
    order = orderBy(columns.ord, alias);
    return sql.col(columns.object ? 'id' : 'v', alias);
  });
  const form = (call.overload as ResolvedCall).sql(args, call.args.map(nullable));
  return sql.scalar(
    sql.select({
      targets: [sql.target(order.length ? orderAggregate(form, order) : form)],
      from: from ? [from] : [],
    }),
  );
}
