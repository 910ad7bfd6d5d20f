/**
 * sql/ast: the PostgreSQL tree the compilers build: expressions (`SqlExpr`) and statements
 * (`SqlStatement`: SELECT / set operations / VALUES / INSERT / UPDATE / DELETE, each with its own
 * WITH list), printed in one place (./print).
 *
 * Input: built by the EdgeQL compiler in query/ (whole statements, and DDL expressions through
 * schema/storage/ddl-expression) and schema/storage, best through the `sql` builders below.
 * Output: `printSql(expr)` / `printStatement(stmt)` text. Every node is a plain object with a
 * `kind`.
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

export function pgType(name: string, arrayDims = 0): PgType {
  return { schema: null, name, arrayDims };
}

export function pgUserType(schema: string, name: string, arrayDims = 0): PgType {
  return { schema, name, arrayDims };
}

export function pgArrayOf(type: PgType): PgType {
  return { ...type, arrayDims: type.arrayDims + 1 };
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
  | { readonly kind: 'Cast'; readonly expr: SqlExpr; readonly type: PgType }
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

// ---------------------------------------------------------------------------------------------
// Builders

function boolOp(op: 'and' | 'or', args: readonly SqlExpr[]): SqlExpr {
  const [only] = args;
  if (args.length === 1 && only !== undefined) return only;
  if (args.length === 0) return { kind: 'Literal', type: 'bool', value: String(op === 'and') };
  return { kind: 'BoolOp', op, args };
}

type Optional<T, K extends keyof T> = Omit<T, K | 'kind'> & Partial<Pick<T, K>>;

/** PostgreSQL passes at most this many arguments to a function (FUNC_MAX_ARGS; SQLSTATE 54023). */
export const MAX_FUNCTION_ARGS = 100;

/** The JSON constructors `jsonBuild` splits. */
export type JsonBuildFunction =
  | 'json_build_object'
  | 'jsonb_build_object'
  | 'json_build_array'
  | 'jsonb_build_array';

/**
 * `name(args)` for a JSON constructor of any size. Up to MAX_FUNCTION_ARGS arguments it is that
 * one call; past it the arguments are split into calls of at most MAX_FUNCTION_ARGS (whole
 * key/value pairs for objects) joined in order: jsonb chunks with `||` (arrays append, objects
 * merge), json chunks through their text — every chunk but the last loses its closing bracket,
 * every chunk but the first its opening one, joined by `, ` and cast back to json — so key order
 * (and duplicate keys) of a json object stay as one call would write them.
 */
export function jsonBuild(name: JsonBuildFunction, given: readonly SqlExpr[]): SqlExpr {
  const object = name.endsWith('_object');
  // A value already converted by `to_json(x)` (`to_jsonb` for jsonb) is `x` here: the
  // constructor converts each value by the same rule, so the call would be work done twice.
  const convert = name.startsWith('jsonb') ? 'to_jsonb' : 'to_json';
  const args = given.map((a, i) => (object && i % 2 === 0 ? a : unwrapConversion(a, convert)));
  if (args.length <= MAX_FUNCTION_ARGS) return sql.func(name, args);
  if (object && args.length % 2 !== 0) throw new Error(`${name}: an odd number of arguments`);
  const chunks: SqlExpr[] = [];
  for (let i = 0; i < args.length; i += MAX_FUNCTION_ARGS)
    chunks.push(sql.func(name, args.slice(i, i + MAX_FUNCTION_ARGS)));
  if (name.startsWith('jsonb')) {
    return chunks.reduce((acc, c) => sql.bin('||', acc, c));
  }
  const text = pgType('text');
  const last = chunks.length - 1;
  const pieces = chunks.map((c, i) => {
    let t = sql.cast(c, text);
    if (i < last) t = sql.func('left', [t, sql.num(-1)]);
    if (i > 0) t = sql.func('substr', [t, sql.num(2)]);
    return t;
  });
  const joined = pieces.reduce((acc, p) => sql.bin('||', sql.bin('||', acc, sql.text(', ')), p));
  return sql.cast(joined, pgType('json'));
}

/** PostgreSQL truncates an identifier past this many bytes (NAMEDATALEN - 1). */
const MAX_IDENTIFIER_BYTES = 63;
/** At most this many columns go into one row (PostgreSQL's limit is 1664 target entries). */
const MAX_ROW_COLUMNS = 1600;
/** The alias of `jsonObject`'s row; a shape key never reaches it (it names columns, not tables). */
const OBJECT_ROW = '~row';
const utf8 = new TextEncoder();

/**
 * A JSON object of `entries`, in their order: `to_json` of a one-row subquery whose columns are
 * the entries, `(select to_json("~row".*) from (select v1 as "k1", ...) as "~row")`, which
 * PostgreSQL writes `{"k1":v1,...}`. `json_build_object('k1', v1, ...)` says the same but
 * looks up every argument's type and output function on every call: at eight keys the row form
 * builds a 100-object page about a third faster (pgbench; bench/rest). Values convert to JSON
 * by the same rule either way (`to_json(x)` is `x` here, as in `jsonBuild`).
 *
 * Where a column cannot carry the key (no entries, a key of more than 63 bytes, a repeated key,
 * too many columns) it is `json_build_object` through `jsonBuild`. The values must be one per row
 * of the enclosing query: no aggregate or window call of that query, which would move into the
 * subquery.
 */
export function jsonObject(entries: readonly (readonly [string, SqlExpr])[]): SqlExpr {
  const keys = new Set(entries.map(([k]) => k));
  const rowForm =
    entries.length > 0 &&
    entries.length <= MAX_ROW_COLUMNS &&
    keys.size === entries.length &&
    entries.every(([k]) => utf8.encode(k).length <= MAX_IDENTIFIER_BYTES);
  if (!rowForm)
    return jsonBuild(
      'json_build_object',
      entries.flatMap(([k, v]) => [sql.text(k), v]),
    );
  const row = sql.select({
    targets: entries.map(([k, v]) => sql.target(unwrapConversion(v, 'to_json'), k)),
  });
  return sql.scalar(
    sql.select({
      targets: [sql.target(sql.func('to_json', [sql.star(OBJECT_ROW)]))],
      from: [sql.subquery(row, OBJECT_ROW)],
    }),
  );
}

/** `x` for a plain `convert(x)` call, else `e` itself. */
function unwrapConversion(e: SqlExpr, convert: string): SqlExpr {
  if (e.kind !== 'FuncCall' || e.name !== convert || e.schema !== null) return e;
  if (e.args.length !== 1 || e.distinct || e.orderBy || e.filter || e.over) return e;
  return e.args[0] as SqlExpr;
}

export const sql = {
  col: (name: string, table: string | null = null): SqlExpr => ({ kind: 'ColumnRef', table, name }),
  text: (value: string): SqlExpr => ({ kind: 'Literal', type: 'text', value }),
  num: (value: string | number): SqlExpr => ({
    kind: 'Literal',
    type: 'number',
    value: String(value),
  }),
  bool: (value: boolean): SqlExpr => ({ kind: 'Literal', type: 'bool', value: String(value) }),
  null: (): SqlExpr => ({ kind: 'Literal', type: 'null', value: null }),
  bytes: (value: Uint8Array): SqlExpr => ({ kind: 'Literal', type: 'bytea', value }),
  func: (name: string, args: readonly SqlExpr[], schema: string | null = null): SqlExpr => ({
    kind: 'FuncCall',
    schema,
    name,
    args,
  }),
  /** A JSON constructor call of any size (`jsonBuild`): split past MAX_FUNCTION_ARGS. */
  jsonBuild: (name: JsonBuildFunction, args: readonly SqlExpr[]): SqlExpr => jsonBuild(name, args),
  /** A JSON object of key/value entries in order (`jsonObject`: the row form where it can be). */
  jsonObject: (entries: readonly (readonly [string, SqlExpr])[]): SqlExpr => jsonObject(entries),
  /** An aggregate or window call: `sql.agg('json_agg', [x], { orderBy: [...] })`. */
  agg: (
    name: string,
    args: readonly SqlExpr[],
    parts: {
      distinct?: boolean;
      orderBy?: readonly OrderItem[];
      filter?: SqlExpr;
      over?: WindowSpec;
    } = {},
  ): SqlExpr => ({ kind: 'FuncCall', schema: null, name, args, ...parts }),
  bin: (op: string, left: SqlExpr, right: SqlExpr): SqlExpr => ({ kind: 'BinOp', op, left, right }),
  not: (operand: SqlExpr): SqlExpr => ({ kind: 'UnaryOp', op: 'not', operand }),
  isNull: (operand: SqlExpr, negated = false): SqlExpr => ({
    kind: 'UnaryOp',
    op: negated ? 'is not null' : 'is null',
    operand,
    postfix: true,
  }),
  cast: (expr: SqlExpr, type: PgType): SqlExpr => ({ kind: 'Cast', expr, type }),
  param: (index: number): SqlExpr => ({ kind: 'Param', index }),
  star: (table: string | null = null): SqlExpr => ({ kind: 'Star', table }),
  field: (expr: SqlExpr, field: string): SqlExpr => ({ kind: 'FieldSelect', expr, field }),
  /** `a and b ...`; no argument is `true`, one is itself. */
  and: (...args: readonly SqlExpr[]): SqlExpr => boolOp('and', args),
  /** `a or b ...`; no argument is `false`, one is itself. */
  or: (...args: readonly SqlExpr[]): SqlExpr => boolOp('or', args),
  default: (): SqlExpr => ({ kind: 'DefaultValue' }),
  scalar: (query: SqlQuery): SqlExpr => ({ kind: 'SubLink', type: 'scalar', query }),
  exists: (query: SqlQuery): SqlExpr => ({ kind: 'SubLink', type: 'exists', query }),
  array: (query: SqlQuery): SqlExpr => ({ kind: 'SubLink', type: 'array', query }),
  anySub: (left: SqlExpr, op: string, query: SqlQuery): SqlExpr => ({
    kind: 'AnySubLink',
    left,
    op,
    query,
  }),
  order: (
    expr: SqlExpr,
    direction: OrderItem['direction'] = null,
    nulls: OrderItem['nulls'] = null,
  ): OrderItem => ({ expr, direction, nulls }),
  target: (expr: SqlExpr, alias: string | null = null): Target => ({ expr, alias }),
  table: (schema: string | null, name: string, alias: string | null = null): FromItem => ({
    kind: 'TableFrom',
    table: { schema, name },
    alias,
  }),
  subquery: (
    query: SqlQuery,
    alias: string,
    options: { columns?: readonly string[]; lateral?: boolean } = {},
  ): FromItem => ({
    kind: 'SubqueryFrom',
    query,
    alias,
    columns: options.columns ?? null,
    lateral: options.lateral ?? false,
  }),
  fromFunction: (
    call: SqlExpr,
    alias: string | null,
    options: { columns?: readonly ColumnAlias[]; withOrdinality?: boolean; lateral?: boolean } = {},
  ): FromItem => ({
    kind: 'FunctionFrom',
    call,
    alias,
    columns: options.columns ?? null,
    withOrdinality: options.withOrdinality ?? false,
    lateral: options.lateral ?? false,
  }),
  /**
   * The elements of an array in order: `<call> with ordinality as alias(value, ord)`, where
   * `call` unnests it (`unnest(a)`, `jsonb_array_elements(j)`).
   */
  items: (call: SqlExpr, alias: string): FromItem => ({
    kind: 'FunctionFrom',
    call,
    alias,
    columns: [
      { name: 'value', type: null },
      { name: 'ord', type: null },
    ],
    withOrdinality: true,
    lateral: false,
  }),
  join: (
    type: 'inner' | 'left' | 'right' | 'full',
    left: FromItem,
    right: FromItem,
    on: SqlExpr,
  ): FromItem => ({ kind: 'JoinFrom', type, left, right, on }),
  crossJoin: (left: FromItem, right: FromItem): FromItem => ({
    kind: 'JoinFrom',
    type: 'cross',
    left,
    right,
    on: null,
  }),
  cte: (
    name: string,
    query: SqlStatement,
    options: { columns?: readonly string[]; materialized?: boolean | null } = {},
  ): Cte => ({
    name,
    query,
    columns: options.columns ?? null,
    materialized: options.materialized ?? null,
  }),
  with: (ctes: readonly Cte[], recursive = false): WithClause | null =>
    ctes.length === 0 ? null : { recursive, ctes },
  /** A SELECT; every clause not given is empty. */
  select: (
    parts: Optional<
      SelectStatement,
      'with' | 'distinct' | 'from' | 'where' | 'groupBy' | 'having' | 'orderBy' | 'limit' | 'offset'
    >,
  ): SelectStatement => ({
    kind: 'Select',
    with: null,
    distinct: false,
    from: [],
    where: null,
    groupBy: [],
    having: null,
    orderBy: [],
    limit: null,
    offset: null,
    ...parts,
  }),
  setOp: (
    op: SetOperationStatement['op'],
    all: boolean,
    left: SqlQuery,
    right: SqlQuery,
    parts: Partial<Pick<SetOperationStatement, 'with' | 'orderBy' | 'limit' | 'offset'>> = {},
  ): SetOperationStatement => ({
    kind: 'SetOperation',
    op,
    all,
    left,
    right,
    with: null,
    orderBy: [],
    limit: null,
    offset: null,
    ...parts,
  }),
  values: (
    rows: readonly (readonly SqlExpr[])[],
    with_: WithClause | null = null,
  ): ValuesStatement => ({
    kind: 'Values',
    with: with_,
    rows,
  }),
  insert: (
    parts: Optional<InsertStatement, 'with' | 'alias' | 'onConflict' | 'returning'>,
  ): InsertStatement => ({
    kind: 'Insert',
    with: null,
    alias: null,
    onConflict: null,
    returning: [],
    ...parts,
  }),
  update: (
    parts: Optional<UpdateStatement, 'with' | 'alias' | 'from' | 'where' | 'returning'>,
  ): UpdateStatement => ({
    kind: 'Update',
    with: null,
    alias: null,
    from: [],
    where: null,
    returning: [],
    ...parts,
  }),
  delete: (
    parts: Optional<DeleteStatement, 'with' | 'alias' | 'using' | 'where' | 'returning'>,
  ): DeleteStatement => ({
    kind: 'Delete',
    with: null,
    alias: null,
    using: [],
    where: null,
    returning: [],
    ...parts,
  }),
};
