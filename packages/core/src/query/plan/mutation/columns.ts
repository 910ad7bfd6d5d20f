/**
 * plan/mutation/columns: the stored single columns a write gives — the values of its single
 * elements as `src` columns (`singleValues`), the columns' defaults, and the rows a write is
 * about to leave (`wouldBeRows`, read by the access checks).
 */
import { storageLayout, tableName } from '../../../storage/layout';
import { pgType, sql, type PgType, type SqlExpr, type SqlQuery, type Target } from '../../../sql';
import { decodeParam, pgTypeFor } from '../../../std/scalars';
import { typeEnv } from '../../ir';
import type { IrExpr } from '../../ir';
import { containsMutation, type MutationElement, type ValuePart } from '../../ir';
import type { PlanContext } from '../context';
import type { Rel } from '../rel';
import { storedColumns } from '../sources';
import { caseWhen } from './common';

/**
 * The single elements' values as `src` columns (`c<i>`; a single link's link properties
 * `c<i>@<j>`), appended to `targets`; the stored columns they go to.
 */
export function singleValues(
  ctx: PlanContext,
  r0: Rel,
  single: readonly MutationElement[],
  targets: Target[],
  /** Values that write are read as at most one element (the write may be skipped). */
  optionalWrites = false,
): { column: string; source: string }[] {
  const columns: { column: string; source: string }[] = [];
  single.forEach((e, i) => {
    const name = `c${i}`;
    if (e.parts !== null) {
      // Each part lifted (not just valued), so its link properties read the same target element;
      // at most one element in all (a single link), so the first present part's values win.
      const lifted = e.parts.map((part) => {
        if (part.carried) {
          const carried = liftCarried(ctx, r0, e, part, 'left');
          return { id: carried.id, props: part.props, values: carried.props };
        }
        const bound = ctx.lift(r0, part.value);
        return {
          id: bound.kind === 'object' ? bound.id : bound.expr,
          props: part.props,
          values: null,
        };
      });
      const pick = (of: (l: (typeof lifted)[number]) => SqlExpr): SqlExpr =>
        lifted.length === 1
          ? of(lifted[0] as (typeof lifted)[number])
          : sql.func(
              'coalesce',
              lifted.map((l) => caseWhen(sql.isNull(l.id, true), of(l))),
            );
      targets.push(
        sql.target(
          pick((l) => l.id),
          name,
        ),
      );
      e.linkProperties.forEach((property, j) => {
        targets.push(
          sql.target(
            pick((l) => {
              if (l.values) return l.values[j] as SqlExpr;
              const expr = l.props[j];
              return expr ? ctx.value(r0, expr) : sql.null();
            }),
            `${name}@${j}`,
          ),
        );
        columns.push({ column: `${e.pointer.name}@${property.name}`, source: `${name}@${j}` });
      });
    } else if (optionalWrites && containsMutation(e.value)) {
      // A nested mutation that may write nothing (see `conflictGuard`) leaves the row, NULL.
      const { query, columns: shape } = ctx.rows(r0, e.value);
      const v = ctx.fresh('nv');
      const select = sql.select({
        targets: [sql.target(sql.col(shape.object ? 'id' : 'v', v))],
        from: [sql.subquery(query, v)],
        limit: sql.num(1),
      });
      targets.push(sql.target(sql.scalar(select), name));
    } else if (e.value.card.min === 0 && dropsRowWhenEmpty(e.value)) {
      // A possibly empty statement (`status := (select Status filter ...)`) writes NULL when
      // empty; joined, it would drop the object's row (nothing inserted or updated).
      targets.push(sql.target(atMostOneValue(ctx, r0, e.value), name));
    } else {
      targets.push(sql.target(ctx.value(r0, e.value), name));
    }
    columns.push({ column: e.pointer.name, source: name });
  });
  return columns;
}

/**
 * A part whose link properties ride on its shapes (ValuePart.carried): its elements joined into
 * `rel` as rows (`join`: `left` keeps a row without a value), each target's id and its link
 * properties read back from the element's JSON output (JSON null or a missing key: NULL).
 */
export function liftCarried(
  ctx: PlanContext,
  rel: Rel,
  e: MutationElement,
  part: ValuePart,
  join: 'inner' | 'left',
): { id: SqlExpr; props: SqlExpr[] } {
  const { query } = ctx.rows(rel, part.value);
  const alias = ctx.fresh('lv');
  rel.join(join, sql.subquery(query, alias, { lateral: true }));
  const json = sql.cast(sql.col('~json', alias), pgType('jsonb'));
  const env = typeEnv(ctx.index);
  const props = e.linkProperties.map((property, j): SqlExpr => {
    const key = part.carried?.[j] ?? null;
    const pg = pgTypeFor(property.target);
    const dflt = part.props[j];
    const otherwise = dflt ? ctx.value(rel, dflt) : sql.cast(sql.null(), pg);
    if (key === null) return otherwise;
    const item = sql.bin('->', json, sql.text(key));
    // JSON null (an empty value): NULL; no key (an element no shape wrote it on): `otherwise`.
    return {
      kind: 'Case',
      whens: [
        {
          when: sql.bin('<>', sql.func('jsonb_typeof', [item]), sql.text('null')),
          then: sql.cast(decodeParam(property.target, item, env), pg),
        },
        { when: sql.isNull(item, true), then: sql.cast(sql.null(), pg) },
      ],
      else: otherwise,
    };
  });
  return { id: sql.col('id', alias), props };
}

/** Value kinds the planner binds as joined rows (an empty one leaves no row). */
function dropsRowWhenEmpty(expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'Select':
    case 'Shape':
    case 'For':
    case 'SetOp':
    case 'Distinct':
    case 'Backlink':
    case 'Intersection':
      return true;
    case 'BindingRef':
      return !expr.binding.iteration && !expr.binding.transparent;
    default:
      return false;
  }
}

/** The value of a set of at most one element as a scalar subquery: NULL when it is empty. */
function atMostOneValue(ctx: PlanContext, r0: Rel, value: IrExpr): SqlExpr {
  const { query, columns: shape } = ctx.rows(r0, value);
  const v = ctx.fresh('ov');
  return sql.scalar(
    sql.select({
      targets: [sql.target(sql.col(shape.object ? 'id' : 'v', v))],
      from: [sql.subquery(query, v)],
      limit: sql.num(1),
    }),
  );
}

/** A single link set anew loses the link properties not written with it (a new link). */
export function resetLinkProperties(
  single: readonly MutationElement[],
): { column: string; value: SqlExpr }[] {
  return single.flatMap((e) =>
    e.pointer.kind !== 'link'
      ? []
      : [...e.pointer.properties.values()]
          .filter((p) => !p.computed && !e.linkProperties.some((l) => l.name === p.name))
          .map((p) => ({ column: `${e.pointer.name}@${p.name}`, value: sql.null() })),
  );
}

/**
 * The stored single columns of `concrete` an insert does not give (`given`) and whose column
 * has a default: the default's SQL, computed once per new row in `src` and written explicitly.
 */
export function columnDefaults(
  ctx: PlanContext,
  concrete: string,
  given: readonly { column: string }[],
): { column: string; value: SqlExpr }[] {
  const table = storageLayout(ctx.index.schema).tables.find((t) => t.type === concrete);
  const named = new Set(given.map((c) => c.column));
  return (table?.columns ?? []).flatMap((c) =>
    c.column.name === 'id' || named.has(c.column.name) || c.column.default === null
      ? []
      : [{ column: c.column.name, value: c.column.default }],
  );
}

/**
 * The rows a write is about to leave in `concrete`'s table, with every stored single column:
 * for an insert, `src`'s values (`given`: column ← src column), NULL for the others; for an
 * update (`from`: the table's current rows), the given columns replaced.
 */
export function wouldBeRows(
  ctx: PlanContext,
  concrete: string,
  src: string,
  given: readonly { column: string; source: string }[],
  update: { readonly reset: ReadonlySet<string> } | null = null,
): SqlQuery {
  const s = 's';
  const t = 't';
  const sources = new Map(given.map((c) => [c.column, c.source]));
  const columns = [...storedColumns(ctx.index, concrete)];
  const value = (name: string, pg: PgType): SqlExpr => {
    const source = sources.get(name);
    if (source !== undefined) return sql.col(source, s);
    if (update === null || update.reset.has(name)) return sql.cast(sql.null(), pg);
    return sql.col(name, t);
  };
  const table = tableName(concrete);
  return sql.select({
    targets: [
      sql.target(sql.col('id', s), 'id'),
      ...columns.map(([name, pg]) => sql.target(value(name, pg), name)),
    ],
    from:
      update === null
        ? [sql.table(null, src, s)]
        : [
            sql.join(
              'inner',
              sql.table(null, src, s),
              sql.table(table.schema, table.name, t),
              sql.and(
                sql.bin('=', sql.col('id', t), sql.col('id', s)),
                sql.bin('=', sql.col('__type__', s), sql.text(concrete)),
              ),
            ),
          ],
  });
}
