/**
 * plan/access: access policies as SQL, inside the one compiled statement (the rules the caller
 * sees are in docs/http.md). PostgreSQL evaluates them; Node never filters rows.
 *
 * - Reads (`rowCondition`): a row of a concrete type is visible for `select` (and reachable by an
 *   update for `update read`, by a delete for `delete`) when some `allow` policy of that kind
 *   holds and no `deny` one does; a type with policies but no `allow` of the kind shows nothing.
 *   plan/sources applies `select` to every read of a type's rows (types, links, backlinks, object
 *   casts, the subjects of updates and deletes); plan/mutation adds `update read` and `delete`
 *   to what an update or delete reaches (`subjectCondition`).
 * - Writes (`addWriteCheck`): every row an insert is about to write (`insert`) and every row an
 *   update is about to leave (`update write`), with the values, defaults and multi pointers the
 *   statement gives it, is checked before anything is written (as Gel's contents CTE): a row
 *   that fails makes the statement raise AccessPolicyError (SQLSTATE 42501) with Gel's message,
 *   `access policy violation on insert of default::T`, followed by the `errmessage`s of the allow
 *   policies when none allowed it and of the deny policies that denied it, never the row's
 *   content. The check is a materialized CTE every write statement of the mutation reads first
 *   (`afterCheck`), and the statement's result reads too (the planner's `addCheck`), so it runs
 *   before any row is written: a refused insert never reaches a unique index, so it cannot tell
 *   the caller that a row it may not see holds the value.
 * - A type without policies is open (Gel), or reachable only with policies off when the caller's
 *   `defaultAccess` is `deny`. Policy expressions are planned with policies off (no recursion:
 *   Gel since 3.0), with the row bound as their subject.
 */
import type { AccessKind } from '../../model/schema';
import { pgType, sql, type Cte, type FromItem, type SqlExpr } from '../../sql';
import { raise } from '../../std/scalars';
import type { IrExpr } from '../ir';
import type { PolicySource, TypePolicies } from '../ir';
import type { CompileAccess } from '../api';
import type { SchemaIndex } from '../schema-index';
import { Rel, type Bound } from './rel';

type ObjectBound = Extract<Bound, { kind: 'object' }>;

/** What access planning needs of the planner (which implements it). */
export interface AccessContext {
  readonly index: SchemaIndex;
  readonly access: CompileAccess;
  fresh(prefix: string): string;
  addCte(cte: Cte): void;
  /** The statement's policies (bound on demand); null when compiled without policies. */
  readonly policies: PolicySource | null;
  /** True while a policy expression is planned: no policy applies inside one. */
  readonly policiesSuppressed: boolean;
  /** Runs `fn` with access policies off (a policy expression). */
  withoutPolicies<T>(fn: () => T): T;
  /** A filter's SQL condition over `rel` (true when the expression yields true). */
  condition(rel: Rel, filter: IrExpr): SqlExpr;
  /** Makes the statement's result depend on a check CTE, so it always runs. */
  addCheck(cte: string): void;
}

export type WriteKind = 'insert' | 'update write';

/** What the caller's access mode says of `concrete`: its bound policies, `open`, or `closed`. */
function policiesOf(ctx: AccessContext, concrete: string): TypePolicies | 'open' | 'closed' {
  if (!ctx.access.policies || ctx.policiesSuppressed) return 'open';
  // The compiler's own types (the schema module, std::Object) have no policies.
  if (!ctx.index.objectType(concrete)?.model) return 'open';
  const bound = ctx.policies?.of(concrete) ?? null;
  if (bound) return bound;
  return ctx.access.defaultAccess === 'deny' ? 'closed' : 'open';
}

/** True when some row of `type` (a concrete descendant) may be hidden from the caller. */
export function rowsFiltered(ctx: AccessContext, type: string): boolean {
  const concrete = ctx.index.objectType(type)?.concrete ?? [];
  return concrete.some((c) => policiesOf(ctx, c) !== 'open');
}

/** The object `alias` holds a row of concrete type `concrete` (its stored columns). */
export function rowOf(concrete: string, alias: string): ObjectBound {
  return {
    kind: 'object',
    type: concrete,
    id: sql.col('id', alias),
    tag: sql.text(concrete),
    alias,
    link: null,
    out: null,
    nullable: false,
  };
}

/**
 * The condition a row of `concrete` (bound as `row`) must meet for `kind`, or null when every
 * row may (policies off for the caller, or none on the type under `defaultAccess: open`).
 */
export function rowCondition(
  ctx: AccessContext,
  concrete: string,
  kind: Exclude<AccessKind, WriteKind>,
  row: ObjectBound,
): SqlExpr | null {
  const policies = policiesOf(ctx, concrete);
  if (policies === 'open') return null;
  if (policies === 'closed') return sql.bool(false);
  const relevant = policies.policies.filter((p) => p.kinds.includes(kind));
  const allow = relevant.filter((p) => p.action === 'allow');
  if (allow.length === 0) return sql.bool(false);
  const deny = relevant.filter((p) => p.action === 'deny');
  const term = (p: (typeof relevant)[number]) => policyTerm(ctx, policies, p, row);
  const allowed = sql.or(...allow.map(term));
  const condition = deny.length ? sql.and(allowed, sql.not(sql.or(...deny.map(term)))) : allowed;
  // A policy's value is one bool per object (schema/build); NULL anywhere is not an allow.
  return sql.func('coalesce', [condition, sql.bool(false)]);
}

/**
 * For an update or delete: the condition that its subject `subject` (of static type `type`) may
 * be reached for `kind` (`update read`, `delete`) beyond being visible, or null when no row of
 * any concrete type is restricted.
 */
export function subjectCondition(
  ctx: AccessContext,
  type: string,
  kind: 'update read' | 'delete',
  subject: ObjectBound,
): SqlExpr | null {
  if (!rowsFiltered(ctx, type)) return null;
  const concrete = ctx.index.objectType(type)?.concrete ?? [];
  if (subject.alias !== null && concrete.length === 1) {
    return rowCondition(ctx, concrete[0] as string, kind, {
      ...subject,
      tag: sql.text(concrete[0] as string),
    });
  }
  // Several tables, or a subject known by id only: each concrete type's row, by id.
  const branches = concrete.map((c) => {
    const alias = ctx.fresh('ar');
    const condition = rowCondition(ctx, c, kind, rowOf(c, alias));
    const isThis = sql.bin('=', subject.tag, sql.text(c));
    if (condition === null) return isThis;
    const table = ctx.index.objectType(c)?.table;
    if (!table) return isThis;
    return sql.and(
      isThis,
      sql.exists(
        sql.select({
          targets: [sql.target(sql.num(1))],
          from: [sql.table(table.schema, table.name, alias)],
          where: sql.and(sql.bin('=', sql.col('id', alias), subject.id), condition),
        }),
      ),
    );
  });
  return sql.or(...branches);
}

/** One policy's `when` and `using` over the row, planned with policies off. */
function policyTerm(
  ctx: AccessContext,
  policies: TypePolicies,
  policy: TypePolicies['policies'][number],
  row: ObjectBound,
): SqlExpr {
  const parts = [policy.when, policy.using].filter((e): e is IrExpr => e !== null);
  if (parts.length === 0) return sql.bool(true);
  return ctx.withoutPolicies(() => {
    const rel = new Rel(null);
    rel.bind(policies.subjectPathId, row);
    const conditions = parts.map((e) => ctx.condition(rel, e));
    // `condition` plans in a scope of its own: nothing is joined into `rel` itself.
    return conditions.length === 1 ? (conditions[0] as SqlExpr) : sql.and(...conditions);
  });
}

/**
 * The name of the check a write of `concrete`'s rows needs under the caller's policies (reserved
 * before the write is planned, so its statements can depend on it), or null when none is needed.
 */
export function reserveWriteCheck(ctx: AccessContext, concrete: string): string | null {
  return policiesOf(ctx, concrete) === 'open' ? null : ctx.fresh('policy');
}

/**
 * `(select count(*) from <check>) > -1`: a write statement carrying this condition reads the
 * check first (an InitPlan, before its first row), so a refused row raises before anything is
 * written, and before a unique index could report a conflict with a row the caller cannot see.
 */
export function afterCheck(check: string): SqlExpr {
  return sql.bin(
    '>',
    sql.scalar(
      sql.select({
        targets: [sql.target(sql.agg('count', [sql.star()]))],
        from: [sql.table(null, check)],
      }),
    ),
    sql.num(-1),
  );
}

/**
 * The check named `name` (see `reserveWriteCheck`): the rows `rows` yields (a FROM item given
 * its alias: each row as it will be written, with every stored column) against the `insert` or
 * `update write` policies of `concrete`; a row that fails raises AccessPolicyError. The
 * statement's result depends on it too (`addCheck`), so it runs even when nothing is written.
 */
export function addWriteCheck(
  ctx: AccessContext,
  concrete: string,
  kind: WriteKind,
  rows: (alias: string) => FromItem,
  name: string,
): void {
  const policies = policiesOf(ctx, concrete);
  if (policies === 'open') return;
  const op = kind === 'insert' ? 'insert' : 'update';
  const r = ctx.fresh('pr');
  const row = rowOf(concrete, r);
  // A closed type has no policy: no allow, every row refused.
  const relevant =
    policies === 'closed'
      ? []
      : policies.policies
          .filter((p) => p.kinds.includes(kind))
          .map((p) => ({ p, value: policyTerm(ctx, policies, p, row) }));
  const allow = relevant.filter((t) => t.p.action === 'allow').map((t) => t.p);
  // Each policy's value once per row (a column), then the decision and the message over them:
  // the allow policies first, then the deny ones.
  const terms = [
    ...relevant.filter((t) => t.p.action === 'allow'),
    ...relevant.filter((t) => t.p.action === 'deny'),
  ].map((t, i) => ({ policy: t.p, column: `t${i}`, value: t.value }));
  const c = 'c';
  const holds = (name: string) => sql.func('coalesce', [sql.col(name, c), sql.bool(false)]);
  const denies = (name: string) => sql.func('coalesce', [sql.col(name, c), sql.bool(true)]);
  const allowColumns = terms.filter((t) => t.policy.action === 'allow').map((t) => t.column);
  const denyTerms = terms.filter((t) => t.policy.action === 'deny');
  const noAllow = allowColumns.length
    ? sql.not(sql.or(...allowColumns.map(holds)))
    : sql.bool(true);
  const violation = sql.or(noAllow, ...denyTerms.map((t) => denies(t.column)));
  const allowHint = allow
    .map((p) => p.errmessage)
    .filter((m): m is string => m !== null)
    .join('; ');
  const hints: SqlExpr[] = [
    ...(allowHint ? [caseWhen(noAllow, sql.text(allowHint))] : []),
    ...denyTerms.flatMap((t) =>
      t.policy.errmessage ? [caseWhen(denies(t.column), sql.text(t.policy.errmessage))] : [],
    ),
  ];
  const base = sql.text(`access policy violation on ${op} of ${concrete}`);
  const message =
    hints.length === 0
      ? base
      : sql.bin(
          '||',
          base,
          sql.func('coalesce', [
            sql.bin(
              '||',
              sql.bin(
                '||',
                sql.text(' ('),
                sql.func('nullif', [
                  sql.func('concat_ws', [sql.text('; '), ...hints]),
                  sql.text(''),
                ]),
              ),
              sql.text(')'),
            ),
            sql.text(''),
          ]),
        );
  const evaluated = sql.select({
    targets: [
      sql.target(sql.col('id', r), 'id'),
      ...terms.map((t) => sql.target(t.value, t.column)),
    ],
    from: [rows(r)],
  });
  ctx.addCte(
    sql.cte(
      name,
      sql.select({
        targets: [sql.target(raise(sql.col('id', c), pgType('uuid'), message, '42501'), 'v')],
        from: [sql.subquery(evaluated, c)],
        where: violation,
      }),
      { materialized: true },
    ),
  );
  ctx.addCheck(name);
}

function caseWhen(when: SqlExpr, then: SqlExpr): SqlExpr {
  return { kind: 'Case', whens: [{ when, then }], else: null };
}
