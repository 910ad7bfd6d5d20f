/**
 * sql/ast: the PostgreSQL tree the compilers build: expressions (`SqlExpr`) and statements
 * (`SqlStatement`: SELECT / set operations / VALUES / INSERT / UPDATE / DELETE, each with its own
 * WITH list), printed in one place (./print).
 *
 * Input: built by the EdgeQL compiler in query/ (whole statements, and DDL expressions through
 * schema/storage/ddl-expression) and schema/storage, best through the `sql` builders below.
 * Output: `printSql(expr)` / `printStatement(stmt)` text. Every node is a plain object with a
 * `kind`. The builders (`sql`, `pgType`, JSON constructors and JSON text) are in ./build and
 * re-exported here; ./transform walks and rewrites the tree.
 * Invariants: identifiers are stored unquoted and quoted only by the printer; literal values are
 * stored as their decoded value and quoted only by the printer (sql/codegen/quote). Query values
 * travel as `Param` (`$n`), never as literals. Function names and operators are the compiler's own
 * constants (never user text) and print as written.
 */

/** A PostgreSQL type: built-in (`schema: null`, printed as written, e.g. `double precision`) or
 * user-defined (`schema` set, printed quoted). `arrayDims` adds `[]`s. */
export interface PgType {
  readonly schema: string | null;
  readonly name: string;
  readonly arrayDims: number;
}

export type SqlExpr =
  /** `"col"`, `"t"."col"`. */
  | { readonly kind: 'ColumnRef'; readonly table: string | null; readonly name: string }
  /** The `VALUE` keyword of a domain CHECK. */
  | { readonly kind: 'DomainValue' }
  | {
      readonly kind: 'Literal';
      /** How the value prints: `text` quoted, `number` bare, `bool` as `true`/`false`, `null`. */
      readonly type: 'text' | 'number' | 'bool' | 'null' | 'bytea';
      readonly value: string | Uint8Array | null;
    }
  /** `name(args)`; `schema` set for user functions (`svc_meta.uuid_generate_v7()`). The optional
   * parts make it an aggregate or window call: `name(distinct args order by ...) filter (where
   * ...) over (...)`. */
  | {
      readonly kind: 'FuncCall';
      readonly schema: string | null;
      readonly name: string;
      readonly args: readonly SqlExpr[];
      readonly distinct?: boolean;
      readonly orderBy?: readonly OrderItem[];
      readonly filter?: SqlExpr;
      readonly over?: WindowSpec;
    }
  | { readonly kind: 'BinOp'; readonly op: string; readonly left: SqlExpr; readonly right: SqlExpr }
  /** `op operand` (`not`, `-`) or, with `postfix`, `operand op` (`is null`). */
  | {
      readonly kind: 'UnaryOp';
      readonly op: string;
      readonly operand: SqlExpr;
      readonly postfix?: boolean;
    }
  /** `expr::type`. `jsonText` (set by `jsonFromText` only): `expr` is a `text` value holding JSON
   * text the compiler built, which `jsonAsText` takes back without PostgreSQL's parse. */
  | {
      readonly kind: 'Cast';
      readonly expr: SqlExpr;
      readonly type: PgType;
      readonly jsonText?: true;
    }
  | {
      readonly kind: 'Case';
      readonly whens: readonly { readonly when: SqlExpr; readonly then: SqlExpr }[];
      readonly else: SqlExpr | null;
    }
  /** `ARRAY[a, b]`; an empty array needs `type` (printed as a cast). */
  | {
      readonly kind: 'ArrayExpr';
      readonly elements: readonly SqlExpr[];
      readonly type: PgType | null;
    }
  /** `ROW(a, b)`. */
  | { readonly kind: 'RowExpr'; readonly elements: readonly SqlExpr[] }
  /** `expr[index]` (`index` is 1-based, as PostgreSQL's). */
  | { readonly kind: 'Subscript'; readonly expr: SqlExpr; readonly index: SqlExpr }
  /** `expr[lower:upper]`. */
  | {
      readonly kind: 'Slice';
      readonly expr: SqlExpr;
      readonly lower: SqlExpr | null;
      readonly upper: SqlExpr | null;
    }
  | { readonly kind: 'Collate'; readonly expr: SqlExpr; readonly collation: string }
  /** `expr [not] in (list)`. */
  | {
      readonly kind: 'InList';
      readonly expr: SqlExpr;
      readonly list: readonly SqlExpr[];
      readonly negated: boolean;
    }
  /** `left op any (array)`. */
  | { readonly kind: 'AnyOp'; readonly left: SqlExpr; readonly op: string; readonly array: SqlExpr }
  /** `(expr)`, kept as a node so printers never guess precedence. */
  | { readonly kind: 'Paren'; readonly expr: SqlExpr }
  /** `$index`: a bound parameter (1-based). Its type comes from a surrounding Cast. */
  | { readonly kind: 'Param'; readonly index: number }
  /** `*` or `"t".*` (in target lists, RETURNING, `count(*)`). */
  | { readonly kind: 'Star'; readonly table: string | null }
  /** `(expr)."field"`: a field of a composite value. */
  | { readonly kind: 'FieldSelect'; readonly expr: SqlExpr; readonly field: string }
  /** `a and b and c` / `a or b` (flat, for readable output; one argument prints bare). */
  | { readonly kind: 'BoolOp'; readonly op: 'and' | 'or'; readonly args: readonly SqlExpr[] }
  /** The `DEFAULT` keyword (a row of INSERT ... VALUES, or UPDATE ... SET). */
  | { readonly kind: 'DefaultValue' }
  /** A subquery as a value: `(select ...)` (scalar: one column, at most one row), `exists (...)`,
   * `ARRAY(select ...)` (one column). */
  | {
      readonly kind: 'SubLink';
      readonly type: 'scalar' | 'exists' | 'array';
      readonly query: SqlQuery;
    }
  /** `left op any (select ...)` (`=` any is SQL's `in (select ...)`). */
  | {
      readonly kind: 'AnySubLink';
      readonly left: SqlExpr;
      readonly op: string;
      readonly query: SqlQuery;
    };

/** One ORDER BY key. `nulls` null is PostgreSQL's default (nulls last ascending, first
 * descending). PostgreSQL reads a bare integer constant here (and in GROUP BY), even `(-1)`, as
 * an output column's position, and refuses any other bare constant: that is how a set
 * operation's result is ordered (`order by 1`); a compiler drops constant sort keys. */
export interface OrderItem {
  readonly expr: SqlExpr;
  readonly direction: 'asc' | 'desc' | null;
  readonly nulls: 'first' | 'last' | null;
}

/** `over (partition by ... order by ...)`. */
export interface WindowSpec {
  readonly partitionBy: readonly SqlExpr[];
  readonly orderBy: readonly OrderItem[];
}

// ---------------------------------------------------------------------------------------------
// Statements

/** A table by name: `"schema"."name"` (schema null: unqualified, e.g. a CTE). */
export interface TableName {
  readonly schema: string | null;
  readonly name: string;
}

/** One output column: `expr as "alias"`. */
export interface Target {
  readonly expr: SqlExpr;
  readonly alias: string | null;
}

/** One common table expression: `"name"("columns") as [not] materialized (statement)`.
 * `materialized` null leaves it to PostgreSQL. Data-modifying statements are allowed in the
 * top-level WITH only (a PostgreSQL rule; the printer does not check it). */
export interface Cte {
  readonly name: string;
  readonly columns: readonly string[] | null;
  readonly materialized: boolean | null;
  readonly query: SqlStatement;
}

export interface WithClause {
  readonly recursive: boolean;
  readonly ctes: readonly Cte[];
}

/** A column of a function's alias: `as f("a" int, ...)` (type needed for record-returning
 * functions such as `jsonb_to_record`, null otherwise). */
export interface ColumnAlias {
  readonly name: string;
  readonly type: PgType | null;
}

export type FromItem =
  /** `"schema"."table" as "alias"`. */
  | { readonly kind: 'TableFrom'; readonly table: TableName; readonly alias: string | null }
  /** `[lateral] (query) as "alias"("columns")`. */
  | {
      readonly kind: 'SubqueryFrom';
      readonly query: SqlQuery;
      readonly alias: string;
      readonly columns: readonly string[] | null;
      readonly lateral: boolean;
    }
  /** `[lateral] f(args) [with ordinality] as "alias"("columns")`. */
  | {
      readonly kind: 'FunctionFrom';
      readonly call: SqlExpr;
      readonly withOrdinality: boolean;
      readonly alias: string | null;
      readonly columns: readonly ColumnAlias[] | null;
      readonly lateral: boolean;
    }
  /** `left [type] join right on ...` (`cross`: no condition). */
  | {
      readonly kind: 'JoinFrom';
      readonly type: 'inner' | 'left' | 'right' | 'full' | 'cross';
      readonly left: FromItem;
      readonly right: FromItem;
      readonly on: SqlExpr | null;
    };

export interface SelectStatement {
  readonly kind: 'Select';
  readonly with: WithClause | null;
  /** `true`: DISTINCT; a list: DISTINCT ON (list). */
  readonly distinct: boolean | readonly SqlExpr[];
  readonly targets: readonly Target[];
  readonly from: readonly FromItem[];
  readonly where: SqlExpr | null;
  readonly groupBy: readonly SqlExpr[];
  readonly having: SqlExpr | null;
  readonly orderBy: readonly OrderItem[];
  readonly limit: SqlExpr | null;
  readonly offset: SqlExpr | null;
}

/** `(left) union [all] (right)` and friends; each operand printed in parentheses. */
export interface SetOperationStatement {
  readonly kind: 'SetOperation';
  readonly with: WithClause | null;
  readonly op: 'union' | 'intersect' | 'except';
  readonly all: boolean;
  readonly left: SqlQuery;
  readonly right: SqlQuery;
  readonly orderBy: readonly OrderItem[];
  readonly limit: SqlExpr | null;
  readonly offset: SqlExpr | null;
}

/** `values (a, b), (c, d)`; every row has the same length (at least one row). */
export interface ValuesStatement {
  readonly kind: 'Values';
  readonly with: WithClause | null;
  readonly rows: readonly (readonly SqlExpr[])[];
}

/** A statement that yields rows (usable as a subquery, FROM item or INSERT source). */
export type SqlQuery = SelectStatement | SetOperationStatement | ValuesStatement;

export interface OnConflict {
  /** `("a", "b") [where ...]` (an arbiter index's columns), a named constraint, or none
   * (`do nothing` only). */
  readonly target:
    | {
        readonly kind: 'columns';
        readonly columns: readonly string[];
        readonly where: SqlExpr | null;
      }
    | { readonly kind: 'constraint'; readonly name: string }
    | null;
  /** `do nothing`, or `do update set ... [where ...]` (the proposed row is the `excluded` table). */
  readonly action:
    | { readonly kind: 'nothing' }
    | {
        readonly kind: 'update';
        readonly set: readonly SetClause[];
        readonly where: SqlExpr | null;
      };
}

/** `"column" = value`. */
export interface SetClause {
  readonly column: string;
  readonly value: SqlExpr;
}

export interface InsertStatement {
  readonly kind: 'Insert';
  readonly with: WithClause | null;
  readonly table: TableName;
  readonly alias: string | null;
  readonly columns: readonly string[];
  /** The rows: a query (VALUES or SELECT), or null for `default values`. */
  readonly source: SqlQuery | null;
  readonly onConflict: OnConflict | null;
  readonly returning: readonly Target[];
}

export interface UpdateStatement {
  readonly kind: 'Update';
  readonly with: WithClause | null;
  readonly table: TableName;
  readonly alias: string | null;
  readonly set: readonly SetClause[];
  readonly from: readonly FromItem[];
  readonly where: SqlExpr | null;
  readonly returning: readonly Target[];
}

export interface DeleteStatement {
  readonly kind: 'Delete';
  readonly with: WithClause | null;
  readonly table: TableName;
  readonly alias: string | null;
  readonly using: readonly FromItem[];
  readonly where: SqlExpr | null;
  readonly returning: readonly Target[];
}

export type SqlStatement = SqlQuery | InsertStatement | UpdateStatement | DeleteStatement;

// The builders, re-exported: importers of the tree get its constructors from one place.
export * from './build';
