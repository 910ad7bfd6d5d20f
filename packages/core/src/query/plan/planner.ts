/**
 * plan/planner: IR → one SQL SELECT returning one row, one column `result`: the JSON text of the
 * whole result array, built by PostgreSQL.
 *
 * This module makes the `PlanContext` of a statement (plan/context) and wires its dispatch to
 * the planner's modules, one concern each (Gel's pgsql compiler is divided the same way):
 * - `lift(rel, e)` (plan/relations, with plan/pointers, plan/sets, plan/calls, plan/group and
 *   plan/mutation for the kinds they plan): make the elements of set `e` rows of `rel` and bind
 *   its path id there. A path already bound in `rel` or an enclosing Rel is reused: that is
 *   Gel's path factoring, and correlation of subqueries with their outer rows;
 * - `value(rel, e)` (plan/values): the SQL value of one element (objects: their id);
 * - `rows(rel, e)` (plan/rows): `e`'s elements as a correlated subquery, for sets that must not
 *   multiply the current rows (shape elements, aggregate arguments, statements used as values);
 * - `output(rel, e)` (plan/output): the element's JSON result form.
 * Order keys travel with the rows (plan/ordering); the Rel being built is plan/rel; reads of a
 * type's rows go through plan/sources (the access hook, plan/access).
 * Invariants: values are `$n` parameters, never spliced; identifiers only through the SQL AST
 * printer; every read of a type's rows goes through plan/sources.
 */
import { InvalidDefinitionError, QueryError } from '../../errors';
import {
  pgType,
  someExpr,
  sql,
  transformSql,
  type Cte,
  type FromItem,
  type SqlExpr,
  type SqlQuery,
} from '../../sql';
import type { TypeEnv } from '../../std/model';
import type { CompileAccess } from '../api';
import type { IrExpr, IrQuery } from '../ir';
import type { SchemaIndex } from '../schema-index';
import type { PolicySource } from '../ir';
import type { CatalogueAlias } from '../schema-index/catalogue';
import { planSideEffect } from './mutation';
import { markSideEffects } from './mutation/scope';
import { Rel, type Bound } from './rel';
import { rowCondition, rowOf, rowsFiltered } from './access';
import type { PlanContext, PlannedRows, RowsHooks } from './context';
import { whereOf } from './common';
import { aggregateOrder } from './ordering';
import { ownPathId } from '../ir';
import { liftNew } from './relations';
import { planRows, prebind, presence } from './rows';
import { condition, planValue } from './values';
import { outputOf, planOutput } from './output';

export type { PlanContext } from './context';
export type { OrderKey } from './ordering';

/** Deeper than this, planning stops with a clear error instead of overflowing the stack. */
const MAX_PLAN_DEPTH = 400;

export interface PlanOptions {
  readonly access: CompileAccess;
  readonly env: TypeEnv;
  /** The statement's access policies (bind/policies), read when `access.policies` is on. */
  readonly policies?: PolicySource | null;
  /** Every parameter of the compiled statement, counted after planning (policies add some). */
  readonly paramCount?: () => number;
  /** One row's expression (`planRowExpression`): sets of at most one value are values in place. */
  readonly row?: boolean;
  /** The schema's aliases with their types (bind/alias-types), for reading the catalogue. */
  readonly aliasTypes?: () => readonly CatalogueAlias[];
  /** A single shaped link as an array of one object (default) or as the object (CompileOptions). */
  readonly singleLinks?: 'array' | 'object';
}

/**
 * A query's statement, whose one row's `result` column is the JSON array of the query's
 * elements (`[]` for none), and, when those elements are JSON text (sql/build `isJsonText`), the
 * same statement answering the array's inside only (`jsonElementsAgg`: the elements joined with
 * `', '`, SQL NULL for none), which the engine runs and puts the brackets around.
 */
export interface StatementPlan {
  readonly statement: SqlQuery;
  readonly elements: SqlQuery | null;
}

export function planQuery(index: SchemaIndex, query: IrQuery, options: PlanOptions): StatementPlan {
  const planner = new Planner(index, options);
  markSideEffects(planner, query.sideEffects);
  for (const expr of query.sideEffects) planSideEffect(planner, expr);
  // A parameter the query names but never evaluates (inside `typeof`) is still sent by the
  // engine: an unread CTE declares it, so the statement takes every value it is given.
  // Policies bound while planning may add parameters: the count is read after planning.
  return planner.root(query.root, () => options.paramCount?.() ?? query.params.length);
}

/** The alias a DDL expression's row is read from; `planRowExpression` prints its columns bare. */
export const ROW_ALIAS = '~row';

/**
 * A schema expression bound in `ddl` mode (bind/ddl) as one SQL expression over one row: a
 * column default, a CHECK, an index element or a domain check, with the same operator, cast and
 * function SQL as queries. `row` binds the row's sets (by path id) to its columns, read from
 * `ROW_ALIAS`; anything that would read another table (a path through a link, a query, a
 * possibly-many set) is refused with `InvalidDefinitionError` at `position`.
 */
export function planRowExpression(
  index: SchemaIndex,
  expr: IrExpr,
  options: {
    readonly env: TypeEnv;
    readonly row: ReadonlyMap<string, Bound>;
    readonly position?: { line: number; column: number };
  },
): SqlExpr {
  const planner = new Planner(index, {
    access: { policies: false },
    env: options.env,
    row: true,
  });
  const rel = new Rel(null);
  for (const [pathId, bound] of options.row) rel.bind(pathId, bound);
  const refuse = (): never => {
    throw new InvalidDefinitionError(
      'a schema default, check or index can read only the row itself, not another table or a query',
      {
        position: options.position,
        hint: 'PostgreSQL defaults, CHECKs and indexes see one row; a path through a link needs another table',
      },
    );
  };
  let value: SqlExpr;
  try {
    value = planner.value(rel, expr);
  } catch (error) {
    // What only a query can do (reading a table the row does not have) is not a DDL expression.
    if (error instanceof QueryError && !(error instanceof InvalidDefinitionError)) refuse();
    throw error;
  }
  if (rel.from !== null || rel.where.length > 0 || planner.hasCtes() || readsRows(value)) refuse();
  return unqualifyRow(value);
}

/** True when `e` holds a subquery (a CHECK or an index may not). */
function readsRows(e: SqlExpr): boolean {
  return someExpr(e, (x) => x.kind === 'SubLink' || x.kind === 'AnySubLink');
}

/** The row's columns unqualified (a default, a CHECK and an index name them bare). */
function unqualifyRow(e: SqlExpr): SqlExpr {
  return transformSql(e, {
    expr: (x) =>
      x.kind === 'ColumnRef' && x.table === ROW_ALIAS ? { ...x, table: null } : undefined,
  });
}

/** The planner of one statement: its state, and the dispatch to the planner's modules. */
class Planner implements PlanContext {
  private readonly ctes: Cte[] = [];
  /** Check CTEs the result depends on (plan/access write checks): they always run. */
  private readonly checks: string[] = [];
  readonly policies: PolicySource | null;
  private suppressed = 0;
  private aliasCount = 0;
  private depth = 0;
  readonly access: CompileAccess;
  readonly env: TypeEnv;
  readonly row: boolean;
  readonly linkObjects: boolean;
  readonly aliasTypes: () => readonly CatalogueAlias[];
  readonly distinctDone = new WeakSet<IrExpr>();
  readonly gates: SqlExpr[] = [];
  readonly volatileFrom = new WeakMap<Rel, FromItem | null>();
  overlayDepth = 0;
  readonly computing: string[] = [];

  constructor(
    readonly index: SchemaIndex,
    options: PlanOptions,
  ) {
    this.access = options.access;
    this.env = options.env;
    this.row = options.row === true;
    this.linkObjects = options.singleLinks === 'object';
    this.policies = options.access.policies ? (options.policies ?? null) : null;
    this.aliasTypes = options.aliasTypes ?? (() => []);
  }

  // -------------------------------------------------------------------------------------------
  // Dispatch

  lift(rel: Rel, expr: IrExpr): Bound {
    return this.guard(() => {
      const id = ownPathId(expr);
      const known = id !== null ? rel.lookup(id) : rel.lookupNode(expr);
      if (known) return known;
      const bound = liftNew(this, rel, expr);
      if (id !== null) rel.bind(id, bound);
      else rel.bindNode(expr, bound);
      return bound;
    });
  }

  value(rel: Rel, expr: IrExpr): SqlExpr {
    return this.guard(() => planValue(this, rel, expr));
  }

  rows(parent: Rel, expr: IrExpr, hooks: RowsHooks = {}): PlannedRows {
    return planRows(this, parent, expr, hooks);
  }

  output(rel: Rel, expr: IrExpr): SqlExpr {
    return planOutput(this, rel, expr);
  }

  outputOf(rel: Rel, expr: IrExpr, bound: Bound): SqlExpr {
    return outputOf(this, rel, expr, bound);
  }

  condition(rel: Rel, filter: IrExpr): SqlExpr {
    return condition(this, rel, filter);
  }

  private guard<T>(fn: () => T): T {
    if (++this.depth > MAX_PLAN_DEPTH) {
      throw new QueryError('the query is nested too deeply to compile');
    }
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Access policies (plan/access)

  get policiesSuppressed(): boolean {
    return this.suppressed > 0;
  }

  withoutPolicies<T>(fn: () => T): T {
    this.suppressed++;
    try {
      return fn();
    } finally {
      this.suppressed--;
    }
  }

  selectFilter(concrete: string, alias: string): SqlExpr | null {
    return rowCondition(this, concrete, 'select', rowOf(concrete, alias));
  }

  rowsFiltered(type: string): boolean {
    return rowsFiltered(this, type);
  }

  addCheck(cte: string): void {
    this.checks.push(cte);
  }

  // -------------------------------------------------------------------------------------------
  // The statement

  hasCtes(): boolean {
    return this.ctes.length > 0;
  }

  fresh(prefix: string): string {
    return `${prefix}${++this.aliasCount}`;
  }

  addCte(cte: Cte): void {
    this.ctes.push(cte);
  }

  root(expr: IrExpr, paramCount: () => number = () => 0): StatementPlan {
    const rel = new Rel(null);
    prebind(this, rel, expr);
    const bound = this.lift(rel, expr);
    const out = bound.out ?? this.outputOf(rel, expr, bound);
    const present = presence(bound);
    const orderBy = aggregateOrder(rel.from, rel.order);
    const result = sql.cast(sql.jsonArrayAgg(out, { orderBy, orEmpty: true }), pgType('text'));
    const elements = sql.jsonElementsAgg(out, { orderBy });
    // One statement, two forms of its one result: they share every other part of the tree.
    const statement = (ctes: readonly Cte[], answer: SqlExpr) =>
      sql.select({
        with: sql.with(ctes),
        targets: [sql.target(this.afterChecks(answer), 'result')],
        from: rel.from ? [rel.from] : [],
        where: whereOf([...rel.where, ...(present ? [present] : [])]),
      });
    const planned = statement(this.ctes, result);
    const read = new Set<number>();
    someExpr(planned, (e) => {
      if (e.kind === 'Param') read.add(e.index);
      return false;
    });
    const unread = Array.from({ length: paramCount() }, (_, i) => i + 1).filter(
      (n) => !read.has(n),
    );
    // The unread CTE is made once: its name is fresh, and both forms must declare the same.
    const ctes = unread.length ? [...this.ctes, this.unreadParamsCte(unread)] : this.ctes;
    return {
      statement: unread.length ? statement(ctes, result) : planned,
      elements: elements ? statement(ctes, elements) : null,
    };
  }

  /**
   * A CTE naming the parameters the statement does not read (`(<bool>$a, <int64>$b).0` reads
   * only `$a`), as Gel's `__unused_vars`: PostgreSQL refuses a bind message with more values
   * than the statement has parameters, and every declared variable is sent. What is read is
   * what the finished tree holds, not what the planner once built: a value it planned and then
   * left out (a tuple's unused element) reads nothing.
   */
  private unreadParamsCte(unread: readonly number[]): Cte {
    return sql.cte(
      this.fresh('params'),
      sql.select({
        targets: unread.map((n) => sql.target(sql.cast(sql.param(n), pgType('jsonb')), `p${n}`)),
      }),
    );
  }

  /**
   * The result, computed once every check CTE has run: PostgreSQL runs a plain CTE only when
   * something reads it, so the one row's result reads each (materialized: every row's check is
   * evaluated; one that fails raises and the statement writes nothing).
   */
  private afterChecks(result: SqlExpr): SqlExpr {
    if (this.checks.length === 0) return result;
    const ran = this.checks.map((c) =>
      sql.bin(
        '>=',
        sql.scalar(
          sql.select({
            targets: [sql.target(sql.agg('count', [sql.star()]))],
            from: [sql.table(null, c)],
          }),
        ),
        sql.num(0),
      ),
    );
    return { kind: 'Case', whens: [{ when: sql.and(...ran), then: result }], else: null };
  }
}
