/**
 * plan/sets: sets built from other sets — `union` and set literals, `except` / `intersect`,
 * `??` and if/else over sets (`liftAlternatives`: one branch's rows chosen per outer row), and
 * the `assert_single` / `assert_exists` / `assert_distinct` checks over a set's rows.
 *
 * Each part is planned as its own subquery (plan/rows) and the parts combined with UNION ALL or
 * a set operation; the result is joined back as one bound element.
 */
import { pgType, sql, type SqlExpr, type SqlQuery, type Target } from '../../sql';
import type { IrExpr, IrType } from '../ir';
import { Rel, type Bound } from './rel';
import { unionAll } from './sources';
import type { PlanContext } from './context';
import { argValue } from './calls';
import { pgOf, whereOf } from './common';
import { type OrderKey, ORDINAL, UNION_ORDER, ordinal } from './ordering';
import { scalarJson } from './output';
import { joinObject } from './pointers';
import { liftRows } from './rows';

export function liftUnion(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'SetLiteral' | 'SetOp' }>,
): Bound {
  // `{}` members add nothing (and have no type of their own).
  const parts = (expr.kind === 'SetLiteral' ? expr.elements : [expr.left, expr.right]).filter(
    (p) => p.type.kind !== 'empty',
  );
  if (expr.kind === 'SetOp' && expr.op !== 'union') return liftExceptIntersect(ctx, rel, expr);
  if (parts.length === 1 && (expr.kind === 'SetOp' || ctx.row))
    return ctx.lift(rel, parts[0] as IrExpr);
  if (parts.length === 0) {
    if (expr.type.kind === 'object') {
      return joinObject(ctx, rel, expr.type.name, sql.cast(sql.null(), pgType('uuid')), 'left');
    }
    return {
      kind: 'value',
      type: expr.type,
      expr: sql.cast(sql.null(), pgOf(expr.type)),
      out: null,
      nullable: true,
    };
  }
  const branches = parts.map((p) => ctx.rows(rel, p));
  const object = expr.type.kind === 'object';
  const queries = branches.map((b, i) => {
    const cols: Target[] = object
      ? [sql.target(sql.col('id'), 'id'), sql.target(sql.col('__type__'), '__type__')]
      : [sql.target(sql.col('v'), 'v')];
    cols.push(sql.target(unionMemberJson(ctx, expr.type, parts[i] as IrExpr), '~json'));
    // Ordered by member, then by each member's own order (its rows numbered: the members'
    // keys differ in number and type).
    cols.push(sql.target(sql.num(i), '~u1'));
    cols.push(sql.target(ordinal(b.columns.ord, `b${i}`), '~u2'));
    return sql.select({ targets: cols, from: [sql.subquery(b.query, `b${i}`)] }) as SqlQuery;
  });
  return liftRows(ctx, rel, expr, unionAll(queries), { ord: UNION_ORDER, object });
}

/**
 * A union member's output: its own, except a tuple whose element names the union dropped
 * (a union keeps element names only when every member has the same ones), shown as the union's.
 */
function unionMemberJson(ctx: PlanContext, type: IrType, part: IrExpr): SqlExpr {
  const renamed =
    type.kind === 'tuple' &&
    part.type.kind === 'tuple' &&
    type.elements.some((e, i) => e.name !== (part.type as typeof type).elements[i]?.name) &&
    type.elements.every((e) => e.type.kind !== 'object');
  return renamed ? scalarJson(ctx, type, sql.col('v')) : sql.col('~json');
}

function liftExceptIntersect(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'SetOp' }>,
): Bound {
  const object = expr.type.kind === 'object';
  const key = object ? 'id' : 'v';
  const strip = (q: SqlQuery, alias: string): SqlQuery =>
    sql.select({
      targets: object
        ? [
            sql.target(sql.col('id', alias), 'id'),
            sql.target(sql.col('__type__', alias), '__type__'),
          ]
        : [sql.target(sql.col('v', alias), 'v')],
      from: [sql.subquery(q, alias)],
    });
  const left = strip(ctx.rows(rel, expr.left).query, 'l');
  const right = strip(ctx.rows(rel, expr.right).query, 'r');
  const alias = ctx.fresh('so');
  const combined = sql.select({
    targets: [sql.target(sql.star(alias))],
    from: [
      sql.subquery(
        sql.setOp(expr.op === 'except' ? 'except' : 'intersect', true, left, right),
        alias,
      ),
    ],
  });
  const inner = new Rel(rel);
  const bound: Bound = object
    ? {
        kind: 'object',
        type: (expr.type as { name: string }).name,
        id: sql.col('id', alias),
        tag: sql.col('__type__', alias),
        alias: null,
        link: null,
        out: null,
        nullable: false,
      }
    : { kind: 'value', type: expr.type, expr: sql.col('v', alias), out: null, nullable: false };
  inner.from = sql.subquery(combined, alias);
  const out = ctx.outputOf(inner, expr, bound);
  const query = sql.select({
    targets: [
      ...(object
        ? [
            sql.target(sql.col('id', alias), 'id'),
            sql.target(sql.col('__type__', alias), '__type__'),
          ]
        : [sql.target(sql.col(key, alias), 'v')]),
      sql.target(out, '~json'),
    ],
    from: [inner.from],
    where: whereOf(inner.where),
  });
  return liftRows(ctx, rel, expr, query, { ord: [], object });
}

export function liftCoalesce(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'Coalesce' }>,
): Bound {
  const left = ctx.rows(rel, expr.left);
  const right = ctx.rows(rel, expr.right);
  return liftAlternatives(ctx, rel, expr, [
    { query: left.query, columns: left.columns, when: null },
    { query: right.query, columns: right.columns, when: sql.not(sql.exists(left.query)) },
  ]);
}

export function liftIfElse(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'IfElse' }>,
): Bound {
  const condition = ctx.value(rel, expr.condition);
  // Each branch's assertions check only where the condition chooses it (plan/values).
  const gated = (branch: IrExpr, when: SqlExpr) => {
    ctx.gates.push(when);
    try {
      return ctx.rows(rel, branch);
    } finally {
      ctx.gates.pop();
    }
  };
  const then = gated(expr.then, sql.bin('is', condition, sql.bool(true)));
  const otherwise = gated(expr.else, sql.bin('is', condition, sql.bool(false)));
  return liftAlternatives(ctx, rel, expr, [
    { query: then.query, columns: then.columns, when: sql.bin('is', condition, sql.bool(true)) },
    {
      query: otherwise.query,
      columns: otherwise.columns,
      when: sql.bin('is', condition, sql.bool(false)),
    },
  ]);
}

function liftAlternatives(
  ctx: PlanContext,
  rel: Rel,
  expr: IrExpr,
  branches: {
    query: SqlQuery;
    columns: { ord: readonly OrderKey[]; object: boolean };
    when: SqlExpr | null;
  }[],
): Bound {
  const object = expr.type.kind === 'object';
  const queries = branches.map((b, i) => {
    const alias = `a${i}`;
    // A branch that is `{}` (no rows, no object columns) in an if/else of objects.
    const none = object && !b.columns.object;
    return sql.select({
      targets: [
        ...(object
          ? [
              sql.target(none ? sql.cast(sql.null(), pgType('uuid')) : sql.col('id', alias), 'id'),
              sql.target(
                none ? sql.cast(sql.null(), pgType('text')) : sql.col('__type__', alias),
                '__type__',
              ),
            ]
          : [sql.target(sql.col('v', alias), 'v')]),
        sql.target(sql.col('~json', alias), '~json'),
        sql.target(ordinal(b.columns.ord, alias), '~ord'),
      ],
      from: [sql.subquery(b.query, alias)],
      where: b.when,
    }) as SqlQuery;
  });
  return liftRows(ctx, rel, expr, unionAll(queries), { ord: ORDINAL, object });
}

export function liftAssert(
  ctx: PlanContext,
  rel: Rel,
  expr: Extract<IrExpr, { kind: 'Assert' }>,
): Bound {
  const { query, columns } = ctx.rows(rel, expr.expr);
  const alias = ctx.fresh('as');
  const key = columns.object ? 'id' : 'v';
  // Gel's classes: assert_single / assert_exists a CardinalityViolationError (21000),
  // assert_distinct a ConstraintViolationError (23514 with no constraint named).
  const state = expr.check === 'distinct' ? '23514' : '21000';
  // A message expression is this call's argument: a set of messages joins here (a call per
  // message), an empty one is NULL (the default message).
  const message = expr.messageExpr
    ? sql.func('coalesce', [
        argValue(
          ctx,
          rel,
          expr.messageExpr,
          expr.messageExpr.card.max === 'many' ? 'element' : 'optional',
        ),
        sql.text(expr.message),
      ])
    : sql.text(expr.message);
  const raise = (probe: SqlExpr): SqlExpr =>
    sql.func('raise', [probe, sql.text(state), message], 'svc_meta');
  // Inside an if/else branch, the check holds only where the branch runs (ctx.gates).
  const gate = ctx.gates.length ? sql.and(...ctx.gates) : null;
  const gated = (violated: SqlExpr): SqlExpr => (gate ? sql.and(gate, violated) : violated);
  const tooMany = (wrapped: string) => gated(sql.bin('>', sql.col('~n', wrapped), sql.num(1)));
  if (expr.check === 'single') {
    const count = sql.agg('count', [sql.star()], { over: { partitionBy: [], orderBy: [] } });
    const wrapped = ctx.fresh('ck');
    const counted = sql.select({
      targets: [sql.target(sql.star(alias)), sql.target(count, '~n')],
      from: [sql.subquery(query, alias)],
    });
    const checked = sql.select({
      targets: [
        ...(columns.object
          ? [
              sql.target(
                {
                  kind: 'Case',
                  whens: [
                    {
                      when: tooMany(wrapped),
                      then: raise(sql.col('id', wrapped)),
                    },
                  ],
                  else: sql.col('id', wrapped),
                },
                'id',
              ),
              sql.target(sql.col('__type__', wrapped), '__type__'),
            ]
          : [
              sql.target(
                {
                  kind: 'Case',
                  whens: [
                    {
                      when: tooMany(wrapped),
                      then: raise(sql.col('v', wrapped)),
                    },
                  ],
                  else: sql.col('v', wrapped),
                },
                'v',
              ),
            ]),
        // The output form is checked too: a query reading only the JSON must still raise.
        sql.target(
          {
            kind: 'Case',
            whens: [{ when: tooMany(wrapped), then: raise(sql.col('~json', wrapped)) }],
            else: sql.col('~json', wrapped),
          },
          '~json',
        ),
      ],
      from: [sql.subquery(counted, wrapped)],
    });
    return liftRows(ctx, rel, expr, checked, { ord: [], object: columns.object });
  }
  // exists / distinct: a one-row check evaluated whether or not there are rows.
  const probe = ctx.fresh('ck');
  const ok =
    expr.check === 'exists'
      ? sql.exists(
          sql.select({ targets: [sql.target(sql.num(1))], from: [sql.subquery(query, alias)] }),
        )
      : sql.scalar(
          sql.select({
            targets: [
              sql.target(
                sql.bin(
                  '=',
                  sql.agg('count', [sql.col(key, alias)]),
                  sql.agg('count', [sql.col(key, alias)], { distinct: true }),
                ),
              ),
            ],
            from: [sql.subquery(query, alias)],
          }),
        );
  const check = sql.select({
    targets: [
      sql.target(
        {
          kind: 'Case',
          whens: [{ when: gate ? sql.or(sql.not(gate), ok) : ok, then: sql.bool(true) }],
          else: raise(sql.isNull(sql.func('random', []))),
        },
        'ok',
      ),
    ],
  });
  const rows = ctx.fresh('r');
  // exists: a left join, so the check's row stays (and is evaluated) even when PostgreSQL
  // proves the rows empty while planning (an empty set raises; a non-empty one has no null
  // row). distinct: an empty set passes, so an inner join.
  const checked = sql.select({
    targets: [sql.target(sql.star(rows))],
    from: [
      sql.join(
        expr.check === 'exists' ? 'left' : 'inner',
        sql.subquery(check, probe),
        sql.subquery(query, rows, { lateral: true }),
        sql.bool(true),
      ),
    ],
    where: sql.col('ok', probe),
  });
  return liftRows(ctx, rel, expr, checked, columns);
}
