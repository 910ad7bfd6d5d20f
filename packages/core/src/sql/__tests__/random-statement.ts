/**
 * sql/__tests__/random-statement: random SQL statement trees that PostgreSQL must accept, over the
 * fixture tables `"Mod ule"."T""1"` and `"Mod ule"."t2"` (columns `a`, `"B b"`, both int4).
 *
 * Input: a source of choices (`Choices`, backed by fast-check in the property test).
 * Output: a `SqlStatement`. Invariant: the tree is valid by construction — every column reference
 * is in scope, every value is numeric (int4/int8/numeric mix freely), aggregates and window
 * functions appear only where PostgreSQL allows them, data-modifying statements only at the top
 * level (and in its WITH), `$n` are numbered 1, 2, ... in order, each with its type cast.
 * So a statement PostgreSQL refuses is a printer bug.
 */
import {
  pgType,
  sql,
  type Cte,
  type FromItem,
  type OrderItem,
  type SqlExpr,
  type SqlQuery,
  type SqlStatement,
  type TableName,
  type Target,
} from '../ast';

export interface Choices {
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

/** A relation in scope: its reference name and its (numeric) columns. */
interface Rel {
  readonly alias: string;
  readonly columns: readonly string[];
}

/** What an expression may contain. */
interface Allowed {
  readonly aggregates: boolean;
  readonly windows: boolean;
  readonly sublinks: boolean;
}

interface Scope {
  /** Relations of this query level. */
  readonly rels: readonly Rel[];
  /** Relations of enclosing query levels (correlated references). */
  readonly outer: readonly Rel[];
}

const NONE: Allowed = { aggregates: false, windows: false, sublinks: false };
const PLAIN: Allowed = { aggregates: false, windows: false, sublinks: true };
const int4 = pgType('int4');
const TABLES: readonly { table: TableName; pkey: string }[] = [
  { table: { schema: 'Mod ule', name: 'T"1' }, pkey: 'T"1_pkey' },
  { table: { schema: 'Mod ule', name: 't2' }, pkey: 't2_pkey' },
];
const TABLE_COLUMNS = ['a', 'B b'] as const;

export function randomStatement(choices: Choices, maxDepth = 3): SqlStatement {
  return numberParams(new Generator(choices).topLevel(maxDepth));
}

/** Renumbers `$n` 1, 2, ... in tree order (one parameter used twice stays one), so no number is
 * missing (PostgreSQL cannot type a parameter the statement never uses) even when a shrunk run
 * drops some. */
function numberParams(tree: SqlStatement): SqlStatement {
  const numbers = new Map<number, number>();
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    if ((node as { kind?: unknown }).kind === 'Param') {
      const old = (node as { index: number }).index;
      if (!numbers.has(old)) numbers.set(old, numbers.size + 1);
      return sql.param(numbers.get(old) as number);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]));
  };
  return visit(tree) as SqlStatement;
}

class Generator {
  private params = 0;
  private aliases = 0;
  /** CTEs visible here, innermost last. */
  private readonly ctes: Rel[] = [];

  constructor(private readonly c: Choices) {}

  private pick<T>(items: readonly T[]): T {
    return items[this.c.int(0, items.length - 1)] as T;
  }

  private chance(percent: number): boolean {
    return this.c.int(1, 100) <= percent;
  }

  private alias(): string {
    this.aliases += 1;
    return this.pick(['r', 'R', 'a b', 'q"']) + this.aliases;
  }

  private param(type = int4): SqlExpr {
    this.params += 1;
    return sql.cast(sql.param(this.params), type);
  }

  private columns(width: number): string[] {
    return Array.from({ length: width }, (_, i) => `c${i}`);
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  topLevel(depth: number): SqlStatement {
    const ctes = this.withCtes(depth, true);
    const width = this.c.int(1, 3);
    const body = this.chance(60)
      ? this.query({ rels: [], outer: [] }, width, depth)
      : this.modification(depth, 0);
    this.ctes.length = 0;
    // The body's own WITH (if any) comes after, and may read, the top-level CTEs.
    return ctes.length === 0
      ? body
      : { ...body, with: sql.with([...ctes, ...(body.with?.ctes ?? [])]) };
  }

  /** A WITH list; its names stay visible until the caller pops them. */
  private withCtes(depth: number, topLevel: boolean): Cte[] {
    if (depth <= 0 || !this.chance(30)) return [];
    const out: Cte[] = [];
    for (let i = this.c.int(1, 2); i > 0; i -= 1) {
      const width = this.c.int(1, 2);
      const name = this.alias();
      const modifying = topLevel && this.chance(50);
      const query = modifying
        ? this.modification(depth - 1, width)
        : this.query({ rels: [], outer: [] }, width, depth - 1);
      out.push(
        sql.cte(name, query, {
          columns: this.columns(width),
          materialized: this.pick([null, true, false]),
        }),
      );
      this.ctes.push({ alias: name, columns: this.columns(width) });
    }
    return out;
  }

  /** INSERT / UPDATE / DELETE; `returningWidth` 0 means no RETURNING is needed. */
  private modification(depth: number, returningWidth: number): SqlStatement {
    const { table, pkey } = this.pick(TABLES);
    const alias = this.chance(70) ? this.alias() : null;
    const self: Rel = { alias: alias ?? table.name, columns: TABLE_COLUMNS };
    const width = returningWidth > 0 ? returningWidth : this.chance(60) ? this.c.int(1, 2) : 0;
    const returning = (scope: Scope): Target[] =>
      width === 0 && this.chance(50)
        ? []
        : width === 0
          ? [sql.target(sql.star())]
          : this.columns(width).map((name) => sql.target(this.int(scope, PLAIN, depth - 1), name));
    const kind = this.c.int(0, 2);
    if (kind === 0) {
      const columns = this.chance(10)
        ? []
        : this.chance(50)
          ? [...TABLE_COLUMNS]
          : [this.pick(TABLE_COLUMNS)];
      const empty: Scope = { rels: [], outer: [] };
      const source: SqlQuery | null =
        columns.length === 0
          ? null
          : this.chance(50)
            ? sql.values(
                Array.from({ length: this.c.int(1, 3) }, () =>
                  columns.map(() =>
                    this.chance(15) ? sql.default() : this.int(empty, PLAIN, depth - 1),
                  ),
                ),
              )
            : this.query(empty, columns.length, depth - 1);
      const conflictScope: Scope = {
        rels: [self, { alias: 'excluded', columns: TABLE_COLUMNS }],
        outer: [],
      };
      const onConflict = this.chance(40)
        ? this.chance(50)
          ? {
              target: this.pick([
                null,
                { kind: 'columns' as const, columns: ['a'], where: null },
                { kind: 'constraint' as const, name: pkey },
              ]),
              action: { kind: 'nothing' as const },
            }
          : {
              target: { kind: 'columns' as const, columns: ['a'], where: null },
              action: {
                kind: 'update' as const,
                set: [{ column: 'B b', value: this.int(conflictScope, NONE, depth - 1) }],
                where: this.chance(50) ? this.bool(conflictScope, NONE, depth - 1) : null,
              },
            }
        : null;
      return sql.insert({
        table,
        alias,
        columns,
        source,
        onConflict,
        returning: returning({ rels: [self], outer: [] }),
      });
    }
    const from = this.chance(50)
      ? this.fromList({ rels: [], outer: [] }, depth - 1)
      : { items: [], rels: [] };
    const scope: Scope = { rels: [self, ...from.rels], outer: [] };
    const where = this.chance(70) ? this.bool(scope, PLAIN, depth - 1) : null;
    if (kind === 1) {
      const set = (this.chance(50) ? [...TABLE_COLUMNS] : [this.pick(TABLE_COLUMNS)]).map(
        (column) => ({
          column,
          value: this.chance(10) ? sql.default() : this.int(scope, PLAIN, depth - 1),
        }),
      );
      return sql.update({
        table,
        alias,
        set,
        from: from.items,
        where,
        returning: returning(scope),
      });
    }
    return sql.delete({ table, alias, using: from.items, where, returning: returning(scope) });
  }

  /** A query of `width` numeric columns. */
  private query(outer: Scope, width: number, depth: number): SqlQuery {
    const roll = this.c.int(1, 100);
    if (depth > 0 && roll <= 15) {
      const left = this.query(outer, width, depth - 1);
      const right = this.query(outer, width, depth - 1);
      const orderBy = this.chance(40)
        ? [
            sql.order(
              sql.num(this.c.int(1, width)),
              this.pick([null, 'asc', 'desc'] as const),
              this.pick([null, 'first', 'last'] as const),
            ),
          ]
        : [];
      return sql.setOp(
        this.pick(['union', 'intersect', 'except'] as const),
        this.chance(50),
        left,
        right,
        {
          orderBy,
          limit: this.chance(30) ? this.param(pgType('int8')) : null,
        },
      );
    }
    if (roll <= 25) {
      const scope: Scope = { rels: [], outer: [...outer.rels, ...outer.outer] };
      return sql.values(
        Array.from({ length: this.c.int(1, 3) }, () =>
          Array.from({ length: width }, () => this.int(scope, PLAIN, depth - 1)),
        ),
      );
    }
    return this.select(outer, width, depth);
  }

  private select(outer: Scope, width: number, depth: number): SqlQuery {
    const visibleOuter = [...outer.rels, ...outer.outer];
    const cteCount = this.ctes.length;
    const ctes = this.withCtes(depth, false);
    const from = this.chance(80)
      ? this.fromList({ rels: [], outer: visibleOuter }, depth - 1)
      : { items: [], rels: [] };
    const scope: Scope = { rels: from.rels, outer: visibleOuter };
    const where = this.chance(50) ? this.bool(scope, PLAIN, depth - 1) : null;
    const limit = this.chance(20)
      ? this.chance(50)
        ? sql.num(this.c.int(0, 9))
        : this.param(pgType('int8'))
      : null;
    const offset = this.chance(15) ? sql.num(this.c.int(0, 3)) : null;
    let result: SqlQuery;
    if (this.chance(25)) {
      // Grouped: outputs are group keys, aggregates and constants only.
      const keys: SqlExpr[] =
        from.rels.length > 0 && this.chance(70) ? [this.columnOf(from.rels)] : [];
      const grouped = (d: number): SqlExpr => this.groupedInt(scope, keys, d);
      result = sql.select({
        targets: this.columns(width).map((name) => sql.target(grouped(depth - 1), name)),
        from: from.items,
        where,
        groupBy: keys,
        having: this.chance(40)
          ? sql.bin(this.pick(['>', '<=', '<>']), grouped(depth - 1), sql.num(1))
          : null,
        orderBy: this.chance(40)
          ? [sql.order(this.orderable(grouped(depth - 1)), this.pick([null, 'desc'] as const))]
          : [],
        limit,
        offset,
      });
    } else {
      const distinctKind = this.c.int(0, 9);
      const allowed: Allowed = distinctKind < 2 ? PLAIN : { ...PLAIN, windows: true };
      const targets = this.columns(width).map((name) =>
        sql.target(this.int(scope, allowed, depth - 1), name),
      );
      let distinct: boolean | SqlExpr[] = false;
      let orderBy: OrderItem[] = [];
      if (distinctKind === 0) {
        // DISTINCT: ORDER BY only output expressions.
        distinct = true;
        const key = (this.pick(targets) as Target).expr;
        if (this.orderable(key) === key && this.chance(50)) orderBy = [sql.order(key, 'desc')];
      } else if (distinctKind === 1 && from.rels.length > 0) {
        // DISTINCT ON (k): ORDER BY starts with k.
        const key = this.columnOf(from.rels);
        distinct = [key];
        orderBy = [
          sql.order(key, null, 'first'),
          sql.order(this.orderable(this.int(scope, NONE, 0)), 'asc'),
        ];
      } else if (this.chance(40)) {
        orderBy = [
          sql.order(
            this.orderable(this.int(scope, PLAIN, depth - 1)),
            this.pick([null, 'asc', 'desc'] as const),
            this.pick([null, 'first', 'last'] as const),
          ),
        ];
      }
      result = sql.select({ distinct, targets, from: from.items, where, orderBy, limit, offset });
    }
    this.ctes.length = cteCount;
    return ctes.length === 0 ? result : { ...result, with: sql.with(ctes) };
  }

  /** ORDER BY / GROUP BY read a bare integer constant as a column position: avoid one. */
  private orderable(expr: SqlExpr): SqlExpr {
    let bare = expr;
    while (bare.kind === 'Paren' || (bare.kind === 'UnaryOp' && bare.op === '-')) {
      bare = bare.kind === 'Paren' ? bare.expr : bare.operand;
    }
    return bare.kind === 'Literal' ? sql.bin('+', expr, sql.num(0)) : expr;
  }

  // -------------------------------------------------------------------------------------------
  // FROM

  /** A FROM list; `scope.outer` is what LATERAL items may also see. */
  private fromList(scope: Scope, depth: number): { items: FromItem[]; rels: Rel[] } {
    const items: FromItem[] = [];
    const rels: Rel[] = [];
    for (let i = this.c.int(1, 2); i > 0; i -= 1) {
      const item = this.fromItem({ rels, outer: scope.outer }, depth, true);
      items.push(item.item);
      rels.push(...item.rels);
    }
    return { items, rels };
  }

  /** One FROM item; `scope.rels` are earlier items a lateral item may read (when `lateralOk`). */
  private fromItem(
    scope: Scope,
    depth: number,
    lateralOk: boolean,
  ): { item: FromItem; rels: Rel[] } {
    const alias = this.alias();
    const roll = this.c.int(1, 100);
    if (roll <= 15 && depth > 0) {
      const type = this.pick(['inner', 'left', 'right', 'full', 'cross'] as const);
      const left = this.fromItem(scope, depth - 1, lateralOk);
      const rightLateral = lateralOk && (type === 'inner' || type === 'left' || type === 'cross');
      const right = this.fromItem(
        { rels: rightLateral ? [...scope.rels, ...left.rels] : [], outer: scope.outer },
        depth - 1,
        rightLateral,
      );
      const rels = [...left.rels, ...right.rels];
      if (type === 'cross') return { item: sql.crossJoin(left.item, right.item), rels };
      const on = this.bool({ rels, outer: scope.outer }, PLAIN, depth - 1);
      return { item: sql.join(type, left.item, right.item, on), rels };
    }
    if (roll <= 25 && this.ctes.length > 0) {
      const cte = this.pick(this.ctes);
      return { item: sql.table(null, cte.alias, alias), rels: [{ alias, columns: cte.columns }] };
    }
    const lateral = lateralOk && this.chance(50);
    const seen: Scope = {
      rels: [],
      outer: lateral ? [...scope.rels, ...scope.outer] : scope.outer,
    };
    if (roll <= 45 && depth > 0) {
      const width = this.c.int(1, 2);
      const columns = this.columns(width);
      const query = this.query(seen, width, depth - 1);
      return { item: sql.subquery(query, alias, { columns, lateral }), rels: [{ alias, columns }] };
    }
    if (roll <= 60) {
      const values = sql.values(
        Array.from({ length: this.c.int(1, 2) }, () => [
          this.int(seen, NONE, 0),
          this.int(seen, NONE, 0),
        ]),
      );
      return {
        item: sql.subquery(values, alias, { columns: ['c0', 'c1'], lateral }),
        rels: [{ alias, columns: ['c0', 'c1'] }],
      };
    }
    if (roll <= 75) {
      // Function arguments may read earlier items whether or not LATERAL is written.
      const args: Scope = lateralOk ? { rels: [], outer: [...scope.rels, ...scope.outer] } : seen;
      const call = this.chance(50)
        ? sql.func('unnest', [
            this.chance(50)
              ? {
                  kind: 'ArrayExpr',
                  elements: [this.int(args, NONE, 1), this.int(args, NONE, 0)],
                  type: pgType('int4', 1),
                }
              : this.param(pgType('int4', 1)),
          ])
        : sql.func('generate_series', [this.int(args, NONE, 1), this.int(args, NONE, 1)]);
      const ordinality = this.chance(50);
      const columns = this.columns(ordinality ? 2 : 1);
      return {
        item: sql.fromFunction(call, alias, {
          withOrdinality: ordinality,
          columns: columns.map((name) => ({ name, type: null })),
          lateral: lateral && lateralOk,
        }),
        rels: [{ alias, columns }],
      };
    }
    const { table } = this.pick(TABLES);
    return {
      item: sql.table(table.schema, table.name, alias),
      rels: [{ alias, columns: TABLE_COLUMNS }],
    };
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  private columnOf(rels: readonly Rel[]): SqlExpr {
    const rel = this.pick(rels);
    return sql.col(this.pick(rel.columns), rel.alias);
  }

  /** A numeric expression. */
  private int(scope: Scope, allowed: Allowed, depth: number): SqlExpr {
    const visible = [...scope.rels, ...scope.outer];
    const leaf = (): SqlExpr => {
      const roll = this.c.int(1, 10);
      if (roll <= 5 && visible.length > 0) return this.columnOf(visible);
      if (roll <= 7) return this.param();
      return sql.num(this.c.int(-3, 40));
    };
    if (depth <= 0) return leaf();
    const d = depth - 1;
    const local: Scope = { rels: scope.rels, outer: [] };
    switch (this.c.int(0, 13)) {
      case 0:
      case 1:
        return sql.bin(
          this.pick(['+', '-', '*']),
          this.int(scope, allowed, d),
          this.int(scope, allowed, d),
        );
      case 2:
        return { kind: 'UnaryOp', op: '-', operand: this.int(scope, allowed, d) };
      case 3:
        return {
          kind: 'Case',
          whens: [{ when: this.bool(scope, allowed, d), then: this.int(scope, allowed, d) }],
          else: this.chance(50) ? this.int(scope, allowed, d) : null,
        };
      case 4:
        return sql.func('coalesce', [this.int(scope, allowed, d), this.int(scope, allowed, d)]);
      case 5:
        return { kind: 'Paren', expr: this.int(scope, allowed, d) };
      case 6:
        return {
          kind: 'Subscript',
          expr: this.chance(50)
            ? {
                kind: 'ArrayExpr',
                elements: [this.int(scope, allowed, d)],
                type: pgType('int4', 1),
              }
            : this.param(pgType('int4', 1)),
          index: sql.num(1),
        };
      case 7:
        if (allowed.sublinks) {
          return sql.scalar(this.query({ rels: scope.rels, outer: scope.outer }, 1, d));
        }
        return leaf();
      case 8:
        if (allowed.aggregates) return this.aggregate(local, d);
        return leaf();
      case 9:
        if (allowed.windows) {
          const [name, args] = this.chance(50)
            ? ['row_number', []]
            : ['sum', [this.int(local, NONE, 0)]];
          return sql.agg(name, args, {
            over: {
              partitionBy: this.chance(50) ? [this.int(local, NONE, 0)] : [],
              orderBy: this.chance(70) ? [sql.order(this.int(local, NONE, 0), 'desc')] : [],
            },
          });
        }
        return leaf();
      case 10:
        return sql.cast(
          this.int(scope, allowed, d),
          this.pick([int4, pgType('int8'), pgType('numeric')]),
        );
      default:
        return leaf();
    }
  }

  /** count(*) / count(distinct x) / sum(x order by y) filter (where ...) / max(x). */
  private aggregate(local: Scope, depth: number): SqlExpr {
    const arg = () => this.int(local, NONE, depth);
    switch (this.c.int(0, 3)) {
      case 0:
        return sql.func('count', [sql.star()]);
      case 1:
        return sql.agg('count', [arg()], { distinct: true });
      case 2:
        return sql.agg('sum', [arg()], {
          orderBy: this.chance(50) ? [sql.order(arg(), 'desc', 'last')] : [],
          ...(this.chance(50) ? { filter: this.bool(local, NONE, depth) } : {}),
        });
      default:
        return sql.agg('max', [arg()]);
    }
  }

  /** An output of a grouped query: keys, aggregates, constants. */
  private groupedInt(scope: Scope, keys: readonly SqlExpr[], depth: number): SqlExpr {
    const local: Scope = { rels: scope.rels, outer: [] };
    const roll = this.c.int(1, 10);
    if (roll <= 3 && depth > 0) {
      return sql.bin(
        '+',
        this.groupedInt(scope, keys, depth - 1),
        this.groupedInt(scope, keys, depth - 1),
      );
    }
    if (roll <= 5 && keys.length > 0) return this.pick(keys);
    if (roll <= 8) return this.aggregate(local, Math.max(depth - 1, 0));
    return this.chance(50) ? this.param() : sql.num(this.c.int(0, 9));
  }

  private bool(scope: Scope, allowed: Allowed, depth: number): SqlExpr {
    const int = (d: number) => this.int(scope, allowed, d);
    if (depth <= 0) {
      return this.chance(70)
        ? sql.bin(this.pick(['=', '<>', '<', '>=']), int(0), int(0))
        : this.param(pgType('bool'));
    }
    const d = depth - 1;
    switch (this.c.int(0, 9)) {
      case 0:
        return sql.and(
          this.bool(scope, allowed, d),
          this.bool(scope, allowed, d),
          this.bool(scope, allowed, d),
        );
      case 1:
        return sql.or(this.bool(scope, allowed, d), this.bool(scope, allowed, d));
      case 2:
        return sql.not(this.bool(scope, allowed, d));
      case 3:
        return sql.isNull(int(d), this.chance(50));
      case 4:
        return sql.bin(
          this.chance(50) ? 'is distinct from' : 'is not distinct from',
          int(d),
          int(d),
        );
      case 5:
        return { kind: 'InList', expr: int(d), list: [int(d), int(d)], negated: this.chance(50) };
      case 6:
        return {
          kind: 'AnyOp',
          left: int(d),
          op: this.pick(['=', '<']),
          array:
            allowed.sublinks && this.chance(50)
              ? sql.array(this.query(scope, 1, d))
              : { kind: 'ArrayExpr', elements: [int(d), int(d)], type: null },
        };
      case 7:
        if (allowed.sublinks) return sql.exists(this.query(scope, this.c.int(1, 2), d));
        return sql.bool(this.chance(50));
      case 8:
        if (allowed.sublinks)
          return sql.anySub(int(d), this.pick(['=', '>']), this.query(scope, 1, d));
        return sql.bin('>', int(d), int(d));
      default:
        return sql.bin(this.pick(['=', '<>', '<', '>=']), int(d), int(d));
    }
  }
}
