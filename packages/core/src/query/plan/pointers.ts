/**
 * plan/pointers: following a path — the objects of a type joined by id (`joinObject`, through
 * the access hook of plan/sources), and a pointer step from a bound source (`liftPointer`):
 * `id` and `__type__`, a single property or link (a column of the source's row), a multi
 * pointer (its junction rows), a computed pointer (its expression, once per source element).
 *
 * A required link whose target the caller may not see is an error where it is set, not a lost
 * row (`hiddenLinkCheck`).
 */
import { QueryError } from '../../errors';
import { pgType, sql, type SqlExpr } from '../../sql';
import { raise } from '../../std/scalars';
import type { IrExpr } from '../ir';
import type { Rel, Bound } from './rel';
import { junctionSource, typeSource } from './sources';
import type { PlanContext } from './context';
import { objectBound, shortName } from './common';
import { liftRows } from './rows';

/** The bound object of an object-typed expression (lifting it). */
export function objectOf(
  ctx: PlanContext,
  rel: Rel,
  expr: IrExpr,
): Extract<Bound, { kind: 'object' }> {
  const bound = ctx.lift(rel, expr);
  if (bound.kind !== 'object') throw new QueryError('expected objects');
  return bound;
}

/** The object's stored columns: its own alias, or a join of its type's rows by id. */
function columnsOf(ctx: PlanContext, rel: Rel, bound: Extract<Bound, { kind: 'object' }>): string {
  if (bound.alias !== null) return bound.alias;
  // An empty optional object (a left-joined NULL) keeps its row: its columns are NULL.
  const joined = joinObject(
    ctx,
    rel,
    bound.type,
    bound.id,
    bound.nullable ? 'left' : 'inner',
    true,
  );
  return (joined as { alias: string }).alias;
}

/**
 * Joins the rows of `type` whose id is `id` (one row per id). `visible`: `id` is an object the
 * query already holds (it passed the access hook where it was read), not a stored reference.
 */
export function joinObject(
  ctx: PlanContext,
  rel: Rel,
  type: string,
  id: SqlExpr,
  join: 'inner' | 'left',
  visible = false,
): Bound {
  const alias = ctx.fresh(shortName(type));
  const src = typeSource(ctx, type, alias, { updated: ctx.overlayDepth > 0, visible });
  rel.join(join, src.item, sql.bin('=', sql.col('id', alias), id));
  return objectBound(type, alias, src.tag, join === 'left');
}

export function liftPointer(
  ctx: PlanContext,
  rel: Rel,
  step: Extract<IrExpr, { kind: 'PointerStep' }>,
): Bound {
  const p = step.pointer;
  if (step.computed) {
    ctx.computing.push(`computed ${p.kind} '${p.name}' of object type '${step.sourceType}'`);
    try {
      return liftComputed(ctx, rel, step, step.computed);
    } finally {
      ctx.computing.pop();
    }
  }
  return liftStored(ctx, rel, step);
}

function liftComputed(
  ctx: PlanContext,
  rel: Rel,
  step: Extract<IrExpr, { kind: 'PointerStep' }>,
  computed: IrExpr,
): Bound {
  // One set of values per source element: the source is in scope even if the expression
  // does not read it (`cards := Card`), and an empty source has no values.
  const source = ctx.lift(rel, step.source);
  // A single optional computed (`parent := (select .<children limit 1)`) may be empty per
  // source: the source's row is kept (an optional argument sees `{}`).
  if (!ctx.row && !source.nullable && step.card.max !== 'many' && step.card.min === 0) {
    const { query, columns } = ctx.rows(rel, computed);
    return liftRows(ctx, rel, step, query, columns, 'left');
  }
  if (!source.nullable) return ctx.lift(rel, computed);
  const present = sql.isNull(source.kind === 'object' ? source.id : source.expr, true);
  const { query, columns } = ctx.rows(rel, computed, {
    after: (inner) => {
      inner.where.push(present);
      return undefined;
    },
  });
  return liftRows(ctx, rel, step, query, columns);
}

function liftStored(
  ctx: PlanContext,
  rel: Rel,
  step: Extract<IrExpr, { kind: 'PointerStep' }>,
): Bound {
  const p = step.pointer;
  const source = objectOf(ctx, rel, step.source);
  const storage =
    p.name === '__type__' ? 'type' : p.name === 'id' ? 'id' : p.many ? 'junction' : 'column';
  if (storage === 'id')
    return {
      kind: 'value',
      type: step.type,
      expr: source.id,
      out: null,
      nullable: source.nullable,
    };
  if (storage === 'type') {
    return joinCatalogue(ctx, rel, source.tag);
  }
  if (storage === 'column') {
    const alias = columnsOf(ctx, rel, source);
    const column = sql.col(p.name, alias);
    if (p.kind === 'property')
      return {
        kind: 'value',
        type: step.type,
        expr: column,
        out: null,
        nullable: !p.required || source.nullable,
      };
    const target = (p.target as { name: string }).name;
    // One row's expression: a single link is its column (the target's columns are elsewhere).
    if (ctx.row) {
      return {
        kind: 'object',
        type: target,
        id: column,
        tag: sql.cast(sql.null(), pgType('text')),
        alias: null,
        link: { kind: 'column', alias, pointer: p.name },
        out: null,
        nullable: !p.required || source.nullable,
      };
    }
    // A required link whose target the caller may not see is an error, not a lost row (Gel:
    // `.?>link` reads it as optional instead).
    const hidden = p.required && !step.optional && ctx.rowsFiltered(target);
    const bound = joinObject(
      ctx,
      rel,
      target,
      column,
      // Per row the source is one object: an optional link keeps the row (NULL = empty), so
      // an optional argument (`?=`, `??`) sees the empty value instead of losing the row.
      !hidden && ((p.required && !source.nullable) || step.card.min === 1) ? 'inner' : 'left',
    );
    if (hidden) rel.where.push(hiddenLinkCheck(ctx, step, column, (bound as { id: SqlExpr }).id));
    return {
      ...(bound as Extract<Bound, { kind: 'object' }>),
      // Checked: where the link is set, its target is there or the statement fails. A NULL
      // test of the target beside the check would let PostgreSQL drop the row without it.
      ...(hidden ? { nullable: source.nullable } : {}),
      link: { kind: 'column', alias, pointer: p.name },
    };
  }
  // A multi pointer: its junction rows for this source.
  const j = ctx.fresh('j');
  const junction = junctionSource(ctx, step.sourceType, p, j);
  rel.join('inner', junction.item, sql.bin('=', sql.col('source', j), source.id));
  const value = sql.col(junction.valueColumn, j);
  if (p.kind === 'property')
    return { kind: 'value', type: step.type, expr: value, out: null, nullable: false };
  const target = (p.target as { name: string }).name;
  const bound = joinObject(ctx, rel, target, value, 'inner');
  return {
    ...(bound as Extract<Bound, { kind: 'object' }>),
    link: { kind: 'junction', alias: j },
  };
}

/**
 * The condition that a required single link's target (`target`, left joined through the
 * access hook) is visible where the link is set (`column`): else CardinalityViolationError
 * naming the link, and the computed being evaluated if any (Gel's words).
 */
function hiddenLinkCheck(
  ctx: PlanContext,
  step: Extract<IrExpr, { kind: 'PointerStep' }>,
  column: SqlExpr,
  target: SqlExpr,
): SqlExpr {
  const within = ctx.computing.at(-1);
  const message =
    `required link '${step.pointer.name}' of object type '${step.sourceType}' is hidden by access policy` +
    (within ? ` (while evaluating ${within})` : '');
  return {
    kind: 'Case',
    whens: [
      {
        when: sql.and(sql.isNull(target), sql.isNull(column, true)),
        then: raise(column, pgType('boolean'), sql.text(message), '21000'),
      },
    ],
    else: sql.bool(true),
  };
}

function joinCatalogue(ctx: PlanContext, rel: Rel, tag: SqlExpr): Bound {
  const alias = ctx.fresh('ty');
  const src = typeSource(ctx, 'schema::ObjectType', alias);
  rel.join('inner', src.item, sql.bin('=', sql.col('name', alias), tag));
  return objectBound('schema::ObjectType', alias, src.tag, false);
}
