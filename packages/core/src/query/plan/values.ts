/**
 * plan/values: `planValue`, the planner's `value` — one element's SQL value in the Rel (objects:
 * their id): literals, parameters, casts, tuples and arrays, link properties, type tests, and
 * the value forms of `??` and if/else; anything that needs rows is lifted (plan/relations) and
 * read from its binding. Also a filter's condition (`condition`: a possibly-many filter is an
 * EXISTS fence, so it never multiplies the rows it filters).
 *
 * Values are `$n` parameters, never spliced into the SQL.
 */
import { QueryError } from '../../errors';
import type { TypeRef } from '../../model/schema';
import { pgType, sql, type SqlExpr, type SqlQuery } from '../../sql';
import type { Cast } from '../../std/casts';
import { decodeParam, pgTypeFor, storedJson, storedValue } from '../../std/scalars';
import type { TypeEnv } from '../../std/model';
import { children, type IrExpr } from '../ir';
import { Rel } from './rel';
import { typeSource } from './sources';
import type { PlanContext } from './context';
import { volatileElement, callSql, bindShared, optionalValue, aggregate } from './calls';
import { pgOf, whereOf, nullIfAnyNull, asRef } from './common';
import { groupingNames } from './group';
import { scalarJson, freeObjectJson } from './output';
import { markLinkRows, needsRows } from './paths';
import { objectOf } from './pointers';
import { liftRows } from './rows';

/** Does `expr` hold an assertion (`assert_exists`, `assert_single`, ...) anywhere, a
 * transparent binding's expression (a path's subject written inline) included? */
function holdsAssert(expr: IrExpr): boolean {
  if (expr.kind === 'Assert') return true;
  if (expr.kind === 'BindingRef')
    return expr.binding.transparent === true && holdsAssert(expr.binding.expr);
  return children(expr).some(holdsAssert);
}

/** One element's SQL value in `rel` (objects: the id); the planner's `value`. */
export function planValue(ctx: PlanContext, rel: Rel, expr: IrExpr): SqlExpr {
  if (needsRows(expr)) {
    const bound = ctx.lift(rel, expr);
    return bound.kind === 'object' ? bound.id : bound.expr;
  }
  switch (expr.kind) {
    case 'Literal':
      return literal(expr);
    case 'Param': {
      const json = sql.cast(sql.param(expr.index + 1), pgType('jsonb'));
      const value = decodeParam(expr.type as TypeRef, json, ctx.env);
      if (!expr.fallback) return value;
      // A global's default when the request left it out (SQL NULL); JSON null: set empty.
      return {
        kind: 'Case',
        whens: [
          { when: sql.isNull(json), then: optionalValue(ctx, rel, expr.fallback) },
          {
            when: sql.bin('=', sql.func('jsonb_typeof', [json]), sql.text('null')),
            then: sql.cast(sql.null(), pgOf(expr.type)),
          },
        ],
        else: value,
      };
    }
    case 'Call': {
      if (expr.callKind === 'aggregate') return aggregate(ctx, rel, expr);
      // A volatile call is evaluated once per element: its value is a lateral column
      // (liftVolatile), read by both the value and the JSON output.
      if (volatileElement(ctx, rel, expr)) return (ctx.lift(rel, expr) as { expr: SqlExpr }).expr;
      return callSql(ctx, rel, expr);
    }
    case 'Cast':
      return (expr.overload as Cast).sql(ctx.value(rel, expr.expr));
    case 'ObjectJson':
      return sql.cast(ctx.output(rel, expr.expr), pgOf(expr.type));
    case 'LinkProperty': {
      // Read through the link rows themselves: one value per link, not per distinct target.
      markLinkRows(ctx.distinctDone, expr.link);
      const link = objectOf(ctx, rel, expr.link);
      if (!link.link) throw new QueryError(`@${expr.property.name}: no link row in scope`);
      return link.link.kind === 'junction'
        ? sql.col(expr.property.name, link.link.alias)
        : sql.col(`${link.link.pointer}@${expr.property.name}`, link.link.alias);
    }
    case 'ArrayLiteral': {
      const values = expr.elements.map((e) => ctx.value(rel, e));
      const pg = pgOf(expr.type);
      // Arrays holding tuples or arrays are jsonb arrays of their elements' stored JSON (as
      // stored: schema/storage/types).
      const array: SqlExpr =
        pg.schema === null && pg.name === 'jsonb' && pg.arrayDims === 0
          ? sql.jsonBuild('jsonb_build_array', jsonbItems(expr, values, ctx.env))
          : { kind: 'ArrayExpr', elements: values, type: pg };
      return nullIfAnyNull(expr.elements, values, array);
    }
    case 'TupleLiteral': {
      // Each element as a tuple keeps it (a nested tuple is its own jsonb array, not its
      // result form).
      const parts = expr.elements.map((e) =>
        e.type.kind === 'empty' || e.type.kind === 'free'
          ? sql.cast(scalarJson(ctx, e.type, ctx.value(rel, e)), pgType('jsonb'))
          : storedJson(e.type, ctx.value(rel, e), ctx.env),
      );
      return nullIfAnyNull(expr.elements, parts, sql.jsonBuild('jsonb_build_array', parts));
    }
    case 'GroupGrouping': {
      const names = ctx.fresh('gn');
      return sql.func('coalesce', [
        sql.array(
          sql.select({
            targets: [sql.target(sql.col('v', names))],
            from: [sql.subquery(groupingNames(ctx, rel, expr), names)],
          }),
        ),
        sql.cast(sql.text('{}'), pgType('text', 1)),
      ]);
    }
    case 'GroupKey': {
      const group = ctx.lift(rel, expr.group);
      const key = sql.bin(
        '->',
        group.kind === 'value' ? group.expr : group.id,
        sql.num(expr.index),
      );
      return {
        kind: 'Case',
        whens: [
          {
            when: sql.bin('=', sql.func('jsonb_typeof', [key]), sql.text('null')),
            then: sql.cast(sql.null(), pgOf(expr.type)),
          },
        ],
        else: storedValue(asRef(expr.type), key, ctx.env),
      };
    }
    case 'TupleElement': {
      if (expr.tuple.kind === 'TupleLiteral') {
        // `(X, X + 1).1`: the other elements still make the tuples (a set multiplies them, an
        // empty one leaves none), though only this one is read.
        const { elements } = expr.tuple;
        const others = elements.filter((_, i) => i !== expr.position);
        const values = others.map((e) => ctx.value(rel, e));
        return nullIfAnyNull(others, values, ctx.value(rel, elements[expr.position] as IrExpr));
      }
      const tuple = ctx.value(rel, expr.tuple);
      return storedValue(asRef(expr.type), sql.bin('->', tuple, sql.num(expr.position)), ctx.env);
    }
    case 'Exists': {
      // One row's value: exists is its presence.
      if (ctx.row && expr.expr.card.max !== 'many')
        return sql.isNull(ctx.value(rel, expr.expr), true);
      const { query } = ctx.rows(rel, expr.expr);
      return sql.exists(query);
    }
    case 'Coalesce': {
      bindShared(ctx, rel, expr);
      const typed = (e: IrExpr): SqlExpr =>
        e.type.kind === 'empty'
          ? sql.cast(sql.null(), pgOf(expr.type))
          : optionalValue(ctx, rel, e);
      return sql.func('coalesce', [typed(expr.left), typed(expr.right)]);
    }
    case 'IfElse': {
      // A branch is a set of its own (std::IF takes it as SET OF): where it is empty, the row
      // stays (`Text[is Issue].name if Text is Issue else 'x'` on a non-issue is 'x').
      // A branch holding an assertion runs only where the condition chooses it (Gel: `A if C
      // else B` is `A filter C union B filter not C`): its rows are its own subquery filtered
      // by the condition, and its assertions check only there (`ctx.gates`).
      const condition = ctx.value(rel, expr.condition);
      const typed = (e: IrExpr, when: SqlExpr): SqlExpr => {
        if (e.type.kind === 'empty') return sql.cast(sql.null(), pgOf(expr.type));
        if (!holdsAssert(e)) return optionalValue(ctx, rel, e);
        ctx.gates.push(when);
        try {
          const { query, columns } = ctx.rows(rel, e);
          const gated: SqlQuery =
            query.kind === 'Select'
              ? { ...query, where: query.where ? sql.and(query.where, when) : when }
              : query;
          const bound = liftRows(ctx, rel, e, gated, columns, 'left');
          return bound.kind === 'object' ? bound.id : bound.expr;
        } finally {
          ctx.gates.pop();
        }
      };
      const then = typed(expr.then, sql.bin('is', condition, sql.bool(true)));
      const otherwise = typed(expr.else, sql.bin('is', condition, sql.bool(false)));
      return {
        kind: 'Case',
        whens: [
          { when: sql.isNull(condition), then: sql.cast(sql.null(), pgOf(expr.type)) },
          { when: condition, then },
        ],
        else: otherwise,
      };
    }
    case 'TypeCheck': {
      const object = objectOf(ctx, rel, expr.expr);
      const concrete = ctx.index.objectType(expr.objectType)?.concrete ?? [];
      const test: SqlExpr = concrete.length
        ? {
            kind: 'InList',
            expr: object.tag,
            list: concrete.map((c) => sql.text(c)),
            negated: expr.negated,
          }
        : sql.bool(expr.negated);
      return {
        kind: 'Case',
        whens: [{ when: sql.isNull(object.id), then: sql.cast(sql.null(), pgType('boolean')) }],
        else: test,
      };
    }
    case 'FreeObject':
      return sql.cast(freeObjectJson(ctx, rel, expr), pgType('jsonb'));
    default: {
      const bound = ctx.lift(rel, expr);
      return bound.kind === 'object' ? bound.id : bound.expr;
    }
  }
}

/**
 * `<T><uuid>x`: the id, after checking a T with it exists (else SQLSTATE 21000, CardinalityViolationError: a cast to an object type names an existing object). The
 * error is raised with the looked-up row's column as its typed argument, so PostgreSQL cannot
 * fold the call while planning (a parameter is a constant then).
 */
export function objectCastId(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'ObjectCast' }>,
): SqlExpr {
  const id = ctx.value(rel, expr.expr);
  const probe = ctx.fresh('oc');
  const src = typeSource(ctx, expr.objectType, probe);
  const found = sql.col('id', probe);
  const message = sql.bin(
    '||',
    sql.text(`no ${expr.objectType} with id `),
    sql.cast(id, pgType('text')),
  );
  const lookup = sql.select({
    targets: [
      sql.target(
        sql.func('coalesce', [
          found,
          sql.func('raise', [found, sql.text('21000'), message], 'svc_meta'),
        ]),
      ),
    ],
    from: [
      sql.join(
        'left',
        sql.subquery(sql.select({ targets: [] }), 'one'),
        src.item,
        sql.bin('=', found, id),
      ),
    ],
  });
  return {
    kind: 'Case',
    whens: [{ when: sql.isNull(id), then: sql.cast(sql.null(), pgType('uuid')) }],
    else: sql.scalar(lookup),
  };
}

/**
 * A filter: true when the expression yields `true` for the element. A possibly-many filter is
 * a fence (EXISTS over its own rows), so it never multiplies the rows it filters.
 */
export function condition(ctx: PlanContext, rel: Rel, filter: IrExpr): SqlExpr {
  // The filter is a scope of its own: what it joins is not seen by the shape or other clauses.
  const inner = new Rel(rel);
  const v = ctx.value(inner, filter);
  if (inner.from === null && inner.where.length === 0) return v;
  return sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: inner.from ? [inner.from] : [],
      where: whereOf([...inner.where, v]),
    }),
  );
}

function literal(expr: Extract<IrExpr, { kind: 'Literal' }>): SqlExpr {
  const type = expr.type as TypeRef;
  if (expr.value instanceof Uint8Array) return sql.bytes(expr.value);
  const name = type.kind === 'scalar' ? type.name : '';
  if (name === 'std::str') return sql.cast(sql.text(expr.value), pgType('text'));
  if (name === 'std::bool') return sql.bool(expr.value === 'true');
  // A float literal is read as text: numeric has no negative zero (`-0.0` keeps its sign).
  if (name === 'std::float64' || name === 'std::float32')
    return sql.cast(sql.text(expr.value), pgTypeFor(type));
  return sql.cast(sql.num(expr.value), pgTypeFor(type));
}

/** The items of a jsonb array literal: each element's stored JSON (a tuple is its own jsonb). */
function jsonbItems(
  literal: Extract<IrExpr, { kind: 'ArrayLiteral' }>,
  values: readonly SqlExpr[],
  env: TypeEnv,
): SqlExpr[] {
  const type = literal.type;
  const element = type.kind === 'array' ? type.element : null;
  if (!element || element.kind !== 'array') return [...values];
  return values.map((v) => storedJson(element, v, env));
}
