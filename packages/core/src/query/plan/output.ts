/**
 * plan/output: the JSON result form of an element (`planOutput` / `outputOf`, the planner's
 * `output` / `outputOf`). Shapes are `sql.jsonObject` in shape order; a plain single value is
 * inline, anything else a subquery: multi values and shaped links as arrays (`[]` when empty), a
 * single shaped link as an array of one object (the object itself when compiled with
 * `singleLinks: 'object'`) or null, a link without a shape as its id(s). Objects and
 * arrays of them are JSON text (sql `jsonFromText`), aggregated as text. The result conventions
 * are the HTTP contract's (docs/http.md).
 */
import { isJsonText, pgType, sql, type SelectStatement, type SqlExpr } from '../../sql';
import { jsonOf, jsonTextOf } from '../../std/scalars';
import type { IrExpr, IrType, ShapeElement } from '../ir';
import { isMutation } from '../ir';
import { mutationOutput } from './mutation/output';
import type { Rel, Bound } from './rel';
import { junctionSource } from './sources';
import { resultJson } from './collections';
import type { PlanContext } from './context';
import { JSON_T, nullIfAnyNull, asRef, outputColumn } from './common';
import { orderBy, aggregateOrder } from './ordering';
import { hasObjects, groupNode } from './paths';
import { ownPathId } from '../ir';

/** One element's JSON result form, lifting `expr` in `rel`; the planner's `output`. */
export function planOutput(ctx: PlanContext, rel: Rel, expr: IrExpr): SqlExpr {
  const bound = ctx.lift(rel, expr);
  return bound.out ?? ctx.outputOf(rel, expr, bound);
}

/** The JSON of one element of `expr`, bound as `bound` in `rel`. */
export function outputOf(ctx: PlanContext, rel: Rel, expr: IrExpr, bound: Bound): SqlExpr {
  if (bound.out) return bound.out;
  switch (expr.kind) {
    case 'BindingRef':
      if (expr.binding.transparent) return ctx.outputOf(rel, expr.binding.expr, bound);
      break;
    case 'Shape':
      return shapeJson(ctx, rel, expr, bound);
    case 'FreeObject':
      return freeObjectJson(ctx, rel, expr);
    case 'TupleElement': {
      // The element in the form it had in the tuple (an object keeps the shape it carried).
      if (!hasObjects(expr)) break;
      if (expr.tuple.kind === 'TupleLiteral')
        return ctx.output(rel, expr.tuple.elements[expr.position] as IrExpr);
      return collectionItemJson(ctx, rel, expr.tuple, expr.position);
    }
    case 'TupleLiteral': {
      const parts = expr.elements.map((e) => ctx.output(rel, e));
      const json =
        expr.names === null
          ? sql.jsonBuild('json_build_array', parts)
          : // As text (json_build_object's bytes): no engine reorders a named tuple's keys.
            sql.jsonObject(
              expr.names.map((n, i) => [n, parts[i] as SqlExpr]),
              'build_object',
            );
      return nullIfAnyNull(expr.elements, parts, json);
    }
    case 'ArrayLiteral': {
      // Each element in its own result form (objects keep their shapes).
      if (!expr.elements.some(hasObjects)) break;
      const parts = expr.elements.map((e) => ctx.output(rel, e));
      return nullIfAnyNull(expr.elements, parts, sql.jsonBuild('json_build_array', parts));
    }
    case 'Call': {
      const [arg] = expr.args;
      // `a[i]` of an array holding objects: the element as the array's result form has it.
      if ((expr.name === 'std::[]' || expr.name === 'std::array_get') && hasObjects(expr))
        return arrayItemJson(ctx, rel, expr, bound);
      // `array_agg` of objects (or tuples holding them): the elements' own result forms.
      if (expr.name !== 'std::array_agg' || !arg || !hasObjects(arg)) break;
      const { query, columns } = ctx.rows(rel, arg);
      const alias = ctx.fresh('aa');
      const agg = sql.jsonArrayAgg(sql.col('~json', alias), {
        orderBy: orderBy(columns.ord, alias),
        orEmpty: true,
      });
      return sql.scalar(
        sql.select({ targets: [sql.target(agg)], from: [sql.subquery(query, alias)] }),
      );
    }
    default:
      break;
  }
  if (bound.kind === 'object' && isMutation(expr)) return mutationOutput(ctx, rel, expr, bound);
  if (bound.kind === 'object') {
    if (!bound.nullable) return sql.func('json_build_object', [sql.text('id'), bound.id]);
    return {
      kind: 'Case',
      whens: [{ when: sql.isNull(bound.id), then: sql.cast(sql.null(), JSON_T) }],
      else: sql.func('json_build_object', [sql.text('id'), bound.id]),
    };
  }
  return expr.type.kind === 'empty' || expr.type.kind === 'free'
    ? scalarJson(ctx, expr.type, bound.expr)
    : resultJson(expr.type, bound.expr, ctx.env);
}

/**
 * Item `position` of a tuple's result form (by name for a named tuple): objects in the tuple
 * keep the shapes they were put in with.
 */
function collectionItemJson(ctx: PlanContext, rel: Rel, tuple: IrExpr, position: number): SqlExpr {
  const json = ctx.output(rel, tuple);
  const type = tuple.type;
  const name = type.kind === 'tuple' ? type.elements[position]?.name : null;
  return sql.bin('->', json, name ? sql.text(name) : sql.num(position));
}

/** `a[i]` / `array_get(a, i)` of an array holding objects: item i of the array's result form. */
function arrayItemJson(
  ctx: PlanContext,
  rel: Rel,
  call: Extract<IrExpr, { kind: 'Call' }>,
  bound: Bound,
): SqlExpr {
  const [array, index] = call.args as [IrExpr, IrExpr];
  const json = ctx.output(rel, array);
  const item = sql.bin('->', json, sql.cast(ctx.value(rel, index), pgType('integer')));
  // Past either end (array_get's default): the element as it is.
  const present = bound.kind === 'object' ? bound.id : bound.expr;
  const fallback =
    bound.kind === 'object'
      ? sql.func('json_build_object', [sql.text('id'), bound.id])
      : resultJson(asRef(call.type), bound.expr, ctx.env);
  return {
    kind: 'Case',
    whens: [
      { when: sql.isNull(present), then: sql.cast(sql.null(), JSON_T) },
      { when: sql.isNull(item), then: fallback },
    ],
    else: item,
  };
}

export function scalarJson(ctx: PlanContext, type: IrType, value: SqlExpr): SqlExpr {
  if (type.kind === 'empty') return sql.cast(sql.null(), JSON_T);
  if (type.kind === 'free') return sql.cast(value, JSON_T);
  return jsonOf(type, value, ctx.env);
}

export function shapeJson(
  ctx: PlanContext,
  rel: Rel,
  shape: Extract<IrExpr, { kind: 'Shape' }>,
  bound: Bound,
): SqlExpr {
  if (bound.kind === 'value') {
    // A shape on free objects (group results): its elements, no type tests.
    return sql.jsonObject(shape.elements.map((el) => [el.name, elementJson(ctx, rel, el)]));
  }
  const subject = bound;
  const entries: [string, SqlExpr][] = [];
  for (const el of shape.elements) {
    let json = elementJson(ctx, rel, el);
    if (el.onlyFor !== null) {
      const concrete = ctx.index.objectType(el.onlyFor)?.concrete ?? [];
      json = {
        kind: 'Case',
        whens: [
          {
            when: {
              kind: 'InList',
              expr: subject.tag,
              list: concrete.map((c) => sql.text(c)),
              negated: false,
            },
            then: json,
          },
        ],
        // On objects of other types the element is empty: `[]` for a multi element (as a
        // multi pointer with nothing in it reads), null for a single one.
        else: isMulti(el.expr) ? sql.cast(sql.text('[]'), JSON_T) : sql.cast(sql.null(), JSON_T),
      };
    }
    entries.push([el.name, json]);
  }
  const object = sql.jsonObject(entries);
  if (!subject.nullable) return object;
  return {
    kind: 'Case',
    whens: [{ when: sql.isNull(subject.id), then: sql.cast(sql.null(), JSON_T) }],
    else: object,
  };
}

export function freeObjectJson(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'FreeObject' }>,
): SqlExpr {
  return sql.jsonObject(expr.elements.map((el) => [el.name, elementJson(ctx, rel, el)]));
}

/**
 * One shape element's JSON for the current element of `rel`: a plain single value inline;
 * anything else in a subquery — multi values and shaped links as arrays (`[]` when empty), a
 * single shaped link as an array of one object or null (the object itself with `singleLinks:
 * 'object'`), a link without a shape as its id(s).
 */
function elementJson(ctx: PlanContext, rel: Rel, el: ShapeElement): SqlExpr {
  const expr = el.expr;
  const object = expr.type.kind === 'object';
  const shaped = hasShape(expr);
  const many = isMulti(expr);
  if (!many && !object && isInline(ctx, rel, expr)) {
    const value = ctx.value(rel, expr);
    const type = expr.type;
    if (type.kind === 'empty' || type.kind === 'free') return scalarJson(ctx, type, value);
    return sql.jsonFromText(jsonTextOf(type, value, ctx.env));
  }
  const ids = !shaped && object ? storedLinkIds(ctx, rel, expr) : null;
  if (ids) return ids;
  const { query, columns } = ctx.rows(rel, expr, { text: true });
  const alias = ctx.fresh('e');
  const item = sql.subquery(query, alias);
  const element =
    object && !shaped ? idJson(ctx, sql.col('id', alias)) : outputColumn(columns, alias);
  const order = aggregateOrder(item, orderBy(columns.ord, alias));
  if (many || (object && shaped && !ctx.linkObjects)) {
    const agg = sql.jsonArrayAgg(element, { orderBy: order, orEmpty: many });
    return scalarJsonQuery(agg, sql.select({ targets: [], from: [item] }));
  }
  return scalarJsonQuery(element, sql.select({ targets: [], from: [item] }));
}

/** An object's id as a JSON string (JSON text). */
function idJson(ctx: PlanContext, id: SqlExpr): SqlExpr {
  return sql.jsonFromText(jsonTextOf({ kind: 'scalar', name: 'std::uuid' }, id, ctx.env));
}

/**
 * `(select json from ...)` as a value: for JSON text the subquery selects the text and the
 * value is that text marked (`jsonFromText`), so a consumer of text never parses it.
 */
function scalarJsonQuery(json: SqlExpr, from: SelectStatement): SqlExpr {
  if (isJsonText(json)) {
    const text = sql.cast(json, pgType('text'));
    return sql.jsonFromText(sql.scalar({ ...from, targets: [sql.target(text)] }));
  }
  return sql.scalar({ ...from, targets: [sql.target(json)] });
}

/**
 * A stored link shown without a shape, read from where it is stored without visiting the
 * targets: the id column of a single link, the junction's targets of a multi link.
 */
function storedLinkIds(ctx: PlanContext, rel: Rel, expr: IrExpr): SqlExpr | null {
  if (expr.kind !== 'PointerStep' || expr.computed || expr.pointer.kind !== 'link') return null;
  // Targets the caller may not see are read through the access hook (no shortcut).
  if (ctx.rowsFiltered((expr.type as { name: string }).name)) return null;
  if (expr.pointer.name === '__type__') return null;
  const sourceId = ownPathId(expr.source);
  const source = sourceId === null ? undefined : rel.lookup(sourceId);
  if (source?.kind !== 'object') return null;
  if (!expr.pointer.many) {
    if (source.alias === null) return null;
    return idJson(ctx, sql.col(expr.pointer.name, source.alias));
  }
  const j = ctx.fresh('j');
  const junction = junctionSource(ctx, expr.sourceType, expr.pointer, j);
  const agg = sql.jsonArrayAgg(idJson(ctx, sql.col(junction.valueColumn, j)), { orEmpty: true });
  return scalarJsonQuery(
    agg,
    sql.select({
      targets: [],
      from: [junction.item],
      where: sql.bin('=', sql.col('source', j), source.id),
    }),
  );
}

/**
 * True when `expr` is a column or link property of an already bound row, a literal, a param, or
 * a scalar cast or element-wise std call of such values: one value per row, computed in the
 * target list (a subquery per element would be a SubPlan per row to PostgreSQL).
 */
function isInline(ctx: PlanContext, rel: Rel, expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'Call':
      return (
        expr.callKind === 'element' &&
        expr.card.max !== 'many' &&
        expr.modes.every((m) => m !== 'set') &&
        expr.args.every((a) => isInline(ctx, rel, a))
      );
    case 'Cast':
      return expr.card.max !== 'many' && isInline(ctx, rel, expr.expr);
    case 'Literal':
      return true;
    case 'Param':
      return expr.fallback === undefined;
    case 'PointerStep': {
      if (expr.computed || expr.pointer.many) return false;
      const source = ownPathId(expr.source);
      const bound = source === null ? undefined : rel.lookup(source);
      return bound?.kind === 'object' && (bound.alias !== null || expr.pointer.name === 'id');
    }
    case 'LinkProperty': {
      const link = ownPathId(expr.link);
      const bound = link === null ? undefined : rel.lookup(link);
      return bound?.kind === 'object' && bound.link !== null;
    }
    default:
      return false;
  }
}

export function hasShape(expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'Shape':
      return true;
    case 'Select':
      return hasShape(expr.result);
    case 'BindingRef':
      return expr.binding.withAlias !== true && hasShape(expr.binding.expr);
    case 'For':
      return hasShape(expr.body);
    case 'Assert':
    case 'Distinct':
      return hasShape(expr.expr);
    case 'SetOp':
    case 'Coalesce':
      return hasShape(expr.left) || hasShape(expr.right);
    case 'SetLiteral':
      return expr.elements.some(hasShape);
    case 'IfElse':
      return hasShape(expr.then) || hasShape(expr.else);
    case 'PointerStep':
      return expr.computed !== null && hasShape(expr.computed);
    case 'GroupElements':
      return hasShape(groupNode(expr.group).elements);
    default:
      return false;
  }
}

/**
 * Whether a shape element is shown as an array: a stored pointer by its declared cardinality
 * (a multi link with `limit 1` is still a list), anything else by its inferred cardinality.
 */
export function isMulti(expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'Select':
      // A stored link keeps its declared multiplicity even with `limit 1`.
      return expr.subject.kind === 'PointerStep' && expr.subject.computed === null
        ? isMulti(expr.subject)
        : expr.card.max === 'many';
    case 'Shape':
      return isMulti(expr.subject);
    default:
      return expr.card.max === 'many';
  }
}
