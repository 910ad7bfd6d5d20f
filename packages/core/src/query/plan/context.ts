/**
 * plan/context: what every planner module is given — the `PlanContext` (one per compiled
 * statement, made by plan/planner) — and the shapes of a planned subquery's rows.
 *
 * The planner's concerns (relations, pointers, sets, calls, groups, values, output, ordering,
 * mutations) are functions of a `PlanContext` in their own modules. They recurse into each other
 * only through the context's dispatch methods (`lift`, `value`, `rows`, `output`, `outputOf`,
 * `condition`), which plan/planner wires to those modules: no planner module imports the one
 * that wires them, so the modules form no import cycle.
 */
import type { Cte, SqlExpr, SqlQuery, Target, FromItem } from '../../sql';
import type { TypeEnv } from '../../std/model';
import type { IrExpr } from '../ir';
import type { AccessContext } from './access';
import type { OrderKey } from './ordering';
import type { Bound, Rel } from './rel';
import type { SourceContext } from './sources';

/** A `for` variable's value exposed by a subquery's rows (see Rel.carried). */
export interface CarriedColumn {
  readonly pathId: string;
  readonly column: string;
  readonly bound: Bound;
}

/** How `rows` plans a set as a subquery (all optional). */
export interface RowsHooks {
  /** Runs before `expr` is lifted (a `for` binds its iterator). */
  readonly before?: (rel: Rel) => void;
  /** Runs after (a select's filter and order); may slice the rows. */
  readonly after?: (rel: Rel) => { limit: SqlExpr | null; offset: SqlExpr | null } | undefined;
  /** Objects once each (a path through a link from many sources is a set). */
  readonly distinct?: boolean;
  /** More columns computed per element (a group's keys). */
  readonly extra?: (rel: Rel) => readonly Target[];
  /** The statement's clauses: their paths factor with `expr`'s (a select's filter, order). */
  readonly clauses?: readonly IrExpr[];
  /** The consumer reads JSON text: an output built as text is column `~text` (`columns.text`). */
  readonly text?: boolean;
}

/** The columns of a subquery `rows` planned. */
export interface RowsColumns {
  readonly out: boolean;
  /** The output is JSON text in column `~text` (sql `jsonFromText` it), not `~json`. */
  readonly text: boolean;
  /** Its order keys, `~o<i>` columns with their directions. */
  readonly ord: readonly OrderKey[];
  /** Objects (`id`, `__type__`) rather than values (`v`). */
  readonly object: boolean;
  readonly carried: readonly CarriedColumn[];
  /** Each row is a link row (its link properties are columns by name). */
  readonly linkRow: boolean;
}

/** A set planned as the rows of a subquery. */
export interface PlannedRows {
  readonly query: SqlQuery;
  readonly columns: RowsColumns;
}

/** The planner of one statement, as its modules (plan/*.ts, plan/mutation/*.ts) see it. */
export interface PlanContext extends SourceContext, AccessContext {
  readonly env: TypeEnv;
  /** Planning one row's expression (`planRowExpression`): no relation may be read. */
  readonly row: boolean;
  /** A single shaped link is answered as the object, not an array of one (`singleLinks`). */
  readonly linkObjects: boolean;

  // Dispatch: the planner's mutually recursive operations (plan/planner wires them).
  /** Adds a CTE to the top-level statement (data-modifying CTEs must be top-level), in order. */
  addCte(cte: Cte): void;
  /** Binds `expr`'s elements as rows of `rel`, or finds them bound there (plan/relations). */
  lift(rel: Rel, expr: IrExpr): Bound;
  /** One element's SQL value in `rel` (objects: the id) (plan/values). */
  value(rel: Rel, expr: IrExpr): SqlExpr;
  /**
   * `expr`'s elements as a subquery correlated with `parent` (plan/rows): columns `id` and
   * `__type__` (objects) or `v` (values), `~json` (each element's JSON output) and, when
   * ordered, the columns of its order keys (`ord`).
   */
  rows(parent: Rel, expr: IrExpr, hooks?: RowsHooks): PlannedRows;
  /** One element's JSON result form, lifting it (plan/output). */
  output(rel: Rel, expr: IrExpr): SqlExpr;
  /** The JSON result form of one element of `expr`, already bound as `bound` (plan/output). */
  outputOf(rel: Rel, expr: IrExpr, bound: Bound): SqlExpr;

  // State of the statement being planned, shared by the modules.
  /** Sets whose DISTINCT subquery is being planned, and link steps read through link rows. */
  readonly distinctDone: WeakSet<IrExpr>;
  /**
   * The conditions under which the expression being planned runs at all (an if/else branch:
   * its condition, plan/values): an assertion planned meanwhile checks only where they hold.
   */
  readonly gates: SqlExpr[];
  /** A Rel's FROM when it holds only one-row volatile subqueries (plan/calls `liftVolatile`). */
  readonly volatileFrom: WeakMap<Rel, FromItem | null>;
  /** Reads of objects derived from a mutation's result being planned (plan/relations `overlaid`). */
  overlayDepth: number;
  /** The computed pointers being planned, innermost last (for the messages of checks). */
  readonly computing: string[];
}
