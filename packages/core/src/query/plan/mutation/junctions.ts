/**
 * plan/mutation/junctions: writes of multi pointers. The new junction rows of an element are a
 * materialized `pairs` CTE (`planPairs`); they are inserted into or deleted from the pointer's
 * junction table (`writeJunction`), after the rows not in the new set go for `:=`
 * (`clearJunction`). `-=` on a multi property is multiset subtraction; a required multi pointer
 * keeps a row or the statement fails (SQLSTATE 23502).
 */
import {
  pgType,
  sql,
  type FromItem,
  type SqlExpr,
  type SqlQuery,
  type SqlStatement,
  type Target,
} from '../../../sql';
import { raise } from '../../../std/operators';
import { pgTypeFor } from '../../../std/scalars';
import type { BindingRef } from '../../ir';
import type { MutationElement } from '../../ir';
import type { PointerInfo, PointerStorage } from '../../schema-index';
import type { PlanContext } from '../context';
import { Rel } from '../rel';
import { afterCheck } from '../access';
import { liftCarried } from './columns';
import { covariantTarget, exclusiveAsBefore, iterationBound, selectFrom } from './common';

/**
 * The new junction rows of a multi element: `pairs_N` (source, target|value, link properties by
 * name), one row per written object (`owners`, joined to `src` for the iteration columns) and
 * value element. The value is planned with the written object bound as `subjectPathId` (an
 * update's `.x`) and each `for` variable bound to its `src` column.
 */
export function planPairs(
  ctx: PlanContext,
  e: MutationElement,
  owners: string,
  src: string,
  iterations: readonly BindingRef[],
  subject: { readonly pathId: string; readonly type: string } | null,
  /** The written objects' concrete type, when one (else `src`'s `__type__`). */
  tag: SqlExpr | null,
): string {
  // One SELECT per part of the value (the whole value when it has no link properties), each
  // with the link properties written with its elements; UNION ALL of them.
  const parts = e.parts ?? [{ value: e.value, pathId: '', props: [] }];
  const selects = parts.map((part, k) => {
    const rel = new Rel(null);
    const o = ctx.fresh('o');
    const s = ctx.fresh('s');
    rel.join('inner', sql.table(null, owners, o));
    if (owners !== src)
      rel.join('inner', sql.table(null, src, s), sql.bin('=', sql.col('id', s), sql.col('id', o)));
    const row = owners === src ? o : s;
    iterations.forEach((ref, i) => {
      rel.bind(ref.pathId, iterationBound(ref, sql.col(`~it${i}`, row)));
    });
    if (subject !== null) {
      rel.bind(subject.pathId, {
        kind: 'object',
        type: subject.type,
        id: sql.col('id', row),
        tag: sql.col('__type__', row),
        alias: null,
        link: null,
        out: null,
        nullable: false,
      });
    }
    const carried = part.carried ? liftCarried(ctx, rel, e, part, 'inner') : null;
    const bound = carried ? null : ctx.lift(rel, part.value);
    const value = carried
      ? carried.id
      : bound?.kind === 'object'
        ? bound.id
        : (bound?.expr as SqlExpr);
    const valueColumn = e.pointer.kind === 'link' ? 'target' : 'value';
    const targets: Target[] = [
      sql.target(sql.col('id', o), 'source'),
      sql.target(value, valueColumn),
      sql.target(tag ?? sql.col('__type__', row), '~type'),
    ];
    e.linkProperties.forEach((property, j) => {
      const expr = part.props[j];
      targets.push(
        sql.target(
          carried
            ? (carried.props[j] as SqlExpr)
            : expr
              ? ctx.value(rel, expr)
              : sql.cast(sql.null(), pgTypeFor(property.target)),
          property.name,
        ),
      );
    });
    // Which part a pair comes from: when two parts give the same target, the later one's link
    // properties are written (see writeJunction).
    if (parts.length > 1) targets.push(sql.target(sql.num(k), '~part'));
    rel.where.push(sql.isNull(value, true));
    return selectFrom(rel, targets);
  });
  const pairs = ctx.fresh('pairs');
  const query = selects
    .slice(1)
    .reduce<SqlQuery>((acc, next) => sql.setOp('union', true, acc, next), selects[0] as SqlQuery);
  ctx.addCte(sql.cte(pairs, query, { materialized: true }));
  return pairs;
}

/** For a required multi pointer given a possibly empty value: the written objects (`owners`,
 * rows of `concrete` among them) that must get at least one row. */
interface RequiredCheck {
  readonly owners: string;
  /** `owners` has a `__type__` column (an update's `src`), to pick this table's rows. */
  readonly typed: boolean;
  readonly concrete: string;
  readonly message: string;
}

export function requiredCheck(
  e: MutationElement,
  concrete: string,
  owners: string,
  typed: boolean,
): RequiredCheck | null {
  if (!e.pointer.required || e.value.card.min === 1) return null;
  return {
    owners,
    typed,
    concrete,
    message: `missing value for required ${e.pointer.kind} '${concrete}.${e.pointer.name}'`,
  };
}

/**
 * What a junction write waits for under access policies (plan/access): `check`, the write check
 * its statement reads first; `written`, the CTE of the rows actually inserted, whose pairs alone
 * are written (checked inserts plan their pairs from every row they are about to insert).
 */
interface JunctionGate {
  readonly written: string | null;
  readonly check: string | null;
}

/** `statement` with `conditions` added to what it writes (an insert's rows, a WHERE). */
function gated(statement: SqlStatement, conditions: readonly SqlExpr[]): SqlStatement {
  if (conditions.length === 0) return statement;
  switch (statement.kind) {
    case 'Insert': {
      const g = 'g';
      const source = statement.source as SqlQuery;
      return {
        ...statement,
        source: sql.select({
          targets: [sql.target(sql.star(g))],
          from: [sql.subquery(source, g)],
          where: sql.and(...conditions),
        }),
      };
    }
    case 'Update':
    case 'Delete':
      return {
        ...statement,
        where: statement.where ? sql.and(statement.where, ...conditions) : sql.and(...conditions),
      };
    default:
      return statement;
  }
}

/** Inserts (`add`) or deletes (`remove`) the pairs in the pointer's junction table of `concrete`. */
export function writeJunction(
  ctx: PlanContext,
  concrete: string,
  e: MutationElement,
  pairs: string,
  mode: 'add' | 'remove',
  required: RequiredCheck | null = null,
  gate: JunctionGate | null = null,
): void {
  const pointer = e.pointer;
  const storage = ctx.index.storage(concrete, pointer);
  if (storage.kind !== 'junction') return;
  // The link properties written (the others keep their defaults, or NULL).
  const props = e.linkProperties.map((p) => p.name);
  const resetProps =
    e.op === ':='
      ? [...pointer.properties.values()].filter((p) => !p.computed).map((p) => p.name)
      : props;
  const p = 'p';
  const name = ctx.fresh(mode === 'add' ? 'link' : 'unlink');
  let statement: SqlStatement;
  if (mode === 'add') {
    const columns = ['source', storage.valueColumn, ...props];
    // A target given by several parts of the value is one link row: the last part's.
    const byPart = e.parts !== null && e.parts.length > 1;
    const value = sql.col(storage.valueColumn, p);
    let source: SqlQuery = sql.select({
      targets: [
        sql.target(sql.col('source', p)),
        // A subtype may narrow the link's target (checked when written through a parent type).
        sql.target(
          exclusiveAsBefore(
            ctx,
            concrete,
            pointer,
            pointer.kind === 'link'
              ? covariantTarget(ctx, concrete, pointer, e.value.type, value)
              : value,
            sql.col('source', p),
          ),
        ),
        ...props.map((c) => sql.target(sql.col(c, p))),
      ],
      from: [sql.table(null, pairs, p)],
      // Only the rows of objects this table holds (and, for a checked insert, inserted).
      where: sql.and(
        sql.bin('=', sql.col('~type', p), sql.text(concrete)),
        // An exclusive multi property's value the object already has stays as it is.
        ...(pointer.kind === 'property' && uniqueValues(pointer)
          ? [
              sql.not(
                sql.exists(
                  sql.select({
                    targets: [sql.target(sql.num(1))],
                    from: [sql.table(storage.table.schema, storage.table.name, 'h')],
                    where: sql.and(
                      sql.bin('=', sql.col('source', 'h'), sql.col('source', p)),
                      sql.bin(
                        '=',
                        sql.col(storage.valueColumn, 'h'),
                        sql.col(storage.valueColumn, p),
                      ),
                      givenOnce(pairs, storage.valueColumn, p),
                    ),
                  }),
                ),
              ),
            ]
          : []),
        ...(gate?.written
          ? [
              sql.exists(
                sql.select({
                  targets: [sql.target(sql.num(1))],
                  from: [sql.table(null, gate.written, 'w')],
                  where: sql.bin('=', sql.col('id', 'w'), sql.col('source', p)),
                }),
              ),
            ]
          : []),
      ),
      ...(byPart
        ? {
            distinct: [sql.col('source', p), sql.col(storage.valueColumn, p)],
            orderBy: [
              sql.order(sql.col('source', p)),
              sql.order(sql.col(storage.valueColumn, p)),
              sql.order(sql.col('~part', p), 'desc'),
            ],
          }
        : {}),
    });
    if (required !== null) {
      // A written object without a row fails the statement (SQLSTATE 23502: MissingRequiredError).
      const o = 'o';
      const missing = sql.select({
        targets: [
          sql.target(raise(sql.col('id', o), pgType('uuid'), sql.text(required.message), '23502')),
          ...columns.slice(1).map(() => sql.target(sql.null())),
        ],
        from: [sql.table(null, required.owners, o)],
        where: sql.and(
          ...(required.typed ? [sql.bin('=', sql.col('__type__', o), sql.text(concrete))] : []),
          sql.not(
            sql.exists(
              sql.select({
                targets: [sql.target(sql.num(1))],
                from: [sql.table(null, pairs, 'q')],
                where: sql.bin('=', sql.col('source', 'q'), sql.col('id', o)),
              }),
            ),
          ),
        ),
      });
      source = sql.setOp('union', true, source, missing);
    }
    statement = sql.insert({
      table: storage.table,
      columns,
      source,
      // A link row already there stays; its link properties take the written values (`:=` links
      // anew, so the ones not written are reset too: `excluded` has their defaults).
      onConflict:
        pointer.kind === 'link'
          ? {
              target: { kind: 'columns', columns: ['source', 'target'], where: null },
              action:
                resetProps.length > 0
                  ? {
                      kind: 'update',
                      set: resetProps.map((c) => ({ column: c, value: sql.col(c, 'excluded') })),
                      where: null,
                    }
                  : { kind: 'nothing' },
            }
          : null,
    });
  } else if (pointer.kind === 'property') {
    statement = removeOccurrences(storage, pairs, concrete, pointer);
  } else {
    const j = 'j';
    statement = sql.delete({
      table: storage.table,
      alias: j,
      using: [sql.table(null, pairs, p)],
      where: sql.and(
        sql.bin('=', sql.col('source', j), sql.col('source', p)),
        sql.bin('=', sql.col(storage.valueColumn, j), sql.col(storage.valueColumn, p)),
        ...(pointer.required ? [keepsOneRow(storage, pairs, j, concrete, pointer)] : []),
      ),
    });
  }
  ctx.addCte(sql.cte(name, gated(statement, gate?.check ? [afterCheck(gate.check)] : [])));
}

/**
 * `-=` on a multi property: multiset subtraction (Gel's `except`), one stored occurrence per
 * occurrence in the removed set (`{'1', '1', '2'} -= {'1'}` leaves `{'1', '2'}`). Each row of an
 * object's value is ranked among the rows holding the same value; the first `count` rows go,
 * `count` being how often the removed set holds the value. A required property keeps a row or the
 * statement fails (SQLSTATE 23502), as for links.
 */
function removeOccurrences(
  storage: Extract<PointerStorage, { kind: 'junction' }>,
  pairs: string,
  concrete: string,
  pointer: PointerInfo,
): SqlStatement {
  const value = storage.valueColumn;
  const ranked = (k: string, touchedOnly: boolean): FromItem =>
    sql.subquery(
      sql.select({
        targets: [
          sql.target(sql.col('ctid', 'r0'), 'rid'),
          sql.target(sql.col('source', 'r0'), 'source'),
          sql.target(sql.col(value, 'r0'), 'v'),
          sql.target(
            sql.agg('row_number', [], {
              over: {
                partitionBy: [sql.col('source', 'r0'), sql.col(value, 'r0')],
                orderBy: [sql.order(sql.col('ctid', 'r0'))],
              },
            }),
            'n',
          ),
        ],
        from: [sql.table(storage.table.schema, storage.table.name, 'r0')],
        // Only the (object, value) groups the removal touches (all: whether a row remains).
        where: !touchedOnly
          ? null
          : sql.exists(
              sql.select({
                targets: [sql.target(sql.num(1))],
                from: [sql.table(null, pairs, 'q0')],
                where: sql.and(
                  sql.bin('=', sql.col('source', 'q0'), sql.col('source', 'r0')),
                  sql.bin('=', sql.col(value, 'q0'), sql.col(value, 'r0')),
                ),
              }),
            ),
      }),
      k,
    );
  const taken = (k: string): SqlExpr =>
    sql.bin(
      '<=',
      sql.col('n', k),
      sql.scalar(
        sql.select({
          targets: [sql.target(sql.agg('count', [sql.star()]))],
          from: [sql.table(null, pairs, 'q')],
          where: sql.and(
            sql.bin('=', sql.col('source', 'q'), sql.col('source', k)),
            sql.bin('=', sql.col(value, 'q'), sql.col('v', k)),
          ),
        }),
      ),
    );
  const j = 'j';
  const r = 'r';
  const conditions: SqlExpr[] = [sql.bin('=', sql.col('ctid', j), sql.col('rid', r)), taken(r)];
  if (pointer.required) {
    const remains = sql.exists(
      sql.select({
        targets: [sql.target(sql.num(1))],
        from: [ranked('k', false)],
        where: sql.and(
          sql.bin('=', sql.col('source', 'k'), sql.col('source', j)),
          sql.not(taken('k')),
        ),
      }),
    );
    const message = `missing value for required ${pointer.kind} '${concrete}.${pointer.name}'`;
    conditions.push({
      kind: 'Case',
      whens: [{ when: remains, then: sql.bool(true) }],
      else: raise(sql.col('source', j), pgType('bool'), sql.text(message), '23502'),
    });
  }
  return sql.delete({
    table: storage.table,
    alias: j,
    using: [ranked(r, true)],
    where: sql.and(...conditions),
  });
}

/**
 * `-=` on a required multi pointer: true while the object `j.source` keeps a row the removal does
 * not take; else the statement fails (SQLSTATE 23502: MissingRequiredError, as Gel).
 */
function keepsOneRow(
  storage: Extract<PointerStorage, { kind: 'junction' }>,
  pairs: string,
  j: string,
  concrete: string,
  pointer: PointerInfo,
): SqlExpr {
  const k = 'k';
  const q = 'q';
  const removed = sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [sql.table(null, pairs, q)],
      where: sql.and(
        sql.bin('=', sql.col('source', q), sql.col('source', k)),
        sql.bin('=', sql.col(storage.valueColumn, q), sql.col(storage.valueColumn, k)),
      ),
    }),
  );
  const remains = sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [sql.table(storage.table.schema, storage.table.name, k)],
      where: sql.and(sql.bin('=', sql.col('source', k), sql.col('source', j)), sql.not(removed)),
    }),
  );
  const message = `missing value for required ${pointer.kind} '${concrete}.${pointer.name}'`;
  return {
    kind: 'Case',
    whens: [{ when: remains, then: sql.bool(true) }],
    else: raise(sql.col('source', j), pgType('bool'), sql.text(message), '23502'),
  };
}

/** `:=` on a multi pointer: the junction rows of the written objects that are not in the new set. */
export function clearJunction(
  ctx: PlanContext,
  concrete: string,
  pointer: PointerInfo,
  src: string,
  pairs: string,
  gate: JunctionGate | null = null,
): void {
  const storage = ctx.index.storage(concrete, pointer);
  if (storage.kind !== 'junction') return;
  const j = 'j';
  const s = 's';
  const keep = sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [sql.table(null, pairs, 'p')],
      where: sql.and(
        sql.bin('=', sql.col('source', 'p'), sql.col('source', j)),
        sql.bin('=', sql.col(storage.valueColumn, 'p'), sql.col(storage.valueColumn, j)),
      ),
    }),
  );
  ctx.addCte(
    sql.cte(
      ctx.fresh('unlink'),
      sql.delete({
        table: storage.table,
        alias: j,
        using: [sql.table(null, src, s)],
        // Multi properties are multisets: every old value goes, the new ones are inserted; an
        // exclusive one is a set (its values unique), kept like links: a value the object keeps,
        // given once, stays (deleting and inserting it again would meet its own unique index
        // row; given twice, both are inserted and the index refuses them).
        where: sql.and(
          sql.bin('=', sql.col('source', j), sql.col('id', s)),
          ...(pointer.kind === 'link'
            ? [sql.not(keep)]
            : uniqueValues(pointer)
              ? [sql.not(sql.and(keep, givenOnce(pairs, storage.valueColumn, j)))]
              : []),
          ...(gate?.check ? [afterCheck(gate.check)] : []),
        ),
      }),
    ),
  );
}

/** A multi pointer whose values are unique (a plain exclusive constraint): a set. */
function uniqueValues(pointer: PointerInfo): boolean {
  return (pointer.model?.constraints ?? []).some(
    (c) => c.name === 'std::exclusive' && c.subjectExpr === null && c.except === null,
  );
}

/** The value of junction row `row` occurs once among the new `pairs` of its source. */
function givenOnce(pairs: string, valueColumn: string, row: string): SqlExpr {
  const q = 'once';
  return sql.bin(
    '=',
    sql.scalar(
      sql.select({
        targets: [sql.target(sql.agg('count', [sql.star()]))],
        from: [sql.table(null, pairs, q)],
        where: sql.and(
          sql.bin('=', sql.col('source', q), sql.col('source', row)),
          sql.bin('=', sql.col(valueColumn, q), sql.col(valueColumn, row)),
        ),
      }),
    ),
    sql.num(1),
  );
}
