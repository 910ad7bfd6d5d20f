/**
 * plan/planner: IR → one SQL SELECT returning one row, one column `result`: the JSON text of the
 * whole result array, built by PostgreSQL.
 *
 * Three mutually recursive operations over a `Rel` (./rel):
 * - `lift(rel, e)`: make the elements of set `e` rows of `rel` (joining what it needs) and bind
 *   its path id there — a many set multiplies rows (inner join), an at-most-one set keeps them
 *   (left join, NULL = empty). A path already bound in `rel` or an enclosing Rel is reused: that
 *   is Gel's path factoring, and correlation of subqueries with their outer rows;
 * - `value(rel, e)`: the SQL value of one element (objects: their id), lifting what it needs;
 * - `output(rel, e)`: the element's JSON result form (shapes as `sql.jsonObject` in shape order;
 *   links and multi values by the result conventions of ENGINE-COMMON/DECISIONS). Objects and
 *   arrays of them are JSON text (sql `jsonFromText`), aggregated as text (`sql.jsonArrayAgg`);
 *   a subquery asked for text (`rows(..., { text: true })`) hands it on as column `~text`.
 * Sets that must not multiply the current rows (shape elements, aggregate arguments, statements
 * used as values) are planned in a child Rel as a subquery (scalar, EXISTS, ARRAY or LATERAL).
 * Order: an ordered set lifted into a Rel adds its order keys (the subquery's `~o<i>` columns,
 * with their directions) to the Rel's, and the final aggregate sorts by them, once (not at all
 * over one page subquery already sorted by them: `aggregateOrder`); only where differently
 * ordered sets meet (union members, if/else branches) are rows numbered.
 * Invariants: values are `$n` parameters, never spliced; identifiers only through the SQL AST
 * printer; every read of a type's rows goes through plan/sources (the access hook).
 */
import { InvalidDefinitionError, QueryError } from '../../errors';
import type { TypeRef } from '../../schema/model';
import {
  isJsonText,
  pgArrayOf,
  pgType,
  sql,
  someExpr,
  transformSql,
  type Cte,
  type FromItem,
  type OrderItem,
  type SelectStatement,
  type SqlExpr,
  type SqlQuery,
  type Target,
} from '../../sql';
import type { Cast } from '../../std/casts';
import { setItem } from '../../std/jsonb-arrays';
import type { ResolvedCall } from '../../std/resolve';
import { decodeParam, jsonOf, jsonTextOf, pgTypeFor, raise, storedJson } from '../../std/scalars';
import type { TypeEnv } from '../../std/model';
import type { CompileAccess } from '../api';
import type { IrExpr, IrQuery, IrType, ShapeElement } from '../ir';
import type { SchemaIndex } from '../schema-index';
import { children } from '../bind/statement';
import { optionalCallArgs, sharedPaths } from '../bind/factoring';
import { isMutation } from '../mutation-ir';
import {
  derivesFromMutation,
  markSideEffects,
  mutationOutput,
  planMutation,
  planSideEffect,
} from './mutation';
import { Rel, type Bound } from './rel';
import { sharedPrefixes } from './factoring';
import { backlinkIds, junctionSource, typeSource, unionAll, type SourceContext } from './sources';
import { rowCondition, rowOf, rowsFiltered, type AccessContext } from './access';
import type { PolicyBinder } from '../bind/policies';
import { resultJson } from './collections';

const JSON_T = pgType('json');
/** Deeper than this, planning stops with a clear error instead of overflowing the stack. */
const MAX_PLAN_DEPTH = 400;

export interface PlanOptions {
  readonly access: CompileAccess;
  readonly env: TypeEnv;
  /** The statement's access policies (bind/policies), read when `access.policies` is on. */
  readonly policies?: PolicyBinder | null;
  /** Every parameter of the compiled statement, counted after planning (policies add some). */
  readonly paramCount?: () => number;
  /** One row's expression (`planRowExpression`): sets of at most one value are values in place. */
  readonly row?: boolean;
}

export function planQuery(index: SchemaIndex, query: IrQuery, options: PlanOptions): SqlQuery {
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

/** What other planner modules (mutations: plan/mutation*.ts) use of the planner. */
export interface PlanContext extends SourceContext, AccessContext {
  /** Adds a CTE to the top-level statement (data-modifying CTEs must be top-level), in order. */
  addCte(cte: Cte): void;
  /** Binds `expr`'s elements as rows of `rel` (see the module doc). */
  lift(rel: Rel, expr: IrExpr): Bound;
  /** One element's SQL value in `rel` (objects: the id). */
  value(rel: Rel, expr: IrExpr): SqlExpr;
  /**
   * `expr`'s elements as a subquery correlated with `parent`: columns `id` and `__type__`
   * (objects) or `v` (values), `~json` (each element's JSON output) and, when ordered, the
   * columns of its order keys (`ord`).
   */
  rows(
    parent: Rel,
    expr: IrExpr,
  ): { query: SqlQuery; columns: { ord: readonly OrderKey[]; object: boolean } };
}

class Planner implements PlanContext {
  private readonly ctes: Cte[] = [];
  /** Check CTEs the result depends on (plan/access write checks): they always run. */
  private readonly checks: string[] = [];
  readonly policies: PolicyBinder | null;
  private suppressed = 0;
  private readonly distinctDone = new WeakSet<IrExpr>();
  /** A Rel's FROM when it holds only one-row volatile subqueries (liftVolatile). */
  private readonly volatileFrom = new WeakMap<Rel, FromItem | null>();
  private aliasCount = 0;
  private depth = 0;
  readonly access: CompileAccess;
  private readonly env: TypeEnv;
  private readonly row: boolean;

  constructor(
    readonly index: SchemaIndex,
    options: PlanOptions,
  ) {
    this.access = options.access;
    this.env = options.env;
    this.row = options.row === true;
    this.policies = options.access.policies ? (options.policies ?? null) : null;
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

  hasCtes(): boolean {
    return this.ctes.length > 0;
  }

  fresh(prefix: string): string {
    return `${prefix}${++this.aliasCount}`;
  }

  addCte(cte: Cte): void {
    this.ctes.push(cte);
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
  // The statement

  /** Params read so far (1-based SQL numbers). */
  private readonly paramsRead = new Set<number>();

  private declareUnreadParams(count: number): void {
    const unread = Array.from({ length: count }, (_, i) => i + 1).filter(
      (n) => !this.paramsRead.has(n),
    );
    if (unread.length === 0) return;
    this.ctes.push(
      sql.cte(
        this.fresh('params'),
        sql.select({
          targets: unread.map((n) => sql.target(sql.cast(sql.param(n), pgType('jsonb')), `p${n}`)),
        }),
      ),
    );
  }

  root(expr: IrExpr, paramCount: () => number = () => 0): SqlQuery {
    const rel = new Rel(null);
    this.prebind(rel, expr);
    const bound = this.lift(rel, expr);
    const out = bound.out ?? this.outputOf(rel, expr, bound);
    const present = this.presence(bound);
    this.declareUnreadParams(paramCount());
    const result = sql.cast(
      sql.jsonArrayAgg(out, { orderBy: aggregateOrder(rel.from, rel.order), orEmpty: true }),
      pgType('text'),
    );
    return sql.select({
      with: sql.with(this.ctes),
      targets: [sql.target(this.afterChecks(result), 'result')],
      from: rel.from ? [rel.from] : [],
      where: whereOf([...rel.where, ...(present ? [present] : [])]),
    });
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

  /** The condition that a lifted element exists (NULL stands for "empty"). */
  private presence(bound: Bound): SqlExpr | null {
    if (!bound.nullable) return null;
    return sql.isNull(bound.kind === 'object' ? bound.id : bound.expr, true);
  }

  /**
   * `e`'s elements as the rows of a subquery correlated with `parent`: columns `id` and
   * `__type__` (objects) or `v` (values), `~json` (their output) and their order keys `~o<i>`
   * (`columns.ord`): the consumer sorts by the keys themselves (once, where it aggregates),
   * not by a row number computed here, which would cost a second sort of the same rows.
   */
  rows(
    parent: Rel,
    expr: IrExpr,
    hooks: {
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
    } = {},
  ): {
    query: SqlQuery;
    columns: {
      out: boolean;
      /** The output is JSON text in column `~text` (sql `jsonFromText` it), not `~json`. */
      text: boolean;
      ord: readonly OrderKey[];
      object: boolean;
      carried: readonly CarriedColumn[];
      linkRow: boolean;
    };
  } {
    const rel = new Rel(parent);
    hooks.before?.(rel);
    this.prebind(rel, expr, hooks.clauses);
    const bound = this.lift(rel, expr);
    const slice = hooks.after?.(rel);
    const out = bound.out ?? this.outputOf(rel, expr, bound);
    const targets: Target[] =
      bound.kind === 'object'
        ? [sql.target(bound.id, 'id'), sql.target(bound.tag, '__type__')]
        : [sql.target(bound.expr, 'v')];
    const text = hooks.text === true && isJsonText(out);
    targets.push(
      text ? sql.target(sql.cast(out, pgType('text')), '~text') : sql.target(out, '~json'),
    );
    if (hooks.extra) targets.push(...hooks.extra(rel));
    // Objects that came through a link carry its row (link properties, by name) out of the subquery.
    const linkProps = bound.kind === 'object' && bound.link ? linkPropertyNames(expr) : [];
    if (bound.kind === 'object' && bound.link) {
      const link = bound.link;
      for (const p of linkProps) {
        targets.push(
          sql.target(
            link.kind === 'junction'
              ? sql.col(p, link.alias)
              : sql.col(`${link.pointer}@${p}`, link.alias),
            p,
          ),
        );
      }
    }
    const carried: CarriedColumn[] = [];
    for (const [pid, b] of rel.carried) {
      const column = `~c${carried.length}`;
      targets.push(sql.target(b.kind === 'object' ? b.id : b.expr, column));
      if (b.kind === 'object') targets.push(sql.target(b.tag, `${column}t`));
      carried.push({ pathId: pid, column, bound: b });
    }
    const distinct = hooks.distinct === true && bound.kind === 'object';
    const ord: OrderKey[] = distinct
      ? []
      : rel.order.map((o, i) => ({ column: `~o${i}`, direction: o.direction, nulls: o.nulls }));
    rel.order.forEach((o, i) => {
      if (!distinct) targets.push(sql.target(o.expr, `~o${i}`));
    });
    const present = this.presence(bound);
    const sliced = slice !== undefined && (slice.limit !== null || slice.offset !== null);
    return {
      query: sql.select({
        distinct: distinct && bound.kind === 'object' ? [bound.id] : false,
        targets,
        from: rel.from ? [rel.from] : [],
        where: whereOf([...rel.where, ...(present ? [present] : [])]),
        orderBy: sliced
          ? rel.order
          : distinct && bound.kind === 'object'
            ? [sql.order(bound.id)]
            : [],
        limit: slice?.limit ?? null,
        offset: slice?.offset ?? null,
      }),
      columns: {
        out: true,
        text,
        ord,
        object: bound.kind === 'object',
        carried,
        linkRow: linkProps.length > 0 && !distinct,
      },
    };
  }

  /**
   * Gel's path factoring across siblings: the object paths `expr` reads element-wise (outside
   * aggregates, EXISTS and other fences) are bound first, so a fenced use of the same path
   * anywhere in `expr` (`count(User.friends)` beside `User.name`) sees the same element.
   */
  private prebind(rel: Rel, expr: IrExpr, clauses: readonly IrExpr[] = []): void {
    // `User.friends { @since }`: the shape reads its subject's link rows, so the subject is one
    // element per (source, target) link, not each target once (marked before anything lifts it).
    if (expr.kind === 'Shape' && readsLinkRowsOf(expr))
      markLinkRows(this.distinctDone, expr.subject);
    const paths: IrExpr[] = [];
    const links: IrExpr[] = [];
    collectElementPaths(expr, paths, links);
    for (const link of links) markLinkRows(this.distinctDone, link);
    const covered = boundPrefixes(rel, expr);
    // Prefixes other paths of the scope share are one element (`Issue` in
    // `Issue.owner.name ++ Issue.watchers.name`): bound before the paths through them.
    for (const p of sharedPrefixes(paths, [expr, ...clauses])) {
      const id = pathId(p);
      if (id !== null && rel.lookup(id) === undefined && !covered.has(id)) this.lift(rel, p);
    }
    for (const p of paths) {
      const id = pathId(p);
      if (id !== null && rel.lookup(id) === undefined && !covered.has(id)) this.lift(rel, p);
    }
  }

  /** Joins a subquery of `e`'s rows into `rel` (LATERAL) and returns the bound element. */
  private liftRows(
    rel: Rel,
    expr: IrExpr,
    query: SqlQuery,
    columns: {
      ord: readonly OrderKey[];
      object: boolean;
      carried?: readonly CarriedColumn[];
      linkRow?: boolean;
      text?: boolean;
    },
    forceJoin?: 'left',
  ): Bound {
    const alias = this.fresh('q');
    const join = forceJoin ?? (expr.card.max === 'many' || expr.card.min === 1 ? 'inner' : 'left');
    const nullable = join === 'left';
    rel.join(join, sql.subquery(query, alias, { lateral: true }));
    rel.order.push(...orderBy(columns.ord, alias));
    for (const c of columns.carried ?? []) {
      const carried: Bound =
        c.bound.kind === 'object'
          ? {
              ...c.bound,
              id: sql.col(c.column, alias),
              tag: sql.col(`${c.column}t`, alias),
              alias: null,
              link: null,
              out: null,
            }
          : { ...c.bound, expr: sql.col(c.column, alias), out: null };
      if (rel.lookup(c.pathId) === undefined) rel.bind(c.pathId, carried);
      rel.carried.set(c.pathId, carried);
    }
    const out = outputColumn(columns, alias);
    if (columns.object) {
      return {
        kind: 'object',
        type: (expr.type as { name: string }).name,
        id: sql.col('id', alias),
        tag: sql.col('__type__', alias),
        alias: null,
        link: columns.linkRow ? { kind: 'junction', alias } : null,
        out,
        nullable,
      };
    }
    return { kind: 'value', type: expr.type, expr: sql.col('v', alias), out, nullable };
  }

  private subqueryLift(rel: Rel, expr: IrExpr, hooks: Parameters<Planner['rows']>[2] = {}): Bound {
    const { query, columns } = this.rows(rel, expr, { ...hooks, text: true });
    return this.liftRows(rel, expr, query, columns);
  }

  // -------------------------------------------------------------------------------------------
  // lift

  lift(rel: Rel, expr: IrExpr): Bound {
    return this.guard(() => {
      const id = pathId(expr);
      const known = id !== null ? rel.lookup(id) : rel.lookupNode(expr);
      if (known) return known;
      const bound = this.liftNew(rel, expr);
      if (id !== null) rel.bind(id, bound);
      else rel.bindNode(expr, bound);
      return bound;
    });
  }

  private liftNew(rel: Rel, expr: IrExpr): Bound {
    if (this.needsDistinct(rel, expr)) {
      // Marked while its DISTINCT subquery lifts it; planned again elsewhere (a value and its
      // JSON output), it is made distinct again.
      this.distinctDone.add(expr);
      try {
        return this.subqueryLift(rel, expr, { distinct: true });
      } finally {
        this.distinctDone.delete(expr);
      }
    }
    switch (expr.kind) {
      case 'TypeRoot': {
        const alias = this.fresh(shortName(expr.objectType));
        const src = typeSource(this, expr.objectType, alias, { written: false });
        rel.join('inner', src.item);
        return objectBound(expr.objectType, alias, src.tag, false);
      }
      case 'PointerStep':
        return this.overlaid(expr.source, () => this.liftPointer(rel, expr));
      case 'Backlink': {
        const target = this.objectOf(rel, expr.source);
        const ids = this.fresh('bl');
        const type = (expr.type as { name: string }).name;
        rel.join(
          'inner',
          sql.subquery(backlinkIds(this, expr.links, target.id), ids, { lateral: true }),
        );
        const bound = this.joinObject(rel, type, sql.col('id', ids), 'inner');
        return {
          ...(bound as Extract<Bound, { kind: 'object' }>),
          link: { kind: 'junction', alias: ids },
        };
      }
      case 'Intersection':
        return this.overlaid(expr.source, () => {
          const source = this.objectOf(rel, expr.source);
          const bound = this.joinObject(rel, expr.objectType, source.id, 'inner', true);
          return bound.kind === 'object' ? { ...bound, link: source.link } : bound;
        });
      case 'ObjectCast': {
        const checked = this.objectCastId(rel, expr);
        // objectCastId looked the id up through the access hook.
        return this.joinObject(
          rel,
          expr.objectType,
          checked,
          expr.card.min === 1 ? 'inner' : 'left',
          true,
        );
      }
      case 'BindingRef': {
        // A mutation's written rows are joined as they are (their columns are the new values).
        if (isMutation(expr.binding.expr)) return this.lift(rel, expr.binding.expr);
        if (expr.binding.iteration) {
          throw new QueryError(
            `'${expr.binding.name}' is used outside the statement that binds it`,
          );
        }
        if (expr.binding.transparent) return this.lift(rel, expr.binding.expr);
        const bound = this.subqueryLift(rel, expr.binding.expr);
        return expr.binding.withAlias && bound.kind === 'object' ? { ...bound, out: null } : bound;
      }
      case 'Shape':
        return this.overlaid(expr.subject, () => {
          const subject = this.lift(rel, expr.subject);
          return { ...subject, out: this.shapeJson(rel, expr, subject) };
        });
      case 'Select': {
        const bound = this.subqueryLift(rel, expr.result, {
          after: (inner) => this.selectClauses(inner, expr),
          clauses: [...(expr.filter ? [expr.filter] : []), ...expr.orderBy.map((k) => k.expr)],
        });
        return bound;
      }
      case 'For':
        return this.subqueryLift(rel, expr.body, {
          before: (inner) => {
            // Iterated row by row (the binder gave the iterator's paths names of their own, so
            // they are not the body's); `for optional` runs the body once on an empty iterator.
            let iteration: Bound;
            if (expr.optional) {
              const { query, columns } = this.rows(inner, expr.iterator);
              iteration = this.liftRows(inner, expr.iterator, query, columns, 'left');
            } else {
              iteration = this.lift(inner, expr.iterator);
              // An element computed in place may be NULL (`<str>.x` of an unset x): no iteration.
              const present = this.presence(iteration);
              if (present) inner.where.push(present);
              // A value computed in place is evaluated even when the body never reads it (Gel
              // runs the iterator first: `for _ in assert(...) union (...)` raises).
              else if (iteration.kind === 'value' && iteration.expr.kind !== 'ColumnRef')
                inner.where.push(sql.isNull(iteration.expr, true));
            }
            inner.bind(`@${expr.binding.id}`, iteration);
            inner.carried.set(`@${expr.binding.id}`, iteration);
          },
        });
      case 'SetLiteral':
      case 'SetOp':
        return this.liftUnion(rel, expr);
      case 'Distinct': {
        const { query, columns } = this.rows(rel, expr.expr);
        const alias = this.fresh('d');
        const key = columns.object ? 'id' : 'v';
        const distinct = sql.select({
          distinct: [sql.col(key, alias)],
          targets: [sql.target(sql.star(alias))],
          from: [sql.subquery(query, alias)],
          orderBy: [sql.order(sql.col(key, alias))],
        });
        return this.liftRows(rel, expr, distinct, { ord: [], object: columns.object });
      }
      case 'Coalesce':
        this.bindShared(rel, expr);
        if (
          expr.left.card.max !== 'many' &&
          expr.right.card.max !== 'many' &&
          expr.type.kind !== 'object'
        ) {
          return this.valueBound(rel, expr);
        }
        return this.liftCoalesce(rel, expr);
      case 'IfElse':
        if (
          expr.then.card.max !== 'many' &&
          expr.else.card.max !== 'many' &&
          expr.type.kind !== 'object'
        ) {
          return this.valueBound(rel, expr);
        }
        return this.liftIfElse(rel, expr);
      case 'Call':
        if (expr.callKind === 'set-returning') return this.liftSetReturning(rel, expr);
        if (this.volatileElement(rel, expr)) return this.liftVolatile(rel, expr);
        return this.valueBound(rel, expr);
      case 'Assert':
        return this.liftAssert(rel, expr);
      case 'Group':
        return this.liftGroup(rel, expr);
      case 'GroupElements':
        return this.liftGroupElements(rel, expr);
      case 'GroupGrouping':
        if (expr.array) return this.valueBound(rel, expr);
        return this.liftRows(rel, expr, this.groupingNames(rel, expr), {
          ord: [],
          object: false,
        });
      case 'Insert':
      case 'Update':
      case 'Delete':
        return planMutation(this, rel, expr);
      default:
        return this.valueBound(rel, expr);
    }
  }

  /**
   * A link or backlink step from many sources not bound here yields each object once (EdgeQL
   * paths are sets): it is planned as a DISTINCT subquery instead of multiplying the rows.
   */
  private needsDistinct(rel: Rel, expr: IrExpr): boolean {
    if (this.distinctDone.has(expr)) return false;
    if (expr.kind !== 'PointerStep' && expr.kind !== 'Backlink') return false;
    if (expr.type.kind !== 'object' || expr.source.card.max !== 'many') return false;
    const source = pathId(expr.source);
    return source === null || rel.lookup(source) === undefined;
  }

  /**
   * An element-wise call of a volatile std form with a value (not object) result, planned where
   * there is one row so far (no relation joined in `rel` or around it): there an uncorrelated
   * lateral subquery runs once, as the call should. Where rows are already joined, PostgreSQL
   * would run an uncorrelated subquery once for all of them, so the call stays in place (its
   * value and its JSON output each evaluate it). A row expression has no relation to join.
   */
  private volatileElement(rel: Rel, expr: Extract<IrExpr, { kind: 'Call' }>): boolean {
    for (let r: Rel | null = rel; r; r = r.parent)
      if (r.from !== null && this.volatileFrom.get(r) !== r.from) return false;
    return (
      !this.row &&
      expr.callKind === 'element' &&
      expr.type.kind !== 'object' &&
      (expr.overload as ResolvedCall | null)?.volatility === 'Volatile'
    );
  }

  /** An element-wise call's SQL over its arguments' values. */
  private callSql(rel: Rel, expr: Extract<IrExpr, { kind: 'Call' }>): SqlExpr {
    this.bindShared(rel, expr);
    const args = expr.args.map((a, i) => this.argValue(rel, a, expr.modes[i] ?? 'element'));
    return (expr.overload as ResolvedCall).sql(args, expr.args.map(nullable));
  }

  /**
   * A volatile call (`sequence_next`, `random()`): computed once in a lateral subquery, so the
   * element's value and its JSON output read one evaluation (a side effect happens once).
   */
  private liftVolatile(rel: Rel, expr: Extract<IrExpr, { kind: 'Call' }>): Bound {
    const alias = this.fresh('vo');
    rel.join(
      'inner',
      sql.subquery(sql.select({ targets: [sql.target(this.callSql(rel, expr), 'v')] }), alias, {
        lateral: true,
      }),
    );
    // Still one row: a further volatile call here is lifted the same way.
    this.volatileFrom.set(rel, rel.from);
    return {
      kind: 'value',
      type: expr.type,
      expr: sql.col('v', alias),
      out: null,
      nullable: expr.card.min === 0,
    };
  }

  private valueBound(rel: Rel, expr: IrExpr): Bound {
    if (expr.type.kind === 'object') {
      const id = this.value(rel, expr);
      return this.joinObject(rel, expr.type.name, id, expr.card.min === 1 ? 'inner' : 'left', true);
    }
    return {
      kind: 'value',
      type: expr.type,
      expr: this.value(rel, expr),
      out: null,
      nullable: expr.card.min === 0,
    };
  }

  /** The bound object of an object-typed expression (lifting it). */
  private objectOf(rel: Rel, expr: IrExpr): Extract<Bound, { kind: 'object' }> {
    const bound = this.lift(rel, expr);
    if (bound.kind !== 'object') throw new QueryError('expected objects');
    return bound;
  }

  /** The object's stored columns: its own alias, or a join of its type's rows by id. */
  private columnsOf(rel: Rel, bound: Extract<Bound, { kind: 'object' }>): string {
    if (bound.alias !== null) return bound.alias;
    // An empty optional object (a left-joined NULL) keeps its row: its columns are NULL.
    const joined = this.joinObject(
      rel,
      bound.type,
      bound.id,
      bound.nullable ? 'left' : 'inner',
      true,
    );
    return (joined as { alias: string }).alias;
  }

  /** Reads of objects derived from a mutation's result, while `fn` plans them (see `overlaid`). */
  private overlayDepth = 0;

  /**
   * Plans `fn` with rows updated earlier in the statement read as updated when `source` derives
   * from a mutation's result (`(update T ...) { x }`, `.link` of a new object, `[is S]` of it),
   * as Gel applies a mutation's overlays to the sets that come from it; other reads (`select T`
   * beside an update of T) see the rows as they were.
   */
  private overlaid<T>(source: IrExpr, fn: () => T): T {
    if (!derivesFromMutation(source)) return fn();
    this.overlayDepth++;
    try {
      return fn();
    } finally {
      this.overlayDepth--;
    }
  }

  /**
   * Joins the rows of `type` whose id is `id` (one row per id). `visible`: `id` is an object the
   * query already holds (it passed the access hook where it was read), not a stored reference.
   */
  private joinObject(
    rel: Rel,
    type: string,
    id: SqlExpr,
    join: 'inner' | 'left',
    visible = false,
  ): Bound {
    const alias = this.fresh(shortName(type));
    const src = typeSource(this, type, alias, { updated: this.overlayDepth > 0, visible });
    rel.join(join, src.item, sql.bin('=', sql.col('id', alias), id));
    return objectBound(type, alias, src.tag, join === 'left');
  }

  /** The computed pointers being planned, innermost last (for the messages of checks). */
  private readonly computing: string[] = [];

  private liftPointer(rel: Rel, step: Extract<IrExpr, { kind: 'PointerStep' }>): Bound {
    const p = step.pointer;
    if (step.computed) {
      this.computing.push(`computed ${p.kind} '${p.name}' of object type '${step.sourceType}'`);
      try {
        return this.liftComputed(rel, step, step.computed);
      } finally {
        this.computing.pop();
      }
    }
    return this.liftStored(rel, step);
  }

  private liftComputed(
    rel: Rel,
    step: Extract<IrExpr, { kind: 'PointerStep' }>,
    computed: IrExpr,
  ): Bound {
    // One set of values per source element: the source is in scope even if the expression
    // does not read it (`cards := Card`), and an empty source has no values.
    const source = this.lift(rel, step.source);
    // A single optional computed (`parent := (select .<children limit 1)`) may be empty per
    // source: the source's row is kept (an optional argument sees `{}`).
    if (!this.row && !source.nullable && step.card.max !== 'many' && step.card.min === 0) {
      const { query, columns } = this.rows(rel, computed);
      return this.liftRows(rel, step, query, columns, 'left');
    }
    if (!source.nullable) return this.lift(rel, computed);
    const present = sql.isNull(source.kind === 'object' ? source.id : source.expr, true);
    const { query, columns } = this.rows(rel, computed, {
      after: (inner) => {
        inner.where.push(present);
        return undefined;
      },
    });
    return this.liftRows(rel, step, query, columns);
  }

  private liftStored(rel: Rel, step: Extract<IrExpr, { kind: 'PointerStep' }>): Bound {
    const p = step.pointer;
    const source = this.objectOf(rel, step.source);
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
      return this.joinCatalogue(rel, source.tag);
    }
    if (storage === 'column') {
      const alias = this.columnsOf(rel, source);
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
      if (this.row) {
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
      const hidden = p.required && !step.optional && this.rowsFiltered(target);
      const bound = this.joinObject(
        rel,
        target,
        column,
        // Per row the source is one object: an optional link keeps the row (NULL = empty), so
        // an optional argument (`?=`, `??`) sees the empty value instead of losing the row.
        !hidden && ((p.required && !source.nullable) || step.card.min === 1) ? 'inner' : 'left',
      );
      if (hidden) rel.where.push(this.hiddenLinkCheck(step, column, (bound as { id: SqlExpr }).id));
      return {
        ...(bound as Extract<Bound, { kind: 'object' }>),
        // Checked: where the link is set, its target is there or the statement fails. A NULL
        // test of the target beside the check would let PostgreSQL drop the row without it.
        ...(hidden ? { nullable: source.nullable } : {}),
        link: { kind: 'column', alias, pointer: p.name },
      };
    }
    // A multi pointer: its junction rows for this source.
    const j = this.fresh('j');
    const junction = junctionSource(this, step.sourceType, p, j);
    rel.join('inner', junction.item, sql.bin('=', sql.col('source', j), source.id));
    const value = sql.col(junction.valueColumn, j);
    if (p.kind === 'property')
      return { kind: 'value', type: step.type, expr: value, out: null, nullable: false };
    const target = (p.target as { name: string }).name;
    const bound = this.joinObject(rel, target, value, 'inner');
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
  private hiddenLinkCheck(
    step: Extract<IrExpr, { kind: 'PointerStep' }>,
    column: SqlExpr,
    target: SqlExpr,
  ): SqlExpr {
    const within = this.computing.at(-1);
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

  private joinCatalogue(rel: Rel, tag: SqlExpr): Bound {
    const alias = this.fresh('ty');
    const src = typeSource(this, 'schema::ObjectType', alias);
    rel.join('inner', src.item, sql.bin('=', sql.col('name', alias), tag));
    return objectBound('schema::ObjectType', alias, src.tag, false);
  }

  /** A select's clauses on the Rel its subject is lifted in; its order keys come first. */
  private selectClauses(
    rel: Rel,
    select: Extract<IrExpr, { kind: 'Select' }>,
  ): { limit: SqlExpr | null; offset: SqlExpr | null } {
    this.lift(rel, select.subject);
    if (select.filter) rel.where.push(this.condition(rel, select.filter));
    // A key that is never empty (`.id`, a required property) needs no NULLS clause, and without
    // one PostgreSQL can walk a plain btree index in either direction instead of sorting the table.
    const keys: OrderItem[] = select.orderBy.map((k) =>
      sql.order(
        this.scoped(rel, k.expr),
        k.direction,
        k.expr.card.min >= 1 ? null : k.empty === 'first' ? 'first' : 'last',
      ),
    );
    rel.order.unshift(...keys);
    return {
      limit: select.limit ? this.value(rel.parent ?? rel, select.limit) : null,
      offset: select.offset ? this.value(rel.parent ?? rel, select.offset) : null,
    };
  }

  private liftUnion(rel: Rel, expr: Extract<IrExpr, { kind: 'SetLiteral' | 'SetOp' }>): Bound {
    // `{}` members add nothing (and have no type of their own).
    const parts = (expr.kind === 'SetLiteral' ? expr.elements : [expr.left, expr.right]).filter(
      (p) => p.type.kind !== 'empty',
    );
    if (expr.kind === 'SetOp' && expr.op !== 'union') return this.liftExceptIntersect(rel, expr);
    if (parts.length === 1 && (expr.kind === 'SetOp' || this.row))
      return this.lift(rel, parts[0] as IrExpr);
    if (parts.length === 0) {
      if (expr.type.kind === 'object') {
        return this.joinObject(rel, expr.type.name, sql.cast(sql.null(), pgType('uuid')), 'left');
      }
      return {
        kind: 'value',
        type: expr.type,
        expr: sql.cast(sql.null(), this.pgOf(expr.type)),
        out: null,
        nullable: true,
      };
    }
    const branches = parts.map((p) => this.rows(rel, p));
    const object = expr.type.kind === 'object';
    const queries = branches.map((b, i) => {
      const cols: Target[] = object
        ? [sql.target(sql.col('id'), 'id'), sql.target(sql.col('__type__'), '__type__')]
        : [sql.target(sql.col('v'), 'v')];
      cols.push(sql.target(this.unionMemberJson(expr.type, parts[i] as IrExpr), '~json'));
      // Ordered by member, then by each member's own order (its rows numbered: the members'
      // keys differ in number and type).
      cols.push(sql.target(sql.num(i), '~u1'));
      cols.push(sql.target(ordinal(b.columns.ord, `b${i}`), '~u2'));
      return sql.select({ targets: cols, from: [sql.subquery(b.query, `b${i}`)] }) as SqlQuery;
    });
    return this.liftRows(rel, expr, unionAll(queries), { ord: UNION_ORDER, object });
  }

  /**
   * A union member's output: its own, except a tuple whose element names the union dropped
   * (spec item 15: names are kept only when every member has the same), shown as the union's.
   */
  private unionMemberJson(type: IrType, part: IrExpr): SqlExpr {
    const renamed =
      type.kind === 'tuple' &&
      part.type.kind === 'tuple' &&
      type.elements.some((e, i) => e.name !== (part.type as typeof type).elements[i]?.name) &&
      type.elements.every((e) => e.type.kind !== 'object');
    return renamed ? this.scalarJson(type, sql.col('v')) : sql.col('~json');
  }

  private liftExceptIntersect(rel: Rel, expr: Extract<IrExpr, { kind: 'SetOp' }>): Bound {
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
    const left = strip(this.rows(rel, expr.left).query, 'l');
    const right = strip(this.rows(rel, expr.right).query, 'r');
    const alias = this.fresh('so');
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
    const out = this.outputOf(inner, expr, bound);
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
    return this.liftRows(rel, expr, query, { ord: [], object });
  }

  private liftCoalesce(rel: Rel, expr: Extract<IrExpr, { kind: 'Coalesce' }>): Bound {
    const left = this.rows(rel, expr.left);
    const right = this.rows(rel, expr.right);
    return this.liftAlternatives(rel, expr, [
      { query: left.query, columns: left.columns, when: null },
      { query: right.query, columns: right.columns, when: sql.not(sql.exists(left.query)) },
    ]);
  }

  private liftIfElse(rel: Rel, expr: Extract<IrExpr, { kind: 'IfElse' }>): Bound {
    const condition = this.value(rel, expr.condition);
    const then = this.rows(rel, expr.then);
    const otherwise = this.rows(rel, expr.else);
    return this.liftAlternatives(rel, expr, [
      { query: then.query, columns: then.columns, when: sql.bin('is', condition, sql.bool(true)) },
      {
        query: otherwise.query,
        columns: otherwise.columns,
        when: sql.bin('is', condition, sql.bool(false)),
      },
    ]);
  }

  private liftAlternatives(
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
                sql.target(
                  none ? sql.cast(sql.null(), pgType('uuid')) : sql.col('id', alias),
                  'id',
                ),
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
    return this.liftRows(rel, expr, unionAll(queries), { ord: ORDINAL, object });
  }

  private liftSetReturning(rel: Rel, expr: Extract<IrExpr, { kind: 'Call' }>): Bound {
    const [first] = expr.args;
    if (expr.name === 'std::enumerate' && first && hasObjects(first))
      return this.liftEnumerate(rel, expr, first);
    const args = expr.args.map((a, i) => this.argValue(rel, a, expr.modes[i] ?? 'element'));
    const call = (expr.overload as ResolvedCall).sql(args, expr.args.map(nullable));
    const alias = this.fresh('f');
    // The items of an array holding objects keep the shapes they were put in with: each row
    // reads its item of the array's result form (computed once per array, beside it).
    const items =
      expr.name === 'std::array_unpack' && first && hasObjects(expr) && carriesShape(first)
        ? this.arrayJsonItems(rel, first, alias)
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
      const bound = this.joinObject(rel, expr.type.name, sql.col('value', alias), 'inner', true);
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
  private arrayJsonItems(rel: Rel, array: IrExpr, alias: string): SqlExpr {
    const json = this.output(rel, array);
    const holder = this.fresh('aj');
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
  private liftEnumerate(rel: Rel, expr: IrExpr, arg: IrExpr): Bound {
    const { query, columns } = this.rows(rel, arg);
    const inner = this.fresh('en');
    const alias = this.fresh('f');
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
        sql.target(storedJson(elementType, element, this.env), 'v'),
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

  private liftAssert(rel: Rel, expr: Extract<IrExpr, { kind: 'Assert' }>): Bound {
    const { query, columns } = this.rows(rel, expr.expr);
    const alias = this.fresh('as');
    const key = columns.object ? 'id' : 'v';
    // Gel's classes: assert_single / assert_exists a CardinalityViolationError (21000),
    // assert_distinct a ConstraintViolationError (23514 with no constraint named).
    const state = expr.check === 'distinct' ? '23514' : '21000';
    // A message expression is this call's argument: a set of messages joins here (a call per
    // message), an empty one is NULL (the default message).
    const message = expr.messageExpr
      ? sql.func('coalesce', [
          this.argValue(
            rel,
            expr.messageExpr,
            expr.messageExpr.card.max === 'many' ? 'element' : 'optional',
          ),
          sql.text(expr.message),
        ])
      : sql.text(expr.message);
    const raise = (probe: SqlExpr): SqlExpr =>
      sql.func('raise', [probe, sql.text(state), message], 'svc_meta');
    const tooMany = (wrapped: string) => sql.bin('>', sql.col('~n', wrapped), sql.num(1));
    if (expr.check === 'single') {
      const count = sql.agg('count', [sql.star()], { over: { partitionBy: [], orderBy: [] } });
      const wrapped = this.fresh('ck');
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
      return this.liftRows(rel, expr, checked, { ord: [], object: columns.object });
    }
    // exists / distinct: a one-row check evaluated whether or not there are rows.
    const probe = this.fresh('ck');
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
            whens: [{ when: ok, then: sql.bool(true) }],
            else: raise(sql.isNull(sql.func('random', []))),
          },
          'ok',
        ),
      ],
    });
    const rows = this.fresh('r');
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
    return this.liftRows(rel, expr, checked, columns);
  }

  /**
   * A group's subject elements with their keys: columns of `rows()` plus `~key`, the keys as
   * one jsonb array (the group's identity, as a tuple value is stored), `s<i>`, each key, and
   * with several grouping sets `j<i>`, each key's jsonb.
   */
  private keyedRows(
    rel: Rel,
    group: Extract<IrExpr, { kind: 'Group' }>,
  ): { query: SqlQuery; object: boolean; ord: readonly OrderKey[]; linkRow: boolean } {
    const { query, columns } = this.rows(rel, group.elements, {
      extra: (inner) => {
        const values = group.keys.map((k) => this.value(inner, k.expr));
        const json = group.keys.map((k, i) =>
          sql.cast(this.scalarJson(k.expr.type, values[i] as SqlExpr), pgType('jsonb')),
        );
        return [
          sql.target(sql.jsonBuild('jsonb_build_array', json), '~key'),
          ...values.map((v, i) => sql.target(v, `s${i}`)),
          ...(singleSet(group) ? [] : json.map((j, i) => sql.target(j, `j${i}`))),
        ];
      },
    });
    return { query, object: columns.object, ord: columns.ord, linkRow: columns.linkRow };
  }

  /**
   * `group`: one row per grouping set and distinct key tuple of the set. Its value is the keys'
   * jsonb array (a key outside the set is JSON null), followed by the set's index when there are
   * several sets.
   */
  private liftGroup(rel: Rel, expr: Extract<IrExpr, { kind: 'Group' }>): Bound {
    const keyed = this.keyedRows(rel, expr);
    const single = singleSet(expr);
    const queries = expr.sets.map((set, index) => {
      const k = this.fresh('gk');
      const keyJson = expr.keys.map((_, i) =>
        single
          ? sql.bin('->', sql.col('~key', k), sql.num(i))
          : set.includes(i)
            ? sql.col(`j${i}`, k)
            : sql.cast(sql.text('null'), pgType('jsonb')),
      );
      const value = single
        ? sql.col('~key', k)
        : sql.jsonBuild('jsonb_build_array', [...keyJson, sql.num(index)]);
      const keyObject = sql.jsonBuild(
        'json_build_object',
        expr.keys.flatMap((kk, i) => [sql.text(kk.name), sql.cast(keyJson[i] as SqlExpr, JSON_T)]),
      );
      const grouping = sql.jsonBuild(
        'json_build_array',
        set.map((i) => sql.text((expr.keys[i] as { name: string }).name)),
      );
      const order = orderBy(keyed.ord, k);
      return sql.select({
        targets: [
          sql.target(value, 'v'),
          sql.target(
            sql.func('json_build_object', [
              sql.text('key'),
              keyObject,
              sql.text('grouping'),
              grouping,
              sql.text('elements'),
              sql.agg('json_agg', [sql.col('~json', k)], { orderBy: order }),
            ]),
            '~json',
          ),
        ],
        from: [sql.subquery(keyed.query, k)],
        groupBy: single
          ? [sql.col('~key', k), ...expr.keys.map((_, i) => sql.col(`s${i}`, k))]
          : set.flatMap((i) => [sql.col(`j${i}`, k), sql.col(`s${i}`, k)]),
        orderBy: single
          ? expr.keys.map((_, i) => sql.order(sql.col(`s${i}`, k), 'asc', 'first'))
          : [],
      });
    });
    return this.liftRows(rel, { ...expr, type: { kind: 'empty' } }, unionAll(queries), {
      ord: [],
      object: false,
    });
  }

  /** `g.elements`: the subject's elements whose keys are the group's. */
  private liftGroupElements(rel: Rel, expr: Extract<IrExpr, { kind: 'GroupElements' }>): Bound {
    const group = this.lift(rel, expr.group);
    const source = groupNode(expr.group);
    const keyed = this.keyedRows(rel, source);
    const alias = this.fresh('ge');
    const value = group.kind === 'value' ? group.expr : group.id;
    const key = sql.col('~key', alias);
    const query = sql.select({
      targets: [sql.target(sql.star(alias))],
      from: [sql.subquery(keyed.query, alias)],
      where: singleSet(source)
        ? sql.bin('=', key, value)
        : sql.or(
            ...source.sets.map((set, j) =>
              sql.and(
                groupSetIs(source, value, j),
                ...set.map((i) =>
                  sql.bin('=', sql.bin('->', key, sql.num(i)), sql.bin('->', value, sql.num(i))),
                ),
              ),
            ),
          ),
    });
    return this.liftRows(rel, expr, query, {
      ord: keyed.ord,
      object: keyed.object,
      linkRow: keyed.linkRow,
    });
  }

  /** The names of the keys of a group's grouping set: rows `v` and `~json`. */
  private groupingNames(rel: Rel, expr: Extract<IrExpr, { kind: 'GroupGrouping' }>): SqlQuery {
    const group = this.lift(rel, expr.group);
    const value = group.kind === 'value' ? group.expr : group.id;
    const source = groupNode(expr.group);
    return unionAll(
      source.keys.map((k, i) =>
        sql.select({
          targets: [
            sql.target(sql.text(k.name), 'v'),
            sql.target(sql.func('to_json', [sql.cast(sql.text(k.name), pgType('text'))]), '~json'),
          ],
          where: singleSet(source)
            ? null
            : sql.or(
                ...source.sets.flatMap((set, j) =>
                  set.includes(i) ? [groupSetIs(source, value, j)] : [],
                ),
              ),
        }),
      ),
    );
  }

  // -------------------------------------------------------------------------------------------
  // value

  value(rel: Rel, expr: IrExpr): SqlExpr {
    return this.guard(() => this.valueOf(rel, expr));
  }

  private valueOf(rel: Rel, expr: IrExpr): SqlExpr {
    if (needsRows(expr)) {
      const bound = this.lift(rel, expr);
      return bound.kind === 'object' ? bound.id : bound.expr;
    }
    switch (expr.kind) {
      case 'Literal':
        return this.literal(expr);
      case 'Param': {
        this.paramsRead.add(expr.index + 1);
        const json = sql.cast(sql.param(expr.index + 1), pgType('jsonb'));
        const value = decodeParam(expr.type as TypeRef, json, this.env);
        if (!expr.fallback) return value;
        // A global's default when the request left it out (SQL NULL); JSON null: set empty.
        return {
          kind: 'Case',
          whens: [
            { when: sql.isNull(json), then: this.optionalValue(rel, expr.fallback) },
            {
              when: sql.bin('=', sql.func('jsonb_typeof', [json]), sql.text('null')),
              then: sql.cast(sql.null(), this.pgOf(expr.type)),
            },
          ],
          else: value,
        };
      }
      case 'Call': {
        if (expr.callKind === 'aggregate') return this.aggregate(rel, expr);
        // A volatile call is evaluated once per element: its value is a lateral column
        // (liftVolatile), read by both the value and the JSON output.
        if (this.volatileElement(rel, expr))
          return (this.lift(rel, expr) as { expr: SqlExpr }).expr;
        return this.callSql(rel, expr);
      }
      case 'Cast':
        return (expr.overload as Cast).sql(this.value(rel, expr.expr));
      case 'ObjectJson':
        return sql.cast(this.output(rel, expr.expr), this.pgOf(expr.type));
      case 'LinkProperty': {
        // Read through the link rows themselves: one value per link, not per distinct target.
        markLinkRows(this.distinctDone, expr.link);
        const link = this.objectOf(rel, expr.link);
        if (!link.link) throw new QueryError(`@${expr.property.name}: no link row in scope`);
        return link.link.kind === 'junction'
          ? sql.col(expr.property.name, link.link.alias)
          : sql.col(`${link.link.pointer}@${expr.property.name}`, link.link.alias);
      }
      case 'ArrayLiteral': {
        const values = expr.elements.map((e) => this.value(rel, e));
        const pg = this.pgOf(expr.type);
        // Arrays holding tuples or arrays are jsonb arrays of their elements' stored JSON (as
        // stored: schema/storage/types).
        const array: SqlExpr =
          pg.schema === null && pg.name === 'jsonb' && pg.arrayDims === 0
            ? sql.jsonBuild('jsonb_build_array', jsonbItems(expr, values, this.env))
            : { kind: 'ArrayExpr', elements: values, type: pg };
        return nullIfAnyNull(expr.elements, values, array);
      }
      case 'TupleLiteral': {
        // Each element as a tuple keeps it (a nested tuple is its own jsonb array, not its
        // result form).
        const parts = expr.elements.map((e) =>
          e.type.kind === 'empty' || e.type.kind === 'free'
            ? sql.cast(this.scalarJson(e.type, this.value(rel, e)), pgType('jsonb'))
            : storedJson(e.type, this.value(rel, e), this.env),
        );
        return nullIfAnyNull(expr.elements, parts, sql.jsonBuild('jsonb_build_array', parts));
      }
      case 'GroupGrouping': {
        const names = this.fresh('gn');
        return sql.func('coalesce', [
          sql.array(
            sql.select({
              targets: [sql.target(sql.col('v', names))],
              from: [sql.subquery(this.groupingNames(rel, expr), names)],
            }),
          ),
          sql.cast(sql.text('{}'), pgType('text', 1)),
        ]);
      }
      case 'GroupKey': {
        const group = this.lift(rel, expr.group);
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
              then: sql.cast(sql.null(), this.pgOf(expr.type)),
            },
          ],
          else: decodeParam(asRef(expr.type), key, this.env),
        };
      }
      case 'TupleElement': {
        if (expr.tuple.kind === 'TupleLiteral') {
          // `(X, X + 1).1`: the other elements still make the tuples (a set multiplies them, an
          // empty one leaves none), though only this one is read.
          const { elements } = expr.tuple;
          const others = elements.filter((_, i) => i !== expr.position);
          const values = others.map((e) => this.value(rel, e));
          return nullIfAnyNull(others, values, this.value(rel, elements[expr.position] as IrExpr));
        }
        const tuple = this.value(rel, expr.tuple);
        return decodeParam(
          asRef(expr.type),
          sql.bin('->', tuple, sql.num(expr.position)),
          this.env,
        );
      }
      case 'Exists': {
        // One row's value: exists is its presence.
        if (this.row && expr.expr.card.max !== 'many')
          return sql.isNull(this.value(rel, expr.expr), true);
        const { query } = this.rows(rel, expr.expr);
        return sql.exists(query);
      }
      case 'Coalesce': {
        this.bindShared(rel, expr);
        const typed = (e: IrExpr): SqlExpr =>
          e.type.kind === 'empty'
            ? sql.cast(sql.null(), this.pgOf(expr.type))
            : this.optionalValue(rel, e);
        return sql.func('coalesce', [typed(expr.left), typed(expr.right)]);
      }
      case 'IfElse': {
        // A branch is a set of its own (std::IF takes it as SET OF): where it is empty, the row
        // stays (`Text[is Issue].name if Text is Issue else 'x'` on a non-issue is 'x').
        const typed = (e: IrExpr): SqlExpr =>
          e.type.kind === 'empty'
            ? sql.cast(sql.null(), this.pgOf(expr.type))
            : this.optionalValue(rel, e);
        const condition = this.value(rel, expr.condition);
        const then = typed(expr.then);
        const otherwise = typed(expr.else);
        return {
          kind: 'Case',
          whens: [
            { when: sql.isNull(condition), then: sql.cast(sql.null(), this.pgOf(expr.type)) },
            { when: condition, then },
          ],
          else: otherwise,
        };
      }
      case 'TypeCheck': {
        const object = this.objectOf(rel, expr.expr);
        const concrete = this.index.objectType(expr.objectType)?.concrete ?? [];
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
        return sql.cast(this.freeObjectJson(rel, expr), pgType('jsonb'));
      default: {
        const bound = this.lift(rel, expr);
        return bound.kind === 'object' ? bound.id : bound.expr;
      }
    }
  }

  /**
   * `<T><uuid>x`: the id, after checking a T with it exists (else SQLSTATE 21000, item 12). The
   * error is raised with the looked-up row's column as its typed argument, so PostgreSQL cannot
   * fold the call while planning (a parameter is a constant then).
   */
  private objectCastId(rel: Rel, expr: Extract<IrExpr, { kind: 'ObjectCast' }>): SqlExpr {
    const id = this.value(rel, expr.expr);
    const probe = this.fresh('oc');
    const src = typeSource(this, expr.objectType, probe);
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
  condition(rel: Rel, filter: IrExpr): SqlExpr {
    // The filter is a scope of its own: what it joins is not seen by the shape or other clauses.
    const inner = new Rel(rel);
    const v = this.value(inner, filter);
    if (inner.from === null && inner.where.length === 0) return v;
    return sql.exists(
      sql.select({
        targets: [sql.target(sql.num(1))],
        from: inner.from ? [inner.from] : [],
        where: whereOf([...inner.where, v]),
      }),
    );
  }

  /** A single value computed in a scope of its own (an order key): inline when it joins nothing. */
  private scoped(rel: Rel, expr: IrExpr): SqlExpr {
    const inner = new Rel(rel);
    const v = this.value(inner, expr);
    if (inner.from === null && inner.where.length === 0) return v;
    return sql.scalar(
      sql.select({
        targets: [sql.target(v)],
        from: inner.from ? [inner.from] : [],
        where: whereOf(inner.where),
        limit: sql.num(1),
      }),
    );
  }

  /**
   * Gel's factoring around a call taking arguments optionally (bind/factoring): the paths its
   * arguments share are bound here, once per element, or once as `{}` when empty (left join).
   */
  private bindShared(rel: Rel, expr: IrExpr): void {
    if (!optionalCallArgs(expr)) return;
    for (const node of sharedPaths(optionalCallArgs(expr) ?? [])) {
      const id = pathId(node);
      if (id === null || rel.lookup(id) !== undefined) continue;
      const { query, columns } = this.rows(rel, node);
      rel.bind(id, this.liftRows(rel, node, query, columns, 'left'));
    }
  }

  /**
   * An argument taken optionally: each of its elements, or NULL once when it is empty. What is
   * bound here or at most one value is read in place (lifted optionally); a set that may hold
   * several, or whose lifting here would drop the row when it is empty (`dropsRowWhenEmpty`), is
   * a set of its own, left joined.
   */
  private optionalValue(rel: Rel, arg: IrExpr): SqlExpr {
    const id = pathId(arg);
    const known = id !== null ? rel.lookup(id) : rel.lookupNode(arg);
    if (known) return known.kind === 'object' ? known.id : known.expr;
    if (arg.card.max !== 'many' && !dropsRowWhenEmpty(rel, arg)) return this.value(rel, arg);
    const { query, columns } = this.rows(rel, arg);
    const bound = this.liftRows(rel, arg, query, columns, 'left');
    if (id !== null) rel.bind(id, bound);
    else rel.bindNode(arg, bound);
    return bound.kind === 'object' ? bound.id : bound.expr;
  }

  private argValue(rel: Rel, arg: IrExpr, mode: 'element' | 'set' | 'optional'): SqlExpr {
    if (mode === 'optional' && arg.kind === 'Select' && arg.card.min === 0)
      return this.optionalStatement(rel, arg);
    if (mode === 'optional') return this.optionalValue(rel, arg);
    if (mode !== 'set') return this.value(rel, arg);
    // One row's expression: a set literal of values (`x in {1, 2}`) is an array of them.
    // An array-typed element is its stored JSON (std/jsonb-arrays `setItem`).
    const item = (value: SqlExpr): SqlExpr =>
      arg.type.kind === 'array' ? setItem(arg.type, value, this.env) : value;
    const itemPg = arg.type.kind === 'array' ? pgType('jsonb') : this.pgOf(arg.type);
    if (this.row && arg.kind === 'SetLiteral' && arg.elements.every((e) => e.card.max !== 'many'))
      return {
        kind: 'ArrayExpr',
        elements: arg.elements.map((e) => item(this.value(rel, e))),
        type: arg.elements.length ? null : pgArrayOf(itemPg),
      };
    if (this.row && arg.card.max !== 'many') {
      return { kind: 'ArrayExpr', elements: [item(this.value(rel, arg))], type: null };
    }
    // A set-of argument of an element-wise call (`in`): the whole set as an array.
    const { query } = this.rows(rel, arg);
    const alias = this.fresh('s');
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
  private optionalStatement(rel: Rel, arg: Extract<IrExpr, { kind: 'Select' }>): SqlExpr {
    let bound = rel.lookupNode(arg);
    if (!bound) {
      const { query, columns } = this.rows(rel, arg);
      bound = this.liftRows(rel, arg, query, columns, 'left');
      rel.bindNode(arg, bound);
    }
    return bound.kind === 'object' ? bound.id : bound.expr;
  }

  /**
   * An aggregate call: a scalar subquery aggregating the set-of argument's rows (materialised as
   * a subquery, so an argument reading only outer columns still aggregates here, not in the
   * outer query), in the set's order.
   */
  private aggregate(rel: Rel, call: Extract<IrExpr, { kind: 'Call' }>): SqlExpr {
    const setIndex = call.modes.indexOf('set');
    const alias = this.fresh('ag');
    let from: FromItem | null = null;
    let order: OrderItem[] = [];
    const args = call.args.map((a, i) => {
      if (i !== setIndex) return this.value(rel, a);
      const { query, columns } = this.rows(rel, a);
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

  private literal(expr: Extract<IrExpr, { kind: 'Literal' }>): SqlExpr {
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

  private pgOf(type: IrType) {
    return type.kind === 'empty' || type.kind === 'free' ? pgType('text') : pgTypeFor(type);
  }

  // -------------------------------------------------------------------------------------------
  // output

  private output(rel: Rel, expr: IrExpr): SqlExpr {
    const bound = this.lift(rel, expr);
    return bound.out ?? this.outputOf(rel, expr, bound);
  }

  /** The JSON of one element of `expr`, bound as `bound` in `rel`. */
  private outputOf(rel: Rel, expr: IrExpr, bound: Bound): SqlExpr {
    if (bound.out) return bound.out;
    switch (expr.kind) {
      case 'BindingRef':
        if (expr.binding.transparent) return this.outputOf(rel, expr.binding.expr, bound);
        break;
      case 'Shape':
        return this.shapeJson(rel, expr, bound);
      case 'FreeObject':
        return this.freeObjectJson(rel, expr);
      case 'TupleElement': {
        // The element in the form it had in the tuple (an object keeps the shape it carried).
        if (!hasObjects(expr)) break;
        if (expr.tuple.kind === 'TupleLiteral')
          return this.output(rel, expr.tuple.elements[expr.position] as IrExpr);
        return this.collectionItemJson(rel, expr.tuple, expr.position);
      }
      case 'TupleLiteral': {
        const parts = expr.elements.map((e) => this.output(rel, e));
        const json =
          expr.names === null
            ? sql.jsonBuild('json_build_array', parts)
            : sql.jsonBuild(
                'json_build_object',
                expr.names.flatMap((n, i) => [sql.text(n), parts[i] as SqlExpr]),
              );
        return nullIfAnyNull(expr.elements, parts, json);
      }
      case 'ArrayLiteral': {
        // Each element in its own result form (objects keep their shapes).
        if (!expr.elements.some(hasObjects)) break;
        const parts = expr.elements.map((e) => this.output(rel, e));
        return nullIfAnyNull(expr.elements, parts, sql.jsonBuild('json_build_array', parts));
      }
      case 'Call': {
        const [arg] = expr.args;
        // `a[i]` of an array holding objects: the element as the array's result form has it.
        if ((expr.name === 'std::[]' || expr.name === 'std::array_get') && hasObjects(expr))
          return this.arrayItemJson(rel, expr, bound);
        // `array_agg` of objects (or tuples holding them): the elements' own result forms.
        if (expr.name !== 'std::array_agg' || !arg || !hasObjects(arg)) break;
        const { query, columns } = this.rows(rel, arg);
        const alias = this.fresh('aa');
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
    if (bound.kind === 'object' && isMutation(expr)) return mutationOutput(this, rel, expr, bound);
    if (bound.kind === 'object') {
      if (!bound.nullable) return sql.func('json_build_object', [sql.text('id'), bound.id]);
      return {
        kind: 'Case',
        whens: [{ when: sql.isNull(bound.id), then: sql.cast(sql.null(), JSON_T) }],
        else: sql.func('json_build_object', [sql.text('id'), bound.id]),
      };
    }
    return expr.type.kind === 'empty' || expr.type.kind === 'free'
      ? this.scalarJson(expr.type, bound.expr)
      : resultJson(expr.type, bound.expr, this.env);
  }

  /**
   * Item `position` of a tuple's result form (by name for a named tuple): objects in the tuple
   * keep the shapes they were put in with.
   */
  private collectionItemJson(rel: Rel, tuple: IrExpr, position: number): SqlExpr {
    const json = this.output(rel, tuple);
    const type = tuple.type;
    const name = type.kind === 'tuple' ? type.elements[position]?.name : null;
    return sql.bin('->', json, name ? sql.text(name) : sql.num(position));
  }

  /** `a[i]` / `array_get(a, i)` of an array holding objects: item i of the array's result form. */
  private arrayItemJson(rel: Rel, call: Extract<IrExpr, { kind: 'Call' }>, bound: Bound): SqlExpr {
    const [array, index] = call.args as [IrExpr, IrExpr];
    const json = this.output(rel, array);
    const item = sql.bin('->', json, sql.cast(this.value(rel, index), pgType('integer')));
    // Past either end (array_get's default): the element as it is.
    const present = bound.kind === 'object' ? bound.id : bound.expr;
    const fallback =
      bound.kind === 'object'
        ? sql.func('json_build_object', [sql.text('id'), bound.id])
        : resultJson(asRef(call.type), bound.expr, this.env);
    return {
      kind: 'Case',
      whens: [
        { when: sql.isNull(present), then: sql.cast(sql.null(), JSON_T) },
        { when: sql.isNull(item), then: fallback },
      ],
      else: item,
    };
  }

  private scalarJson(type: IrType, value: SqlExpr): SqlExpr {
    if (type.kind === 'empty') return sql.cast(sql.null(), JSON_T);
    if (type.kind === 'free') return sql.cast(value, JSON_T);
    return jsonOf(type, value, this.env);
  }

  private shapeJson(rel: Rel, shape: Extract<IrExpr, { kind: 'Shape' }>, bound: Bound): SqlExpr {
    if (bound.kind === 'value') {
      // A shape on free objects (group results): its elements, no type tests.
      return sql.jsonObject(shape.elements.map((el) => [el.name, this.elementJson(rel, el)]));
    }
    const subject = bound;
    const entries: [string, SqlExpr][] = [];
    for (const el of shape.elements) {
      let json = this.elementJson(rel, el);
      if (el.onlyFor !== null) {
        const concrete = this.index.objectType(el.onlyFor)?.concrete ?? [];
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
          else: sql.cast(sql.null(), JSON_T),
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

  private freeObjectJson(rel: Rel, expr: Extract<IrExpr, { kind: 'FreeObject' }>): SqlExpr {
    return sql.jsonObject(expr.elements.map((el) => [el.name, this.elementJson(rel, el)]));
  }

  /**
   * One shape element's JSON for the current element of `rel`: a plain single value inline;
   * anything else in a subquery — multi values and shaped links as arrays (`[]` when empty), a
   * single shaped link as an array of one object or null, a link without a shape as its id(s).
   */
  private elementJson(rel: Rel, el: ShapeElement): SqlExpr {
    const expr = el.expr;
    const object = expr.type.kind === 'object';
    const shaped = hasShape(expr);
    const many = isMulti(expr);
    if (!many && !object && this.isInline(rel, expr)) {
      const value = this.value(rel, expr);
      const type = expr.type;
      if (type.kind === 'empty' || type.kind === 'free') return this.scalarJson(type, value);
      return sql.jsonFromText(jsonTextOf(type, value, this.env));
    }
    const ids = !shaped && object ? this.storedLinkIds(rel, expr) : null;
    if (ids) return ids;
    const { query, columns } = this.rows(rel, expr, { text: true });
    const alias = this.fresh('e');
    const item = sql.subquery(query, alias);
    const element =
      object && !shaped ? this.idJson(sql.col('id', alias)) : outputColumn(columns, alias);
    const order = aggregateOrder(item, orderBy(columns.ord, alias));
    if (many || (object && shaped)) {
      const agg = sql.jsonArrayAgg(element, { orderBy: order, orEmpty: many });
      return this.scalarJsonQuery(agg, sql.select({ targets: [], from: [item] }));
    }
    return this.scalarJsonQuery(element, sql.select({ targets: [], from: [item] }));
  }

  /** An object's id as a JSON string (JSON text). */
  private idJson(id: SqlExpr): SqlExpr {
    return sql.jsonFromText(jsonTextOf({ kind: 'scalar', name: 'std::uuid' }, id, this.env));
  }

  /**
   * `(select json from ...)` as a value: for JSON text the subquery selects the text and the
   * value is that text marked (`jsonFromText`), so a consumer of text never parses it.
   */
  private scalarJsonQuery(json: SqlExpr, from: SelectStatement): SqlExpr {
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
  private storedLinkIds(rel: Rel, expr: IrExpr): SqlExpr | null {
    if (expr.kind !== 'PointerStep' || expr.computed || expr.pointer.kind !== 'link') return null;
    // Targets the caller may not see are read through the access hook (no shortcut).
    if (this.rowsFiltered((expr.type as { name: string }).name)) return null;
    if (expr.pointer.name === '__type__') return null;
    const sourceId = pathId(expr.source);
    const source = sourceId === null ? undefined : rel.lookup(sourceId);
    if (source?.kind !== 'object') return null;
    if (!expr.pointer.many) {
      if (source.alias === null) return null;
      return this.idJson(sql.col(expr.pointer.name, source.alias));
    }
    const j = this.fresh('j');
    const junction = junctionSource(this, expr.sourceType, expr.pointer, j);
    const agg = sql.jsonArrayAgg(this.idJson(sql.col(junction.valueColumn, j)), { orEmpty: true });
    return this.scalarJsonQuery(
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
  private isInline(rel: Rel, expr: IrExpr): boolean {
    switch (expr.kind) {
      case 'Call':
        return (
          expr.callKind === 'element' &&
          expr.card.max !== 'many' &&
          expr.modes.every((m) => m !== 'set') &&
          expr.args.every((a) => this.isInline(rel, a))
        );
      case 'Cast':
        return expr.card.max !== 'many' && this.isInline(rel, expr.expr);
      case 'Literal':
        return true;
      case 'Param':
        return expr.fallback === undefined;
      case 'PointerStep': {
        if (expr.computed || expr.pointer.many) return false;
        const source = pathId(expr.source);
        const bound = source === null ? undefined : rel.lookup(source);
        return bound?.kind === 'object' && (bound.alias !== null || expr.pointer.name === 'id');
      }
      case 'LinkProperty': {
        const link = pathId(expr.link);
        const bound = link === null ? undefined : rel.lookup(link);
        return bound?.kind === 'object' && bound.link !== null;
      }
      default:
        return false;
    }
  }
}

// ---------------------------------------------------------------------------------------------

/** Whether values of `expr` hold objects (whose result form is not their value's). */
function hasObjects(expr: IrExpr): boolean {
  const has = (type: IrType): boolean =>
    type.kind === 'object' ||
    (type.kind === 'tuple' && type.elements.some((e) => has(e.type))) ||
    (type.kind === 'array' && has(type.element));
  return has(expr.type);
}

/** The steps whose link rows a link property reads: never made DISTINCT. */
function markLinkRows(done: WeakSet<IrExpr>, expr: IrExpr): void {
  done.add(expr);
  switch (expr.kind) {
    case 'Intersection':
      return markLinkRows(done, expr.source);
    case 'BindingRef':
      if (expr.binding.transparent) markLinkRows(done, expr.binding.expr);
      return;
    case 'Select':
    case 'Shape':
      return markLinkRows(done, expr.subject);
    default:
      return;
  }
}

/** True when a shape's elements read link properties of its own subject's link. */
function readsLinkRowsOf(shape: IrExpr & { kind: 'Shape' }): boolean {
  const subject = pathId(shape.subject);
  if (subject === null) return false;
  const reads = (expr: IrExpr): boolean =>
    (expr.kind === 'LinkProperty' && pathId(expr.link) === subject) || children(expr).some(reads);
  return shape.elements.some((el) => reads(el.expr));
}

/** The link properties an object set's elements carry (the links they came through). */
function linkPropertyNames(expr: IrExpr): string[] {
  switch (expr.kind) {
    case 'PointerStep':
      if (expr.computed) return linkPropertyNames(expr.computed);
      return expr.pointer.kind === 'link'
        ? [...expr.pointer.properties.values()].filter((p) => !p.computed).map((p) => p.name)
        : [];
    case 'Backlink': {
      const names = new Set<string>();
      for (const l of expr.links)
        for (const p of l.pointer.properties.values()) if (!p.computed) names.add(p.name);
      return [...names];
    }
    case 'Intersection':
      return linkPropertyNames(expr.source);
    case 'Select':
    case 'Shape':
      return linkPropertyNames(expr.subject);
    case 'BindingRef':
      return linkPropertyNames(expr.binding.expr);
    case 'GroupElements':
      return linkPropertyNames(groupNode(expr.group).elements);
    default:
      return [];
  }
}

/** A `for` variable's value exposed by a subquery's rows (see Rel.carried). */
interface CarriedColumn {
  readonly pathId: string;
  readonly column: string;
  readonly bound: Bound;
}

/** The Group node behind a reference to group results. */
/** A group with one grouping set of all its keys (`by a, b`): its value is the keys' array. */
function singleSet(group: Extract<IrExpr, { kind: 'Group' }>): boolean {
  return group.sets.length === 1 && group.sets[0]?.length === group.keys.length;
}

/** That a group's value (with several grouping sets) belongs to set `index`. */
function groupSetIs(
  group: Extract<IrExpr, { kind: 'Group' }>,
  value: SqlExpr,
  index: number,
): SqlExpr {
  return sql.bin(
    '=',
    sql.bin('->', value, sql.num(group.keys.length)),
    sql.cast(sql.text(String(index)), pgType('jsonb')),
  );
}

function groupNode(expr: IrExpr): Extract<IrExpr, { kind: 'Group' }> {
  if (expr.kind === 'Group') return expr;
  if (expr.kind === 'BindingRef') return groupNode(expr.binding.expr);
  if (expr.kind === 'Select') return groupNode(expr.subject);
  if (expr.kind === 'Shape') return groupNode(expr.subject);
  throw new QueryError('expected group results');
}

function objectBound(type: string, alias: string, tag: SqlExpr, nullable: boolean): Bound {
  return {
    kind: 'object',
    type,
    id: sql.col('id', alias),
    tag,
    alias,
    link: null,
    out: null,
    nullable,
  };
}

function pathId(expr: IrExpr): string | null {
  switch (expr.kind) {
    case 'Group':
    case 'TypeRoot':
    case 'BindingRef':
    case 'PointerStep':
    case 'Backlink':
    case 'Intersection':
    case 'ObjectCast':
    case 'Insert':
    case 'Update':
    case 'Delete':
      return expr.pathId;
    default:
      return null;
  }
}

/** Object paths read element-wise by `expr` (see Planner.prebind), outermost first. */
function collectElementPaths(expr: IrExpr, out: IrExpr[], links: IrExpr[] = []): void {
  switch (expr.kind) {
    case 'BindingRef':
      if (expr.binding.transparent) collectElementPaths(expr.binding.expr, out, links);
      else if (!expr.binding.iteration) out.push(expr);
      return;
    case 'TypeRoot':
    case 'PointerStep':
    case 'Backlink':
    case 'Intersection':
      if (expr.type.kind === 'object') out.push(expr);
      else if (expr.kind === 'PointerStep') collectElementPaths(expr.source, out, links);
      return;
    case 'Call':
      if (expr.callKind !== 'element') return;
      expr.args.forEach((a, i) => {
        if (expr.modes[i] === 'element') collectElementPaths(a, out, links);
      });
      return;
    case 'LinkProperty':
      // Read through the link rows: the link's objects are one per link, not distinct.
      links.push(expr.link);
      collectElementPaths(expr.link, out, links);
      return;
    case 'Cast':
    case 'TypeCheck':
    case 'ObjectJson':
      collectElementPaths(expr.expr, out, links);
      return;
    case 'TupleLiteral':
    case 'ArrayLiteral':
      for (const e of expr.elements) collectElementPaths(e, out, links);
      return;
    case 'IfElse':
      // The branches are sets of their own (std::IF takes them as SET OF): only the condition.
      collectElementPaths(expr.condition, out, links);
      return;
    case 'Shape':
      collectElementPaths(expr.subject, out, links);
      return;
    default:
      return;
  }
}

/**
 * Path ids that are prefixes of a path bound in `rel` (or a parent) somewhere in `expr`: a path
 * bound as a whole (`Issue.time_estimate`, around a `??`) needs no binding of its prefix.
 */
function boundPrefixes(rel: Rel, expr: IrExpr): Set<string> {
  const out = new Set<string>();
  const walk = (e: IrExpr): void => {
    const id = pathId(e);
    if (id !== null && rel.lookup(id) !== undefined) {
      for (let s = sourceOf(e); s !== null; s = sourceOf(s)) {
        const sid = pathId(s);
        if (sid !== null) out.add(sid);
      }
    }
    for (const c of children(e)) walk(c);
  };
  walk(expr);
  return out;
}

/**
 * Whether lifting `expr` element-wise here may drop the row when it is empty: it reads an
 * `[is T]` not bound yet, or a select or `for` (joined by their result's cardinality).
 */
function dropsRowWhenEmpty(rel: Rel, expr: IrExpr): boolean {
  const unbound = (e: IrExpr): boolean => {
    const id = pathId(e);
    return id === null ? rel.lookupNode(e) === undefined : rel.lookup(id) === undefined;
  };
  const walk = (e: IrExpr): boolean => {
    if (!unbound(e)) return false;
    switch (e.kind) {
      case 'Intersection':
      case 'Select':
      case 'For':
        return true;
      case 'PointerStep':
      case 'Backlink':
        return walk(e.source);
      case 'BindingRef':
        return e.binding.transparent === true && walk(e.binding.expr);
      case 'Call':
        return (
          e.callKind === 'element' && e.args.some((a, i) => e.modes[i] === 'element' && walk(a))
        );
      case 'Cast':
      case 'TypeCheck':
      case 'ObjectJson':
        return walk(e.expr);
      case 'TupleLiteral':
      case 'ArrayLiteral':
        return e.elements.some(walk);
      case 'TupleElement':
        return walk(e.tuple);
      default:
        return false;
    }
  };
  return walk(expr);
}

function sourceOf(expr: IrExpr): IrExpr | null {
  return expr.kind === 'PointerStep' || expr.kind === 'Backlink' || expr.kind === 'Intersection'
    ? expr.source
    : null;
}

/** Sets whose elements are rows to lift (everything `liftNew` does not compute as a value). */
function needsRows(expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'TypeRoot':
    case 'PointerStep':
    case 'Backlink':
    case 'Intersection':
    case 'ObjectCast':
    case 'BindingRef':
    case 'Shape':
    case 'Select':
    case 'For':
    case 'SetLiteral':
    case 'SetOp':
    case 'Distinct':
    case 'Assert':
    case 'Group':
    case 'GroupElements':
      return true;
    case 'GroupGrouping':
      return !expr.array;
    case 'Coalesce':
      return (
        expr.type.kind === 'object' ||
        expr.left.card.max === 'many' ||
        expr.right.card.max === 'many'
      );
    case 'IfElse':
      return (
        expr.type.kind === 'object' ||
        expr.then.card.max === 'many' ||
        expr.else.card.max === 'many'
      );
    case 'Call':
      return expr.callKind === 'set-returning';
    default:
      return false;
  }
}

/**
 * Whether `expr` (a collection) may carry shapes or free objects in its items: anything it is
 * built from has one (a quick syntactic bound; a collection without is rendered the same way).
 */
function carriesShape(expr: IrExpr): boolean {
  const seen = new Set<unknown>();
  const visit = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return false;
    seen.add(node);
    const kind = (node as { kind?: unknown }).kind;
    if (kind === 'Shape' || kind === 'FreeObject') return true;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type' || key === 'overload' || key === 'pointer') continue;
      if (Array.isArray(value) ? value.some(visit) : visit(value)) return true;
    }
    return false;
  };
  return visit(expr);
}

function hasShape(expr: IrExpr): boolean {
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
function isMulti(expr: IrExpr): boolean {
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

/** Orders the aggregate call in a std form (`coalesce(array_agg(x), '{}')` orders array_agg). */
/** One order key of a subquery's rows: a column and how it sorts. */
export interface OrderKey {
  readonly column: string;
  readonly direction: OrderItem['direction'];
  readonly nulls: OrderItem['nulls'];
}

/** Rows numbered in order, in one column `~ord`. */
const ORDINAL: readonly OrderKey[] = [{ column: '~ord', direction: null, nulls: null }];
/** A union's rows: by member, then by the member's row number. */
const UNION_ORDER: readonly OrderKey[] = [
  { column: '~u1', direction: null, nulls: null },
  { column: '~u2', direction: null, nulls: null },
];

/** Sorting by a subquery's order keys (`alias`: the subquery). */
function orderBy(keys: readonly OrderKey[], alias: string): OrderItem[] {
  return keys.map((k) => sql.order(sql.col(k.column, alias), k.direction, k.nulls));
}

/**
 * The ORDER BY of an aggregate over the rows of `from` that must come in `order`: none when
 * `from` is one subquery already sorted by exactly those keys (a sliced set: `order by ...
 * limit`), since a scan of one sorted subquery with no join above it hands the aggregate its rows
 * in that order (PostgreSQL documents that only a join, or other processing, above the subquery
 * may reorder them). On PostgreSQL 15 this saves a sort of the page per aggregate; 16 and later
 * skip a sort of presorted input themselves.
 */
function aggregateOrder(from: FromItem | null, order: readonly OrderItem[]): OrderItem[] {
  if (order.length === 0) return [];
  if (from?.kind !== 'SubqueryFrom' || from.query.kind !== 'Select') return [...order];
  const sub = from.query;
  if (sub.orderBy.length !== order.length || sub.distinct !== false) return [...order];
  const sorted = order.every((o, i) => {
    const by = sub.orderBy[i] as OrderItem;
    if (o.direction !== by.direction || o.nulls !== by.nulls) return false;
    if (o.expr.kind !== 'ColumnRef' || o.expr.table !== from.alias) return false;
    const column = o.expr.name;
    const target = sub.targets.find((t) => t.alias === column);
    return target !== undefined && sameExpr(target.expr, by.expr);
  });
  return sorted ? [] : [...order];
}

/** Structural equality of two SQL expressions (both are plain data). */
function sameExpr(a: SqlExpr, b: SqlExpr): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** A `rows` subquery's output read from `alias`: its `~text` as JSON text, or its `~json`. */
function outputColumn(columns: { readonly text?: boolean }, alias: string): SqlExpr {
  return columns.text ? sql.jsonFromText(sql.col('~text', alias)) : sql.col('~json', alias);
}

/** The rows' position in their order (`0` for all when unordered). */
function ordinal(keys: readonly OrderKey[], alias: string): SqlExpr {
  if (keys.length === 0) return sql.num(0);
  return sql.agg('row_number', [], { over: { partitionBy: [], orderBy: orderBy(keys, alias) } });
}

function orderAggregate(form: SqlExpr, order: readonly OrderItem[]): SqlExpr {
  if (form.kind !== 'FuncCall') return form;
  if (form.name === 'coalesce' && form.args[0]) {
    return { ...form, args: [orderAggregate(form.args[0], order), ...form.args.slice(1)] };
  }
  return form.orderBy ? form : { ...form, orderBy: order };
}

function whereOf(conditions: readonly SqlExpr[]): SqlExpr | null {
  return conditions.length === 0 ? null : sql.and(...conditions);
}

function nullable(expr: IrExpr): boolean {
  return expr.card.min === 0;
}

/** `case when a is null or ... then null else value end` when any part may be empty. */
function nullIfAnyNull(
  elements: readonly IrExpr[],
  values: readonly SqlExpr[],
  value: SqlExpr,
): SqlExpr {
  const checks = values
    .filter((_, i) => (elements[i] as IrExpr).card.min === 0)
    .map((v) => sql.isNull(v));
  if (checks.length === 0) return value;
  return { kind: 'Case', whens: [{ when: sql.or(...checks), then: sql.null() }], else: value };
}

function asRef(type: IrType): TypeRef {
  if (type.kind === 'empty' || type.kind === 'free')
    throw new QueryError('a value of unknown type');
  return type;
}

function shortName(type: string): string {
  const short = type.slice(type.lastIndexOf('::') + 2);
  return /^[A-Za-z_][A-Za-z0-9_]{0,15}$/.test(short) ? short : 'o';
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
